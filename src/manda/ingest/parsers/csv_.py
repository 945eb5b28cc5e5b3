"""CSV files as blocks of rows (`rows 2-26`), each row's cells paired with the header.

The header is found where it is (below a title line, over two rows); lines above it are notes
that every block repeats, since they often carry the unit ("USD 000s") and the date.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

from manda.ingest.parsers.base import ParseLimits, decode_text, one_line, table_text, unreadable
from manda.ingest.parsers.layout import caption_heading, table_shape
from manda.models import Location, LocationKind, ParsedDocument, Section

BLOCK_ROWS = 25
SNIFF_CHARS = 32 * 1024


def rows_location(first: int, last: int) -> Location:
    """`row 7` or `rows 2-26`: record numbers as a spreadsheet shows them (header is row 1)."""
    if first == last:
        return Location.for_row(first)
    return Location(kind=LocationKind.ROW, label=f"rows {first}-{last}")


def parse_csv(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    text = decode_text(path.read_bytes())
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text))
    rows: list[tuple[int, list[str]]] = []
    try:
        for number, record in enumerate(reader, start=1):
            cells = [one_line(c) for c in record]
            if not any(cells):
                continue
            rows.append((number, cells))
            if len(rows) > limits.max_sheet_rows + 1:
                raise unreadable(
                    filename,
                    f"has more than {limits.max_sheet_rows:,} rows of data; split it into "
                    "smaller files or raise MANDA_MAX_SHEET_ROWS",
                )
    except csv.Error as exc:
        raise unreadable(filename, f"is corrupt: {exc} (near row {reader.line_num})") from exc
    width = max((len(cells) for _, cells in rows), default=0)
    rows = [(n, cells + [""] * (width - len(cells))) for n, cells in rows]
    sections: list[Section] = []
    if rows:
        shape = table_shape([cells for _, cells in rows])
        notes = [" | ".join(c for c in cells if c) for _, cells in rows[: shape.header_start]]
        header = shape.header
        caption = caption_heading(notes)
        path = (caption,) if caption else ()
        header_number = rows[shape.header_start][0]
        data = rows[shape.data_start :]
        if not data:
            sections.append(Section(text=table_text([header], notes), location=rows_location(
                rows[0][0], header_number), table=[header], heading_path=path))
        for start in range(0, len(data), BLOCK_ROWS):
            block = data[start : start + BLOCK_ROWS]
            table = [header] + [cells for _, cells in block]
            first = rows[0][0] if start == 0 and notes else block[0][0]
            sections.append(
                Section(
                    text=table_text(table, notes),
                    location=rows_location(first, block[-1][0]),
                    table=table,
                    heading_path=path,
                )
            )
    return ParsedDocument(filename=filename, file_type="csv", sections=sections,
                          units=len(sections))


DELIMITERS = ",;\t|"


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    sample = text[:SNIFF_CHARS]
    if len(text) > SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rfind("\n")]
    try:
        sniffed: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample,
                                                                      delimiters=DELIMITERS)
    except csv.Error:
        sniffed = csv.excel
    # The sniffer can take a comma inside the text of a ";" file for its delimiter (a title line
    # above the table, answers written in sentences): the delimiter that splits the most lines
    # into the same number of fields wins, the sniffer's choice on a tie.
    best = max(DELIMITERS, key=lambda d: (_regular_lines(sample, d), d == sniffed.delimiter))
    if best == sniffed.delimiter or _regular_lines(sample, best) <= _regular_lines(
            sample, sniffed.delimiter):
        return sniffed
    return type("Sniffed", (csv.excel,), {"delimiter": best})


def _regular_lines(sample: str, delimiter: str) -> int:
    """Lines that `delimiter` splits into the sample's most common number of fields (> 1)."""
    try:
        counts = Counter(len(r) for r in csv.reader(io.StringIO(sample, newline=""),
                                                    delimiter=delimiter) if any(r))
    except csv.Error:
        return 0
    widths = [(n, w) for w, n in counts.items() if w > 1]
    return max(widths)[0] if widths else 0
