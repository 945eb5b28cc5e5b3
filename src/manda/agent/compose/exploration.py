"""exploration: a high-level overview of the data room with drill-down offers."""

from __future__ import annotations

from manda.agent.compose.common import Ask, Draft, cite_findings
from manda.agent.compose.synthesis import latest
from manda.agent.evidence import Evidence
from manda.agent.selection import in_text, show
from manda.agent.translate import dated, period_phrase
from manda.agent.unusual import scan
from manda.models import Document, RelationType
from manda.text import name_words
from manda.vocabulary import Cues, vocabulary

_WORDS = vocabulary()
# the room's groups of documents, each with the words of a file name that put a file in it
_GROUPS: tuple[tuple[str, Cues], ...] = tuple((name, _WORDS.cues(key)) for name, key in (
    ("Information request list", "file_request_list"),
    ("Financial reports", "file_financial_report"),
    ("Forecasts and budgets", "file_forecast"),
    ("Management accounts", "file_management_accounts"),
    ("Presentations", "file_presentation"),
    ("Legal and corporate", "file_legal"),
    ("People", "file_people"),
    ("Commercial", "file_commercial"),
))


def group_of(document: Document) -> str:
    if document.is_irl:
        return "Information request list"
    name = name_words(document.filename)
    for group, words in _GROUPS:
        if words.found(name):
            return group
    return "Other documents"


def compose(ask: Ask, evidence: Evidence) -> Draft:
    documents = sorted(evidence.documents.values(), key=lambda d: (group_of(d), d.filename))
    if not documents:
        return Draft(
            text=("This deal has no documents yet. Ingest its data room with "
                  "`manda ingest --deal DEAL PATH...` or drop files into the deal channel."),
        )
    grouped: dict[str, list[Document]] = {}
    for doc in documents:
        grouped.setdefault(group_of(doc), []).append(doc)
    parts = [f"The data room holds {len(documents)} documents."]
    for name, docs in grouped.items():
        listed = "; ".join(
            f"{d.filename}" + (f" ({dated(d)})" if d.doc_date else "")
            + (" — draft" if d.draft else "")
            for d in docs
        )
        parts.append(f"- **{name}**: {listed}")
    highlights = []
    for subject in ("revenue", "ebitda", "headcount"):
        reading = latest(evidence, subject)
        if reading is not None:
            highlights.append(f"- {reading.label}: {show(reading.primary)} "
                              f"{period_phrase(reading.period)} "
                              f"{cite_findings([reading.primary], evidence)}")
    if highlights:
        parts += ["", "**Headline figures**", *highlights]
    parts += ["", "**Where to drill down**", *_offers(evidence)]
    return Draft(text="\n".join(parts))


def _offers(evidence: Evidence) -> list[str]:
    offers: list[str] = []
    for rel in evidence.relations:
        a = evidence.findings.get(rel.source_id)
        if a is None:
            continue
        if rel.type is RelationType.CONTRADICTS:
            offers.append(f"- “What was {a.period} {in_text(a.label)}?” — two documents "
                          "disagree on it.")
        elif rel.type is RelationType.SUPERSEDES and a.value != getattr(
                evidence.findings.get(rel.target_id), "value", a.value):
            offers.append(f"- “What was {a.period} {in_text(a.label)}?” — a later version "
                          "corrected it.")
    offers = list(dict.fromkeys(offers))[:3]
    for item in scan(evidence)[:3]:
        offers.append(f"- “Tell me about {in_text(item.topic.flag_label)}.”")
    offers.append("- “What are the red flags?” (`/manda redflags`) or “What is missing from "
                  "the IRL?” (`/manda gaps`)")
    return offers
