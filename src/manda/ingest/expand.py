"""A batch of paths becomes the data room's files: folders walked, ZIP exports and e-mails opened.

A virtual data room arrives as a ZIP export of numbered folders ("2 Financial/2.3 Audited/…"),
often with archives and e-mails inside. Each file keeps its place in the room (`room_path`); an
e-mail's attachments become files of their own that remember the e-mail (`attached_to`).
Opening is bounded (ZIP-bomb safe): nesting depth, number of files and bytes written all count
against `ParseLimits`, every size is checked before anything is written (a member or an
attachment larger than the file size limit is never written), and writes stop at the declared
size. The ingestion service opens each archive and e-mail in the bounded reader process
(`manda.ingest.sandbox`), never in its own. A member whose path would leave the archive (`../`,
`/etc`, `C:\\`), a link, an encrypted member, one past a limit or one the file system refuses
is skipped and named with its reason; the rest goes on. Folders are walked without following
links: a link inside a folder is named and refused (it may point outside the room).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import stat
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from manda.ingest.parsers.base import ParseLimits, human_size, short_detail
from manda.ingest.parsers.formats import format_of
from manda.models import Document, SkippedFile

NAMED_SKIPS = 20  # past this many members over the file limit, one line counts the rest
RATIO_MIN_BYTES = 10 * 2**20  # a member this large expanding > MAX_RATIO times is a bomb
MAX_RATIO = 200
_NOISE = frozenset({"__macosx", "thumbs.db", "desktop.ini", ".ds_store"})
_DRIVE = re.compile(r"^[A-Za-z]:")
_INDEX = re.compile(r"^(\d{1,3}(?:\.\d{1,3})*)\.?(?=[\s_\-–)]|$)")


@dataclass(frozen=True)
class RoomFile:
    """One file of the room: where its bytes are, how reports name it, its place in the room."""

    path: Path
    name: str  # "Q3.pdf", or "room.zip/2 Financial/Q3.pdf" for a member of an archive
    room_path: str | None = None  # "2 Financial/Q3.pdf": its place in the data room
    attached_to: str | None = None  # `name` of the e-mail that carried it

    @property
    def filename(self) -> str:
        return PurePosixPath(self.name).name

    @property
    def room_index(self) -> str | None:
        return room_index(self.room_path)


def room_index(room_path: str | None) -> str | None:
    """The room's own numbering of a place: "2 Financial/2.3 Audited/2.3.1 FY23.pdf" -> "2.3.1".

    The deepest numbered part wins; numbers have at most three digits each, so a year
    ("2023 Budget.xlsx") is not an index.
    """
    if not room_path:
        return None
    for part in reversed(PurePosixPath(room_path).parts):
        match = _INDEX.match(part)
        if match:
            return match.group(1)
    return None


LINK_REFUSED = (
    "is a symbolic link; links are never followed (it may point outside the data room) — "
    "copy the file itself into the folder"
)
NOT_A_FILE = "is not a regular file (a device, socket or pipe); it was not read"


def collect(
    paths: Iterable[Path], display_names: Mapping[Path, str] | None = None
) -> tuple[list[RoomFile], list[SkippedFile]]:
    """Files given directly, and folders walked (sorted; hidden files left out; links inside a
    folder refused and named, never followed)."""
    files: list[RoomFile] = []
    missing: list[SkippedFile] = []
    names = display_names or {}
    for path in paths:
        if path.is_dir():
            found, refused = _walk(path)
            files += found
            missing += refused
        elif path.is_file():
            files.append(RoomFile(path, names.get(path, path.name)))
        else:
            missing.append(
                SkippedFile(filename=str(path), reason="does not exist or is not a file")
            )
    return files, missing


def _walk(folder: Path) -> tuple[list[RoomFile], list[SkippedFile]]:
    """A folder's files in sorted order, without following any link (`os.walk` never descends
    into a linked folder; each link is named)."""
    files: list[RoomFile] = []
    refused: list[SkippedFile] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        dirs[:] = sorted(d for d in dirs if not _is_noise([d]))
        for name in sorted(names) + [d for d in dirs if (here / d).is_symlink()]:
            path = here / name
            relative = path.relative_to(folder)
            if _is_noise(relative.parts):
                continue
            if path.is_symlink():
                refused.append(SkippedFile(filename=relative.as_posix(), reason=LINK_REFUSED))
            elif not stat.S_ISREG(path.lstat().st_mode):
                refused.append(SkippedFile(filename=relative.as_posix(), reason=NOT_A_FILE))
            else:
                files.append(RoomFile(path, path.name, room_path=relative.as_posix()))
        dirs[:] = [d for d in dirs if not (here / d).is_symlink()]
    files.sort(key=lambda f: f.room_path or "")
    return files, refused


@dataclass
class ExpansionBudget:
    """What is left of the limits for one batch: files and bytes written, shared by all levels
    and by every archive of the batch (carried to the reader process and back)."""

    files_left: int
    bytes_left: int
    over_count: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, limits: ParseLimits) -> ExpansionBudget:
        return cls(limits.max_archive_files, limits.max_archive_bytes)


def needs_opening(file: RoomFile) -> bool:
    """An archive or an e-mail: what the expander opens (in the reader process)."""
    found = format_of(file.name)
    return found is not None and found.holds is not None


class Expander:
    """Opens archives and e-mails of a batch into `workdir`, within `limits`."""

    def __init__(self, workdir: Path, limits: ParseLimits) -> None:
        self._workdir = workdir
        self._limits = limits
        self._ids = itertools.count(1)

    def expand(
        self, files: Iterable[RoomFile], budget: ExpansionBudget | None = None
    ) -> tuple[list[RoomFile], list[SkippedFile]]:
        """Every file of the batch with what its archives and e-mails hold, and what was
        skipped (the members over the file count named at the end)."""
        budget = budget or ExpansionBudget.of(self._limits)
        out: list[RoomFile] = []
        skipped: list[SkippedFile] = []
        for file in files:
            self.expand_one(file, budget, out, skipped)
        return out, skipped + over_count(budget, self._limits)

    def expand_one(
        self, file: RoomFile, budget: ExpansionBudget, out: list[RoomFile],
        skipped: list[SkippedFile],
    ) -> None:
        """One file of the batch: itself (unless an archive) and what it holds, in `out`."""
        self._visit(file, 0, budget, out, skipped)

    def _visit(
        self, file: RoomFile, depth: int, budget: ExpansionBudget, out: list[RoomFile],
        skipped: list[SkippedFile],
    ) -> None:
        found = format_of(file.name)  # what a file holds is opened by its name's format
        try:
            if found is not None and found.holds == "files":
                self._open_archive(file, depth + 1, budget, out, skipped)
                return
            out.append(file)
            if found is not None and found.holds == "attachments":
                self._open_attachments(file, found.type, depth + 1, budget, out, skipped)
        except OSError as exc:  # the file system refused a name or a write: this file only
            skipped.append(SkippedFile(filename=file.name, reason=(
                f"could not be unpacked here ({short_detail(exc)}); the rest was ingested"
            )))

    # ---------------------------------------------------------------- archives

    def _open_archive(
        self, archive: RoomFile, depth: int, budget: ExpansionBudget, out: list[RoomFile],
        skipped: list[SkippedFile],
    ) -> None:
        if depth > self._limits.max_archive_depth:
            skipped.append(self._too_deep(archive))
            return
        try:
            zf = zipfile.ZipFile(archive.path)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
            reason = f"is corrupt: damaged ZIP archive ({short_detail(exc)}); ask for a fresh copy"
            skipped.append(SkippedFile(filename=archive.name, reason=reason))
            return
        target = self._workdir / f"a{next(self._ids)}"
        seen: set[str] = set()
        with zf:
            for info in sorted(zf.infolist(), key=lambda i: i.filename):
                if info.is_dir():
                    continue
                label = f"{archive.name}/{info.filename}"
                parts = _safe_parts(info.filename)
                if parts is None:
                    skipped.append(SkippedFile(filename=label, reason=(
                        "has a path that points outside the archive; refused (an archive may "
                        "only hold files inside its own folders)"
                    )))
                    continue
                if _is_noise(parts):
                    continue
                inner = "/".join(parts)
                label = f"{archive.name}/{inner}"
                if inner.lower() in seen:
                    skipped.append(SkippedFile(filename=label, reason=(
                        "appears twice in the archive; the first copy was ingested"
                    )))
                    continue
                seen.add(inner.lower())
                reason = self._refusal(info, budget)
                if reason == "over count":
                    budget.over_count.append(label)
                    continue
                if reason:
                    skipped.append(SkippedFile(filename=label, reason=reason))
                    continue
                dest = target.joinpath(*parts)
                try:
                    written = _extract(zf, info, dest, budget.bytes_left)
                except _ExtractError as exc:
                    skipped.append(SkippedFile(filename=label, reason=str(exc)))
                    continue
                budget.files_left -= 1
                budget.bytes_left -= written
                place = f"{archive.room_path}/{inner}" if archive.room_path else inner
                member = RoomFile(dest, label, room_path=place, attached_to=archive.attached_to)
                self._visit(member, depth, budget, out, skipped)

    def _refusal(self, info: zipfile.ZipInfo, budget: ExpansionBudget) -> str | None:
        mode = info.external_attr >> 16
        if mode and stat.S_ISLNK(mode):
            return "is a symbolic link inside the archive; links are never followed"
        if info.flag_bits & 0x1:
            return "is password-protected inside the archive; ask for an unprotected export"
        if budget.files_left <= 0:
            return "over count"
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_MIN_BYTES and ratio > MAX_RATIO:
            return (
                f"expands {ratio:,.0f} times its compressed size (possible zip bomb); "
                "it was not opened"
            )
        if info.file_size > self._limits.max_bytes:
            return (
                f"is {human_size(info.file_size)} unpacked, over the "
                f"{human_size(self._limits.max_bytes)} file size limit (MANDA_MAX_FILE_MB); it "
                "was not opened"
            )
        if info.file_size > budget.bytes_left:
            limit = human_size(self._limits.max_archive_bytes)
            return (
                f"would expand the archives past {limit} (possible zip bomb, or raise "
                "MANDA_MAX_ARCHIVE_MB); it was not opened"
            )
        return None

    def _too_deep(self, archive: RoomFile) -> SkippedFile:
        limit = self._limits.max_archive_depth
        return SkippedFile(filename=archive.name, reason=(
            f"is an archive nested more than {limit} levels deep (MANDA_MAX_ARCHIVE_DEPTH); "
            "it was not opened — unzip it and upload what it holds"
        ))

    # ---------------------------------------------------------------- e-mails

    def _open_attachments(
        self, mail: RoomFile, kind: str, depth: int, budget: ExpansionBudget,
        out: list[RoomFile], skipped: list[SkippedFile],
    ) -> None:
        from manda.ingest.parsers.email_ import read_email

        try:
            opened = read_email(mail.path, kind, mail.name, self._limits,
                                decode_up_to=budget.bytes_left)
        except MemoryError:
            raise  # the reader's memory limit: the e-mail is refused by name
        except Exception:  # a bad e-mail: its own parse reports the problem
            return
        skipped += [SkippedFile(filename=f"{mail.name}/{r.filename}", reason=r.reason)
                    for r in opened.refused]
        if opened.attachments and depth > self._limits.max_archive_depth:
            skipped.append(self._too_deep(mail))
            return
        target = self._workdir / f"m{next(self._ids)}"
        used: set[str] = set()
        for attachment in opened.attachments:
            name = _unique(attachment.filename, used)
            label = f"{mail.name}/{name}"
            if budget.files_left <= 0:
                budget.over_count.append(label)
                continue
            if len(attachment.data) > budget.bytes_left:
                limit = human_size(self._limits.max_archive_bytes)
                skipped.append(SkippedFile(filename=label, reason=(
                    f"would take the batch past {limit} of unpacked files (MANDA_MAX_ARCHIVE_MB)"
                )))
                continue
            dest = target / name
            try:
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(attachment.data)
            except OSError as exc:
                skipped.append(SkippedFile(filename=label, reason=(
                    f"could not be written here ({short_detail(exc)}); the rest was ingested"
                )))
                continue
            budget.files_left -= 1
            budget.bytes_left -= len(attachment.data)
            place = f"{mail.room_path}/{name}" if mail.room_path else None
            self._visit(RoomFile(dest, label, room_path=place, attached_to=mail.name), depth,
                        budget, out, skipped)


def over_count(budget: ExpansionBudget, limits: ParseLimits) -> list[SkippedFile]:
    """The members left out because the batch held more files than the limit, named (the
    first ones) and counted (the rest)."""
    if not budget.over_count:
        return []
    reason = (
        f"the archives hold more than {limits.max_archive_files:,} files "
        "(MANDA_MAX_ARCHIVE_FILES); this one was not opened — split the export or raise the limit"
    )
    named = budget.over_count[:NAMED_SKIPS]
    skipped = [SkippedFile(filename=n, reason=reason) for n in named]
    rest = len(budget.over_count) - len(named)
    if rest > 0:
        skipped.append(SkippedFile(filename=f"{rest:,} more archive members", reason=reason))
    return skipped


def expand_in_reader(
    file: RoomFile, workdir: Path, limits: ParseLimits, budget: ExpansionBudget
) -> tuple[list[RoomFile], list[SkippedFile], ExpansionBudget]:
    """One archive or e-mail opened into `workdir` (run in the reader process, under its
    memory and time limits); what it held, what was skipped, and the budget left."""
    out: list[RoomFile] = []
    skipped: list[SkippedFile] = []
    Expander(workdir, limits).expand_one(file, budget, out, skipped)
    return out, skipped, budget


class _ExtractError(Exception):
    """A member that could not be written out; the message is the reason a person reads."""


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, allowed: int) -> int:
    """Write one member, never more than its declared size nor `allowed` bytes; bytes written."""
    cap = min(info.file_size, allowed)
    written = 0
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        with zf.open(info) as src, dest.open("wb") as dst:
            while block := src.read(1 << 20):
                written += len(block)
                if written > cap:
                    raise _ExtractError(
                        "expands past the size the archive declares for it (possible zip bomb); "
                        "it was not opened"
                    )
                dst.write(block)
    except NotImplementedError as exc:  # deflate64, bzip2 variants Python lacks, …
        _remove(dest)
        raise _ExtractError(
            f"uses a compression method Manda cannot read ({short_detail(exc)}); re-create the "
            "archive with standard ZIP compression"
        ) from exc
    except (zipfile.BadZipFile, EOFError, ValueError, zlib.error) as exc:
        _remove(dest)
        raise _ExtractError(f"is corrupt inside the archive ({short_detail(exc)})") from exc
    except OSError as exc:  # a name or a write the file system refuses
        _remove(dest)
        raise _ExtractError(f"could not be written here ({short_detail(exc)})") from exc
    except _ExtractError:
        _remove(dest)
        raise
    return written


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def _safe_parts(name: str) -> list[str] | None:
    """The member's path as folder names, or None when it would leave the archive."""
    normal = name.replace("\\", "/").replace("\0", "")
    if normal.startswith("/") or _DRIVE.match(normal):
        return None
    parts = [p for p in normal.split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return parts


def _is_noise(parts: Iterable[str]) -> bool:
    """Operating-system litter (`__MACOSX/`, `.DS_Store`, `Thumbs.db`) and hidden files."""
    return any(p.startswith(".") or p.lower() in _NOISE for p in parts)


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 1
    while candidate.lower() in used:
        n += 1
        stem, dot, suffix = name.rpartition(".")
        candidate = f"{stem} ({n}).{suffix}" if dot else f"{name} ({n})"
    used.add(candidate.lower())
    return candidate


@dataclass(frozen=True)
class TreeRow:
    """One line of a room shown as a tree: a folder, or a document under its folders."""

    depth: int
    label: str
    document: Document | None = None


def room_tree(documents: Iterable[Document]) -> list[TreeRow]:
    """The deal's documents under their folders, in the room's order; loose files last.

    An e-mail's attachments sit under the e-mail itself.
    """
    placed = sorted((d for d in documents if d.path), key=lambda d: _natural(d.path or ""))
    loose = sorted((d for d in documents if not d.path), key=lambda d: d.filename.lower())
    rows: list[TreeRow] = []
    shown: set[tuple[str, ...]] = set()
    for doc in placed:
        parts = tuple(PurePosixPath(doc.path or "").parts)
        for depth in range(1, len(parts)):
            prefix = parts[:depth]
            if prefix not in shown:
                shown.add(prefix)
                rows.append(TreeRow(depth - 1, f"{prefix[-1]}/"))
        shown.add(parts)
        rows.append(TreeRow(len(parts) - 1, parts[-1], doc))
    rows += [TreeRow(0, d.filename, d) for d in loose]
    return rows


def _natural(path: str) -> list[tuple[int, int | str]]:
    """"2.10 Tax" after "2.9 Debt": numbers compare as numbers."""
    return [
        (0, int(token)) if token.isdigit() else (1, token)
        for token in re.split(r"(\d+)", path.lower())
        if token
    ]
