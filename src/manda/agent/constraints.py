"""Instructions inside a question, as constraints the answer must meet before it is sent.

"Quote the exact clause", "use at least two sources", "only from audited documents", "answer in
a table", "in one sentence", "as of 30 June 2024" (the position at that date: no later period, no
forecast made later), "exclude forecasts", "in € millions": each is
parsed once (the same parser for the offline and the Claude path), removed from what is searched,
kept for the thread until changed, applied to what may be cited, and checked by the gate. An
answer that cannot meet one says which and why, never silently ignores it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum

from manda.finance.amounts import currency_from_text, find_amounts, scale_from_text
from manda.finance.dates import find_date_mentions
from manda.finance.periods import period_end
from manda.models import Document, DocumentRole, Finding, Nature
from manda.text import NOTE_LINE, SOURCE_NOTE, TABLE_LINE
from manda.text import words as text_words
from manda.vocabulary import vocabulary

__all__ = [
    "Admission",
    "CitedFacts",
    "Constraint",
    "ConstraintCheck",
    "ConstraintKind",
    "Constraints",
    "check_constraints",
    "evaluate_constraints",
    "parse_constraints",
]

_I = re.IGNORECASE


class ConstraintKind(StrEnum):
    QUOTE_EXACT = "quote_exact"
    MIN_SOURCES = "min_sources"
    AUTHORITATIVE_ONLY = "authoritative_only"
    TABLE = "table"
    ONE_SENTENCE = "one_sentence"
    AS_OF = "as_of"
    EXCLUDE_FORECASTS = "exclude_forecasts"
    UNITS = "units"


@dataclass(frozen=True)
class Constraint:
    """One instruction: its kind, its value (a count, date or unit) and the words it came in."""

    kind: ConstraintKind
    phrase: str
    count: int | None = None
    as_of: date | None = None
    currency: str | None = None
    scale: float | None = None
    audited: bool = False  # "only audited documents": final management accounts do not count

    def describe(self) -> str:
        """The constraint in the deal team's words, for notes and traces."""
        k = self.kind
        if k is ConstraintKind.MIN_SOURCES:
            return f"at least {self.count} sources"
        if k is ConstraintKind.AS_OF and self.as_of:
            return f"as of {self.as_of:%-d %B %Y}"
        if k is ConstraintKind.UNITS:
            return f"amounts in {_unit_words(self.currency, self.scale)}"
        return {
            ConstraintKind.QUOTE_EXACT: "the exact wording quoted",
            ConstraintKind.AUTHORITATIVE_ONLY: (
                "only audited documents" if self.audited else "only audited or final documents"),
            ConstraintKind.TABLE: "a table",
            ConstraintKind.ONE_SENTENCE: "one sentence",
            ConstraintKind.EXCLUDE_FORECASTS: "no forecasts or budgets",
        }.get(k, k.value)


@dataclass(frozen=True)
class Constraints:
    """The constraints in force for a question (its own, and those the thread carried over)."""

    items: tuple[Constraint, ...] = ()
    carried: bool = False  # inherited from an earlier question of the thread

    def __bool__(self) -> bool:
        return bool(self.items)

    def get(self, kind: ConstraintKind) -> Constraint | None:
        return next((c for c in self.items if c.kind is kind), None)

    def then(self, newer: Constraints, *, reset: bool = False) -> Constraints:
        """These constraints followed by a new question's: the newer wins per kind."""
        if reset:
            return newer
        kinds = {c.kind for c in newer.items}
        kept = tuple(c for c in self.items if c.kind not in kinds)
        return Constraints(items=kept + newer.items, carried=bool(kept) and not newer.items)

    def describe(self) -> str:
        return "; ".join(c.describe() for c in self.items)

    def to_json(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for c in self.items:
            out.append({"kind": c.kind.value, "phrase": c.phrase, "count": c.count,
                        "as_of": c.as_of.isoformat() if c.as_of else None,
                        "currency": c.currency, "scale": c.scale, "audited": c.audited})
        return out

    @classmethod
    def from_json(cls, rows: Iterable[dict[str, object]]) -> Constraints:
        items = []
        for row in rows:
            as_of = row.get("as_of")
            items.append(Constraint(
                kind=ConstraintKind(str(row["kind"])), phrase=str(row.get("phrase", "")),
                count=int(row["count"]) if row.get("count") is not None else None,  # type: ignore[call-overload]
                as_of=date.fromisoformat(str(as_of)) if as_of else None,
                currency=str(row["currency"]) if row.get("currency") else None,
                scale=float(row["scale"]) if row.get("scale") is not None else None,  # type: ignore[arg-type]
                audited=bool(row.get("audited")),
            ))
        return cls(items=tuple(items))


# ---------------------------------------------------------------- parsing

# Each instruction's words are data (`constraint_*` cue sets of every language file); a day
# ("30 June 2024", "June 30, 2024", "2024-06-30", "30.06.2024") is a shape, not words.
_WORDS = vocabulary()
_ORDER = (ConstraintKind.QUOTE_EXACT, ConstraintKind.MIN_SOURCES,
          ConstraintKind.AUTHORITATIVE_ONLY, ConstraintKind.TABLE, ConstraintKind.ONE_SENTENCE,
          ConstraintKind.AS_OF, ConstraintKind.EXCLUDE_FORECASTS, ConstraintKind.UNITS)
_DAY = re.compile(r"\s+(\d{1,2}(?:st|nd|rd|th|\.)?\s+[^\W\d_]+\.?\s+\d{4}|[^\W\d_]+\.?\s+"
                  r"\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4})")
_LEAD_MARK = re.compile(r"(?:,\s*|;\s*|\s-\s)$")
def _unit_words(currency: str | None, scale: float | None) -> str:
    scale_word = {1e3: "thousands", 1e6: "millions", 1e9: "billions"}.get(scale or 0.0, "")
    return " ".join(w for w in (currency or "", scale_word) if w) or "the requested unit"


def _units(text: str) -> tuple[str | None, float | None]:
    """The currency and scale a text names ("in € millions", "€5.2M"), in any language's words
    (`manda.finance.amounts`: how each language writes amounts)."""
    scale = scale_from_text(text)
    if scale == 1.0:  # no unit line's words: the multiplier written after the number ("5.2M")
        after = re.search(r"\d\s*([^\W\d_]+)", text)
        scale = next((float(factor) for lang in _WORDS.languages.values()
                      for factor, words in lang.numbers.multipliers.items()
                      if after and after.group(1) in words), None)
    return currency_from_text(text), scale


def _with_lead(text: str, start: int) -> int:
    """Where an instruction begins with the word or mark that leads it ("please", ", ")."""
    before = text[:start]
    if mark := _LEAD_MARK.search(before):
        return mark.start()
    words = before.rstrip()
    for lead in _WORDS.cues("constraint_lead").finditer(words):
        if lead.end() == len(words):
            return lead.start()
    return start


def _constraint(kind: ConstraintKind, text: str, start: int, end: int
                ) -> tuple[Constraint, int] | None:
    """The constraint a cue states, and where its words end (an "as of" takes its date)."""
    if kind is ConstraintKind.AS_OF:
        day = _DAY.match(text, end)
        if day is None:
            return None
        mentions = find_date_mentions(day.group(1))
        if not mentions or mentions[0].span.precision != "day":
            return None
        end = day.end()
        return Constraint(kind, _phrase(text, start, end), as_of=mentions[0].span.start), end
    phrase = _phrase(text, start, end)
    if kind is ConstraintKind.MIN_SOURCES:
        words = text_words(text[start:end].lower())
        count = next((n for w in words if (n := _WORDS.number(w))), 2)
        return Constraint(kind, phrase, count=max(count, 1)), end
    if kind is ConstraintKind.UNITS:
        currency, scale = _units(text[start:end])
        return Constraint(kind, phrase, currency=currency, scale=scale), end
    if kind is ConstraintKind.AUTHORITATIVE_ONLY:
        strict = _WORDS.cues("constraint_audited").found(phrase) \
            and not _WORDS.cues("constraint_not_only_audited").found(phrase)
        return Constraint(kind, phrase, audited=strict), end
    return Constraint(kind, phrase), end


def _phrase(text: str, start: int, end: int) -> str:
    return " ".join(text[start:end].strip(" ,;-").split())


def parse_constraints(question: str) -> tuple[str, Constraints, bool]:
    """The question without its instructions, the constraints they state, and whether the
    question asked to drop the thread's earlier constraints."""
    found: list[Constraint] = []
    spans: list[tuple[int, int]] = []
    for kind in _ORDER:
        for m in _WORDS.cues(f"constraint_{kind.value}").finditer(question):
            start = _with_lead(question, m.start())
            if any(s < m.end() and start < e for s, e in spans):
                continue
            read = _constraint(kind, question, start, m.end())
            if read is not None and all(c.kind is not kind for c in found):
                found.append(read[0])
                spans.append((start, read[1]))
    reset_match = _WORDS.cues("constraints_reset").search(question)
    if reset_match:
        spans.append((reset_match.start(), reset_match.end()))
    cleaned = question
    for s, e in sorted(spans, reverse=True):
        cleaned = cleaned[:s] + " " + cleaned[e:]
    cleaned = re.sub(r"\s+([?.!,:])", r"\1", " ".join(cleaned.split()))
    cleaned = re.sub(r"([?!])[.,;:]+", r"\1", cleaned).strip(" ,;:-.")
    if cleaned and cleaned[-1] not in "?.!" and question.rstrip().endswith("?"):
        cleaned += "?"
    return cleaned or question, Constraints(items=tuple(found)), reset_match is not None


# ---------------------------------------------------------------- applying and checking


@dataclass
class CitedFacts:
    """What the gate knows about what an answer cited: documents, findings and excerpts."""

    documents: list[Document] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    excerpts: list[str] = field(default_factory=list)


class Admission:
    """What the constraints let an answer rest on: documents by authority and date, findings by
    nature and period. Each refusal comes with its reason, in the deal team's words."""

    def __init__(self, constraints: Constraints) -> None:
        self.authority = constraints.get(ConstraintKind.AUTHORITATIVE_ONLY)
        as_of = constraints.get(ConstraintKind.AS_OF)
        self.as_of = as_of.as_of if as_of else None
        self.no_forecasts = constraints.get(ConstraintKind.EXCLUDE_FORECASTS) is not None

    def __bool__(self) -> bool:
        return bool(self.authority or self.as_of or self.no_forecasts)

    def document_reason(self, document: Document) -> str | None:
        """Why `document` may not be cited under the constraints, or None when it may."""
        if self.authority and not _authoritative(document, self.authority):
            return "not audited" if self.authority.audited else "neither audited nor final"
        if self.no_forecasts and document.role is DocumentRole.BUDGET_FORECAST:
            return "a budget or forecast"
        return None

    def finding_reason(self, finding: Finding, document: Document | None) -> str | None:
        """Why `finding` may not be used, or None when it may."""
        if document is not None and (why := self.document_reason(document)):
            return why
        if self.no_forecasts and finding.nature is Nature.FORECAST:
            return "forecast figures"
        if self.as_of:  # the position at that date: no later period, no forecast made later
            if finding.nature is Nature.FORECAST:
                made = finding.doc_date or (document.doc_date if document else None)
                if made and made > self.as_of:
                    return f"forecasts made after {self.as_of:%-d %B %Y}"
                return None
            fye = _year_end(document.fiscal_year_end if document else None)
            end = period_end(finding.period, fye) if finding.period else None
            if end is not None and end > self.as_of:
                return f"figures for periods ending after {self.as_of:%-d %B %Y}"
        return None


def _year_end(text: str | None) -> tuple[int, int] | None:
    """`"--06-30"` (a document's fiscal year end) as (6, 30)."""
    m = re.fullmatch(r"-*(\d{2})-(\d{2})", text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def admissible(document: Document, constraints: Constraints) -> bool:
    """May this document be cited at all under the constraints (authority, date, forecasts)?"""
    return Admission(constraints).document_reason(document) is None


def admissible_finding(finding: Finding, constraints: Constraints,
                       document: Document | None = None) -> bool:
    return Admission(constraints).finding_reason(finding, document) is None


def _authoritative(document: Document, constraint: Constraint | None = None) -> bool:
    if document.draft:
        return False
    if constraint is not None and constraint.audited:
        return document.role is DocumentRole.AUDITED_STATEMENTS
    return document.authoritative or document.role is DocumentRole.AUDITED_STATEMENTS


@dataclass(frozen=True)
class ConstraintCheck:
    """One constraint checked on the final answer: met, or not met and why (and whether the
    answer says so itself)."""

    constraint: Constraint
    met: bool
    reason: str = ""  # why it is not met, in the deal team's words
    instruction: str = ""  # the same as an instruction, for a model's second attempt
    disclosed: bool = False  # not met, and the answer says which and why

    def to_json(self) -> dict[str, object]:
        return {"kind": self.constraint.kind.value, "constraint": self.constraint.describe(),
                "met": self.met, "disclosed": self.disclosed, "reason": self.reason}


_CANNOT = vocabulary().cues("constraint_not_met")  # "only one document", "une seule source"
_QUOTED = re.compile(r"[\"“„«]([^\"”“«»]{12,})[\"”»“]|^>\s?(.{12,})$", re.MULTILINE)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[“”„\"'’`]", "", text).split()).lower()


def _body_sentences(text: str) -> int:
    """Sentences of the answer itself: its notes (italic lines under it) are not counted."""
    text = "\n".join(line for line in text.splitlines() if not NOTE_LINE.match(line.strip()))
    body = SOURCE_NOTE.sub("", text)
    body = re.sub(r"\b(?:p|pp|e\.g|i\.e|vs|no|approx|ca)\.", "", body, flags=_I)
    body = re.sub(r"\d\.\d", "0", body)
    return len([s for s in _SENTENCE_END.split(body.strip()) if s.strip()])


def _files(names: Sequence[str]) -> str:
    shown = list(dict.fromkeys(names))
    return ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")


def _is(names: Sequence[str]) -> str:
    return "is" if len(set(names)) == 1 else "are"


def evaluate_constraints(
    text: str, constraints: Constraints, cited: CitedFacts, *, notes: Sequence[str] = ()
) -> list[ConstraintCheck]:
    """Each constraint checked on the answer: met, broken (with the instruction that fixes it),
    or not met and said so by the answer ("only one document states this figure")."""
    said = " ".join(notes) + " " + text
    checks: list[ConstraintCheck] = []
    for c in constraints.items:
        named = c.describe().lower() in said.lower() or c.phrase.lower() in said.lower()
        reason, instruction = _broken(text, c, cited)
        if not instruction:
            checks.append(ConstraintCheck(c, met=True))
        elif named and _CANNOT.found(said):
            checks.append(ConstraintCheck(c, met=False, reason=reason, disclosed=True))
        else:
            checks.append(ConstraintCheck(c, met=False, reason=reason, instruction=instruction))
    return checks


def check_constraints(
    text: str, constraints: Constraints, cited: CitedFacts, *, notes: Sequence[str] = ()
) -> list[str]:
    """Constraints the answer breaks, written as instructions (they go back to the model).

    A constraint the answer says it cannot meet ("only one document states this figure") is not
    broken: `notes` are the disclosures the answer makes.
    """
    return [c.instruction for c in evaluate_constraints(text, constraints, cited, notes=notes)
            if c.instruction]


def _broken(text: str, c: Constraint, cited: CitedFacts) -> tuple[str, str]:
    """(why the constraint is not met, the instruction that would meet it); empty when met."""
    if c.kind is ConstraintKind.QUOTE_EXACT:
        quotes = [q1 or q2 for q1, q2 in _QUOTED.findall(text)]
        sources = [_norm(e) for e in cited.excerpts]
        if not any(_norm(q) in s for q in quotes for s in sources):
            return ("no cited passage gives the wording to quote",
                    "Quote the exact wording from a cited excerpt, in quotation marks, as the "
                    "question asks.")
    elif c.kind is ConstraintKind.MIN_SOURCES:
        names = [d.filename for d in cited.documents]
        count = len(set(names))
        if count < (c.count or 2):
            stated = {0: "no document states it", 1: f"only one document states it "
                      f"({_files(names)})"}.get(count, f"only {count} documents state it "
                                                       f"({_files(names)})")
            return (stated, f"The question asks for {c.describe()}; the answer cites {count}. "
                            "Cite more documents, or say that only that many state it.")
    elif c.kind is ConstraintKind.TABLE:
        if sum(1 for line in text.splitlines() if TABLE_LINE.match(line)) < 3:
            return ("the answer is not a table", "Answer in a Markdown table, as the question "
                                                 "asks.")
    elif c.kind is ConstraintKind.ONE_SENTENCE:
        if _body_sentences(text) > 1:
            return ("the answer takes more than one sentence",
                    "Answer in one sentence, as the question asks.")
    elif c.kind is ConstraintKind.AUTHORITATIVE_ONLY:
        bad = [d.filename for d in cited.documents if not _authoritative(d, c)]
        if bad:
            kind = "audited" if c.audited else "audited or final"
            return (f"{_files(bad)} {_is(bad)} not {kind}",
                    f"Cite only {kind} documents; {_files(bad)} {_is(bad)} not.")
    elif c.kind is ConstraintKind.AS_OF and c.as_of:
        admission = Admission(Constraints(items=(c,)))
        docs = {d.id: d for d in cited.documents}
        late = [" ".join(filter(None, [f.label, f.period])) for f in cited.findings
                if admission.finding_reason(f, docs.get(f.document_id))]
        if late:
            return (f"{_files(late)} {_is(late)} after {c.as_of:%-d %B %Y}",
                    f"State the position as of {c.as_of:%-d %B %Y}: leave out {_files(late)}, "
                    "which come after that date.")
    elif c.kind is ConstraintKind.EXCLUDE_FORECASTS:
        forecast = [f.label for f in cited.findings if f.nature is Nature.FORECAST]
        forecast += [d.filename for d in cited.documents if d.role is DocumentRole.BUDGET_FORECAST]
        if forecast:
            return (f"the answer rests on a forecast ({_files(forecast)})",
                    "Leave out forecasts and budgets; use actual figures only.")
    elif c.kind is ConstraintKind.UNITS:
        body = SOURCE_NOTE.sub("", text)
        wrong = _unit_errors(body, c)
        if wrong:
            other = sorted({a.currency for a in find_amounts(body) if a.text in wrong
                            and a.currency and c.currency and a.currency != c.currency})
            why = (f" ({'/'.join(other)}: the room gives no exchange rate to {c.currency}, so "
                   "it was not converted)" if other else "")
            return (f"{_files(wrong)} could not be stated in "
                    f"{_unit_words(c.currency, c.scale)}{why}",
                    f"State every amount in {_unit_words(c.currency, c.scale)} "
                    f"(not {', '.join(wrong[:3])}).")
    return "", ""


def _unit_errors(text: str, c: Constraint) -> list[str]:
    """Amounts of the text not in the requested currency and scale, as written."""
    wrong = []
    for amount in find_amounts(text):
        if amount.unit in {"%", "x", "people", "shares"} or amount.currency is None:
            continue
        if c.currency and amount.currency != c.currency:
            wrong.append(amount.text)
            continue
        _, scale = _units(amount.text)
        if c.scale and scale != c.scale:
            wrong.append(amount.text)
    return wrong


def without(constraints: Constraints, kinds: Iterable[ConstraintKind]) -> Constraints:
    drop = set(kinds)
    return replace(constraints, items=tuple(c for c in constraints.items if c.kind not in drop))
