"""The gate's fact checks beside the numbers: the period a figure is of, the names, courts and
small counts a cited sentence states, each checked against the place cited beside it.

A figure stated for Q3 2024 that the cited place gives for Q3 2023 (a swapped period), a company
or court the cited place never names (a wrong or invented entity), "3 pending claims" where the
place counts none: each is an error written as an instruction, naming the place. Only what the
answer states beside a citation is checked, and only against that citation, in any language
the vocabulary files read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import find_markers, strip_markers
from manda.finance.periods import find_periods
from manda.models import Finding
from manda.text import letter_words
from manda.vocabulary import vocabulary

_NAME_WORD = r"(?:[A-ZÀ-Ý][a-zà-ÿß'’\-]+|[A-Z][A-Za-z]*[A-Z][A-Za-z]*)"  # Vertex, GmbH, AG
_FORM = re.compile(r"\s(?:[A-Z]{2,}|[A-Z][a-z]*[A-Z][A-Za-z]*)$")  # AG, GmbH, SE, plc-less
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+|\s*\|\s*")
_SMALL = re.compile(r"(?<![\w.,/€$£%-])(\d{1,2})(?![\w.,/%-])\s+(?P<word>[^\W\d_]{3,})")


@dataclass(frozen=True)
class Statement:
    """A stretch of the answer and the places its citation names."""

    text: str
    places: tuple[Source, ...]


def statements(text: str, evidence: Evidence) -> list[Statement]:
    """Each sentence that carries a citation, with the places cited in it (a sentence's
    claims are those before its marker)."""
    out: list[Statement] = []
    cursor = 0
    for marker in find_markers(text, evidence):
        places = tuple(r.source for r in marker.references if r.source is not None)
        before = text[cursor:marker.start]
        cursor = marker.end
        sentence = _SENTENCE_END.split(before)[-1] if before.strip() else ""
        if not sentence.strip():  # a marker after a line break still cites that line
            parts = [p for p in _SENTENCE_END.split(before) if p.strip()]
            sentence = parts[-1] if parts else ""
        if places and sentence.strip():
            out.append(Statement(sentence, places))
    return out


def place_text(places: Sequence[Source], evidence: Evidence) -> str:
    """Everything said at the cited places: excerpts, the findings there, headings, files."""
    index = evidence.source_index()
    parts: list[str] = []
    for place in places:
        for s in [place, *index.get(place.key, [])]:
            parts += [s.excerpt, s.document, s.location, " ".join(s.heading_path)]
            finding = evidence.findings.get(s.finding_id or "")
            if finding is not None:
                parts += [finding.label, finding.entity or ""]
    return " ".join(parts)


# ---------------------------------------------------------------- periods


def check_periods(text: str, evidence: Evidence, grounded: Sequence[tuple[str, float, Source]]
                  ) -> list[str]:
    """A figure stated for one period that its cited place gives for another, while that place
    gives the named period a different figure."""
    errors: list[str] = []
    for stated, value, place in grounded:
        sentence = _sentence_of(text, stated)
        if sentence is None:
            continue
        named = {p for p, _, _ in find_periods(strip_markers(sentence))}  # in any language
        if not named:
            continue
        at_place = _findings_at(place, evidence)
        matching = [f for f in at_place if f.value is not None and _near(f.value, value)]
        if not matching or any(_period_named(f, named) for f in matching):
            continue
        for finding in matching:
            other = next((f for f in at_place if f.subject == finding.subject
                          and f.period in named and f.value is not None
                          and not _near(f.value, value)), None)
            if other is not None and finding.period:
                errors.append(
                    f"{stated} is {finding.label} for {finding.period} at {place.document}, "
                    f"{place.location}, not for {other.period} (that place gives "
                    f"{other.value_text or other.value} for {other.period}). State each figure "
                    "with the period its source gives it.")
                break
    return errors


def _sentence_of(text: str, stated: str) -> str | None:
    at = text.find(stated)
    if at == -1:
        return None
    begin = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at), text.rfind("|", 0, at))
    ends = [e for e in (text.find(". ", at), text.find("\n", at), text.find("|", at)) if e != -1]
    return text[begin + 1:min(ends) if ends else len(text)]


def _findings_at(place: Source, evidence: Evidence) -> list[Finding]:
    ids = {place.finding_id} | {s.finding_id for s in evidence.source_index().get(place.key, [])}
    return [evidence.findings[i] for i in sorted(i for i in ids if i) if i in evidence.findings]


def _period_named(finding: Finding, named: set[str]) -> bool:
    period = finding.period or ""
    if not period or period.startswith("as of"):
        return True  # nothing to compare with
    return period in named or any(period.endswith(n[-4:]) and n.startswith("FY")
                                  and period.startswith("FY") for n in named)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 0.011 * max(abs(a), abs(b), 1e-9)


# ---------------------------------------------------------------- names and courts


@cache
def _links() -> str:
    words = sorted(vocabulary().words("name_links"), key=len, reverse=True)
    return "|".join(re.escape(w) for w in words)


@cache
def _name_pattern() -> re.Pattern[str]:
    link = rf"(?:\s+(?:{_links()})\s+|\s+|\s*&\s*)"
    return re.compile(rf"(?<![\w&]){_NAME_WORD}(?:{link}{_NAME_WORD})+(?![\w&])")


def check_names(text: str, evidence: Evidence, question: str = "") -> list[str]:
    """Names (two capitalised words or more, not opening a sentence) and courts stated beside a
    citation that the cited places never name."""
    errors: list[str] = []
    seen: set[str] = set()
    for statement in statements(text, evidence):
        said = place_text(statement.places, evidence).lower()
        asked = question.lower()
        where = ", ".join(f"{p.document} {p.location}" for p in statement.places)
        for name in [*_names(statement.text), *_courts(statement.text)]:
            key = name.lower()
            if key in seen or key in said or key in asked or _all_words_in(key, said):
                continue
            seen.add(key)
            errors.append(f"“{name}” is not named at {where}, which the sentence cites. Name "
                          "only who and what the cited excerpt names, or cite where it is.")
    return errors


def _names(sentence: str) -> list[str]:
    body = strip_markers(sentence)
    out = []
    for m in _name_pattern().finditer(body):
        name = m.group(0)
        if re.match(r"\s?\d", body[m.end():]):
            # a word right before a number is its currency or unit ("The EUR 3.1 million"),
            # never part of a name
            name = name.rsplit(None, 1)[0] if " " in name else ""
            if not _name_pattern().fullmatch(name):
                continue
        opening = not body[:m.start()].strip(" *_#>-–•:\t\"“„«")
        if opening and not _FORM.search(name):
            # the first word opens the sentence: the rest may still be a name ("Initech AG",
            # ending on a legal form, is one whole)
            rest = name.split(None, 1)[1] if " " in name else ""
            if not _name_pattern().fullmatch(rest):
                continue
            name = rest
        out.append(name)
    return out


def _courts(sentence: str) -> list[str]:
    """A court and the place that follows it ("Regional Court Munich", "Landgericht
    München", "tribunal de commerce de Paris")."""
    body = strip_markers(sentence)
    out = []
    for m in vocabulary().cues("courts").finditer(body):
        tail = re.match(rf"(?:\s+(?:{_links()}))?\s+({_NAME_WORD})", body[m.end():])
        out.append(m.group(0) + (tail.group(0) if tail else ""))
    return out


def _all_words_in(name: str, said: str) -> bool:
    """Every word of a name is said there ("Court Munich" of "Regional Court Munich")."""
    words = [w for w in letter_words(name) if w not in vocabulary().words(
        "name_links")]
    return bool(words) and all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", said) for w in words)


# ---------------------------------------------------------------- small counts


def check_counts(text: str, evidence: Evidence) -> list[str]:
    """A small count stated beside a citation ("3 pending claims") that the cited places never
    state (in digits or in words of any language the vocabulary reads)."""
    errors: list[str] = []
    for statement in statements(text, evidence):
        said = place_text(statement.places, evidence)
        body = strip_markers(statement.text)
        for m in _SMALL.finditer(body):
            number, word = int(m.group(1)), m.group("word")
            if _not_a_count(word) or _counted_at(number, said):
                continue
            if number == len(evidence.documents) and number:
                continue  # the room's own count of documents
            where = ", ".join(f"{p.document} {p.location}" for p in statement.places)
            errors.append(f"“{m.group(0)}”: {where} does not state {number}. Count only what "
                          "the cited excerpts list, or cite where the count is.")
    return errors


def _not_a_count(word: str) -> bool:
    """Days, months and units after a small number ("14 May", "3 months", "5 pm")."""
    return bool(vocabulary().cues("not_counted").fullmatch(word))


def _counted_at(number: int, said: str) -> bool:
    if re.search(rf"(?<![\d.,]){number}(?![\d.,]\d)", said):
        return True
    lowered = said.lower()
    for lang in vocabulary().languages.values():
        words = lang.cues.get("count_words", ())
        if number < len(words) and any(
                re.search(rf"(?<!\w){re.escape(w)}(?!\w)", lowered)
                for w in words[number].split("|")):
            return True
    return False
