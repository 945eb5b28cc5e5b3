"""A facility's size, what is drawn under it and what is left: three numbers, one sentence.

"A revolving credit facility of £1.5m, of which £0.5m was drawn", "total commitments under the
Credit Agreement were $50.0 million, of which $12.0 million was outstanding", "die Kreditlinie
über EUR 2,0 Mio. war mit EUR 0,8 Mio. in Anspruch genommen": the limit (commitment, size) is not
debt, the drawn (outstanding, borrowed) amount is, and headroom (undrawn, available) is neither.
`facility_roles` reads which an amount is from the words around it: the grammar is here, its
words (`facility_*` cue sets) in each language file.

A term loan is drawn in full when it is made, so "a term loan of £5.0m" is debt — unless the
sentence goes on to say how much of it is outstanding ("£5.0m, £4.5m outstanding"), or calls the
amount its principal ("a term loan in an aggregate principal amount of $30,000,000", "original
principal amount of $12.0 million"): then it is the loan's original size, repaid since.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from manda.finance.amounts import MULTIPLIER, Amount
from manda.vocabulary import vocabulary

__all__ = ["DRAWABLE", "FacilityRole", "FacilityStatement", "facility_name", "facility_roles"]

_I = re.IGNORECASE


class FacilityRole(StrEnum):
    LIMIT = "facility limit"  # size, commitment, limit
    DRAWN = "drawn"  # drawn, outstanding, borrowed, utilised: debt
    HEADROOM = "facility headroom"  # undrawn, available, unused


@dataclass(frozen=True)
class FacilityStatement:
    """What one amount of a sentence is to a facility, and which facility ("term loan")."""

    amount: Amount
    role: FacilityRole
    facility: str
    named_at: tuple[int, int]  # where the sentence names the facility
    principal: bool = False  # stated as the facility's (original) principal amount

    @property
    def drawable(self) -> bool:
        """Drawn as needed up to a limit (a revolver, an overdraft), not drawn in full once."""
        return self.facility in DRAWABLE


_WORDS = vocabulary()


def _slot(name: str) -> str:
    """One cue set of the vocabulary as a slot of a sentence's grammar."""
    return _WORDS.cues(name).slot


# A facility named in words (`facility_*` cue sets); group names are the canonical facility.
_NOUNS: tuple[tuple[str, str], ...] = (
    ("revolving credit facility", _slot("facility_revolver")),
    ("overdraft", _slot("facility_overdraft")),
    ("term loan", _slot("facility_term_loan")),
    ("credit line", _slot("facility_credit_line")),
    ("credit facility", _slot("facility_credit")),
)
_NOUN = re.compile("|".join(f"(?P<n{i}>{p})" for i, (_, p) in enumerate(_NOUNS)), _I)
# a plural noun's endings, in every language ("overdrafts", "Kreditlinien", "découverts")
_PLURAL = tuple(dict.fromkeys(e for lang in _WORDS.languages.values() for e in lang.plural_endings))
# Sized at signing and used as needed: the limit and the drawn amount differ.
DRAWABLE = {"revolving credit facility", "overdraft", "credit line", "credit facility"}

# The grammar of a facility's sentence, its words from the vocabulary: "(was) drawn", "drawn
# amounts of", "undrawn … of", "a limit of (up to)", "of (up to)", "principal amount of".
_AUX, _DRAWN, _UP_TO_WORDS = (_slot("facility_auxiliary"), _slot("facility_drawn"),
                              _slot("facility_up_to"))
_DRAWN_AFTER = re.compile(rf"^\s*{_AUX}?\s*{_DRAWN}", _I)
_DRAWN_BEFORE = re.compile(rf"(?:{_slot('facility_drawn_lead')}\s*"
                           rf"(?:{_slot('facility_amount_link')}|:)|"
                           rf"{_slot('facility_drawn_marker')})\s*$", _I)
_HEADROOM_AFTER = re.compile(rf"^\s*{_AUX}?\s*{_slot('facility_headroom')}", _I)
_HEADROOM_BEFORE = re.compile(rf"{_slot('facility_headroom_lead')}[^.;,]{{0,60}}?"
                              rf"(?:{_slot('facility_headroom_link')}|:)?\s*$", _I)
_LIMIT_BEFORE = re.compile(rf"{_slot('facility_limit_lead')}[^.;]{{0,40}}?"
                           rf"(?:{_slot('facility_limit_link')}|:)\s*(?:{_UP_TO_WORDS}\s+)?$", _I)
_SIZED = re.compile(rf"{_slot('facility_size_link')}\s+(?:{_UP_TO_WORDS}\s+)?$", _I)
_SIZE_AFTER = re.compile(rf"^\s*(?:{_slot('facility_qualifier')}\s+)?(?:{_NOUN.pattern})", _I)
# "an aggregate principal amount of $30,000,000", "not to exceed $10,000,000": what a lender
# commits, read before any "available" further back ("during the Availability Period in …")
_PRINCIPAL_BEFORE = re.compile(rf"(?:{_slot('facility_principal')}(?:\s+"
                               rf"{_slot('facility_principal_link')})+|"
                               rf"{_slot('facility_principal_cap')})\s*$", _I)
_UP_TO = re.compile(rf"{_UP_TO_WORDS}\s*$", _I)


def facility_name(text: str) -> str | None:
    """The canonical facility a phrase names ("the Credit Agreement" → "credit facility")."""
    m = _NOUN.search(text)
    return _name(m) if m else None


def _name(m: re.Match[str]) -> str:
    for i, (name, _) in enumerate(_NOUNS):
        if m.group(f"n{i}"):
            return name
    return "credit facility"


def facility_roles(text: str, start: int, end: int, amounts: Sequence[Amount]
                   ) -> list[FacilityStatement]:
    """Each amount of the sentence `text[start:end]` that a facility's size, drawn amount or
    headroom is, with its facility; none when the sentence names no facility."""
    nouns = list(_NOUN.finditer(text, start, end))
    if not nouns:
        return []
    inside = [a for a in amounts if a.currency is not None and start <= a.start < end]
    out: list[FacilityStatement] = []
    for index, amount in enumerate(inside):
        lead = text[max(start, amount.start - 90) : amount.start]
        tail = text[amount.end : min(end, amount.end + 45)]
        noun = _facility_of(text, amount, nouns)
        if noun is None:
            continue
        # "a revolving credit facility of £1.5m" sizes one facility; "overdrafts of £5.0m" is
        # a balance
        one = not noun.group(0).lower().endswith(_PLURAL) or noun.group(0).isupper()
        between = (text[noun.end() : amount.start]
                   if noun.end() <= amount.start and one else None)
        role = _role(lead, tail, between)
        if role is None:
            continue
        name = _name(noun)
        principal = role is FacilityRole.LIMIT and bool(_PRINCIPAL_BEFORE.search(lead))
        if role is FacilityRole.LIMIT and name not in DRAWABLE and not principal and not (
                _drawn_follows(text, amount, inside[index + 1 :], nouns, end)):
            role = FacilityRole.DRAWN  # "a term loan of £5.0m": drawn in full
        out.append(FacilityStatement(amount, role, name, noun.span(), principal))
    return out


# "… drawn under the $10.0 million revolving credit facility": the facility may carry its size;
# "mit TEUR 11.000 die Tranche A": a language that names the facility after the amount
_NAMES_NEXT = re.compile(
    rf"^[^.;,]{{0,25}}?{_slot('facility_under')}\s+(?:{_slot('facility_article')}\s+)*"
    rf"(?:(?:[$€£]|USD|EUR|GBP)\s?\d[\d.,]*\s*(?:(?:{MULTIPLIER})(?!\w))?\s+)?"
    rf"(?:{_slot('facility_qualifier')}\s+)?$|^\s*{_slot('facility_named_after')}\s+$", _I)


def _facility_of(text: str, amount: Amount, nouns: Sequence[re.Match[str]]
                 ) -> re.Match[str] | None:
    """The facility an amount belongs to: the one named right after it ("a £1.5m revolving
    credit facility", "£0.5m drawn under a revolving credit facility"), else the nearest one
    before it, else the first after it."""
    after = [m for m in nouns if m.start() >= amount.end]
    if after:
        gap = text[amount.end : after[0].start()]
        if _SIZE_AFTER.match(text[amount.end : amount.end + 60]) or _NAMES_NEXT.match(gap):
            return after[0]
    before = [m for m in nouns if m.end() <= amount.start]
    if before:
        return before[-1]
    return after[0] if after else None


def _role(lead: str, tail: str, between: str | None) -> FacilityRole | None:
    if _DRAWN_AFTER.match(tail) or _DRAWN_BEFORE.search(lead):
        return FacilityRole.DRAWN
    if _PRINCIPAL_BEFORE.search(lead):
        return FacilityRole.LIMIT
    if _HEADROOM_AFTER.match(tail) or _HEADROOM_BEFORE.search(lead):
        return FacilityRole.HEADROOM
    if _LIMIT_BEFORE.search(lead) or _SIZE_AFTER.match(tail) or _UP_TO.search(lead):
        return FacilityRole.LIMIT
    if between is not None and len(between) <= 60 and _SIZED.search(between) and not re.search(
            r"[;:]|\d", between):
        return FacilityRole.LIMIT  # "a revolving credit facility of £1.5m"
    return None


_DRAWN_UNDER = re.compile(rf"^\s*(?:{_AUX}\s+)?{_DRAWN}\s+{_slot('facility_under')}", _I)


def _drawn_follows(text: str, amount: Amount, later: Sequence[Amount],
                   nouns: Sequence[re.Match[str]], end: int) -> bool:
    """Whether the sentence says next how much of this facility is drawn ("£5.0m, £4.5m
    outstanding"), before it names another facility."""
    stop = next((m.start() for m in nouns if m.start() > amount.end), end)
    for other in later:
        tail = text[other.end : other.end + 45]
        if other.start >= stop or _DRAWN_UNDER.match(tail):
            return False  # another facility's drawings ("£0.5m drawn under a revolving …")
        if _DRAWN_AFTER.match(tail):
            return True
    return False
