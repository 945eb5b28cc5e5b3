"""Table rows read back from passages, each cell with its column header, so no row is cited bare.

Ingestion writes a table passage as a header row followed by rows whose cells repeat their header
(`Jane Doe | Title: CFO | Base salary: 185,000`); Markdown tables (`| a | b |`) are read too. The
agent uses these rows for people facts (a census row), ownership (a cap table) and any answer that
quotes a row: the row is always shown with the headers it belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from manda.agent.unusual import body
from manda.ingest.parsers.staggered import unstaggered

_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_KEYED = re.compile(r"^(?P<key>[^:|]{1,60}?):\s*(?P<value>.*)$")


@dataclass
class Row:
    """One table row: its label (first cell), its cells by column header, the line as written."""

    label: str
    cells: dict[str, str]
    line: str

    def get(self, *wanted: re.Pattern[str]) -> tuple[str, str] | None:
        """The first (header, value) whose header matches one of `wanted`, in that order."""
        for pattern in wanted:
            for header, value in self.cells.items():
                if pattern.search(header) and value.strip():
                    return header, value.strip()
        return None

    def render(self) -> str:
        """The row with its headers: "Jane Doe — Title: CFO; Base salary: 185,000"."""
        parts = [f"{h}: {v}" for h, v in self.cells.items() if v.strip()]
        return f"{self.label} — " + "; ".join(parts) if parts else self.label


@dataclass
class Table:
    """The rows of one passage's table, with the caption lines written above it."""

    header: list[str]
    rows: list[Row] = field(default_factory=list)
    caption: list[str] = field(default_factory=list)

    def has_header(self, pattern: re.Pattern[str]) -> bool:
        return any(pattern.search(h) for h in self.header)


def _cells(line: str) -> list[str]:
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|"):
        text = text[:-1]
    return [c.strip() for c in text.split("|")]


def read_tables(text: str) -> list[Table]:
    """Every table in a passage (a run of `|` lines), header first; prose lines become captions."""
    tables: list[Table] = []
    current: Table | None = None
    caption: list[str] = []
    # a passage stored before ingestion re-cut staggered tables is re-cut here; on one already
    # re-cut this changes nothing (`unstaggered` leaves `|` rows as they are)
    lines = unstaggered(body(text).splitlines())
    for i, raw in enumerate(lines):
        line = raw.strip()
        if "|" not in line:
            if current is not None and line and _continues(current, lines[i + 1:]):
                # "Series B Preferred" between rows: a group heading inside the table
                current.rows.append(Row(label=line, cells={}, line=line))
                continue
            if current is not None:
                tables.append(current)
                current = None
                caption = []
            if line:
                caption = [*caption[-2:], line]
            continue
        if _SEPARATOR.match(line):
            continue
        cells = _cells(line)
        if current is None:
            current = Table(header=cells, caption=caption)
            continue
        if not current.rows and _header_lacks_label(current.header, cells):
            current.header.insert(0, "")
        row = _row(cells, current.header, line)
        if not current.rows and (begun := _label_begun(current.caption, row.label)):
            # "Acquisition of companies, … and purchases of" / the header repeated / "intangible
            # and other assets | …": the row's label begun above the header the page repeated
            current.caption = current.caption[:-1]
            row = Row(label=f"{begun} {row.label}", cells=row.cells, line=line)
        current.rows.append(row)
    if current is not None:
        tables.append(current)
    return [t for t in tables if t.rows]


def _label_begun(caption: list[str], label: str) -> str | None:
    """The start of a row's label left above its table's header, where a page break or a
    repeated header cut the label: the caption's last line runs on (no sentence's or heading's
    ending) into a label that opens in lowercase."""
    if not caption or not label[:1].islower():
        return None
    last = caption[-1].strip()
    if not last or last[-1:] in ".:;!?)" or any(c.isdigit() for c in last):
        return None
    return last


def _header_lacks_label(header: list[str], cells: list[str]) -> bool:
    """"31.03.2025 | 31.03.2024" over "Vorräte | 31.03.2025: 6.900 | 31.03.2024: 6.300": a
    header written without the (empty) label cell, its first cell already a value column."""
    keys = {m.group("key").strip().lower() for c in cells[1:] if (m := _KEYED.match(c))}
    return bool(header) and header[0].strip().lower() in keys


def _continues(table: Table, rest: list[str]) -> bool:
    """Whether the next non-empty line is a row of `table` (its cells keyed by the header)."""
    following = next((r.strip() for r in rest if r.strip()), "")
    if "|" not in following:
        return False
    known = {h.lower() for h in table.header if h}
    keyed = [m for c in _cells(following)[1:] if (m := _KEYED.match(c))]
    return bool(keyed) and all(m.group("key").strip().lower() in known for m in keyed)


def _row(cells: list[str], header: list[str], line: str) -> Row:
    """Cells keyed by their header: `Key: value` cells name it, plain cells go by position."""
    keyed: dict[str, str] = {}
    known = {h.lower(): h for h in header}
    label = cells[0] if cells else ""
    for position, cell in enumerate(cells):
        m = _KEYED.match(cell)
        if m and m.group("key").strip().lower() in known:
            keyed[known[m.group("key").strip().lower()]] = m.group("value")
        elif position == 0:
            continue
        elif position < len(header):
            keyed[header[position]] = cell
    first = _KEYED.match(label)
    if first and first.group("key").strip().lower() in known:
        label = first.group("value")
    return Row(label=label, cells=keyed, line=line)


def rows_naming(texts: Iterable[str], name: str) -> list[tuple[Table, Row]]:
    """Rows whose label or cells name `name` (every word of it, in any case)."""
    words = [w.lower() for w in re.findall(r"[\w'’-]+", name) if len(w) > 1]
    out: list[tuple[Table, Row]] = []
    for text in texts:
        for table in read_tables(text):
            for row in table.rows:
                lowered = row.line.lower()
                if words and all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", lowered)
                                 for w in words):
                    out.append((table, row))
    return out
