"""Saves Word and PowerPoint files with fixed document properties and stable bytes."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Protocol

from manda.sample._package import rewrite_package


class _CoreProperties(Protocol):
    author: str
    title: str
    last_modified_by: str
    created: datetime
    modified: datetime
    revision: int


class _OfficeFile(Protocol):
    @property
    def core_properties(self) -> _CoreProperties: ...

    def save(self, path: str) -> None: ...


def save_office_file(document: _OfficeFile, path: Path, *, issued: date, author: str,
                     title: str) -> None:
    """Save a python-docx Document or python-pptx Presentation reproducibly."""
    stamp = datetime(issued.year, issued.month, issued.day, 9, 0, 0)
    props = document.core_properties
    props.author = author
    props.last_modified_by = author
    props.title = title
    props.created = stamp
    props.modified = stamp
    props.revision = 1
    document.save(str(path))
    rewrite_package(path, issued)
