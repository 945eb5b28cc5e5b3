"""The offline extractor: findings from parsed documents by deterministic rules, no model needed.

It runs when no `ANTHROPIC_API_KEY` is configured and in every test: the same document always
yields the same findings, with verbatim excerpts, exact locations and rubric confidences.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePath

from manda.finance.amounts import (
    currency_from_text,
    currency_of_document,
    scale_from_text,
    writes_decimal_comma,
)
from manda.finance.fiscal import FiscalYearEnd, learn_fiscal_year_end
from manda.finance.periods import find_periods
from manda.ingest.extract.candidates import (
    Candidate,
    SectionView,
    caption_block,
    says_forecast,
    scale_of_note_lines,
)
from manda.ingest.extract.confidence import provenance_attributes, score
from manda.ingest.extract.dedupe import is_placeholder, merge_person_findings, unify_entities
from manda.ingest.extract.excerpts import ChunkLocator, excerpt_span
from manda.ingest.extract.finding import pending_finding
from manda.ingest.extract.legal import legal_candidates
from manda.ingest.extract.names import ORG
from manda.ingest.extract.people import people_candidates
from manda.ingest.extract.profile import DocumentProfile, classify_document
from manda.ingest.extract.prose import prose_candidates, signed_on
from manda.ingest.extract.tables import table_candidates, text_table_candidates
from manda.ingest.parsers.layout import caption_of, is_caption_line
from manda.models import (
    Chunk,
    Document,
    DocumentRole,
    Finding,
    FindingKind,
    LocationKind,
    ParsedDocument,
    Section,
)
from manda.text import YEAR, name_words
from manda.vocabulary import vocabulary

__all__ = ["OfflineExtractor", "build_finding"]

_WORDS = vocabulary()
# a title or heading over people: every name under it is a person worth a finding
_PEOPLE_WORDS = _WORDS.cues("people_context")
_FORECAST_SECTION = _WORDS.cues("forecast_section")
_NOT_PLANS_ALONE = (_WORDS.cues("actuals_column"), _WORDS.cues("plan_compared"))
# "Globex GmbH (the "Company")", "Exemple SAS (ci-après la « Société »)": the target, defined
_DEFINED_TARGET = re.compile(
    rf"(?P<name>{ORG}|[A-Z][\w&\-]+)\s*\(\s*(?:(?i:{_WORDS.cues('target_article').pattern.pattern})"
    rf"\s*)*[\"“'«„]?\s*(?i:{_WORDS.cues('target_names').pattern.pattern})\s*[\"”“'»]?\s*\)")
_GENERIC_TOKENS = _WORDS.words("generic_file_words")  # a file name's words that name no company
_REQUIRES_ENTITY = {FindingKind.PERSON, FindingKind.OWNERSHIP, FindingKind.CUSTOMER}


def _headed_as_plans(section: Section) -> bool:
    """The section stands under a heading of plans ("FY26 budget", "Outlook"), its innermost
    one, that neither names actuals nor sets the plan against them ("Budget vs actual")."""
    heading = section.heading_path[-1] if section.heading_path else ""
    return _FORECAST_SECTION.found(heading) and not any(c.found(heading)
                                                          for c in _NOT_PLANS_ALONE)


def _first_line(text: str) -> str:
    for line in text.split("\n"):
        if line.strip():
            return line.strip()
    return ""




def _document_period(document: Document, parsed: ParsedDocument,
                     profile: DocumentProfile) -> str | None:
    """The period a document reports on, from its name, title or title block."""
    stem = name_words(PurePath(document.filename).stem)
    opening = "\n".join(parsed.sections[0].text.split("\n")[:6]) if parsed.sections else ""
    for source in (stem, parsed.title or "", opening):
        periods = [p for p, _, _ in find_periods(source)]
        if not profile.spec.as_of:
            periods = [p for p in periods if not p.startswith("as of")]
        if periods:
            return periods[0]
    if profile.role is DocumentRole.AUDITED_STATEMENTS:
        year = YEAR.search(f"{stem} {parsed.title or ''}")
        if year is not None:
            return f"FY{year.group(1)}"
    return None


def _target_hint(document: Document, parsed: ParsedDocument) -> str:
    text = "\n".join(s.text for s in parsed.sections[:3])
    defined = _DEFINED_TARGET.search(text)
    if defined is not None:
        return re.sub(r"[^\w]", "", defined.group("name").split()[0]).lower()
    tokens = re.split(r"[\s_\-.]+", PurePath(document.filename).stem)
    first = tokens[0].lower() if tokens else ""
    if len(tokens) < 2 or first in _GENERIC_TOKENS or len(first) < 4 or not first.isalpha():
        return ""
    everything = " ".join(s.text for s in parsed.sections).lower()
    title = (parsed.title or _first_line(parsed.sections[0].text) if parsed.sections else "")
    titled = title.lower().startswith(first)
    return first if titled or everything.count(first) >= 3 else ""


def _views(document: Document, parsed: ParsedDocument,
           profile: DocumentProfile) -> list[SectionView]:
    doc_period = _document_period(document, parsed, profile)
    title = f"{PurePath(document.filename).stem} {parsed.title or ''}"
    people_doc = bool(_PEOPLE_WORDS.search(name_words(title)))
    doc_currency = currency_of_document(section.text for section in parsed.sections)
    hint = _target_hint(document, parsed)
    fiscal_year_end = _fiscal_year_end(document, parsed)
    decimal_comma = writes_decimal_comma("\n".join(s.text for s in parsed.sections
                                                    if not s.table))
    doc_scale = _stated_scale(parsed)
    signed = signed_on("\n".join(s.text for s in parsed.sections[:2])[:1500])
    views: list[SectionView] = []
    for index, section in enumerate(parsed.sections):
        before = parsed.sections[index - 1] if index > 0 else None
        caption = caption_of(before.text) if section.table and before and not before.table else ""
        heading = _first_line(section.text)
        if section.location.kind is LocationKind.SECTION:
            heading = f"{section.location.label} {heading}"
        heading_periods = [
            p for p, _, _ in find_periods(heading[:160])
            if profile.spec.as_of or not p.startswith("as of")
        ]
        head = " ".join(caption_block(section.text))
        views.append(SectionView(
            index=index,
            section=section,
            period=heading_periods[0] if heading_periods else doc_period,
            period_source="heading" if heading_periods else ("document" if doc_period else ""),
            forecast=profile.is_forecast or (
                bool(section.table) and says_forecast(section.location.label)
            ) or _headed_as_plans(section),
            people_context=people_doc or bool(_PEOPLE_WORDS.search(heading[:120])),
            scale=_scale_of("\n".join(caption_block(section.text)), parsed.title or "",
                            doc_scale),
            # a section's own currency is what its unit line says ("(in millions of euros)"),
            # not a stray word of its opening sentence
            currency=(scale_from_text(head) != 1.0 and currency_from_text(head)) or doc_currency,
            target_hint=hint,
            periodic=profile.spec.periodic,
            caption=caption,
            fiscal_year_end=fiscal_year_end,
            decimal_comma=decimal_comma,
            signed=signed,
            issued=document.doc_date,
        ))
    return views


def _scale_of(first_lines: str, title: str, doc_scale: float) -> float:
    """A section's scale: a unit line among its first lines, else the title's, else the
    document's. A figure stated in those lines ("sales grew by $4.9 billion") is no unit line."""
    for scale in (scale_of_note_lines(first_lines), scale_from_text(title)):
        if scale != 1.0:
            return scale
    return doc_scale


# the line of a document-wide unit statement (`unit_statement`: "All amounts in USD thousands
# unless otherwise stated", "Alle Angaben in TEUR", "montants en milliers d'euros")
_UNIT_STATEMENT = _WORDS.cues("unit_statement").around(head=r"[^.\n]*", tail=r"[^.\n]*")


def _stated_scale(parsed: ParsedDocument) -> float:
    """A document-wide unit statement ("All amounts in USD thousands unless otherwise stated"),
    the scale of any table that states none of its own."""
    for section in parsed.sections[:3]:
        for m in _UNIT_STATEMENT.finditer(section.text[:3000]):
            if not is_caption_line(m.group(0)):
                continue  # a sentence stating figures ("grew to EUR 18.4 million") is no unit line
            scale = scale_from_text(m.group(0))
            if scale != 1.0:
                return scale
    return 1.0


def _fiscal_year_end(document: Document, parsed: ParsedDocument) -> FiscalYearEnd | None:
    """The year end the document states, else the one the deal's other documents state."""
    own = learn_fiscal_year_end(s.text for s in parsed.sections)
    if own is not None:
        return own
    return FiscalYearEnd.from_iso(document.fiscal_year_end) if document.fiscal_year_end else None


def _place(text: str, locator: ChunkLocator, chunks: Sequence[Chunk], cand: Candidate
           ) -> tuple[str, Chunk | None]:
    """The excerpt and the chunk that holds it, verbatim in the chunk wherever possible."""
    s, e = excerpt_span(text, *cand.core, bounds=cand.bounds, anchor=cand.anchor)
    excerpt = text[s:e]
    chunk = locator.find(excerpt, e)
    if chunk is not None:
        return excerpt, chunk
    lo, hi = cand.bounds or (max(0, cand.core[0] - 40), min(len(text), cand.core[1] + 40))
    contexts = [(lo, hi), (max(lo, cand.core[0] - 30), min(hi, cand.core[1] + 30)), cand.core]
    for chunk in chunks:
        for cs, ce in contexts:
            at = chunk.text.find(text[cs:ce])
            if at == -1 or ((cs, ce) == cand.core and chunk.text.count(text[cs:ce]) != 1):
                continue
            shift = at - cs
            anchor = cand.anchor
            if anchor is not None and not (cs <= anchor[0] and anchor[1] <= ce):
                anchor = None
            ks, ke = excerpt_span(
                chunk.text, cand.core[0] + shift, cand.core[1] + shift, bounds=(at, at + ce - cs),
                anchor=(anchor[0] + shift, anchor[1] + shift) if anchor else None,
            )
            return chunk.text[ks:ke], chunk
    return excerpt, chunks[0] if chunks else None


def build_finding(document: Document, profile: DocumentProfile, view: SectionView,
                  chunks: Sequence[Chunk], cand: Candidate, *, extractor: str = "offline",
                  locator: ChunkLocator | None = None) -> Finding | None:
    """A candidate made into a Finding: excerpt, chunk, location, id and rubric confidence."""
    locator = locator or ChunkLocator(view.text, chunks)
    excerpt, chunk = _place(view.text, locator, chunks, cand)
    in_chunk = chunk is not None and excerpt in chunk.text
    if not excerpt.strip() or not (in_chunk or excerpt in view.text):
        return None
    location = cand.location or view.section.location
    value = max(0.05, round(score(profile, cand.evidence, nature=cand.nature) - cand.penalty, 2))
    attributes = {**cand.attributes, **provenance_attributes(profile, cand.evidence)}
    return pending_finding(
        document, kind=cand.kind, subject=cand.subject, label=cand.label, period=cand.period,
        value=cand.value, unit=cand.unit, value_text=cand.value_text, entity=cand.entity,
        attributes=attributes, nature=cand.nature, excerpt=excerpt, location=location,
        chunk=chunk, confidence=value, extractor=extractor,
    )


def _clean_entities(findings: list[Finding]) -> list[Finding]:
    out: list[Finding] = []
    for f in findings:
        if f.entity is not None and is_placeholder(f.entity):
            if f.kind in _REQUIRES_ENTITY:
                continue
            f = f.model_copy(update={"entity": None})
        out.append(f)
    return out


def _scale(finding: Finding) -> float:
    """The scale a finding's figure was read at ("1e+06": a table "in millions"), 1 if none."""
    try:
        return float(finding.attributes.get("scale") or 1.0)
    except ValueError:
        return 1.0


MIN_AGREEING = 100.0  # "$9.81" agrees with too much by chance; "$211,915" does not


def agreed_scale(found: Sequence[Finding], scaled: Sequence[Finding]) -> float | None:
    """The scale of a section that states none (a table whose "(In millions)" line stayed on
    the page before): the one at which one of its amounts, as written, is the same line item's
    amount for the same period in a section that states its scale ("Total $211,915" beside the
    income statement's "Revenue 211,915" in millions); None where none agrees."""
    for finding in found:
        if finding.value is None or _scale(finding) != 1.0 or finding.unit in _NOT_MONEY or \
                abs(finding.value) < MIN_AGREEING:
            continue
        for other in scaled:
            factor = _scale(other)
            if other.subject == finding.subject and other.period == finding.period and \
                    other.value is not None and other.unit == finding.unit and \
                    abs(other.value - finding.value * factor) <= 1e-9 * abs(other.value):
                return factor
    return None


_NOT_MONEY = {None, "%", "x", "shares", "people"}


class OfflineExtractor:
    """Deterministic extraction of metrics, people, ownership, contracts, disputes and dates."""

    id = "offline"
    sandboxed = True  # rules only: runs with the parser in the bounded worker process

    def extract(self, document: Document, parsed: ParsedDocument,
                chunks: Sequence[Chunk]) -> list[Finding]:
        profile = classify_document(document.filename, parsed)
        if profile.is_irl:
            return []  # a request list asks for facts; it states none
        views = _views(document, parsed, profile)
        by_section: dict[int, list[Chunk]] = defaultdict(list)
        for chunk in sorted(chunks, key=lambda c: c.ordinal):
            by_section[chunk.section].append(chunk)
        context = f"{parsed.title or ''} {PurePath(document.filename).stem}"

        def found_in(view: SectionView) -> list[Finding]:
            chunks_here = by_section[view.index]
            locator = ChunkLocator(view.text, chunks_here)
            return [f for cand in self._candidates(view, context)
                    if (f := build_finding(document, profile, view, chunks_here, cand,
                                           locator=locator)) is not None]

        per_view = [(view, found_in(view)) for view in views]
        scaled = [f for _, found in per_view for f in found if _scale(f) != 1.0]
        for at, (view, found) in enumerate(per_view):
            if view.scale == 1.0 and (agreed := agreed_scale(found, scaled)) is not None:
                per_view[at] = (view, found_in(replace(view, scale=agreed)))
        findings: dict[str, Finding] = {}
        for _, found in per_view:
            for finding in found:
                kept = findings.get(finding.id)
                if kept is None:
                    findings[finding.id] = finding
                elif kept.entity is None and "facility" in finding.attributes:
                    # the same balance read twice (a table row "Term loan", a note's sentence):
                    # the sentence says which facility it is drawn under
                    findings[finding.id] = kept.model_copy(update={
                        "entity": finding.entity,
                        "attributes": {**kept.attributes,
                                       "facility": finding.attributes["facility"]}})
        cleaned = _clean_entities(list(findings.values()))
        return unify_entities(merge_person_findings(cleaned))

    @staticmethod
    def _candidates(view: SectionView, context: str) -> list[Candidate]:
        if view.section.table:
            return table_candidates(view, context)
        tabular, spans = text_table_candidates(view, context)
        prose, used = prose_candidates(view, spans)
        return [*tabular, *prose, *people_candidates(view), *legal_candidates(view, used)]
