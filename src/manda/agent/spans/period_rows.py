"""Tables whose rows are headed by periods, read from lines that lost their column gaps.

A note may list one line item by the period it falls in, a row a period, under a lead-in that
names the line item ("The following table outlines the expected future recognition of unearned
revenue as of June 30, 2023:" over "(In millions)", "Three Months Ending", "September 30, 2023
$19,673", "December 31, 2023 15,600", …, "Thereafter 2,912", "Total $53,813"). Each row's label is
its period (with the words heading the run: "Three Months Ending December 31, 2023"), its one
cell the line item's figure: read as a table of one column, named by the lead-in, it is a row of
the period asked like any other (`period_tables`).

Where each period heads its own line of several figures ("June 29, 2025 to August 2, 2025:" over
"Open market and privately negotiated purchases 33,265 $210.43 33,265", then "Total 89,498
$99,779"), the columns cannot be told apart once their gaps are lost: those lines are read as
sentences of the period their heading names, with the table's title and column heads as their
own words (`manda.agent.spans.pool`). A row of a table whose rows are years is a schedule's
(`manda.agent.compose.schedules`), not read here.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.agent.spans.balances import totals_row
from manda.agent.tables import Row, Table
from manda.finance.figures import ends_in_figure, lone_cell, statement_scale
from manda.finance.periods import find_periods
from manda.vocabulary import vocabulary

__all__ = ["period_label", "period_tables", "split_cells"]

_V = vocabulary()
_JOIN = _V.cues("period_range_join")  # "to", "through", "–": "June 29, 2025 to August 2, 2025"
_REST = _V.cues("schedule_rest_row")  # "Thereafter"
_LEAD_END = _V.cues("schedule_lead_end")  # "as of …", "are as follows": where its subject ends
_LEAD_IN = _V.cues("table_lead_in")  # "The following table outlines": before its subject
_MIN_PERIODS = 2  # a table by period lists two periods at least
_ABOVE = 4  # how many lines above its rows a table's lead-in and heads are looked for in
_YEAR_DIGITS = 4


def period_label(text: str) -> bool:
    """The text is a period and nothing else: a day, a month, a quarter ("Three Months Ending
    September 30, 2023"), or a range of two ("June 29, 2025 to August 2, 2025:")."""
    label = text.strip().rstrip(":").strip()
    found = find_periods(label)
    if not found or len(found) > 2 or not label:
        return False
    rest = label
    for _, start, end in reversed(found):
        rest = f"{rest[:start]} {rest[end:]}"
    left = rest.replace(",", " ").split()
    return not left or (len(found) == 2 and len(left) == 1 and _JOIN.fullmatch(left[0]))


def split_cells(line: str) -> tuple[str, list[str]]:
    """A line's label and the figure cells it ends with; a year that ends a date is the
    label's ("September 30, 2023 $19,673": "September 30, 2023" and one cell)."""
    words = line.split()
    cells: list[str] = []
    while len(words) > 1 and lone_cell(words[-1]):
        word = words[-1]
        if word.isdigit() and len(word) == _YEAR_DIGITS and words[-2].endswith(","):
            break
        cells.insert(0, words.pop())
    return " ".join(words), cells


def _heads(above: Sequence[str]) -> tuple[list[str], str]:
    """The lines right above a run of rows: the lead-in (ending in ":") and the lines between it
    and the rows (a scale, "(In millions)"; the words heading the periods, "Three Months
    Ending")."""
    run: list[str] = []
    for line in reversed(above):
        text = line.strip()
        if not text or ends_in_figure(text):
            break
        run.insert(0, text)
        if text.endswith(":"):
            break
    return run, next((t for t in run if t.endswith(":")), "")


def _item(lead: str) -> str:
    """The line item a lead-in names: its words after the words that say a table follows, before
    where its subject ends ("The following table outlines the expected future recognition of
    unearned revenue as of June 30, 2023:" → "The expected future recognition of unearned
    revenue")."""
    text = lead.rstrip(":").strip()
    end = _LEAD_END.search(text)
    text = text[:end.start()].rstrip(" ,") if end is not None and end.start() > 0 else text
    opening = _LEAD_IN.starts(text)
    if opening is not None and text[opening.end():].strip():
        text = text[opening.end():].strip()  # "the expected future recognition of …"
        text = text[:1].upper() + text[1:]
    return text


def period_tables(lines: Sequence[str]) -> list[Table]:
    """The tables of one figure a period among a passage's lines (no `|` rows), each with its
    lead-in and heads as caption, its column named by the line item the lead-in names, its rows
    the periods (then the years after, "Thereafter", and the whole, "Total")."""
    out: list[Table] = []
    i = 0
    while i < len(lines):
        label, cells = split_cells(lines[i].strip())
        if "|" in lines[i] or len(cells) != 1 or not period_label(label):
            i += 1
            continue
        start = i
        rows: list[tuple[str, str, str]] = []
        while i < len(lines):
            line = lines[i].strip()
            label, cells = split_cells(line)
            if "|" in line or len(cells) != 1:
                break
            whole = totals_row(label) or not label
            if not (period_label(label) or whole or _REST.found(label)):
                break
            rows.append((label, cells[0], line))
            i += 1
            if whole:
                break  # the whole closes the table
        periods = sum(1 for label, _, _ in rows if period_label(label))
        caption, lead = _heads(lines[max(0, start - _ABOVE):start])
        if periods < _MIN_PERIODS or not lead:
            i = max(i, start + 1)
            continue
        # the words heading the periods ("Three Months Ending"): no scale, no lead-in
        heading = " ".join(t for t in caption if t != lead and not statement_scale([t]).line)
        item = _item(lead)
        table = Table(header=[item], caption=caption)
        for label, cell, line in rows:
            own = f"{heading} {label}".strip() if heading and period_label(label) else label
            table.rows.append(Row(label=own or "Total", cells={item: cell}, line=line))
        out.append(table)
    return out
