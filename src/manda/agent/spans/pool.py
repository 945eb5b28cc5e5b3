"""The candidates of a question's evidence: every sentence and table row of the passages
retrieved, pages read across their breaks, cached per evidence."""

from __future__ import annotations

import html
import weakref
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from manda.agent.evidence import Evidence
from manda.agent.kinds import refers_to_change
from manda.agent.relevance import stems_of
from manda.agent.spans.balances import totals_row
from manda.agent.spans.period_rows import period_label, period_tables
from manda.agent.spans.rollforward import rollforward_tables, unrepeated
from manda.agent.spans.rows import (
    _add_rows,
    _by_part,
    _document_scales,
    _rows_without_gaps,
    _year_end,
)
from manda.agent.spans.sentences import (
    _sentences,
    _word_cut_off,
    continues_method,
    group_over,
    heading_shaped,
    lists_things,
    points_back,
)
from manda.agent.spans.span import LISTED_QUOTE, Span, _Pool, heads_rows
from manda.agent.tables import Table, read_tables
from manda.agent.unusual import (
    JOINED_QUOTE,
    body,
    joined_sentences,
    pointing_parts,
    sentences,
    trim,
    unwrap,
)
from manda.finance.amounts import currency_of_document
from manda.finance.figures import (
    StatementScale,
    figure_row,
    opens_with_note_mark,
    statement_scale,
)
from manda.ingest.parsers.staggered import unstaggered
from manda.ingest.segments import Block, segments
from manda.injection import looks_like_instruction
from manda.models import SearchHit
from manda.text import YEAR, defined_terms
from manda.vocabulary import vocabulary


def _candidates(evidence: Evidence) -> _Pool:
    pool = _Pool([], [], [], [])
    # a passage stored before ingestion re-cut its staggered tables is re-cut here (a no-op on
    # one already re-cut), so an older data room reads its rows too
    hit_lines = [unstaggered(body(hit.text).splitlines()) for hit in evidence.hits]
    page_lines: dict[tuple[str, int | None], list[str]] = {}
    for hit, lines in zip(evidence.hits, hit_lines, strict=True):
        page_lines.setdefault((hit.document_id, hit.location.page), []).extend(lines)
    scales = _document_scales(page_lines)
    # the currency each document states its figures in: a statement that prints no "$" of its
    # own ("(in millions)" over "2,857") is in it
    currencies: dict[str, str | None] = {}
    for (doc_id, _), page in page_lines.items():
        currencies.setdefault(doc_id, None)
        currencies[doc_id] = currencies[doc_id] or currency_of_document(page)
    prose = _across_pages(evidence.hits)
    owned = _rollforwards(evidence.hits, hit_lines)
    for hit, lines in zip(evidence.hits, hit_lines, strict=True):
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        source = evidence.hit_source(hit)
        tables = _continued(read_tables(hit.text))
        # a block of rows under a segment's heading ("North America" over "Net sales"): its
        # rows stand under that segment, as ingestion reads them (manda.ingest.segments)
        parted = {id(t): part for t, (part, _) in zip(tables, segments(
            [Block(tuple(t.caption), frozenset(r.label.lower() for r in t.rows))
             for t in tables]), strict=True) if part}
        recovered = _rows_without_gaps(lines, tables)
        # a line item's figures by period, a row a period ("December 31, 2023 15,600" under
        # "Three Months Ending"): a table of one column, named by its lead-in
        dated_tables = period_tables([x for x in lines if "|" not in x])
        row_lines = {row.line for t in [*tables, *dated_tables] for row in t.rows} | recovered
        header_lines = {" | ".join(t.header) for t in tables}
        year_end = _year_end(hit.text)
        page = page_lines[(hit.document_id, hit.location.page)]
        rolled = owned.get(id(hit), [])
        for table, part in _by_part([*tables, *rolled], measured=rolled):
            _add_rows(pool, table, lines, page, source, year_end, scales.get(hit.document_id),
                      currency=currencies.get(hit.document_id),
                      segment=parted.get(id(table), "") if part is None else part,
                      placed=hit.statements)
        for table in dated_tables:
            first = len(pool.spans)
            _add_rows(pool, table, lines, page, source, year_end, scales.get(hit.document_id),
                      currency=currencies.get(hit.document_id), placed=hit.statements)
            pool.spans[first:] = [replace(s, by_period=True) for s in pool.spans[first:]]
        # '… convertible senior notes due 2025 (the "2025 Notes")': a sentence that uses the
        # term says what it stands for
        defined = defined_terms(" ".join(lines))
        # each line of the passage by the line above it: a table's group heading over a row
        line_above = {line.strip(): above.strip() for above, line in pairwise(
            [x for x in lines if x.strip()])}
        notes = _footnotes(lines)  # "(a) Includes …", with the lines that carry it on
        title = ""  # the lead-in over the figure lines below it: their table's title
        heads = ""  # and the line of column heads under it
        period = ""  # the period heading the line of figures under it ("June 29, 2025 to …:")
        by_period = False  # the table's rows are headed by periods
        for sentence, heading, before, bulleted in _sentences(
                prose.get(id(hit), "\n".join(_above_folio(lines)))):
            was, title = title, _title_after(title, sentence, page)
            if title != was:
                heads, period, by_period = "", "", False
            elif title and period_label(sentence) and sentence.rstrip().endswith(":"):
                period, by_period = sentence.strip(), True
                continue  # it heads the line of figures under it, quoted with it
            elif title and not heads and not figure_row(sentence):
                heads = sentence  # the line of column heads under the title
            if sentence in row_lines or sentence in header_lines or "|" in sentence:
                continue
            if (len(sentence) < 20 and not _short_row(sentence)) or \
                    looks_like_instruction(sentence):
                continue
            # a sentence that lists things ("our priorities: first, …; second, …; and
            # finally, …") keeps its whole text to quote where a list is asked
            whole = trim(sentence, LISTED_QUOTE) if lists_things(sentence) else ""
            meant = [said for term, said in defined.items()
                     if term in sentence and said not in sentence]
            # a lead-in with its bulleted items is quoted whole: its reasons are the items
            # a sentence read with the one pointing back at it ("… there was $16.9 billion of
            # unrecognized cost. This compensation is … recognized over 1.0 year") is quoted
            # whole: the second sentence may hold the other half of what is asked
            quote = trim(sentence, LISTED_QUOTE if bulleted else
                         JOINED_QUOTE if joined_sentences(sentence) else 320)
            dated_by = _dated_by(sentence, before)
            # a table's line that names no year is of the one period its title names ("RSU
            # activity … for 2025 is as follows:" over "RSUs granted 73,466 $226.68")
            titled = title if figure_row(sentence) and not dated_by and not YEAR.search(
                sentence) and len(set(YEAR.findall(title))) == 1 else ""
            # a line of figures of a table whose rows are headed by periods: of the period
            # heading it ("June 29, 2025 to August 2, 2025:"), or, its total, of all of them,
            # the period the title names; its own words are its table's title and column heads
            # (a row is read with its caption), the heads read off the page where the passage
            # starts below them
            columns = ""
            if by_period and figure_row(sentence):
                columns = f"{title} {heads if heads else _heads_under(title, page)}"
                if period:
                    quote = trim(f"{period} {quote}", 320)
                    dated_by, titled = frozenset(int(y) for y in YEAR.findall(period)), ""
                    columns = f"{period} {columns}"
                elif not totals_row(sentence):
                    columns = ""
                period = ""
            if titled:
                dated_by = frozenset(int(y) for y in YEAR.findall(titled))
            # "those commitments …" speaks of what the sentence before names: its words count
            # as its heading's do, for half
            under = f"{heading} {before}" if points_back(sentence, before) else heading
            if group_over(above := line_above.get(sentence, ""), sentence):
                under = f"{under} {above}"  # "2025 debt issuance:" over the row of its notes
            if titled:
                under = f"{under} {titled} {heads}"  # a table's line, by its title and columns
            _add_sentence(pool, Span(quote, source, year_end=year_end, whole=whole,
                                     listed=bulleted, dated_by=dated_by, titled=titled,
                                     footnote=any(" ".join(sentence.split()) in note
                                                  for note in notes),
                                     caption=columns, by_period=bool(columns),
                                     scale=_line_scale(sentence, lines),
                                     currency=currencies.get(hit.document_id)),
                          " ".join([sentence, *meant, *([columns] if columns else [])]), under)
            for own, earlier in pointing_parts(sentence):
                # "… was $15.00 billion, … This included a one-time non-cash tax benefit of
                # $5.93 billion …": the part pointing back states a figure of its own, quoted
                # on its own; what it points at counts as its heading's words do, for half
                _add_sentence(pool, Span(trim(own, 320), source, year_end=year_end,
                                         dated_by=_dated_by(own, earlier), pointed=earlier),
                              own, f"{heading} {earlier}")
            if before and refers_to_change(sentence) and before not in row_lines:
                joined = f"{trim(before, 240)} {quote}"
                _add_sentence(pool, Span(joined, source, year_end=year_end, joined=True,
                                         listed=bulleted), f"{before} {sentence}", heading)
            elif before not in row_lines and continues_method(sentence, before):
                _add_sentence(pool, Span(f"{trim(before, 240)} {quote}", source,
                                         year_end=year_end, continued=True, listed=bulleted),
                              f"{before} {sentence}", heading)
    return _without_cut_labels(pool)


def _without_cut_labels(pool: _Pool) -> _Pool:
    """The pool without the rows a chunk's cut left headed by the tail of their label: the
    chunker repeats the row at a cut under the words after it ("services and other segment
    revenue 90,738 …" of "Total automotive & services and other segment revenue 90,738 …"), a
    label that opens in lower case. Where the passages hold the whole row (the same page, the
    same cells, a label that ends in those words), the tail is that row, read a second time
    under a name it does not have; it is left out. A tail whose whole row is not at hand stays."""
    whole: dict[tuple[str, int | None], list[Span]] = {}
    for span in pool.spans:
        if span.row is not None:
            whole.setdefault((span.source.document_id, span.source.page), []).append(span)
    keep = [not (span.row is not None and _cut_label(span, whole.get(
        (span.source.document_id, span.source.page), []))) for span in pool.spans]
    if all(keep):
        return pool
    return _Pool(*([x for x, k in zip(column, keep, strict=True) if k]
                   for column in (pool.spans, pool.names, pool.stems, pool.under)))


def _cut_label(span: Span, rows: Sequence[Span]) -> bool:
    """The row is another row of its page (the same cells) under the tail of that row's label:
    a label that opens in lower case, or that a heading was glued before, the tail opening with
    a word that joins parts ("Cost of revenues" + "and other segment cost of revenues" of "Total
    automotive & services and other segment cost of revenues"); not a label the other only
    totals ("Property and equipment, net" of "Total property and equipment, net")."""
    assert span.row is not None
    if len(span.row.cells) < 2:
        return False
    label = " ".join(html.unescape(span.row.label).split())
    words = label.split()
    starts = [0] if label[:1].islower() else []
    starts += [len(" ".join(words[:k])) + 1 for k in range(1, len(words) - 2)
               if words[k].lower() in _LABEL_JOINERS]
    for other in rows:
        if other is span or other.row is None or other.row.cells != span.row.cells:
            continue
        full = " ".join(html.unescape(other.row.label).split())
        if len(full) <= len(label):
            continue  # the whole row's label is the longer
        for at in starts:
            tail, head = label[at:].lower(), label[:at].strip().lower()
            if len(tail.split()) < _TAIL_WORDS or not full.lower().endswith(tail):
                continue
            before = full[:len(full) - len(tail)]
            if before[-1:].isalnum() or (head and before.strip().lower().endswith(head)):
                continue
            return True
    return False


_LABEL_JOINERS = vocabulary().words("label_joiners")
_TAIL_WORDS = 3  # the fewest words of a label's tail read as a cut row's


def _line_scale(sentence: str, lines: Sequence[str]) -> StatementScale | None:
    """The scale a table's line read as a sentence is printed at ("Prepaid forward contracts
    Level 1 18 23" under "(millions)"): the unit line nearest above it in its passage; None for
    a sentence of words, or where no unit line above states a scale."""
    if not figure_row(sentence):
        return None
    said = " ".join(sentence.split())
    at = next((k for k, line in enumerate(lines) if " ".join(line.split()) == said), None)
    if at is None:
        return None
    scale = statement_scale([line for line in lines[:at] if "|" not in line])
    return scale if scale.line and scale.factor != 1.0 else None


def _heads_under(title: str, page: Sequence[str]) -> str:
    """The column heads under a table's title on its page: the lines after the title's last
    line, up to its first row (a line of figures, or a period heading one)."""
    lines = [x.strip() for x in page]
    end = next((i for i, x in enumerate(lines) if len(x) >= _TITLE_TAIL and title.endswith(x)),
               None)
    if end is None:
        return ""
    heads: list[str] = []
    for line in lines[end + 1:end + 1 + _TITLE_LINES]:
        if not line or figure_row(line) or period_label(line) or line.endswith("."):
            break
        heads.append(line)
    return " ".join(heads)


_TITLE_TAIL = 12  # a title's last line is found on its page by this many characters at least


def _dated_by(sentence: str, before: str) -> frozenset[int]:
    """The years of the text before a sentence that names none: a paragraph dated once ("As of
    December 31, 2023, we concluded … As such, we released $6.54 billion …")."""
    return frozenset() if YEAR.search(sentence) else frozenset(
        int(y) for y in YEAR.findall(before))


def _title_after(title: str, sentence: str, page: Sequence[str]) -> str:
    """The title of the table being read once `sentence` is: the first lead-in after the last
    sentence of prose ("Share repurchase activity during the three months ended …, was as
    follows:"), not a lead-in inside the table ("August 31, 2025 to September 27, 2025:"); a
    title cut by the passage's start ("in thousands, and per-share amounts):") read with the
    page's lines above it."""
    said = sentence.rstrip()
    if said.endswith(":"):
        return title or _whole_title(said, page)
    if said.endswith(".") and not figure_row(said):
        return ""  # prose: the table, if any, has ended
    return title


def _whole_title(lead_in: str, page: Sequence[str]) -> str:
    """A lead-in that opens in lowercase, with the lines it goes on from on its page."""
    if not lead_in[:1].islower():
        return lead_in
    first = lead_in.splitlines()[0].strip()
    lines = [x.strip() for x in page]
    at = next((i for i, x in enumerate(lines) if x and first.startswith(x)), None)
    if at is None:
        return lead_in
    above: list[str] = []
    for line in reversed(lines[max(0, at - _TITLE_LINES):at]):
        if not line or line[-1:] in ".:" or figure_row(line):
            break
        above.insert(0, line)
    return " ".join([*above, lead_in])


_TITLE_LINES = 3  # a caption wraps over a few lines at most


def _short_row(line: str) -> bool:
    """A short row of a table whose gaps were lost, a label and its figures ("EBIT 5,212
    5,672" of a non-GAAP reconciliation): as much a span as a longer row."""
    label = line.split()[0] if line.split() else ""
    return figure_row(line) and label[:1].isalpha()


def _footnotes(lines: Sequence[str]) -> list[str]:
    """The footnotes of a passage, each one text: a line that opens with a note's mark, and the
    lines after it while the one before ends mid-sentence ("… of $1.2 billion and $1.3" over
    "billion, respectively, related to EBIT")."""
    notes: list[str] = []
    carried = False
    for line in (x.strip() for x in lines):
        if opens_with_note_mark(line):
            notes.append(" ".join(line.split()))
        elif carried and line:
            notes[-1] = f"{notes[-1]} {' '.join(line.split())}"
        carried = bool(notes) and bool(line) and not line.endswith((".", ":")) and (
            carried or opens_with_note_mark(line))
    return notes


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


def _rollforwards(hits: Sequence[SearchHit], hit_lines: Sequence[list[str]]
                  ) -> dict[int, list[Table]]:
    """The roll-forwards written as lines (or staggered) in each passage, by `id` of the hit:
    read with the lines a passage repeats where two chunks of it meet left out (the chunker
    repeats a table's caption line and the rows before its cut), so a table cut between two
    chunks is read whole, its titles over its first balance and its closing balance."""
    return {id(hit): tables for hit, lines in zip(hits, hit_lines, strict=True)
            if (tables := rollforward_tables(unrepeated([x for x in lines if "|" not in x])))}


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


def _at_foot(hit: SearchHit) -> bool:
    """The passage ends with its page's number: it runs to the foot of the page."""
    lines = [line.strip() for line in body(hit.text).splitlines() if line.strip()]
    return bool(lines) and lines[-1].isdigit() and len(lines[-1]) <= 4


def _above_folio(lines: list[str]) -> list[str]:
    """A passage's lines without the page's number under them (a last line of up to
    `FOLIO_DIGITS` digits): a sentence that runs on to the next page ends where its page does
    ("… additional amortization", never "… amortization 56")."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    folio = lines[end - 1].strip() if end else ""
    return lines[:end - 1] if folio.isdigit() and len(folio) <= FOLIO_DIGITS else lines


FOLIO_DIGITS = 3


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
        if len(own) == 1 and heads_rows(own[0]):
            table.caption = [*(c for c in before.caption if c and not c.endswith(":")), *own]
    return tables


def _add_sentence(pool: _Pool, span: Span, said: str, heading: str) -> None:
    """A sentence's span, read by all it says (its quote may be trimmed)."""
    stems = stems_of(said)
    pool.spans.append(span)
    pool.names.append(stems)
    pool.stems.append(stems)
    pool.under.append(stems_of(heading))
