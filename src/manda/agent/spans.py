"""The span of the retrieved passages that best answers a question: a sentence or a table row.

Every sentence and every table row of the passages retrieved is scored against the question
frame: the share of the question's words it covers (a row by its own label and the heading it
stands under, so "Diluted" under "Earnings per share:" is diluted EPS), whether it has the period
asked (a row a column of that year, a document of a year that can state it), whether it has the
kind of answer asked (a reason for "why", a figure for "how much", a rate for "how fast"), and
by meaning where the deal's embedder has weighed it (`Evidence.meaning`). The best span leads an
answer that no composed shape gives; its coverage is the confidence the not-found gate reads.
"""

from __future__ import annotations

import calendar
import math
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from itertools import pairwise

from manda.agent.evidence import Evidence, Source
from manda.agent.frame import QuestionFrame
from manda.agent.kinds import (
    asks_change,
    cause_after,
    counted_terms,
    names_counted,
    refers_to_change,
    states_change,
    states_count,
    states_means,
    states_place,
    states_reason,
)
from manda.agent.relevance import (
    OFF_TOPIC,
    PERIOD_FORMS,
    content_terms,
    names_topic,
    one_word,
    says_change,
    stems_of,
    term_in,
)
from manda.agent.tables import Row, Table, read_tables, unstaggered
from manda.agent.unusual import body, sentences, trim, unwrap
from manda.answers import Intent
from manda.finance.amounts import currency_of_document, find_amounts, stated_amounts
from manda.finance.equivalents import named_groups, named_items
from manda.finance.figures import (
    Figure,
    StatementScale,
    column_date,
    column_header_line,
    column_year,
    figure_row,
    read_figure,
    statement_scale,
    states_the_whole,
)
from manda.finance.fiscal import fiscal_year_named as fiscal_year_of
from manda.finance.label_heads import adds_another_thing, head_before, label_line_item
from manda.finance.periods import find_dates, find_periods, parse_period, quarters_in, year_of
from manda.finance.statements import (
    StatementKind,
    named_statements,
    page_statements,
    question_statements,
)
from manda.finance.vocabulary import find_line_items, item_spec, metric_spec
from manda.ingest.segments import Block, names_no_part, segments
from manda.injection import looks_like_instruction
from manda.models import SearchHit
from manda.text import YEAR, bullet_item, defined_terms, letter_words, without_asides
from manda.vocabulary import vocabulary

__all__ = ["PORTION_ROW", "Span", "a_movement", "a_portion", "balance_side", "best_spans",
           "captions_table", "every_span", "fiscal_year_of", "fits_kind", "heading_shaped",
           "label_periods", "lists_things", "named_after", "names_a_table", "question_verb",
           "rank_spans", "statement_row", "statement_rows", "states_forecast", "totals_row"]

_TITLE_WORD = r"(?:[A-Z][\w&'’\-]*|of|and|the|for|in|on|to|a|—|-|–)"
_TITLE = re.compile(rf"^{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,8}}\s*:?$")
_PERCENT = re.compile(r"\d\s?%|\bpercent\b|\d\)%", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+\b")
_WORD = re.compile(r"[a-z][a-z&\-']+", re.IGNORECASE)
_FLOW = vocabulary().cues("flow_caption")  # "Years Ended December 31", "exercice clos le"
# weights of the parts of a span's score (chosen on the filings dev split, bench/filings_answers)
WORDS, PERIOD_FIT, PERIOD_MISS, OLD_DOCUMENT, OWN_YEAR = 1.0, 0.12, 0.3, 0.35, 0.1
KIND_FIT, KIND_MISS, MEANING, EXTRA_WORD, ROW_FIGURE = 0.15, 0.12, 1.0, 0.03, 0.1
SUBJECT_MISS, ITEM_FIT, FORECAST_FIT = 0.3, 0.25, 0.3
# the line item's row in the primary statement the question asks of (a flow: the P&L or cash
# flow; a balance: the balance sheet), over its row in a note's table or MD&A's
STATEMENT_FIT = 0.1
# a balance at the other end of its period than asked ("Cash, beginning of period" for the cash
# at year end); a total row where a part is asked ("Total net sales" for iPhone net sales), and
# the total where the whole is
SIDE_MISS, TOTAL_MISS, TOTAL_FIT = 0.3, 0.3, 0.05
# a part's row ("AWS" under "Net sales") where the whole is asked and a row states the whole
PART_MISS = 0.3
# a row of a portion of the line item ("Current portion of borrowings", "Borrowings, net of
# current portion") where the whole outstanding is asked: as far off as a segment's row
PORTION_MISS = PART_MISS
# a span that states nothing of the kind asked (no cause for "why", no count of the things "how
# many" counts, no figure for "how much") counts its share of the question's words at 1 - ECHO
ECHO = 0.35
_STATED_KINDS = ("reason", "figure", "rate", "date", "place")
# a condition or possibility stated ("if adoption is slower…", "there is no guarantee…"), an
# exhibit index's entry, a run of headings: none states the fact asked; the question's own words
# side by side in a span ("credit ratings", "team members") say it speaks of the very thing
HEDGED, NO_STATEMENT, PHRASE = 0.3, 0.6, 0.12
# a sentence whose quote starts mid-word or mid-sentence, where its passage was cut, reads as a
# fragment: among spans that answer alike, a whole sentence leads
FRAGMENT = 0.05
# a row whose every figure is nil ("Cash | 0.0 | 0.0" in a fair-value table): beside a row that
# states the item's figures, it states none of it
NIL_ROW = 0.1
# a row whose label lacks a word of the question that a sibling row's label says ("Basic" beside
# "Diluted" under "Earnings per share:" where diluted EPS is asked): the sibling is the one asked
SIBLING_MISS = 0.15
LISTED_QUOTE = 720  # how long a sentence that lists things may be quoted for a list
_ITEM_OPENING = 40  # the opening a bulleted item is known by among a passage's sentences
_MOST_ITEMS = 8  # how many bulleted items after a lead-in ("… due to:") are read with it
_MOST_LINES = 5  # how many short lines after a lead-in, unbulleted, are
_LISTED_ANSWERS = (None, "reason", "means", "list")  # the kinds a lead-in with its items answers
_NESTED_LEAD_IN = 40  # how long the lead-in of a list inside a list is ("Fourth Quarter 2025:")
_HEDGED = vocabulary().cues("hedged_statement")
_EXHIBIT = vocabulary().cues("exhibit_entry")
_RISK_ASKED = vocabulary().cues("intent_due_diligence")
_ENUMERATION = vocabulary().cues("enumeration")
_JOINERS = vocabulary().words("list_joiners")  # "A, B and C"
_AUXILIARY = vocabulary().cues("question_auxiliary")
_CHANGE_ASKED = vocabulary().cues("change_asked")  # "compare", "versus"
_CHANGE_COLUMN = vocabulary().cues("change_column")  # "Change", "2025/2024"
# a column of the whole among parts' columns: "Total", "Consolidated"
_WHOLE_COLUMN = vocabulary().cues("whole_heading") | vocabulary().cues("total_row_start")
_HEADER_WORDS = vocabulary().cues("column_header_words")  # "Actual", "Variance", "Ist"
_MONTH_NAMES = vocabulary().month_names()
# the primary statements: a row of one is a flow over a period (P&L, cash flow) or a balance at
# a date (balance sheet), in the statement's currency and scale
_PRIMARY = frozenset({StatementKind.INCOME, StatementKind.CASH_FLOW, StatementKind.BALANCE})
# "EPS", "net loss per share": a figure for one share, not the line's amount nor a share count
_PER_SHARE_ASKED = vocabulary().cues("per_share_row") | vocabulary().cues("per_share_line")
_SHARE_COUNT = vocabulary().cues("shares_row")  # "Shares used in computing earnings per share"
_RECORDED = vocabulary().cues("recorded_amount")  # "charges", "impairments", "dépréciations"
_SPENT_AS_MEANS = vocabulary().cues("spent_as_means")  # "how much cash did it spend on"
_RECORDING = vocabulary().cues("recording_stated")  # "we recorded $2.4 billion of …"
_REMAINDER = vocabulary().cues("remainder_stated")  # "remained of", "may yet be purchased"
_LIMIT = vocabulary().cues("limit_stated")  # "authorized … up to $10.0 billion", "committed"
_COUNT_ROW = vocabulary().cues("count_row")  # "Number of stores", "Ending store count"


@dataclass(frozen=True)
class Span:
    """One sentence or table row of a retrieved passage, scored for the question."""

    text: str  # the sentence, or the row with its headers, as quoted
    source: Source
    row: Row | None = None
    group: str = ""  # the heading a row stands under: "Net sales:", "Earnings per share:"
    scale: StatementScale | None = None
    currency: str | None = None  # a row's table's currency ("$" in any of its cells)
    flow: bool = True  # a row of figures over a period (else balances at a date)
    words: float = 0.0  # the idf-weighted share of the question's words it covers
    score: float = 0.0  # words plus the fits: how well it answers
    year_end: date | None = None  # the document's fiscal year end, as its columns date it
    extra: dict[str, float] = field(default_factory=dict, compare=False)
    caption: str = field(default="", compare=False)  # a row's table's caption lines
    # the question's words naming a part of the line item asked that the row's label says
    # ("north", "america" of "North America and International segment sales")
    parts: frozenset[str] = field(default=frozenset(), compare=False)
    # a sentence read with the one before it, which names the change it explains ("Gross
    # margin decreased … The decrease was primarily due to …"): a cause's span only
    joined: bool = False
    # the statements a row's page is ("balance sheet"): a row of it says the statement's name
    statements: tuple[str, ...] = field(default=(), compare=False)
    # the label of the last row of a row's table, where it is another row: what the table adds
    # up to ("Adjusted EBITDA" under the items a reconciliation adds back)
    result: str = field(default="", compare=False)
    # a row of a line item asked that its table places in another line item asked ("Share-based
    # payments" added back to reach underlying EBITDA): the part the question asks for
    placed: bool = field(default=False, compare=False)
    # a sentence that lists things, up to LISTED_QUOTE characters: quoted where a list is asked
    # (its last item is as much the answer as its first)
    whole: str = field(default="", compare=False)
    # the segment a row's block stands under ("North America" over "Net sales"): its name says it
    segment: str = field(default="", compare=False)
    # a lead-in read with all its marked items ("… due to: …; …; and …"): it answers a question
    # that asks for reasons, means or things listed, not one that asks for a figure or a name
    listed: bool = field(default=False, compare=False)
    # a row that names a line item asked only in the complement of a head of its own the
    # question does not ask ("Payroll tax expense related to stock-based compensation"): a figure
    # of another thing, no sibling of the item's own row
    aside: bool = field(default=False, compare=False)
    # the years the sentence before it states, where it states none: a paragraph dated once
    # ("As of December 31, 2023, we concluded … As such, we released $6.54 billion …")
    dated_by: frozenset[int] = field(default=frozenset(), compare=False)

    @property
    def is_row(self) -> bool:
        return self.row is not None

    def name(self) -> str:
        """The row's line item with its heading: "Services" under "Net sales:" is
        "Net sales — Services"."""
        if self.row is None:
            return ""
        label = self.row.label.strip().rstrip(":")
        if self.segment and self.segment.lower() not in label.lower():
            return f"{self.segment} — {label}"  # "North America — Operating income"
        group = self.group.strip().rstrip(":")
        if len(group.split()) > 4 and (named := find_line_items(group)):
            # a lead-in ("Operating income by segment is as follows (in millions):") is named
            # by the line item it introduces
            group = group[named[0][1]:named[0][2]]
            group = group[:1].upper() + group[1:]
        if group and (len(label.split()) <= 3 or label_periods(self.row)) and \
                group.lower() not in label.lower() and not (
                find_line_items(label) or named_groups(label)):  # "Long-term debt" is its own
            return f"{group} — {label}"
        return label

    def figures(self) -> list[Figure]:
        """The row's figures, each at its statement's scale, in column order."""
        if self.row is None:
            return []
        scale = self.scale or StatementScale("", 1.0, None, False, None)
        out = []
        label = f"{self.group} {self.row.label}"
        for column, cell in self.row.cells.items():
            figure = read_figure(cell, column, label, scale, table_currency=self.currency)
            if figure is not None:
                out.append(figure)
        return out


@dataclass
class _Pool:
    spans: list[Span]
    names: list[set[str]]  # stems of a row's label and heading (a sentence: its own)
    stems: list[set[str]]  # stems of all its text
    under: list[set[str]] = field(default_factory=list)  # a sentence's heading's stems


def _candidates(evidence: Evidence) -> _Pool:
    pool = _Pool([], [], [], [])
    page_lines: dict[tuple[str, int | None], list[str]] = {}
    for hit in evidence.hits:
        page_lines.setdefault((hit.document_id, hit.location.page), []).extend(
            unstaggered(body(hit.text).splitlines()))
    scales = _document_scales(page_lines)
    # the currency each document states its figures in: a statement that prints no "$" of its
    # own ("(in millions)" over "2,857") is in it
    currencies: dict[str, str | None] = {}
    for (doc_id, _), page in page_lines.items():
        currencies.setdefault(doc_id, None)
        currencies[doc_id] = currencies[doc_id] or currency_of_document(page)
    prose = _across_pages(evidence.hits)
    for hit in evidence.hits:
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        source = evidence.hit_source(hit)
        lines = unstaggered(body(hit.text).splitlines())
        tables = _continued(read_tables(hit.text))
        # a block of rows under a segment's heading ("North America" over "Net sales"): its
        # rows stand under that segment, as ingestion reads them (manda.ingest.segments)
        parted = {id(t): part for t, (part, _) in zip(tables, segments(
            [Block(tuple(t.caption), frozenset(r.label.lower() for r in t.rows))
             for t in tables]), strict=True) if part}
        recovered = _rows_without_gaps(lines, tables)
        row_lines = {row.line for t in tables for row in t.rows} | recovered
        header_lines = {" | ".join(t.header) for t in tables}
        year_end = _year_end(hit.text)
        page = page_lines[(hit.document_id, hit.location.page)]
        for table, part in _by_part(tables):
            _add_rows(pool, table, lines, page, source, year_end, scales.get(hit.document_id),
                      currency=currencies.get(hit.document_id),
                      segment=parted.get(id(table), "") if part is None else part,
                      placed=hit.statements)
        # '… convertible senior notes due 2025 (the "2025 Notes")': a sentence that uses the
        # term says what it stands for
        defined = defined_terms(" ".join(lines))
        for sentence, heading, before, bulleted in _sentences(
                prose.get(id(hit), "\n".join(lines))):
            if sentence in row_lines or sentence in header_lines or "|" in sentence:
                continue
            if len(sentence) < 20 or looks_like_instruction(sentence):
                continue
            # a sentence that lists things ("our priorities: first, …; second, …; and
            # finally, …") keeps its whole text to quote where a list is asked
            whole = trim(sentence, LISTED_QUOTE) if lists_things(sentence) else ""
            meant = [said for term, said in defined.items()
                     if term in sentence and said not in sentence]
            # a lead-in with its bulleted items is quoted whole: its reasons are the items
            quote = trim(sentence, LISTED_QUOTE if bulleted else 320)
            dated_by = frozenset() if YEAR.search(sentence) else frozenset(
                int(y) for y in YEAR.findall(before))
            _add_sentence(pool, Span(quote, source, year_end=year_end, whole=whole,
                                     listed=bulleted, dated_by=dated_by),
                          " ".join([sentence, *meant]), heading)
            if before and refers_to_change(sentence) and before not in row_lines:
                joined = f"{trim(before, 240)} {quote}"
                _add_sentence(pool, Span(joined, source, year_end=year_end, joined=True,
                                         listed=bulleted), f"{before} {sentence}", heading)
    return pool


def every_span(evidence: Evidence) -> list[Span]:
    """Every sentence and row of the evidence's passages, unscored (`rank_spans` keeps those
    that speak to the question, scored)."""
    return list(_pool(evidence).spans)


# the last evidence's spans, with the passages they were read from: an answer reads its
# evidence's spans several times (its lead, its runners-up, the pages that repeat its figure)
_LAST: list[tuple[weakref.ref[Evidence], tuple[int, ...], _Pool]] = []


def _pool(evidence: Evidence) -> _Pool:
    """`_candidates`, read once while the evidence holds the same passages and documents."""
    key = (*(id(h) for h in evidence.hits), *(id(d) for d in evidence.documents.values()))
    if _LAST and _LAST[0][0]() is evidence and _LAST[0][1] == key:
        return _LAST[0][2]
    pool = _candidates(evidence)
    _LAST[:] = [(weakref.ref(evidence), key, pool)]
    return pool


def _across_pages(hits: Sequence[SearchHit]) -> dict[int, str]:
    """The text of each passage a page break cut a sentence of, read as prose: a passage that
    opens mid-sentence ("physical stores. These charges …", the sentence begun on the page
    before) opens with that whole sentence where a passage of the page before ends with its
    start, and the sentence ends there too; where none does, the opening fragment is dropped,
    so that no quote starts mid-sentence. By `id` of the hit; a passage cut nowhere is absent."""
    out: dict[int, str] = {}
    for hit in hits:
        lines = body(hit.text).splitlines()
        head = next((i for i, line in enumerate(lines) if line.strip() and (
            not heading_shaped(line) or _word_cut_off(lines, i))), None)
        first = lines[head].split()[0] if head is not None and lines[head].split() else ""
        if not first[:1].islower() or first != first.lower():
            continue  # a page that opens a sentence ("iPhone net sales …" is a name's case)
        lines = [*lines[:head], *unwrap("\n".join(lines[head:])).splitlines()]
        opening = lines[head].strip()
        cut = min((i for i in (opening.find(". "), opening.find("; ")) if i >= 0),
                  default=len(opening) - 1 if opening[-1:] in ".;" else -1)
        if cut < 0:
            continue  # a line that runs on: no sentence ends on it
        fragment, rest = opening[:cut + 1], opening[cut + 1:].strip()
        page = hit.location.page
        ends = [h for h in hits if page is not None and h.document_id == hit.document_id
                and h.location.page == page - 1 and _unfinished(h) is not None]
        # the passage that ends at its page's foot (its number under it), not one a chunk cut
        before = next((h for h in ends if _at_foot(h)), ends[0] if ends else None)
        begun = _unfinished(before) if before is not None else None
        tail = [*lines[:head], *([f"{begun[1]} {fragment}"] if begun else []),
                *([rest] if rest else []), *lines[head + 1:]]
        out[id(hit)] = "\n".join(tail)
        if before is not None and begun is not None:
            out[id(before)] = "\n".join([*begun[0], f"{begun[1]} {fragment}"])
    return out


def _word_cut_off(lines: Sequence[str], n: int) -> bool:
    """Line `n` is a word or two the text layer left alone, its sentence going on in lowercase
    on the next line ("Freight" / "revenue increased …"): no heading, no page's opening."""
    return len(lines[n].split()) <= 2 and n + 1 < len(lines) and \
        lines[n + 1].strip()[:1].islower()


def _at_foot(hit: SearchHit) -> bool:
    """The passage ends with its page's number: it runs to the foot of the page."""
    lines = [line.strip() for line in body(hit.text).splitlines() if line.strip()]
    return bool(lines) and lines[-1].isdigit() and len(lines[-1]) <= 4


def _unfinished(hit: SearchHit) -> tuple[list[str], str] | None:
    """A passage that ends mid-sentence, its page number aside: its lines before that
    sentence and the sentence's start ("… operating leases related to")."""
    lines = body(hit.text).splitlines()
    while lines and (not lines[-1].strip() or lines[-1].strip().isdigit()):
        lines.pop()  # the page's number under its text
    lines = unwrap("\n".join(lines)).splitlines()  # the sentence's lines as one
    if not lines or lines[-1].rstrip()[-1:] in ".!?:;|" or figure_row(lines[-1]):
        return None
    said = sentences(lines[-1])
    if not said or heading_shaped(lines[-1]):
        return None
    start = said[-1]
    kept = lines[-1][: lines[-1].rfind(start)].rstrip() if start in lines[-1] else ""
    return [*lines[:-1], *([kept] if kept else [])], start


def _continued(tables: list[Table]) -> list[Table]:
    """A table whose caption is only a lead-in to its rows ("Adjusted to exclude the
    following:") continues the table above it: it is read under that table's caption too
    ("Reconciliation of operating profit to underlying EBITDA")."""
    for before, table in pairwise(tables):
        own = [c for c in table.caption if c]
        if len(own) == 1 and own[0].endswith(":") and len(own[0]) < 80:
            table.caption = [*(c for c in before.caption if c and not c.endswith(":")), *own]
    return tables


def _add_sentence(pool: _Pool, span: Span, said: str, heading: str) -> None:
    """A sentence's span, read by all it says (its quote may be trimmed)."""
    stems = stems_of(said)
    pool.spans.append(span)
    pool.names.append(stems)
    pool.stems.append(stems)
    pool.under.append(stems_of(heading))


def _sentences(text: str) -> list[tuple[str, str, str, bool]]:
    """The passage's sentences, each with the heading it stands under and the sentence before
    it under that heading: each heading line apart (a page header, "Capital Allocation" above
    its paragraph is no part of the paragraph's first sentence), and each lead-in that ends in
    a colon also with the short lines it introduces ("our credit ratings were as follows:" with
    "Long-term debt A2 A A"); a lead-in's bulleted items, all of them, flagged as such."""
    blocks: list[tuple[str, list[str]]] = [("", [])]
    bullets: set[str] = set()  # the opening words of each bulleted item
    lines = body(text).splitlines()
    for n, line in enumerate(lines):
        if (item := bullet_item(line)) is not None:
            bullets.add(item[:_ITEM_OPENING])
        # a word left alone on its line, its sentence going on in lowercase below ("Freight" /
        # "revenue increased …"), is no heading: the text layer broke the line
        if heading_shaped(line) and not _word_cut_off(lines, n):
            blocks += [("", [line.strip()]), (line.strip(), [])]
        else:
            blocks[-1][1].append(line)
    triples: list[tuple[str, str, str, bool]] = []
    for heading, block in blocks:
        said = sentences("\n".join(block)) if block else []
        triples += [(s, heading, said[i - 1] if i else "", False) for i, s in enumerate(said)]
    out = [s for s, _, _, _ in triples]
    outer, outer_at = "", 0  # a lead-in whose items are lists of their own
    for i, (sentence, heading, before, _) in enumerate(list(triples)):
        if i - outer_at > _MOST_ITEMS * 3:
            outer = ""  # too far below it to be one of its lists (an item may look a heading)
        if not sentence.rstrip().endswith(":"):
            continue
        if i + 1 < len(out) and out[i + 1].rstrip().endswith(":") and \
                len(out[i + 1]) <= _NESTED_LEAD_IN:
            # "Significant announcements included the following:" over "First Quarter:"
            outer, outer_at = sentence, i
            continue
        # an inner list ("Fourth Quarter 2025: iPhone 17; …") is read under its outer lead-in
        listed = [outer, sentence] if outer and len(sentence) <= _NESTED_LEAD_IN else [sentence]
        bulleted = False  # the lead-in's items are marked: the list runs to its last item
        for k, nxt in enumerate(out[i + 1:i + 1 + _MOST_ITEMS]):
            item = nxt[:_ITEM_OPENING] in bullets or _ends_item(nxt)
            # the item after "…; and" closes the list, however long
            last = not item and len(listed) > 1 and _ends_item(listed[-1]) and \
                not listed[-1].rstrip().endswith(":")
            if k >= _MOST_LINES and not bulleted:
                break
            if bulleted and not (item or last):
                break  # the marked list has ended
            after = out[i + k + 2] if i + k + 2 < len(out) else ""
            if not item and (nxt.rstrip().endswith(":") or (
                    k and heading_shaped(nxt) and len(after) > 80)):
                break  # the next list's lead-in, or a heading over a paragraph below the items
            # an inner list's first item, however long, is its own ("Fourth Quarter 2023:
            # iPhone 15 …; and Apple Watch Series 9 …")
            first = k == 0 and listed[0] == outer != ""
            if not (item or last or first) and len(nxt) > 80 and nxt.rstrip().endswith("."):
                break  # a sentence of its own, not an item of the list
            if not (item or last) and any(a.currency or abs(a.value or 0) >= 100
                                          for a in find_amounts(nxt)):
                break  # a table of figures: read as its rows
            listed.append(nxt)
            bulleted = bulleted or item
            if last or sum(map(len, listed)) > (LISTED_QUOTE if bulleted else 300):
                break
        if len(listed) > 1 + (listed[0] == outer != ""):
            # a lead-in and its bulleted reasons ("The decrease reflected the net impact of:")
            # are read with the sentence before them, as the lead-in alone is
            triples.append((" ".join(listed), heading, before if bulleted else "", bulleted))
    return triples


def _ends_item(text: str) -> bool:
    """A list's item, as a list's items end: with a semicolon ("changes in category sales
    mix;"), or one and the joiner before the last item ("…; and")."""
    words = text.rstrip().split()
    if not words:
        return False
    if words[-1].lower() in _JOINERS and len(words) > 1:
        return words[-2].endswith(";")
    return words[-1].endswith(";")


def heading_shaped(line: str) -> bool:
    """A line shaped as a heading or a page header: a few words, nearly all capitalised, with
    no sentence's ending ("MANAGEMENT'S DISCUSSION AND ANALYSIS", "Liquidity and Capital
    Resources", "Table of Contents")."""
    words = line.split()
    if not 1 <= len(words) <= 12 or line.rstrip()[-1:] in ".!?;:,)":
        return False
    long = [w for w in words if len(w) > 3 and any(c.isalpha() for c in w)]
    capital = [w for w in long if w[0].isupper()]
    return bool(long) and len(capital) >= 0.8 * len(long)


def captions_table(text: str) -> bool:
    """A table's caption, not a statement: a lead-in that ends in a colon, or whose colon is
    followed by nothing but the table's column headers ("… by category (dollars in millions):
    2025 Change 2024 Change 2023"), or a line that gives a table's scale and states no figure
    ("Revenue by product line (in thousands of euros)")."""
    head, colon, tail = text.strip().rpartition(":")
    if colon and head.strip():
        cells = tail.replace("|", " ").split()
        if all(_header_cell(c) for c in cells):
            return True
    return bool(statement_scale([text]).line) and not find_amounts(text)


def _header_cell(word: str) -> bool:
    """One word of a column header row: a year or date, a change column, a unit or a sign."""
    word = word.strip(",;()")
    return not word or word in "%$€£" or column_header_line(word) or _CHANGE_COLUMN.found(
        word) or _HEADER_WORDS.fullmatch(word) or word.lower() in _MONTH_NAMES or (
        word.isdigit() and len(word) <= 2)


def names_a_table(span: Span) -> bool:
    """A sentence that names what follows it (a heading, a table's caption or lead-in): it
    answers nothing and never leads an answer."""
    return span.row is None and (bool(_TITLE.match(span.text)) or captions_table(span.text))


def _states_nothing(text: str, *, listing: bool = False) -> bool:
    """A run of headings (a table of contents, a page header), a table's column heads run into
    a line or an exhibit index's entry: read by its shape, it names other places or columns and
    states no fact. `listing`: a sentence that lists things, whose names may all be capitalised
    ("The Gadget line includes Gadget 9 Max, Gadget Lite, …"), is no run of headings."""
    if _EXHIBIT.search(text):
        return True
    dated = find_periods(text)  # "December 31, 2021 December 31, 2020": a table's column heads
    if any(not text[a[2]:b[1]].strip() for a, b in pairwise(dated)):
        return True
    words = [w for w in text.split() if len(w) > 3 and any(c.isalpha() for c in w)]
    return not listing and len(words) >= 8 and \
        sum(1 for w in words if w[0].isupper()) >= 0.75 * len(words)


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
    group = next((c for c in reversed(caption) if c.endswith(":") and len(c) < 80), "")
    # dated columns of a P&L or a cash-flow statement end its periods
    flows = {StatementKind.INCOME, StatementKind.CASH_FLOW} & primary
    flow = bool(flows) or (not primary and (bool(_FLOW.search(" ".join(
        [*above[-8:], scale.line]))) or not any(column_date(h) for h in table.header)))
    heading = group or (f"{segment}:" if segment else "")
    for row in table.rows:
        if not row.cells:
            if not segment and row.label.strip().endswith(":") and len(row.label) < 80:
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
        pool.spans.append(Span(trim(shown, 320), source, row=row, group=group, scale=scale,
                               currency=currency or (document_currency if per_share else None),
                               # "Ending store count": the count at the year's end
                               flow=(flow and not (counts and balance_side(
                                   row.label, row=True) == "closing")) or per_share,
                               year_end=year_end,
                               caption=" ".join(caption), statements=statements,
                               result=last if last != row.label else "", segment=segment))
        # the table's caption ("net sales by category") names what its rows measure: it counts
        # with a row whose own label answers part of the question ("Services")
        pool.names.append(stems_of(f"{group} {row.label} {' '.join(caption)}"))
        pool.stems.append(stems_of(f"{group} {text} {' '.join(caption)}"))
        pool.under.append(set())


def _by_part(tables: Sequence[Table]) -> list[tuple[Table, str | None]]:
    """The tables, those whose columns name parts (one a year: "2025" over "Americas | Europe |
    … | Total") read as one block a part, its rows across the years, each with its part's name
    ("" for the total's, the company's own); None for a table read as it is."""
    out: list[tuple[Table, str | None]] = []
    blocks: dict[str, Table] = {}
    for table in tables:
        period = _part_columns(table)
        if not period:
            out.append((table, None))
            continue
        for row in table.rows:
            for name, cell in row.cells.items():
                if not cell.strip():
                    continue
                if (block := blocks.get(name)) is None:
                    block = blocks[name] = Table(header=[], caption=[*table.caption[:-1], name])
                    out.append((block, "" if _WHOLE_COLUMN.begins(name) else name.strip()))
                if period not in block.header:
                    block.header.append(period)
                same = next((r for r in block.rows if r.label == row.label), None)
                if same is None:
                    block.rows.append(same := Row(label=row.label, cells={}, line=row.line))
                same.cells[period] = cell
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


def label_periods(row: Row) -> set[str]:
    """The periods a row's label names with its columns' years, where the label is a period
    without its year ("Three Months Ended June 30" in a table of a metric by quarter, its
    columns 2024 and 2023): Q2 2024, Q2 2023. Empty for a line item's label."""
    if parse_period(row.label) is not None or not any(c.isdigit() for c in row.label):
        return set()
    return {p for h in row.cells if (y := column_year(h)) is not None
            and (p := parse_period(f"{row.label}, {y}")) is not None}


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


def rank_spans(frame: QuestionFrame, evidence: Evidence) -> list[Span]:
    """Every sentence and row of the evidence, best answer to the question first (its words
    as the frame read them for ranking: `QuestionFrame.ranking`)."""
    asked = frame.ranking
    terms = [t for t in asked.terms if re.sub(r"'s?$", "", t) not in evidence.scope_words]
    if not terms:
        return []
    when = {t for t in terms if t in asked.when or t in PERIOD_FORMS}
    core = [t for t in terms if t not in when] or terms
    pool = _pool(evidence)
    if not pool.spans:
        return []
    alone = [stems for span, stems in zip(pool.spans, pool.stems, strict=True) if not span.joined]
    n = len(alone)  # a sentence read with the one before it is counted once, as itself
    weight = {}
    for term in terms:
        df = sum(1 for s in alone if term_in(term, s))
        weight[term] = math.log(1 + n / (1 + df)) if df else math.log(1 + n)
    if frame.answer_kind == "list" and (verb := _verb_of(frame.text, core)) is not None:
        weight[verb] /= 2  # "What services does Amazon offer?": "offer" is how it asks
    # "How many stores did Target operate?": the verb is how a count is asked; the things
    # counted are what a span must say
    verb = frame.verb if frame.verb in core and len(core) > 1 else None
    if verb is not None and (frame.counted or frame.spending):
        # "How much cash did it spend on acquisitions?": what it was spent on must be said
        weight[verb] /= 2
    total = sum(weight[t] for t in core)
    said_otherwise = [(own & set(terms), patterns) for own, patterns in asked.said_otherwise]
    # the line items named, where their figures are asked: a figure, an item left out, or the
    # line item compared between periods ("how did total assets compare with a year earlier?")
    items = [(frozenset(_item_words(own)) & set(terms), patterns)
             for own, patterns in _items_asked(frame.text)] \
        if frame.answer_kind == "figure" or frame.excluded or _compares_items(frame) else []
    if verb is not None and items and verb in _HOLDING:
        # "How much cash did it hold at year end?": the verb is how a balance is asked, which
        # its row never says; a sentence that says "held" names no more of what is asked
        total -= weight[verb]
        weight[verb] = 0.0
    # the question asks for a part of the line item ("services net sales") its table states
    part_asked = bool(items) and any(_part_of_item(s, items, core) for s in pool.spans)
    # the question's verb is how it asks ("spend" of "how much did it spend on …"), no topic
    topics = [t for t in terms if names_topic(t) and t != verb]
    years = _asked_years(frame)
    parts = set(frame.parts_of_year)
    exact = {p for p in frame.periods if not re.fullmatch(r"FY\d{4}", p)}
    latest_doc = _latest_documents(evidence)
    now = frame.now and not years  # "currently", "today": the latest document, not an older one
    # a factual question: a conditional or hedged sentence does not answer it (a question that
    # asks about risks, or in the hedge's own words, is answered by them)
    hedged = not (_HEDGED.search(frame.text) or _RISK_ASKED.search(frame.text)
                  or frame.wants_forecast)  # a forecast asked is stated as one
    pairs = _question_pairs(frame.text, core)
    side_asked = balance_side(frame.text, row=True)
    opening_asked = side_asked == "opening"
    item_words = {t for own, _ in items for t in own}
    # the words that name a part of the line item asked ("North America" of operating income),
    # where a row of the passages says them by its label or heading; a question that names
    # none asks for the whole
    labels = [stems_of(f"{s.group} {s.row.label}") if s.row is not None and items else set()
              for s in pool.spans]
    qualifiers = {t for t in core if t not in item_words and any(
        term_in(t, label) for span, label in zip(pool.spans, labels, strict=True)
        if span.row is not None and not totals_row(span.row.label))}
    cause_asked = frame.answer_kind == "reason"
    moved = _changed_items(frame.subjects) if cause_asked else frame.subjects
    # the kind of thing a list question asks for ("models" of "which iPhone models …")
    listing = _thing_asked(frame.text, asked.terms) & set(core) \
        if frame.answer_kind == "list" else frozenset()
    # "acquire" of "which businesses did it acquire": the verb done to a firm, which a sentence
    # names after it ("the acquisition of Halden"), where a firm is asked (not "what accounting
    # does it use": "the use of AWS chips" names no accounting)
    acted = question_verb(frame) if listing and any(
        term_in(t, _FIRM_WORDS) for t in listing) else None
    # the things asked that a filing records at an amount ("charges", "impairments")
    booked = stems_of(" ".join(m.group(0) for m in _RECORDED.finditer(frame.text)))
    recorded = frozenset(t for t in _thing_asked(frame.text, asked.terms) & set(core)
                         if term_in(t, booked))
    # "why did margins compress?": the question's verb of change is how it asks, and any change
    # a span states answers it ("gross margin decreased"), whichever word it takes
    # the statement the question names ("on the balance sheet"): every row of that statement
    # says it, as a sentence says it by its words
    statement_words = [(kind.value, {t for t in terms if term_in(t, stems_of(said))})
                       for kind, said in named_statements(frame.text)]
    asked_statements = _asked_statements(frame)
    # a balance asked of a statement line, the cash flow not asked: that statement's row of
    # the line states its change over the year, never the balance
    # or a balance asked at one end of a period ("the commercial paper balance at the end of
    # fiscal 2025": "Repayments of commercial paper" in the cash flow is no balance)
    balance_asked = (StatementKind.BALANCE in asked_statements or opening_asked or
                     balance_side(frame.text, row=True) == "closing") and \
        StatementKind.CASH_FLOW not in asked_statements
    changes = ({t for w in _WORD.findall(frame.text) if asks_change(w) for t in content_terms(w)}
               | {t for t in core if says_change(t)}) & set(core) \
        if frame.answer_kind in ("reason", "rate") else set()
    ranked: list[Span] = []
    wholes: list[int] = []  # the rows naming the line item asked, where its whole is asked
    # the documents a sentence of which states a line item asked as a whole ("our total unearned
    # revenue … was $25.0 billion"): their balance sheet's row of it under "Current
    # liabilities:" is that portion only
    totalled = {s.source.document_id for s in pool.spans if items and _states_total(s, items)}
    for span, name, stems, under, label_stems in zip(pool.spans, pool.names, pool.stems,
                                                     pool.under, labels, strict=True):
        if span.joined and not cause_asked:
            continue
        if span.listed and frame.answer_kind not in _LISTED_ANSWERS:
            continue  # a whole list answers no question for one figure, date or name
        where = f"{span.group} {span.row.label}" if span.row is not None else span.text
        circular = False
        matched = {t for t in terms if term_in(t, name)}
        counted = False  # a number of the very things "how many" counts
        for own, patterns in said_otherwise:
            if any(p.search(where) for p in patterns):
                matched |= own
        loose: set[str] = set()
        if span.row is not None and not statement_row(span.row):
            matched |= {t for t in terms if term_in(t, stems)}  # a record: every cell speaks
        elif span.row is not None:
            matched |= {t for kind, said in statement_words if kind in span.statements
                        for t in said}
            label = stems_of(span.row.label)
            if not label_periods(span.row) and not any(term_in(t, label) for t in core) and not any(
                    p.search(span.row.label) for _, ps in said_otherwise for p in ps):
                loose, matched = matched, set()  # only its heading speaks to the question
                if side_asked is not None and balance_side(span.row.label, row=True) == side_asked:
                    # "Balance at end of period" of a roll-forward headed by the thing asked at
                    # that end ("Reconciliation of Gross Unrecognized Tax Benefits"): its balance
                    matched = {t for t in terms if term_in(t, stems)}
            # a row's other cells (its headers) count for half
            loose |= {t for t in terms if term_in(t, stems)} - matched
            if any("change" in h.lower() or h.strip().endswith("%") for h in span.row.cells):
                # its change column says it: "grow", and "compare" of "how did … compare with"
                matched |= {t for t in terms if says_change(t) or _CHANGE_ASKED.fullmatch(t)}
        else:
            own = _named_by_document(span, core) if matched else set()
            circular = cause_asked and _cause_is_asked(
                span.text, [t for t in core if t not in when], _named_by_document(span, core))
            if frame.answer_kind in ("figure", "rate", "reason") and (
                    cause := cause_after(span.text)):
                # "Operating expenses increased 21% driven by investments in Azure" states no
                # figure of Azure, nor why Azure grew: words after the cause count for half
                head = stems_of(span.text[:cause.start()])
                loose = {t for t in matched if not term_in(t, head)} - own
                matched -= loose
            if changes and states_change(span.text):
                matched |= changes
                loose -= changes
            if counted := bool(frame.counted) and states_count(span.text, frame.counted):
                matched |= counted_terms(core, frame.counted)  # "23,400 associates" employed
            if recorded and _states_recorded(span.text):
                # "What charges did it record?": "we recorded $2.4 billion of expense related
                # to …" states the charges, in the words a filing books them
                matched |= recorded
            if listing and span.whole and span.text[:1].isupper() and (
                    matched & set(core)) - listing - when:
                # "Which iPhone models …?": "The iPhone line includes iPhone 17 Pro, …" lists
                # models without the word, as a count of associates says no "employees"
                matched |= listing
            elif listing and acted is not None and acted in matched and named_after(
                    span.text, acted, {w.lower() for w in letter_words(span.source.document)}):
                # "Which businesses did it acquire?": "we completed the acquisition of the
                # remaining interest in Cornershop" names one, though no "business" is said
                matched |= listing
            matched |= own  # the company's own filing speaks of it without naming it
            # the heading it stands under ("Capital Allocation") speaks of it for half
            loose |= {t for t in terms if term_in(t, under)} - matched
        if verb is not None and span.row is not None and (
                (own := label_line_item(span.row.label)) is not None
                and not _same_metric(own, frame.subjects)):
            # "operate" of "How many stores did Target operate?" is no word of "Operating income"
            matched.discard(verb)
            loose.discard(verb)
        aside = bool(items) and _names_aside(span, items, terms)
        part = bool(items) and not aside and _part_of_item(span, items, core)
        # a line item asked placed in another asked ("share-based payments" added back to reach
        # underlying EBITDA), or any row a question says its metric leaves out ("what charge
        # did they exclude from adjusted EBITDA?"): the row's place says how they relate
        placed = part and ((len(items) > 1 and _names_item(span, items)) or frame.excluded)
        if items and _states_figure(span):
            named = not aside and (part or counted or _names_item(span, items)
                                   or _of_subject(span, frame))
            if named:
                matched |= {t for own, _ in items for t in own}
                if placed:
                    # a line item asked, placed in another asked ("added back to reach
                    # adjusted EBITDA"): the row's place says how the question relates them
                    loose |= set(core) - matched
            else:  # "Share-based compensation" shares a word with "share repurchases" only
                matched -= {t for own, _ in items for t in own}
                loose -= {t for own, _ in items for t in own}
        else:
            named = False
        loose -= matched  # a word said in full is not said again for half
        covered = sum(weight[t] for t in matched if t in core) + 0.5 * sum(
            weight[t] for t in loose if t in core)
        if not covered:
            continue
        words = min(1.0, covered / total)
        if topics and not any(t in matched or t in loose for t in topics):
            words *= OFF_TOPIC  # about insurance only if it speaks of insurance
        score = WORDS * words
        extra: list[str] = []
        if span.row is not None:
            extra = [w for w in _WORD.findall(f"{span.group} {span.row.label}")
                     if len(w) > 3 and not any(term_in(t, stems_of(w)) for t in terms)]
            score -= EXTRA_WORD * min(len(extra), 5)
        elif names_a_table(span):
            score -= 0.2 + words / 2  # a heading or caption names what follows it
        elif _states_nothing(span.text, listing=bool(span.whole) and span.text[:1].isupper()):
            score -= NO_STATEMENT * words
        else:
            if hedged and _HEDGED.search(span.text):
                score -= HEDGED
            if span.text[:1].islower():
                score -= FRAGMENT  # a passage cut mid-sentence ("ity method investments …")
        if not frame.subjects:  # a metric asked is answered by its row or figure
            score += PHRASE * _phrase_share(pairs, where)  # a row: by its label
        score += _period_fit(span, years, evidence, latest_doc, parts, exact, now=now)
        if cause_asked and years and span.row is None and (
                said_years := {int(y) for y in YEAR.findall(span.text)}) and not said_years & years:
            score -= PERIOD_MISS  # why it moved in 2025 against 2024, where 2023's move is asked
        if span.row is None and frame.subjects and not frame.derived and \
                frame.answer_kind in ("figure", "rate") and (
                head := _sentence_subject(span.text)) is not None:
            if not _same_metric(head[0], frame.subjects):
                score -= SUBJECT_MISS  # "Cost of revenue increased $3.2 billion": no revenue
            else:  # "AWS sales increased 20%" beside "Sales increased 12%": a part's, by a word
                said = [t for t in content_terms(span.text[:head[1]]) if t not in terms
                        and t not in PERIOD_FORMS and not t.isdigit()
                        and t not in evidence.scope_words]
                score -= EXTRA_WORD * min(len(said), 3)
        if circular:
            # "Segment gross margin decreased primarily due to the automotive gross margin
            # decrease discussed above" gives, as its cause, the very change asked: it points
            # to where the cause is stated, and that sentence answers
            score -= SUBJECT_MISS
        if span.row is None and cause_asked and frame.subjects and not frame.derived and \
                not _speaks_of(span.text, moved):
            # "What drove the decline in comparable sales?": a cause stated of the SG&A rate, or
            # of a sentence that names no line item asked, is not why comparable sales fell
            score -= SUBJECT_MISS
        elif span.row is None and cause_asked and frame.subjects and not frame.derived and (
                head := _sentence_subject(span.text)) is not None and not _same_metric(
                    head[0], moved):
            # "What drove services revenue growth?": "Services gross margin increased due to
            # higher services net sales" explains the margin, whose cause names the revenue
            score -= SUBJECT_MISS
        if span.row is not None and frame.subjects:
            own = label_line_item(span.row.label)  # a metric or a statement line
            if (own is not None and not _same_metric(own, frame.subjects)) or (
                    own is None and _names_inside(span.row.label, frame.subjects)):
                score -= SUBJECT_MISS  # "Cost of sales" is not sales, "Unearned revenue" none
        fit = _kind_fit(span, frame)
        score += fit
        if (fit <= 0 and frame.answer_kind in _STATED_KINDS) or (
                fit < 0 and frame.answer_kind == "list"):
            # it echoes the question and states nothing of the kind asked (a line item's row of
            # figures where the things it is made of are asked: "what products are in wearables?")
            score -= ECHO * words
        if frame.remaining and frame.answer_kind == "figure" and span.row is None and \
                _REMAINDER.search(span.text):
            score += KIND_FIT  # "… may yet be purchased under the program is $8.3 billion"
        if frame.capacity and span.row is None and any(
                a.currency for a in find_amounts(span.text)):
            # the programme's size asked: "authorized a program to repurchase up to $10.0
            # billion" answers, "we have $6.1 billion remaining under the program" does not
            if _LIMIT.search(span.text):
                score += KIND_FIT
            elif _REMAINDER.search(span.text):
                score -= KIND_FIT
        if frame.said_as and not any(term_in(t, stems) for t in frame.said_as):
            # "each quarter" asked: a span that never says quarterly (a fiscal year's row of
            # dividends per share) states another period's figure
            score -= PERIOD_MISS
        if span.row is None and states_forecast(span.text):
            if frame.wants_forecast:
                score += FORECAST_FIT  # "net sales are expected to be between …" for guidance
            elif frame.answer_kind in ("figure", "rate") or frame.wants_actual:
                score -= FORECAST_FIT  # a forecast is no actual: "we expect capex of $5 billion"
        if named and (part or not part_asked):  # the part asked, not the item's total
            # a figure of the very line item asked, in any of its wordings: the statement's own
            # row first, where a sentence may state a variant of it
            score += ITEM_FIT if span.row is not None and statement_row(span.row) \
                else ITEM_FIT / 2
        if _states_figure(span):
            side = balance_side(where, row=span.row is not None)
            if side == ("closing" if opening_asked else "opening"):
                score -= SIDE_MISS  # the balance at the other end of the period
            elif side is None and balance_asked and (_a_change_row(span) or (
                    span.row is not None and a_movement(span.row.label))):
                # "Inventories (3,002)" in the cash flow: its change; "Repayments of
                # commercial paper": a movement of the balance, not the balance
                score -= SIDE_MISS
        # a row names the line item asked: by the vocabulary's wordings, or (an item it does not
        # know) by half the question's words ("Total liabilities"; not "Total operating
        # expenses" for the interest expense's sensitivity to rates)
        names_asked = named or (not items and words >= 0.5)
        if names_asked and span.row is not None and \
                statement_row(span.row) and asked_statements & set(span.statements) and \
                StatementKind.SEGMENT not in span.statements:
            score += STATEMENT_FIT  # the row of the statement asked, not a note's or MD&A's
        if named and not (part_asked or qualifiers) and _a_part_row(span, items):
            score -= PART_MISS  # "AWS" under "Net sales" where the company's net sales are asked
        elif named and span.row is not None and not part and a_portion(span.row.label) and not (
                frame.portion or any(term_in(t, label_stems) for t in qualifiers)):
            score -= PORTION_MISS  # the non-current part where the debt outstanding is asked
        elif named and span.row is not None and not part and \
                span.source.document_id in totalled and _PORTION_SECTION.begins(span.group) and \
                not (frame.portion or any(term_in(t, label_stems) for t in qualifiers)):
            score -= PORTION_MISS  # the current part, where a note states the whole
        if named and span.row is not None and totals_row(span.row.label):
            if not (part_asked or qualifiers):
                # the whole asked: its total row, unless it totals more than is asked ("Total
                # cash, cash equivalents and restricted cash" for the cash)
                more = [w for w in extra if w in span.row.label and not totals_row(w)]
                score += 0.0 if more else TOTAL_FIT
            elif not any(term_in(t, label_stems) for t in qualifiers):
                score -= TOTAL_MISS  # "Total net sales" where the iPhone's are asked
        if span.row is not None and frame.answer_kind in ("figure", "rate") and _nil_row(span):
            score -= NIL_ROW
        score += MEANING * evidence.meaning.get(span.text, 0.0)
        if when:
            score += 0.05 * len(when & {t for t in terms if term_in(t, stems)}) / len(when)
        score += min(len(span.text), 200) / 4000  # a full sentence over a fragment
        said = frozenset(t for t in qualifiers if term_in(t, label_stems)) if named else frozenset()
        ranked.append(_with(span, words=round(words, 4), score=round(score, 4), parts=said,
                            placed=placed, aside=aside))
        if named and span.row is not None and statement_row(span.row) and not (
                part_asked or qualifiers) and not adds_another_thing(span.row.label):
            wholes.append(len(ranked) - 1)  # not "… and restricted cash": more than asked
    ranked = _largest_is_the_whole(ranked, wholes)
    ranked = _siblings_tell_apart(ranked, core)
    ranked = _whole_over_its_portion(ranked, frame)
    ranked.sort(key=lambda s: -s.score)
    return ranked


def _items_asked(question: str) -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    """The line items the question names (`named_items`), but cash named as what was spent
    ("how much cash did it spend on acquisitions?"): the outflow is asked, not the balance, and
    a sentence of cash paid for something else ("we paid cash tax of $4.8 billion") is none."""
    means = {m.start() for m in _SPENT_AS_MEANS.finditer(question)}
    lowered = question.lower()
    return tuple((own, patterns) for own, patterns in named_items(question)
                 if lowered.find(own.lower()) not in means)


def _item_words(own: str) -> list[str]:
    """The question's words that name a line item asked, as it wrote it; a question form that
    names it by its verb ("how much did Amazon's segments sell") by the verb alone: the words
    between ("North America", "International") are the parts it asks of."""
    if _AUXILIARY.found(own) and own.split():
        return content_terms(own.split()[-1])
    return content_terms(own)


def _a_change_row(span: Span) -> bool:
    """A row of the cash-flow statement only: a balance-sheet line's row there is its change."""
    return span.row is not None and StatementKind.CASH_FLOW in span.statements and \
        StatementKind.BALANCE not in span.statements


def _compares_items(frame: QuestionFrame) -> bool:
    """The question compares line items it names between periods: their figures are asked."""
    return frame.intent is Intent.COMPARISON and bool(frame.subjects)


def _nil_row(span: Span) -> bool:
    """Every figure of the row is nil: zeros or dashes."""
    figures = span.figures()
    return bool(figures) and all(f.none or not f.value for f in figures)


def _named_by_document(span: Span, core: Sequence[str]) -> set[str]:
    """The question's words that name the span's document's company ("Amazon" in
    "Amazon_10-K_FY2025.pdf"): said by every sentence of that document."""
    names = _stems_of_word(" ".join(letter_words(span.source.document)))
    return {t for t in core if t.isalpha() and term_in(t, names)}


@lru_cache(maxsize=1 << 16)
def _stems_of_word(word: str) -> set[str]:
    """A word's stems, once per word (a span's words are read side by side for each pair)."""
    return stems_of(word)  # never changed by its readers


def _question_pairs(question: str, core: Sequence[str]) -> list[tuple[str, str]]:
    """The question's terms that stand side by side in it: "credit ratings", "team members"."""
    found = [next((t for t in core if term_in(t, stems_of(w))), None)
             for w in _WORD.findall(question)]
    return [(a, b) for a, b in pairwise(found) if a and b and a != b]


def _phrase_share(pairs: list[tuple[str, str]], text: str) -> float:
    """The share of the question's side-by-side terms a span says side by side too."""
    if not pairs:
        return 0.0
    stems = [_stems_of_word(w.lower()) for w in _WORD.findall(text)]
    said = sum(1 for a, b in pairs if any(
        term_in(a, x) and term_in(b, y) for x, y in pairwise(stems)))
    return said / len(pairs)


def _with(span: Span, **changes: float) -> Span:
    from dataclasses import replace

    return replace(span, **changes)  # type: ignore[arg-type]


def _names_inside(label: str, asked: tuple[str, ...]) -> bool:
    """The label names a line item asked only inside a longer label whose head is another
    thing ("Net operating loss carryforwards" for the operating loss, "Cash paid for
    interest")."""
    return any(_same_metric(s, asked) for s, _, _ in find_line_items(label))


def _cause_is_asked(text: str, core: Sequence[str], own: set[str]) -> bool:
    """The cause a sentence gives is the change asked itself ("… primarily due to the automotive
    gross margin decrease discussed above", asked why the automotive gross margin declined):
    every word the question asks of, its change too, stands after the causal connective (the
    company's name aside, `own`: its filing speaks of it without naming it)."""
    cause = cause_after(text)
    asked = [t for t in core if t not in own]
    if cause is None or len(asked) < 2:
        return False
    said = stems_of(text[cause.end():])
    return all(term_in(t, said) for t in asked) and states_change(text[cause.end():])


def _changed_items(asked: tuple[str, ...]) -> tuple[str, ...]:
    """The line items asked, and the item whose change a rate asked is ("revenue growth" is the
    revenue's move: "net sales increased due to …" says why it grew); a measure of its own of
    the same family ("comparable sales") is not the item's change."""
    out = list(asked)
    for subject in asked:
        spec = metric_spec(subject)
        if spec is not None and spec.group != subject and spec.group not in out and any(
                says_change(t) for t in content_terms(subject)):
            out.append(spec.group)
    return tuple(out)


def _speaks_of(text: str, asked: tuple[str, ...]) -> bool:
    """The sentence names a line item asked, or a variant of one ("adjusted EBITDA" where
    EBITDA is asked); not only the family it belongs to ("net sales" where comparable sales
    are asked)."""
    for own, _, _ in find_line_items(text):
        spec = metric_spec(own)
        if own in asked or (spec is not None and spec.group in asked):
            return True
    return False


_SUBJECT_REACH = 40  # how far into a sentence the line item it speaks of starts
_SUBJECT_WORDS = 3  # the words before it at most ("In fiscal 2025,", "The Company's")


def _sentence_subject(text: str) -> tuple[str, int] | None:
    """The line item a sentence speaks of, and where it starts: the first it names, as its
    subject, within its first few words ("Cost of revenue increased …", "In fiscal 2025,
    operating income rose …"; not "leverage" of "Our strategy continues to leverage stores")."""
    named = sorted(find_line_items(text[:_SUBJECT_REACH + 40]), key=lambda found: found[1])
    if not named or named[0][1] >= _SUBJECT_REACH or \
            len(text[:named[0][1]].split()) > _SUBJECT_WORDS:
        return None
    return named[0][0], named[0][1]


def _same_metric(subject: str, asked: tuple[str, ...]) -> bool:
    """The row's metric is one asked, or of its family ("adjusted EBITDA" for EBITDA)."""
    spec = metric_spec(subject)
    groups = {spec.group if spec else subject}
    wanted = {(m.group if (m := metric_spec(a)) else a) for a in asked}
    return subject in asked or bool(groups & wanted)


def _asked_years(frame: QuestionFrame) -> set[int]:
    years = {y for p in frame.periods if (y := year_of(p)) is not None}
    return years


def _latest_documents(evidence: Evidence) -> set[str]:
    """The newest document of the company asked about (the question's scope, else the room), by
    its own date (the period it reports): where a question that names no period is answered.
    Another company's filing is never the newest of this one's."""
    dated = [(d.doc_date, d.id) for d in evidence.documents.values()
             if d.doc_date and (evidence.scope is None or d.id in evidence.scope)]
    if not dated:
        return set()
    newest = max(d for d, _ in dated)
    return {i for d, i in dated if d == newest}


def _period_fit(span: Span, years: set[int], evidence: Evidence, latest: set[str],
                asked_parts: set[str], exact: set[str] = frozenset(),  # type: ignore[assignment]
                *, now: bool = False) -> float:
    doc = evidence.documents.get(span.source.document_id)
    doc_year = doc.doc_date.year if doc is not None and doc.doc_date else None
    if not years:
        if span.source.document_id in latest:
            return OWN_YEAR + (PERIOD_FIT if now else 0.0)
        # "currently": an older filing of the company states how things stood then
        return -PERIOD_MISS if now and doc is not None and doc.doc_date else 0.0
    fit = 0.0
    if doc_year is not None and max(years) > doc_year + 1:
        fit -= OLD_DOCUMENT  # a filing of 2023 cannot state 2025
    if span.row is not None:
        stated = {fy for h in span.row.cells if (fy := _column_fiscal_year(h)) is not None}
        if stated and not stated & years:
            fit -= PERIOD_MISS
        elif stated & years:
            fit += PERIOD_FIT
        if exact and any(parse_period(h) in exact for h in span.row.cells):
            fit += PERIOD_FIT  # a column of the very period asked: "Mar-25" for March 2025
        parts = label_periods(span.row)
        if asked_parts and parts:  # "Three Months Ended June 30" under "2024": Q2 2024
            fit += PERIOD_FIT if parts & asked_parts else -PERIOD_MISS
    else:
        said = {int(m) for m in YEAR.findall(span.text)} or set(span.dated_by)
        # a quarter named without its year ("in the fourth quarter") is of the year the sentence
        # states, else of its document's
        own = said or ({fiscal_year_of(doc.doc_date)} if doc is not None and doc.doc_date
                       else set())
        parts = quarters_in(span.text, own)
        if asked_parts and parts and not parts & asked_parts:
            fit -= PERIOD_MISS  # "Q2 2024 revenue was …" for Q3 2024
        elif len(asked_parts) > 1 and parts - asked_parts:
            # Q4 2021 against Q4 2020 asked: "increasing compared to the three months ended
            # September 30, 2021" compares with another quarter than asked
            fit -= PERIOD_MISS
        elif said & years and (not asked_parts or parts & asked_parts):
            # a quarter asked: a sentence dated by its year ("For the year ended December 31,
            # 2025, we recorded …, of which … in the fourth quarter") states the year's first
            year_first = bool(asked_parts) and any(
                p.startswith("FY") for p, _, _ in find_periods(span.text))
            fit += PERIOD_FIT / 2 if year_first else PERIOD_FIT
        elif asked_parts & parts:
            fit += PERIOD_FIT  # the quarter asked, named without its year in that year's filing
        if exact and any(_month_of(day) in exact for day, _, _ in find_dates(span.text)):
            fit += PERIOD_FIT  # dated in the very month asked: "as of February 22, 2022"
        months = _months({p for p, _, _ in find_periods(span.text)})
        if months and _months(exact):
            # a month asked ("in October 2025"): a sentence of that month states it, one dated
            # in other months only ("In March 2025, we entered into …") another event
            fit += PERIOD_FIT if months & exact else -PERIOD_MISS
    if doc_year is not None and doc is not None and doc.doc_date is not None and any(
            fiscal_year_of(doc.doc_date) == y or doc.doc_date.year == y for y in years):
        fit += OWN_YEAR  # one company's filings told apart by the year each reports
    return fit


def _months(periods: set[str]) -> set[str]:
    """The months among periods, as a month period is written ("Oct 2025")."""
    return {p for p in periods if len(p) == 8 and p[:3] in calendar.month_abbr[1:]
            and p[3] == " " and p[4:].isdigit()}


def _month_of(day: date) -> str:
    """A date's month as a period is written ("Feb 2022")."""
    return f"{calendar.month_abbr[day.month]} {day.year}"


def _column_fiscal_year(header: str) -> int | None:
    day = column_date(header)
    if day is not None:
        return fiscal_year_of(day)
    return column_year(header)


def _kind_fit(span: Span, frame: QuestionFrame) -> float:
    kind = frame.answer_kind
    text = span.text
    if span.scale is not None and span.scale.shares_of_whole and not _asks_share(frame):
        return -KIND_MISS  # a line's percentage of revenue, for its amount or its growth
    if kind == "reason":
        if span.row is not None:
            return -KIND_MISS
        return KIND_FIT if states_reason(text) else 0.0
    if kind == "means":  # the actions taken, by their means, not a risk factor's condition
        return KIND_FIT if span.row is None and states_means(text) else 0.0
    if kind in (None, "list") and _RECORDED.found(frame.text) and span.row is None:
        # "what charges did it record in Q4?": a thing recorded at an amount, the sentence that
        # states the amount (of the quarter asked, not another quarter's charge)
        if not any(a.currency for a in find_amounts(text)):
            return -KIND_MISS
        return 0.0 if _another_part(text, frame) else KIND_FIT
    if kind == "rate":
        if span.row is not None and _PERCENT.search(text):
            return KIND_FIT + ROW_FIGURE  # a line item's row with its change column
        return KIND_FIT if _PERCENT.search(text) else -KIND_MISS
    if kind == "figure" and frame.counted:  # "how many team members": a number of them
        if span.row is not None:  # a row of the things counted, its figures no money or rate
            counts = [f for f in span.figures() if not f.none and f.unit in (None, "shares")]
            money = statement_scale([span.row.label]).currency  # "Employee costs (£m)"
            # "Common stock ($0.01 par value; … shares outstanding)": an aside names no count;
            # a row of a table of counts ("Opened" under "Change in Number of Stores") counts
            # the things its caption names
            named = names_counted(f"{span.group} {without_asides(span.row.label)}",
                                  frame.counted) or (
                bool(_COUNT_ROW.search(span.caption)) and not find_line_items(span.row.label)
                and names_counted(span.caption, frame.counted[-1:]))
            return KIND_FIT + ROW_FIGURE if counts and not money and named else -KIND_MISS
        return KIND_FIT if states_count(text, frame.counted) else -KIND_MISS
    if kind == "figure" and frame.effect and span.row is not None and statement_row(span.row):
        return 0.0  # a line item's levels by year state no cause's effect on it
    if kind == "figure":
        if span.row is not None and any(not f.none for f in span.figures()):
            if _asks_amount(frame) and not _asks_share(frame) and all(
                    f.unit == "%" for f in span.figures() if not f.none):
                return -KIND_MISS  # the sales mix in percent for "what were the sales"
            if _PER_SHARE_ASKED.search(frame.text) and not _per_share_row(span):
                return -KIND_MISS  # the shares or the income an EPS divides, not the EPS
            return KIND_FIT + ROW_FIGURE  # a line item's own row states the figure
        if stated_amounts(text) and _asks_balance(frame) and a_movement(text):
            return -KIND_MISS  # "proceeds from long-term debt of $5.1 billion" for the debt
        # "approximately thirty percent of our sales" states a share in words
        amounts = stated_amounts(text)  # a footnote's "(2)" is no figure
        money = [a for a in amounts if a.currency]
        if money and all(_CHANGED_BY.ends(text[:a.start]) for a in money) and not any(
                says_change(t) for t in frame.ranking.terms):
            # "exchange rates increased fulfillment costs by $609 million": a change by an
            # amount, where the level is asked
            return -KIND_MISS
        if not amounts and not _PERCENT.search(text):
            return -KIND_MISS
        if amounts and _asks_amount(frame) and all(a.unit == "%" for a in amounts):
            return -KIND_MISS  # "AWS sales increased 20%" for "how much revenue": its growth
        if frame.ranking.wants_amount and not _asks_rate(frame) and all(
                a.unit == "%" for a in amounts):
            # "how much tax is still owed?": "8% due in each of the first five years" states
            # a rate of it, where a sentence may state the amount
            return KIND_FIT / 2
        return KIND_FIT
    if kind == "person":
        return KIND_FIT / 2 if _NAME.search(text) else 0.0
    if kind == "date":
        if not YEAR.search(text):
            return 0.0
        # "When do the notes mature?": "The notes mature on May 15, 2027" dates the very event
        # asked, where "On or after February 15, 2027, the notes will be convertible …" another
        verb = _verb_of(frame.text, frame.ranking.terms)
        return KIND_FIT if _dated_by_verb(text, verb) else KIND_FIT / 2
    if kind == "place":
        return KIND_FIT / 2 if states_place(text) else 0.0
    if kind == "list" and span.row is None:
        # "The iPhone line includes iPhone 17 Pro, iPhone Air, …": the things listed (a run of
        # amounts "as follows" is a table's figures, not things)
        money = sum(1 for a in find_amounts(text) if a.currency is not None)
        if frame.ranking.wants_amount and not frame.counted:
            # "What premium did it pay?", "what charges did it record?": a thing known by its
            # amount, which a sentence states of that very thing ("for a premium of $271.5
            # million", not "the total impact … was $64.7 million"); a list with none is no answer
            thing = _thing_asked(frame.text, frame.ranking.terms)
            said = not thing or any(term_in(t, stems_of(text)) for t in thing)
            return KIND_FIT if money and said else 0.0
        return KIND_FIT if lists_things(text) and money < 2 else 0.0
    if kind == "list" and statement_row(span.row):
        return -KIND_MISS  # a line item's figures do not list what it is made of
    return 0.0


_RECORDED_WITHIN = 20  # how far after "recorded" its amount starts ("approximately $2.4 …")


def _states_recorded(text: str) -> bool:
    """The sentence states an amount recorded: a recording verb with an amount of money right
    after it ("we recorded approximately $2.4 billion of expense"; not "the amount recorded on
    the balance sheet for preferred stock was …")."""
    amounts = [a.start for a in find_amounts(text) if a.currency]
    return any(0 <= start - m.end() <= _RECORDED_WITHIN for m in _RECORDING.finditer(text)
               for start in amounts)


_DATED_WITHIN = 4  # how many words after the question's verb its date may stand


def _dated_by_verb(text: str, verb: str | None) -> bool:
    """The sentence says the question's verb and a year within a few words after it ("mature
    on May 15, 2027", "closed in March 2026")."""
    if verb is None:
        return False
    words = text.split()
    return any(term_in(verb, _stems_of_word(w.lower().strip(",.;:"))) and any(
        YEAR.search(after) for after in words[i + 1:i + 1 + _DATED_WITHIN])
        for i, w in enumerate(words))


def _another_part(text: str, frame: QuestionFrame) -> bool:
    """The text names a quarter or half, and not the one the question asks for."""
    asked = set(frame.parts_of_year)
    said = quarters_in(text, {int(y) for y in YEAR.findall(text)})
    return bool(asked and said and not said & asked)


def lists_things(text: str) -> bool:
    """After a word that lists ("includes", "such as"), three things or more ("A, B, C" or
    "A, B and C", named in words: "2025, 2024 and 2023" lists years), or whatever follows its
    colon ("as follows: …", a table or lines)."""
    cue = _ENUMERATION.search(text)
    if cue is None:
        return False
    listed = text[cue.end():]
    if listed.lstrip().startswith(":") and listed.strip(" :"):
        return True
    bare = without_asides(listed)  # "(dollars in millions)" names none
    if _PERCENT.search(bare):
        return False  # a table's caption and figures run into the line: "… and 2023 2022 13%"
    parts = bare.split(",")
    named = [p for p in parts if any(w.lower() not in _JOINERS for w in letter_words(p))]
    if len(named) < 2:
        return False
    return len(parts) >= 3 or any(w.lower() in _JOINERS for w in letter_words(parts[-1]))


def _names_item(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]]
                ) -> bool:
    """The span names a line item asked, in any of its wordings: a sentence anywhere in it, a
    row by its own label, or by its heading when the heading is that line item ("Net sales:")
    and the label is a short part of it that names no line item of its own ("iPhone")."""
    patterns = [p for _, ps in items for p in ps]
    if span.row is None:
        return any(p.search(span.text) for p in patterns)
    if any(p.search(span.row.label) for p in patterns):
        return not a_movement(span.row.label)  # "Repayments of long-term debt" is no debt
    heading = span.group.strip().rstrip(":").strip()
    if heading and label_periods(span.row):  # a metric's table by period: its caption names it
        return any(p.search(heading) for p in patterns)
    return bool(heading) and len(span.row.label.split()) <= 3 and any(
        p.fullmatch(heading) for p in patterns) and not (
        find_line_items(span.row.label) or named_groups(span.row.label))


def _of_subject(span: Span, frame: QuestionFrame) -> bool:
    """A row whose label is the line item asked in another of the deal vocabulary's wordings
    ("Net cash applied to operating activities" for the operating cash flow)."""
    if span.row is None or not frame.subjects or a_movement(span.row.label):
        return False
    return label_line_item(span.row.label) in frame.subjects


def _names_aside(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]],
                 terms: Sequence[str]) -> bool:
    """A row whose label names a line item asked only in the complement of a head of its own,
    a head the question does not ask: "Payroll tax expense related to stock-based compensation"
    or "Tax benefit from stock-based compensation" where the stock-based compensation is asked
    states a figure of another thing. Asked by most of its head's words too ("the payroll tax
    on stock-based compensation"), the row is the one asked."""
    if span.row is None:
        return False
    label = span.row.label
    spots = [m for _, ps in items for p in ps for m in p.finditer(label)]
    if not spots:
        return False
    for m in spots:
        head = head_before(label, m.start(), m.end())
        if head is None:
            return False  # named in its own head
        own = content_terms(head)
        if 2 * sum(t in terms for t in own) >= len(own):
            return False  # the head is asked too, by most of its words
    return True


def _part_of_item(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]],
                  core: list[str]) -> bool:
    """A statement row of the part asked ("Services" for "services net sales"): its own label
    says the question's other words and names no line item of its own, its heading, its table's
    caption ("net sales by category") or its table's last row (what a reconciliation adds up
    to) names the line item. A row that is itself a line item asked is the part where its table
    is of another line item asked ("share-based payments" added back in the "reconciliation of
    operating profit to underlying EBITDA"): the question names the whole to place the part."""
    if span.row is None or not statement_row(span.row):
        return False
    own = {i for i, (_, ps) in enumerate(items) if any(p.search(span.row.label) for p in ps)}
    if own:
        return any(i not in own and _table_of(span, ps) for i, (_, ps) in enumerate(items))
    if find_line_items(span.row.label) or named_groups(span.row.label):
        return False
    wholes = [i for i, (_, ps) in enumerate(items) if _table_of(span, ps)]
    if not wholes or len(wholes) < len(items):
        # the table is of no line item asked, or the question names the part itself beside the
        # whole ("stock-based compensation" excluded from adjusted EBITDA): a row that names
        # neither is another part ("Interest expense")
        return False
    item_words = {t for own, _ in items for t in own}
    label = stems_of(span.row.label)
    # "total" of "total shareholders' equity" says the whole, no part of it
    return any(term_in(t, label) for t in core if t not in item_words and not totals_row(t))


def _a_part_row(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]]
                ) -> bool:
    """A statement row named as a line item asked by its heading only ("Net sales:"), its own
    label naming a part of it ("AWS", "North America"), or a row of a segment's block
    ("Operating income" under "AWS"); not a period of a metric's table."""
    if span.row is None or not statement_row(span.row) or label_periods(span.row):
        return False
    if span.segment:  # a row of a segment's block ("Operating income" under "AWS")
        return True
    if totals_row(span.row.label):
        return False
    return not any(p.search(span.row.label) for _, ps in items for p in ps)


def _table_of(span: Span, patterns: Sequence[re.Pattern[str]]) -> bool:
    """The row's heading, its table's caption or its table's last row names the line item."""
    return any(p.search(f"{span.group} {span.caption}") for p in patterns) or bool(
        span.result and not a_movement(span.result)
        and any(p.search(span.result) for p in patterns))


def _states_figure(span: Span) -> bool:
    """A row with a figure in it, or a sentence that states an amount."""
    if span.row is not None:
        return any(not f.none for f in span.figures())
    return bool(stated_amounts(span.text))


def _states_total(span: Span,
                  items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]]) -> bool:
    """A sentence that states a line item asked as a whole, by the word before its name, and
    its amount after it ("our total unearned revenue as of December 31, 2025 was $25.0
    billion")."""
    if span.row is not None or not _states_figure(span):
        return False
    money = [a.start for a in stated_amounts(span.text) if a.currency]
    # the total's own amount follows its name ("10% or more of total trade receivables" is none)
    return any(_STATED_TOTAL.ends(span.text[:m.start()]) and any(at > m.end() for at in money)
               for _, patterns in items for p in patterns for m in p.finditer(span.text))


def _verb_of(question: str, core: Sequence[str]) -> str | None:
    """The question's own verb: its last word, where an auxiliary ("does", "did") stands
    before it ("What services does Amazon offer?")."""
    aux = _AUXILIARY.search(question)
    last = _WORD.findall(question[aux.end():]) if aux is not None else []
    if len(last) < 2:
        return None
    return next((t for t in core if term_in(t, stems_of(last[-1]))), None)


_LIST_OPENING = vocabulary().cues("answer_list_opening")  # "what", "which"
# the words that end the name of what a question asks for: "does", "are", "in"
_SMALL_WORDS = vocabulary().words("question_words") | vocabulary().words("stop_words")


@lru_cache(maxsize=256)
def _thing_asked(question: str, terms: tuple[str, ...]) -> frozenset[str]:
    """The term naming what a "what …" or "which …" question asks for, the head of the words
    after its opening word, up to its verb or next small word: "premium" of "What premium did
    Lyft pay …?", "models" of "Which iPhone models does Apple sell?", "products" of "What
    products are in …?"."""
    opening = _LIST_OPENING.starts(question)
    if opening is None:
        return frozenset()
    start = len(question) - len(question.lstrip()) + opening.end()
    head: list[str] = []
    for word in _WORD.findall(question[start:]):
        if word.lower() in _SMALL_WORDS:
            break
        head.append(word)
    if not head:
        return frozenset()
    return frozenset(t for t in terms if term_in(t, _stems_of_word(head[-1].lower())))


_NAME_INSIDE = vocabulary().words("list_joiners") | {"of", "&"}  # "Bank of Leith"
_DETERMINERS = vocabulary().words("determiners")  # "the" of "The Drizly Group"
_FIRM_WORDS = stems_of(" ".join(vocabulary().words("subject_nouns")))  # "company", "business"
_NAME_ENDS = ",;:.(“\""  # what ends the words after the verb that may name the thing
_NAME_REACH = 90  # characters after the verb a name may stand


def named_after(text: str, verb: str, own: set[str]) -> str | None:
    """The first name after the first word of the question's verb, in any of its forms ("the
    acquisition of Halden Group, …" for "acquire", "bought Ostra" for "buy"), before the verb is
    said again: capitalised words,
    not a month nor the company's own name (`own`, lower-cased)."""
    said = [m for m in _WORD.finditer(text) if one_word(verb, _stems_of_word(m.group(0).lower()))]
    if not said:
        return None
    at = said[0]
    # the verb said again ends what the first names ("the acquisition date fair values of the
    # assets acquired … for Postmates" names nothing acquired)
    end = said[1].start() if len(said) > 1 else len(text)
    tail = text[at.end():min(at.end() + _NAME_REACH, end)]
    tail = tail[:min((i for c in _NAME_ENDS if (i := tail.find(c)) >= 0), default=len(tail))]
    name: list[str] = []
    for word in tail.split():
        if word[:1].isupper() or (name and word.lower() in _NAME_INSIDE):
            name.append(word)
        elif name:
            break
    while name and name[-1].lower() in _NAME_INSIDE:
        name.pop()
    words = [w.lower() for w in name]
    if not words or words[0] in _MONTH_NAMES or set(words) <= own | _DETERMINERS or \
            not content_terms(" ".join(name)):
        return None
    return " ".join(name)


def question_verb(frame: QuestionFrame) -> str | None:
    """The question's own verb, as one of its terms, where an auxiliary stands before it
    (`QuestionFrame.verb`: "acquire" of "Which businesses did Uber acquire in 2021?")."""
    return frame.verb


def fits_kind(span: Span, frame: QuestionFrame) -> bool:
    """The span is the kind of answer the question asks for (a figure, a rate, a name, a year)."""
    return _kind_fit(span, frame) > 0


_MOVEMENT = vocabulary().cues("balance_movement")
_OPENING = vocabulary().cues("opening_balance")
_CLOSING = vocabulary().cues("closing_balance")
_TOTAL_START = vocabulary().cues("total_row_start")
_TOTAL_END = vocabulary().cues("total_row_end")
_PORTION_SECTION = vocabulary().cues("portion_section")  # "Current liabilities:"
_STATED_TOTAL = vocabulary().cues("stated_total")  # "our total unearned revenue … was"
_HOLDING = frozenset(stems_of(" ".join(vocabulary().words("holding_verbs"))))
# the words before a figure that say it is a change by that amount ("increased fulfillment
# costs by", "decreased"), not a level
_CHANGED_BY = vocabulary().cues("change_by") | vocabulary().cues("change_verb_before_figure")


def balance_side(text: str, *, row: bool) -> str | None:
    """"opening" or "closing" when the text says which end of its period a balance stands at
    ("Cash, beginning of period", "Balance at end of year", "solde de clôture"), else None. A
    sentence says it in more than a word ("the closing of the acquisition" is no balance)."""
    sides = [side for side, cues in (("opening", _OPENING), ("closing", _CLOSING))
             if any(row or " " in m.group(0).strip() for m in cues.finditer(text))]
    return sides[0] if len(sides) == 1 else None


PORTION_ROW = vocabulary().cues("portion_row")  # "current portion of", "net of current portion"


def a_portion(label: str) -> bool:
    """A row of a portion of its line item, not the whole: "Current portion of borrowings",
    "Borrowings, net of current portion", "Non-current lease liabilities", "davon"."""
    return PORTION_ROW.found(label)


def totals_row(label: str) -> bool:
    """A row that adds up the rows above it: "Total net sales", "Consolidated", "Summe"."""
    return _TOTAL_START.begins(label) or _TOTAL_END.ends(label)
_FORECAST = vocabulary().cues("forecast_stated")  # a sentence that states a forecast


def states_forecast(text: str) -> bool:
    """A sentence that states a forecast with a figure ("we expect capex of $5 billion")."""
    return _FORECAST.found(text) and bool(find_amounts(text))


def a_movement(text: str) -> bool:
    """The words of a balance's movement ("proceeds from", "repayments of", "increase in")."""
    return _MOVEMENT.search(text) is not None


_OF_TOTAL = vocabulary().cues("portion_of_total")


def _whole_over_its_portion(ranked: list[Span], frame: QuestionFrame) -> list[Span]:
    """A sentence that states a part of a total ("$5.93 billion of the total release was
    related to …") where a figure is asked and no portion is: another sentence that states an
    amount and answers the question as closely states the whole, and the part ranks below it
    (as a portion's row does)."""
    if frame.portion or frame.answer_kind != "figure":
        return ranked
    def money(span: Span) -> bool:
        return span.row is None and any(a.currency for a in find_amounts(span.text))
    parts = [i for i, s in enumerate(ranked) if money(s) and _OF_TOTAL.found(s.text)]
    wholes = [s.words for s in ranked if money(s) and not _OF_TOTAL.found(s.text)]
    out = list(ranked)
    for i in parts:
        if any(words >= ranked[i].words for words in wholes):
            out[i] = _with(ranked[i], score=round(ranked[i].score - PORTION_MISS, 4))
    return out


def _largest_is_the_whole(ranked: list[Span], wholes: list[int]) -> list[Span]:
    """Where the whole of a line item is asked and one passage's rows name it several times
    ("Automotive revenues", "Energy revenues", "Total revenues" in a data-tag dump), the row
    of the largest figure is the whole and the others its parts: the largest leads."""
    by_passage: dict[str, list[int]] = {}
    for i in wholes:
        by_passage.setdefault(ranked[i].source.chunk_id or "", []).append(i)
    out = list(ranked)
    for rows in by_passage.values():
        sizes = {i: max((abs(f.value) for f in ranked[i].figures()
                         if f.value is not None and f.unit != "%"), default=0.0) for i in rows}
        if len(rows) < 2 or len(set(sizes.values())) < 2:
            continue
        top = max(rows, key=lambda i: sizes[i])
        for i in rows:
            bonus = TOTAL_FIT if i == top else -TOTAL_FIT
            out[i] = _with(ranked[i], score=round(ranked[i].score + bonus, 4))
    return out


def _siblings_tell_apart(ranked: list[Span], core: Sequence[str]) -> list[Span]:
    """Rows of one passage that name what is asked alike, where the question says a word one's
    label says and another's does not ("diluted" of "Basic" and "Diluted" under "Earnings per
    share:"): the row that lacks it is a sibling of the one asked, not the one asked. Rows that
    each say a word the other does not are parts asked side by side ("North America and
    International segment sales")."""
    by_passage: dict[str, list[int]] = {}
    for i, span in enumerate(ranked):
        if span.row is not None:
            by_passage.setdefault(span.source.chunk_id or span.source.location, []).append(i)
    out = list(ranked)
    for rows in by_passage.values():
        if len(rows) < 2:
            continue
        said = {i: {t for t in core if term_in(t, _label_stems(ranked[i]))} for i in rows}
        for i in rows:
            if not said[i]:
                continue  # a row that names nothing asked by its label is no sibling
            # a sibling that says all this row says and more: "Diluted" beside "Basic", not
            # "International" beside "North America" where both are asked
            if any(j != i and not ranked[j].aside and said[j] > said[i] for j in rows):
                out[i] = _with(ranked[i], score=round(ranked[i].score - SIBLING_MISS, 4))
    return out


def _label_stems(span: Span) -> set[str]:
    assert span.row is not None
    return stems_of(f"{span.group} {span.row.label}")


def _per_share_row(span: Span) -> bool:
    """The row states an amount for one share: its label says so, or its heading does and the
    label names no line item of its own ("Diluted" under "Earnings per share:", not "Net loss
    attributable to common stockholders" under "Basic net loss per share"), and its figures
    are no count of shares."""
    assert span.row is not None
    label = span.row.label
    said = _PER_SHARE_ASKED.search(label) or (
        _PER_SHARE_ASKED.search(span.group) and not find_line_items(label))
    return bool(said) and not any(f.unit == "shares" for f in span.figures() if not f.none)


def _asks_rate(frame: QuestionFrame) -> bool:
    """A line item asked is a rate or a share (a margin, comparable sales in percent)."""
    return any((spec := item_spec(s)) is not None and spec.unit_kind == "percent"
               for s in frame.subjects)


def _asks_share(frame: QuestionFrame) -> bool:
    """The question asks a proportion or a rate ("as a percentage of revenue", a margin), which
    a common-size table's row states."""
    return frame.share_of or frame.answer_kind == "rate" or _asks_rate(frame) or (
        frame.derived is not None and frame.derived.unit == "percent")


def _asks_amount(frame: QuestionFrame) -> bool:
    """The question asks for an amount of money (sales, debt), not a share or a rate."""
    return frame.answer_kind == "figure" and any(
        (spec := item_spec(s)) is not None and spec.unit_kind == "currency"
        for s in frame.subjects)


def _asked_statements(frame: QuestionFrame) -> set[str]:
    """The primary statements whose row answers the question: the one it names ("on the
    balance sheet"), else the balance sheet for a balance asked (debt, cash) and the P&L or
    the cash-flow statement for an amount over a period (sales, capex)."""
    if frame.effect:
        return set()  # what a cause did to the line item, not the line item's level
    kinds, named = question_statements(frame.text)
    if StatementKind.SEGMENT in kinds:
        return set()  # a segment's figure: its note's table, where the statement has none
    if named:
        return set(kinds) & _PRIMARY
    asked = set(kinds) & _PRIMARY  # implied by a line item only one statement has ("capex")
    if _asks_balance(frame):
        asked.add(StatementKind.BALANCE)
    elif _asks_amount(frame):
        asked |= {StatementKind.INCOME, StatementKind.CASH_FLOW}
    return asked


def _asks_balance(frame: QuestionFrame) -> bool:
    """The question asks for a balance (debt, cash), not a flow."""
    return any((spec := item_spec(s)) is not None and (spec.stock or spec.sheet)
               for s in frame.subjects)


def best_spans(ranked: Sequence[Span], *, limit: int = 3) -> list[Span]:
    """The lead and its runners-up: distinct texts, best first. Where the question names
    several parts ("North America and International segment sales") and the lead's row says
    one, the best row of each other part follows it."""
    # a heading or a table's caption names what follows it: never quoted as an answer
    ranked = [s for s in ranked if not names_a_table(s)] or list(ranked)
    out: list[Span] = []
    said = set(ranked[0].parts) if ranked else set()
    if said:
        for span in ranked[1:_PART_REACH]:
            if span.parts and not span.parts & said and len(out) + 2 <= limit:
                out.append(span)
                said |= span.parts
    out = [*ranked[:1], *out] if out else []
    for span in ranked:
        if len(out) >= limit:
            break
        if all(not _says_again(span.text, s.text) for s in out):
            out.append(span)
    return out


def _says_again(text: str, said: str) -> bool:
    """The text is one already quoted, or one quoted holds it or it holds one (a sentence a
    page break cut, read whole on both pages: "… physical stores. These charges …")."""
    core, before = text.rstrip(" .…"), said.rstrip(" .…")
    return core == before or (min(len(core), len(before)) >= _SAID_AGAIN and (
        core in before or before in core))


_PART_REACH = 12  # how far down the ranking another part's row is looked for
_SAID_AGAIN = 60  # how long a quote must be for one holding it to say it again


def statement_rows(evidence: Evidence) -> list[Span]:
    """Every statement row of the passages retrieved (line items across periods), unscored."""
    return [s for s in _pool(evidence).spans
            if s.row is not None and statement_row(s.row)]
