"""A computed metric's inputs as a filing's prose states them, where no statement row reads.

"Net cash used in operating activities was $445 million for the year ended December 31, 2021"
and "… $298 million in purchases of property and equipment" state operating cash flow and capex
of one year: each input is the amount written right beside a line item's own name
(`manda.finance.derived.LINE_ITEMS`), for the year written after it (else the sentence's only
year); an amount of cash the wording says was used is an outflow. All inputs come from one
document and one year.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.agent.compose.passages import said_as_change
from manda.agent.evidence import Evidence
from manda.agent.spans import Span
from manda.agent.unusual import body, sentences
from manda.finance.amounts import Amount, find_amounts
from manda.finance.derived import LINE_ITEMS
from manda.finance.figures import Figure
from manda.finance.signs import names_a_loss
from manda.text import YEAR
from manda.vocabulary import vocabulary

# "decreased by $1.47 billion to $13.26 billion": a change by the first amount, to the second
_TO = vocabulary().words("range_to")


def stated_inputs(evidence: Evidence, inputs: Sequence[str], asked: set[int]
                  ) -> dict[str, tuple[Span, Figure]] | None:
    """Each input's sentence and figure, from one document and the year asked (else the
    latest year all inputs are stated for), or None when any input is not stated."""
    found: dict[tuple[str, int], dict[str, tuple[Span, Figure]]] = {}
    for hit in evidence.hits:
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        source = evidence.hit_source(hit)
        for sentence in sentences(body(hit.text)):
            for item in inputs:
                figure = _stated(sentence, item)
                if figure is not None:
                    found.setdefault((hit.document_id, int(figure.column)), {}).setdefault(
                        item, (Span(sentence, source), figure))
    whole = [(key, picked) for key, picked in found.items() if len(picked) == len(inputs)]
    if asked:
        whole = [(key, picked) for key, picked in whole if key[1] in asked]
    if not whole:
        return None
    return max(whole, key=lambda t: t[0][1])[1]


def _stated(sentence: str, item: str) -> Figure | None:
    """The amount the sentence writes beside the line item's name, signed by its wording, and
    the year it is stated for."""
    low = sentence.lower()
    for phrase in sorted(LINE_ITEMS.get(item, ()), key=len, reverse=True):
        at = low.find(phrase)
        if at < 0 or (at and low[at - 1].isalnum()):
            continue
        amount = _beside(sentence, at, at + len(phrase))
        year = _year_of(sentence, amount.end) if amount is not None else None
        if amount is None or year is None:
            continue
        value = abs(amount.value)
        if names_a_loss(phrase):
            value = -value  # "net cash used in operating activities was $445 million"
        return Figure(amount.text, value, amount.currency, str(year))
    return None


def _year_of(sentence: str, after: int) -> int | None:
    """The year an amount is stated for: the first year written after it ("… was $445 million
    for the year ended December 31, 2021"), else the sentence's only year."""
    if (m := YEAR.search(sentence, after)) is not None:
        return int(m.group(1))
    years = {int(y) for y in YEAR.findall(sentence)}
    return years.pop() if len(years) == 1 else None


def _linking(gap: str, most: int, *, lead: bool = True) -> bool:
    """A few small words between a name and its amount ("was", "of", "totaled", "amounted to",
    "in"), after a comma or colon where the amount follows the name."""
    words = (gap.lstrip(" ,:") if lead else gap).split()
    return gap[-1:].isspace() and len(words) <= most and all(
        w.isalpha() and w.islower() for w in words) if gap else False


def _level(sentence: str, end: int, amount: Amount, money: Sequence[Amount]) -> Amount | None:
    """The amount as a level: itself, unless the words before it say it is a change ("…
    decreased by $1.47 billion to $13.26 billion"); then the level it changed to, if written
    right after it, else none."""
    if not said_as_change(sentence[end:amount.start]):
        return amount
    after = next((a for a in money if a.start >= amount.end), None)
    if after is None:
        return None
    words = sentence[amount.end:after.start].split()
    return after if len(words) == 1 and words[0].lower() in _TO else None


def _beside(sentence: str, start: int, end: int) -> Amount | None:
    """The money amount written right after the name ("… was $445 million") or right before
    it ("$298 million in purchases of …"); of one each, the one fewer words away (the one
    before on a tie: "$35 million in purchases of equipment and $45 million for …")."""
    money = [a for a in find_amounts(sentence) if a.currency is not None and a.unit is None]
    after = [(len(sentence[end:a.start].split()), level) for a in money
             if a.start >= end and _linking(sentence[end:a.start], 3)
             and (level := _level(sentence, end, a, money)) is not None]
    before = [(len(sentence[a.end:start].split()), a) for a in money
              if a.end <= start and _linking(sentence[a.end:start], 2, lead=False)]
    near = [*before[-1:], *after[:1]]
    return min(near, key=lambda t: t[0])[1] if near else None
