"""The formats table (`manda.ingest.parsers.formats`) is the one list of what Manda reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from manda.errors import UnreadableFileError
from manda.ingest.parsers import parse_file, parser_for
from manda.ingest.parsers.base import DEFAULT_LIMITS
from manda.ingest.parsers.detect import detect_file_type
from manda.ingest.parsers.formats import (
    BY_EXTENSION,
    FORMATS,
    SUPPORTED_LIST,
    SUPPORTED_TYPES,
    format_of,
    holding,
)

README = Path(__file__).parents[2] / "README.md"


def test_one_row_per_format_and_one_format_per_extension() -> None:
    types = [f.type for f in FORMATS]
    assert len(types) == len(set(types))
    extensions = [e for f in FORMATS for e in f.extensions]
    assert len(extensions) == len(set(extensions)) == len(BY_EXTENSION)
    assert all(f.extensions[0] == f.type for f in FORMATS)
    assert SUPPORTED_LIST.split(", ") == types


@pytest.mark.parametrize("file_type", SUPPORTED_TYPES)
def test_every_readable_format_has_its_reader(file_type: str) -> None:
    assert callable(parser_for(file_type))


def test_each_sniffed_format_says_how_its_bytes_are_known() -> None:
    for f in FORMATS:
        assert {"magic": bool(f.magic), "office": bool(f.part), "ole2": bool(f.streams)}.get(
            f.sniff, True), f.type


def test_what_is_opened_at_ingestion() -> None:
    assert holding("files") == {"zip"}
    assert holding("attachments") == {"eml", "msg"}
    assert format_of("room.ZIP").type == "zip" and format_of("Offer.eml").holds == "attachments"
    assert format_of("README") is None


def test_the_extension_names_the_text_format_and_a_mismatch_names_the_format(
        tmp_path: Path) -> None:
    notes = tmp_path / "notes.markdown"
    notes.write_text("# Notes\n\nRevenue grew.\n")
    assert detect_file_type(notes, notes.name, DEFAULT_LIMITS) == "md"
    fake = tmp_path / "Q3.xlsx"
    fake.write_text("Revenue,5.2\n")
    with pytest.raises(UnreadableFileError, match="upload the original Excel workbook instead"):
        parse_file(fake)


def test_the_readme_names_every_format() -> None:
    """The `manda ingest` row of the README's command table lists what it reads."""
    row = next(line for line in README.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `manda ingest"))
    missing = [f.type for f in FORMATS
               if not any(re.search(rf"\b{re.escape(word)}\b", row, re.IGNORECASE)
                          for word in (f.type, *f.extensions))]
    assert missing == []
