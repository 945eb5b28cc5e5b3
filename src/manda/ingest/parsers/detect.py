"""What a file really is, from its first bytes (the extension is only a hint); bad files stop here.

Everything here reads at most the first 64 KB and, for Office files, the ZIP central directory:
sizes and compression ratios are checked before any part of an Office file is decompressed.
Python's `zipfile` never inflates a member past its declared size, so the declared sizes bound
what a parser can be made to decompress later.
"""

from __future__ import annotations

import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from manda.ingest.parsers.base import (
    ParseLimits,
    human_size,
    over_limit,
    short_detail,
    unreadable,
)
from manda.ingest.parsers.formats import BY_EXTENSION, BY_TYPE, FORMATS, SUPPORTED_LIST, Format

HEAD_BYTES = 64 * 1024
# A member this large that inflates more than MAX_RATIO times is not a real document part.
RATIO_MIN_BYTES = 10 * 2**20
MAX_RATIO = 200

_ZIP = "a ZIP archive"
_TEXT = "text"  # content kind for any plain text; the extension says which text format
# Legacy binary formats with no maintained pure-Python reader: named, with what to do instead.
_LEGACY_UNREADABLE = {
    "WordDocument": ("a legacy Word 97-2003 document (.doc)", "docx"),
    "PowerPoint Document": ("a legacy PowerPoint 97-2003 deck (.ppt)", "pptx"),
}
_PROTECTED = "is password-protected; ask the seller for an unprotected copy"

# (offset, magic, what it is) for formats we can name but not read.
_BINARY_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (0, b"\xff\xd8\xff", "a JPEG image"),
    (0, b"GIF87a", "a GIF image"),
    (0, b"GIF89a", "a GIF image"),
    (0, b"II*\x00", "a TIFF image"),
    (0, b"MM\x00*", "a TIFF image"),
    (0, b"\x1f\x8b", "a gzip archive"),
    (0, b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (0, b"Rar!\x1a\x07", "a RAR archive"),
    (0, b"\xfd7zXZ\x00", "an xz archive"),
    (0, b"\x7fELF", "a program (ELF executable)"),
    (0, b"SQLite format 3\x00", "an SQLite database"),
    (0, b"OggS", "an audio file"),
    (0, b"ID3", "an MP3 audio file"),
)


@dataclass(frozen=True)
class _Content:
    """What the bytes say: a type we parse (`kind`) or a description of what it is instead."""

    kind: str | None
    what: str


_SNIFFED: dict[str, tuple[Format, ...]] = {
    kind: tuple(f for f in FORMATS if f.sniff == kind and f.reader is not None)
    for kind in ("magic", "office", "ole2")
}


def _a(name: str) -> str:
    """"an Excel workbook", "a PDF": a format's name as what a file is."""
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


def extension_of(filename: str) -> str:
    return Path(filename.strip()).suffix.lower().lstrip(".")


def detect_file_type(path: Path, filename: str, limits: ParseLimits) -> str:
    """The type to parse `path` as (one of SUPPORTED_TYPES), or UnreadableFileError saying why."""
    try:
        if path.is_dir():
            raise unreadable(filename, "is a folder, not a file; upload the documents inside it")
        size = path.stat().st_size
    except FileNotFoundError:
        raise unreadable(filename, "could not be found; it may have been moved or deleted")\
            from None
    except OSError as exc:
        raise unreadable(filename, f"could not be opened ({short_detail(exc)})") from exc
    if size == 0:
        raise unreadable(filename, "is empty (0 bytes); upload the file again")
    if size > limits.max_bytes:
        shown, limit = human_size(size), human_size(limits.max_bytes)
        if shown == limit:  # just over: rounding would make them look equal
            shown, limit = f"{size:,} bytes", f"{limits.max_bytes:,} bytes"
        raise unreadable(
            filename,
            f"is {shown}, over the {limit} limit (MANDA_MAX_FILE_MB); split it or raise the limit",
        )
    with path.open("rb") as f:
        head = f.read(HEAD_BYTES)
    ext = extension_of(filename)
    content = _classify(path, head, filename, ext, limits)
    return _decide(filename, ext, content)


def _readable(ext: str) -> Format | None:
    """The format a file of this extension is read as (an archive is opened, never read)."""
    found = BY_EXTENSION.get(ext)
    return found if found is not None and found.reader is not None else None


def _decide(filename: str, ext: str, content: _Content) -> str:
    named = _readable(ext)
    expected = named.type if named is not None else None
    if content.kind is not None and content.kind != _TEXT:
        return content.kind  # a real PDF/Office file: the bytes win over the name
    if content.kind == _TEXT:
        if named is not None and named.sniff == "text":
            return named.type
        if not ext:
            return "txt"
        if expected is not None:
            raise _mismatch(filename, ext, expected, "plain text")
        raise _unsupported(filename, ext)
    if expected is not None:
        raise _mismatch(filename, ext, expected, content.what)
    if content.what == _ZIP:
        raise unreadable(filename, "is a ZIP archive; unzip it and upload the documents inside")
    if ext:
        raise _unsupported(filename, ext)
    raise unreadable(
        filename, f"is {content.what}, not a supported type; supported: {SUPPORTED_LIST}"
    )


def _mismatch(filename: str, ext: str, expected: str, what: str) -> Exception:
    return unreadable(
        filename,
        f"is named .{ext} but is {what}; upload the original {BY_TYPE[expected].name} instead",
    )


def _unsupported(filename: str, ext: str) -> Exception:
    return unreadable(filename, f"is not a supported type (.{ext}); supported: {SUPPORTED_LIST}")


def _classify(path: Path, head: bytes, filename: str, ext: str, limits: ParseLimits) -> _Content:
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _inspect_zip(path, filename, ext, limits)
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return _ole2_kind(path, filename, ext)
    for fmt in _SNIFFED["magic"]:  # the spec tolerates a little junk before a PDF's header
        if fmt.magic in head[:1024]:
            return _Content(fmt.type, _a(fmt.name))
    for offset, magic, what in _BINARY_SIGNATURES:
        if head[offset : offset + len(magic)] == magic:
            return _Content(None, what)
    if head[8:12] == b"WEBP" and head.startswith(b"RIFF"):
        return _Content(None, "a WebP image")
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in (b"heic", b"heix", b"mif1", b"msf1", b"avif"):
            return _Content(None, "an HEIC/AVIF image")
        return _Content(None, "a video or audio file")
    if _looks_like_text(head):
        return _classify_text(head, ext)
    if head.startswith(b"MZ"):
        return _Content(None, "a Windows program (.exe)")
    return _Content(None, "a binary file of unknown type")


def _looks_like_text(head: bytes) -> bool:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    if b"\x00" in head:
        return False
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls <= len(head) * 0.05


def _classify_text(head: bytes, ext: str) -> _Content:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:64].lower()
    if start.startswith(b"{\\rtf"):
        return _Content(None, "an RTF document")
    html = start.startswith((b"<!doctype html", b"<html"))
    named = BY_EXTENSION.get(ext)
    if html and (named is None or named.type not in ("txt", "md")):  # .txt/.md may hold HTML
        return _Content(None, "an HTML web page")
    return _Content(_TEXT, "plain text")


def _inspect_zip(path: Path, filename: str, ext: str, limits: ParseLimits) -> _Content:
    """Check an Office file's container without decompressing any of it, then name its kind."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        named = BY_EXTENSION.get(ext)
        container = f".{ext}" if named is not None and named.sniff == "office" else "ZIP"
        reason = f"is corrupt: damaged {container} container ({short_detail(exc)})"
        raise unreadable(filename, reason) from exc
    with zf:
        infos = zf.infolist()
        total = sum(info.file_size for info in infos)
        if total > limits.max_uncompressed_bytes:
            raise unreadable(
                filename,
                "is a compressed archive that expands to more than "
                f"{human_size(limits.max_uncompressed_bytes)} (possible zip bomb); it was not "
                "opened — if it is genuine, raise MANDA_MAX_UNCOMPRESSED_MB",
            )
        for info in infos:
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > RATIO_MIN_BYTES and ratio > MAX_RATIO:
                raise unreadable(
                    filename,
                    f"is a compressed archive with a part that expands {ratio:,.0f} times "
                    "(possible zip bomb); it was not opened",
                )
            if info.flag_bits & 0x1:
                raise unreadable(filename, _PROTECTED)
        names = {info.filename for info in infos}
        try:
            kind = _zip_kind(zf, names)
            if kind.kind is not None and BY_TYPE[kind.kind].sniff == "office":
                _check_xml_parts(zf, infos, filename, limits)
            return kind
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError) as exc:
            reason = f"is corrupt: damaged container ({short_detail(exc)})"
            raise unreadable(filename, reason) from exc


# Worksheets are streamed row by row (their cells are counted there); every other part is
# built into a whole tree by python-docx / python-pptx / openpyxl.
_STREAMED_PARTS = ("xl/worksheets/",)


def _check_xml_parts(
    zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], filename: str, limits: ParseLimits
) -> None:
    """Refuse an Office file whose XML parts would build huge trees, before any tree is built.

    A part's declared size is checked first; then its tags are counted while it is inflated in
    blocks (never held whole): a 100 KB file of empty paragraphs can otherwise cost gigabytes.
    """
    for info in infos:
        if not info.filename.endswith((".xml", ".rels")):
            continue
        if info.file_size > limits.max_xml_part_bytes:
            raise over_limit(
                filename,
                f"has a part ({info.filename}) of {human_size(info.file_size)} of XML",
                human_size(limits.max_xml_part_bytes),
                "MANDA_MAX_XML_PART_MB",
            )
        if info.filename.startswith(_STREAMED_PARTS):
            continue
        elements = 0
        with zf.open(info) as part:
            while block := part.read(1 << 20):  # a tag cut between blocks is off by one
                elements += block.count(b"<") - block.count(b"</")
        if elements > limits.max_xml_elements:
            raise over_limit(
                filename,
                f"has a part ({info.filename}) of more than {limits.max_xml_elements:,} XML "
                "elements",
                f"{limits.max_xml_elements:,}-element",
                None,
            )


def _zip_kind(zf: zipfile.ZipFile, names: set[str]) -> _Content:
    if "[Content_Types].xml" in names:
        with zf.open("[Content_Types].xml") as part:
            content_types = part.read(2**20).decode("utf-8", "replace")
        macro = "macroEnabled" in content_types
        for fmt in _SNIFFED["office"]:
            if not any(n.startswith(fmt.part) for n in names):
                continue
            if macro and fmt.type == "docx":  # macros run in Word; .xlsm and .pptm are read
                return _Content(None, "a macro-enabled Word document (.docm)")
            return _Content(fmt.type, _a(fmt.name))
        return _Content(None, "an Office package of an unknown kind")
    if "mimetype" in names:
        with zf.open("mimetype") as part:
            mimetype = part.read(200).decode("ascii", "replace")
        for key, what in (
            ("opendocument.text", "an OpenDocument text (.odt)"),
            ("opendocument.spreadsheet", "an OpenDocument spreadsheet (.ods)"),
            ("opendocument.presentation", "an OpenDocument presentation (.odp)"),
            ("epub", "an EPUB e-book"),
        ):
            if key in mimetype:
                return _Content(None, what)
    return _Content(None, _ZIP)


def _ole2_kind(path: Path, filename: str, ext: str) -> _Content:
    """Old-style Office containers (OLE2), named by the streams they hold (never by the name):
    an encrypted modern Office file, an Outlook e-mail, an Excel 97-2003 workbook, or a legacy
    Word/PowerPoint file that Manda cannot read."""
    streams = _ole2_streams(path, filename)
    if "EncryptedPackage" in streams:
        raise unreadable(filename, _PROTECTED)
    # an e-mail's container also holds its attachments' streams: it is named before them
    for fmt in sorted(_SNIFFED["ole2"], key=lambda f: f.holds is None):
        if any(_stream_named(name, wanted) for name in streams for wanted in fmt.streams):
            return _Content(fmt.type, _a(fmt.name))
    for stream, (what, modern) in _LEGACY_UNREADABLE.items():
        if stream in streams:
            raise unreadable(
                filename,
                f"is {what}, which Manda cannot read (no maintained pure-Python reader exists); "
                f"open it in Office, save it as .{modern} and upload again",
            )
    raise unreadable(
        filename,
        "is in the legacy Office 97-2003 format; open it in Office, save it as .docx, .xlsx or "
        ".pptx and upload again",
    )


def _stream_named(name: str, wanted: str) -> bool:
    """A stream name as a format's row gives it: whole, or a prefix when it ends in "_"."""
    return name.startswith(wanted) if wanted.endswith("_") else name == wanted


def _ole2_streams(path: Path, filename: str) -> set[str]:
    """The names of every stream and storage in an OLE2 file (its directory, not its data)."""
    import olefile

    try:
        with olefile.OleFileIO(str(path)) as ole:
            return {part for entry in ole.listdir(streams=True, storages=True) for part in entry}
    except (OSError, ValueError, IndexError, EOFError) as exc:  # olefile's errors on bad files
        reason = f"is corrupt: damaged Office 97-2003 container ({short_detail(exc)})"
        raise unreadable(filename, reason) from exc
