"""The validation gate every answer passes, whichever model wrote it.

It drops references the retrieval never returned, then checks that every number stated appears in
a cited excerpt (`€5.2M` = `EUR 5.2 million` = `5,200k`; differences and % changes between stated
numbers are allowed), that no confidence score leaks, that corrections, conflicts, forecasts and
inherited periods are disclosed, and that "I don't know" never stands alone. Errors are written as
instructions, because they are sent back to the model for another attempt.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any

from manda.agent.evidence import Evidence, Source
from manda.agent.evidence_ids import UnknownId
from manda.agent.facts import check_counts, check_names, check_periods
from manda.agent.grounding import (
    Reference,
    cited_sources,
    drop_unretrieved,
    find_markers,
    strip_markers,
)
from manda.agent.selection import is_correction_statement
from manda.answers import AnswerNumber, NumberSource
from manda.finance.amounts import Amount, find_amounts, format_amount, scale_from_text
from manda.finance.periods import find_periods
from manda.finance.vocabulary import metric_spec
from manda.injection import instruction_sentences
from manda.models import Finding, Nature
from manda.text import words
from manda.vocabulary import Cues, vocabulary

_SCORE_NUMBER = re.compile(r"\d+(?:[.,]\d+)?\s*%|(?<![\d.,])0?[.,]\d+\b|\b0\b|\b1(?:[.,]0+)?\b")
_SCORE = re.compile(r"\bscore[sd]?\s*(?:of\s*)?[:=]?\s*0?\.\d", re.IGNORECASE)
_QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"|«[^»]*»|„[^“”]*[“”]|'[^'\n]{12,}'")
_SCORE_REACH = 30  # characters between a confidence word and its number or level


def _cues(name: str) -> Cues:
    return vocabulary().cues(name)


_META = _cues("answer_preamble")  # "Here is …", "Voici …", "I searched …", "He buscado …"
_SMALL_COUNT = 100


@dataclass
class Requirements:
    """What this answer must disclose, decided before it was written."""

    assumption: str | None = None  # "For Q3 2024": an inherited period must be stated
    offer_qa: bool = False  # no-data answers, gaps and red flags offer the Q&A list
    qa_proposed: bool = False  # the answer's actions carry an add-to-Q&A proposal already
    question: str = ""  # as asked: a name it gives may be repeated
    # a model wrote it: each fact is checked against the place cited beside it (the offline
    # composer writes only what it read at the places it cites)
    model: bool = False


# The checks only a model's answer goes through, by name, and why the offline composer's answers
# skip them: it writes each figure, period, name and count from the finding or passage it cites
# beside it, so what these checks look for holds by construction there (its tests pin it), and
# a number of its answers may rest on any place the answer cites (a table's rows under one
# source line).
LOOSER_OFFLINE: dict[str, str] = {
    "claims_without_source": "a claim whose every reference was never retrieved",
    "number_beside_its_citation": "a number grounded only by the place cited beside it",
    "periods": "a figure stated for another period than its cited place gives it",
    "names": "a name, party or court its cited place never names",
    "counts": "a small count its cited place never states",
}


@dataclass
class GateResult:
    text: str  # the answer with unretrieved references removed
    errors: list[str] = field(default_factory=list)
    dropped: list[Reference] = field(default_factory=list)
    numbers: list[AnswerNumber] = field(default_factory=list)  # `text`'s numbers and sources
    skipped: tuple[str, ...] = ()  # the LOOSER_OFFLINE checks this answer did not go through

    @property
    def ok(self) -> bool:
        return not self.errors


# ---------------------------------------------------------------- numbers


def is_claim(amount: Amount) -> bool:
    """Counts such as "3 of 5 items" are Manda's own arithmetic; amounts and rates are claims."""
    if amount.currency or amount.unit in {"%", "x"}:
        return True
    whole = float(amount.value).is_integer() and "." not in amount.text and "," not in amount.text
    return not (whole and abs(amount.value) < _SMALL_COUNT)


def _kind(amount: Amount) -> str:
    if amount.unit in {"%", "x"}:
        return amount.unit
    return "number"


@dataclass(frozen=True)
class _Value:
    value: float
    kind: str
    currency: str | None
    finding_id: str | None = None  # the finding whose value it is (else read in the excerpt)


def _without_instructions(text: str) -> str:
    """A number inside an instruction to an assistant grounds nothing."""
    for sentence in instruction_sentences(text):
        text = text.replace(sentence, " ")
    return text


def _excerpt_values(source: Source, evidence: Evidence) -> list[_Value]:
    texts = [source.excerpt]
    texts += [s.excerpt for s in evidence.source_index().get(source.key, [])]
    texts = [_without_instructions(t) for t in texts]
    values = [v for text in dict.fromkeys(texts) for v in _text_values(text)]
    # Findings extracted at the cited place carry the value at its scale ("675" in a table in
    # EUR thousands is €675k), which the excerpt alone may not show.
    ids = {source.finding_id} | {s.finding_id for s in evidence.source_index().get(source.key, [])}
    for finding_id in sorted(i for i in ids if i):
        f = evidence.findings.get(finding_id)
        if f is not None and f.value is not None:
            kind = f.unit if f.unit in {"%", "x"} else "number"
            currency = f.unit if f.unit and f.unit.isupper() and len(f.unit) == 3 else None
            values.append(_Value(f.value, kind, currency, finding_id))
    return values


@lru_cache(maxsize=4096)
def _text_values(text: str) -> tuple[_Value, ...]:
    values: list[_Value] = []
    for scale in {1.0, scale_from_text(text)}:
        for a in find_amounts(text, scale=scale):
            values.append(_Value(a.value, _kind(a), a.currency))
    return tuple(values)


def _close(a: float, b: float) -> bool:
    if a == b:
        return True
    scale = max(abs(a), abs(b))
    return abs(a - b) <= max(0.011 * scale, 1e-9) or abs(a - b) <= _rounding(a, b)


def _rounding(a: float, b: float) -> float:
    """€5.2M states 5.2M to one decimal: 5,150k–5,249k all read as it."""
    smaller = min(abs(a), abs(b))
    if smaller >= 1e6:
        return 0.051e6 if smaller < 1e8 else 0.51e6
    if smaller >= 1e3:
        return 51.0
    return 0.051


_DIGITS = re.compile(r"\d[\d.,'’\u00a0\u202f]*")


def half_unit(amount: Amount) -> float | None:
    """Half a unit of the last digit the amount shows: "£1.3M" → 50,000; "£1.29M" → 5,000;
    "£700k" → 500. Any figure within it reads as the amount when rounded to what is shown."""
    written = _DIGITS.search(amount.text)
    digits = "".join(ch for ch in written.group() if ch.isdigit()).lstrip("0") if written else ""
    if not digits or not amount.value:
        return None
    magnitude = math.floor(math.log10(abs(amount.value)))
    return 0.5 * 10.0 ** (magnitude - len(digits) + 1)


def close_to_shown(amount: Amount, value: float) -> bool:
    """`value` reads as `amount` as written: equal within the precision the amount shows (or
    1.1%, for figures an answer computed); rounding is no wider than the digits shown."""
    a, b = abs(amount.value), abs(value)
    if a == b:
        return True
    half = half_unit(amount)
    if half is None:
        return _close(a, b)
    return abs(a - b) <= max(0.011 * max(a, b), half * (1 + 1e-9), 1e-9)


def _matches(amount: Amount, value: _Value) -> bool:
    if _kind(amount) != value.kind:
        return False
    if amount.currency and value.currency and amount.currency != value.currency:
        return False
    return close_to_shown(amount, value.value)


def _derived(amount: Amount, grounded: list[Amount], *, computed: bool = False
             ) -> tuple[Amount, ...] | None:
    """The grounded numbers `amount` is computed from, when it is a difference, a % change or a
    ratio (a margin) of two, a sum less a third (said to be computed), a total of stated shares
    or a percentage-point change; None when it is none of these."""
    numbers = [a for a in grounded if _kind(a) == "number"]
    multiples = [a for a in grounded if _kind(a) == "x"]  # covenant level and test result
    for a, b in [*permutations(numbers, 2), *permutations(multiples, 2)]:
        if amount.unit == "%" and b.value:
            change = (a.value - b.value) / abs(b.value) * 100
            if abs(abs(change) - abs(amount.value)) <= 0.051 + 0.006 * abs(change):
                return (a, b)
            ratio = a.value / b.value * 100  # EBITDA / revenue: a margin the answer computed
            if abs(ratio) <= 100 and abs(abs(ratio) - abs(amount.value)) <= 0.051 + 0.006 * abs(
                    ratio):
                return (a, b)
        elif _kind(amount) == _kind(a) and _close(abs(amount.value), abs(a.value - b.value)):
            return (a, b)
    if (inputs := _multiple_or_growth(amount, numbers)) is not None:
        return inputs
    if _kind(amount) == "number":  # a total of figures stated beside it
        for size in range(2, min(len(numbers), _SUM_TERMS) + 1):
            for terms in combinations(numbers, size):
                total = sum(t.value for t in terms)
                if total and close_to_shown(amount, total):
                    return terms
    if computed and _kind(amount) == "number":
        # a sum less a third, said to be computed: stocks + debtors − creditors; exact to the
        # digits shown, so that many numbers do not make any number derivable
        for a, b in combinations(numbers, 2):
            target = abs(a.value) + abs(b.value)
            for c in numbers:
                if c is not a and c is not b and abs(abs(amount.value) - (
                        target - abs(c.value))) <= _rounding(amount.value, target - abs(c.value)):
                    return (a, b, c)
    percents = [a for a in grounded if a.unit == "%"]
    if amount.unit == "%" and len(percents) >= 2 and abs(
            sum(p.value for p in percents) - amount.value) <= 0.15:
        return tuple(percents)  # the total of the stakes the answer lists ("add up to 100%")
    if amount.unit == "%":  # the top N together ("the top 3 customers: 39%"); a share
        by_size = sorted(percents, key=lambda p: -p.value)
        once = list({p.value: p for p in reversed(by_size)}.values())[::-1]
        for largest in (by_size, once):  # stated twice counts twice, or once
            for k in range(2, len(largest) + 1):
                if abs(sum(p.value for p in largest[:k]) - amount.value) <= 0.15:
                    return tuple(largest[:k])
    if amount.unit == "%":  # percentage-point change, e.g. gross margin 70% -> 71%
        for a, b in permutations(percents, 2):
            if abs(abs(a.value - b.value) - abs(amount.value)) <= 0.051:
                return (a, b)
    return None


_SUM_TERMS = 4  # a total of at most this many stated figures
_CAGR_YEARS = range(2, 11)


def _multiple_or_growth(amount: Amount, numbers: list[Amount]) -> tuple[Amount, ...] | None:
    """A multiple of two stated figures (net debt / EBITDA = 1.4x), or the compound annual
    growth between them over 2-10 years (a CAGR)."""
    for a, b in permutations(numbers, 2):
        if not b.value or not a.value:
            continue
        if amount.unit == "x" and abs(abs(a.value / b.value) - abs(amount.value)) <= max(
                0.051, 0.006 * abs(amount.value)):
            return (a, b)
        if amount.unit == "%" and a.value / b.value > 0:
            for years in _CAGR_YEARS:
                cagr = ((a.value / b.value) ** (1 / years) - 1) * 100
                if abs(abs(cagr) - abs(amount.value)) <= 0.051 + 0.006 * abs(cagr):
                    return (a, b)
    return None


def without_file_names(text: str, evidence: Evidence) -> str:
    """A file name ("4.3 Budget FY2024.md", "2.1.1 Annual report.pdf") names a document; the
    numbers in it are no claim to ground."""
    names = {d.filename for d in evidence.documents.values()} | {
        h.document for h in evidence.hits}
    for name in sorted(names, key=len, reverse=True):
        if name and name in text:
            text = text.replace(name, " ")
    return text


def check_numbers(text: str, evidence: Evidence,
                  numbers: Sequence[AnswerNumber] | None = None) -> list[str]:
    """Numbers the answer states that no cited excerpt supports (`numbers`: the text's map,
    when already read)."""
    numbers = number_sources(text, evidence) if numbers is None else numbers
    if not numbers:
        return []
    if not any(n.source for n in numbers) and not cited_sources(text, evidence):
        shown = ", ".join(n.text for n in numbers[:4])
        return [f"The answer states {shown} but cites no source. Cite the retrieved place "
                "of every number as (source: file, location)."]
    errors = []
    beside_of = {a.text: near for a, near, _, _ in _stated(text, evidence) if near}
    for n in numbers:
        if n.grounded:
            continue
        beside = beside_of.get(n.text)
        if beside:
            where = "; ".join(f"{s.document}, {s.location}" for s in beside)
            errors.append(f"The number {n.text} is not stated at {where}, the place cited "
                          "beside it. Cite the excerpt that states it, or show the working "
                          "of a figure you computed with its inputs and their sources.")
        else:
            errors.append(f"The number {n.text} does not appear in any cited excerpt. Use "
                          "only numbers from the retrieved passages and cite where each one "
                          "is.")
    return errors


def number_sources(text: str, evidence: Evidence) -> list[AnswerNumber]:
    """Each number of `text` the gate checks (`is_claim`), with the cited place that states it.
    A number with a citation beside it is grounded by that citation only (a figure of another
    place or period is no support); one without is grounded by any place the answer cites. A
    number no such place states is computed when it follows from numbers stated in its own
    paragraph (`_derived`: its working is shown there), else it is not grounded. Stated
    numbers come first, in the answer's order, then the others."""
    out, _ = _placed(text, evidence)
    return out


def _placed(text: str, evidence: Evidence, *, beside_only: bool = False
            ) -> tuple[list[AnswerNumber], list[tuple[Amount, Source]]]:
    """`number_sources`, and each stated amount with the place that grounds it; with
    `beside_only`, a number with a citation beside it is grounded by that citation alone and
    a computed one only by numbers of its own paragraph."""
    cited = cited_sources(text, evidence)
    values = {s.key: _excerpt_values(s, evidence) for s in cited}
    for source in (s for m in find_markers(text, evidence) for r in m.references
                   if (s := r.source) is not None and s.key not in values):
        values[source.key] = _excerpt_values(source, evidence)
    out: list[AnswerNumber] = []
    grounded: list[tuple[Amount, int]] = []
    placed: list[tuple[Amount, Source]] = []
    unplaced: list[tuple[Amount, bool, int]] = []
    for amount, near, computed, paragraph in _stated(text, evidence):
        places = (near or cited) if beside_only else [*near, *cited]
        source = next((s for s in places
                       if any(_matches(amount, v) for v in values.get(s.key, []))), None)
        if source is None:
            unplaced.append((amount, computed, paragraph))
            continue
        grounded.append((amount, paragraph))
        placed.append((amount, source))
        finding = next((v.finding_id for v in values[source.key]
                        if v.finding_id and _matches(amount, v)), source.finding_id)
        out.append(_number(amount, source=NumberSource(
            document=source.document, location=source.location, finding_id=finding)))
    for amount, computed, paragraph in unplaced:
        again = _repeated(amount, [(a, s) for (a, p), (_, s) in zip(grounded, placed,
                                                                     strict=True)
                                   if p == paragraph or not beside_only])
        if again is not None:  # "4,0 / 2,9": the working repeats figures stated and cited
            out.append(_number(amount, source=NumberSource(document=again.document,
                                                           location=again.location)))
            continue
        inputs = _derived(amount, [a for a, p in grounded if p == paragraph or not beside_only],
                          computed=computed)
        out.append(_number(amount, computed=inputs is not None,
                           inputs=[a.text for a in inputs or ()]))
    return out, placed


def _repeated(amount: Amount, grounded: Sequence[tuple[Amount, Source]]) -> Source | None:
    """The place of a grounded figure that a bare number repeats with its digits as written
    ("4,0" of "4,0 M€" in the working "4,0 / 2,9"): no unit or currency of its own, the same
    digits at the figure's scale."""
    if amount.currency or amount.unit or not amount.value:
        return None
    for figure, source in grounded:
        if figure.unit in ("%", "x"):
            continue
        for scale in (1.0, 1e3, 1e6, 1e9):
            if math.isclose(abs(figure.value), abs(amount.value) * scale, rel_tol=1e-9):
                return source
    return None


def _stated(text: str, evidence: Evidence) -> list[tuple[Amount, list[Source], bool, int]]:
    """Each claim of `text` (file names and markers left out), the places the marker after it
    cites, whether its line says it is computed, and the paragraph it stands in."""
    lines = text.split("\n")
    paragraph_of = _paragraphs(lines)
    out: list[tuple[Amount, list[Source], bool, int]] = []
    cursor = 0
    segments = [(m.start, m.end, [r.source for r in m.references if r.source is not None])
                for m in find_markers(text, evidence)]
    segments.append((len(text), len(text), []))
    for start, end, near in segments:
        first_line = text.count("\n", 0, cursor)
        body = without_file_names(strip_markers(text[cursor:start]), evidence)
        cursor = end
        for amount in (a for a in find_amounts(body) if is_claim(a)):
            at = first_line + body.count("\n", 0, amount.start)
            line = strip_markers(lines[at])
            out.append((amount, near, _computed(line), paragraph_of[at]))
    return out


_COMPUTED = vocabulary().cues("computed_words")  # "calculated", "calculé", "berechnet"


def _computed(line: str) -> bool:
    """A line that works its figure out: its words say so, or it shows the sum ("=", "÷", "/")."""
    return any(sign in line for sign in "=÷/") or _COMPUTED.found(line)


def _paragraphs(lines: Sequence[str]) -> list[int]:
    """The paragraph (blank-line separated block) of each line."""
    out, n = [], 0
    for line in lines:
        if not line.strip():
            n += 1
        out.append(n)
    return out


def _number(amount: Amount, **how: Any) -> AnswerNumber:
    return AnswerNumber(text=amount.text, value=amount.value, currency=amount.currency,
                        unit=amount.unit, **how)


# ---------------------------------------------------------------- disclosures


def _mentioned(text: str, evidence: Evidence) -> list[Finding]:
    """Findings whose value the answer states, next to the name of their metric."""
    body = strip_markers(text)
    lowered = body.lower()
    amounts = find_amounts(body)
    candidates: list[tuple[Finding, list[Amount]]] = []
    # a period in a file name ("Trading update Q4 FY2024.md") is no period the answer states
    prose = without_file_names(body, evidence)
    compact = re.sub(r"\s+", "", prose).lower()
    named = {p.lower() for p, _, _ in find_periods(prose)}  # "T3 2024" names Q3 2024
    for finding in evidence.usable_findings():
        if finding.value is None:
            continue
        period = (finding.period or "").lower()
        if (period and not period.startswith("as of") and period.replace(" ", "") not in compact
                and period not in named):
            continue  # a figure of a period the answer never names is not what it states
        spec = metric_spec(finding.subject)
        names = {finding.subject, finding.label.lower()}
        if spec is not None:
            names |= {s.lower() for s in spec.synonyms}
        if not any(n and n in lowered for n in names):
            continue
        kind = finding.unit if finding.unit in {"%", "x"} else "number"
        near = [a for a in amounts if _kind(a) == kind and close_to_shown(a, finding.value)]
        if near:
            candidates.append((finding, near))
    # An amount that states one finding exactly is not also a mention of another figure that
    # merely lies within its rounding ("£1.3M" of £1.30M actual is not £1.35M budget).
    best: dict[int, float] = {}
    for finding, near in candidates:
        for a in near:
            gap = abs(abs(a.value) - abs(finding.value or 0.0))
            best[a.start] = min(best.get(a.start, gap), gap)
    return [finding for finding, near in candidates
            if any(abs(abs(a.value) - abs(finding.value or 0.0)) <= best[a.start] * (1 + 1e-9)
                   + 1e-9 for a in near)]


def _shown(finding: Finding) -> str:
    return finding.value_text or format_amount(finding.value or 0.0, finding.unit)


def check_disclosures(text: str, evidence: Evidence, required: Requirements) -> list[str]:
    errors: list[str] = []
    lowered = text.lower()
    mentioned = _mentioned(text, evidence)
    for finding in mentioned:
        source = evidence.filename(finding.document_id)
        newer = evidence.successor(finding.id)
        if newer is not None and not _same_value(newer, finding):
            latest = evidence.latest(finding)
            told = _cues("answer_correction").search(text)
            if not told or all(f.id != latest.id for f in mentioned):
                errors.append(
                    f"{_shown(finding)} ({source}) was corrected to {_shown(latest)} in "
                    f"{evidence.filename(latest.document_id)}. Give the corrected value and say "
                    "that the earlier figure was corrected."
                )
        older = evidence.predecessor(finding.id)
        if older is not None and not _same_value(older, finding) and (
            not _cues("answer_correction").search(text)
        ):
            errors.append(
                f"{_shown(finding)} in {source} corrects {_shown(older)} in "
                f"{evidence.filename(older.document_id)}. Say that the earlier figure was "
                "corrected and name it."
            )
        for other in evidence.conflicts_of(finding.id):
            if (_same_value(other, finding) or evidence.successor(other.id) is not None
                    or evidence.successor(finding.id) is not None
                    or is_correction_statement(other) or is_correction_statement(finding)):
                continue
            other_file = evidence.filename(other.document_id)
            named = {evidence.filename(f.document_id).lower() for f in evidence.usable_findings()
                     if f.subject == other.subject and f.period == other.period
                     and _same_value(f, other)}
            other_shown = any(_kind(a) == _kind_of(other) and _close(abs(a.value),
                              abs(other.value or 0.0)) for a in find_amounts(strip_markers(text)))
            # structural: both values with both sources say it in any language
            if not other_shown or not any(n in lowered for n in named):
                errors.append(
                    f"{source} says {_shown(finding)} and {other_file} says {_shown(other)} for "
                    f"{finding.label} {finding.period or ''}. Show both values with both sources "
                    "and say that they conflict."
                )
        stated_as_actual = any(
            f.nature is Nature.ACTUAL and f.subject == finding.subject
            and f.period == finding.period and _same_value(f, finding) for f in mentioned
        )
        if (finding.nature is Nature.FORECAST and not stated_as_actual
                and not _cues("answer_forecast").search(text)):
            errors.append(
                f"{_shown(finding)} for {finding.label} {finding.period or ''} is a forecast "
                f"({source}). Label it as a forecast."
            )
    if required.assumption and not names_period(text, required.assumption):
        assumed = ", ".join(_periods(required.assumption)) or required.assumption
        errors.append(
            f"This is a follow-up: begin the answer by naming the period you assumed "
            f"({assumed}), in the answer's language."
        )
    return errors


def _periods(text: str) -> list[str]:
    return [p for p, _, _ in find_periods(text, bare_years=True)]


def names_period(text: str, assumption: str) -> bool:
    """Whether the answer names the period of the assumption ("For Q3 2024"), written in any
    language the period reader knows ("Pour le T3 2024", "En el 3T 2024", "Im Q3 2024"), or as
    Manda writes it."""
    assumed = set(_periods(assumption))
    if not assumed:  # no period in it: the assumption as written
        return assumption.lower() in text.lower()
    body = strip_markers(text)
    compact = re.sub(r"\s+", "", body).lower()
    return bool(assumed & set(_periods(body))) or any(
        re.sub(r"\s+", "", p).lower() in compact for p in assumed)


def _kind_of(finding: Finding) -> str:
    return finding.unit if finding.unit in {"%", "x"} else "number"


def _same_value(a: Finding, b: Finding) -> bool:
    return a.value is not None and b.value is not None and _close(a.value, b.value)


# ---------------------------------------------------------------- wording


def check_wording(text: str, required: Requirements, evidence: Evidence | None = None
                  ) -> list[str]:
    """Confidence scores, bare "I don't know", the Q&A offer and chatter, read with the
    words of every language the vocabulary files hold."""
    errors: list[str] = []
    if confidence_score(text, evidence):
        errors.append(
            "Do not state confidence scores or certainty. Say instead where the figure comes "
            "from: a draft, an audited report, a forecast, or a later correction."
        )
    if _cues("no_information").search(text) and _bare(text, required):
        errors.append(
            "Never only say that you do not know: say what you searched and why nothing fits."
        )
    if required.offer_qa and not required.qa_proposed and not _cues("qa_offer").search(text):
        errors.append("Offer to add the open question(s) to the deal's Q&A list.")
    lines = [line for line in text.splitlines() if line.strip()]
    meta = [line for line in lines[:3] if _META.begins(line)]
    if len(meta) > 1:
        errors.append("Use at most one short orienting line before the content.")
    return errors


def _bare(text: str, required: Requirements) -> bool:
    """A no-data answer that says nothing more: one sentence, no offer, nothing searched."""
    sentences = [s for s in re.split(r"(?<=[.!?…])\s+|\n+", strip_markers(text).strip())
                 if len(s.split()) > 2]
    offered = required.qa_proposed or bool(_cues("qa_offer").search(text))
    return len(sentences) < 2 and not offered


def confidence_score(text: str, evidence: Evidence | None = None) -> bool:
    """A confidence word with a number or a level beside it, outside quotations and not as a
    retrieved document words it ("the probability of an adverse outcome is remote")."""
    body = _QUOTED.sub(" ", strip_markers(text))
    if _SCORE.search(body):
        return True
    said = " ".join(s.excerpt for s in evidence.sources()).lower() if evidence else ""
    for m in _cues("confidence_words").finditer(body):
        window = body[max(0, m.start() - _SCORE_REACH):m.end() + _SCORE_REACH]
        if not (_SCORE_NUMBER.search(window) or _cues("confidence_levels").search(window)):
            continue
        phrase = " ".join(words(body[m.start():].lower())[:4])
        if said and phrase in " ".join(words(said)):
            continue  # the document's own words, reported
        return True
    return False


def run_gate(text: str, evidence: Evidence, required: Requirements,
             unknown: Sequence[UnknownId] = ()) -> GateResult:
    """Drop unretrieved references, map each number to its source (`GateResult.numbers`), then
    check numbers, periods, names and counts against the places cited beside them, then
    disclosures and wording. `unknown`: evidence ids the answer cited that it was never given."""
    strict = required.model
    orphaned = _orphaned_claims(text, evidence) if strict else []
    cleaned, dropped = drop_unretrieved(text, evidence)
    result = GateResult(text=cleaned.strip(), dropped=dropped,
                        skipped=() if strict else tuple(LOOSER_OFFLINE))
    result.numbers, placed = _placed(result.text, evidence, beside_only=strict)
    result.errors += [
        f"[{u.ident}] is no evidence id you were given, so “{u.claim}” has no source. Cite "
        "the id of the excerpt that states it, or leave the claim out." for u in unknown]
    result.errors += orphaned
    result.errors += check_numbers(result.text, evidence, result.numbers)
    if strict:
        result.errors += check_periods(result.text, evidence,
                                       [(a.text, a.value, s) for a, s in placed])
        result.errors += check_names(result.text, evidence, required.question)
        result.errors += check_counts(result.text, evidence)
    result.errors += check_disclosures(result.text, evidence, required)
    result.errors += check_wording(result.text, required, evidence)
    return result


def _orphaned_claims(text: str, evidence: Evidence) -> list[str]:
    """Claims whose every reference was never retrieved: dropping the references would leave
    them standing without a source."""
    errors = []
    for marker in find_markers(text, evidence):
        if marker.references and all(r.source is None for r in marker.references):
            begin = max(text.rfind(". ", 0, marker.start), text.rfind("\n", 0, marker.start))
            claim = text[begin + 1:marker.start].strip(" .")
            refs = "; ".join(f"{r.document} {r.location}".strip() for r in marker.references)
            errors.append(f"{refs} was never returned to you, so “{claim}” has no source. "
                          "Cite the id of an excerpt that states it, or leave the claim out.")
    return errors
