"""What a meeting or a document covered: "What did the board discuss in September?".

A question about what a document discussed, decided or covered, with no topic of its own, is
answered with the document's sections in order, each with its first statement and its source
(the minutes of the month asked, else the latest of the role asked). A question with a topic
("what did the board say about Globex?") is left to the passages about that topic.
"""

from __future__ import annotations

import re

from manda.agent.compose.common import Ask, Draft
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.unusual import sentences, trim
from manda.models import Document, DocumentRole, SearchHit
from manda.vocabulary import vocabulary

_WORDS = vocabulary()
_SKIP_BODY = _WORDS.cues("minutes_empty_item")
# The meeting's own housekeeping: no item of substance.
_FORMALITY = _WORDS.cues("minutes_formality")
_DECISION = _WORDS.cues("minutes_decision")


def _document(ask: Ask, evidence: Evidence) -> Document | None:
    roles = ask.frame.roles or (DocumentRole.BOARD_MINUTES,)
    held = {h.document_id for h in evidence.hits}
    docs = [d for d in evidence.documents.values() if d.role in roles and d.id in held]
    if not docs:
        return None
    month = ask.frame.month
    dated = [d for _, d in sorted(((d.doc_date.toordinal() if d.doc_date else 0, d)
                                   for d in docs), key=lambda t: t[0])]
    if month is not None:
        dated = [d for d in dated if d.doc_date and d.doc_date.month == month] or dated
    return dated[-1]


def _order(label: str) -> tuple[int, str]:
    m = re.match(r"\s*(\d+)", label)
    return (int(m.group(1)) if m else 0, label)


def _body(hit: SearchHit) -> str:
    """The section's text after its heading line."""
    text = hit.text.strip()
    label = hit.location.label.strip()
    return text[len(label):].strip() if label and text.startswith(label) else text


def answer(ask: Ask, evidence: Evidence) -> Draft | None:
    """The sections of the meeting or document asked, in order, or None when it is not held."""
    if not ask.frame.digest:
        return None
    doc = _document(ask, evidence)
    if doc is None:
        return None
    decisions = ask.frame.decisions
    hits: dict[str, SearchHit] = {}
    for h in evidence.hits:
        if h.document_id == doc.id:
            hits.setdefault(h.location.label, h)
    lines: list[str] = []
    for label, hit in sorted(hits.items(), key=lambda t: _order(t[0])):
        written = sentences(_body(hit))
        if not written or _SKIP_BODY.begins(written[0]) or not re.match(r"\s*\d", label):
            continue
        said = [s for s in written if len(s) > 15 and not _FORMALITY.search(s)]
        if not said:
            continue
        # what was decided comes first when decisions are asked; else the item's opening
        decided = [s for s in said if _DECISION.search(s)]
        shown = decided[:2] if decisions and decided else said[:2]
        lines.append(f"- **{label}**: {trim(' '.join(shown), 300)} "
                     f"{cite([evidence.hit_source(hit)])}")
    if not lines:
        return None
    when = f" of {doc.doc_date:%-d %B %Y}" if doc.doc_date else ""
    what = "The board meeting" if doc.role is DocumentRole.BOARD_MINUTES else doc.filename
    head = f"{what}{when} ({doc.filename}) covered, item by item:" \
        if doc.role is DocumentRole.BOARD_MINUTES else f"{what}{when} covers, section by section:"
    return Draft(text="\n".join([head, *lines]))
