"""The file formats Manda reads, one row each: extensions, how the bytes are known, the reader, and
what a person is told when a file of it holds nothing.

Detection (`detect`), parsing (`parse_file`), the opening of archives and e-mails at ingestion
(`manda.ingest.expand`) and every list of formats shown to people read this table; a new format is
a row here and its reader's module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How a format's bytes are recognised (the extension is only a hint):
#   magic  – its first bytes (`magic`); office – an Office Open XML package holding `part`;
#   ole2   – an Office 97-2003 container holding one of `streams`; text – plain text, its kind
#   named by the extension; archive – a plain ZIP.
Sniff = Literal["magic", "office", "ole2", "text", "archive"]
# What a file holds besides its own text, opened into files of the room at ingestion.
Holds = Literal["files", "attachments"]

NOTHING_READABLE = "contains no readable text; check that the right file was uploaded"


@dataclass(frozen=True)
class Format:
    """One file format: what it is called, how it is known, and what reads it."""

    type: str  # what parse_file and Document.file_type call it: "xlsx"
    name: str  # in messages ("upload the original Excel workbook instead")
    extensions: tuple[str, ...]  # lower case, without the dot; the first is the type's own
    sniff: Sniff
    reader: tuple[str, str] | None  # (module of manda.ingest.parsers, function); None: opened
    empty: str = NOTHING_READABLE  # why a file of it that yields no text is refused
    magic: bytes = b""  # sniff "magic": the bytes it starts with (within the first KB)
    part: str = ""  # sniff "office": the folder of the package that holds its content
    streams: tuple[str, ...] = ()  # sniff "ole2": stream names (a trailing _ is a prefix)
    holds: Holds | None = None


FORMATS: tuple[Format, ...] = (
    Format("pdf", "PDF", ("pdf",), "magic", ("pdf", "parse_pdf"), magic=b"%PDF-",
           empty="contains no readable text, not even by OCR of its pages; ask for a text PDF "
                 "or the source document"),
    Format("xlsx", "Excel workbook", ("xlsx", "xlsm"), "office", ("xlsx", "parse_xlsx"),
           part="xl/",
           empty="contains no data: every sheet is empty; check that the right file was "
                 "uploaded"),
    Format("xls", "Excel 97-2003 workbook", ("xls",), "ole2", ("xls", "parse_xls"),
           streams=("Workbook", "Book")),
    Format("docx", "Word document", ("docx",), "office", ("docx", "parse_docx"), part="word/"),
    Format("pptx", "PowerPoint deck", ("pptx", "pptm"), "office", ("pptx", "parse_pptx"),
           part="ppt/",
           empty="contains no readable text on any slide (images are not OCR'd yet)"),
    Format("csv", "CSV file", ("csv", "tsv"), "text", ("csv_", "parse_csv")),
    Format("md", "Markdown file", ("md", "markdown"), "text", ("text", "parse_markdown")),
    Format("txt", "text file", ("txt", "text"), "text", ("text", "parse_text")),
    Format("eml", "e-mail (.eml)", ("eml",), "text", ("email_", "parse_eml"),
           holds="attachments"),
    Format("msg", "Outlook e-mail (.msg)", ("msg",), "ole2", ("email_", "parse_msg"),
           streams=("__substg1.0_",), holds="attachments"),
    Format("zip", "ZIP archive", ("zip",), "archive", None, holds="files"),
)

BY_TYPE: dict[str, Format] = {f.type: f for f in FORMATS}
BY_EXTENSION: dict[str, Format] = {ext: f for f in FORMATS for ext in f.extensions}
# What parse_file reads (an archive is opened into its files before anything is read).
SUPPORTED_TYPES: tuple[str, ...] = tuple(f.type for f in FORMATS if f.reader is not None)
# What people are told is supported: every type, archives included.
SUPPORTED_LIST = ", ".join(f.type for f in FORMATS)


def format_of(filename: str) -> Format | None:
    """The format a file's extension names, if any (a hint: detection reads the bytes)."""
    _, dot, ext = filename.strip().rpartition(".")
    return BY_EXTENSION.get(ext.lower()) if dot else None


def holding(holds: Holds) -> frozenset[str]:
    """The extensions of the formats that hold files, or attachments, to open."""
    return frozenset(ext for f in FORMATS if f.holds == holds for ext in f.extensions)


def readable_formats() -> str:
    """The formats read, as a person would list them: "PDF, Excel workbook, …, Outlook e-mail
    (.msg)" (archives are opened into these)."""
    return ", ".join(f.name for f in FORMATS if f.reader is not None)
