"""Confidence, translated into what a deal team can weigh: age, draft vs final, forecast vs actual.

Manda never shows a score. It says where a figure comes from instead: "from a draft dated …",
"later corrected in …", "this was a forecast; actuals show …", "a preliminary estimate".
"""

from __future__ import annotations

import re
from datetime import date

from manda.agent.evidence import Evidence
from manda.finance.periods import period_end
from manda.models import Document, Finding
from manda.vocabulary import vocabulary

_AS_OF = re.compile(r"^as of (\d{4})-(\d{2})-(\d{2})$")
_WORDS = vocabulary()
_PRELIMINARY = _WORDS.cues("basis_preliminary")  # "preliminary", "vorläufig", "provisoire"
_AUDITED = _WORDS.cues("basis_audited")  # "audited", "testiert", "opinion sans réserve"
_NOT = _WORDS.cues("basis_not")  # "not audited", "nicht geprüft", "non audités"
_REVIEWED = _WORDS.cues("basis_reviewed")


def _audited(text: str) -> bool:
    return any(not _NOT.ends(text[: m.start()]) for m in _AUDITED.finditer(text))


def day(value: date) -> str:
    return f"{value.day} {value:%B %Y}"


def period_phrase(period: str | None) -> str:
    """`Q3 2024` → "in Q3 2024"; `as of 2024-09-30` → "as of 30 September 2024"."""
    if not period:
        return ""
    if m := _AS_OF.match(period):
        return f"as of {day(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))}"
    if period.startswith("LTM ") and (end := period_end(period)) is not None:
        return f"in the twelve months to {end:%B %Y} (LTM)"
    return f"in {period}"


def period_name(period: str | None) -> str:
    phrase = period_phrase(period)
    return phrase.removeprefix("in ") if phrase else ""


def dated(document: Document | None) -> str:
    if document is None or document.doc_date is None:
        return ""
    return f"dated {day(document.doc_date)}"


def document_basis(finding: Finding, evidence: Evidence) -> str:
    """How much weight the source carries, in words (never a number)."""
    doc = evidence.document_of(finding)
    words: list[str] = []
    texts = [finding.excerpt] + [h.text for h in evidence.hits if h.document_id ==
                                 finding.document_id]
    if note := evidence.annotations.get((finding.document_id, finding.location.label)):
        texts.append(note)
    if doc is not None and doc.draft:
        words.append(f"a draft {dated(doc)}".strip())
    elif any(_PRELIMINARY.search(t) for t in texts):
        words.append("a preliminary estimate")
    elif any(_audited(t) for t in texts[:1]) or (
        doc is not None and doc.authoritative and any(_audited(t) for t in texts)
    ):
        words.append("audited")
    elif any(_REVIEWED.search(t) for t in texts):
        words.append("reviewed")
    return ", ".join(words)


def age_note(older: Document | None, newer: Document | None) -> str:
    """"from a draft dated two months earlier" style: how far apart two documents are."""
    if older is None or newer is None or not older.doc_date or not newer.doc_date:
        return ""
    days = (newer.doc_date - older.doc_date).days
    if days <= 0:
        return ""
    if days < 45:
        return f"{days} days earlier"
    months = round(days / 30.4)
    return f"{months} month{'s' if months != 1 else ''} earlier"
