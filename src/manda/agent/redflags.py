"""Red flags in the order a deal team weighs them: what can kill or reprice a deal comes first.

The order is a domain rule, not a rendering choice: litigation, change of control, customer
concentration, covenants and key-person dependency before conflicting or restated figures,
one-time items, and revised forecasts last. Each flag is one line with one source per figure,
listed once however many ways it was found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from manda.finance.amounts import find_amounts
from manda.vocabulary import vocabulary

# Most serious first: the deal topics' severities and the kinds of relation a report lists
# (`manda/vocabulary/topics.yaml`); anything not named there comes after all of these, in the
# order it was found.
SEVERITY: tuple[str, ...] = vocabulary().severity_order()
LEAD_FLAGS = 3


@dataclass(frozen=True)
class RedFlag:
    """One flag: its kind, its label and the rest of its line (markdown with its source
    markers), and what makes it the same flag as another (a sentence found twice is one flag)."""

    kind: str
    label: str
    body: str
    key: str
    headline_amount: str | None = None  # the figure the lead quotes, as the document writes it
    also: tuple[tuple[str, str], ...] = ()  # (kind, label) the same statement also is
    after_label: str = ": "

    @property
    def line(self) -> str:
        labels = ", ".join((self.label, *(label for _, label in self.also)))
        return f"- **{labels}**{self.after_label}{self.body}"

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind, *(kind for kind, _ in self.also))


def severity(kind: str) -> int:
    return SEVERITY.index(kind) if kind in SEVERITY else len(SEVERITY)


def ordered(flags: Iterable[RedFlag]) -> list[RedFlag]:
    """Most serious first (a stable sort: within a kind, the order they were found); a statement
    found under two kinds is listed once, at the more serious, naming both."""
    unique: dict[str, RedFlag] = {}
    for flag in sorted(flags, key=lambda f: severity(f.kind)):
        key = " ".join(flag.key.lower().split())
        first = unique.get(key)
        if first is None:
            unique[key] = flag
        elif flag.kind not in first.kinds:
            unique[key] = replace(first, also=(*first.also, (flag.kind, flag.label)),
                                  headline_amount=first.headline_amount or flag.headline_amount)
    return list(unique.values())


def headline_amount(statement: str) -> str | None:
    """The first money amount or percentage a statement gives (not a date, count or ratio)."""
    for amount in find_amounts(statement):
        if amount.currency or amount.unit == "%":
            return amount.text
    return None


# The kinds whose statement's first amount is the one a reader wants in the lead (the claim,
# the share of revenue, the charge); a covenant's or a clause's figures are not headlines.
_AMOUNT_KINDS = tuple(t.key for t in vocabulary().topics if t.amount_leads)


def lead(flags: Sequence[RedFlag], language: str = "en") -> str:
    """One line that answers "what are the red flags?": how many, and the most serious by name,
    in the question's language where the vocabulary has the words (amounts as written)."""
    if not flags:
        return ""
    words = vocabulary()
    every = sorted(((kind, flag) for flag in flags for kind in flag.kinds),
                   key=lambda pair: severity(pair[0]))
    named: list[str] = []
    for kind, flag in every:
        name = words.flag_lead(kind, language)
        if any(n.startswith(name) for n in named) or len(named) == LEAD_FLAGS:
            continue
        amount = flag.headline_amount if kind in _AMOUNT_KINDS else None
        named.append(f"{name} ({amount})" if amount else name)
    listed = named[0] if len(named) == 1 else words.answer(
        "listed_and", language, first=", ".join(named[:-1]), last=named[-1])
    count = words.answer("red_flag_count" if len(flags) == 1 else "red_flags_count", language,
                         count=len(flags))
    return words.answer("red_flags_lead", language, count=count, listed=listed)
