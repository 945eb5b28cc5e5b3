"""The deal's Q&A list as the spreadsheet a deal team sends to the seller."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from manda.exports.xlsx import write_table
from manda.models import QAItem

# The seller fills in the last three; `manda qa import` reads the file back by these headers.
HEADERS = ("No.", "Question", "Category", "Priority", "Status", "Source", "Asked by",
           "Date asked", "Answer", "Answered by", "Answer date")


def qa_rows(items: Sequence[QAItem], people: Mapping[str, str] | None = None) -> list[list[object]]:
    """One row per question, in list order; `people` turns ids (Slack users) into names."""
    names = people or {}
    return [
        [
            item.number or None,
            item.question,
            item.category,
            item.priority.value,
            item.status,
            item.source or "",
            names.get(item.created_by, item.created_by),
            item.created_at.date(),
            item.answer or "",
            item.answered_by or "",
            item.answered_on,
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
