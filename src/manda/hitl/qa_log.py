"""An answered Q&A list read back: Manda's own export with the seller's answers filled in, or a
VDR's Q&A log, in any column layout and language.

Columns are known by what their header means (`qa_header_*` cue sets of the vocabulary: "Answer",
"Antwort", "Réponse"; "Answered by", "Beantwortet von" …), never by their position; the row of
headers is wherever it is (below a title, on another sheet). The file itself was read by the
bounded reader (`manda.ingest.sandbox`): this module sees only its rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from manda.finance.periods import find_dates
from manda.models import LocationKind, ParsedDocument, Section
from manda.vocabulary import vocabulary

Meaning = Literal["id", "question", "answer", "status", "date", "by", "category", "asked"]
MEANINGS: tuple[Meaning, ...] = ("id", "question", "answer", "status", "date", "by", "category",
                                 "asked")
MAX_HEADER_CHARS = 60  # a header names a column; a longer cell is data
HEADER_SCAN_ROWS = 12  # rows of a sheet searched for its header row
Reply = Literal["answered", "open", "partial"]


@dataclass(frozen=True)
class QALogRow:
    """One question of the file, with what the seller answered and when."""

    row: int  # its row in the file, as a spreadsheet shows it
    ref: str  # its number or id in the file's own id column ("12", "Q12", "FIN-03"), or ""
    question: str
    answer: str
    status: Reply | None  # what its status cell says, when the file has one
    status_text: str
    answered_on: date | None
    answered_by: str
    category: str = ""

    @property
    def number(self) -> int | None:
        """The Q&A list's number the id names ("12", "Q12", "#12", "Q-12"), if it is one."""
        match = re.fullmatch(r"\s*(?:q(?:&a)?|#|no\.?|nr\.?|n°)?\s*[-#.]?\s*(\d{1,5})\s*",
                             self.ref, re.IGNORECASE)
        return int(match.group(1)) if match else None


@dataclass(frozen=True)
class QALog:
    """The questions of one answered Q&A file, and the headers its columns were known by."""

    filename: str
    sheet: str | None
    columns: dict[Meaning, str]  # meaning -> the header as the file writes it
    rows: list[QALogRow]

    @property
    def answered(self) -> list[QALogRow]:
        return [r for r in self.rows if r.answer]


def header_meaning(cell: str) -> tuple[Meaning, int] | None:
    """What a header cell means and how much of it said so (the longest cue wins)."""
    text = " ".join(cell.split())
    if not text or len(text) > MAX_HEADER_CHARS:
        return None
    best: tuple[Meaning, int] | None = None
    for meaning in MEANINGS:
        for found in vocabulary().cues(f"qa_header_{meaning}").findall(text):
            if best is None or len(found) > best[1]:
                best = (meaning, len(found))
    return best


def _columns(row: Sequence[str]) -> dict[Meaning, int]:
    """Meaning -> column index, each column one meaning, each meaning its best column."""
    scored = [(m, size, i) for i, cell in enumerate(row)
              if (found := header_meaning(cell)) is not None for m, size in [found]]
    chosen: dict[Meaning, int] = {}
    used: set[int] = set()
    for meaning, _size, index in sorted(scored, key=lambda s: (-s[1], s[2])):
        if meaning not in chosen and index not in used:
            chosen[meaning] = index
            used.add(index)
    return chosen


def _is_header(row: Sequence[str]) -> bool:
    columns = _columns(row)
    return "question" in columns and "answer" in columns


def reply_of(status: str) -> Reply | None:
    """What a status cell says: answered, still open or partly answered (None: it does not say)."""
    words = vocabulary()
    if not status.strip():
        return None
    for reply, cues in (("partial", "qa_status_partial"), ("open", "qa_status_open"),
                        ("answered", "qa_status_answered")):
        if words.cues(cues).found(status):
            return reply  # type: ignore[return-value]
    return None


@dataclass
class _Sheet:
    name: str | None
    rows: list[tuple[int, list[str]]]


def _row_numbers(section: Section) -> list[int]:
    """The file's row number of each row of a section's table (header first)."""
    table = section.table or []
    if section.cell_refs:
        numbers = []
        for refs in section.cell_refs:
            match = re.search(r"(\d+)$", refs[0]) if refs else None
            numbers.append(int(match.group(1)) if match else 0)
        return numbers
    match = re.fullmatch(r"rows? (\d+)(?:-(\d+))?", section.location.label)
    data = len(table) - 1
    last = int(match.group(2) or match.group(1)) if match else data + 1
    # a block's rows follow one another up to its last (the label may start at a title line)
    first = last - data + 1
    return [max(first - 1, 1)] + [first + i for i in range(data)]


def _sheets(parsed: ParsedDocument) -> list[_Sheet]:
    """The rows of every sheet (or of the one CSV table), the header of each block once."""
    sheets: dict[str | None, _Sheet] = {}
    for section in parsed.sections:
        if not section.table:
            continue
        name = (section.location.label.rpartition("!")[0] or None
                if section.location.kind is LocationKind.CELL else None)
        sheet = sheets.setdefault(name, _Sheet(name, []))
        numbers = _row_numbers(section)
        rows = list(zip(numbers, section.table, strict=False))
        if sheet.rows:
            rows = rows[1:]  # each further block repeats the header row
        sheet.rows.extend((n, [" ".join(c.split()) for c in cells]) for n, cells in rows)
    return list(sheets.values())


def _cell(cells: Sequence[str], index: int | None) -> str:
    if index is None or index >= len(cells):
        return ""
    return cells[index].strip()


def read_qa_log(parsed: ParsedDocument) -> QALog | None:
    """The Q&A questions of a parsed file, or None when it has no sheet with a question and an
    answer column (it is then an ordinary data-room document)."""
    for sheet in _sheets(parsed):
        start = next((i for i, (_, cells) in enumerate(sheet.rows[:HEADER_SCAN_ROWS])
                      if _is_header(cells)), None)
        if start is None:
            continue
        header = sheet.rows[start][1]
        columns = _columns(header)
        rows = []
        for number, cells in sheet.rows[start + 1:]:
            question = _cell(cells, columns.get("question"))
            if not question or cells == header:
                continue
            status_text = _cell(cells, columns.get("status"))
            dated = find_dates(_cell(cells, columns.get("date")))
            rows.append(QALogRow(
                row=number,
                ref=_cell(cells, columns.get("id")),
                question=question,
                answer=_cell(cells, columns.get("answer")),
                status=reply_of(status_text),
                status_text=status_text,
                answered_on=dated[0][0] if dated else None,
                answered_by=_cell(cells, columns.get("by")),
                category=_cell(cells, columns.get("category")),
            ))
        return QALog(
            filename=parsed.filename,
            sheet=sheet.name,
            columns={m: header[i] for m, i in columns.items()},
            rows=rows,
        )
    return None
