"""The answering agent as a LangGraph StateGraph, built by a factory; dependencies come per run.

load_context → read_question → resolve_followup → retrieve → tool_loop
(bounded) → compose → apply_constraints → validate (the gate, constraints included) ⇄ reprompt /
fallback → ground → save_context. With no model, the tool loop runs the deterministic plan for the
intent and the offline composer writes the answer; Claude chooses its own tools. Either way the
same constraints, gate and grounding decide what reaches a person.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import replace
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from manda.agent.compose import Ask, Draft
from manda.agent.compose.by_company import company_saying
from manda.agent.conform import (
    cited_facts,
    conform_draft,
    conform_text,
    note_unmet,
    unanswerable,
)
from manda.agent.constraints import (
    Admission,
    ConstraintCheck,
    Constraints,
    evaluate_constraints,
)
from manda.agent.context import AgentContext
from manda.agent.degraded import MEMORY_NOTICE
from manda.agent.evidence import Evidence
from manda.agent.evidence_ids import IdStream, expand_ids, room_documents, valid_ids
from manda.agent.followups import resolve
from manda.agent.frame import company_like, company_word, read_question
from manda.agent.grounding import ground as ground_citations
from manda.agent.grounding import in_language
from manda.agent.meaning import weigh, weigh_topics
from manda.agent.planner import OfflineComposer
from manda.agent.prompts import (
    LIMIT_NOTE,
    SYSTEM,
    history,
    question_message,
    reprompt_message,
)
from manda.agent.selection import subject_base, subject_label
from manda.agent.state import AnswerState
from manda.agent.stops import after_stop, answer_tokens
from manda.agent.tools import TOOL_SPECS, ToolBox
from manda.agent.trace import timed, tool_call
from manda.agent.validate import GateResult, Requirements, number_sources, run_gate
from manda.answers import (
    Caution,
    Citation,
    Intent,
    SuggestedAction,
    caution,
)
from manda.companies import same_company
from manda.errors import BackendUnavailableError
from manda.finance.fiscal import label_fiscal_parts
from manda.llm.calls import ANSWER
from manda.llm.port import ChatMessage, ModelRequestError, ModelUnavailableError, ToolResult
from manda.memory.locks import LockNotAcquiredError
from manda.memory.port import Conversation, Message, ResolvedContext
from manda.models import FindingStatus

log = logging.getLogger(__name__)

UNAVAILABLE_NOTICE = "The model is unavailable; answered from the extracted findings."
REQUEST_NOTICE = "{reason}; answered from the extracted findings (`manda doctor` checks the model)."
TIMEOUT_NOTICE = ("The model took longer than {seconds:g} s; answered from the extracted "
                  "findings.")
REJECTED_NOTICE = ("The model's answer did not pass the source checks; answered from the "
                   "extracted findings.")
EXCERPT_CHARS = 400
MEMORY_LOCK_SECONDS = 10.0
RECURSION_LIMIT = 64

_offline = OfflineComposer()


def _ctx(runtime: Runtime[AgentContext]) -> AgentContext:
    return runtime.context


# ---------------------------------------------------------------- reading the question


async def load_context(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = _ctx(runtime)
    deal_id = state["deal_id"]
    conversation_id = state["conversation_id"]
    notices: list[str] = []
    memory_down = False
    try:
        conversation = await ctx.memory.load(conversation_id)
    except BackendUnavailableError as exc:  # degraded mode, said out loud once a thread
        log.warning("conversation memory unavailable, answering without it: %s", exc)
        conversation, memory_down = None, True
        if ctx.memory_told.first_time(conversation_id):
            notices.append(MEMORY_NOTICE)
    if conversation is None or (conversation.deal_id and conversation.deal_id != deal_id):
        conversation = Conversation(id=conversation_id, deal_id=deal_id)
    documents = await ctx.graph.list_documents(deal_id)
    deal = await ctx.graph.get_deal(deal_id)
    evidence = Evidence(documents={d.id: d for d in documents},
                        deal_names=(deal_id, deal.name if deal else ""),
                        entity_links=tuple(tuple(g) for g in (deal.entity_links if deal else [])))
    return {"conversation": conversation, "evidence": evidence, "notices": notices,
            "memory_down": memory_down,
            "tool_calls_used": 0, "iterations": 0, "reprompts": 0, "limit_hit": None,
            "continuations": 0, "partial_text": "",
            "use_offline": ctx.model is None, "streamed": False, "messages": []}


async def read(state: AnswerState) -> dict[str, Any]:
    """The question read once into its frame: its instructions as constraints, joined to those
    the thread carries; what is read and searched is the question without them ("in one
    sentence" is no search term), or the thread's last question when it asks nothing else
    ("Now in a table.")."""
    frame = read_question(state["question"])
    stored = Constraints.from_json(state["conversation"].context.constraints)
    constraints = stored.then(frame.constraints, reset=frame.drops_constraints)
    if frame.only_instructions and (previous := _previous_question(state["conversation"])):
        frame = read_question(previous).with_instructions_of(frame)
    admission = Admission(constraints)
    if admission:
        state["evidence"].admission = admission
    return {"constraints": constraints, "frame": frame,
            "constraints_carried": [c for c in constraints.items if c in stored.items]}


def _previous_question(conversation: Conversation) -> str | None:
    for message in reversed(conversation.messages):
        if message.role == "user":
            return message.text
    return None


async def resolve_followup(state: AnswerState) -> dict[str, Any]:
    frame = state["frame"]
    context = state["conversation"].context
    label = subject_label(frame.subject or context.subject)
    if frame.entity and _names_the_target(frame.entity, state["deal_id"], state["evidence"]):
        frame = replace(frame, entity=None)  # "TargetCo's revenue" is the deal's own revenue
    elif (named := frame.entity or frame.opening_name) and (
            scope := company_documents(named, state["evidence"])):
        # "Apple's capex" in a room holding several companies' documents: Apple's documents
        # answer it, and their figures are Apple's own (no counterparty to look for)
        evidence = state["evidence"]
        evidence.scope = scope
        own = company_words(named, scope, evidence)
        evidence.scope_words = own
        # "Microsoft Cloud": the words after the company's own name a part of it, which the
        # company's figures do not answer
        part = named if any(not company_word(w) for w in set(name_words(named)) - own) else ""
        frame = replace(frame, entity=None, named_part=part)
    # "the quarter ended September 27, 2025": the fiscal quarter of the company asked about
    frame = frame.in_fiscal_year(state["evidence"].fiscal_year_end())
    resolution = resolve(frame, context, label)
    ask = Ask(
        intent=resolution.intent,
        frame=frame,
        subject=resolution.subject,
        period=resolution.period,
        entity=resolution.entity,
        assumption=resolution.assumption,
    )
    return {"resolution": resolution, "ask": ask, "frame": frame}


def _names_the_target(entity: str, deal_id: str, evidence: Evidence) -> bool:
    """The company the deal is about, named by the deal id or by most of its file names, or
    the deal's own company among the several whose documents the room holds."""
    key = re.sub(r"[^a-z0-9]", "", entity.lower())
    if not key:
        return False
    room = evidence.companies
    if room.several and room.target is not None:
        return same_company(room.target, entity, room.links)
    # a company by its full name: "Rheintal Antriebstechnik GmbH" is the deal "rheintal"
    first = re.sub(r"[^a-z0-9]", "", entity.split()[0].lower()) if company_like(entity) else ""
    keys = {key} | ({first} if len(first) >= 4 else set())
    if re.sub(r"[^a-z0-9]", "", deal_id.lower()) in keys:
        return True
    names = [re.sub(r"[^a-z0-9]", "", d.filename.lower()) for d in evidence.documents.values()]
    return bool(names) and any(sum(k in n for n in names) * 2 > len(names) for k in keys)


def company_documents(entity: str, evidence: Evidence) -> frozenset[str] | None:
    """The documents of the company `entity` ("Apple" → the filings whose registrant is Apple
    Inc., else those named after it: Apple_10-K_FY2025.pdf), when the room also holds other
    documents; None for a person's name or a name no document is of."""
    room = evidence.companies
    if room.several:
        # "Microsoft Cloud": a business named after its company is that company's
        own = frozenset(d for d in evidence.documents if room.is_of(d, entity))
        if own and len(own) < len(evidence.documents):
            return own
    wanted = name_words(entity)
    if not company_like(entity):
        # "Microsoft Cloud" (a business of the company whose files the room holds) scopes to
        # its first word's files; a person's name, or words a file name carries, never does
        files = {w for d in evidence.documents.values()
                 for w in (*name_words(d.filename), *name_words(d.path or ""))}
        if len(wanted) < 2 or len(wanted[0]) < 4 or any(w in files for w in wanted[1:]):
            return None
        wanted = wanted[:1]
    if not wanted or len("".join(wanted)) < 3:
        return None
    # "Microsoft Cloud": a business named after its company is that company's (its leading
    # words name the files)
    for n in range(len(wanted), 0, -1):
        lead = wanted[:n]
        if len("".join(lead)) < 3:
            break
        named = frozenset(
            d.id for d in evidence.documents.values()
            if any(words[i:i + n] == lead
                   for words in (name_words(d.filename), name_words(d.path or ""))
                   for i in range(len(words) - n + 1)))
        if named:
            return named if len(named) < len(evidence.documents) else None
    return None


def company_words(named: str, scope: frozenset[str], evidence: Evidence) -> frozenset[str]:
    """The words of `named` that name the company of the documents in `scope` (its files' or
    its registrant's words), which its filings write as "the Company": "Uber Freight" → uber,
    "Microsoft Cloud" → microsoft. The other words name a business of it ("freight",
    "cloud"), which a passage must still say."""
    words = name_words(named)
    own: set[str] = set()
    for doc_id in scope:
        if (doc := evidence.documents.get(doc_id)) is not None:
            own.update(name_words(doc.filename), name_words(doc.path or ""),
                       name_words(doc.company or ""))
        own.update(name_words(evidence.companies.of(doc_id) or ""))
    return frozenset([w for w in words if w in own] or words)


def name_words(text: str) -> list[str]:
    """A file or company name as words: "TargetCo_Q3_Report.pdf" → targetco, q, 3, report, pdf."""
    return re.findall(r"[a-z]+|\d+", text.lower())


def after_resolve(state: AnswerState) -> Literal["retrieve", "compose"]:
    return "compose" if state["resolution"].kind == "clarify" else "retrieve"


# ---------------------------------------------------------------- retrieval and tools


async def retrieve(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = _ctx(runtime)
    ask = state["ask"]
    query = ask.frame.text
    if ask.assumption or state["resolution"].kind == "inherited":
        extra = " ".join(filter(None, [subject_label(ask.subject), ask.period, ask.entity]))
        query = f"{ask.frame.text} {extra}".strip()
    box = ToolBox(ctx, state["deal_id"], state["evidence"], state.get("knowledge_actions"))
    args = {"query": query, "k": ctx.limits.search_k}
    with tool_call("query_knowledge_base", args, state["evidence"]) as done:
        rendered = await box.query_knowledge_base(args)
        done(rendered, False)
    evidence = state["evidence"]
    if (ask.frame.entity and evidence.scope is None
            and (owner := company_saying(ask.frame.entity, evidence)) is not None):
        # "Azure's revenue growth": no file is named after Azure, but one company's passages
        # say it, again and again: that company's documents answer
        evidence.narrow_to(d for d in evidence.documents
                           if evidence.companies.is_of(d, owner))
    # which company and year each document is of, where the model must choose among them
    inventory = room_documents(state["evidence"])
    return {"context_text": f"{inventory}\n{rendered}" if inventory else rendered}


async def tool_loop(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = _ctx(runtime)
    if state.get("use_offline") or ctx.model is None:
        return await _offline_plan(state, ctx)
    return await _model_turn(state, ctx)


async def _offline_plan(state: AnswerState, ctx: AgentContext) -> dict[str, Any]:
    box = ToolBox(ctx, state["deal_id"], state["evidence"], state.get("knowledge_actions"))
    budget = ctx.limits.max_tool_calls - state.get("tool_calls_used", 0)
    plan = _offline.plan(state["ask"], max_calls=max(0, budget))
    for call in plan:
        result = await box.run(call)
        if result.is_error:
            log.warning("offline plan step %s failed: %s", call.name, result.content)
    if ctx.embedder is not None:  # the leading spans weighed by meaning, for the composer
        ask = state["ask"]
        await weigh(ask.frame, state["evidence"], ctx.embedder)
        await weigh_topics(state["deal_id"], state["evidence"], ctx.graph, ctx.embedder)
    return {"tool_calls_used": state.get("tool_calls_used", 0) + len(plan),
            "iterations": state.get("iterations", 0) + 1, "loop_done": True}


async def _model_turn(state: AnswerState, ctx: AgentContext) -> dict[str, Any]:
    assert ctx.model is not None
    limits = ctx.limits
    messages = list(state.get("messages") or [])
    if not messages:
        for role, text in history(state["conversation"].messages, limits.history_messages):
            messages.append(ChatMessage(role=role, text=text))  # type: ignore[arg-type]
        messages.append(ChatMessage(role="user", text=question_message(
            state["ask"], state["context_text"], state.get("constraints"),
            budget=_budget_left(state, ctx))))
    iterations = state.get("iterations", 0)
    if iterations >= limits.max_iterations:
        return {"loop_done": True, "limit_hit": "iterations", "use_offline": True}
    usage = state["usage"]
    # a reply the gate sent back was streamed already: its rewrite is laid out whole at the end
    sink = None if state.get("reprompts") and state.get("streamed") else state.get("sink")
    if sink is not None:  # the person reads citations in the house format as they stream
        sink = IdStream(sink, state["evidence"])
    cap = answer_tokens(state, limits)
    loop = asyncio.get_running_loop()
    deadline = state.get("model_deadline") or loop.time() + limits.model_seconds
    try:
        async with asyncio.timeout_at(deadline):
            turn = await ctx.model.respond(SYSTEM, messages, TOOL_SPECS, on_text=sink,
                                           max_tokens=cap, call=ANSWER)
    except ModelUnavailableError as exc:
        log.warning("model unavailable, answering offline: %s", exc)
        return _answer_offline(state, UNAVAILABLE_NOTICE)
    except ModelRequestError as exc:
        log.warning("model refused the request, answering offline: %s (request id %s)",
                    exc.message, exc.request_id or "unknown")
        return _answer_offline(state, REQUEST_NOTICE.format(reason=exc.reason))
    except TimeoutError:
        log.warning("model turns took over %g s, answering offline", limits.model_seconds)
        return _answer_offline(state, TIMEOUT_NOTICE.format(seconds=limits.model_seconds))
    usage.add(turn.usage)
    streamed = state.get("streamed", False) or (sink is not None and bool(turn.text))
    stopped = after_stop(turn, state, limits, cap, messages)
    if stopped is not None:  # cut off, refused or too long: never acted upon
        log.info("model turn ended with %s", turn.stop_reason)
        return {"messages": messages, "streamed": streamed, "model_deadline": deadline,
                **stopped}
    if isinstance(sink, IdStream):
        await sink.flush()
    if not turn.tool_calls:
        text = ((state.get("partial_text") or "") + turn.written).strip()
        return {"messages": messages, "iterations": iterations + 1, "loop_done": True,
                "text": text, "origin": "model", "streamed": streamed, "partial_text": "",
                "answer_turn": turn.as_message(), "model_deadline": deadline}
    box = ToolBox(ctx, state["deal_id"], state["evidence"], state.get("knowledge_actions"),
                  next_page=True)
    used = state.get("tool_calls_used", 0)
    results: list[ToolResult] = []
    skipped: list[str] = []
    for call in turn.tool_calls:
        if used >= limits.max_tool_calls:
            args = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
            skipped.append(f"{call.name}({args})")
            results.append(ToolResult(
                call.id, "Tool budget exhausted for this question: answer now with what was "
                         "found, and say what could not be checked.", is_error=True))
            continue
        used += 1
        results.append(await box.run_for_model(call))
    # verbatim (thinking blocks go back as they came), and its tool results right after it:
    # every tool_use is answered in the very next message, or the API refuses the history
    messages.append(turn.as_message())
    left = max(0, limits.max_tool_calls - used)
    messages.append(ChatMessage(role="user", tool_results=results, text=(
        f"TOOL BUDGET: {left} remaining." + ("" if left else " Answer now with what was found."))))
    update: dict[str, Any] = {"messages": messages, "iterations": iterations + 1,
                              "tool_calls_used": used, "loop_done": False, "streamed": streamed,
                              "partial_text": "", "model_deadline": deadline}
    if skipped:
        update["limit_hit"] = "tool_calls"
        state["evidence"].missing.extend(skipped)
    return update


def _answer_offline(state: AnswerState, notice: str) -> dict[str, Any]:
    """The findings answer instead of the model's, with one line on why."""
    return {"loop_done": True, "use_offline": True, "origin": "offline", "text": "",
            "notices": [*state["notices"], notice]}


def after_tools(state: AnswerState) -> Literal["tool_loop", "compose"]:
    return "compose" if state.get("loop_done") else "tool_loop"


# ---------------------------------------------------------------- composing and the gate


def _limit_line(state: AnswerState, ctx: AgentContext) -> str:
    kind = state.get("limit_hit")
    if not kind:
        return ""
    n = ctx.limits.max_tool_calls if kind == "tool_calls" else ctx.limits.max_iterations
    missing = state["evidence"].missing
    tail = f" Not checked: {'; '.join(missing[:3])}." if missing else ""
    return f"\n\n_Answered with what was found: {LIMIT_NOTE[kind].format(n=n)}.{tail}_"


async def compose(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = _ctx(runtime)
    resolution = state["resolution"]
    if resolution.kind == "clarify":
        text = resolution.clarification or "Which period do you mean?"
        return {"draft": Draft(text=text), "text": text, "origin": "clarification"}
    if not state.get("use_offline") and state.get("origin") == "model" and state.get("text"):
        # the model cites by id: its ids become the house citations before anything reads them
        text, unknown = expand_ids(state["text"], state["evidence"])
        # the model reads the findings' periods as Manda spells them: the same labels apply
        text = label_fiscal_parts(text, state["evidence"].fiscal_year_end())
        text += _limit_line(state, ctx)
        draft = Draft(text=text, proposals=list(state["evidence"].proposals))
        return {"draft": draft, "text": text, "origin": "model", "unknown_ids": unknown}
    draft = _offline.compose(state["ask"], state["evidence"])
    # "Q2 2025" of a June year end is written "Q2 FY2025" (text and tables alike)
    draft.text = label_fiscal_parts(draft.text, state["evidence"].fiscal_year_end())
    draft.text += _limit_line(state, ctx)
    return {"draft": draft, "text": draft.text, "origin": "offline"}


async def apply_constraints(state: AnswerState) -> dict[str, Any]:
    """The offline composer's answer in the form the constraints ask for (a model's answer meets
    them itself, or is sent back by the gate)."""
    constraints = state.get("constraints")
    if not constraints or state.get("origin") != "offline":
        return {}
    draft, ask = state["draft"], state["ask"]
    draft.text, left_out = conform_draft(draft.text, constraints, state["evidence"],
                                         rests_on=draft.rests_on, terms=ask.frame.terms,
                                         subject=ask.subject, period=ask.period)
    draft.cautions = [*draft.cautions, *left_out]
    return {"draft": draft, "text": draft.text}


def _requirements(state: AnswerState) -> Requirements:
    ask = state["ask"]
    draft = state["draft"]
    offer = draft.offer_qa or (
        ask.intent in (Intent.DUE_DILIGENCE, Intent.GAP_IDENTIFICATION)
        and state.get("origin") == "model"
        and any(p.type == "add_to_qa" for p in state["evidence"].proposals)
    )
    proposed = any(p.type == "add_to_qa" for p in [*draft.proposals,
                                                    *state["evidence"].proposals])
    return Requirements(assumption=ask.assumption, offer_qa=offer, qa_proposed=proposed,
                        question=state["question"], model=state.get("origin") == "model")


async def validate(state: AnswerState) -> dict[str, Any]:
    if state.get("origin") == "clarification":
        return {"gate": GateResult(text=state["text"])}
    gate = run_gate(state["text"], state["evidence"], _requirements(state),
                    state.get("unknown_ids") or ())
    if gate.dropped:
        log.info("dropped %d unretrieved reference(s): %s", len(gate.dropped),
                 [f"{r.document} {r.location}" for r in gate.dropped])
    update = {"gate": gate, "text": gate.text, **check_answer_constraints(state, gate)}
    if not gate.ok:
        log.info("validation gate (%s): %s", state.get("origin"), gate.errors)
    return update


def check_answer_constraints(state: AnswerState, gate: GateResult) -> dict[str, Any]:
    """Every constraint checked on the answer. A model's answer that breaks one is sent back once
    with the reason; after that (and offline) what is still unmet is said in its cautions."""
    constraints = state.get("constraints")
    draft = state.get("draft")
    cautions = list(draft.cautions) if draft is not None and state.get("origin") == "offline" \
        else []
    if not constraints:
        return {"constraint_checks": [], "cautions": cautions}
    evidence = state["evidence"]
    said = [c.text for c in cautions]
    checks = evaluate_constraints(gate.text, constraints,
                                  cited_facts(gate.text, evidence, gate.numbers), notes=said)
    broken = [c for c in checks if c.instruction]
    model = state.get("origin") == "model"
    if broken and model and not state.get("constraints_sent_back"):
        gate.errors += [c.instruction for c in broken]
        return {"constraint_checks": checks, "constraints_sent_back": True,
                "cautions": cautions}
    text = gate.text
    if broken and model:  # the second attempt: the mechanical forms, then the cautions
        text = conform_text(text, constraints, evidence)
        gate.numbers = number_sources(text, evidence)  # restated amounts are read once more
        checks = evaluate_constraints(text, constraints,
                                      cited_facts(text, evidence, gate.numbers), notes=said)
    cautions += [*note_unmet(checks), *_still_applying(state)]
    said = [c.text for c in cautions]
    checks = evaluate_constraints(text, constraints, cited_facts(text, evidence, gate.numbers),
                                  notes=said)
    ask = state["ask"]
    if (out_of_reach := unanswerable(evidence, constraints, subject=ask.subject,
                                     period=ask.period)) is not None:
        rule, why = out_of_reach  # met by what was cited, yet the figure asked for is not there
        lead = caution("not_met", rule.describe()).text
        checks = [ConstraintCheck(c.constraint, met=False, reason=why,
                                  disclosed=any(s.startswith(lead) for s in said))
                  if c.constraint == rule and c.met else c for c in checks]
    gate.text = text
    return {"constraint_checks": checks, "text": text,
            "cautions": list({c.text: c for c in cautions}.values())}


def _still_applying(state: AnswerState) -> list[Caution]:
    carried = state.get("constraints_carried") or []
    if not carried:
        return []
    said = "; ".join(c.describe() for c in carried)
    return [caution("still_applying",
                    f"{said} (say “ignore the earlier instructions” to drop them).")]


def after_validate(state: AnswerState, runtime: Runtime[AgentContext]
                   ) -> Literal["ground", "reprompt", "fallback"]:
    gate = state["gate"]
    if gate.ok or state.get("origin") != "model":
        return "ground"
    if state.get("reprompts", 0) < runtime.context.limits.max_reprompts:
        return "reprompt"
    return "fallback"


async def reprompt(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Send the answer back with what the gate found, the references it dropped and the ids
    the model may cite, and go round the tool loop again: the model may search before it
    rewrites (while tool budget remains), and every tool call of its reply is run and
    answered."""
    ctx = _ctx(runtime)
    messages = list(state["messages"])
    messages.append(state.get("answer_turn") or ChatMessage(role="assistant", text=state["text"]))
    gate = state["gate"]
    messages.append(ChatMessage(role="user", text=reprompt_message(
        gate.errors, dropped=[f"{r.document} {r.location}".strip() for r in gate.dropped],
        unknown=[u.ident for u in state.get("unknown_ids") or ()],
        valid=valid_ids(state["evidence"]), budget=_budget_left(state, ctx))))
    return {"messages": messages, "reprompts": state.get("reprompts", 0) + 1,
            "loop_done": False, "answer_turn": None, "partial_text": "", "continuations": 0,
            "unknown_ids": []}


def _budget_left(state: AnswerState, ctx: AgentContext) -> int:
    return max(0, ctx.limits.max_tool_calls - state.get("tool_calls_used", 0))


async def fallback(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = _ctx(runtime)
    notices = list(state["notices"])
    if UNAVAILABLE_NOTICE not in notices:
        notices.append(REJECTED_NOTICE)
    draft = _offline.compose(state["ask"], state["evidence"])
    # "Q2 2025" of a June year end is written "Q2 FY2025" (text and tables alike)
    draft.text = label_fiscal_parts(draft.text, state["evidence"].fiscal_year_end())
    draft.text += _limit_line(state, ctx)
    return {"draft": draft, "text": draft.text, "origin": "offline", "use_offline": True,
            "notices": notices}


# ---------------------------------------------------------------- grounding and memory


def _trimmed(citation: Citation) -> Citation:
    if len(citation.excerpt) <= EXCERPT_CHARS:
        return citation
    return citation.model_copy(update={"excerpt": citation.excerpt[:EXCERPT_CHARS].rstrip()
                                       + " …"})


async def ground(state: AnswerState) -> dict[str, Any]:
    evidence = state["evidence"]
    text = state["text"]
    citations = [_trimmed(c) for c in ground_citations(text, evidence)]
    actions: list[SuggestedAction] = []
    keys: set[tuple[str, str | None, str | None]] = set()
    pending = {f.id for f in evidence.findings.values() if f.status is FindingStatus.PENDING}
    proposed = [*state["draft"].proposals, *evidence.proposals]
    if state.get("origin") == "model":  # the model's answer rests on what it cited
        proposed += [SuggestedAction(type="approve_finding", finding_id=c.finding_id)
                     for c in citations if c.finding_id in pending]
    for action in proposed:
        if action.type == "approve_finding" and action.finding_id not in pending:
            continue
        key = (action.type, action.question, action.finding_id)
        if key not in keys:
            keys.add(key)
            actions.append(action)
    if state.get("origin") == "offline":  # its markers in the question's language, last
        text = in_language(text, state["ask"].language)
    sink = state.get("sink")
    if sink is not None and not state.get("streamed"):
        await sink(text)
    return {"citations": citations, "actions": actions, "text": text}


async def save_context(state: AnswerState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = _ctx(runtime)
    conversation = state["conversation"]
    now = ctx.clock().isoformat()
    turn = [Message(role="user", text=state["question"], at=now),
            Message(role="assistant", text=state["text"], at=now)]
    context = _resolved_context(state)
    _record(conversation, state["deal_id"], turn, context)
    if state.get("memory_down"):  # never overwrite the thread's stored context with a blank one
        return {"conversation": conversation}
    try:
        # Read, change and write under the conversation's lock, from what is stored now: two
        # answers in one thread at once (here or in another worker) both keep their turn.
        async with ctx.lock(f"conversation:{conversation.id}", timeout=MEMORY_LOCK_SECONDS):
            stored = await ctx.memory.load(conversation.id)
            if stored is not None and stored.deal_id in (None, state["deal_id"]):
                _record(stored, state["deal_id"], turn, context)
                conversation = stored
            await ctx.memory.save(conversation)
    except (BackendUnavailableError, LockNotAcquiredError) as exc:
        # the answer stands; only the thread's context is lost
        log.warning("conversation memory unavailable, %s not saved: %s", conversation.id, exc)
    return {"conversation": conversation}


def _resolved_context(state: AnswerState) -> ResolvedContext:
    """What a follow-up in this conversation may inherit from this answer."""
    ask = state["ask"]
    resolution = state["resolution"]
    if resolution.kind == "clarify":
        return ResolvedContext(subject=resolution.subject, period=resolution.period,
                               entity=resolution.entity, intent=Intent.CLARIFICATION.value,
                               constraints=_kept_constraints(state))
    rests = state["draft"].rests_on if state.get("draft") else []
    subject = ask.subject or (subject_base(rests[0].subject) if rests else None)
    period = ask.period or (rests[0].period if rests else None)
    return ResolvedContext(subject=subject, period=period, entity=ask.entity,
                           intent=ask.intent.value, constraints=_kept_constraints(state))


def _kept_constraints(state: AnswerState) -> list[dict[str, Any]]:
    """The constraints a follow-up in this thread inherits (until changed or cleared)."""
    constraints = state.get("constraints")
    return constraints.to_json() if constraints else []


def _record(conversation: Conversation, deal_id: str, turn: list[Message],
            context: ResolvedContext) -> None:
    conversation.deal_id = deal_id
    for message in turn:
        conversation.remember(message)
    conversation.context = context


# ---------------------------------------------------------------- the graph


class TimedStateGraph(StateGraph):
    """A StateGraph whose nodes are each timed for the answer's trace (`manda.agent.trace`;
    a no-op when the state carries no recorder)."""

    def add_node(self, node: Any, action: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        if isinstance(node, str) and action is not None:
            action = timed(node, action)
        return super().add_node(node, action, **kwargs)


def build_answer_graph() -> CompiledStateGraph:
    """A fresh compiled graph; run it with `context=AgentContext(...)`."""
    graph = TimedStateGraph(AnswerState, context_schema=AgentContext)
    graph.add_node("load_context", load_context)
    graph.add_node("read_question", read)
    graph.add_node("resolve_followup", resolve_followup)
    graph.add_node("retrieve", retrieve)
    graph.add_node("tool_loop", tool_loop)
    graph.add_node("compose", compose)
    graph.add_node("apply_constraints", apply_constraints)
    graph.add_node("validate", validate)
    graph.add_node("reprompt", reprompt)
    graph.add_node("fallback", fallback)
    graph.add_node("ground", ground)
    graph.add_node("save_context", save_context)
    graph.add_edge(START, "load_context")
    graph.add_edge("load_context", "read_question")
    graph.add_edge("read_question", "resolve_followup")
    graph.add_conditional_edges("resolve_followup", after_resolve)
    graph.add_edge("retrieve", "tool_loop")
    graph.add_conditional_edges("tool_loop", after_tools)
    graph.add_edge("compose", "apply_constraints")
    graph.add_edge("apply_constraints", "validate")
    graph.add_conditional_edges("validate", after_validate)
    graph.add_edge("reprompt", "tool_loop")
    graph.add_edge("fallback", "apply_constraints")
    graph.add_edge("ground", "save_context")
    graph.add_edge("save_context", END)
    return graph.compile()
