"""The noun a figure is of, when it is not the line item the sentence names.

A sentence's figure is a line item's value only when no other noun takes it:

- a noun before it gives it the figure: "operating income includes charges of $2.5 billion",
  "our liabilities for payroll related expenses were $7.5 billion", "a reduction in net income
  of $1.0 billion", "debt issuance costs related to the notes totaled $14.3 million";
- a noun after it: "a $1.6 billion unrealized gain on our investment", "$1.7 billion in
  impairment of securities";
- words that narrow the line item to a part: "term debt subject to fair value hedges was
  $12.6 billion".

A noun that is the line item's own word ("stock-based compensation expense", "restructuring
charges", "net loss") or that a line item's name contains ("cost of revenue") takes nothing from
it, nor does one set aside as an exclusion ("revenue, excluding the impact of currency, was").
The words are each language's `amount_head_*` cues.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.vocabulary import vocabulary

__all__ = ["of_another", "own_noun_end"]

_WORDS = vocabulary()
_OTHER = _WORDS.cues("amount_head_other")  # "charges", "gain", "liabilities", "increase"
_OWN = _WORDS.cues("amount_head_own")  # "expense", "costs": a line item's own noun after it
_ASIDE = _WORDS.cues("amount_head_aside")  # "excluding", "hors", "ohne": an exclusion
_COMPLEMENT = f"(?i:{_WORDS.cues('amount_head_complement').slot})"  # "for", "related to"
_LINK = f"(?i:{(_WORDS.cues('amount_head_link') | _WORDS.cues('figure_stated_as')).slot})"
_ABOUT = f"(?:(?i:{_WORDS.cues('approximately').slot})\\s+)?"
# what a noun phrase is written with: no amount, no clause end (a year may: "the 2025 Notes")
_WORDING = r"[^$€£¥%;:.()\[\]|]"

# a noun, what it is of (no figure between), then the words that give it the figure
_HEAD_BEFORE = _OTHER.around(
    tail=rf"(?P<rest>(?:\s+{_COMPLEMENT}\s+{_WORDING}{{0,120}}?)?,?\s+{_LINK}\s*{_ABOUT})$")
# a figure, a complement or a few words that qualify a noun (no joiner, no verb), then the noun
_NO_MODIFIER = "(?i:{})".format((_WORDS.cues("list_joiners") | _WORDS.cues("part_included")
                                 | _WORDS.cues("figure_stated_as")).slot)
_HEAD_AFTER = _OTHER.around(
    head=rf"\s+(?:{_COMPLEMENT}\s+)?(?P<lead>(?:(?!{_NO_MODIFIER})[^\W\d][\w'’-]*\s+){{0,3}}?)")
# a line item, then the words that narrow it to a part, then the figure
_PART_AFTER = _WORDS.cues("amount_part_complement").around(
    head=r"\s+", tail=rf"\s+{_WORDING}{{0,80}}?,?\s+{_LINK}\s*{_ABOUT}$")

_ASIDE_REACH = 30  # how far before a noun an exclusion sets it aside
# a line item's own noun after it, past a few words that qualify it ("one-time income tax charge")
# ("debt issuance costs" are no debt's: a word that makes it another thing stops it)
_NOT_ITS_OWN = "(?i:{})".format(_WORDS.cues("amount_head_not_own").slot)
_OWN_AFTER = _OWN.around(
    head=rf"(?:[\s-]+(?!{_NO_MODIFIER}|{_NOT_ITS_OWN})[^\W\d][\w'’-]*){{0,3}}?[\s-]+")


def own_noun_end(text: str, end: int) -> int:
    """Where the line item ending at `end` ends with its own noun after it ("Adjusted EBITDA
    loss", "deferred revenue liability"): what its figure's sign is read from."""
    own = _OWN_AFTER.match(text, end)
    return own.end() if own is not None else end


def of_another(text: str, start: int, amount: tuple[int, int],
               subjects: Sequence[tuple[int, int]], subject: tuple[int, int] | None = None
               ) -> bool:
    """The figure at `amount` (a sentence starting at `start`, its line items' places
    `subjects`) is another noun's, not a line item's; with `subject`, the line item it would be
    given, also a part of that line item."""

    def line_items_own(head: int, end: int) -> bool:
        inside = any(a <= head and end <= b for a, b in subjects)
        beside = any(_OWN_AFTER.fullmatch(text, b, end) for _, b in subjects if b <= head)
        return inside or beside or _ASIDE.found(text[max(start, head - _ASIDE_REACH):head])

    at = start
    while (before := _HEAD_BEFORE.search(text, at, amount[0])) is not None:
        if not line_items_own(before.start(), before.start("rest")):
            return True
        at = before.start() + 1
    after = _HEAD_AFTER.match(text, amount[1])
    if after is not None and not any(amount[1] <= a < after.end() for a, _ in subjects) \
            and not line_items_own(after.end("lead"), after.end()):
        return True
    return subject is not None and subject[1] <= amount[0] \
        and _PART_AFTER.match(text, subject[1], amount[0]) is not None
