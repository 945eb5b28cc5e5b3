"""A grid as people see it: one row per document, one cell per column, a row that a later
document amends pointing to it, and the summary line that leads ("14 customer contracts: 5 with
change of control, 2 exclusive, 3 terminable for convenience at ≤ 90 days' notice")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from manda.grid.values import Duration
from manda.models import CellStatus, Document, FindingStatus, GridCell, GridColumn, GridRun
from manda.text import count_of
from manda.vocabulary.grid import grid_vocabulary

__all__ = ["Grid", "GridRow", "GridSpend", "Successor", "summary_line"]

SHORT_NOTICE_DAYS = 90  # the summary counts terminations at this much notice or less


@dataclass(frozen=True)
class Successor:
    """The later document that amends a row's document, and the columns it replaces."""

    document_id: str
    filename: str
    columns: tuple[str, ...]


@dataclass
class GridRow:
    """One document: its cells by column key, their review status, what amends it."""

    document: Document
    kind: str | None
    cells: dict[str, GridCell] = field(default_factory=dict)
    review: dict[str, FindingStatus] = field(default_factory=dict)
    superseded_by: Successor | None = None
    amends: str | None = None  # the file this document amends

    @property
    def name(self) -> str:
        return self.document.path or self.document.filename

    @property
    def unreadable(self) -> str | None:
        reasons = [c.reason for c in self.cells.values() if c.status is CellStatus.UNREADABLE]
        return reasons[0] if reasons and len(reasons) == len(self.cells) else None

    def replaced(self, column: str) -> bool:
        return self.superseded_by is not None and column in self.superseded_by.columns


@dataclass
class GridSpend:
    """What reading the grid's documents cost in this run (cached cells cost nothing)."""

    documents_read: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None

    @property
    def tokens(self) -> int:
        return (self.input_tokens + self.output_tokens + self.cache_read_tokens
                + self.cache_write_tokens)

    def line(self) -> str:
        read = count_of(self.documents_read, "document")
        if not self.tokens:
            return f"{read} read, no model tokens (read offline)"
        cost = f", ~${self.cost_usd:.4f}" if self.cost_usd is not None else ""
        return (f"{read} read: {self.input_tokens:,} input tokens, "
                f"{self.output_tokens:,} output, {self.cache_read_tokens:,} read from the "
                f"prompt cache, {self.cache_write_tokens:,} written to it{cost}")


@dataclass
class Grid:
    """A run's grid as it stands: rows so far, progress, summary, spend."""

    run: GridRun
    rows: list[GridRow]
    done: int
    spend: GridSpend = field(default_factory=GridSpend)

    @property
    def total(self) -> int:
        return len(self.run.document_ids)

    @property
    def columns(self) -> list[GridColumn]:
        return self.run.columns

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    @property
    def unreadable(self) -> list[tuple[str, str]]:
        return [(row.name, why) for row in self.rows if (why := row.unreadable)]

    @property
    def summary(self) -> str:
        return summary_line(self.run.title, self.rows, self.columns)

    def as_json(self) -> dict[str, Any]:
        """The stable `manda grid --json` shape (see README)."""
        return {
            "grid": self.run.id, "deal": self.run.deal_id, "title": self.run.title,
            "status": self.run.status.value, "done": self.done, "total": self.total,
            "summary": self.summary,
            "columns": [{"key": c.key, "name": c.name, "type": c.type, "standard": c.standard}
                        for c in self.columns],
            "rows": [_row_json(row, self.columns) for row in self.rows],
            "unreadable": [{"document": name, "reason": why} for name, why in self.unreadable],
            "usage": {"documents_read": self.spend.documents_read,
                      "input_tokens": self.spend.input_tokens,
                      "output_tokens": self.spend.output_tokens,
                      "cache_read_tokens": self.spend.cache_read_tokens,
                      "cache_write_tokens": self.spend.cache_write_tokens,
                      "cost_usd": self.spend.cost_usd},
        }


def _row_json(row: GridRow, columns: Sequence[GridColumn]) -> dict[str, Any]:
    cells: dict[str, Any] = {}
    for column in columns:
        cell = row.cells.get(column.key)
        if cell is None:
            cells[column.key] = {"status": "pending"}
            continue
        cells[column.key] = {
            "status": cell.status.value, "value": cell.value, "shown": cell.shown,
            "detail": cell.detail, "quote": cell.quote, "place": cell.place,
            "page": cell.location.page if cell.location else None, "clause": cell.clause,
            "searched": cell.searched, "reason": cell.reason, "finding_id": cell.finding_id,
            "review": row.review[column.key].value if column.key in row.review else None,
            "replaced_by": row.superseded_by.filename if row.replaced(column.key) and
            row.superseded_by else None,
        }
    return {"document": row.name, "document_id": row.document.id, "kind": row.kind,
            "amends": row.amends,
            "superseded_by": {"document": row.superseded_by.filename,
                              "columns": list(row.superseded_by.columns)}
            if row.superseded_by else None,
            "cells": cells}


def _notice_days(cell: GridCell) -> int | None:
    notice = cell.value.get("notice") if isinstance(cell.value, dict) else None
    if not notice or notice == "none":
        return 0 if notice == "none" else None
    count, _, unit = str(notice).replace(" business ", " ").partition(" ")
    if not count.isdigit():
        return None
    unit = unit if unit.endswith("s") else unit + "s"
    return Duration(int(count), unit, 0, 0).days if unit in ("days", "weeks", "months",
                                                             "years") else None


def summary_line(title: str, rows: Sequence[GridRow], columns: Sequence[GridColumn]) -> str:
    """"14 customer contracts: 5 with change of control, 2 exclusive, 3 terminable for
    convenience at ≤ 90 days' notice" — a row's cells a later document replaced are left out."""
    g = grid_vocabulary()
    noun = title or "documents"
    parts: list[str] = []
    for column in columns:
        if not column.standard or not g.column(column.key).summary:
            continue
        spec = g.column(column.key)
        said = [row.cells[column.key] for row in rows if column.key in row.cells
                and row.cells[column.key].status is CellStatus.STATED
                and not row.replaced(column.key)]
        if spec.type == "termination":
            yes = [c for c in said if isinstance(c.value, dict) and c.value.get("terminable")]
            short = [c for c in yes if (days := _notice_days(c)) is not None
                     and days <= SHORT_NOTICE_DAYS]
            if not yes:
                continue
            text = f"{len(yes)} {spec.summary_words}"
            if short and len(short) == len(yes):
                text += f" at ≤ {SHORT_NOTICE_DAYS} days' notice"
            elif short:
                text += f" ({len(short)} at ≤ {SHORT_NOTICE_DAYS} days' notice)"
            parts.append(text)
        elif spec.type == "yes_no":
            yes = sum(1 for c in said if c.value is True)
            if yes:
                parts.append(f"{yes} {spec.summary_words}")
    amended = sum(1 for row in rows if row.superseded_by is not None)
    if amended:
        parts.append(f"{amended} amended by a later document")
    unreadable = sum(1 for row in rows if row.unreadable)
    if unreadable:
        parts.append(f"{unreadable} could not be read")
    count = len(rows)
    head = f"{count} {noun if count != 1 else noun.rstrip('s')}"
    return f"{head}: {', '.join(parts)}" if parts else head
