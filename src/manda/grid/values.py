"""Reading typed values out of a contract's words: durations and notice periods, dates, amounts,
caps measured in the charges, jurisdictions. The words (numbers written out, units, "notice",
"English law") are the vocabulary's (`grid:` in languages/*.yaml); only their shape is here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache

from manda.finance.amounts import Amount, find_amounts, format_amount
from manda.finance.periods import find_dates
from manda.vocabulary.cues import Cues, compile_phrase
from manda.vocabulary.grid import grid_vocabulary

__all__ = ["Cap", "Duration", "cap_of", "dates_in", "durations_in", "jurisdiction_of", "money_in",
           "multiple_in", "notice_in", "shown_duration", "shown_of"]


@dataclass(frozen=True)
class Duration:
    """A length of time as written: its count and unit, and where it stands in the text."""

    count: int
    unit: str  # days, weeks, months, years
    start: int
    end: int
    business: bool = False  # business (working) days, not calendar days

    @property
    def months(self) -> int | None:
        if self.unit == "years":
            return self.count * 12
        return self.count if self.unit == "months" else None

    @property
    def normal(self) -> str:
        """`90 days`, `6 months` (years as months, as the ground truth and Excel filters want)."""
        if self.unit == "years":
            return f"{self.count * 12} months"
        unit = self.unit if self.count != 1 else self.unit[:-1]
        return f"{self.count} business {unit}" if self.business else f"{self.count} {unit}"

    @property
    def days(self) -> int:
        per = {"days": 1, "weeks": 7, "months": 30, "years": 365}[self.unit]
        return self.count * per


def shown_duration(normal: str) -> str:
    """`24 months` → `24 months (2 years)`: how a person reads a duration in the grid."""
    count, _, unit = normal.partition(" ")
    if unit.startswith("month") and count.isdigit() and int(count) % 12 == 0 and int(count) >= 24:
        return f"{normal} ({int(count) // 12} years)"
    return normal


@cache
def _duration_pattern() -> re.Pattern[str]:
    g = grid_vocabulary()
    words = sorted(g.numbers, key=len, reverse=True)
    number = "|".join([r"\d{1,4}", *(compile_phrase(w) for w in words)])
    units = "|".join(f"(?P<{unit}>{g.units[unit].pattern.pattern})" for unit in g.units)
    fillers = g.words("duration_fillers").pattern.pattern
    return re.compile(
        rf"(?<![\w.,])(?P<num>{number})(?:\s*\((?P<digits>\d{{1,4}})\))?"
        rf"(?:\s+(?:{fillers}))?[\s\-]+(?:{units})",
        re.IGNORECASE)


def durations_in(text: str) -> list[Duration]:
    """Every duration in `text`: "36 months", "ninety (90) days", "24 Monaten", "quatre ans",
    "five Business Days" (kept apart from calendar days)."""
    out: list[Duration] = []
    g = grid_vocabulary()
    numbers, business = g.numbers, g.words("business_days")
    for m in _duration_pattern().finditer(text):
        raw = (m.group("digits") or m.group("num")).lower()
        count = int(raw) if raw.isdigit() else numbers.get(" ".join(raw.split()))
        if count is None:
            count = next((v for w, v in numbers.items() if " ".join(w.split()) == raw), None)
        unit = next(u for u in ("days", "weeks", "months", "years") if m.group(u))
        if count:
            out.append(Duration(count, unit, m.start(), m.end(),
                                business=unit == "days" and business.found(m.group(0))))
    return out


def multiple_in(text: str) -> int | None:
    """How many times a sentence multiplies what it measures by ("twice the Charges": 2)."""
    return next((times for times, words in grid_vocabulary().multiples.items()
                 if words.found(text)), None)


def notice_in(text: str) -> Duration | None:
    """The notice period a sentence gives: the duration nearest a notice word ("90 days'
    notice", "no later than six months before"), by the gap between them."""
    marks = [(m.start(), m.end()) for m in grid_vocabulary().words("notice").finditer(text)]
    found = durations_in(text)
    if not found or not marks:
        return None

    def gap(d: Duration) -> int:
        return min(start - d.end if d.end <= start else d.start - end if d.start >= end else 0
                   for start, end in marks)

    return min(found, key=gap)


def dates_in(text: str) -> list[tuple[date, int, int]]:
    return find_dates(text)


def money_in(text: str, *, language: str = "en") -> list[Amount]:
    """Currency amounts in `text`, read the way its language writes numbers."""
    comma = language in ("de", "fr", "es", "it", "nl")
    return [a for a in find_amounts(text, decimal_comma=comma) if a.currency and not a.unit]


def shown_money(value: float, currency: str) -> str:
    return f"{currency} {value:,.0f}" if value >= 1000 else format_amount(value, currency)


@dataclass(frozen=True)
class Cap:
    """A liability cap: an amount of money, or a measure of the charges."""

    amount: float
    unit: str  # "GBP", "% of annual charges", "months of charges"
    per: str | None
    text: str  # the words that state it

    @property
    def value(self) -> dict[str, str | float]:
        out: dict[str, str | float] = {"amount": self.amount, "unit": self.unit}
        if self.per:
            out["per"] = self.per
        return out

    @property
    def shown(self) -> str:
        if self.unit.isupper() and len(self.unit) == 3:
            text = shown_money(self.amount, self.unit)
        elif self.unit.startswith("%"):
            text = f"{self.amount:g}{self.unit}"
        else:
            text = f"{self.amount:g} {self.unit}"
        return f"{text} per {self.per}" if self.per else text


def cap_of(sentence: str, *, language: str = "en") -> Cap | None:
    """The cap a liability sentence states: money ("USD 5,000,000"), a share of the charges
    ("150% of the Charges paid … in that Contract Year") or months of them ("the Charges paid
    in the 12 months preceding"); None when it states no measure."""
    g = grid_vocabulary()
    per = _per(sentence)
    money = money_in(sentence, language=language)
    if money:
        first = money[0]
        return Cap(first.value, first.currency or "", per, first.text)
    charges = g.words("charges")
    if not charges.found(sentence):
        return None
    if times := multiple_in(sentence):  # "twice the Charges paid in the preceding Contract Year"
        return Cap(100.0 * times, "% of annual charges", per, sentence)
    for amount in find_amounts(sentence):
        if amount.unit == "%":
            return Cap(amount.value, "% of annual charges", per, amount.text)
    for duration in durations_in(sentence):
        if duration.months:
            return Cap(float(duration.months), "months of charges", None, sentence[
                duration.start:duration.end])
    if per in ("year", "contract year"):
        return Cap(100.0, "% of annual charges", per, sentence)
    return None


def _per(sentence: str) -> str | None:
    g = grid_vocabulary()
    if g.words("per_claim").found(sentence):
        return "claim"
    found = g.words("per_year").search(sentence)
    if found is None:
        return None
    return "contract year" if "contract" in found.group(0).lower() else "year"


_LAW_OF = re.compile(r"\blaws?\s+of\s+(?:the\s+)?(?:State\s+of\s+|Commonwealth\s+of\s+)?"
                     r"(?P<place>[A-Z][\w'’-]+(?:\s+(?:(?:and|of)\s+)?[A-Z][\w'’-]+){0,3})")


def jurisdiction_of(sentence: str) -> str | None:
    """The law's place a governing-law sentence names, as the vocabulary names places
    ("English law" → "England and Wales"); else the place after "the law(s) of"."""
    best: tuple[int, str] | None = None
    for place, words in grid_vocabulary().jurisdictions:
        found = words.search(sentence)
        if found is not None and (best is None or found.start() < best[0]):
            best = (found.start(), place)
    if best is not None:
        return best[1]
    found = _LAW_OF.search(sentence)
    return found.group("place") if found else None


def jurisdiction_words(place: str) -> Cues | None:
    for known, words in grid_vocabulary().jurisdictions:
        if known == place:
            return words
    return None


_WHO = {"either": "either party", "target": "the target", "counterparty": "the counterparty",
        "mutual": "both parties, by agreement"}


def shown_of(kind: str, value: object) -> str:
    """A normalised value as a person reads it in the grid ("Yes", "36 months (3 years)",
    "Automatic, 12 months; 90 days notice", "GBP 2,000,000", "Until 31 March 2028")."""
    if value is True:
        return "Yes"
    if value is False:
        return "No (excluded)" if kind == "renewal" else "No"
    if kind == "date" and isinstance(value, str):
        try:
            return f"{date.fromisoformat(value):%-d %B %Y}"
        except ValueError:
            return value
    if not isinstance(value, dict):
        return "Indefinite (until terminated)" if value == "indefinite" else str(value)
    if kind == "term":
        text = (f"Until {date.fromisoformat(str(value['until'])):%-d %B %Y}" if "until" in value
                else shown_duration(f"{int(float(value.get('months', 0)))} months"))
        if "start" in value:
            text += f" from {date.fromisoformat(str(value['start'])):%-d %B %Y}"
        return text
    if kind == "renewal":
        who = "Automatic" if value.get("automatic") else \
            f"Option ({_WHO.get(str(value.get('option')), 'a party')})"
        months = int(float(value.get("period_months", 0)))
        text = f"{who}, {shown_duration(f'{months} months')}"
        return text + (f"; {value['notice']} notice" if value.get("notice") else "")
    if kind == "termination":
        by = _WHO.get(str(value.get("by")), "a party")
        notice = value.get("notice")
        return f"Yes, {by}" + (f", {notice} notice" if notice and notice != "none" else
                               ", no notice" if notice == "none" else "")
    if kind in ("cap", "amount"):
        amount, unit = float(value.get("amount", 0)), str(value.get("unit", ""))
        per = f" per {value['per']}" if value.get("per") else ""
        return Cap(amount, unit, None, "").shown + per
    return str(value)
