"""The rows of a passage's tables as spans, each with its statement's scale, its heading and its
periods."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from manda.agent.evidence import Source
from manda.agent.relevance import stems_of
from manda.agent.spans.balances import balance_side, totals_row
from manda.agent.spans.span import (
    _CHANGE_COLUMN,
    _COUNT_ROW,
    _PER_SHARE_ASKED,
    _PRIMARY,
    Span,
    _Pool,
    heads_rows,
    label_periods,
)
from manda.agent.tables import Row, Table, read_tables
from manda.agent.unusual import trim
from manda.finance.figures import (
    StatementScale,
    column_date,
    column_header_line,
    column_year,
    statement_scale,
    states_the_whole,
)
from manda.finance.periods import find_dates, find_periods, parse_period
from manda.finance.statements import StatementKind, page_statements
from manda.ingest.segments import names_no_part
from manda.vocabulary import vocabulary

_FLOW = vocabulary().cues("flow_caption")  # "Years Ended December 31", "exercice clos le"


# a column of the whole among parts' columns: "Total", "Consolidated"
_WHOLE_COLUMN = vocabulary().cues("whole_heading") | vocabulary().cues("total_row_start")


_SHARE_COUNT = vocabulary().cues("shares_row")  # "Shares used in computing earnings per share"
_DATE_LEAD = vocabulary().cues("count_date_lead")  # "as of", "at": the words before a day's date
# the first word of a column's title naming a measure of each row ("Number of Shares")
_MEASURE_OPENER = vocabulary().cues("measure_column_opener")


def _document_scales(page_lines: dict[tuple[str, int | None], list[str]]
                     ) -> dict[str, StatementScale]:
    """Each document's one statement scale, where every unit line of its passages retrieved
    agrees ("(millions)" on each of Target's statements): a statement page whose own caption
    was cut off is read at it, never at face value ("$14,326" for $14.3 billion)."""
    found: dict[str, list[StatementScale]] = {}
    for (doc_id, _), lines in page_lines.items():
        for line in lines:
            if "|" not in line and (scale := statement_scale([line.strip()])).line:
                found.setdefault(doc_id, []).append(scale)
    return {doc_id: scales[0] for doc_id, scales in found.items()
            if len({s.factor for s in scales}) == 1 and scales[0].factor != 1.0}


def _common_size(table: Table, above: Sequence[str]) -> bool:
    """A common-size table: a row of it, or of the block just above it under no unit line of
    its own and no amount in "$" after it, states 100% in every column ("Revenue | 2021:
    100.0% | 2020: 100.0%" over "Costs and expenses" and "Cost of revenue | 2021: 51.4")."""
    start = next((i + 1 for i in range(len(above) - 1, -1, -1)
                  if "|" not in above[i] and statement_scale([above[i].strip()]).line), 0)
    whole = False
    rows = [r for t in read_tables("\n".join(above[start:])) for r in t.rows]
    for row in [*rows, *table.rows]:
        if states_the_whole(list(row.cells.values())):
            whole = True
        elif any("$" in c for c in row.cells.values()):
            whole = False
    return whole


def _add_rows(pool: _Pool, table: Table, lines: list[str], page: list[str], source: Source,
              year_end: date | None, document_scale: StatementScale | None = None,
              currency: str | None = None, segment: str = "", placed: Sequence[str] = ()
              ) -> None:
    """A table's rows as spans, each read at its statement's scale and currency (a statement
    that prints no "$" of its own, but states a scale, is in the document's `currency`); a
    segment's block stands under its segment's name. `placed`: the statements ingestion read
    the passage's whole page as (`SearchHit.statements`), where the rows retrieved alone are
    too few to tell: a P&L or cash-flow row states a flow over its column's period, in the
    document's currency and scale; a balance sheet's row a balance at its column's date."""
    first = table.rows[0].line if table.rows else ""
    at = next((i for i, line in enumerate(lines) if line.strip() == first.strip()), len(lines))
    above = [line.strip() for line in lines[:at] if "|" not in line]
    scale = statement_scale(above)
    if not scale.line:
        scale = statement_scale([line.strip() for line in page if "|" not in line])
    if not scale.line and table.header:  # the corner cell states it: "K€", "TEUR", "$000"
        scale = statement_scale(table.header[:1])
    # a statement puts "$" on its first and total rows only: every row of it is in dollars
    printed = "USD" if any("$" in c for r in table.rows for c in r.cells.values()) or any(
        "$" in line for line in lines) else None
    statements = tuple(dict.fromkeys([*page_statements("\n".join(page)), *placed]))
    primary = set(statements) & _PRIMARY
    if not scale.line and document_scale is not None and (printed is not None or primary):
        scale = document_scale
    # a statement printed in units ("27195000000.0", no caption) is in the document's currency
    # too; a table of counts with no scale stays bare
    document_currency = currency
    currency = printed or (currency if scale.factor != 1.0 or statements else None)
    if _common_size(table, lines[:at]):
        # each line as a percentage of revenue: shares, never amounts at the page's scale
        scale = replace(scale, line="", factor=1.0, currency=None, shares_of_whole=True)
        currency = None
    caption = [c for c in table.caption if c]
    counts = not primary and bool(_COUNT_ROW.search(" ".join(caption[-2:])))
    if counts and not any("$" in c for r in table.rows for c in r.cells.values()):
        # "Change in Number of Stores", "Vehicle deliveries": a table of counts, its figures no
        # money, at its own caption's scale only ("changes in shares (in thousands)"), never a
        # page's "(a) In thousands" footnote to another table
        own = statement_scale(above)
        scale = own if own.line else StatementScale("", 1.0, None, False, None)
        currency = None
    last = next((r.label for r in reversed(table.rows) if r.cells), "")
    group = next((c for c in reversed(caption) if heads_rows(c)), "")
    # dated columns of a P&L or a cash-flow statement end its periods
    flows = {StatementKind.INCOME, StatementKind.CASH_FLOW} & primary
    flow = bool(flows) or (not primary and (bool(_FLOW.search(" ".join(
        [*above[-8:], scale.line]))) or not any(column_date(h) for h in table.header)))
    outer = f"{segment}:" if segment else ""  # what a heading that closes gives way to
    heading = group or outer
    said = caption  # the caption lines that speak for the next row
    # a money block prints "$" on its first row: rows above the first that prints one, and
    # print none, are counts ("Trips 5,025" over "Gross Bookings $ 57,897" in a key-metrics
    # table); where its first "$" is its last row's or a total's (a reconciliation's result,
    # "Adjusted EBITDA $142.7"), the rows above it are the money it sums
    first_money = next((k for k, r in enumerate(table.rows)
                        if any("$" in c for c in r.cells.values())), None)
    last_row = max((k for k, r in enumerate(table.rows) if r.cells), default=-1)
    if first_money is not None and (first_money == last_row
                                    or totals_row(table.rows[first_money].label)):
        first_money = None
    for at, row in enumerate(table.rows):
        if not row.cells:
            if not segment and heads_rows(row.label):
                heading = row.label.strip()  # "Earnings per share:" heads the rows under it
            continue
        row, group = _unglued(row, heading)
        if not group and caption and label_periods(row):  # a metric's table by period
            group = f"{_title(caption[0]).rstrip(':')}:"
        text = row.render()
        shown = f"{text} ({group.rstrip(':')})" if group else text
        # an amount per share is over a period, in the document's money, wherever it is printed
        per_share = _PER_SHARE_ASKED.search(f"{group} {row.label}") is not None and not \
            _SHARE_COUNT.search(row.label)
        counted = first_money is not None and at < first_money
        money = None if counted else currency
        pool.spans.append(Span(trim(shown, 320), source, row=row, group=group, scale=scale,
                               currency=money or (document_currency if per_share else None),
                               # "Ending store count": the count at the year's end
                               flow=(flow and not (counts and balance_side(
                                   row.label, row=True) == "closing")) or per_share,
                               year_end=year_end,
                               caption=" ".join(said), statements=statements,
                               result=last if last != row.label else "", segment=segment))
        # the table's caption ("net sales by category") names what its rows measure: it counts
        # with a row whose own label answers part of the question ("Services")
        pool.names.append(stems_of(f"{group} {row.label} {' '.join(said)}"))
        pool.stems.append(stems_of(f"{group} {text} {' '.join(said)}"))
        pool.under.append(set())
        if heading != outer and _closes(row.label, heading):
            # "Variable lease cost" after "Finance lease cost", the subtotal of the rows under
            # "Finance lease cost:" (a heading of its own or its table's caption)
            said = [c for c in said if c != heading]
            heading = outer


def _closes(label: str, heading: str) -> bool:
    """The row totals the rows its heading heads: its label is the heading's ("Finance lease
    cost" under "Finance lease cost:"), or says their total ("Total finance lease cost")."""
    own, headed = stems_of(label), stems_of(heading)
    return bool(headed) and (own == headed or (totals_row(label) and headed < own
                                               and len(own - headed) == 1))


def _by_part(tables: Sequence[Table], measured: Sequence[Table] = ()
             ) -> list[tuple[Table, str | None]]:
    """The tables, those whose columns name parts (one a year: "2025" over "Americas | Europe |
    … | Total") read as one block a part, its rows across the years, each with its part's name
    ("" for the total's, the company's own); None for a table read as it is. A roll-forward whose
    columns name parts and whose balances' labels end in their dates ("Goodwill - December 31,
    2024 | North America: 19,289 | AWS: 1,300") has its balances read so too, a part's balance
    under its label's date ("Goodwill | December 31, 2024: 19,289"); its other rows (the
    movements between two balances) stay in the table as it is. A roll-forward whose columns
    are measures of each row, not parts (an award activity table's "Number of Shares |
    Weighted-Average Exercise Price", or one of `measured`, read by `rollforward_tables`), has
    its balances read a measure a block, under no part: "Balance, Number of Shares |
    December 31, 2020: 1,919"."""
    out: list[tuple[Table, str | None]] = []
    blocks: dict[str, Table] = {}
    for table in tables:
        measures = any(table is t for t in measured) or any(
            _MEASURE_OPENER.begins(h) for h in table.header)
        period = "" if measures else _part_columns(table)
        dated = {} if period else _dated_rows(table, measures)
        if not period and not dated:
            out.append((table, None))
            continue
        rest = Table(header=table.header, caption=table.caption)
        if dated and any(id(row) not in dated for row in table.rows):
            out.append((rest, None))
        caption = table.caption if dated else table.caption[:-1]
        for row in table.rows:
            label, at = dated.get(id(row), (row.label, period))
            if not at:
                rest.rows.append(row)
                continue
            for name, cell in row.cells.items():
                if not cell.strip():
                    continue
                key = f"{id(table)} {name}" if measures else name
                if (block := blocks.get(key)) is None:
                    block = blocks[key] = Table(header=[], caption=[*caption, name] if
                                                name.strip() else list(caption))
                    out.append((block, None if measures else
                                "" if _WHOLE_COLUMN.begins(name) else name.strip()))
                if at not in block.header:
                    block.header.append(at)
                own = f"{label}, {name.strip()}" if measures and name.strip() else label
                same = next((r for r in block.rows if r.label == own), None)
                if same is None:
                    block.rows.append(same := Row(label=own, cells={}, line=row.line))
                same.cells[at] = cell
    return out


def _dated_rows(table: Table, measures: bool = False) -> dict[int, tuple[str, str]]:
    """The balances of a roll-forward whose columns name parts ("North America | AWS |
    Consolidated"), or `measures` of each row ("Number of Shares"; one column, untitled), by
    row: each one's label without its date, and the date ("Goodwill", "December 31, 2024" of
    "Goodwill - December 31, 2024"); empty for any other table."""
    names = [h for h in table.header if h.strip()]
    if measures:
        if any(names_no_part(h) or _CHANGE_COLUMN.found(h) for h in names):
            return {}
    elif len(names) < 2 or any(names_no_part(h) or _CHANGE_COLUMN.found(h) for h in names):
        return {}
    out: dict[int, tuple[str, str]] = {}
    for row in table.rows:
        label = row.label.strip()
        day = next(((start, end) for name, start, end in find_periods(label)
                    if end == len(label) and name.count("-") >= 2), None)
        if day is None or not row.cells:
            continue
        words = label[:day[0]].rstrip(" -–—,:").split()
        for k in (2, 1):
            if len(words) > k and _DATE_LEAD.fullmatch(" ".join(words[-k:])):
                words = words[:-k]
                break
        date_text = label[day[0]:day[1]]
        if (lead := _DATE_LEAD.starts(date_text)) is not None:
            date_text = date_text[lead.end():].strip()  # "as of December 31, 2025"
        if words:
            out[id(row)] = (" ".join(words), date_text)
    return out


def _part_columns(table: Table) -> str:
    """The period of a table whose columns name parts ("Americas | Europe | … | Total") under a
    line that states it ("2025"); "" for any other table."""
    names = [h for h in table.header if h.strip()]
    above = table.caption[-1].strip() if table.caption else ""
    if len(names) < 2 or not column_header_line(above) or any(
            names_no_part(h, above) or _CHANGE_COLUMN.found(h) for h in names):
        return ""
    return above


def _title(line: str) -> str:
    """A table's title where its caption line runs on from the sentence before it ("… of our
    platform. Active Riders"): the words after that sentence's end."""
    head, stop, title = line.rpartition(". ")
    if stop and head and title[:1].isupper() and len(title.split()) <= 8:
        return title
    return line


def _unglued(row: Row, group: str) -> tuple[Row, str]:
    """A row whose label carries the headings it stands under, glued to it by colons
    ("Held as current investments: Government bonds : Treasury bills"): the last part is its
    line item, the rest its heading (a lone word before a colon, "Less: cost of sales", is
    the row's own)."""
    head, colon, own = row.label.rpartition(":")
    head = " ".join(head.replace(" :", ":").split())
    if not colon or not own.strip() or len(head.split()) < 2 or not head[:1].isalpha():
        return row, group
    return Row(label=own.strip(), cells=row.cells, line=row.line), f"{head}:"


def statement_row(row: Row) -> bool:
    """A line item across periods (its columns are years or dates, and the changes between
    them: "2023 | 2022 | 2021 | change | change % | change 2 | change % 2"), not a record whose
    cells are its attributes (a lease: landlord, expiry, rent)."""
    headers = [h for h in row.cells if h]
    dated = [h for h in headers if column_year(h) is not None or parse_period(h) is not None]
    changes = [h for h in headers if h not in dated and _CHANGE_COLUMN.found(h)]
    return bool(dated) and len(dated) * 2 >= len(headers) - len(changes)


_CELL = r"(?:\$?\(?[\d,]+(?:\.\d+)?\)?%?|—%?|–)"


_GAPLESS = re.compile(
    rf"^(?P<label>[A-Za-z][^$\d|]*?)\s+(?P<cells>{_CELL}(?:\s+{_CELL})+)$")


_FOOTNOTE = re.compile(r"^([A-Za-z][^$\d|(]*?)\s*\(\d\)\s")


def _rows_without_gaps(lines: list[str], tables: list[Table]) -> set[str]:
    """Rows whose text lost its column gaps ("iPhone $209,586 4% $201,183 —% $200,583" right
    above "2025 | change | 2024 | change 2 | 2023"): read into the table beside them when they
    have one figure per column. Returns the lines so read."""
    read: set[str] = set()
    for i, raw in enumerate(lines):
        line = raw.strip()
        bare = _FOOTNOTE.sub(r"\1 ", line)  # "Services (1) 109,158 …": the note is no figure
        m = _GAPLESS.match(bare) if "|" not in line else None
        if m is None:
            continue
        cells = m.group("cells").split()
        near = " ".join(lines[max(0, i - 3):i + 4])
        for table in tables:
            header = [h for h in table.header if h]
            if cells == header:
                break  # "Comparable Sales 2025 2024 2023": a title run on into its years
            if len(header) == len(cells) and all(h in near for h in header):
                if cells == header:
                    break  # "Change in Number of Stores 2025 2024": a caption with the
                    # table's column headings, no row of figures
                label = m.group("label").strip()
                table.rows.append(Row(label=label, cells=dict(zip(header, cells, strict=True)),
                                      line=line))
                read.add(line)
                break
    return read


def _year_end(text: str) -> date | None:
    """The latest year end a passage's columns are dated by, if any."""
    dates = [d for d, _, _ in find_dates(text.replace(",2", ", 2"))]
    return max(dates) if dates else None
