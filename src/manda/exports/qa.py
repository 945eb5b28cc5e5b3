"""The deal's Q&A list as the spreadsheet a deal team sends to the seller."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from manda.exports.xlsx import write_table
from manda.models import QAItem

HEADERS = ("No.", "Question", "Category", "Priority", "Status", "Source", "Asked by", "Date")


def qa_rows(items: Sequence[QAItem], people: Mapping[str, str] | None = None) -> list[list[object]]:
    """One row per question, in list order; `people` turns ids (Slack users) into names."""
    names = people or {}
    return [
        [
            item.number or None,
            item.question + (f"\nAnswer: {item.answer}" if item.answer else ""),
            item.category,
            item.priority.value,
            item.status,
            item.source or "",
            names.get(item.created_by, item.created_by),
            item.created_at.date(),
        ]
        for item in items
    ]


def write_qa_list(
    path: Path,
    deal_id: str,
    items: Sequence[QAItem],
    *,
    people: Mapping[str, str] | None = None,
) -> Path:
    """Write the Q&A list of `deal_id` to an XLSX workbook at `path`."""
    return write_table(
        path,
        sheet="Q&A list",
        headers=HEADERS,
        rows=qa_rows(items, people),
        title=f"{deal_id} — Q&A list ({len(items)} question{'s' if len(items) != 1 else ''})",
    )
