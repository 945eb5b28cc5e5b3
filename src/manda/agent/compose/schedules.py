"""Schedules whose rows are years: what falls due in each coming year, and in all.

A note states its debt maturities, lease payments or purchase obligations as a run of lines
under a lead-in ("Future principal payments … as of December 31, 2025, are as follows (in
millions):"): one line a year ("2027 8,832"), then the years after ("Thereafter 45,000") and the
whole ("Total term debt principal $91,281", or the bare "$68,836"); a table of several columns
("Operating Leases | Finance Leases | Total") is one schedule a column. Or across a header of years
("2026 2027 … Thereafter Total") over one line an obligation ("Total required principal payments
$2,000 $97 …"). A line labelled by a year is the amount due in that year, never a column's
fiscal year; the total is the whole. The answer says the amount due in the year asked (or after
it, or in all), the schedule's date and its place, and the schedule as stated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.leads import day_said
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.relevance import content_terms, stems_of, term_in
from manda.agent.spans import heading_shaped, totals_row
from manda.agent.tables import Table, read_tables
from manda.agent.unusual import body
from manda.finance.amounts import currency_of_document
from manda.finance.figures import (
    Figure,
    StatementScale,
    ends_in_figure,
    lone_cell,
    note_mark,
    read_figure,
    statement_scale,
)
from manda.finance.fiscal import fiscal_year_named
from manda.finance.periods import find_dates
from manda.vocabulary import vocabulary

__all__ = ["Entry", "Schedule", "answer", "schedules"]

_V = vocabulary()
_REST = _V.cues("schedule_rest_row")  # "Thereafter", "2031 and thereafter", "After 5 years"
_LEAD_END = _V.cues("schedule_lead_end")  # "as of …", "are as follows": where its subject ends
# a run of lines is a schedule with two years at least and the years after ("Thereafter")
_MIN_YEARS = 2
# a schedule whose words cover less of the question's than this does not answer it
_COVERED = 0.5
_EXTRA = 0.05  # for each word of a line's name the question does not say
_HEADINGS_ABOVE = 20  # how many lines above a schedule its headings are looked for in
_CHOSEN = 0.1  # the column or line a question names, else the table's total one


@dataclass(frozen=True)
class Entry:
    """One line of a schedule: a year's amount, the years after, or the whole."""

    label: str  # as written: "2027", "Thereafter", "Total term debt principal"
    cell: str  # its figure as written: "8,832", "$91,281"
    year: int | None = None  # the year it falls due in
    rest: bool = False  # the years after the last one listed
    total: bool = False  # the whole


@dataclass(frozen=True)
class Schedule:
    """What falls due by year, as one passage states it: one column of a note's table."""

    caption: str  # its lead-in and header, as written
    name: str  # the column's or the line's own name ("Operating Leases"), else ""
    entries: tuple[Entry, ...]
    source: Source
    scale: StatementScale
    currency: str | None
    as_of: date | None  # the date it is stated at
    headings: str = ""  # the headings above it in its passage ("Debt Maturities")

    def figure(self, entry: Entry) -> Figure | None:
        # its own name says whether it counts things ("restricted stock units"); a caption's
        # words ("leases of our stores") do not
        return read_figure(entry.cell, entry.label, self.name, self.scale,
                           table_currency=self.currency)

    def whole(self) -> Entry | None:
        """The first total after its years: the sum of what falls due (the total of lease
        payments, before the interest that discounts them)."""
        return next((e for e in self.entries if e.total), None)

    def stated(self) -> str:
        return "; ".join(f"{e.label} {e.cell}" for e in self.entries)


def _year(token: str) -> int | None:
    word = token.strip(":")
    if len(word) == 4 and word.isdigit() and 1990 <= int(word) <= 2100:
        return int(word)
    return None


def _split(line: str, width: int | None = None) -> tuple[str, list[str]]:
    """A line's label and the figure cells it ends with ("Total undiscounted liabilities 14,725
    1,579 16,304": the label and three cells). Where the schedule's `width` is known, a note's
    number one cell too many after the label is the label's ("Other commitments (3) 2,956 …")."""
    words = line.split()
    cells: list[str] = []
    while words and lone_cell(words[-1]) and _year(words[-1]) is None:
        cells.insert(0, words.pop())
    if width is not None and len(cells) == width + 1 and note_mark(cells[0]):
        words.append(cells.pop(0))
    return " ".join(words), cells


def _marked(label: str) -> bool:
    """A line that ends with a note's mark: "(a)", "(b)", "(3)" after its words."""
    words = label.split()
    last = words[-1] if len(words) > 1 else ""
    return note_mark(last) or (len(last) == 3 and last[0] == "(" and last[-1] == ")"
                               and last[1].isalpha() and last[1].islower())


def _entry(label: str, cell: str) -> Entry:
    year = _year(label) if len(label.split()) == 1 else None
    if year is not None:
        return Entry(label, cell, year=year)
    if _REST.found(label):
        return Entry(label, cell, rest=True)
    return Entry(label or "Total", cell, total=not label or totals_row(label))


def _lead_in(above: list[str]) -> str:
    """The schedule's lead-in: the lines right above it that are no row of figures, from their
    last sentence's start ("… distribution rights. Future payments under … are as follows:"),
    a lead-in wrapped over two lines read as one."""
    run: list[str] = []
    for line in reversed(above):
        if not line.strip() or ends_in_figure(line):
            break
        run.insert(0, line.strip())
    text = " ".join(run)
    head, stop, tail = text.rpartition(". ")
    return tail if stop and head and len(tail) >= 20 else text


def _as_of(lead: str, above: list[str]) -> date | None:
    """The date the schedule is stated at: its lead-in's ("as of September 27, 2025"), else the
    latest its passage states above it (a note's table at the balance sheet's date)."""
    own = find_dates(lead.replace(",2", ", 2"))
    if own:
        return own[0][0]
    dates = [d for line in above for d, _, _ in find_dates(line.replace(",2", ", 2"))]
    return max(dates) if dates else None


def _by_rows(lines: list[str], source: Source, currency: str | None) -> list[Schedule]:
    """Schedules whose lines are years ("2027 8,832"), one a column of figures."""
    out: list[Schedule] = []
    i = 0
    while i < len(lines):
        label, cells = _split(lines[i])
        if not cells or _year(label) is None:
            i += 1
            continue
        width, start = len(cells), i
        rows: list[tuple[str, list[str]]] = []
        while i < len(lines):
            label, cells = _split(lines[i], width)
            if len(cells) != width:
                break
            ended = any(_entry(lb, cs[0]).total for lb, cs in rows)
            listed = (len(label.split()) == 1 and _year(label) is not None) or _REST.found(label)
            if listed and ended:
                break  # the years of another schedule
            if not (listed or not label or totals_row(label) or ended):
                break  # "Less: imputed interest" is read after the whole only
            rows.append((label, cells))
            i += 1
        years = sum(1 for lb, _ in rows if _year(lb) is not None)
        if years < _MIN_YEARS or not any(_REST.found(lb) for lb, _ in rows):
            i = start + 1
            continue  # a schedule lists what falls due after its last year ("Thereafter")
        above = [line.strip() for line in lines[max(0, start - 4):start] if line.strip()]
        header = above[-1].split() if above else []
        names = _column_names(above, width)
        lead = _lead_in(above[:-1] if names[0] else above)
        caption = f"{lead} {' '.join(header)}" if names[0] else lead
        scale = statement_scale(above)
        money = currency or ("USD" if any("$" in c for _, cs in rows for c in cs) else None)
        as_of = _as_of(lead, lines[:start])
        for column, name in enumerate(names):
            entries = tuple(_entry(lb, cs[column]) for lb, cs in rows)
            out.append(Schedule(caption, name, entries, source, scale, money, as_of,
                                _headings(lines[:start])))
    return out


def _column_names(above: list[str], width: int) -> list[str]:
    """The names of a schedule's `width` columns, from the line right above its rows (a word a
    column, or titles of several words that end alike, `_titles`); a header
    printed over two lines ("Operating Finance" over "(millions) Leases (a) Leases (b) Total")
    is read with its notes' marks and its scale left out, the upper line's last words set
    before the lower line's words that repeat; "" for each where the columns go unnamed."""
    if width < 2 or not above:
        return [""] * width
    header = above[-1].split()
    if len(header) == width:
        return header
    lower = [w for w in header if not _bracketed(w)]
    if len(lower) > width and (titles := _titles(lower, width)) is not None:
        return titles
    if len(lower) != width:
        return [""] * width
    repeated = [i for i, w in enumerate(lower) if lower.count(w) > 1]
    if not repeated:
        return lower
    upper = [w for w in (above[-2].split() if len(above) > 1 else []) if not _bracketed(w)]
    if len(upper) < len(repeated) or any(ends_in_figure(w) for w in upper[-len(repeated):]):
        return [""] * width
    names = list(lower)
    for i, word in zip(repeated, upper[-len(repeated):], strict=True):
        names[i] = f"{word} {names[i]}"
    return names


def _titles(words: list[str], width: int) -> list[str] | None:
    """`width` column titles of several words each, cut after each time the word that ends them
    recurs ("Operating Leases Finance Leases Total": "Operating Leases", "Finance Leases",
    "Total"); None where no word cuts the header into that many."""
    for end in dict.fromkeys(w.lower() for w in words):
        cuts = [i + 1 for i, w in enumerate(words) if w.lower() == end]
        if len(cuts) < 2:
            continue
        bounds = [0, *cuts, *([len(words)] if cuts[-1] < len(words) else [])]
        titles = [" ".join(words[a:b]) for a, b in pairwise(bounds)]
        if len(titles) == width:
            return titles
    return None


def _bracketed(word: str) -> bool:
    """A note's mark or a scale in brackets: "(a)", "(3)", "(millions)"."""
    return len(word) >= 3 and word[0] == "(" and word[-1] == ")"


def _headings(above: list[str]) -> str:
    """The headings a schedule stands under in its passage ("17. Long-Term Debt", "Debt
    Maturities"): they say what it schedules where its own lead-in does not."""
    return " ".join(line for line in above[-_HEADINGS_ABOVE:] if heading_shaped(line))


def _by_columns(lines: list[str], source: Source, currency: str | None) -> list[Schedule]:
    """Schedules across a header of years ("… 2026 2027 2028 Thereafter Total"): one a line
    of figures under it, one figure a year."""
    out: list[Schedule] = []
    for i, line in enumerate(lines):
        words = line.split()
        tail: list[str] = []
        for word in reversed(words):
            if _year(word) is None and not _REST.found(word) and not totals_row(word):
                break
            tail.insert(0, word)
        years = [w for w in tail if _year(w) is not None]
        if not years or not any(_REST.found(w) for w in tail):
            continue  # "2025 2024 2023" over a statement's rows: no years after the last
        own = " ".join(words[:len(words) - len(tail)])
        above = [x.strip() for x in lines[max(0, i - 3):i] if x.strip()]
        lead = own if own and not above else " ".join(
            x for x in (_lead_in(above), own) if x)
        caption = lead.strip()
        scale = statement_scale([*above, line])
        as_of = _as_of(caption, lines[:i])
        heading = ""
        for below in lines[i + 1:i + 12]:
            label, cells = _split(below, len(tail))
            if not cells:
                if label and label.rstrip().endswith((":", ")")) and len(label) < 60:
                    heading = label  # "Long-term debt: (a)" over its lines
                    continue
                break
            if len(cells) != len(tail) or not label:
                break
            if heading and _marked(heading) and _marked(label):
                # "Construction commitments (b)" under "Long-term debt: (a)": a line with a
                # note of its own, as the heading has, stands beside the heading, not under it
                heading = ""
            money = currency or ("USD" if any("$" in c for c in cells) else None)
            entries = tuple(_entry(t, c) for t, c in zip(tail, cells, strict=True))
            # a heading names the lines under it ("Long-term debt:"), never the table's total
            name = f"{heading} {label}".strip() if heading and not totals_row(label) else label
            out.append(Schedule(caption, name, entries, source, scale, money, as_of,
                                _headings(lines[:i])))
    return out


def _by_table(table: Table, source: Source, currency: str | None) -> list[Schedule]:
    """A table whose rows are years ("2027 | Operating leases: 1,988 | Finance leases: 73"): one
    schedule a column, as a run of lines is read."""
    rows = [r for r in table.rows if r.cells]
    if sum(1 for r in rows if _year(r.label) is not None) < _MIN_YEARS or not any(
            _REST.found(r.label) for r in rows):
        return []
    caption = [c for c in table.caption if c]
    lead = _lead_in(caption)
    scale = statement_scale(caption)
    as_of = _as_of(lead, caption)
    out = []
    for column in [h for h in table.header if h]:
        entries = tuple(_entry(r.label, r.cells[column]) for r in rows
                        if r.cells.get(column, "").strip() and lone_cell(r.cells[column]))
        if not entries:
            continue
        money = currency or ("USD" if any("$" in e.cell for e in entries) else None)
        name = "" if len(table.header) <= 2 else column
        out.append(Schedule(lead, name, entries, source, scale, money, as_of,
                            " ".join(c for c in caption if heading_shaped(c))))
    return out


def schedules(evidence: Evidence) -> list[Schedule]:
    """Every schedule by year the passages retrieved state, each once."""
    out: list[Schedule] = []
    seen: set[tuple[str, str, str]] = set()
    pages: dict[str, list[str]] = {}
    for hit in evidence.hits:
        pages.setdefault(hit.document_id, []).append(hit.text)
    currencies = {doc: currency_of_document(texts) for doc, texts in pages.items()}
    for hit in evidence.hits:
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        lines = [line for line in body(hit.text).splitlines() if "|" not in line]
        source = evidence.hit_source(hit)
        currency = currencies.get(hit.document_id)
        tables = [s for t in read_tables(hit.text) for s in _by_table(t, source, currency)]
        for schedule in [*_by_rows(lines, source, currency), *_by_columns(lines, source, currency),
                         *tables]:
            key = (hit.document_id, schedule.name, schedule.stated())
            if key not in seen:
                seen.add(key)
                out.append(schedule)
    return out


def _coverage(schedule: Schedule, terms: Sequence[str]) -> float:
    """The share of the question's words the schedule's caption and name say."""
    if not terms:
        return 0.0
    totals = " ".join(e.label for e in schedule.entries if e.total)
    said = stems_of(f"{schedule.caption} {schedule.name} {totals} {schedule.headings}")
    return sum(1 for t in terms if term_in(t, said)) / len(terms)


def _chosen(schedule: Schedule, found: Sequence[Schedule], terms: Sequence[str]) -> bool:
    """Among the columns or lines of one table, the one asked: the only one whose own name the
    question says ("operating lease payments"), else (none, or several: "operating and finance
    leases together") the table's total one."""
    table = [s for s in found if s.source.chunk_id == schedule.source.chunk_id
             and s.caption == schedule.caption]
    named = [s for s in table if s.name and any(term_in(t, stems_of(s.name)) for t in terms)]
    if len(named) == 1:
        return named[0] is schedule
    return bool(schedule.name) and totals_row(schedule.name)


def _said_most(schedule: Schedule, found: Sequence[Schedule], terms: Sequence[str]
               ) -> Schedule:
    """Among the columns of the chosen schedule's table, the one whose own name says the most of
    the question's words, where one alone does ("Finance Leases" of "finance lease payments",
    beside "Operating Leases" that says "lease" only and the "Total"); else the schedule."""
    table = [s for s in found if s.source.chunk_id == schedule.source.chunk_id
             and s.caption == schedule.caption and s.name]
    said = {id(s): sum(1 for t in terms if term_in(t, stems_of(s.name))) for s in table}
    most = max(said.values(), default=0)
    top = [s for s in table if most and said[id(s)] == most]
    return top[0] if len(top) == 1 and said.get(id(schedule), 0) < most else schedule


def _pick(schedule: Schedule, years: Sequence[int], after: bool) -> Entry | None:
    """The entry asked: the year's, the years' after it, else the whole."""
    listed = [e.year for e in schedule.entries if e.year is not None]
    if after and years and listed and max(years) >= max(listed):
        return next((e for e in schedule.entries if e.rest), None)
    for year in years:
        if (own := next((e for e in schedule.entries if e.year == year), None)) is not None:
            return own
    return schedule.whole()


def answer(ask: Ask, evidence: Evidence) -> Draft | None:
    """The amount the schedule asked states for the year asked (or after it, or in all), with
    its date and place, and the schedule as stated; None when no schedule answers."""
    frame = ask.frame
    scope = evidence.scope
    terms = [t for t in frame.schedule if t.removesuffix("'s").rstrip("'") not in
             evidence.scope_words]
    found = [s for s in schedules(evidence) if scope is None or s.source.document_id in scope]
    best: tuple[float, int, Schedule, Entry] | None = None
    asked = set(frame.period_years)
    for order, schedule in enumerate(found):
        entry = _pick(schedule, frame.years, frame.schedule_after)
        if entry is None or (asked and schedule.as_of is not None and entry.year not in asked
                             and fiscal_year_named(schedule.as_of) not in asked):
            continue  # "at the end of fiscal 2023": another year's schedule does not answer
        covered = _coverage(schedule, terms)
        # a line that names more than is asked ("principal and interest") after one that does not
        extra = [t for t in content_terms(schedule.name)
                 if not any(term_in(q, stems_of(t)) for q in terms)]
        rank = (covered - _EXTRA * len(extra) + _CHOSEN * _chosen(schedule, found, terms),
                -order)
        if covered >= _COVERED and (best is None or rank > (best[0], best[1])):
            best = (rank[0], rank[1], schedule, entry)
    if best is None:
        return None
    _, _, schedule, entry = best
    if (most := _said_most(schedule, found, terms)) is not schedule and (
            own := _pick(most, frame.years, frame.schedule_after)) is not None:
        schedule, entry = most, own
    figure = schedule.figure(entry)
    if figure is None or figure.value is None:
        return None
    words, language = vocabulary(), ask.language
    stated = (words.answer("schedule_dated", language, day=day_said(schedule.as_of, language))
              if schedule.as_of is not None else words.answer("schedule_undated", language))
    amount = figure.shown()
    where = cite([schedule.source])
    if entry.year is not None:
        key = "schedule_year" if figure.unit not in (None, "shares") else "schedule_year_count"
        lead = words.answer(key, language, amount=amount, year=entry.year, schedule=stated,
                            cite=where)
    elif entry.rest:
        last = max(e.year for e in schedule.entries if e.year is not None)
        lead = words.answer("schedule_rest", language, amount=amount, year=last,
                            schedule=stated, cite=where)
    else:
        lead = words.answer("schedule_total", language, amount=amount, label=entry.label,
                            schedule=stated, cite=where)
    whole = schedule.whole()
    if not entry.total and whole is not None and (all_of := schedule.figure(whole)) is not None \
            and all_of.value is not None:
        lead += " " + words.answer("schedule_of_whole", language, total=all_of.shown(),
                                   label=whole.label)
    caption = f"{schedule.caption} — {schedule.name}" if schedule.name else schedule.caption
    lines = [lead, words.answer("schedule_as_stated", language, caption=caption,
                                rows=schedule.stated())]
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)))
