"""Pieces every answer shape shares: the request being answered, sourced sentences, the Q&A offer.

The offline composer builds answers only from extracted values and the exact sentences of the
retrieved passages, so an instruction written inside a document can never change what it says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from manda.agent.compose.stated import finding_places
from manda.agent.evidence import Evidence, SearchNote, Source
from manda.agent.frame import QuestionFrame
from manda.agent.grounding import cite
from manda.agent.selection import (
    Reading,
    asked_label,
    show,
    shown_as_named,
    subject_base,
    subject_label,
)
from manda.agent.tables import Row, Table, read_tables
from manda.agent.topics import Shape
from manda.agent.translate import age_note, dated, document_basis, period_name, period_phrase
from manda.agent.unusual import sentences, trim
from manda.answers import Caution, Intent, SuggestedAction
from manda.finance.amounts import scale_from_text
from manda.finance.periods import period_sort_key
from manda.finance.vocabulary import canonical_subject, line_item_of, metric_spec
from manda.injection import looks_like_instruction
from manda.models import DocumentRole, Finding, FindingStatus, SearchHit
from manda.vocabulary import vocabulary


@dataclass(frozen=True)
class Ask:
    """The question as the composer answers it: its frame (read once, `manda.agent.frame`), and
    what the conversation resolved it to. Composers never read the question's text again."""

    intent: Intent
    frame: QuestionFrame
    subject: str | None = None
    period: str | None = None
    entity: str | None = None
    assumption: str | None = None  # "For Q3 2024"

    @classmethod
    def of(cls, frame: QuestionFrame) -> Ask:
        """A question asked on its own (no conversation before it)."""
        return cls(intent=frame.intent, frame=frame, subject=frame.subject, period=frame.period,
                   entity=frame.entity)

    @property
    def language(self) -> str:
        return self.frame.language

    def label_of(self, subject: str) -> str:
        """A statement line's name as the question names it ("Operating income", not the
        vocabulary's "EBIT"). Answers are worded in English, so only an English question's
        wording counts, and only for amounts and rates: a count's synonyms include how a deal
        team asks for it ("do they employ"), which is no name."""
        label = subject_label(subject) or subject
        spec = metric_spec(subject)
        if self.language != "en" or spec is None or spec.unit_kind not in ("currency", "percent"):
            return label
        return asked_label(label, dict(self.frame.named_as).get(subject))


@dataclass
class Draft:
    """A composed answer before the gate: markdown, proposed actions, what it must offer."""

    text: str
    proposals: list[SuggestedAction] = field(default_factory=list)
    offer_qa: bool = False
    rests_on: list[Finding] = field(default_factory=list)
    cautions: list[Caution] = field(default_factory=list)  # kept apart from `text`
    short: bool = False  # it says what it could not answer ("its growth cannot be computed")


def sources_of(findings: Sequence[Finding], evidence: Evidence) -> list[Source]:
    return [evidence.finding_source(f) for f in findings]


def cite_findings(findings: Sequence[Finding], evidence: Evidence) -> str:
    return cite(sources_of(findings, evidence))


def with_assumption(assumption: str | None, sentence: str) -> str:
    """"For Q3 2024, EBITDA was …" — the inherited period stated first."""
    if not assumption:
        return sentence
    return f"{assumption}, {sentence[:1].lower()}{sentence[1:]}" if not sentence[:2].isupper() \
        else f"{assumption}, {sentence}"


def was(label: str) -> str:
    """The verb a line item takes: "Revenue was", "Net sales were", "Operating loss was"."""
    last = label.split()[-1] if label.split() else ""
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is")) and not last.isupper()
    return "were" if plural else "was"


def named_in(label: str, language: str) -> str:
    """A line item's label said in the answer's language, the document's own words beside it:
    "Chiffre d'affaires (Net sales)" for a French question on an English filing. The label as it
    stands in English, where it is the language's own wording, or names no line item."""
    if language == "en":
        return label
    item = line_item_of(label)
    subject = item.subject if item is not None else canonical_subject(label)
    if subject is None:
        return label
    name = vocabulary().subject_name(subject, language)
    own = vocabulary().languages[language].line_items.get(subject, ())
    said = label.lower()
    if name == subject or name.lower() in said or any(w in said for w in own):
        return label  # the label is in the language's own words
    return f"{name[:1].upper()}{name[1:]} ({label})"


def value_sentence(reading: Reading, evidence: Evidence, *, with_period: bool = True,
                   language: str = "en") -> str:
    """"Revenue was €5.2M in Q3 2024 (sources: …)." or the forecast wording; in another
    language, its `row_figure` wording with the line item named in it."""
    primary = reading.primary
    places = finding_places(reading, evidence)  # its statement page first (compose.stated)
    where = cite_findings([*places, *reading.support], evidence)
    when = f" {period_phrase(reading.period)}" if with_period and reading.period else ""
    if reading.is_forecast:
        period = f" for {period_name(reading.period)}" if with_period and reading.period else ""
        return (f"{reading.label} is forecast at {shown_as_named(primary, reading.label)}{period} "
                f"{where} — this is a "
                "forecast, not an actual result.")
    doc = evidence.document_of(primary)
    draft = f", from a draft {dated(doc)}".rstrip() if doc is not None and doc.draft else ""
    position = net_position(reading, evidence)
    if position is None and language != "en":
        words = vocabulary()
        period = words.answer("period_in", language, period=period_name(reading.period)) \
            if with_period and reading.period else ""
        return (words.answer("row_figure", language, item=named_in(reading.label, language),
                             figure=shown_as_named(primary, reading.label), when=period).rstrip()
                + f"{draft} {where}.")
    if position is None:
        return (f"{reading.label} {was(reading.label)} {shown_as_named(primary, reading.label)}"
                f"{when}{draft} {where}.")
    where = cite_findings([*places, *reading.support, *position.compared], evidence)
    return (f"{reading.label} {was(reading.label)} {show(position.stated)}{when}{draft}"
            f"{position.words} {where}.")


@dataclass(frozen=True)
class NetPosition:
    """What a negative net debt figure is: a net cash position, or debt shown as a deduction."""

    stated: Finding  # the figure as the sentence gives it
    words: str  # what follows it: ", a net cash position of €2.8M: cash of …"
    compared: list[Finding]  # the cash and debt of the same date it was decided on


def net_position(reading: Reading, evidence: Evidence) -> NetPosition | None:
    """Net cash or net debt, decided from the cash and gross debt of the same date where the
    documents state both (net cash when cash exceeds debt); else from the sign, where a
    bracketed figure is not read as net cash: a QoE bridge brackets debt as a deduction."""
    from manda.agent.selection import findings_for

    primary, value = reading.primary, reading.primary.value
    if subject_base(reading.subject) != "net debt" or value is None or primary.period is None:
        return None
    cash, debt = _same_date(evidence, primary, "cash"), _same_date(evidence, primary, "debt")
    if cash is not None and debt is not None and cash.value is not None and debt.value is not None:
        held = primary.model_copy(update={"value": abs(value), "value_text": None})
        # net cash only when cash exceeds every gross debt figure stated for that date
        gross = max(abs(f.value or 0.0) for f in findings_for(evidence, "debt")
                    if f.period == primary.period and f.entity is None
                    and subject_base(f.subject) == "debt")
        more_cash = abs(cash.value) > max(abs(debt.value), gross)
        facts = (f"cash of {show(_magnitude(cash))} {'exceeds' if more_cash else 'is less than'} "
                 f"debt of {show(_magnitude(debt))} at that date")
        if more_cash:
            return NetPosition(primary, f", a net cash position of {show(held)}: {facts}",
                               [cash, debt])
        if value < 0:  # "(3,150)" in a bridge: debt, written as a deduction
            return NetPosition(held, f" (written {primary.value_text or show(primary)}, a "
                               f"deduction in its table: {facts})", [cash, debt])
        return None
    if value >= 0 or "(" in (primary.value_text or ""):
        return None  # "(3,150)" alone: a bracketed figure may be debt shown as a deduction
    held = primary.model_copy(update={"value": -value, "value_text": None})
    return NetPosition(primary, f", a net cash position of {show(held)}", [])


def _magnitude(finding: Finding) -> Finding:
    """A balance as an amount: "(1,850)" in a bridge is £1.85M of cash."""
    if finding.value is None or finding.value >= 0:
        return finding
    return finding.model_copy(update={"value": -finding.value, "value_text": None})


def _same_date(evidence: Evidence, primary: Finding, subject: str) -> Finding | None:
    """The cash (or gross debt: no single facility's) of the net debt figure's date: from its
    own document first (a bridge states what it nets), then approved, then the largest."""
    from manda.agent.selection import findings_for

    found = [f for f in findings_for(evidence, subject) if f.period == primary.period
             and f.value is not None and f.entity is None and f.nature is primary.nature
             and subject_base(f.subject) == subject]
    if not found:
        return None
    return max(found, key=lambda f: (f.document_id == primary.document_id,
                                     f.status is FindingStatus.APPROVED, abs(f.value or 0.0)))


def correction_sentence(reading: Reading, evidence: Evidence) -> str:
    if not reading.corrected_from:
        return ""
    old = reading.corrected_from[0]
    newer = evidence.latest(old)
    new_doc = evidence.filename((newer if newer is not old else reading.primary).document_id)
    old_doc = evidence.filename(old.document_id)
    kind = "forecast was revised" if reading.is_forecast else "figure was corrected"
    return (f"The earlier {kind}: {old_doc} stated {show(old)} "
            f"{cite_findings([old], evidence)}, corrected in {new_doc}.")


def conflict_sentence(reading: Reading, evidence: Evidence) -> str:
    if not reading.conflicts:
        return ""
    parts = []
    newer = evidence.document_of(reading.primary)
    for other in reading.conflicts:
        basis = document_basis(other, evidence)
        note = f", described there as {basis}" if basis == "a preliminary estimate" else ""
        older = evidence.document_of(other)
        if older is not None and older.draft:
            gap = age_note(older, newer)
            note = f", from a draft {dated(older)}" + (f" ({gap})" if gap else "")
        parts.append(f"{evidence.filename(other.document_id)} gives {show(other)} for the same "
                     f"period{note} {cite_findings([other], evidence)}")
    main = evidence.filename(reading.primary.document_id)
    main_basis = document_basis(reading.primary, evidence)
    main_note = f" ({main_basis})" if main_basis in ("audited", "reviewed") else ""
    return ("These sources conflict: " + "; ".join(parts)
            + f", against {show(reading.primary)} in {main}{main_note}.")


def describe_reading(reading: Reading, evidence: Evidence, assumption: str | None = None,
                     language: str = "en") -> str:
    stated = bool(assumption) and reading.period is not None and reading.period in (
        assumption or "")
    text = with_assumption(assumption, value_sentence(reading, evidence, with_period=not stated,
                                                      language=language))
    extra = [correction_sentence(reading, evidence), conflict_sentence(reading, evidence)]
    return " ".join([text, *[e for e in extra if e]])


def approvals(findings: Sequence[Finding]) -> list[SuggestedAction]:
    """Findings an answer rests on that still wait for a person's review."""
    return [SuggestedAction(type="approve_finding", finding_id=f.id)
            for f in findings if f.status is FindingStatus.PENDING]


def qa_action(question: str, category: str) -> SuggestedAction:
    return SuggestedAction(type="add_to_qa", question=question, category=category)


def qa_offer(count: int = 1, language: str = "en") -> str:
    """The offer to add the open question(s) to the deal's Q&A list, in the question's
    language."""
    if count == 1:
        return vocabulary().answer("offer_qa", language)
    return vocabulary().answer("offer_qa_many", language, count=count)


# ---------------------------------------------------------------- passages

_WORD = re.compile(r"[a-zà-ÿ0-9][a-zà-ÿ0-9&\-]+", re.IGNORECASE)


def stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ies", "es", "s", "ed"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def term_hits(text: str, terms: Sequence[str]) -> int:
    words = {stem(w) for w in _WORD.findall(text)}
    return sum(1 for t in terms if stem(t) in words)


def best_sentences(
    evidence: Evidence, terms: Sequence[str], *, limit: int = 2, must: Sequence[str] = ()
) -> list[tuple[str, Source]]:
    """The passage sentences that share most of the question's words (instructions excluded)."""
    if not terms:
        return []
    scored: list[tuple[float, str, Source]] = []
    for hit in evidence.hits:
        if is_request_list(evidence, hit.document_id):
            continue
        source = evidence.hit_source(hit)
        for sentence in sentences(hit.text):
            if looks_like_instruction(sentence) or len(sentence) < 12:
                continue
            lowered = sentence.lower()
            if must and not all(m.lower() in lowered for m in must):
                continue
            hits = term_hits(sentence, terms)
            if hits:
                scored.append((hits / len(terms) + min(len(sentence), 200) / 2000, sentence,
                               source))
    scored.sort(key=lambda t: t[0], reverse=True)
    out: list[tuple[str, Source]] = []
    for score, sentence, source in scored:
        if score < 0.5:
            break
        if all(sentence != s for s, _ in out):
            out.append((trim(sentence), source))
        if len(out) >= limit:
            break
    return out


def is_request_list(evidence: Evidence, document_id: str) -> bool:
    """The IRL asks for things; it is never evidence that they exist."""
    doc = evidence.documents.get(document_id)
    return doc is not None and doc.is_irl


def current(findings: Sequence[Finding], evidence: Evidence) -> list[Finding]:
    """Findings not replaced by a correction."""
    return [f for f in findings if f.status is not FindingStatus.SUPERSEDED
            and evidence.successor(f.id) is None]


def largest_shares(found: Sequence[Finding]) -> tuple[str, list[Finding]]:
    """The document stating the most holders (of shares, of revenue), and its latest statement
    per holder, largest first: one register or customer list, never a mix of two."""
    by_doc: dict[str, list[Finding]] = {}
    for f in found:
        by_doc.setdefault(f.document_id, []).append(f)
    doc_id = max(by_doc, key=lambda d: (len({x.subject for x in by_doc[d]}),
                                        max(period_sort_key(x.period) for x in by_doc[d])))
    latest: dict[str, Finding] = {}
    for f in sorted(by_doc[doc_id], key=lambda x: period_sort_key(x.period)):
        latest[f.subject] = f
    return doc_id, sorted(latest.values(), key=lambda f: -(f.value or 0.0))


def role_rank(evidence: Evidence, finding: Finding, shape: Shape) -> int:
    """0 for a document of the shape's first role, 1 for its second …; after all of them, the
    rest (so sorting on it puts the documents that hold the topic first)."""
    doc = evidence.documents.get(finding.document_id)
    if doc is None or doc.role not in shape.roles:
        return len(shape.roles)
    return shape.roles.index(doc.role)


def role_hits(evidence: Evidence, roles: Sequence[DocumentRole]) -> list[SearchHit]:
    """Retrieved passages of documents in `roles` (first), then the rest; never the IRL."""
    wanted = [h for h in evidence.hits if (doc := evidence.documents.get(h.document_id))
              is not None and doc.role in roles]
    rest = [h for h in evidence.hits if h not in wanted]
    return [h for h in [*wanted, *rest] if not is_request_list(evidence, h.document_id)]


def tables_of(hits: Sequence[SearchHit]) -> list[tuple[Table, SearchHit]]:
    """Each table the passages hold, with the passage it stands in."""
    return [(t, h) for h in hits for t in read_tables(h.text)]


def whole_tables(hits: Sequence[SearchHit]
                     ) -> list[tuple[Table, SearchHit, list[SearchHit]]]:
    """Tables of the passages, with the passages of one sheet that repeat its header (a long
    register is indexed in pieces) joined back into one table, in sheet order, with every
    passage it came from."""
    pieces: dict[tuple[str, tuple[str, ...]], list[tuple[Table, SearchHit]]] = {}
    for table, hit in tables_of(hits):
        pieces.setdefault((hit.document_id, tuple(table.header)), []).append((table, hit))
    out: list[tuple[Table, SearchHit, list[SearchHit]]] = []
    for parts in pieces.values():
        parts.sort(key=lambda th: first_row(th[1].location.label))
        whole = Table(list(parts[0][0].header), [], list(parts[0][0].caption))
        for table, _ in parts:
            seen = {r.line for r in whole.rows}
            whole.rows += [r for r in table.rows if r.line not in seen]
        out.append((whole, parts[0][1], [h for _, h in parts]))
    return out


def first_row(label: str) -> int:
    """`Cap Table!A13:G18` → 13: where a sheet passage starts (0 when not a cell range)."""
    m = re.search(r"![A-Z]{1,3}(\d+)", label)
    return int(m.group(1)) if m else 0




# a first header cell that only names the scale ("000", "TEUR", "k€"), in every language
_SCALE_WORDS = frozenset({"000"} | {
    w.lower() for lang in vocabulary().languages.values()
    for words in (*lang.numbers.multipliers.values(), *lang.numbers.scales.values(),
                  lang.numbers.thousands_of_currency) for w in words})


def scale_note(table: Table) -> str:
    """What the figures are in, as the document says it ("All amounts in £000.")."""
    for line in [*table.caption, table.header[0] if table.header else ""]:
        if len(line) < 80 and scale_from_text(line.strip().rstrip(".")) != 1.0:
            return line.strip().rstrip(".")
    return ""


def render_rows(table: Table, rows: Sequence[Row], source: Source) -> list[str]:
    """Rows as a markdown table under their own column headers, the source on the heading."""
    columns = [h for h in table.header[1:] if any(r.cells.get(h, "").strip() for r in rows)]
    if not columns:
        return [f"- {r.render()} {cite([source])}" for r in rows]
    first = table.header[0] if table.header else ""
    first = "" if first.strip().lower() in _SCALE_WORDS else first
    lines = [f"| {first or 'Line'} | " + " | ".join(columns) + " |",
             "|---|" + "---|" * len(columns)]
    for r in rows:
        lines.append(f"| {r.label} | " + " | ".join(r.cells.get(h, "—") or "—" for h in columns)
                     + " |")
    return lines


def requested_in_irl(evidence: Evidence, terms: Sequence[str]) -> tuple[str, Source] | None:
    """The IRL row that asks for what the question is about, if one was retrieved."""
    if not terms:
        return None
    best: tuple[int, str, Source] | None = None
    for hit in evidence.hits:
        if not is_request_list(evidence, hit.document_id):
            continue
        for line in hit.text.splitlines():
            score = term_hits(line, terms)
            if score and (best is None or score > best[0]):
                best = (score, line.strip(), evidence.hit_source(hit))
    return (best[1], best[2]) if best else None


def mentions(evidence: Evidence, name: str) -> bool:
    """Does anything retrieved for this deal name `name` (an entity from the question)?"""
    wanted = name.lower()
    first = wanted.split()[0]
    for hit in evidence.hits:
        if wanted in hit.text.lower() or (len(first) > 3 and first in hit.text.lower()):
            return True
    for finding in evidence.usable_findings():
        blob = " ".join(filter(None, [finding.entity, finding.subject, finding.excerpt])).lower()
        if wanted in blob or (len(first) > 3 and first in blob):
            return True
    return False


def searched_phrase(evidence: Evidence, ask: Ask) -> str:
    """"I searched the 12 documents of this deal's data room (…)", in the question's language."""
    docs = len(evidence.documents)
    words = vocabulary()
    # the question itself is quoted once, in the Q&A offer; other searches are named here
    searched = [said_in(s, ask.language) for s in evidence.searched[:4]
                if not ask.frame.is_itself(s)]
    room = words.answer("searched_room", ask.language, count=docs) if docs else \
        words.answer("searched_deal", ask.language)
    return f"{room} ({'; '.join(searched)})" if searched else room


def said_in(search: str, language: str) -> str:
    """A search run, in the answer's language."""
    return search.said_in(language) if isinstance(search, SearchNote) else search


def no_data(ask: Ask, evidence: Evidence, *, why: str, category: str = "General",
            question: str | None = None, closest: Sequence[tuple[str, Source]] = ()) -> Draft:
    """Never a bare "I don't know": what was searched, why nothing fits, and the Q&A offer."""
    words, language = vocabulary(), ask.language
    lines = [words.answer("found_nothing", language, searched=searched_phrase(evidence, ask),
                          why=why)]
    for sentence, source in closest[:2]:
        lines.append(words.answer("closest_passage", language, sentence=sentence,
                                  cite=cite([source])))
    requested = requested_in_irl(evidence, [t for t in ask.frame.terms if len(t) > 3])
    if requested is not None:
        row, source = requested
        lines.append(words.answer("already_requested", language, ref=row.split(" | ")[0],
                                  cite=cite([source])))
    q = question or ask.frame.qa_question
    if not q.endswith("?"):
        q = q.rstrip(".") + "?"
    lines.append(f"{qa_offer(language=language)} "
                 f"({words.answer('quoted', language, text=q)})")
    return Draft(text="\n".join(lines), proposals=[qa_action(q, category)], offer_qa=True)


def hits_from(evidence: Evidence, document_id: str) -> list[SearchHit]:
    return [h for h in evidence.hits if h.document_id == document_id]
