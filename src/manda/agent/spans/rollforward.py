"""Roll-forward tables read from lines that are no `|` table: balances labelled by their dates.

A roll-forward opens with a balance, moves it (granted, vested, additions, impairment …) and
closes with a balance; each balance's label names its own date ("Balance as of December 31,
2020", "Outstanding as of January 1, 2023", "February 1, 2025"), the date its figures stand at. A
text layer writes it as lines of a label and its figures ("Outstanding as of December 31, 2023
405.8 125"), or staggered, each line a row's figures and then the next row's label ("1,919 $
5.47 3.7 $ 86,095 Exercises"). Both are read here into one table under its column titles — cut
where a measure's title opens ("Number of …", "Weighted-Average …", vocabulary
`measure_column_opener`) or after each footnote's mark ("Restricted Stock (a) Grant Date Fair
Value (b)") — so that `rows._by_part` reads each balance under its label's date, a column a
block (`rollforward_tables`). A block whose titles do not cut into as many columns as its
balances' figures is left as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import pairwise

from manda.agent.tables import Row, Table
from manda.finance.figures import joined_signs, lone_cell
from manda.finance.periods import find_periods
from manda.text import without_asides
from manda.vocabulary import vocabulary

__all__ = ["balance_date", "rollforward_tables", "unrepeated"]

_OPENER = vocabulary().cues("measure_column_opener")  # "Number of", "Weighted-Average"
_LABEL_WORDS = 8  # the most words a row's label holds, its date not counted
_GROUP_WORDS = 4  # the most words of a title over all of a table's columns
_TITLE_LINES = 16  # the most lines of column titles over a roll-forward's first balance
_TITLE_LINE_WORDS = 12  # the most words a line of column titles holds


def balance_date(label: str) -> tuple[str, str, date] | None:
    """A label that ends in a day's date, as its own words, the date as written and the day
    ("Balance as of", "December 31, 2020", 2020-12-31); None for any other."""
    text = label.strip()
    found = [(name, start, end) for name, start, end in find_periods(text)
             if name.count("-") >= 2 and end == len(text)]
    if not found:
        return None
    name, start, end = found[-1]
    try:
        day = date.fromisoformat(name.split()[-1])
    except ValueError:
        return None
    return text[:start].strip(" -–—,:"), text[start:end].strip(), day


def _dated(tokens: list[str]) -> set[int]:
    """The tokens a day's date holds ("December 31, 2020"): a label's words, no figures."""
    joined = " ".join(tokens)
    spans = [(start, end) for name, start, end in find_periods(joined) if name.count("-") >= 2]
    if not spans:
        return set()
    out: set[int] = set()
    at = 0
    for k, token in enumerate(tokens):
        if any(a <= at < b for a, b in spans):
            out.add(k)
        at += len(token) + 1
    return out


@dataclass
class _Row:
    label: list[str]
    figures: list[str] = field(default_factory=list)
    line: str = ""


def _rows(lines: Sequence[str], first: int) -> tuple[list[_Row], int]:
    """The rows from line `first` on, each a label's words and the figures after them, read
    across lines (a staggered line holds a row's figures and the next row's label), up to the
    first line that is no row's (prose, a table's `|` row); and the line after the last read."""
    rows: list[_Row] = []
    pending: list[str] = []
    k = first
    while k < len(lines):
        line = lines[k].strip()
        if "|" in line:
            break
        if k == first and ":" in line:
            line = line.rpartition(":")[2]  # "… as follows (in thousands):Balance as of …"
        tokens = joined_signs(line).split()
        dated = _dated(tokens)
        at = [n for n, t in enumerate(tokens) if lone_cell(t) and n not in dated]
        if at and (at[-1] - at[0] + 1 != len(at) or (any(n > at[0] for n in dated)
                   and any(n < at[-1] for n in dated))):
            break  # figures in more than one run: prose
        lead = tokens[:at[0]] if at else tokens
        if at and not pending and not lead and rows and rows[-1].figures:
            break
        pending = [*pending, *lead]
        if len(pending) - len([t for t in pending if t.rstrip(",").isdigit()]) > \
                _LABEL_WORDS + 3:
            break
        if at:
            if not pending:
                break
            rows.append(_Row(pending, tokens[at[0]:at[-1] + 1], lines[k]))
            pending = tokens[at[-1] + 1:]
        k += 1
    return rows, k


def _titles(lines: Sequence[str], first: int, wanted: int) -> tuple[list[str], int] | None:
    """The `wanted` column titles written over line `first` (a roll-forward's first balance),
    and the first line they take; None where they do not cut into as many."""
    words: list[str] = []
    k = first
    head = lines[first].strip()
    if ":" in head and head.rpartition(":")[2].strip() and \
            balance_date(head.rpartition(":")[2].split(" $")[0]) is not None:
        return None  # the caption runs into the first balance: no titles between
    while k > max(0, first - _TITLE_LINES):
        k -= 1
        line = lines[k].strip()
        glued = line.rpartition(":")[2] if ":" in line else line
        if not glued.strip() or len(glued.split()) > _TITLE_LINE_WORDS or "|" in line or \
                any(lone_cell(t) for t in glued.split()):
            return None
        words = [*glued.split(), *words]
        cut = _cut_titles(words, wanted)
        if cut is not None:
            return cut, k
        if ":" in line:
            return None
    return None


def _cut_titles(words: list[str], wanted: int) -> list[str] | None:
    """Words run together cut into `wanted` titles: where a measure's title opens, else after
    each footnote's mark; asides ("(in years)") after the last title are dropped."""
    text = " ".join(words).replace("- ", "-")
    if wanted == 1:
        return [text]
    starts = [m.start() for m in _OPENER.finditer(text)]
    if len(starts) == wanted and starts[0] == 0:
        titles = [text[a:b].strip() for a, b in pairwise([*starts, len(text)])]
        return [*titles[:-1], " ".join(without_asides(titles[-1]).split()) or titles[-1]]
    marks = [n for n, w in enumerate(words) if len(w) == 3 and w[0] == "(" and w[-1] == ")"
             and w[1].isalpha()]  # "(a)", "(b)": a footnote's mark ends each title
    if len(marks) == wanted and marks[-1] == len(words) - 1:
        cuts = [-1, *marks]
        return [" ".join(words[a + 1:b]) for a, b in pairwise(cuts)]
    return None


def _group(line: str) -> str:
    """The few words in capitals a lead-in's line ends with after its colon ("… (in
    thousands):Options Outstanding"): a title over a table's columns; "" where none."""
    head, colon, tail = line.strip().rpartition(":")
    words = tail.split()
    if not colon or not head or not 1 <= len(words) <= _GROUP_WORDS or \
            not all(w[:1].isupper() for w in words) or any(c.isdigit() for c in tail):
        return ""
    return tail.strip()


def _read(lines: Sequence[str], first: int) -> tuple[Table, int] | None:
    """The roll-forward whose first balance's label opens at line `first`, and the line after
    its closing balance's figures; None where none does."""
    rows, _ = _rows(lines, first)
    balances: list[int] = []
    days: list[date] = []
    for n, row in enumerate(rows):
        dated = balance_date(" ".join(row.label))
        if dated is None:
            continue
        if days and dated[2] <= days[-1]:
            break  # "Exercisable as of December 31, 2021" after the closing balance: no move
        balances.append(n)
        days.append(dated[2])
    if len(balances) < 2 or balances[0] != 0 or any(b - a < 2 for a, b in pairwise(balances)):
        return None  # a schedule of dates, no movements between them, is no roll-forward
    rows = rows[:balances[-1] + 1]
    wanted = len(rows[0].figures)
    if any(len(rows[n].figures) != wanted for n in balances) or \
            any(len(row.figures) > wanted for row in rows):
        return None
    # the column titles over the first balance (none over a table of one column)
    titled = _titles(lines, first, wanted)
    if titled is None and wanted > 1:
        return None
    titles, top = titled if titled is not None else ([""], first)
    caption = [line.strip() for line in lines[max(0, top - 2):top] if line.strip()]
    if top < len(lines) and ":" in lines[top]:
        caption.append(lines[top].rpartition(":")[0] + ":")
    elif ":" in lines[first] and top == first:
        caption.append(lines[first].rpartition(":")[0] + ":")
    # a title over all the columns, after the lead-in's colon ("… as follows:Options
    # Outstanding"): what each balance is of; else, for a balance labelled by its date alone,
    # the table's title ("February 1, 2025" under "Restricted Stock Unit Activity")
    group = _group(lines[top - 1]) if top > 0 and top != first else ""
    # (a lead-in's line, ending in its colon, is no title: "… and years):")
    title = group or (caption[-1] if caption and not caption[-1].endswith(":") else "")
    table = Table(header=titles, caption=caption)
    for row in rows:
        label = " ".join(row.label)
        dated = balance_date(label)
        if dated is None:
            continue  # a movement: its lines are read as they are
        if (not dated[0] or group) and title and not label.lower().startswith(title.lower()):
            label = f"{title.rstrip(':')} {label}"
        table.rows.append(Row(label=label, cells=dict(zip(titles, row.figures, strict=False)),
                              line=row.line))
    last = rows[-1].line
    end = next((k for k in range(first, len(lines)) if lines[k] is last), first + 1)
    return table, end + 1


def rollforward_tables(lines: Sequence[str]) -> list[Table]:
    """The roll-forwards among a passage's lines that are no `|` table, each a table of its
    balances under its column titles, each labelled by its date (the movements between them
    are left to be read as the lines they are)."""
    out: list[Table] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        tail = line.rpartition(":")[2] if ":" in line else line
        tokens = joined_signs(tail).split()
        if "|" in line or not tokens or not _dated(tokens):
            i += 1
            continue
        found = _read(lines, i)
        if found is None:
            i += 1
            continue
        table, i = found
        out.append(table)
    return out



_CARRIED = 3  # the most lines a chunk repeats before the lines it shares with the one before


def unrepeated(lines: Sequence[str]) -> list[str]:
    """A passage's lines with each run that repeats the lines right before it left out, and the
    few lines carried before the run (a chunk that opens with its table's caption line, then
    the rows the chunk before ended with): the passage as the page writes it."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        cut = _repeat(out, lines, k)
        if cut:
            k += cut
            continue
        out.append(lines[k])
        k += 1
    return out


def _repeat(before: list[str], lines: Sequence[str], at: int) -> int:
    """How many lines from `at` repeat the end of `before` (after up to `_CARRIED` carried
    lines): two lines at least, one a row's; 0 where none do."""
    for skip in range(_CARRIED + 1):
        start = at + skip
        for size in range(min(len(before), len(lines) - start), 1, -1):
            run = lines[start:start + size]
            if run == before[-size:] and any(any(c.isdigit() for c in x) for x in run):
                return skip + size
    return 0
