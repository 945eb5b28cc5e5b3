"""Metrics stated in sentences: "Revenue for Q3 2024 was €5.2M", "156 employees as of 30 Sep 2024".

Within one sentence each amount goes to the nearest metric that takes that kind of number and to
the period bound to it ("€4.6M in Q3 2023", "Q3 2023: €4.6M"), else the nearest free period before
it; a sentence without a period borrows its heading's or the document's, for its first amount only
and only when it does not speak of another granularity ("quarterly revenue of ...").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from manda.finance.amount_heads import of_another, own_noun_end
from manda.finance.amounts import Amount, find_amounts, multiplied, unit_line_scale
from manda.finance.facilities import FacilityRole, FacilityStatement, facility_roles
from manda.finance.fiscal import FiscalYearEnd
from manda.finance.label_heads import another_thing_beside
from manda.finance.periods import (
    MONTH,
    MONTHS,
    RESPECTIVE_JOINERS,
    find_periods,
    month_period,
    period_end,
    period_sort_key,
    years_joined_after,
)
from manda.finance.signs import signed_as_named
from manda.finance.vocabulary import MetricSpec, find_subjects, metric_spec
from manda.ingest.extract.candidates import Candidate, SectionView, compared_with, says_forecast
from manda.ingest.extract.confidence import Evidence
from manda.ingest.extract.dedupe import canonical_entity, is_placeholder
from manda.ingest.extract.excerpts import paragraph_spans, sentence_spans
from manda.ingest.extract.names import find_orgs, is_person_name, org_before, strip_title
from manda.injection import looks_like_instruction
from manda.models import FindingKind, Nature
from manda.text import YEAR
from manda.vocabulary import vocabulary

T = TypeVar("T")

__all__ = ["as_of_for_stock", "prose_candidates", "signed_on"]

Period = tuple[str, int, int]

_WORDS = vocabulary()

# "£4.5m in 2024", "revenue was £4.5m": the words that bind an amount to the period beside it
_BOUND_AFTER = re.compile(rf"^\s+(?:{_WORDS.cues('period_after_amount').slot}\s+)?$", re.IGNORECASE)
# "£4.5m outstanding at 31 March 2024": a balance and the date it stood at.
_BALANCE_AT = _WORDS.cues("balance_at")


def _balance_at(gap: str) -> bool:
    """"£4.5m outstanding at 31 March 2024": between the amount and its date, a balance's words."""
    return bool(gap[:1].isspace() and gap[-1:].isspace() and _BALANCE_AT.fullmatch(gap))


_LABELS = re.compile(r"^\s*[:=]\s*$")
_BOUND_BEFORE = re.compile(rf"^\s*[:=]\s*$|^\s*{_WORDS.cues('amount_after_period').slot}\s+$",
                           re.IGNORECASE)
# a date of an event between an amount and its date ("£5m maturing on 30 June 2027")
_EVENT_GAP = _WORDS.cues("event_before_date")
# "the Credit Agreement dated March 14, 2023": when a document was signed, not a date a balance
# stood at
_DATED = _WORDS.cues("signed_on").around(tail=r"\s*$")
# "a $1.5 billion tranche with a maturity date of April 4, 2025": when it falls due, not the
# date its amount stood at
_FALLS_DUE = _WORDS.cues("falls_due_on").around(tail=r"\s*$")
# "… as of June 30, 2025." closing a sentence dates every balance it lists
_CLOSING_DATE = _WORDS.cues("closing_date_lead")
_GROWTH = _WORDS.cues("growth_words")
# "23.5% of total revenue", "23,5 % du chiffre d'affaires": a share of revenue
_OF_REVENUE = _WORDS.cues("of_revenue")
_SHARE_OF_REVENUE = _OF_REVENUE.around(head=r"\s+")
_APPROXIMATELY = rf"(?:(?i:{_WORDS.cues('approximately').pattern.pattern})\s*)?"
# "Globex accounts for about", "Alpha représente environ": the verb before a customer's share
_SHARE_VERB = _WORDS.cues("share_verbs").around(tail=rf"\s+{_APPROXIMATELY}$")
_STRONG_SHARE_VERB = _WORDS.cues("strong_share_verbs")  # says it without "of revenue" after
_TOP_N = _WORDS.cues("top_customers")  # "top 10 customers", "les dix premiers clients"
_LARGEST = _WORDS.cues("largest_customer")
# "Anna Schmidt holds", "la Holding détient", "die Holding hält": a holder before a stake
_OWN_VERB = _WORDS.cues("own_verbs").around(tail=rf"\s+{_APPROXIMATELY}$")
_SHARES = _WORDS.cues("shares_counted")  # "shares", "actions", "Aktien": a count, not money
_OWN_OBJECT = _WORDS.cues("own_objects")  # "of the shares", "du capital", "der Anteile"
# A bare count belongs to the metric before it only if no other noun follows: "headcount was 156."
# but not "customers in 12 countries".
_COUNT_ENDS = re.compile(rf"^\s*(?:$|[.,;:)\]|]|{_WORDS.cues('count_ends').slot})",
                         re.IGNORECASE)
# A limit, not a value: "must not exceed 3.0x", "at least EUR 2m", "top 10"
_NOT_A_VALUE = _WORDS.cues("limit_words").around(tail=r"[\s-]*$")
# A figure named as the wrong one: "previously reported as EUR 5.2m", "instead of 4.1"
_SUPERSEDED_VALUE = _WORDS.cues("superseded_before").around(tail=r"\s+$")
# A language that names the wrong figure before the verb that corrects it: "das … EBITDA von
# 4.870 TEUR ist zu korrigieren", "l'EBE de 1 240 K€ est corrigé" (the stated corrections' words)
_SUPERSEDED_AFTER = _WORDS.cues("correction_verb_last").around(head=r"\s*(?:\([^)]{0,40}\)\s*)?")
# "a $6.3 billion decrease in repayments of debt": a change of what follows, not a level
_CHANGE_AFTER = _WORDS.cues("change_noun_after_figure").around(head=r"\s+")
# "US$1.65 million is professional services revenue": a part of the metric named after the
# amount (qualifying words before the metric's own name), not the metric itself
_PART_VERB = _WORDS.cues("part_copula").around(head=r"\s+")
_QUALIFIER = re.compile(r"\s+(?:[^\W\d][\w-]*\s+){1,3}")
_RANGE_GAP = re.compile(r"^\s*(?:[-–—]|to)\s*$", re.IGNORECASE)
# a sentence that speaks of another granularity than the period it would borrow
_QUARTER_WORDS = _WORDS.cues("quarter_words")
_HALF_WORDS = _WORDS.cues("half_year_words")
_MONTH_WORDS = _WORDS.cues("month_words")
_FORECAST_HEADING = _WORDS.cues("forecast_heading")
# "proceeds from sales and maturities of marketable securities of $5.4 billion": the line item
# named right after these words is what a cash receipt or a gain came from, not that line item
_RECEIPT_OF = _WORDS.cues("receipt_of").around(tail=r"\s*$")
_UNIT_BY_KIND = {"percent": "%", "ratio": "x"}
_SCHEDULE = _WORDS.cues("schedule_bucket")


def signed_on(text: str) -> str | None:
    """The date an agreement is dated ("dated as of March 14, 2023" → "as of 2023-03-14"), from
    its opening: what its commitments are stated at."""
    for period, start, _ in find_periods(text):
        if period.startswith("as of") and _DATED.search(text[max(0, start - 30) : start]):
            return period
    return None


_LIST_JOINERS = frozenset(_WORDS.words("list_joiners")) | RESPECTIVE_JOINERS  # "and", "bzw."
# "12,4 Mio. € (Vorjahr: 10,1 Mio. €)", "10,1 M€ l'année précédente": the year before's amount,
# named so before or after it
_PRIOR_YEAR_BEFORE = _WORDS.cues("prior_year").around(tail=r"\s*[:=]?\s*$")
_PRIOR_YEAR_AFTER = _WORDS.cues("prior_year").around(head=r"\s+(?:[^\W\d]{1,5}['’\s]+){0,2}")
_RESPECTIVELY = _WORDS.cues("respectively")  # "respectively", "respectivement", "bzw."


def _runs(items: Sequence[T], span: Callable[[T], tuple[int, int]], text: str
          ) -> list[list[T]]:
    """`items` (in reading order) cut into lists: runs with only a comma or a joiner between."""
    runs: list[list[T]] = []
    for item in items:
        if runs and _only_joiners(text[span(runs[-1][-1])[1]:span(item)[0]]):
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _linking(gap: str) -> bool:
    """A word or two between a list of amounts and what they are of ("of", "in")."""
    words = gap.split()
    return 0 < len(words) <= 2 and all(w.isalpha() and w.islower() for w in words)


def _list_parts(text: str, start: int, end: int, n: int
                ) -> list[tuple[str, int, int] | None] | None:
    """A wording that is itself a list, cut at its last `n - 1` joiners into `n` items, each
    with the line item it starts with (None for an item that names none): "cash and cash
    equivalents" and "short-term investments" of "cash and cash equivalents and short-term
    investments". None when it has fewer joiners."""
    cuts: list[tuple[int, int]] = []  # each joiner's place: a comma, a joiner word, or both
    at = start
    for word in text[start:end].split():
        i = text.index(word, at)
        at = i + len(word)
        if word.rstrip(",").lower() in _LIST_JOINERS:
            cut = (i, at)
        elif word.endswith(","):
            cut = (at - 1, at)
        else:
            continue
        if cuts and not text[cuts[-1][1]:cut[0]].strip():
            cuts[-1] = (cuts[-1][0], cut[1])  # ", and" is one joiner
        else:
            cuts.append(cut)
    if len(cuts) < n - 1:
        return None
    bounds = [start, *(c for cut in cuts[len(cuts) - (n - 1):] for c in cut), end]
    parts: list[tuple[str, int, int] | None] = []
    for a, b in zip(bounds[::2], bounds[1::2], strict=True):
        lead = a + len(text[a:b]) - len(text[a:b].lstrip())
        found = [f for f in find_subjects(text[lead:b].rstrip()) if f[1] == 0]
        parts.append((found[0][0], lead, lead + found[0][2]) if found else None)
    return parts


def _only_joiners(gap: str) -> bool:
    """Between two items of one list: a comma or a joiner only (", and ", " or "), not a space
    alone ("Cash capital expenditures" is one thing)."""
    words = gap.replace(",", " ").split()
    if not words:
        return "," in gap
    return len(words) == 1 and words[0].lower() in _LIST_JOINERS


def as_of_for_stock(spec: MetricSpec, period: str | None,
                    fiscal_year_end: FiscalYearEnd | None = None) -> str | None:
    """A balance (cash, headcount) is stated at a date: "Q3 2024" → "as of 2024-09-30".

    "FY2024" ends on the company's fiscal year end when it is known (31 March → 2024-03-31).
    """
    if not spec.stock or period is None or period.startswith("as of"):
        return period
    end = period_end(period, fiscal_year_end.key if fiscal_year_end else None)
    return f"as of {end.isoformat()}" if end else period


def _compatible(spec: MetricSpec, amount: Amount) -> bool:
    if spec.unit_kind == "currency":
        return amount.unit is None and (
            amount.currency is not None or multiplied(amount.text)
        )
    if spec.unit_kind == "percent":
        return amount.unit == "%"
    if spec.unit_kind == "ratio":
        return amount.unit == "x"
    if amount.unit == "people":
        return spec.group == "headcount"
    return (
        amount.unit is None and amount.currency is None and amount.value == int(amount.value)
        and amount.value >= 0 and not multiplied(amount.text)
    )


@dataclass(frozen=True)
class _Value:
    """An amount as stated, or a range ("€20.0M–€20.5M") read as its midpoint."""

    amount: Amount
    low: float | None = None
    high: float | None = None
    # a level a change moved from ("earlier") or to ("later"): "decreased from 28.5% to 19.4%"
    move: str = ""


def _range(text: str, a: Amount, b: Amount) -> _Value | None:
    """ "€20.0M–€20.5M", "10–12%", "€3.6–3.9M" as one value (the midpoint) with its bounds."""
    if not _RANGE_GAP.match(text[a.end : b.start]):
        return None
    if not (a.unit == b.unit or (a.unit is None and b.unit == "%" and a.currency is None)):
        return None
    if multiplied(a.text) or b.unit == "%" or not multiplied(b.text):
        low = a.value
    else:
        low = a.value * _scale_of(b)
    merged = Amount((low + b.value) / 2, b.currency or a.currency, b.unit,
                    text[a.start : b.end], a.start, b.end)
    return _Value(merged, low, b.value)


_MOVED_FROM = _WORDS.cues("moved_from")  # "decreased from", "est passée de", "von", "pasó del"
_MOVED_TO = _WORDS.cues("moved_to")  # "to", "à", "auf", "al"
_CHANGED_BY = _WORDS.cues("change_by") | _WORDS.cues("change_verb_before_figure")
# the later level first: "increased to 45.2% from 43.1%", "aumentó al 12 % desde el 10 %"
_MOVED_TO_FIRST = _WORDS.cues("moved_to_first")
_MOVED_FROM_AFTER = _WORDS.cues("moved_from_after")


def _moved(text: str, start: int, a: Amount, b: Amount) -> tuple[_Value, _Value] | None:
    """Two levels of one change, not a range: "gross margin decreased from 28.5% to 19.4%"
    ("increased to 45.2% from 43.1%": the later level first),
    "passed from 12% in 2022 to 15% in 2023", "stieg von 8,1 % auf 9,4 %", "pasó del 10 % al
    12 %" (the earlier level, then the later); "decreased $1.5 billion to $87.6 billion" (a
    change by the first amount, then the level it reached). None when the words say neither."""
    gap = text[a.end:b.start].strip()
    if (a.unit == "%") == (b.unit == "%") and _MOVED_TO_FIRST.ends(text[start:a.start]) and (
            back := _MOVED_FROM_AFTER.search(gap)) is not None and back.end() == len(gap) \
            and len(gap.split()) <= 4:
        return _Value(a, move="later"), _Value(b, move="earlier")
    to = _MOVED_TO.search(gap)
    if to is None or to.end() != len(gap) or len(gap[:to.start()].split()) > 6 or \
            (a.unit == "%") != (b.unit == "%"):
        return None
    before = text[start:a.start]
    if _MOVED_FROM.ends(before):
        return _Value(a, move="earlier"), _Value(b, move="later")
    if _CHANGED_BY.ends(before) and not gap[:to.start()].strip():
        return _Value(a), _Value(b)  # the change by an amount, then the level it reached
    return None


def _values(text: str, amounts: Sequence[Amount], start: int = 0) -> list[_Value]:
    out: list[_Value] = []
    i = 0
    while i < len(amounts):
        moved = _moved(text, start, amounts[i], amounts[i + 1]) if i + 1 < len(amounts) \
            else None
        if moved is not None:
            out.extend(moved)
            i += 2
            continue
        pair = _range(text, amounts[i], amounts[i + 1]) if i + 1 < len(amounts) else None
        if pair is not None:
            out.append(pair)
            i += 2
        else:
            out.append(_Value(amounts[i]))
            i += 1
    return out


def _scale_of(amount: Amount) -> float:
    """The multiplier an amount was written with ("€20.5M" → 1e6), from value and digits."""
    digits = re.sub(r"[^\d.]", "", amount.text.replace(",", ""))
    try:
        stated = float(digits)
    except ValueError:
        return 1.0
    return amount.value / stated if stated else 1.0


def _start(span: tuple[str, int, int]) -> int:
    return span[1]


def _within(items: Sequence[T], key: Callable[[T], int], start: int, end: int) -> list[T]:
    """Items (in order of `key`) whose key lies in [start, end): by bisection, so reading a
    section stays linear in its length however many sentences it has."""
    lo = bisect.bisect_left(items, start, key=key)
    hi = bisect.bisect_left(items, end, key=key)
    return list(items[lo:hi])


class _Sentence:
    """One sentence's amounts, periods and metric names, positions in the section's text."""

    def __init__(self, view: SectionView, span: tuple[int, int], amounts: Sequence[Amount],
                 periods: Sequence[Period], subjects: Sequence[tuple[str, int, int]],
                 forecast_heading: bool) -> None:
        self.view = view
        self.span = span
        start, end = span
        self.text = view.text[start:end]
        inside = _within(amounts, lambda a: a.start, start, end)
        inside = [a for a in inside if a.end <= end]
        self.values = _values(view.text, inside, start)
        self.moves = {v.amount.start: v.move for v in self.values if v.move}
        # "$7.5 billion and $10.5 billion": where each amount's list starts
        self.listed_from = {a.start: run[0].start for run in _runs(
            [v.amount for v in self.values], lambda a: (a.start, a.end), view.text) for a in run}
        self.periods = [p for p in _within(periods, _start, start, end) if p[2] <= end]
        # "im Geschäftsjahr 2025 bzw. 2024", "exercices 2025 et 2024": the years listed after one
        listed = [y for p in self.periods
                  if p[0][:2] == "FY" and view.text[p[2] - 4:p[2]] == p[0][2:]
                  for y in years_joined_after(view.text, p[2])]
        self.periods = sorted([*self.periods, *(y for y in listed if y[2] <= end and not any(
            q[1] < y[2] and y[1] < q[2] for q in self.periods))], key=_start)
        if not self.periods and self.values and YEAR.search(self.text):
            self.periods = [(p, s + start, e + start)
                            for p, s, e in find_periods(self.text, bare_years=True)]
        self.subjects = [s for s in _within(subjects, _start, start, end) if s[2] <= end]
        self.periods = sorted([*self.periods, *self._years_after_subjects()], key=_start)
        if self.values and view.period is None and view.issued:
            # "la cifra de negocios de diciembre …, y la del ejercicio 2025": a month named
            # beside its subject, even where the sentence states other periods too
            months = [p for p in _months_before(self.text, start, view.issued)
                      if any(-15 <= p[1] - s[2] <= 15 or 0 <= s[1] - p[2] <= 15
                             for s in self.subjects)
                      and not any(q[1] < p[2] and p[1] < q[2] for q in self.periods)]
            self.periods = sorted([*self.periods, *months], key=_start)
        # "2022 $ 27 2023 27 … Thereafter 4,231": a schedule's amounts fall due in its years (three
        # or more, and a bucket after them), no balance stood at them; "US$14.9 million at 31
        # January 2025 (2024: US$11.2 million), of which US$1.66 million falls due after more
        # than one year" is a balance and its split
        self.schedule = (len(self.values) >= 3 and len(set(YEAR.findall(self.text))) >= 3
                         and _SCHEDULE.found(self.text))
        self.planned = view.forecast or forecast_heading  # the whole section is plans
        self.forecast = self.planned or says_forecast(self.text)
        self.bound = self._bind()
        self.unnamed: set[int] = set()  # a list's amounts whose item is no line item
        self.respective = self._respective_subjects()
        self.inherited: set[str] = set()
        self.undated: set[str] = set()  # subjects already given an amount without a period
        self.paragraph = view.text[max(0, start - 300) : end]  # what the sentence follows on

    def _years_after_subjects(self) -> list[Period]:
        """A year written right after its line item ("Der Umsatz 2024 betrug …", "Revenue 2024
        was …", "Le chiffre d'affaires 2024 atteint …"): that line item's fiscal year, which the
        words between it and the amount then bind."""
        text = self.view.text
        years: list[Period] = []
        for _, _, subject_end in self.subjects:
            gap = len(text) - len(text[subject_end:self.span[1]].lstrip())
            m = YEAR.match(text, gap) if 0 < gap - subject_end <= 2 else None
            if m is not None and not any(q[1] < m.end() and m.start() < q[2]
                                         for q in self.periods):
                years.append((f"FY{m.group(1)}", m.start(), m.end()))
        return years

    def _bind(self) -> dict[int, Period]:
        """Periods written right next to an amount: "€4.6M in Q3 2023", "Q3 2023: €4.6M"."""
        text = self.view.text
        bound: dict[int, Period] = {}
        # "(31 January 2024: US$25.0m)": a date that labels its own amount, a comparative's,
        # dates no other amount of the sentence
        self.labels: set[int] = set()
        bound.update(self._respective())
        self.prior = {v.amount.start for v in self.values if v.amount.start not in bound and (
            _PRIOR_YEAR_BEFORE.search(text, max(self.span[0], v.amount.start - 40),
                                      v.amount.start)
            or _PRIOR_YEAR_AFTER.match(text, v.amount.end, self.span[1]))}
        for v in self.values:
            a = v.amount
            if a.start in bound:
                continue
            for p in self.periods:
                if p[1] >= a.end and (
                        (p[1] - a.end <= 12 and _BOUND_AFTER.match(text[a.end : p[1]]))
                        or _balance_at(text[a.end : p[1]])):
                    bound[a.start] = p
                    break
                if p[2] <= a.start and _BOUND_BEFORE.match(text[p[2] : a.start]):
                    bound[a.start] = p
                    if _LABELS.match(text[p[2] : a.start]):
                        self.labels.add(p[1])
                    break
        return bound

    def _respective(self) -> dict[int, Period]:
        """A list of amounts followed by as many periods ("$77.7 billion and $128.3 billion in
        2024 and 2025[, respectively]"): each amount is its own period's, in order, not all
        the nearest one's."""
        text = self.view.text
        amounts = [v.amount for v in self.values]
        out: dict[int, Period] = {}
        i = 0
        while i < len(amounts):
            run = [amounts[i]]
            while i + len(run) < len(amounts) and _only_joiners(
                    text[run[-1].end:amounts[i + len(run)].start]):
                run.append(amounts[i + len(run)])
            i += len(run)
            if len(run) < 2:
                continue
            listed: list[Period] = []
            for p in (p for p in self.periods if p[1] >= run[-1].end):
                if not (_only_joiners(text[listed[-1][2]:p[1]]) if listed
                        else _BOUND_AFTER.match(text[run[-1].end:p[1]])):
                    break
                listed.append(p)
            if len(listed) != len(run):
                listed = self._listed_before(run)
            if len(listed) == len(run):
                out.update({a.start: p for a, p in zip(run, listed, strict=True)})
        return out

    def _listed_before(self, run: list[Amount]) -> list[Period]:
        """The periods listed before a list of amounts that "respectively" follows ("As of
        September 27, 2025 and September 28, 2024, the notes' fair value was $80.4 billion and
        $88.4 billion, respectively"; "En 2025 et 2024, … respectivement"): the last list of
        periods before them, in order; none where no "respectively" says so, after the list or
        between its items ("2025 bzw. 2024 auf 12,4 Mio. € bzw. 10,1 Mio. €")."""
        text = self.view.text
        if not _RESPECTIVELY.found(text[run[0].end:self.span[1]]):
            return []
        before = [p for p in self.periods if p[2] <= run[0].start]
        if before and any(before[-1][2] <= v.amount.start < run[0].start for v in self.values):
            return []  # the periods' own amounts came first; a later list's are not read so
        listed = before[-1:]
        for p in reversed(before[:-1]):
            if not _only_joiners(text[p[2]:listed[0][1]]):
                break
            listed.insert(0, p)
        return listed

    def _respective_subjects(self) -> dict[int, tuple[str, int, int]]:
        """A list of line items and a list of as many amounts ("Revenue and gross profit were
        $5.0 million and $2.1 million, respectively"): each amount is its own line item's, in
        order, not all the nearest one's."""
        text = self.view.text
        subjects = sorted(self.subjects, key=_start)
        runs = _runs(subjects, lambda s: (s[1], s[2]), text)
        amounts = _runs([v.amount for v in self.values], lambda a: (a.start, a.end), text)
        out: dict[int, tuple[str, int, int]] = {}
        for named in (r for r in runs if len(r) >= 2):
            listed = next((r for r in amounts if len(r) == len(named)
                           and r[0].start > named[-1][2]), None) or next(
                (r for r in amounts if len(r) == len(named) and r[-1].end <= named[0][1]
                 and _linking(text[r[-1].end:named[0][1]])
                 and _RESPECTIVELY.found(text[named[-1][2]:self.span[1]])), None)
            if listed is not None:
                out.update({a.start: s for a, s in zip(listed, named, strict=True)})
        out.update(self._one_wording_listed(runs, amounts))
        return out

    def _one_wording_listed(self, runs: list[list[tuple[str, int, int]]],
                            amounts: list[list[Amount]]) -> dict[int, tuple[str, int, int]]:
        """A list of amounts before one line item's wording that is itself a list ("$7.2
        billion and $5.1 billion of cash and cash equivalents and short-term investments,
        respectively"): each amount is its own item's, and an item that is no line item
        ("short-term investments") gives its amount none (`unnamed`), never the wording's."""
        text = self.view.text
        periods = self._respective()
        out: dict[int, tuple[str, int, int]] = {}
        for _, start, end in (r[0] for r in runs if len(r) == 1):
            listed = next((r for r in amounts if len(r) >= 2 and r[-1].end <= start
                           and _linking(text[r[-1].end:start])), None)
            after = _RESPECTIVELY.pattern.search(text, end, self.span[1])
            if listed is None or any(a.start in periods for a in listed) or after is None or \
                    any(end <= p[1] < after.start() for p in self.periods) or \
                    YEAR.search(text, end, after.start()):
                continue  # "… in 2025 and 2024, respectively": the amounts are the periods'
            parts = _list_parts(text, start, end, len(listed))
            if parts is None:
                continue
            for amount, part in zip(listed, parts, strict=True):
                if part is None:
                    self.unnamed.add(amount.start)
                else:
                    out[amount.start] = part
        return out

    def period(self, amount: Amount, subject: str) -> tuple[str | None, Evidence, float] | None:
        """The amount's period, how it was stated, a penalty; None for a list's later items."""
        if amount.start in self.prior:
            # "(Vorjahr: 10,1 Mio. €)": the year before the sentence's latest year, or none
            years = [int(p[0][2:]) for p in self.periods if p[0][:2] == "FY" and p[0][2:].isdigit()]
            return (f"FY{max(years) - 1}", "statement", 0.0) if years else None
        move = self.moves.get(amount.start)
        if move and amount.start not in self.bound:
            # a change's two levels: the later one is the sentence's latest period's, the
            # earlier one the period before it, when the sentence names one (else unknown)
            named = sorted({p[0] for p in self.periods}, key=period_sort_key)
            latest = named[-1] if named else ""
            if latest.startswith("FY") and latest[2:].isdigit():
                # "… to 25% in 2024, compared with 2023": a bare year compared with names one
                named = sorted({*named, *(f"FY{y}" for y in YEAR.findall(self.text)
                                          if int(y) < int(latest[2:]))},
                               key=period_sort_key)
            if move == "later" and named:
                return named[-1], "statement", 0.0
            if move == "earlier":
                return (named[-2], "statement", 0.0) if len(named) >= 2 else None
        found = self._explicit(amount)
        if found is not None:
            return found[0], "statement", 0.0
        return self._inherit(subject)

    def _explicit(self, amount: Amount) -> Period | None:
        if amount.start in self.bound:
            return self.bound[amount.start]
        taken = {p[1] for key, p in self.bound.items()
                 if key != amount.start and (not p[0].startswith("as of") or p[1] in self.labels)}
        text = self.view.text
        free = [p for p in self.periods if p[1] not in taken
                and not _DATED.search(text[max(0, p[1] - 30) : p[1]])
                and not _FALLS_DUE.search(text[max(0, p[1] - 30) : p[1]])]
        before = [p for p in free if p[2] <= amount.start]
        if before:
            return before[-1]
        after = [
            p for p in free
            if p[1] >= amount.end and p[1] - amount.end <= 45
            and not _EVENT_GAP.search(text[amount.end : p[1]])
        ]
        if after:
            return after[0]
        closing = [p for p in free if p[1] >= amount.end and p[0].startswith("as of")
                   and _CLOSING_DATE.pattern.match(text[p[1] : p[2]])
                   and not text[p[2] : self.span[1]].strip(" .;)")]
        return closing[0] if closing else None

    def signed_before(self, amount: Amount) -> str | None:
        """The date an agreement named before the amount is dated ("… dated 14 June 2023: …")."""
        text = self.view.text
        dated = [p[0] for p in self.periods if p[2] <= amount.start and p[0].startswith("as of")
                 and _DATED.search(text[max(0, p[1] - 30) : p[1]])]
        return dated[-1] if dated else None

    def _inherit(self, subject: str) -> tuple[str | None, Evidence, float] | None:
        view = self.view
        period = view.period
        if subject in self.inherited or subject in self.undated:
            return None  # a list of amounts: only the first one is read
        if period is None or _MONTH_WORDS.search(self.text):
            self.undated.add(subject)
            return None, "mention", 0.0
        if (_QUARTER_WORDS.search(self.text) and not period.startswith("Q")) or (
            _HALF_WORDS.search(self.text) and not period.startswith("H")
        ):
            self.undated.add(subject)
            return None, "mention", 0.0
        self.inherited.add(subject)
        if view.period_source == "heading":
            return period, "statement", 0.02
        if view.periodic:
            return period, "statement", 0.04
        return period, "narrative", 0.03


# ", excluding one-off costs,": an aside whose words belong to no amount after it
_ASIDE = _WORDS.cues("aside_openers").around(head=r",\s*", tail=r"[^,]*,")


def _months_before(text: str, offset: int, issued: date) -> list[Period]:
    """"La cifra de negocios de diciembre queda corregida en 5.190" in an e-mail of 10 February
    2026: a month named without its year, in a dated document that reports on no period of its
    own, is the latest such month up to the document's date (December 2025)."""
    out: list[Period] = []
    for m in _MONTH_NAME.finditer(text):
        if YEAR.match(text[m.end():m.end() + 12].lstrip(" ,.'’-de")):
            continue  # "diciembre de 2025" is a period of its own
        month = MONTHS[m.group(0).lower().rstrip(".")]
        year = issued.year if month <= issued.month else issued.year - 1
        out.append((month_period(year, month), m.start() + offset, m.end() + offset))
    return out


_MONTH_NAME = re.compile(rf"(?<![\w]){MONTH}(?![\w])", re.IGNORECASE)


def _group(subject: str) -> str:
    spec = metric_spec(subject)
    return spec.group if spec is not None else subject


def _subject_for(amount: Amount, subjects: Sequence[tuple[str, int, int]], text: str,
                 bound: bool = False) -> tuple[str, int, int] | None:
    if amount.unit == "people":
        near = [s for s in subjects if (spec := metric_spec(s[0])) and spec.group == "headcount"]
        return near[0] if near else ("headcount", amount.start, amount.end)
    # "we repurchased 69 million shares and 95 million shares …": a number of shares, not money
    shares = amount.currency is None and _SHARES.begins(text[amount.end:amount.end + 40].lstrip())
    fitting = [
        s for s in subjects
        if (spec := metric_spec(s[0])) is not None and _compatible(spec, amount)
        and not (shares and spec.unit_kind == "currency")
    ]
    bare_count = (
        amount.unit is None and amount.currency is None and not multiplied(amount.text)
    )
    reach = 90 if bound else 30
    lead_start = min((s[1] for s in subjects), default=amount.start)
    asides = [m.span() for m in _ASIDE.finditer(text, lead_start, amount.start)]
    before = [
        s for s in fitting
        if s[2] <= amount.start
        and not any(a <= s[1] < b for a, b in asides)
        and (
            not bare_count
            or (amount.start - s[2] <= reach
                and _COUNT_ENDS.match(text[amount.end : amount.end + 20]))
        )
    ]
    if before:
        return before[-1]
    limit = 3 if bare_count else 40
    # "fines of up to €20 million or 4% of total revenue": a metric named after a nearer amount
    # is that amount's
    after = [s for s in fitting if s[1] >= amount.end and s[1] - amount.end <= limit
             and not find_amounts(text[amount.end:s[1]])]
    if after:
        # "Effectif moyen de l'exercice : 186 salariés": the noun after a count names what is
        # counted; the metric of its family named just before is what the count states
        kin = [s for s in fitting if s[2] <= amount.start and amount.start - s[2] <= reach
               and _group(s[0]) == _group(after[0][0])]
        return kin[-1] if kin else after[0]
    if amount.unit == "%":
        prior = [s for s in subjects if s[2] <= amount.start and s[0] == "revenue"]
        if prior and _GROWTH.search(text[prior[-1][2] : amount.start]):
            return ("revenue growth", prior[-1][1], prior[-1][2])
    return None


def _a_named_part(text: str, amount: Amount, subjects: Sequence[tuple[str, int, int]]) -> bool:
    """The amount is a part of a metric the words after it name ("… is subscription revenue"),
    so it is neither the metric's total nor the metric named before it."""
    verb = _PART_VERB.match(text, amount.end)
    return verb is not None and any(
        _QUALIFIER.fullmatch(text, verb.end(), start) for _, start, _ in subjects
        if start > verb.end())


def _nature(sentence: _Sentence, amount: Amount) -> Nature:
    """A forecast when the section is one of plans, or the forecast's words govern the amount:
    they stand before it in its sentence ("net sales are expected to be between $173.5 billion
    and …") or after it in its own clause ("capex of $5 billion is expected"). An amount stated
    as a result in a sentence that goes on to a plan ("capital expenditures were $77.7 billion,
    which we expect to increase") is an actual."""
    if sentence.planned:
        return Nature.FORECAST
    text = sentence.view.text
    start, end = sentence.span
    if not sentence.forecast or compared_with(text[start:amount.start]):
        return Nature.ACTUAL  # "…, compared with $18.4 billion in the first quarter"
    ends = [at for mark in _CLAUSE_ENDS if (at := text.find(mark, amount.end, end)) != -1]
    governed = text[start:min(ends, default=end)]
    return Nature.FORECAST if says_forecast(governed) else Nature.ACTUAL


_CLAUSE_ENDS = (", ", "; ", ": ", " – ", " — ", " - ", "(")  # where a clause ends


def _range_attributes(value: _Value) -> dict[str, str]:
    if value.low is None or value.high is None:
        return {}
    return {"range_low": f"{value.low:g}", "range_high": f"{value.high:g}"}


def _metric(sentence: _Sentence, value: _Value, subject: tuple[str, int, int]
            ) -> Candidate | None:
    spec = metric_spec(subject[0])
    if spec is None or (spec.stock and sentence.schedule):
        return None
    amount = value.amount
    dated = sentence.period(amount, f"{spec.subject}@{subject[1]}")
    if dated is None:
        return None
    period, evidence, penalty = dated
    kind = {
        "headcount": FindingKind.HEADCOUNT,
        "customer concentration": FindingKind.CUSTOMER,
    }.get(spec.subject, FindingKind.METRIC)
    if spec.unit_kind == "currency":
        unit = amount.currency or sentence.view.currency
    elif spec.unit_kind == "count":
        unit = "people" if spec.group == "headcount" else None
    else:
        unit = _UNIT_BY_KIND[spec.unit_kind]
    return Candidate(
        kind=kind,
        subject=spec.subject,
        label=spec.label,
        section=sentence.view.index,
        core=(amount.start, amount.end),
        bounds=sentence.span,
        anchor=(subject[1], subject[2]),
        evidence=evidence,
        period=as_of_for_stock(spec, period, sentence.view.fiscal_year_end),
        value=abs(amount.value) if spec.cost else _signed(spec, amount, sentence, subject),
        unit=unit,
        value_text=amount.text,
        attributes=_range_attributes(value),
        nature=_nature(sentence, amount),
        penalty=penalty,
    )


def _signed(spec: MetricSpec, amount: Amount, sentence: _Sentence,
            subject: tuple[str, int, int]) -> float:
    """"a net loss of $1.0 billion": an amount of a line named by its loss is a negative one."""
    if spec.unit_kind != "currency":
        return amount.value
    text = sentence.view.text  # "Adjusted EBITDA loss was $774 million": its own noun says
    return signed_as_named(amount.value, text[subject[1]:own_noun_end(text, subject[2])])


_FACILITY_SUBJECT = {FacilityRole.LIMIT: "facility limit", FacilityRole.DRAWN: "debt",
                     FacilityRole.HEADROOM: "facility headroom"}
_FACILITY_LABEL = {FacilityRole.LIMIT: "limit", FacilityRole.DRAWN: "drawn",
                   FacilityRole.HEADROOM: "headroom"}


def _facility(sentence: _Sentence, value: _Value, statement: FacilityStatement
              ) -> Candidate | None:
    """A facility's limit, drawn amount or headroom: the drawn amount is debt of that facility
    (its own fact, beside the total), the others are not debt at all."""
    # what is drawn on a revolver is the balance line a table calls "RCF drawn" ("revolver"),
    # so a sentence and a table stating it for the same date agree or conflict
    revolver = (statement.role is FacilityRole.DRAWN
                and statement.facility == "revolving credit facility")
    subject = ("revolver" if revolver else _FACILITY_SUBJECT[statement.role], *statement.named_at)
    candidate = _metric(sentence, value, subject)
    if candidate is None:
        return None
    name = statement.facility
    if statement.role is FacilityRole.LIMIT:
        # a loan's size is what was agreed when the agreement was dated ("Facilities agreement
        # dated 14 June 2023: a term loan of £5.0m", "… in an aggregate principal amount of")
        signed = sentence.signed_before(value.amount)
        if signed is not None and (candidate.period is None or not statement.drawable):
            candidate.period = signed
        elif candidate.period is None and sentence.view.signed:
            candidate.period = sentence.view.signed
            candidate.evidence = "narrative"
    candidate.entity = None if revolver else name
    what = _FACILITY_LABEL[statement.role]
    if statement.role is FacilityRole.LIMIT and not statement.drawable:
        # a term loan's size when it was made
        what = "original principal" if statement.principal else "facility amount"
    candidate.label = f"{name[:1].upper()}{name[1:]} {what}"
    candidate.attributes = {**candidate.attributes, "facility": name}
    return candidate


def _customer_share(sentence: _Sentence, value: _Value) -> Candidate | None:
    amount = value.amount
    text = sentence.view.text
    if amount.unit != "%":
        return None
    earlier = [v.amount.end for v in sentence.values
               if v.amount.end <= amount.start and (v.amount.unit or v.amount.currency)]
    lead_start = max([sentence.span[0], *earlier])
    lead = text[lead_start : amount.start]
    of_revenue = bool(_SHARE_OF_REVENUE.match(text, amount.end, sentence.span[1]))
    if not of_revenue and not (
        _SHARE_VERB.search(lead) and _STRONG_SHARE_VERB.found(lead)
        and _OF_REVENUE.found(sentence.paragraph)
    ):
        return None
    entity: tuple[str, int, int] | None = None
    orgs = find_orgs(lead)
    if orgs:
        name, s, e = orgs[-1]
        entity = (name, s + lead_start, e + lead_start)
    elif (verb := _SHARE_VERB.search(lead)) is not None:
        found = org_before(text, lead_start + verb.start())
        if found is not None and found[1] >= lead_start:
            entity = found
    top = _TOP_N.search(lead)
    if entity is not None and (
        is_placeholder(entity[0]) or _TOP_N.search(entity[0])
        or entity[0].lower().startswith(("top", "largest", "customer"))
    ):
        entity = None
    if entity is None and top is None and not _LARGEST.search(lead):
        return None
    period, evidence, penalty = sentence.period(amount, f"customer:{amount.start}") or (
        None, "mention", 0.0)
    attributes: dict[str, str] = {}
    if entity is not None:
        key, label = canonical_entity(entity[0], "organisation"), f"{entity[0]} share of revenue"
    elif top is not None:
        n = next((str(n) for word in top.group(0).replace("-", " ").split()
                  if (n := _WORDS.number(word)) is not None), top.group(0))
        key, label = f"top {n}", f"Top {n} customers' share of revenue"
        attributes["scope"] = f"top {n} customers"
    else:
        key, label = "largest", "Largest customer's share of revenue"
        attributes["scope"] = "largest customer"
    return Candidate(
        kind=FindingKind.CUSTOMER,
        subject=f"customer concentration:{key}",
        label=label,
        section=sentence.view.index,
        core=(amount.start, amount.end),
        bounds=sentence.span,
        anchor=(entity[1], entity[2]) if entity else None,
        evidence=evidence,
        period=period,
        value=amount.value,
        unit="%",
        value_text=amount.text,
        entity=entity[0] if entity else None,
        attributes=attributes,
        nature=_nature(sentence, amount),
        penalty=penalty,
    )


def _ownership(sentence: _Sentence, value: _Value) -> Candidate | None:
    amount = value.amount
    text = sentence.view.text
    if amount.unit != "%" or not _OWN_OBJECT.begins(text[amount.end : sentence.span[1]]):
        return None
    verb = _OWN_VERB.search(text[sentence.span[0] : amount.start])
    if verb is None:
        return None
    holder = org_before(text, sentence.span[0] + verb.start())
    if holder is None or holder[1] < sentence.span[0] or is_placeholder(holder[0]):
        return None
    name = strip_title(holder[0]) if is_person_name(holder[0]) else holder[0]
    period, evidence, penalty = sentence.period(amount, f"ownership:{amount.start}") or (
        None, "mention", 0.0)
    return Candidate(
        kind=FindingKind.OWNERSHIP,
        subject=f"ownership:{canonical_entity(name)}",
        label=f"{name} ownership",
        section=sentence.view.index,
        core=(amount.start, amount.end),
        bounds=sentence.span,
        anchor=(holder[1], holder[2]),
        evidence="narrative" if evidence == "statement" else evidence,
        period=period,
        value=amount.value,
        unit="%",
        value_text=amount.text,
        entity=name,
        penalty=penalty,
    )


def _forecast_headings(text: str) -> list[tuple[int, bool]]:
    """(offset, is a forecast heading) for each heading-like line of a section."""
    out: list[tuple[int, bool]] = []
    pos = 0
    for line in text.split("\n"):
        stripped = line.strip()
        words = stripped.split()
        if (
            0 < len(words) <= 6 and not stripped.endswith((".", ",", ";", ":"))
            and " | " not in stripped and not re.search(r"[€£$%\d]", stripped)
        ):
            out.append((pos, _FORECAST_HEADING.begins(stripped)))
        pos += len(line) + 1
    return out


def _scale_captions(text: str) -> list[int]:
    """Where a section's lines announce a scale for figures written after them ("(in
    millions)", "… as follows (dollars in millions):"): each such line's offset, in order."""
    out: list[int] = []
    pos = 0
    for line in text.split("\n"):
        if unit_line_scale(line) != 1.0:
            out.append(pos)
        pos += len(line) + 1
    return out


def _under_a_scale(amount: Amount, captions: Sequence[int]) -> bool:
    """A whole money amount written without a scale ("$2,755", "$ 91,281") under a line that
    announces one ("(dollars in millions)"): a table's figure its flattened row left in the
    text, at the table's scale, which the table's reader reads; never the dollars it spells."""
    if amount.currency is None or "." in amount.text or _scale_of(amount) != 1.0:
        return False  # "$9.81": a price, in cents
    above = bisect.bisect_right(captions, amount.start)
    return above > 0 and amount.start - captions[above - 1] <= _CAPTION_REACH


_CAPTION_REACH = 3_000  # how far below a unit line its figures are read at its scale


def _bare_figures_line(text: str, amount: Amount, amounts: Sequence[Amount]) -> bool:
    """The amount is one of a row of figures that lost its columns ("$107.4 $106.6 $104.8"
    under a chart's years, "Net sales $162,560 $94,294 $72,559" under segment names): the line
    ends in two or more figures with no word between them, so none is one period's value."""
    start = text.rfind("\n", 0, amount.start) + 1
    end = text.find("\n", amount.end)
    end = len(text) if end < 0 else end
    on_line = [a for a in amounts if start <= a.start < end]
    if len(on_line) < 2:
        return False
    return not re.search(r"[A-Za-z]", text[on_line[0].start:end])


def _of_another_noun(sentence: _Sentence, amount: Amount) -> bool:
    """The amount is the figure of a noun that is no line item ("charges of $2.5 billion",
    "liabilities for payroll related expenses were $7.5 billion and $10.5 billion", "a $1.6
    billion unrealized gain"), or of a part the line item's own words narrow it to ("term debt
    subject to fair value hedges was …"): a list's later amounts are read from its first."""
    text = sentence.view.text
    first = sentence.listed_from.get(amount.start, amount.start)
    places = [(s[1], s[2]) for s in sentence.subjects]
    before = [p for p in places if p[1] <= first]
    return of_another(text, sentence.span[0], (first, amount.end), places,
                      before[-1] if before else None)


def prose_candidates(view: SectionView, skip: Sequence[tuple[int, int]] = ()
                     ) -> tuple[list[Candidate], set[int]]:
    """Metric, head-count, customer-share and ownership statements in a section's sentences.

    `skip` are spans already read another way (a table written as text). Returns the candidates
    and the start offsets of the amounts they used, so other rules (litigation amounts) do not
    claim the same number twice. Sentences that instruct an assistant are never read.
    """
    text = view.text
    amounts = find_amounts(text, decimal_comma=view.decimal_comma)
    if not amounts:
        return [], set()
    periods = find_periods(text)
    # "restricted cash", "operating loss carryforwards", "cash paid for taxes": none of them
    subjects = [s for s in find_subjects(text)
                if not _RECEIPT_OF.search(text[max(0, s[1] - 40) : s[1]])
                and not another_thing_beside(text, s[1], s[2])]
    headings = _forecast_headings(text)
    captions = _scale_captions(text)
    paragraphs = paragraph_spans(text)
    injected = [p for p in paragraphs if looks_like_instruction(text[p[0] : p[1]])]
    out: list[Candidate] = []
    used: set[int] = set()
    for span in sentence_spans(text):
        if any(s <= span[0] < e for s, e in (*skip, *injected)):
            continue
        above = [h for h in headings if h[0] <= span[0]]
        sentence = _Sentence(view, span, amounts, periods, subjects,
                             bool(above) and above[-1][1])
        facilities = {f.amount.start: f for f in facility_roles(
            text, span[0], span[1], [v.amount for v in sentence.values])}
        for value in sentence.values:
            amount = value.amount
            lead = text[max(span[0], amount.start - 40) : amount.start]
            if amount.start in facilities:
                candidate = _facility(sentence, value, facilities[amount.start])
                if candidate is not None:
                    out.append(candidate)
                    used.add(amount.start)
                continue
            if (_NOT_A_VALUE.search(lead) or _SUPERSEDED_VALUE.search(lead)
                    or _SUPERSEDED_AFTER.match(text, amount.end, span[1])
                    or _CHANGE_AFTER.match(text, amount.end, span[1])
                    or (not value.move and amount.unit != "%" and (
                        _CHANGED_BY.ends(lead) or _of_another_noun(sentence, amount)))):
                # "Windows revenue decreased $3.2 billion or 13%", "augmenté de 2 M€": a change
                # by the amount, no level of the line item (a rate after it is the growth's);
                # "operating income includes charges of $2.5 billion": another noun's figure
                continue
            if _bare_figures_line(text, amount, amounts) or _a_named_part(
                    text, amount, sentence.subjects) or _under_a_scale(amount, captions):
                continue
            candidate = _customer_share(sentence, value) or _ownership(sentence, value)
            if candidate is None:
                subject = None if amount.start in sentence.unnamed else (
                    sentence.respective.get(amount.start) or _subject_for(
                        amount, sentence.subjects, text, amount.start in sentence.bound))
                if subject is not None:
                    candidate = _metric(sentence, value, subject)
            if candidate is not None:
                out.append(candidate)
                used.add(amount.start)
    return out, used

