"""Writes a Word document of headed sections, as contracts and legal summaries are laid out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path

from docx import Document

from manda.sample._office import save_office_file


def write_sectioned_docx(path: Path, heading: str, preamble: str,
                         sections: Iterable[tuple[str, Sequence[str]]], *, issued: date,
                         author: str, title: str) -> Path:
    """A title heading and its preamble, then each section's heading and its paragraphs."""
    document = Document()
    document.add_heading(heading, level=0)
    document.add_paragraph(preamble)
    for section, paragraphs in sections:
        document.add_heading(section, level=1)
        for text in paragraphs:
            document.add_paragraph(text)
    save_office_file(document, path, issued=issued, author=author, title=title)
    return path
