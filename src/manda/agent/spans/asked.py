"""What the question frame asks of a span: a rate, a share, an amount, a balance, a statement."""

from __future__ import annotations

from functools import lru_cache

from manda.agent.frame import QuestionFrame
from manda.agent.relevance import content_terms, period_words, says_change, stems_of
from manda.agent.spans.span import _PER_SHARE_ASKED, _PRIMARY, Span
from manda.finance.statements import StatementKind, question_statements
from manda.finance.vocabulary import find_line_items, item_spec


@lru_cache(maxsize=1 << 16)
def _stems_of_word(word: str) -> set[str]:
    """A word's stems, once per word (a span's words are read side by side for each pair)."""
    return stems_of(word)  # never changed by its readers


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


def _asks_money(frame: QuestionFrame) -> bool:
    """An amount of money asked: a line item's ("what were its sales"), or what was paid or spent
    for a thing ("how much did it spend to buy Halden?"), which the share bought is not."""
    return _asks_amount(frame) or (
        frame.answer_kind == "figure" and frame.spending and frame.ranking.wants_amount
        and not frame.subjects and not frame.counted and not _asks_share(frame))


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


@lru_cache(maxsize=256)
def cause_words(question: str, entity: str | None) -> frozenset[str]:
    """The words of an effect question that name its cause: what is left of it without the
    line items it names, its words of change, its period and its company ("foreign",
    "currency" of "How much did foreign currency hurt Microsoft's operating income in 2023?")."""
    kept = question
    for _, start, end in sorted(find_line_items(question), key=lambda found: -found[1]):
        kept = f"{kept[:start]} {kept[end:]}"
    other = set(content_terms(entity or "")) | period_words(question)
    return frozenset(t for t in content_terms(kept)
                     if t not in other and not says_change(t) and not t.isdigit())
