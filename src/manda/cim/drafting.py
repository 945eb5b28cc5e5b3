"""A slide per section, drafted from the room: findings for figures, passages for the story.

Offline drafts are extractive: every bullet is a finding's value or a sentence a document states,
each with its source. Figures come from approved findings first, superseded figures never (a
corrected value is used and the correction noted), and a conflict between documents goes to the
speaker notes, never silently onto the slide. `ground_slide` then removes any bullet stating a
number its sources do not contain — the same rule whichever writer drafted the slide.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import permutations

from manda.agent.compose.common import is_request_list, term_hits
from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence, Source
from manda.agent.selection import Reading, same_kind_periods, series, show
from manda.agent.tools import ToolBox
from manda.agent.unusual import TOPICS, scan, sentences, trim
from manda.cim.model import (
    Bullet,
    BuyerPersona,
    FigureRow,
    OutlineSection,
    SlideCitation,
    SlideDraft,
)
from manda.finance.amounts import find_amounts, same_amount, scale_from_text
from manda.injection import looks_like_instruction
from manda.models import Finding, FindingKind, FindingStatus, Nature
from manda.text import count_of

__all__ = [
    "ExtractiveDrafter",
    "draft_section",
    "extractive_slide",
    "finding_notes",
    "gather_evidence",
    "ground_slide",
    "section_subjects",
]

MAX_BULLETS = 6
EXCERPT_CHARS = 400  # of a cited passage kept with the slide (the deck's notes show it)
MIN_BULLETS = 3
_P_AND_L = ("revenue", "gross profit", "ebitda", "net income")
_TOPIC_SUBJECTS: dict[str, tuple[str, ...]] = {
    "summary": ("revenue", "ebitda", "arr", "headcount"),
    "highlights": ("revenue", "gross margin", "ebitda", "net revenue retention", "arr"),
    "financials": _P_AND_L,
    "debt": ("net debt", "debt", "cash"),
    "operations": ("headcount",),
    "customers": ("customer concentration",),
}
_RISK_TOPICS = {t.key for t in TOPICS}
_PRONOUN = re.compile(r"^(?:she|he|it|they|this|these|those|such|her|his|its|their)\b", re.I)


def cite_source(source: Source, evidence: Evidence | None = None, *,
                focus: str = "") -> SlideCitation:
    """A slide's citation of `source`; a long excerpt is cut to the part that states the numbers
    of `focus` (the line citing it), so the cut still grounds the line."""
    finding = evidence.findings.get(source.finding_id) if evidence and source.finding_id else None
    return SlideCitation(document=source.document, location=source.location,
                         excerpt=focused_excerpt(source.excerpt, focus),
                         finding_id=source.finding_id,
                         value=finding.value if finding else None)


def focused_excerpt(excerpt: str, text: str, limit: int = EXCERPT_CHARS) -> str:
    """At most `limit` characters of `excerpt`, around the numbers `text` states."""
    if len(excerpt) <= limit:
        return excerpt
    wanted = [a.value for a in find_amounts(text)]
    spans = [(a.start, a.end) for scale in {1.0, scale_from_text(excerpt)}
             for a in find_amounts(excerpt, scale=scale)
             if any(same_amount(a.value, w) for w in wanted)]
    if not spans:
        return excerpt[:limit]
    first, last = min(s for s, _ in spans), max(e for _, e in spans)
    start = max(0, first - limit // 5)
    if last > start + limit:
        start = max(0, last - limit + 10)
    return excerpt[start:start + limit]


def _finding_cite(finding: Finding, evidence: Evidence) -> SlideCitation:
    return cite_source(evidence.finding_source(finding), evidence)


def _reading_bullet(reading: Reading, evidence: Evidence) -> Bullet:
    f = reading.primary
    period = f" ({reading.period})" if reading.period else ""
    kind = " forecast" if f.nature is Nature.FORECAST else ""
    return Bullet(text=f"{reading.label}{kind}{period}: {show(f)}",
                  citations=[_finding_cite(f, evidence)])


def _notes(reading: Reading, evidence: Evidence) -> list[str]:
    notes: list[str] = []
    f = reading.primary
    where = evidence.filename(f.document_id)
    for other in reading.conflicts:
        notes.append(f"Conflict on {reading.label} {reading.period or ''}: {where} gives "
                     f"{show(f)}, {evidence.filename(other.document_id)} gives {show(other)} — "
                     "resolve before sending.")
    for old in reading.corrected_from:
        notes.append(f"{reading.label} {reading.period or ''}: {evidence.filename(old.document_id)}"
                     f" stated {show(old)}, corrected to {show(f)} in {where}; the slide uses "
                     "the corrected figure.")
    if f.status is FindingStatus.PENDING:
        stated = f"{show(f)}, {where}" if show(f) else where
        name = f"{reading.label} {reading.period}" if reading.period else reading.label
        notes.append(f"{name} ({stated}) is still waiting for review: approve it before the "
                     "deck goes out.")
    return notes


def _periodic(evidence: Evidence, subject: str, nature: Nature = Nature.ACTUAL) -> list[Reading]:
    """A metric's readings, oldest first: full years when the room has them (a memorandum
    speaks in fiscal years), else the most frequent period kind."""
    readings = series(evidence, subject, nature=nature)
    annual = [r for r in readings if (r.period or "").startswith("FY")]
    return annual or same_kind_periods(readings) or readings


def _latest_readings(evidence: Evidence, subjects: Sequence[str]) -> list[Reading]:
    """The newest actual reading per subject (years preferred), approved findings first."""
    out: list[Reading] = []
    for subject in subjects:
        readings = _periodic(evidence, subject)
        if not readings:
            continue
        approved = [r for r in readings if r.primary.status is FindingStatus.APPROVED]
        out.append((approved or readings)[-1])
    return out


def _growth_bullet(evidence: Evidence, subject: str) -> tuple[Bullet, list[str]] | None:
    readings = _periodic(evidence, subject)
    if len(readings) < 2:
        return None
    old, new = readings[-2], readings[-1]
    a, b = old.primary.value, new.primary.value
    if not a or b is None:
        return None
    change = (b - a) / abs(a) * 100
    verb = "grew" if change >= 0 else "fell"
    text = (f"{new.label} {verb} {abs(change):.0f}% from {show(old.primary)} ({old.period}) to "
            f"{show(new.primary)} ({new.period})")
    cites = [_finding_cite(old.primary, evidence), _finding_cite(new.primary, evidence)]
    return Bullet(text=text, citations=cites), _notes(new, evidence) + _notes(old, evidence)


def _figures(evidence: Evidence, subjects: Sequence[str]) -> tuple[list[FigureRow], list[str]]:
    rows: list[FigureRow] = []
    notes: list[str] = []
    for subject in subjects:
        readings = _periodic(evidence, subject)[-3:]
        forecast = _periodic(evidence, subject, Nature.FORECAST)
        if forecast:
            readings = [*readings, forecast[-1]]
        if not readings:
            continue
        values: dict[str, str] = {}
        cites: list[SlideCitation] = []
        for r in readings:
            label = f"{r.period}F" if r.is_forecast and r.period else (r.period or "")
            values[label] = show(r.primary)
            cites.append(_finding_cite(r.primary, evidence))
            notes += _notes(r, evidence)
        rows.append(FigureRow(label=readings[-1].label, values=values, citations=cites))
    return rows, notes


def _people(evidence: Evidence) -> tuple[list[Bullet], list[str]]:
    bullets: list[Bullet] = []
    people = [f for f in evidence.usable_findings()
              if f.kind is FindingKind.PERSON and f.status is not FindingStatus.SUPERSEDED]
    people.sort(key=lambda f: (f.status is not FindingStatus.APPROVED, f.label))
    seen: set[str] = set()
    for f in people:
        key = (f.entity or f.label).lower()
        if key in seen:
            continue
        seen.add(key)
        bullets.append(Bullet(text=f.label, citations=[_finding_cite(f, evidence)]))
    roles = " ".join(b.text.lower() for b in bullets)
    missing = [role for role, words in (("CEO", ("chief executive", "ceo", "managing director")),
                                        ("CFO", ("chief financial", "cfo", "finance director")))
               if not any(w in roles for w in words)]
    notes = [f"No {role} is named in the data room: ask the seller." for role in missing]
    return bullets, notes


def _risks(evidence: Evidence) -> list[Bullet]:
    return [Bullet(text=f"{item.topic.flag_label}: {item.statement}",
                   citations=[cite_source(item.source)])
            for item in scan(evidence) if item.topic.key in _RISK_TOPICS]


def _story(evidence: Evidence, section: OutlineSection, limit: int) -> list[Bullet]:
    """Statements on the section's topic, best first: sentences sharing the most of its words,
    from the best-ranked passages (request lists and instructions never count)."""
    terms = list(dict.fromkeys(re.findall(r"[a-z]{3,}", section.query.lower())))
    scored: list[tuple[int, int, str, Source]] = []
    for rank, hit in enumerate(evidence.hits):
        if is_request_list(evidence, hit.document_id):
            continue
        source = evidence.hit_source(hit)
        for sentence in sentences(hit.text):
            if (len(sentence.split()) < 6 or " | " in sentence or _PRONOUN.match(sentence)
                    or (sentence.rstrip()[-1:] not in ".!;)%" and len(sentence.split()) < 9)
                    or looks_like_instruction(sentence)):
                continue  # a heading, a table row, a dangling "she"/"it", an instruction
            hits = term_hits(sentence, terms)
            if hits >= (1 if rank < 3 else 2):
                scored.append((-hits, rank, trim(sentence), source))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [Bullet(text=text.rstrip("."), citations=[cite_source(source)])
            for _, _, text, source in scored[:limit]]


async def gather_evidence(ctx: AgentContext, deal_id: str, section: OutlineSection) -> Evidence:
    """What the room holds on `section`: its passages, the findings on its metrics and their
    corrections and conflicts — the same material whichever writer drafts the slide."""
    documents = await ctx.graph.list_documents(deal_id)
    evidence = Evidence(documents={d.id: d for d in documents})
    box = ToolBox(ctx, deal_id, evidence)
    subjects = section_subjects(section)
    await box.gather({"query": section.query, "subject": list(subjects), "k": 8})
    if section.topic == "risks":
        for topic in TOPICS:
            await box.gather({"query": topic.query, "k": 4})
    return evidence


def section_subjects(section: OutlineSection) -> tuple[str, ...]:
    """The metrics a section's slide is about (none for a narrative section)."""
    return _TOPIC_SUBJECTS.get(section.topic, ())


def extractive_slide(evidence: Evidence, section: OutlineSection, *,
                     slide_title: str | None = None) -> SlideDraft:
    """One slide for `section` from `evidence` alone (offline, extractive, cited)."""
    subjects = section_subjects(section)
    bullets: list[Bullet] = []
    figures: list[FigureRow] = []
    notes: list[str] = []
    topic = section.topic
    if topic in {"summary", "highlights", "operations", "debt", "customers"}:
        for reading in _latest_readings(evidence, subjects):
            bullets.append(_reading_bullet(reading, evidence))
            notes += _notes(reading, evidence)
    if topic in {"summary", "highlights", "financials"}:
        growth = _growth_bullet(evidence, "revenue")
        if growth is not None:
            bullets.insert(0, growth[0])
            notes += growth[1]
    if topic in {"financials", "summary"}:
        figures, figure_notes = _figures(evidence, _P_AND_L if topic == "financials" else
                                         ("revenue", "ebitda"))
        notes += figure_notes
    if topic == "financials":
        for reading in _latest_readings(evidence, ("ebitda",)):
            bullets.append(_reading_bullet(reading, evidence))
        forecast = [r for s in ("revenue", "ebitda")
                    for r in series(evidence, s, nature=Nature.FORECAST)[-1:]]
        bullets += [_reading_bullet(r, evidence) for r in forecast]
    if topic == "management":
        people, people_notes = _people(evidence)
        bullets += people
        notes += people_notes
    if topic == "customers":
        bullets += [item for item in _risks(evidence) if item.text.startswith("Customer")]
    if topic == "risks":
        bullets += _risks(evidence)
    if len(bullets) < MIN_BULLETS:
        bullets += _story(evidence, section, MAX_BULLETS - len(bullets))
    bullets = _unique(bullets)[:MAX_BULLETS]
    draft = SlideDraft(section_id=section.id, title=slide_title or section.title,
                       bullets=bullets, figures=figures, notes=list(dict.fromkeys(notes)))
    if len(draft.bullets) < MIN_BULLETS:
        found = count_of(len(draft.bullets), "statement")
        draft.notes.append(f"Only {found} on this topic found in the room; consider merging this "
                           "section or asking the seller.")
    return ground_slide(draft)


async def draft_section(
    ctx: AgentContext, deal_id: str, section: OutlineSection, *, slide_title: str | None = None
) -> SlideDraft:
    """One slide for `section`, from what the room holds (offline, extractive, cited)."""
    evidence = await gather_evidence(ctx, deal_id, section)
    return extractive_slide(evidence, section, slide_title=slide_title)


class ExtractiveDrafter:
    """The offline `SlideDrafter`: every line a finding or a sentence the room states."""

    name = "extractive"

    async def draft(self, ctx: AgentContext, deal_id: str, section: OutlineSection,
                    persona: BuyerPersona | None = None) -> SlideDraft:
        return await draft_section(ctx, deal_id, section)


def finding_notes(finding: Finding, evidence: Evidence, *, noted: Collection[str] = (),
                  said: Collection[str] = ()) -> list[str]:
    """What the speaker notes must say about a figure a slide uses: its conflicts, the figure it
    corrects, and whether it still waits for review. A conflict is left out when a note citing
    both sides (`noted` finding ids) says it, or when the other side's notes (`said`) did."""
    older = evidence.predecessor(finding.id)
    corrected = [older] if older is not None and older.value != finding.value else []
    conflicts = [o for o in evidence.conflicts_of(finding.id)
                 if not (finding.id in noted and o.id in noted) and o.id not in said]
    reading = Reading(subject=finding.subject, label=finding.label, period=finding.period,
                      primary=finding, conflicts=conflicts, corrected_from=corrected)
    return _notes(reading, evidence)


def _unique(bullets: Sequence[Bullet]) -> list[Bullet]:
    seen: set[str] = set()
    out: list[Bullet] = []
    for b in bullets:
        key = " ".join(b.text.lower().split())
        if key not in seen:
            seen.add(key)
            out.append(b)
    return out


# ---------------------------------------------------------------- grounding


def slide_values(citations: Sequence[SlideCitation]) -> list[float]:
    """Every value the cited places state (their findings' values, their excerpts' numbers)."""
    values: list[float] = [c.value for c in citations if c.value is not None]
    for c in citations:
        for scale in {1.0, scale_from_text(c.excerpt)}:
            values += [a.value for a in find_amounts(c.excerpt, scale=scale)]
    return values


def grounded_line(text: str, citations: Sequence[SlideCitation]) -> bool:
    """Every number of `text` is in its sources, or a change between two of them."""
    values = slide_values(citations)
    stated = find_amounts(text)
    plain = [a for a in stated if a.unit != "%"] + [a for a in stated if a.unit == "%"]
    for amount in plain:
        if any(same_amount(amount.value, v) for v in values):
            continue
        if amount.unit == "%" and any(
                b and abs(abs((a - b) / abs(b) * 100) - abs(amount.value)) <= 0.6
                for a, b in permutations(values, 2)):
            continue
        return False
    return True


def ground_slide(draft: SlideDraft) -> SlideDraft:
    """The slide without any bullet or figure whose numbers its own sources do not state."""
    kept = [b for b in draft.bullets if b.citations and grounded_line(b.text, b.citations)]
    rows = [r for r in draft.figures
            if r.citations and all(grounded_line(v, r.citations) for v in r.values.values())]
    dropped = len(draft.bullets) - len(kept) + len(draft.figures) - len(rows)
    notes = list(draft.notes)
    if dropped:
        notes.append(f"{count_of(dropped, 'line')} removed: a number in them is not in any "
                     "cited source.")
    return draft.model_copy(update={"bullets": kept, "figures": rows, "notes": notes})
