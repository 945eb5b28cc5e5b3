"""Saved keyword indexes: each deal's tantivy index kept on disk between processes, so a new
process opens it (memory-mapped) and catches up from SQLite instead of building it.

Layout under `MANDA_HOME/keyword-index/<store id>/<hash of the deal id>/`:
- `g<generation>/`: a published snapshot (tantivy's files and `stamp.json`, which names the
  store, the deal, the change-log generation it reflects and the last changes it applied, so a
  database restored from an older copy is not mistaken for the history it was built from). It is
  never written after being renamed into place, so any process may read it.
- `.work-<pid>-<token>/`: one process's own copy, hard links to a snapshot's files (the same
  inodes, so the OS cache holds their pages once for every process) plus the segments its own
  catch-ups write. tantivy allows one writer per index directory: here only its owner writes it,
  and the owner holds a lock on it while it lives, so a dead process's copy is recognised and
  removed.
- `.publish-<pid>-<token>/`: a snapshot being assembled (hard links to a working copy's committed
  files), renamed to `g<generation>` in one step: a reader sees a whole snapshot or none.
- `build.lock`: held while a process builds the deal's index from SQLite, so workers starting
  together build it once and the others load what it published.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from manda.private import private_dir

try:
    import fcntl
except ImportError:  # Windows: no flock, so no shared directory (each process builds in memory)
    fcntl = None  # type: ignore[assignment]

SUPPORTED = fcntl is not None
log = logging.getLogger(__name__)

FORMAT = 1  # bumped when the schema, analyzer or stamp change: older snapshots are rebuilt
STAMP = "stamp.json"
KEEP = 2  # snapshots kept: a process whose read began before the newest one still finds one
STALE_SECONDS = 60.0  # an unlocked working copy this old belongs to a process that died
BUILD_WAIT_SECONDS = 600.0  # past this, a process stops waiting for another's build and builds
TANTIVY_LOCKS = (".tantivy-writer.lock", ".tantivy-meta.lock")  # per directory, never linked


@dataclass(frozen=True)
class Stamp:
    """What a snapshot reflects: checked against SQLite before it is trusted."""

    store_id: str
    deal_id: str
    generation: int
    chunks: int
    probe: list[tuple[int, int, str | None]]  # last changes: (chunk rowid, generation, chunk id)
    format: int = FORMAT


def deal_stem(deal_id: str) -> str:
    return hashlib.sha256(deal_id.encode()).hexdigest()[:24]


class WorkingCopy:
    """A process's own index directory, locked while the process uses it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def remove(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        shutil.rmtree(self.path, ignore_errors=True)


class DealFolder:
    """One deal's saved snapshots and working copies (see the module docstring)."""

    def __init__(self, root: Path, store_id: str, deal_id: str) -> None:
        self.path = root / store_id / deal_stem(deal_id)
        self.store_id = store_id
        self.deal_id = deal_id

    def snapshots(self) -> list[tuple[int, Path]]:
        """(generation, path) of the published snapshots, newest first."""
        found: list[tuple[int, Path]] = []
        if not self.path.is_dir():
            return found
        for path in self.path.glob("g*"):
            with contextlib.suppress(ValueError):
                found.append((int(path.name[1:]), path))
        return sorted(found, reverse=True)

    def read_stamp(self, snapshot: Path) -> Stamp | str:
        """The snapshot's stamp, or why it cannot be trusted (FileNotFoundError: it is gone)."""
        try:
            raw = json.loads((snapshot / STAMP).read_text())
            raw["probe"] = [(int(r), int(g), c) for r, g, c in raw.get("probe", [])]
            stamp = Stamp(**raw)
        except FileNotFoundError:
            if snapshot.is_dir():
                return "it has no stamp"
            raise
        except (OSError, ValueError, TypeError) as exc:
            return f"its stamp is unreadable ({exc})"
        if stamp.format != FORMAT:
            return f"it was written in format {stamp.format}, this code reads {FORMAT}"
        if stamp.store_id != self.store_id or stamp.deal_id != self.deal_id:
            return f"it belongs to store {stamp.store_id}, deal {stamp.deal_id!r}"
        if f"g{stamp.generation}" != snapshot.name:
            return f"its stamp says generation {stamp.generation}"
        return stamp

    def _make(self) -> None:
        """The folders, readable by their owner only (a data room's words are in them)."""
        for folder in (self.path.parent.parent, self.path.parent, self.path):
            private_dir(folder)

    def working_copy(self, snapshot: Path | None = None) -> WorkingCopy:
        """A new locked directory of this process; with `snapshot`, hard links to its files
        (FileNotFoundError when the snapshot was removed meanwhile)."""
        self._make()
        path = self.path / f".work-{os.getpid()}-{secrets.token_hex(4)}"
        path.mkdir(mode=0o700)
        fd = os.open(path, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        copy = WorkingCopy(path, fd)
        if snapshot is not None:
            try:
                _link_files(snapshot, path, skip=(*TANTIVY_LOCKS, STAMP))
                if not (path / "meta.json").exists():
                    raise FileNotFoundError(snapshot / "meta.json")
            except BaseException:
                copy.remove()
                raise
        return copy

    def publish(self, copy: WorkingCopy, stamp: Stamp) -> Path | None:
        """Publish a working copy's committed files as `g<generation>`; None when it could not
        (already published by another process, or the disk refused: the log says so)."""
        target = self.path / f"g{stamp.generation}"
        if target.exists():
            return None
        partial = self.path / f".publish-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            partial.mkdir(mode=0o700)
            _link_files(copy.path, partial, skip=TANTIVY_LOCKS)
            # not synced: tantivy synced its files; a stamp cut by a power loss reads as damage
            (partial / STAMP).write_text(json.dumps(asdict(stamp)))
            os.rename(partial, target)
        except OSError as exc:
            shutil.rmtree(partial, ignore_errors=True)
            if not target.exists():
                log.warning(
                    "Could not save the keyword index of deal %s to %s (%s); this process keeps "
                    "its own copy and others build theirs. Check that the folder is writable "
                    "and has space.", self.deal_id, target, exc,
                )
            return None
        return target

    def prune(self, newest: int, *, ahead_of: int | None = None) -> None:
        """Keep the `KEEP` newest snapshots up to generation `newest`; with `ahead_of` (the
        store's committed generation) also drop the snapshots ahead of it."""
        kept = 0
        for generation, path in self.snapshots():
            if generation > newest:
                if ahead_of is not None and generation > ahead_of:
                    self.drop(path, f"its generation {generation} is ahead of the store's "
                              f"{ahead_of} (a database restored from an older copy?)")
                continue
            kept += 1
            if kept > KEEP:
                self.remove(path)

    def drop(self, snapshot: Path, why: str) -> None:
        log.warning("Dropping the saved keyword index %s of deal %s: %s; it is rebuilt from "
                    "SQLite.", snapshot, self.deal_id, why)
        self.remove(snapshot)

    def remove(self, snapshot: Path) -> None:
        """Rename, then delete: a reader either links a whole snapshot or finds it gone."""
        trash = self.path / f".trash-{os.getpid()}-{secrets.token_hex(4)}"
        with contextlib.suppress(OSError):
            os.rename(snapshot, trash)
            shutil.rmtree(trash, ignore_errors=True)

    def sweep(self) -> None:
        """Remove what dead processes left: working copies, half-published snapshots, trash."""
        if not self.path.is_dir():
            return
        now = time.time()
        for path in self.path.glob(".*-*"):
            if not path.name.startswith((".work-", ".publish-", ".trash-")):
                continue
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime < STALE_SECONDS:
                    continue
                if path.name.startswith(".work-") and not _unlocked(path):
                    continue
                shutil.rmtree(path, ignore_errors=True)

    @contextlib.contextmanager
    def building(self) -> Iterator[None]:
        """Hold the deal's build lock: another process building it makes this one wait."""
        self._make()
        fd = os.open(self.path / "build.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            waited = _lock(fd, BUILD_WAIT_SECONDS)
            if waited is None:
                log.warning("Another process has been building the keyword index of deal %s "
                            "for %.0f s; building it here too.", self.deal_id, BUILD_WAIT_SECONDS)
            elif waited > 1:
                log.info("Waited %.1f s for another process to build the keyword index of deal "
                         "%s.", waited, self.deal_id)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock


def folder_size(path: Path) -> int:
    """Bytes in a folder, each file counted once however many snapshots link it."""
    seen: set[int] = set()
    total = 0
    for file in path.rglob("*"):
        with contextlib.suppress(OSError):
            info = file.stat()
            if file.is_file() and info.st_ino not in seen:
                seen.add(info.st_ino)
                total += info.st_size
    return total


def _link_files(source: Path, target: Path, *, skip: tuple[str, ...]) -> None:
    """Hard-link every file of `source` into `target` (copy where the file system refuses)."""
    for entry in os.scandir(source):
        if entry.name in skip or not entry.is_file(follow_symlinks=False):
            continue
        destination = target / entry.name
        try:
            os.link(entry.path, destination)
        except FileNotFoundError:
            raise
        except OSError:  # no hard links here (another file system type): a private copy
            shutil.copy2(entry.path, destination)


def _unlocked(path: Path) -> bool:
    """True when no process holds the working copy's lock (its owner has exited)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def _lock(fd: int, timeout: float) -> float | None:
    """Seconds waited for an exclusive lock on `fd`, or None when `timeout` passed first."""
    started = time.monotonic()
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return time.monotonic() - started
        except BlockingIOError:
            if time.monotonic() - started > timeout:
                return None
            time.sleep(0.05)
