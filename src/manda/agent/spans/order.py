"""The ranking's last word: a whole over its portion, siblings told apart, the best spans of
distinct sources, a statement's rows."""

from __future__ import annotations

from collections.abc import Sequence

from manda.agent.evidence import Evidence
from manda.agent.frame import QuestionFrame
from manda.agent.relevance import stems_of, term_in
from manda.agent.spans.balances import totals_row
from manda.agent.spans.pool import _pool
from manda.agent.spans.rows import statement_row
from manda.agent.spans.sentences import names_a_table
from manda.agent.spans.span import PORTION_MISS, TOTAL_FIT, Span, _with
from manda.finance.amounts import find_amounts
from manda.vocabulary import vocabulary

# a row whose label lacks a word of the question that a sibling row's label says ("Basic" beside
# "Diluted" under "Earnings per share:" where diluted EPS is asked): the sibling is the one asked
SIBLING_MISS = 0.15


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


def _total_where_no_row_is_named(ranked: list[Span], core: Sequence[str],
                                 frame: QuestionFrame) -> list[Span]:
    """A figure asked of a table whose rows are its parts and its total ("Office space",
    "Stores", "Total" under "Leased Area | Owned Area"; "Repayments of commercial paper, net"
    under each maturity, "Total repayments of commercial paper, net"), where no part's label
    says a word of the question that the total's does not: the whole is asked, and each part's
    row ranks below the total's."""
    if frame.portion or frame.answer_kind != "figure":
        return ranked
    by_passage: dict[str, list[int]] = {}
    for i, span in enumerate(ranked):
        if span.row is not None and span.row.cells:
            by_passage.setdefault(span.source.chunk_id or span.source.location, []).append(i)
    out = list(ranked)
    for rows in by_passage.values():
        totals = [i for i in rows if totals_row(ranked[i].row.label)]  # type: ignore[union-attr]
        if not totals or len(totals) == len(rows):
            continue
        whole = set().union(*(_label_words(ranked[i]) for i in totals))
        parts = [i for i in rows if i not in totals]
        if any(term_in(t, _label_words(ranked[i])) and not term_in(t, whole)
               for i in parts for t in core):
            continue  # a part the question names is its own row
        for i in parts:
            own = _label_words(ranked[i])
            if whole - own and any(term_in(t, own) for t in core):
                # "Cash and cash equivalents" under "Total cash, cash equivalents and restricted
                # cash": a total of more than the part names, where the part is asked
                continue
            out[i] = _with(ranked[i], score=round(ranked[i].score - SIBLING_MISS, 4))
    return out


def _label_words(span: Span) -> set[str]:
    """A row's label's words, without the word that makes it a total ("Total")."""
    assert span.row is not None
    return {w for w in stems_of(span.row.label) if not totals_row(w)}


def _label_stems(span: Span) -> set[str]:
    assert span.row is not None
    return stems_of(f"{span.group} {span.row.label}")


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
