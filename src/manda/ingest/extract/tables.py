"""Findings from tables: P&L rows by period column, cap-table holders, people, customers, contracts.

A row label names the metric, a column header the period, a unit line ("EUR thousands") the
scale; each finding points at its exact cell (`P&L!K5`) and quotes the row as the parser wrote it
into the section's text ("Revenue | Q3 2024: 5,200 | ..."), so the excerpt is verbatim. Tables a
PDF or a slide carries as plain lines ("Revenue | 5,200 | 4,700") are read the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from manda.finance.amounts import (
    Amount,
    currency_from_text,
    parse_cell,
    scale_from_text,
    uses_decimal_comma,
)
from manda.finance.figures import column_date, states_the_whole
from manda.finance.fiscal import CALENDAR_YEAR, FiscalYearEnd, fiscal_period_of_column
from manda.finance.label_heads import label_subject
from manda.finance.periods import parse_period, period_end, previous_period
from manda.finance.signs import signed_as_named
from manda.finance.statements import StatementKind, named_statements, page_statements
from manda.finance.vocabulary import MetricSpec, metric_spec
from manda.ingest.extract.candidates import (
    Candidate,
    SectionView,
    caption_block,
    says_forecast,
    scale_of_note_lines,
)
from manda.ingest.extract.dedupe import canonical_entity, is_placeholder
from manda.ingest.extract.names import is_person_name, strip_title
from manda.ingest.extract.prose import as_of_for_stock
from manda.ingest.parsers.layout import caption_of, is_figure, is_title_line, table_shape
from manda.ingest.segments import Block, names_no_part, segments
from manda.models import FindingKind, Location, LocationKind, Nature
from manda.vocabulary import Cues, topic, vocabulary

__all__ = ["is_total_row", "table_candidates", "text_table_candidates"]

_WORDS = vocabulary()
_TOTAL_START = _WORDS.cues("total_row_start")  # "Total revenue", "Summe"
_OPENING_ROW = _WORDS.cues("opening_row")  # "Opening ARR": the balance at the period's start
# "Cash, beginning of period", "Balances at beginning of year": the same, said after the item
_OPENING_BALANCE = _WORDS.cues("opening_balance")
_CLOSING_BALANCE = _WORDS.cues("closing_balance")  # "Cash, end of year"
_MOVEMENT_ROW = _WORDS.cues("movement_row")  # "New logo ARR": a flow of the balance
_TOTAL_END = _WORDS.cues("total_row_end")  # "Umsatz gesamt"
# A column that adds up the months beside it: "kumuliert", "Total", "Gesamt", "Summe GJ".
_CUMULATIVE_HEADER = _WORDS.cues("cumulative_column")
_FORECAST_HEADER = _WORDS.cues("forecast_column")
# "Actual", "Act.", "Ist", "2023A": a column of actuals, even in a budget workbook.
_ACTUAL_HEADER = _WORDS.cues("actuals_column")


def is_total_row(label: str) -> bool:
    """A row that adds up the rows above it, however its language orders it: "Total",
    "Summe", "Stammkapital gesamt"."""
    return _TOTAL_START.begins(label) or _TOTAL_END.ends(label)


def _says_forecast(header: str, default: bool) -> bool:
    """A column's nature: its header decides ("FY25 Budget", "2024A"), else the document."""
    if _ACTUAL_HEADER.search(header):
        return False
    return default or bool(_FORECAST_HEADER.search(header))


_HOLDER = _WORDS.cues("holder_column")
_SHARES = _WORDS.cues("shares_column")
_PCT = _WORDS.cues("stake_column")
# A header naming a percentage outright ("% fully diluted", "Stake") beats one that only
# qualifies a count ("Total (fully diluted)").
_PCT_NAMED = _WORDS.cues("stake_named")
# A "%" column is a stake when its header says so, or says nothing but "%": "Employer pension
# (%)" in an employee census is a rate, not a holding.
_STAKE_WORDS = _WORDS.cues("stake_words")
_BARE_PCT = re.compile(r"^[\s()%]*$")
MAX_STAKES_TOTAL = 100.5  # stakes of one register add up to 100% at most (rounding aside)
_CLASS = _WORDS.cues("class_column")
_AS_OF = _WORDS.cues("as_of_column")
_ROLE_HEADER = _WORDS.cues("role_column")
_NAME_HEADER = _WORDS.cues("name_column")
_CUSTOMER_HEADER = _WORDS.cues("customer_column")
_SHARE_HEADER = _WORDS.cues("share_of_revenue_column")
_PARTY_HEADER = _WORDS.cues("party_column")
_CONTRACT_HEADER = _WORDS.cues("contract_column")
_COC_HEADER = topic("change_of_control").terms
_TERM_HEADER = _WORDS.cues("term_column")
_VALUE_HEADER = _WORDS.cues("value_column")
_PAREN_NOTE = re.compile(r"\s*\(([^)]*)\)\s*$")


def _one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass
class _RowText:
    """Where a table row and each of its cells sit in the section's text."""

    line: tuple[int, int] | None
    cells: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass
class _Grid:
    """A table's cells, their sheet references if any, and where each row is in the text."""

    rows: list[list[str]]
    refs: list[list[str]] | None
    locate: Callable[[int], _RowText]
    caption: str = ""  # the lines right above the table ("(in thousands of U.S. dollars)")
    decimal_comma: bool = False  # numbers written the German way ("38.410" is 38,410)
    # the line right above a text table: its rows' line item ("Operating income" over the
    # segments' rows) or its columns' period ("2025" over the segments' names)
    above: str = ""


def _row_parts(header: Sequence[str] | None, row: Sequence[str]) -> list[tuple[int, str, int]]:
    """(column, part, offset of the cell inside the part) as the parser renders a row line."""
    parts: list[tuple[int, str, int]] = []
    for i, raw in enumerate(row):
        cell = _one_line(raw)
        if not cell:
            continue
        label = _one_line(header[i]) if header is not None and i < len(header) else ""
        if i == 0 or not label or label == cell:
            parts.append((i, cell, 0))
        else:
            parts.append((i, f"{label}: {cell}", len(label) + 2))
    return parts


class _SectionRows:
    """Finds each row of a parsed table in the section text, so cell spans are exact."""

    def __init__(self, text: str, table: Sequence[Sequence[str]]) -> None:
        self.text = text
        self.table = table
        self._lines: dict[str, list[int]] = {}
        pos = 0
        for line in text.split("\n"):
            self._lines.setdefault(line.strip(), []).append(pos + len(line) - len(line.lstrip()))
            pos += len(line) + 1
        self._cache: dict[int, _RowText] = {}
        self._used: set[int] = set()

    def __call__(self, r: int) -> _RowText:
        if r not in self._cache:
            self._cache[r] = self._find(r)
        return self._cache[r]

    def _find(self, r: int) -> _RowText:
        row = self.table[r]
        for header in (self.table[0] if r > 0 else None, None):
            parts = _row_parts(header, row)
            line = " | ".join(p for _, p, _ in parts)
            starts = [s for s in self._lines.get(line, []) if s not in self._used]
            if line and starts:
                start = starts[0]
                self._used.add(start)
                cells: dict[int, tuple[int, int]] = {}
                offset = start
                for col, part, inner in parts:
                    cell = _one_line(row[col])
                    cells[col] = (offset + inner, offset + inner + len(cell))
                    offset += len(part) + 3
                return _RowText((start, start + len(line)), cells)
        return self._fallback(row)

    def _fallback(self, row: Sequence[str]) -> _RowText:
        label = _one_line(row[0]) if row else ""
        at = self.text.find(label) if label else -1
        if at == -1:
            return _RowText(None)
        end = self.text.find("\n", at)
        end = len(self.text) if end == -1 else end
        cells: dict[int, tuple[int, int]] = {0: (at, at + len(label))}
        cursor = at + len(label)
        for col in range(1, len(row)):
            cell = _one_line(row[col])
            found = self.text.find(cell, cursor, end) if cell else -1
            if found != -1:
                cells[col] = (found, found + len(cell))
                cursor = found + len(cell)
        return _RowText((at, end), cells)


def _cell_location(view: SectionView, grid: _Grid, r: int, c: int) -> Location:
    refs = grid.refs
    ref = refs[r][c] if refs and r < len(refs) and c < len(refs[r]) else ""
    if not ref:
        return view.section.location
    if "!" in ref:
        sheet, cell = ref.rsplit("!", 1)
        return Location.for_cell(sheet, cell)
    return Location(kind=LocationKind.CELL, label=ref)


def _period_of(cell: str, view: SectionView) -> str | None:
    """A period header read with the company's fiscal year ("Apr–Jun 2024", "30 June 2024")."""
    return fiscal_period_of_column(cell, view.fiscal_year_end, flow=True) if cell.strip() else None


def _header_row(rows: Sequence[Sequence[str]], test: Cues | None = None,
                view: SectionView | None = None) -> int | None:
    for r, row in enumerate(rows[:6]):
        if test is None:
            if any(is_figure(cell) for cell in row[1:]):
                continue  # a row of figures is data, whatever else it names ("Apr–Jun 2024")
            if any(cell.strip() and (_period_of(cell, view) if view else parse_period(cell))
                   for cell in row[1:]):
                return r
        elif any(test.search(cell) for cell in row):
            return r
    return None


def _column(header: Sequence[str], pattern: Cues, skip: set[int]) -> int | None:
    for c, cell in enumerate(header):
        if c not in skip and pattern.search(cell):
            return c
    return None


def _rules(view: SectionView, grid: _Grid, context: str) -> list[Candidate]:
    if len(grid.rows) < 2:
        return []
    grid.decimal_comma = uses_decimal_comma([c for row in grid.rows for c in row],
                                            f"{grid.caption} {view.text[:300]}")
    for rule in (_cap_table, _people_table, _customer_table, _contract_table, _financial_table):
        found = rule(view, grid, context)
        if found is not None:
            return found
    return []


def table_candidates(view: SectionView, context: str) -> list[Candidate]:
    """Every finding a parsed table holds; `context` is text that may name units (the title)."""
    table = view.section.table
    if not table:
        return []
    rows = [list(row) for row in table]
    grid = _Grid(rows, view.section.cell_refs, _SectionRows(view.text, rows), view.caption)
    return _rules(view, grid, context)


# ---------------------------------------------------------------- tables written as text lines


_CHANGE_HEADER = _WORDS.cues("change_column")  # "change %", "2025/2024"
_WHOLE = _WORDS.cues("whole_heading")  # "Consolidated", "Total", "Konzern"
_MD_SEPARATOR = re.compile(r"^\|?[\s:\-|]+\|?$")


def _is_table_line(line: str) -> bool:
    stripped = line.strip()
    return " | " in stripped or (stripped.startswith("|") and stripped.endswith("|")
                                 and stripped.count("|") >= 2)


def _split_line(line: str, start: int, header: Sequence[str] | None
                ) -> tuple[list[str], dict[int, tuple[int, int]]]:
    """Cells of a `a | b: x | c` line (Markdown `| a | b |` too), each with its exact span."""
    if line.startswith("|") and line.endswith("|"):
        line, start = line[1:-1], start + 1
    cells: dict[int, str] = {}
    spans: dict[int, tuple[int, int]] = {}
    offset = 0
    for j, raw in enumerate(line.split("|")):
        lead = len(raw) - len(raw.lstrip())
        part = raw.strip()
        col, inner = j, 0
        if header is not None and j > 0:
            for k, name in enumerate(header):
                if k > 0 and name and part.startswith(f"{name}: "):
                    col, inner = k, len(name) + 2
                    break
        cells[col] = part[inner:]
        begin = start + offset + lead + inner
        spans[col] = (begin, begin + len(part) - inner)
        offset += len(raw) + 1
    width = max(cells) + 1 if cells else 0
    return [cells.get(c, "") for c in range(width)], spans


def text_table_candidates(view: SectionView, context: str
                          ) -> tuple[list[Candidate], list[tuple[int, int]]]:
    """Tables that a PDF page or a slide holds as `a | b | c` lines; returns their spans too."""
    text = view.text
    lines: list[tuple[int, str]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for start, line in lines:
        if _MD_SEPARATOR.match(line.strip()) and "-" in line:
            continue
        if _is_table_line(line):
            current.append((start + len(line) - len(line.lstrip()), line.strip()))
        elif line.strip() and current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    out: list[Candidate] = []
    spans: list[tuple[int, int]] = []
    kept = [b for b in blocks if len(b) >= 2]
    common_header: str | None = None  # the column header of a common-size table read last
    headed = segment_headings(text, kept)
    for k, block in enumerate(kept):
        caption = _caption_above(text, block[0][0])
        heading, run_caption = headed[k]
        if run_caption and scale_from_text(caption) == 1.0:
            caption = f"{run_caption}\n{caption}"  # the run's unit line is this block's too
        header_cells = _split_line(block[0][1], block[0][0], None)[0]
        # "2025 | 2024" over "Net sales | 2025: 48,600 | 2024: 42,300": the empty corner cell
        # above the row labels was dropped when the page became text; put it back, or the first
        # period's figures land under the second period.
        corner_dropped = bool(header_cells and header_cells[0]) and any(
            f"| {header_cells[0]}: " in line for _, line in block[1:])
        if corner_dropped:
            header_cells = ["", *header_cells]
        rows: list[list[str]] = []
        located: list[_RowText] = []
        for i, (start, line) in enumerate(block):
            cells, cell_spans = _split_line(line, start, header_cells if i > 0 else None)
            if i == 0 and corner_dropped:
                cells = ["", *cells]
                cell_spans = {c + 1: span for c, span in cell_spans.items()}
            rows.append(cells)
            located.append(_RowText((start, start + len(line)), cell_spans))
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        grid = _Grid(rows, None, lambda r, located=located: located[r], caption,
                     above=_line_above(text, block[0][0]))
        if _common_size(rows) or (k and common_header == block[0][1]
                                  and _one_heading_between(text, kept[k - 1], block)):
            # a table of each line as a percentage of revenue ("Research and development
            # 28.4 38.4"): its figures are shares, no amounts; the blocks that follow under
            # the same column header and one heading line are the same table
            common_header = block[0][1]
            spans.append((block[0][0], block[-1][0] + len(block[-1][1])))
            continue
        common_header = None
        found = _rules(view, grid, context)
        if heading:
            for candidate in found:  # a segment's figure, never the company's own
                _of_part(candidate, heading)
        out.extend(found)
        spans.append((block[0][0], block[-1][0] + len(block[-1][1])))
    return out, spans


def _common_size(rows: Sequence[Sequence[str]]) -> bool:
    """A common-size table: a row states 100% in every column of figures ("Revenue 100.0 %
    100.0 %"), so its other rows are shares of it."""
    return any(states_the_whole(row[1:]) for row in rows[1:])


def _one_heading_between(text: str, before: Sequence[tuple[int, str]],
                         block: Sequence[tuple[int, str]]) -> bool:
    """Only a heading line ("Costs and expenses") stands between two blocks of a table."""
    between = [line for line in text[_end(before):block[0][0]].split("\n") if line.strip()]
    return len(between) <= 1 and all(is_title_line(line) for line in between)


def segment_headings(text: str, blocks: Sequence[Sequence[tuple[int, str]]]
                     ) -> list[tuple[str, str]]:
    """Each text table's segment (`manda.ingest.segments`) and, for a block after the first of
    its run, the run's caption ("(in millions)"), which states its unit too."""
    read = segments([Block(tuple(text[_end(blocks[k - 1]) if k else 0:block[0][0]].split("\n")),
                           frozenset(_labels(block))) for k, block in enumerate(blocks)])
    return [(segment, caption_of(text[:blocks[first][0][0]]) if first not in (-1, k) else "")
            for k, (segment, first) in enumerate(read)]


def _end(block: Sequence[tuple[int, str]]) -> int:
    return block[-1][0] + len(block[-1][1])


def _labels(block: Sequence[tuple[int, str]]) -> set[str]:
    """A block's row labels, lower case ("net sales", "operating income")."""
    return {line.split("|", 1)[0].strip().lower() for _, line in block[1:]} - {""}


_SCHEDULE_BUCKET = _WORDS.cues("schedule_bucket")
_PER_SHARE = _WORDS.cues("per_share_line")


def _caption_above(text: str, start: int) -> str:
    return caption_of(text[:start])


def _line_above(text: str, start: int) -> str:
    return next((line.strip() for line in reversed(text[:start].split("\n")) if line.strip()),
                "")


def _of_part(candidate: Candidate, part: str) -> None:
    """The candidate is a part's figure (a segment's, a region's), never the company's own."""
    candidate.entity = part
    candidate.attributes = {**candidate.attributes, "segment": part}


# ---------------------------------------------------------------- financial statements


def _units(view: SectionView, grid: _Grid, header: int, context: str
           ) -> tuple[float, str | None]:
    """The scale and currency of the whole table, from wherever the table states them.

    In order: the header block (corner cell first, then every header cell, then rows above it
    down to the first row of figures), the caption right above the table, the section's first
    lines (a sheet's notes), its heading, then the document's title and name.
    """
    rows = grid.rows
    shape = table_shape(rows)
    top = max(header, shape.data_start - 1)
    corner = rows[header][0] if rows[header] else ""
    head = " ".join(" ".join(row) for row in rows[: top + 1])
    notes = "\n".join(view.text.split("\n", 3)[:3])  # its unit lines, not its sentences
    for source in (corner, head, grid.caption, notes, view.section.location.label, context):
        # the caption's and notes' lines are read as unit lines (a sentence wrapped onto its
        # amount's scale word is none); the header and the headings as they are
        scale = (scale_of_note_lines(source) if source is notes or source is grid.caption
                 else scale_from_text(source))
        if scale != 1.0:
            return scale, (currency_from_text(source) or currency_from_text(head)
                           or currency_from_text(grid.caption) or currency_from_text(context)
                           or view.currency)
    return view.scale, currency_from_text(head) or currency_from_text(grid.caption) or view.currency


def _value(spec: MetricSpec, cell: str, scale: float, currency: str | None,
           decimal_comma: bool = False) -> tuple[Amount, str | None] | None:
    if spec.unit_kind == "currency":
        amount = parse_cell(cell, scale=scale, currency=currency, decimal_comma=decimal_comma)
        if amount is None or amount.unit is not None:
            return None
        return amount, amount.currency or currency
    amount = parse_cell(cell, decimal_comma=decimal_comma)
    if amount is None or amount.currency is not None:
        return None
    if spec.unit_kind == "percent":
        if amount.unit not in (None, "%"):
            return None
        if amount.unit is None and abs(amount.value) <= 1.5:  # a spreadsheet fraction: 0.71
            amount = Amount(round(amount.value * 100, 6), None, "%", amount.text, 0, 0)
        return amount, "%"
    if spec.unit_kind == "ratio":
        return (amount, "x") if amount.unit in (None, "x") else None
    if amount.unit not in (None, "people"):
        return None
    return amount, "people" if spec.group == "headcount" else None


def _kind(spec: MetricSpec) -> FindingKind:
    if spec.subject == "headcount":
        return FindingKind.HEADCOUNT
    if spec.subject == "customer concentration":
        return FindingKind.CUSTOMER
    return FindingKind.METRIC


@dataclass
class _Cell:
    """One value cell to read: where it is, what it measures, and for which period."""

    r: int
    c: int
    label_col: int
    spec: MetricSpec
    period: str | None
    forecast: bool
    scale: float
    currency: str | None
    unit_text: str = ""  # a row or column label that may carry its own unit ("Revenue (EUR M)")
    row_header: str = ""  # the row's label, as the table writes it
    column_header: str = ""  # the column's label (the period header), as the table writes it


def _cell_candidate(view: SectionView, grid: _Grid, cell: _Cell, evidence: str
                    ) -> Candidate | None:
    text = grid.rows[cell.r][cell.c]
    scale, currency = cell.scale, cell.currency
    if cell.spec.unit_kind == "currency" and cell.unit_text:
        own = scale_from_text(cell.unit_text)
        if own != 1.0:
            scale, currency = own, currency_from_text(cell.unit_text) or currency
    value = _value(cell.spec, text, scale, currency, grid.decimal_comma)
    row = grid.locate(cell.r)
    span = row.cells.get(cell.c)
    if value is None or span is None:
        return None
    amount, unit = value
    stated = abs(amount.value) if cell.spec.cost else amount.value
    if cell.spec.unit_kind == "currency" and not cell.spec.cost:
        # "Net loss | (1,009)" and "Net loss | 1,009" both state a negative income
        others = [a.value for x in grid.rows[cell.r] if (a := parse_cell(x)) is not None]
        stated = signed_as_named(stated, cell.unit_text or cell.row_header, others)
    period = cell.period
    if cell.spec.stock and period and (day := column_date(cell.column_header)) is not None:
        # a balance stands at its column's own date: a 52/53-week year's "September 30, 2023",
        # not the nominal year end its fiscal year is named by
        period = f"as of {day.isoformat()}"
    if cell.spec.stock and period:
        # a balance's bridge: its opening line stands at the period's start (the end of the
        # period before); its movement lines ("New logo ARR") are flows, not the balance
        if _MOVEMENT_ROW.begins(cell.row_header):
            return None
        if _OPENING_ROW.begins(cell.row_header) or _OPENING_BALANCE.search(cell.row_header):
            period = previous_period(period) or period
    refs = grid.refs
    ref = refs[cell.r][cell.c] if refs and cell.r < len(refs) and cell.c < len(refs[cell.r]) \
        else ""
    attributes = {key: _one_line(text) for key, text in (
        ("row", cell.row_header), ("column", cell.column_header),
        ("total", "yes" if is_total_row(cell.row_header) else ""),
        # a value the workbook saved without its result: computed here from its formula
        ("computed_from", view.section.computed.get(ref, "")),
        ("scale", f"{scale:g}" if cell.spec.unit_kind == "currency" and scale != 1.0 else ""),
    ) if text}
    return Candidate(
        kind=_kind(cell.spec),
        subject=cell.spec.subject,
        label=cell.spec.label,
        section=view.index,
        core=span,
        bounds=row.line,
        anchor=row.cells.get(cell.label_col),
        evidence="table" if evidence == "table" else "mention" if evidence == "mention"
        else "narrative",
        period=as_of_for_stock(cell.spec, period, view.fiscal_year_end),
        value=stated,
        unit=unit,
        value_text=_one_line(text),
        nature=Nature.FORECAST if cell.forecast else Nature.ACTUAL,
        location=_cell_location(view, grid, cell.r, cell.c),
        attributes=attributes,
        penalty=0.0 if evidence == "table" else 0.03,
    )


def _is_schedule(rows: Sequence[Sequence[str]]) -> bool:
    """A schedule of amounts falling due ("2026 | 27", "2027 | 30", "Thereafter | 8,830", or
    "Less than 1 year | 1-3 years | More than 5 years" across): its periods are when each amount
    falls due, and no cell is a balance or a result of that period."""
    axis = [row[0] for row in rows[1:] if row] + [cell for row in rows[:2] for cell in row]
    # "Thereafter (1)": the bucket before its footnote
    return any(_SCHEDULE_BUCKET.fullmatch(cell.split("(")[0].strip(" :*.,"))
               for cell in axis if cell.strip())


def _flow_statement(rows: Sequence[Sequence[str]]) -> bool:
    """The table is a P&L or a cash-flow statement by the lines it states, and no balance
    sheet."""
    kinds = set(page_statements("\n".join(row[0] for row in rows if row)))
    return bool(kinds & {StatementKind.INCOME, StatementKind.CASH_FLOW}) \
        and StatementKind.BALANCE not in kinds


def _a_balance_end(label: str) -> bool:
    """The row states a balance at one end of the period ("Cash, end of year"), which a
    cash-flow statement does beside its flows."""
    return bool(_OPENING_BALANCE.search(label) or _CLOSING_BALANCE.search(label))


def _flow_page(view: SectionView) -> bool:
    """The page is a cash-flow statement, and no balance sheet, by its caption or the lines it
    states (a page whose blocks the parser gave as several tables: "Changes in operating assets
    and liabilities" under the statement's own caption). A P&L sheet of management accounts
    may carry balances (headcount, deferred revenue) among its lines; a cash-flow statement
    states movements, and balances only at the ends of its period."""
    named = {kind for kind, _ in named_statements(" ".join(caption_block(view.text)))}
    kinds = set(page_statements(view.text)) | named
    return StatementKind.CASH_FLOW in kinds and StatementKind.BALANCE not in kinds


def _financial_table(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    rows = grid.rows
    if _is_schedule(rows):
        return []
    header = _header_row(rows, view=view)
    if header is None:
        return (_part_columns(view, grid, context) or _transposed(view, grid, context)
                or _kpi_table(view, grid, context))
    scale, currency = _units(view, grid, header, context)
    columns: dict[int, tuple[str, bool]] = {}
    for c, cell in enumerate(rows[header]):
        period = _period_of(cell, view) if c > 0 else None
        if period is not None:
            above = " ".join(row[c] for row in rows[:header] if c < len(row))
            columns[c] = (period, _says_forecast(f"{cell} {above}", view.forecast))
    _label_year_total(rows[header], columns, view.fiscal_year_end)
    first = min(columns)
    # "Headcount at 31 Dec 2023" over department rows: the column names the metric and only the
    # total row states it for the company. A label names a metric by its head ("Unearned
    # revenue", "Cash paid for interest" name none).
    by_column = {c: metric_spec(label_subject(rows[header][c]) or "") for c in columns}
    breakdown = any(spec is not None for spec in by_column.values())
    # a row of a P&L or cash-flow statement is a flow over its period ("Loss on extinguishment
    # of debt", "Repayments of term loan"): never the balance of a line it names
    flows = _flow_statement(rows)
    flow_page = _flow_page(view)
    parts = None if breakdown else _parts_heading(grid, header, first, columns)
    out: list[Candidate] = []
    for r in range(header + 1, len(rows)):
        row = rows[r]
        label_col = next((i for i in range(first) if row[i].strip()), None)
        if label_col is None:
            continue
        if breakdown and not is_total_row(row[label_col]):
            continue
        row_spec = None if breakdown else metric_spec(label_subject(row[label_col]) or "")
        part = ""
        if parts is not None and row_spec is None:
            # "Intelligent Cloud" under "Operating income": the heading's line item, of the part
            # the row names; the total row is the company's
            row_spec = parts
            part = "" if is_total_row(row[label_col]) else row[label_col].strip()
        if row_spec is not None and ((flows and row_spec.stock) or (
                flow_page and row_spec.stock and not _a_balance_end(row[label_col])) or (
                row_spec.unit_kind == "currency" and _PER_SHARE.found(row[label_col]))):
            continue  # "Net loss per share": one share's amount, not the line's
        for c, (period, forecast) in columns.items():
            spec = by_column[c] if breakdown else row_spec
            if spec is None or c >= len(row) or not row[c].strip():
                continue
            found = _cell_candidate(view, grid, _Cell(
                r, c, label_col, spec, period, forecast, scale, currency,
                f"{row[label_col]} {rows[header][c]}", row[label_col], rows[header][c],
            ), "table")
            if found is not None:
                if part:
                    _of_part(found, part)
                out.append(found)
    return out


def _figure(cell: str) -> float | None:
    amount = parse_cell(cell)
    return None if amount is None or amount.unit is not None else amount.value


def _adds_up(parts: Sequence[str], total: str) -> bool:
    """The parts' figures add up to the total's, give or take a unit a part for rounding."""
    values = [_figure(cell) for cell in parts]
    whole = _figure(total)
    if whole is None or any(v is None for v in values) or len(values) < 2:
        return False
    return abs(sum(v for v in values if v is not None) - whole) <= len(values)


def _parts_heading(grid: _Grid, header: int, first: int, columns: dict[int, tuple[str, bool]]
                   ) -> MetricSpec | None:
    """The line item a text table's heading names ("Operating income" right above it) where
    its rows are that line item's parts: none names a line item of its own, and they add up to
    its total row in every period's column (segments' rows under "Revenue" in the MD&A)."""
    if not grid.above or _is_table_line(grid.above):
        return None
    spec = metric_spec(label_subject(grid.above.rstrip(":")) or "")
    if spec is None:
        return None
    labelled = [row for row in grid.rows[header + 1:] if row[:first] and row[0].strip()]
    totals = [row for row in labelled if is_total_row(row[0])]
    parts = [row for row in labelled if not is_total_row(row[0])]
    year = grid.rows[header][min(columns)] if columns else ""
    if len(totals) != 1 or len(parts) < 2 or any(
            metric_spec(label_subject(row[0]) or "") is not None or names_no_part(row[0], year)
            for row in parts):
        return None  # a line item of its own, or a quarter ("Q1" under "Revenue")
    periods = [c for c in columns if not _CHANGE_HEADER.found(grid.rows[header][c])]
    if not periods or not all(_adds_up([row[c] for row in parts if c < len(row)],
                                       totals[0][c] if c < len(totals[0]) else "")
                              for c in periods):
        return None
    return spec


def _part_columns(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    """A text table whose columns name parts ("Americas | Europe | … | Total") under a line
    stating their period ("2025"): each row's line item, of each part, for that period; the
    total's column is the company's. None for any other table."""
    rows = grid.rows
    names = rows[0]
    if not grid.above or _is_table_line(grid.above) or len(grid.above.split()) > 3:
        return None
    period = _period_of(grid.above, view)
    if period is None or len([n for n in names[1:] if n.strip()]) < 2 or any(
            _period_of(n, view) or _CHANGE_HEADER.found(n) or names_no_part(n, grid.above)
            for n in names[1:] if n.strip()):
        return None
    scale, currency = _units(view, grid, 0, context)
    forecast = _says_forecast(grid.above, view.forecast)
    out: list[Candidate] = []
    for r in range(1, len(rows)):
        spec = metric_spec(label_subject(rows[r][0]) or "")
        if spec is None or _PER_SHARE.found(rows[r][0]):
            continue
        for c in range(1, min(len(rows[r]), len(names))):
            if not rows[r][c].strip() or not names[c].strip():
                continue
            found = _cell_candidate(view, grid, _Cell(
                r, c, 0, spec, period, forecast, scale, currency, rows[r][0], rows[r][0],
                names[c]), "table")
            if found is None:
                continue
            if not (is_total_row(names[c]) or _WHOLE.begins(names[c])):
                _of_part(found, names[c].strip())
            out.append(found)
    return out


def _label_year_total(header: Sequence[str], columns: dict[int, tuple[str, bool]],
                      fiscal_year_end: FiscalYearEnd | None) -> None:
    """A total column ("kumuliert", "Total") after twelve consecutive month columns is the
    fiscal year when they end with its last month (a BWA's "Apr 24 … Mär 25 | kumuliert"), else
    the twelve months to the last one (LTM)."""
    months = sorted(c for c, (period, _) in columns.items() if _MONTH_PERIOD.match(period))
    if len(months) != 12 or len(months) != len(columns):
        return
    ends = [period_end(columns[c][0]) for c in months]
    steps = [(b.year * 12 + b.month) - (a.year * 12 + a.month)
             for a, b in pairwise(ends) if a and b]
    last = ends[-1]
    if last is None or steps != [1] * 11:
        return
    year_end = (fiscal_year_end or CALENDAR_YEAR).month == last.month
    for c in range(months[-1] + 1, len(header)):
        if _CUMULATIVE_HEADER.fullmatch(header[c]):
            columns[c] = (f"FY{last.year}" if year_end else f"LTM {columns[months[-1]][0]}",
                          columns[months[-1]][1])
            return


_MONTH_PERIOD = re.compile(r"^[A-Z][a-z]{2} \d{4}$")


def _transposed(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    """Periods down the first column, metrics across the header row."""
    rows = grid.rows
    periods = {r: _period_of(row[0], view) for r, row in enumerate(rows) if r > 0}
    data = [r for r, p in periods.items() if p]
    specs = {c: metric_spec(label_subject(cell) or "") for c, cell in enumerate(rows[0])}
    specs = {c: s for c, s in specs.items() if s is not None and c > 0}
    if not data or not specs:
        return None
    scale, currency = _units(view, grid, 0, context)
    out: list[Candidate] = []
    for r in data:
        forecast = _says_forecast(rows[r][0], view.forecast)
        for c, spec in specs.items():
            if c < len(rows[r]) and rows[r][c].strip():
                found = _cell_candidate(view, grid, _Cell(
                    r, c, 0, spec, periods[r], forecast, scale, currency, rows[0][c],
                    rows[r][0], rows[0][c],
                ), "table")
                if found is not None:
                    out.append(found)
    return out


def _kpi_table(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    """ "Metric | value" rows with no period axis: the period comes from the heading or file."""
    scale, currency = _units(view, grid, 0, context)
    evidence = "narrative" if view.period else "mention"
    out: list[Candidate] = []
    for r, row in enumerate(grid.rows):
        spec = metric_spec(label_subject(row[0]) or "") if len(row) > 1 else None
        if spec is None:
            continue
        forecast = view.forecast or says_forecast(row[0])
        for c in range(1, len(row)):
            found = _cell_candidate(view, grid, _Cell(
                r, c, 0, spec, view.period, forecast, scale, currency, row[0], row[0],
                grid.rows[0][c] if r > 0 and c < len(grid.rows[0])
                and not any(is_figure(x) for x in grid.rows[0][1:]) else "",
            ), evidence)
            if found is not None:
                out.append(found)
                break
    return out or None


# ---------------------------------------------------------------- cap table, people, customers


def _reads_as_stakes(rows: Sequence[Sequence[str]], data: list[int], col: int,
                     fractions: bool) -> bool:
    """Percentages that can be holdings of one company: none above 100%, together at most 100%.
    A share count (420,000) or a rate repeated for every employee (3% × 120) is no stake."""
    values = [a.value * (100 if fractions else 1) for r in data
              if (a := parse_cell(_cell(rows, r, col))) is not None]
    return all(0 <= v <= 100 for v in values) and sum(values) <= MAX_STAKES_TOTAL


def _data_rows(rows: Sequence[Sequence[str]], header: int, col: int) -> list[int]:
    return [
        r for r in range(header + 1, len(rows))
        if col < len(rows[r]) and rows[r][col].strip() and not is_total_row(rows[r][col])
    ]


def _cell(rows: Sequence[Sequence[str]], r: int, c: int | None) -> str:
    return _one_line(rows[r][c]) if c is not None and c < len(rows[r]) else ""


def _cap_table(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    rows = grid.rows
    header = _header_row(rows, _HOLDER)
    if header is None:
        return None
    cells = rows[header]
    holder = _column(cells, _HOLDER, set())
    skip = {holder} if holder is not None else set()
    pct = _column(cells, _PCT_NAMED, skip)
    pct = pct if pct is not None else _column(cells, _PCT, skip)
    shares = _column(cells, _SHARES, {c for c in (holder, pct) if c is not None})
    if holder is None or (pct is None and shares is None):
        return None
    taken = {c for c in (holder, pct, shares) if c is not None}
    klass = _column(cells, _CLASS, taken)
    as_of = _column(cells, _AS_OF, taken | ({klass} if klass is not None else set()))
    data = _data_rows(rows, header, holder)
    fractions = pct is not None and all(
        (a := parse_cell(_cell(rows, r, pct))) is not None and a.unit is None and abs(a.value) <= 1
        for r in data if _cell(rows, r, pct)
    )
    if pct is not None and not (_STAKE_WORDS.search(cells[pct]) or _BARE_PCT.match(cells[pct])):
        return None
    if pct is not None and not _reads_as_stakes(rows, data, pct, fractions):
        return None  # a "%" column that is no stake: an employer pension rate in a census
    value_col = pct if pct is not None else shares
    out: list[Candidate] = []
    for r in data:
        raw = _cell(rows, r, holder)
        note = _PAREN_NOTE.search(raw)
        name = strip_title(raw[: note.start()] if note else raw)
        amount = parse_cell(_cell(rows, r, value_col))
        span = grid.locate(r).cells.get(value_col)  # type: ignore[arg-type]
        if is_placeholder(name) or amount is None or span is None or amount.currency is not None:
            continue
        unit = "%" if value_col == pct else "shares"
        value = round(amount.value * 100, 6) if unit == "%" and fractions else amount.value
        attributes = {
            key: text for key, text in (
                ("shares", _cell(rows, r, shares) if value_col != shares else ""),
                ("class", _cell(rows, r, klass)),
                ("note", note.group(1) if note else ""),
            ) if text
        }
        period = parse_period(_cell(rows, r, as_of)) if as_of is not None else None
        out.append(Candidate(
            kind=FindingKind.OWNERSHIP,
            subject=f"ownership:{canonical_entity(name)}",
            label=f"{name} ownership",
            section=view.index,
            core=span,
            bounds=grid.locate(r).line,
            anchor=grid.locate(r).cells.get(holder),
            evidence="table",
            period=period or view.period,
            value=value,
            unit=unit,
            value_text=_cell(rows, r, value_col),
            entity=name,
            attributes=attributes,
            location=_cell_location(view, grid, r, value_col),  # type: ignore[arg-type]
        ))
    return out


def _people_table(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    rows = grid.rows
    header = _header_row(rows, _ROLE_HEADER)
    if header is None:
        return None
    role_col = _column(rows[header], _ROLE_HEADER, set())
    name_col = _column(rows[header], _NAME_HEADER, {role_col} if role_col is not None else set())
    if role_col is None or name_col is None:
        return None
    out: list[Candidate] = []
    for r in _data_rows(rows, header, name_col):
        name = strip_title(_cell(rows, r, name_col))
        if is_placeholder(name) or not (is_person_name(name) or len(name.split()) >= 2):
            continue
        role = _cell(rows, r, role_col)
        role = "" if is_placeholder(role) else role
        located = grid.locate(r)
        span = located.cells.get(name_col)
        if span is None:
            continue
        attributes = {"role": role, **_other_columns(rows[header], rows[r], {name_col, role_col})}
        out.append(Candidate(
            kind=FindingKind.PERSON,
            subject=f"person:{canonical_entity(name, 'person')}",
            label=f"{name} — {role}" if role else name,
            section=view.index,
            core=span,
            bounds=located.line,
            anchor=located.cells.get(role_col),
            evidence="table" if role else "mention",
            entity=name,
            attributes=attributes,
            location=_cell_location(view, grid, r, name_col),
        ))
    return out


_PAY_HEADER = _WORDS.cues("pay_header")  # the one list of pay columns, the agent's too


def _other_columns(header: Sequence[str], row: Sequence[str], skip: set[int]
                   ) -> dict[str, str]:
    """The rest of a person's row (department, start date, salary …), keyed by column header.

    The first pay column is also kept as `pay`, with its header (its unit) as `pay_column`.
    """
    out: dict[str, str] = {}
    for c, label in enumerate(header):
        cell = _one_line(row[c]) if c < len(row) else ""
        name = _one_line(label)
        if c in skip or not cell or not name or cell.strip("-–—/ ").lower() in ("", "n/a", "na"):
            continue
        out.setdefault(name.lower(), cell)
        if "pay" not in out and _PAY_HEADER.search(name) and is_figure(cell):
            out["pay"], out["pay_column"] = cell, name
    return out


# "Other customers", "All other", "Übrige Kunden", "Sonstige": the rest, not one customer
_REST_OF_CUSTOMERS = _WORDS.cues("rest_of_customers")


def _customer_table(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    rows = grid.rows
    header = _header_row(rows, _CUSTOMER_HEADER)
    if header is None:
        return None
    name_col = _column(rows[header], _CUSTOMER_HEADER, set())
    share_col = _column(rows[header], _SHARE_HEADER,
                        {name_col} if name_col is not None else set())
    if name_col is None or share_col is None:
        return None
    out: list[Candidate] = []
    for r in _data_rows(rows, header, name_col):
        name = _cell(rows, r, name_col)
        amount = parse_cell(_cell(rows, r, share_col))
        located = grid.locate(r)
        span = located.cells.get(share_col)
        if (is_placeholder(name) or _REST_OF_CUSTOMERS.begins(name) or is_total_row(name)
                or amount is None
                or span is None or amount.currency is not None):
            continue
        fraction = amount.unit is None and abs(amount.value) <= 1.0
        out.append(Candidate(
            kind=FindingKind.CUSTOMER,
            subject=f"customer concentration:{canonical_entity(name, 'organisation')}",
            label=f"{name} share of revenue",
            section=view.index,
            core=span,
            bounds=located.line,
            anchor=located.cells.get(name_col),
            evidence="table",
            period=view.period,
            value=amount.value * 100 if fraction else amount.value,
            unit="%",
            value_text=_cell(rows, r, share_col),
            entity=name,
            location=_cell_location(view, grid, r, share_col),
        ))
    return out


def _yes_no(text: str) -> str:
    lowered = text.strip().lower()
    if lowered.startswith(("yes", "y ", "true", "ja")) or lowered == "y":
        return "yes"
    if lowered.startswith(("no", "none", "false", "nein")) or lowered == "n":
        return "no"
    return ""


def _worth(view: SectionView, grid: _Grid, header: int, worth: int | None, r: int,
           context: str) -> Amount | None:
    """A contract's value in units: "Annual value (£000)" scales its cells, as does the table."""
    if worth is None:
        return None
    label = grid.rows[header][worth]
    scale, currency = _units(view, grid, header, context)
    own = scale_from_text(label)
    amount = parse_cell(_cell(grid.rows, r, worth), scale=own if own != 1.0 else scale,
                        currency=currency_from_text(label) or currency,
                        decimal_comma=grid.decimal_comma)
    return amount if amount is not None and amount.currency is not None else None


def _contract_table(view: SectionView, grid: _Grid, context: str) -> list[Candidate] | None:
    rows = grid.rows
    header = _header_row(rows, _PARTY_HEADER)
    if header is None:  # (row 0 is a header too: no `or` here)
        header = _header_row(rows, _CUSTOMER_HEADER)
    if header is None:
        return None
    cells = rows[header]
    party = _column(cells, _PARTY_HEADER, set())
    party = party if party is not None else _column(cells, _CUSTOMER_HEADER, set())
    contract = _column(cells, _CONTRACT_HEADER, {party} if party is not None else set())
    coc = _column(cells, _COC_HEADER, {c for c in (party, contract) if c is not None})
    term = _column(cells, _TERM_HEADER, {c for c in (party, contract, coc) if c is not None})
    if party is None or (contract is None and coc is None and term is None):
        return None
    taken = {c for c in (party, contract, coc, term) if c is not None}
    worth = _column(cells, _VALUE_HEADER, taken)
    out: list[Candidate] = []
    for r in _data_rows(rows, header, party):
        name = _cell(rows, r, party)
        located = grid.locate(r)
        span = located.cells.get(party)
        if is_placeholder(name) or span is None:
            continue
        flag = _yes_no(_cell(rows, r, coc))
        kind = _cell(rows, r, contract) or "Contract"
        amount = _worth(view, grid, header, worth, r, context)
        attributes = {
            key: text for key, text in (
                ("contract", kind),
                ("change_of_control", flag),
                ("term", _cell(rows, r, term)),
                ("termination", _cell(rows, r, coc) if "terminat" in _cell(rows, r, coc).lower()
                 else ""),
            ) if text
        }
        label = f"{kind} with {name}" + (" — change-of-control clause" if flag == "yes" else "")
        if amount is not None:
            attributes["value_per"] = _one_line(cells[worth])  # type: ignore[index]
        out.append(Candidate(
            kind=FindingKind.CONTRACT,
            subject=f"contract:{canonical_entity(name, 'organisation')}",
            label=label,
            section=view.index,
            core=span,
            bounds=located.line,
            anchor=located.cells.get(coc) if coc is not None else None,
            evidence="table",
            value=amount.value if amount else None,
            unit=amount.currency if amount else None,
            value_text=_cell(rows, r, worth) if amount else None,
            entity=name,
            attributes=attributes,
            location=_cell_location(view, grid, r, party),
        ))
    return out
