"""The tools of the answering agent, scoped to one deal.

Reading tools never change the knowledge base; `add_to_qa` and the approval of a finding are only
*proposed* (as suggested actions a person confirms with a button). The four that change what the
deal knows (`update_knowledge_base`, `create_irl`, `trigger_analysis`, `update_knowledge_graph`)
act only through the asking person's `KnowledgeActions` (`manda.agent.actions`): deal operations
that refuse what that person may not do and keep only what that person said, never what a
document says. Every tool adds what it found to the question's `Evidence`, so whatever the model
later cites can be checked against it, and returns a rendering for the model in which document
text is quoted as data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from manda.agent.actions import Acted, KnowledgeActions
from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence, Excluded, Source
from manda.agent.evidence_ids import (
    document_attributes,
    document_owner,
    document_period,
    document_status,
    id_of,
    legend,
    place_attributes,
    to_ids,
)
from manda.agent.gaps import assess_coverage
from manda.agent.meaning import weigh_topics
from manda.agent.selection import show, subject_base, subject_keys
from manda.agent.tool_specs import K_MAX, LIST_LIMIT, LIST_MAX, TOOL_NAMES, TOOL_SPECS
from manda.agent.topics import SHAPES
from manda.agent.trace import tool_call
from manda.agent.unusual import TOPICS, led_by_findings, scan
from manda.agent.windows import passage_window, search_words
from manda.answers import SuggestedAction
from manda.finance.amounts import find_amounts
from manda.finance.vocabulary import canonical_subject
from manda.injection import looks_like_instruction
from manda.llm.port import ToolCall, ToolResult
from manda.models import (
    DocumentRole,
    Finding,
    FindingKind,
    FindingStatus,
    LocationKind,
    RelationType,
    SearchHit,
    heading_trail,
)
from manda.retrieval.hits import chunk_hit
from manda.timeline import Timeline, TimelineEvent, TimelineFilter, position_at, timeline_for_deal
from manda.vocabulary import vocabulary

MAX_PASSAGE_CHARS = 1_500
ROLE_DOCS = 4  # documents of a favoured role whose passages are read beyond the search
ANNOTATED_DOCS = 4  # decks whose speaker notes are read to qualify the figures on their slides
ROLE_CHUNKS = 4  # passages read per such document
SCOPE_DEPTH = 3  # a question about one company of several: its passages among 3× as many
RED_FLAG_K = 4  # passages read per red-flag topic


def parse_roles(value: object) -> list[DocumentRole]:
    """`["cap_table", "employee_census"]` or `"cap_table, employee census"` → the roles it
    names; unknown words are ignored."""
    known = {r.value: r for r in DocumentRole}
    out = []
    for part in listed(value):
        key = "_".join(part.strip().lower().replace("-", " ").split())
        if key in known and known[key] not in out:
            out.append(known[key])
    return out


def listed(value: object) -> list[str]:
    """A list argument as its items: a JSON array, or (from the offline plan and older callers)
    one string of items separated by commas."""
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if str(v).strip()]
    return [part.strip() for part in str(value or "").split(",") if part.strip()]


# findings a search shows the model at most (a metric across five companies' filings can match
# hundreds; the passages' own and the period's come first)
SHOWN_FINDINGS = 30


def quote(text: str, limit: int = MAX_PASSAGE_CHARS) -> str:
    """Document text as inert data: no closing tags, no fences, bounded length."""
    cleaned = text.replace("</", "< /").replace("```", "'''")
    if len(cleaned) > limit:
        cleaned = cleaned[:limit] + " …"
    return cleaned


def render_passages(hits: Sequence[SearchHit], roles: dict[str, str] | None = None,
                    evidence: Evidence | None = None,
                    looked_for: frozenset[str] = frozenset()) -> str:
    """Passages as quoted data, each with its source, its document's role and the headings it
    stands under; with `evidence`, each carries its id and place, and each document's company,
    period, date and status are said once before them (`<document file=… company=…
    period="year ended Sep 2023" dated=… status="final, audited" superseded_by=…/>`, then
    `<excerpt id="S3" file=… loc=…>`). A passage too long for one excerpt shows the lines
    the search `looked_for` (`windows.passage_window`)."""
    if not hits:
        return "<document_excerpts>none</document_excerpts>"
    parts = []
    documents: dict[str, str] = {}
    roles = roles or {}
    for hit in hits:
        flag = ' contains_instruction="true"' if looks_like_instruction(hit.text) else ""
        under = f' under="{under_attribute(hit.heading_path)}"' if hit.heading_path else ""
        if evidence is not None:
            source = evidence.hit_source(hit)
            ident = id_of(source, evidence)
            evidence.ids.shown.add(ident)
            documents.setdefault(source.document_id, document_attributes(source, evidence))
            head = f'id="{ident}" {place_attributes(source)}'
        else:
            role = roles.get(hit.document_id)
            kind = f' role="{role}"' if role and role != DocumentRole.OTHER.value else ""
            head = f'source="{hit.document}, {hit.location.label}"{kind}'
        text = passage_window(hit.text, looked_for, MAX_PASSAGE_CHARS)
        parts.append(f"<excerpt {head}{under}{flag}>\n{quote(text)}\n</excerpt>")
    about = [f"<document {a}/>" for a in documents.values()]
    return "<document_excerpts>\n" + "\n".join([*about, *parts]) + "\n</document_excerpts>"


UNDER_HEADINGS = 2  # the innermost headings an excerpt's `under` names
UNDER_CHARS = 60  # each at most this long


def under_attribute(path: Sequence[str]) -> str:
    """`Litigation › Pending claims`: the innermost headings of a passage, short and safe inside
    an attribute (document text: no quotes or tags)."""
    shown = [" ".join(title.split()) for title in path[-UNDER_HEADINGS:]]
    shown = [t if len(t) <= UNDER_CHARS else t[: UNDER_CHARS - 1] + "…" for t in shown]
    return re.sub(r'[<>"]', "'", heading_trail(tuple(shown)))


def render_finding(finding: Finding, evidence: Evidence) -> str:
    """One finding as a line the model cites by id: its value, nature and review status, and
    the ids of what corrects, is corrected by or conflicts with it."""
    ident = id_of(evidence.finding_source(finding), evidence)
    bits = [f"[{ident}] {finding.label}"]
    if finding.period:
        bits.append(finding.period)
    value = show(finding)
    if value:
        bits.append(f"= {value}")
    bits.append(f"({finding.nature.value}; review {finding.status.value})")
    newer = evidence.successor(finding.id)
    if newer is not None:
        bits.append(f"CORRECTED by [{id_of(evidence.finding_source(newer), evidence)}] "
                    f"({show(newer)})")
    older = evidence.predecessor(finding.id)
    if older is not None:
        bits.append(f"corrects [{id_of(evidence.finding_source(older), evidence)}] "
                    f"({show(older)})")
    for other in evidence.conflicts_of(finding.id):
        bits.append(f"CONFLICTS with [{id_of(evidence.finding_source(other), evidence)}] "
                    f"({show(other)})")
    return " ".join(bits)


def render_findings(findings: Sequence[Finding], evidence: Evidence) -> str:
    if not findings:
        return "<findings>none</findings>"
    lines = [quote(render_finding(f, evidence)) for f in findings[:40]]
    return "<findings>\n" + "\n".join(lines) + "\n</findings>" + unshown_legend(evidence)


def unshown_legend(evidence: Evidence) -> str:
    """The metadata of every id minted but not yet shown to the model."""
    fresh = [i for i in evidence.ids.by_id if i not in evidence.ids.shown]
    evidence.ids.shown.update(fresh)
    return legend(fresh, evidence)


def render_excluded(excluded: Sequence[Excluded]) -> str:
    """What the question's constraints kept out of this result, so the model can say so."""
    if not excluded:
        return ""
    by_doc: dict[str, str] = {}
    for item in excluded:
        by_doc.setdefault(item.document, item.reason)
    lines = [f"{name}: {why}" for name, why in list(by_doc.items())[:8]]
    return ("\n<left_out reason=\"the question's constraints\">\n"
            + "\n".join(quote(x) for x in lines) + "\n</left_out>")


def render_left_out_events(events: Sequence[TimelineEvent], as_of: date | None) -> str:
    """The dated events an "as of" kept out of the timeline, so the model can say so."""
    if not events or as_of is None:
        return ""
    lines = [f"{e.label} [{e.category}] {e.title}" for e in events[:20]]
    more = [f"... and {len(events) - 20} more"] if len(events) > 20 else []
    return (f"\n<left_out reason=\"as of {as_of:%-d %B %Y}: events after that date\">\n"
            + "\n".join(quote(x) for x in [*lines, *more]) + "\n</left_out>")


@dataclass
class ToolOutcome:
    name: str
    content: str
    is_error: bool = False


@dataclass
class Gathered:
    """What one search found for the model: its passages (at most `k`), the findings to show
    beside them, and what the question's constraints left out."""

    passages: list[SearchHit]
    findings: list[Finding]
    excluded: list[Excluded]
    looked_for: frozenset[str] = frozenset()  # the stems searched (`windows.search_words`)


Handler = Callable[["ToolBox", dict[str, Any]], Awaitable[str]]


class ToolBox:
    """The tools bound to one question: its deal, its evidence, the injected stores."""

    def __init__(self, ctx: AgentContext, deal_id: str, evidence: Evidence,
                 actions: KnowledgeActions | None = None, *, next_page: bool = False) -> None:
        self._ctx = ctx
        self._deal = deal_id
        self._evidence = evidence
        self._actions = actions
        # a search run again shows the passages after those it found before (for the model,
        # which reads what it is shown; the offline plan reads every passage found already)
        self._next_page = next_page


    async def run(self, call: ToolCall) -> ToolResult:
        self._evidence.tool_calls.append(call.name)
        with tool_call(call.name, call.arguments, self._evidence) as done:
            result = await self._run(call)
            done(result.content, result.is_error)
        return result

    async def run_for_model(self, call: ToolCall) -> ToolResult:
        """`run`, with every place its result cites written as an evidence id, and the
        metadata of the ids it shows for the first time."""
        result = await self.run(call)
        if result.is_error:
            return result
        content = to_ids(result.content, self._evidence) + unshown_legend(self._evidence)
        return ToolResult(result.call_id, content)

    async def _run(self, call: ToolCall) -> ToolResult:
        handler = _HANDLERS.get(call.name)
        if handler is None:
            return ToolResult(call.id, f"Unknown tool {call.name!r}; use one of "
                                       f"{', '.join(TOOL_NAMES)}.", is_error=True)
        try:
            return ToolResult(call.id, await handler(self, dict(call.arguments)))
        except (KeyError, TypeError, ValueError) as exc:
            return ToolResult(call.id, f"{call.name} could not run with {call.arguments}: {exc}",
                              is_error=True)

    # ---- retrieval
    async def query_knowledge_base(self, args: dict[str, Any]) -> str:
        """The search tool: at most `k` passages and their findings, each sent whole once a
        question; what was sent before is named by its id."""
        return self.render(await self.gather(args))

    async def gather(self, args: dict[str, Any]) -> Gathered:
        """Search the room and add what it finds to the evidence (every passage the search and
        the favoured roles reach, for the offline composer); the first `k` passages, role
        documents first, are what the model is shown. A search already run is answered from
        what it found then."""
        query = str(args.get("query") or "").strip()
        k = max(1, min(int(args.get("k") or self._ctx.limits.search_k), K_MAX))
        period = str(args.get("period") or "").strip() or None
        subjects = [canonical_subject(part) or part.lower() for part in listed(args.get("subject"))]
        hits: list[SearchHit] = []
        known = self._evidence.queries.get((query, k))
        if query and known is None:
            hits = await self.search(query, k)
            self._evidence.queries[(query, k)] = list(hits)
        elif query and known is not None and self._next_page:
            # the model searching again for what it was given: the next passages of the same
            # search (those it has not read), or, once the search runs dry, what it was given
            seen = {h.chunk_id for h in known}
            fresh = [h for h in await self.search(query, len(known) + k)
                     if h.chunk_id not in seen][:k]
            self._evidence.queries[(query, k)] = [*known, *fresh]
            hits = fresh or list(known)
        elif query and known is not None:
            hits = list(known)
        roles = parse_roles(args.get("roles"))
        if roles and query:
            hits = await self.favour_roles(hits, roles, query)
        left_out = len(self._evidence.excluded)
        admitted = [h for h in hits if self._evidence.admits_hit(h)]
        dropped = {h.document for h in hits} - {h.document for h in admitted}
        hits = admitted
        self._evidence.add_hits(hits)
        if query:
            self._evidence.note_search("searched_query", query=query)
        found = await self._ctx.graph.findings_for_chunks(self._deal, [h.chunk_id for h in hits])
        if subjects:
            found += await self.findings_by_subject(subjects, period)
        await self.with_relations(found)
        self._evidence.add_findings(found)
        await self.read_annotations(found)
        passages = hits[:k]
        chunk_ids = {h.chunk_id for h in hits}
        shown_ids = {h.chunk_id for h in passages}
        found_ids = {f.id for f in found}
        shown = [f for f in self._evidence.findings.values()
                 if f.id in found_ids or f.chunk_id in chunk_ids]
        if len(shown) > SHOWN_FINDINGS:  # the passages' own first, then the period asked
            shown.sort(key=lambda f: (f.chunk_id not in shown_ids, f.chunk_id not in chunk_ids,
                                      period is not None and f.period != period))
            shown = shown[:SHOWN_FINDINGS]
        await self.read_versions()
        excluded = [e for i, e in enumerate(self._evidence.excluded)
                    if i >= left_out or e.document in dropped]
        return Gathered(passages, shown, excluded, search_words([query, *subjects]))

    async def search(self, query: str, n: int) -> list[SearchHit]:
        """The room's `n` best passages for `query`; of one company's documents among several
        (`scope`), searched deeper and kept to that company's."""
        scope = self._evidence.scope
        hits = await self._ctx.search.search(self._deal, query, n * SCOPE_DEPTH if scope else n)
        if scope is not None:
            hits = [h for h in hits if h.document_id in scope][:n]
        stats = getattr(self._ctx.search, "last", None)  # HybridSearch reports degradation
        for notice in getattr(stats, "notices", None) or []:
            if notice not in self._evidence.notices:
                self._evidence.notices.append(notice)
        return hits

    def render(self, found: Gathered) -> str:
        """What the model reads of a search: new passages and findings whole (and marked as
        given), those given earlier in this question by id, and what the constraints left out."""
        evidence = self._evidence
        given = evidence.ids.given
        passage_ids = [id_of(evidence.hit_source(h), evidence) for h in found.passages]
        finding_ids = [id_of(evidence.finding_source(f), evidence) for f in found.findings]
        hits = [h for h, i in zip(found.passages, passage_ids, strict=True) if i not in given]
        findings = [f for f, i in zip(found.findings, finding_ids, strict=True)
                    if i not in given]
        again = [i for i in (*passage_ids, *finding_ids) if i in given]
        roles_of = {d.id: d.role.value for d in evidence.documents.values()}
        text = (render_passages(hits, roles_of, evidence, found.looked_for) + "\n"
                + render_findings(findings, evidence))
        given.update(i for i in passage_ids if i not in again)
        given.update(i for i in finding_ids[:SHOWN_FINDINGS] if i not in again)
        if again:
            text += ("\n<already_given ids=\"" + ", ".join(dict.fromkeys(again))
                     + "\">found again: given earlier in this question, read them there"
                     "</already_given>")
        return text + render_excluded(found.excluded)

    async def favour_roles(self, hits: list[SearchHit], roles: Sequence[DocumentRole],
                           query: str) -> list[SearchHit]:
        """Passages of documents in `roles` first: the retrieved ones, then the best-matching
        passages of each such document the search did not reach (a cap table, a census)."""
        await self.ensure_documents()
        scope = self._evidence.scope
        docs = [d for d in self._evidence.documents.values()
                if d.role in roles and (scope is None or d.id in scope)]
        if not docs:
            return hits
        wanted = {d.id for d in docs}
        known = {h.chunk_id for h in hits} | {h.chunk_id for h in self._evidence.hits}
        terms = {w for w in re.findall(r"[a-zà-ÿ0-9]{3,}", query.lower())}
        extra: list[SearchHit] = []
        for doc in docs[:ROLE_DOCS]:
            chunks = [c for c in await self._ctx.graph.list_chunks(self._deal, doc.id)
                      if c.id not in known]
            chunks.sort(key=lambda c: (-len(terms & set(re.findall(r"[a-zà-ÿ0-9]{3,}",
                                                                    c.text.lower()))),
                                       c.ordinal))
            extra += [chunk_hit(c, doc.filename, via=["role"]) for c in chunks[:ROLE_CHUNKS]]
        self._evidence.note_search("searched_roles", roles=tuple(r.value for r in roles))
        first = [h for h in hits if h.document_id in wanted]
        return [*first, *extra, *[h for h in hits if h.document_id not in wanted]]

    async def topic_brief(self, args: dict[str, Any]) -> str:
        """A topic shape composed from what the room holds, for the model to answer from."""
        from manda.agent.compose.common import Ask
        from manda.agent.compose.topics import compose as compose_topic
        from manda.agent.frame import read_question

        key = str(args["topic"]).strip().lower()
        shape = next((s for s in SHAPES if s.key == key), None)
        if shape is None:
            raise ValueError(f"unknown topic {key!r}; one of {', '.join(s.key for s in SHAPES)}")
        question = str(args.get("question") or shape.label)
        roles = ",".join(r.value for r in shape.roles)
        await self.gather({"query": shape.query, "roles": roles, "k": 8,
                                         "subject": ", ".join(shape.subjects)})
        frame = read_question(question)
        ask = Ask(intent=frame.intent, frame=frame, subject=frame.subject, period=frame.period)
        draft = compose_topic(ask, self._evidence, shape)
        if draft is None:
            return (f"<topic_brief topic=\"{key}\">nothing in this room: no document of role "
                    f"{roles} and no findings on it</topic_brief>")
        self._evidence.note_search("searched_topic", label=shape.label.lower(),
                                   roles=tuple(r.value for r in shape.roles))
        return f"<topic_brief topic=\"{key}\">\n{quote(draft.text, 8_000)}\n</topic_brief>"

    async def findings_by_subject(self, subjects: Sequence[str], period: str | None
                                  ) -> list[Finding]:
        keys = set().union(*(subject_keys(s) for s in subjects))
        found = [
            f for f in (await self.catalog()).values()
            if subject_base(f.subject) in keys and (period is None or f.period == period)
        ]
        self._evidence.note_search("searched_findings_for" if period else "searched_findings",
                                   subjects=tuple(subjects), period=period)
        return found

    async def catalog(self) -> dict[str, Finding]:
        """Every finding of the deal, read once per question (one query, not one per id)."""
        if self._evidence.catalog is None:
            self._evidence.catalog = {
                f.id: f for f in await self._ctx.graph.list_findings(self._deal)}
        return self._evidence.catalog

    async def with_relations(self, findings: list[Finding]) -> None:
        """Add every correction and conflict touching `findings`, with the other side."""
        ids = [f.id for f in findings]
        if not ids:
            return
        relations = await self._ctx.graph.list_relations(self._deal, ids=ids)
        relations = [r for r in relations if r.between == "finding"]
        self._evidence.add_relations(relations)
        known = set(ids) | set(self._evidence.findings)
        wanted = {i for rel in relations for i in (rel.source_id, rel.target_id)} - known
        if wanted:
            catalog = await self.catalog()
            findings.extend(catalog[i] for i in sorted(wanted) if i in catalog)

    async def read_annotations(self, findings: Sequence[Finding]) -> None:
        """The speaker notes of each slide a figure stands on: how the deck qualifies it."""
        wanted: dict[str, set[str]] = {}
        for f in findings:
            loc = f.location
            on_slide = loc.kind is LocationKind.SLIDE and not loc.label.endswith("notes")
            if on_slide and (f.document_id, loc.label) not in self._evidence.annotations:
                wanted.setdefault(f.document_id, set()).add(loc.label)
        for doc_id, labels in list(wanted.items())[:ANNOTATED_DOCS]:
            for chunk in await self._ctx.graph.list_chunks(self._deal, doc_id):
                slide = chunk.location.label.removesuffix(" notes")
                if chunk.location.label.endswith(" notes") and slide in labels:
                    self._evidence.annotations[(doc_id, slide)] = chunk.text

    async def ensure_documents(self) -> None:
        if not self._evidence.documents:
            docs = await self._ctx.graph.list_documents(self._deal)
            self._evidence.documents = {d.id: d for d in docs}

    async def read_versions(self) -> None:
        """Which documents later versions supersede, read once a question."""
        if self._evidence.versions_read:
            return
        self._evidence.versions_read = True
        for rel in await self._ctx.graph.list_relations(self._deal,
                                                        type=RelationType.SUPERSEDES):
            if rel.between == "document":
                newer = self._evidence.filename(rel.source_id)
                kept = self._evidence.superseded_by.setdefault(rel.target_id, [])
                if newer not in kept:
                    kept.append(newer)

    # ---- documents
    async def list_documents(self, args: dict[str, Any]) -> str:
        await self.ensure_documents()
        await self.read_versions()
        role = DocumentRole(args["role"]) if args.get("role") else None
        limit = max(1, min(int(args.get("limit") or LIST_LIMIT), LIST_MAX))
        documents = sorted((d for d in self._evidence.documents.values()
                            if role is None or d.role is role),
                           key=lambda d: (d.path or d.filename).lower())
        lines = []
        for doc in documents[:limit]:
            bits = [doc.path or doc.filename, doc.role.value,
                    *filter(None, [document_owner(doc.id, self._evidence),
                                   document_period(doc)]),
                    doc.doc_date.isoformat() if doc.doc_date else "undated",
                    document_status(doc)]
            if newer := self._evidence.superseded_by.get(doc.id):
                bits.append("superseded by " + ", ".join(newer))
            if doc.is_irl:
                bits.append("the information request list")
            lines.append("- " + " · ".join(bits))
        more = len(documents) - len(lines)
        self._evidence.note_search("searched_inventory")
        head = f"{len(documents)} document(s)" + (f" of role {role.value}" if role else "")
        return "\n".join([head + ":", *lines, *([f"... and {more} more"] if more > 0 else [])])

    async def get_document_info(self, args: dict[str, Any]) -> str:
        await self.ensure_documents()
        wanted = str(args["document"]).strip().lower()
        doc = next((d for d in self._evidence.documents.values()
                    if d.filename.lower() == wanted or d.id == wanted), None)
        if doc is None:
            doc = next((d for d in self._evidence.documents.values()
                        if wanted and wanted in d.filename.lower()), None)
        if doc is None:
            names = ", ".join(sorted(d.filename for d in self._evidence.documents.values()))
            return f"No document named {args['document']!r} in this deal. Documents: {names}"
        relations = await self._ctx.graph.list_relations(
            self._deal, type=RelationType.SUPERSEDES, ids=[doc.id]
        )
        newer = [self._evidence.filename(r.source_id) for r in relations
                 if r.between == "document" and r.target_id == doc.id]
        older = [self._evidence.filename(r.target_id) for r in relations
                 if r.between == "document" and r.source_id == doc.id]
        info = {
            "file": doc.filename,
            "type": doc.file_type,
            "dated": doc.doc_date.isoformat() if doc.doc_date else None,
            "draft": doc.draft,
            "authoritative": doc.authoritative,
            "is_irl": doc.is_irl,
            "role": doc.role.value,
            "company": self._evidence.companies.of(doc.id),
            "period": document_period(doc),
            "units": doc.units,
            "superseded_by": newer,
            "supersedes": older,
            "place_in_room": doc.path,
            **({"email": doc.metadata} if doc.metadata.get("from") else {}),
        }
        self._evidence.note_search("searched_document", document=doc.filename)
        return json.dumps(info, ensure_ascii=False)

    # ---- relations
    async def detect_contradictions(self, args: dict[str, Any]) -> str:
        await self.ensure_documents()
        subject = canonical_subject(str(args.get("subject") or "")) or (
            str(args["subject"]).lower() if args.get("subject") else None
        )
        keys = subject_keys(subject) if subject else None
        relations = [
            r for r in await self._ctx.graph.list_relations(self._deal)
            if r.between == "finding" and r.type in (RelationType.CONTRADICTS,
                                                     RelationType.SUPERSEDES)
        ]
        involved: list[Finding] = []
        kept = []
        catalog = await self.catalog()
        for rel in relations:
            pair = [catalog.get(i) for i in (rel.source_id, rel.target_id)]
            if any(f is None for f in pair):
                continue
            found = [f for f in pair if f is not None]
            if keys and not any(f.subject.split(":", 1)[0].replace("_", " ") in keys
                                for f in found):
                continue
            if any(looks_like_instruction(f.excerpt) for f in found):
                continue
            kept.append(rel)
            involved += found
        self._evidence.add_findings(involved)
        kept = [r for r in kept if r.source_id in self._evidence.findings
                and r.target_id in self._evidence.findings]  # both sides admissible
        self._evidence.add_relations(kept)
        self._evidence.note_search("searched_relations_on" if subject else "searched_relations",
                                   subject=subject)
        lines = []
        for rel in kept:
            a, b = self._evidence.findings[rel.source_id], self._evidence.findings[rel.target_id]
            verb = "corrects" if rel.type is RelationType.SUPERSEDES else "conflicts with"
            lines.append(
                f"{rel.type.value}: {a.label} {a.period or ''} {show(a)} "
                f"({self._evidence.filename(a.document_id)}, {a.location.label}) {verb} "
                f"{show(b)} ({self._evidence.filename(b.document_id)}, {b.location.label})"
            )
        return "<relations>\n" + ("\n".join(quote(x) for x in lines) or "none") + "\n</relations>"

    # ---- coverage
    async def find_gaps(self, args: dict[str, Any]) -> str:
        await self.ensure_documents()
        coverage = await assess_coverage(self._ctx.graph, self._deal, self._evidence)
        category = str(args.get("category") or "").strip().lower()
        origin = (f"IRL {coverage.irl_document}" if coverage.origin == "irl"
                  else "default due-diligence checklist")
        lines = [f"checklist: {origin}; {coverage.covered}/{coverage.total} covered"]
        for name, entries in coverage.by_category().items():
            if category and category not in name.lower():
                continue
            done = sum(1 for e in entries if e.covered)
            lines.append(f"{name}: {done}/{len(entries)} covered")
            for e in entries:
                where = ", ".join(dict.fromkeys(s.document for s in e.covered_by)) or "nothing"
                mark = "covered" if e.covered else "GAP"
                lines.append(f"  {mark}: {e.item.title} (status: {e.item.status or 'n/a'}) "
                             f"-> {where}")
        return "<coverage>\n" + "\n".join(quote(x) for x in lines) + "\n</coverage>"

    # ---- dates
    async def get_timeline(self, args: dict[str, Any]) -> str:
        await self.ensure_documents()
        timeline = self._evidence.timeline
        if not isinstance(timeline, Timeline):
            timeline = await timeline_for_deal(self._ctx.graph, self._deal)
            as_of = self._evidence.admission.as_of if self._evidence.admission else None
            if as_of is not None:  # the position at that date: nothing that came later
                stated_on = {d.filename: d.doc_date for d in self._evidence.documents.values()}
                timeline, self._evidence.timeline_left_out = position_at(
                    timeline, as_of, stated_on)
            self._evidence.timeline = timeline
            ids = {d.filename: d.id for d in self._evidence.documents.values()}
            self._evidence.dated = [
                Source(document=c.document, document_id=ids.get(c.document, c.document),
                       location=c.location, page=c.page, excerpt=c.excerpt, chunk_id=c.chunk_id,
                       heading_path=tuple(c.heading_path))
                for e in timeline.events for c in e.citations
            ]
            self._evidence.note_search("searched_timeline")
        where = TimelineFilter(
            start=date.fromisoformat(str(args["from"])) if args.get("from") else None,
            end=date.fromisoformat(str(args["to"])) if args.get("to") else None,
            category=str(args.get("category") or "").strip().lower() or None,
        )
        events = [e for e in timeline.events if where.keeps(e)
                  and (e.upcoming or not args.get("upcoming_only"))]
        as_of = timeline.as_of.isoformat() if timeline.as_of else "unknown"
        lines = [f"as of {as_of}; {len(events)} event(s)"]
        for e in events[:60]:
            source = e.citations[0]
            marks = " UPCOMING" if e.upcoming else ""
            marks += f" DATE CONFLICT: {e.conflict_note or ''}" if e.conflict else ""
            lines.append(f"{e.label} [{e.category}] {e.title}{marks} "
                         f"(source: {source.document}, {source.location})")
        return ("<timeline>\n" + "\n".join(quote(x) for x in lines) + "\n</timeline>"
                + render_left_out_events(self._evidence.timeline_left_out, timeline.as_of))

    # ---- findings
    async def validate_finding(self, args: dict[str, Any]) -> str:
        await self.ensure_documents()
        finding = await self._ctx.graph.get_finding(self._deal, str(args["finding_id"]))
        if finding is None:
            return f"No finding {args['finding_id']!r} in this deal."
        found = [finding]
        await self.with_relations(found)
        self._evidence.add_findings(found)
        stated = any(
            finding.value is not None and abs(a.value - finding.value) <= 0.011 * abs(
                finding.value or 1)
            for a in find_amounts(finding.excerpt)
        ) or finding.value is None
        if finding.status is FindingStatus.PENDING:
            self._evidence.propose(SuggestedAction(type="approve_finding", finding_id=finding.id))
        supports = len(self._evidence.relations_of(finding.id, RelationType.SUPPORTS))
        return quote(
            render_finding(finding, self._evidence)
            + f"\nexcerpt: {finding.excerpt}\nvalue stated in its excerpt: "
            + ("yes" if stated else "no (derived or scaled)")
            + f"\nconfirmed by {supports} other document(s)"
        )

    # ---- questions for the target
    async def red_flags(self, args: dict[str, Any]) -> str:
        """Each red-flag topic searched once; its best statement, most serious first."""
        for query in [t.query for t in TOPICS] + [vocabulary().search("instruction")]:
            await self.gather({"query": query, "k": RED_FLAG_K})
        if self._ctx.embedder is not None:  # passages known by their meaning too
            await weigh_topics(self._deal, self._evidence, self._ctx.graph, self._ctx.embedder)
        await self._read_all_of(led_by_findings())
        taken = await self._taken_from_grids()
        lines = [f"- {item.topic.flag_label}: \"{quote(item.statement, 300)}\" "
                 f"(source: {item.source.document}, {item.source.location})"
                 for item in scan(self._evidence)]
        lines += [f"- {f.label}: \"{quote(f.excerpt, 300)}\" (source: "
                  f"{self._evidence.filename(f.document_id)}, {f.location.label})"
                  for f in taken]
        return "Red flags, most serious first:\n" + ("\n".join(lines) or "none found")

    async def _read_all_of(self, subjects: Sequence[str]) -> None:
        """Every current finding of these subjects (and their per-entity forms, "customer
        concentration:vantor logistics") joins the evidence."""
        wanted = {subject_base(s) for s in subjects}
        graph = self._ctx.graph
        for subject in await graph.finding_subjects(self._deal):
            if subject_base(subject) in wanted:
                found = await graph.list_findings(self._deal, subject=subject)
                self._evidence.add_findings(
                    f for f in found if f.status in (FindingStatus.APPROVED, FindingStatus.PENDING))

    async def _taken_from_grids(self) -> list[Finding]:
        """The cells a person took from a review grid's column as red flags (`red_flag`)."""
        taken = [f for f in await self._ctx.graph.list_findings(self._deal)
                 if f.kind is FindingKind.CLAUSE and f.attributes.get("red_flag")]
        self._evidence.add_findings(taken)
        return [f for f in taken if f.id in self._evidence.findings]

    async def suggest_questions(self, args: dict[str, Any]) -> str:
        topic = str(args.get("topic") or "").lower()
        proposals: list[SuggestedAction] = []
        coverage = self._evidence.coverage
        if coverage is not None:
            for entry in coverage.gaps:  # type: ignore[attr-defined]
                proposals.append(SuggestedAction(type="add_to_qa", question=entry.item.question,
                                                 category=entry.item.category))
        for item in scan(self._evidence):
            proposals.append(SuggestedAction(type="add_to_qa", question=item.topic.question,
                                             category=item.topic.category))
        if topic:
            proposals = [p for p in proposals if topic in (p.question or "").lower()
                         or topic in (p.category or "").lower()] or proposals
        lines = [f"- [{p.category}] {p.question}" for p in proposals[:12]]
        return "Suggested questions (not yet added; propose them with add_to_qa):\n" + (
            "\n".join(lines) or "none yet: run find_gaps or detect_contradictions first")

    async def add_to_qa(self, args: dict[str, Any]) -> str:
        question = " ".join(str(args["question"]).split())
        category = str(args["category"]).strip() or "General"
        if not question:
            raise ValueError("the question is empty")
        self._evidence.propose(SuggestedAction(type="add_to_qa", question=question,
                                               category=category))
        return (f"Proposed for the Q&A list ({category}): {question}. A person confirms it with "
                "the Add to Q&A button; nothing was added yet.")


    # ---- what the person asking changes in the deal (through their KnowledgeActions)
    def _acting(self) -> KnowledgeActions:
        if self._actions is None:
            raise ValueError("nobody to act for here (a terminal or an evaluation): say what "
                             "the person can do instead, e.g. `@Manda note: …` in the deal's "
                             "channel")
        return self._actions

    def _took(self, acted: Acted) -> str:
        """An action's result for the model; what it noted becomes citable evidence (whatever
        company the question was read as being about: it is what the person just said)."""
        if acted.hits:
            if self._evidence.scope is not None:
                self._evidence.scope |= {h.document_id for h in acted.hits}
            self._evidence.add_hits(acted.hits)
        if acted.findings:
            self._evidence.add_findings(acted.findings)
            for finding in acted.findings:
                self._evidence.propose(SuggestedAction(type="approve_finding",
                                                       finding_id=finding.id))
        return quote(acted.text, 4_000)

    async def update_knowledge_base(self, args: dict[str, Any]) -> str:
        return self._took(await self._acting().note(str(args["fact"])))

    async def create_irl(self, args: dict[str, Any]) -> str:
        requests = [(str(r.get("request") or ""), str(r.get("category") or "General"))
                    for r in list(args.get("requests") or [])[:10] if isinstance(r, dict)]
        return self._took(await self._acting().draft_irl(requests))

    async def trigger_analysis(self, args: dict[str, Any]) -> str:
        document = str(args.get("document") or "").strip() or None
        return self._took(await self._acting().reanalyse(document))

    async def update_knowledge_graph(self, args: dict[str, Any]) -> str:
        names = [str(n) for n in list(args.get("names") or [])[:6]]
        return self._took(await self._acting().link_entities(names))


# Each spec's handler is the ToolBox method of the same name: the spec list is the one source.
# Kept on the class, not bound per ToolBox: a box holding its own bound methods is a reference
# cycle, which kept every answer's evidence alive until a full garbage collection.
_HANDLERS: dict[str, Handler] = {spec.name: getattr(ToolBox, spec.name) for spec in TOOL_SPECS}
