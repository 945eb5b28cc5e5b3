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
    ParseLimits,
    check_count,
    first_title_line,
    out_of_memory,
    short_detail,
    unreadable,
)
from manda.ingest.parsers.dates import detect_document_date
from manda.ingest.parsers.detect import detect_file_type
from manda.ingest.parsers.formats import BY_TYPE, SUPPORTED_TYPES
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

def parser_for(file_type: str) -> Parser:
    """The reader of a type (`formats.FORMATS`); its libraries load the first time a file of
    its type comes."""
    reader = BY_TYPE[file_type].reader
    if reader is None:
        raise KeyError(f"{file_type} files are opened into their files, never read")
    module, function = reader
    parser: Parser = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return parser


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
        raise unreadable(name, BY_TYPE[file_type].empty)
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
