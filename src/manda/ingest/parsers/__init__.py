"""Turn a data-room file into located sections, or say in plain words why it cannot be read."""

from __future__ import annotations

import importlib
import logging
import zipfile
from collections.abc import Callable
from pathlib import Path

from manda.errors import UnreadableFileError
from manda.ingest.parsers.base import (
    DEFAULT_LIMITS,
    SUPPORTED_TYPES,
    ParseLimits,
    check_count,
    first_title_line,
    out_of_memory,
    short_detail,
    unreadable,
)
from manda.ingest.parsers.dates import detect_document_date
from manda.ingest.parsers.detect import detect_file_type
from manda.models import ParsedDocument

__all__ = [
    "SUPPORTED_TYPES",
    "ParseLimits",
    "UnreadableFileError",
    "detect_document_date",
    "detect_file_type",
    "parse_file",
]

log = logging.getLogger(__name__)

Parser = Callable[[Path, str, ParseLimits], ParsedDocument]

# type -> (module, function); a parser's libraries load the first time a file of its type comes.
_PARSERS: dict[str, tuple[str, str]] = {
    "pdf": ("pdf", "parse_pdf"),
    "xlsx": ("xlsx", "parse_xlsx"),
    "xls": ("xls", "parse_xls"),
    "eml": ("email_", "parse_eml"),
    "msg": ("email_", "parse_msg"),
    "docx": ("docx", "parse_docx"),
    "pptx": ("pptx", "parse_pptx"),
    "csv": ("csv_", "parse_csv"),
    "md": ("text", "parse_markdown"),
    "txt": ("text", "parse_text"),
}


def parser_for(file_type: str) -> Parser:
    module, function = _PARSERS[file_type]
    parser: Parser = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return parser

_NOTHING_TO_READ = {
    "pdf": "contains no readable text, not even by OCR of its pages; ask for a text PDF or the "
    "source document",
    "xlsx": "contains no data: every sheet is empty; check that the right file was uploaded",
    "pptx": "contains no readable text on any slide (images are not OCR'd yet)",
}


def parse_file(
    path: Path, *, limits: ParseLimits = DEFAULT_LIMITS, filename: str | None = None
) -> ParsedDocument:
    """Parse one file into sections with exact locations, its title and its own date.

    `filename` is the name a person knows the file by (a Slack upload is stored under another
    name); it is used in errors, for the extension hint and in the result. Raises
    UnreadableFileError with a reason written for that person.
    """
    name = filename or path.name
    file_type = detect_file_type(path, name, limits)
    parser = parser_for(file_type)
    try:
        parsed = parser(path, name, limits)
    except UnreadableFileError:
        raise
    except MemoryError:
        raise unreadable(name, out_of_memory(limits)) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        raise unreadable(name, f"is corrupt: damaged container ({short_detail(exc)})") from exc
    except Exception as exc:  # every library fails differently on damaged files
        log.warning("%s: %s parser failed", name, file_type, exc_info=True)
        reason = f"is corrupt: damaged {file_type} file ({short_detail(exc)}); ask for a fresh copy"
        raise unreadable(name, reason) from exc
    characters = sum(len(section.text) for section in parsed.sections)
    check_count(name, characters, limits.max_characters, "characters", "max_characters")
    if not any(section.text.strip() for section in parsed.sections):
        nothing = "contains no readable text; check that the right file was uploaded"
        raise unreadable(name, _NOTHING_TO_READ.get(file_type, nothing))
    if not parsed.title:
        parsed.title = _title_from_text(parsed)
    parsed.doc_date = parsed.doc_date or detect_document_date(parsed)  # an e-mail's own Date
    return parsed


def _title_from_text(parsed: ParsedDocument) -> str | None:
    """The first line when it reads like a title; a table's header row is not a title."""
    first = next((s for s in parsed.sections if s.text.strip()), None)
    if first is None:
        return None
    if first.table is not None and len(first.text.strip().split("\n")) <= len(first.table):
        return None  # no note above the table: its first line is the header row
    return first_title_line(first.text)
