"""The answering service: ask a question about a deal, get a grounded, cited `Answer`.

Used by the CLI (`manda ask`, `manda chat`), the Slack bot and the evals. `gaps()` and
`red_flags()` are the same agent asked the questions behind `/manda gaps` and `/manda redflags`.
Every answer is logged once (`manda.answers`: intent, tool calls, tokens, cost, latency,
grounding) with the conversation and deal in the log context, and counted in `Metrics`.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from manda.agent.actions import KnowledgeActions
from manda.agent.context import AgentContext
from manda.agent.graph import RECURSION_LIMIT, build_answer_graph
from manda.agent.state import AnswerState
from manda.agent.trace import TraceRecorder, build_trace
from manda.answers import Answer, Intent, Usage
from manda.errors import BackendUnavailableError, MandaError, UnknownDealError
from manda.llm.port import TokenUsage
from manda.observability.logging import estimate_cost, log_answer, log_context
from manda.traces import AnswerTrace

if TYPE_CHECKING:
    from manda.observability.metrics import Metrics

GAPS_QUESTION = "What is missing from the data room against the IRL?"
RED_FLAGS_QUESTION = "What are the red flags in this deal?"

log = logging.getLogger(__name__)


class AnswerService:
    """Questions in, `Answer`s out; one compiled graph, dependencies passed on every run."""

    def __init__(self, context: AgentContext, *, metrics: Metrics | None = None) -> None:
        self._context = context
        self._graph = build_answer_graph()
        self._metrics = metrics

    @property
    def context(self) -> AgentContext:
        return self._context

    async def ask(
        self,
        deal_id: str,
        question: str,
        *,
        conversation_id: str | None = None,
        on_text: Callable[[str], Awaitable[None]] | None = None,
        actions: KnowledgeActions | None = None,
    ) -> Answer:
        """Answer `question` about `deal_id`; with a conversation id, follow-ups carry over.
        `actions`: what the person asking may change in the deal (Claude's tools for it)."""
        text = " ".join(question.split())
        if not text:
            raise MandaError("The question is empty.", hint="Ask something about the deal, "
                             "e.g. `manda ask --deal D \"What was Q3 revenue?\"`.")
        conversation_id = conversation_id or f"cli:{uuid.uuid4().hex[:12]}"
        with log_context(conversation_id=conversation_id, deal_id=deal_id):
            if await self._context.graph.get_deal(deal_id) is None:
                raise UnknownDealError(deal_id)
            started = time.perf_counter()
            usage = TokenUsage()
            recorder = TraceRecorder()
            state: AnswerState = {
                "deal_id": deal_id,
                "question": text,
                "conversation_id": conversation_id,
                "sink": on_text,
                "usage": usage,
                "trace": recorder,
                "knowledge_actions": actions,
            }
            final: dict[str, Any] = await self._graph.ainvoke(
                state, context=self._context, config={"recursion_limit": RECURSION_LIMIT}
            )
            answer = self._answer(final, usage, started)
            self._record(answer, final, time.perf_counter() - started)
            await self._keep_trace(final, recorder, answer)
        return answer

    async def trace(self, conversation_id: str, answer_id: str) -> AnswerTrace | None:
        """How an answer of this conversation was reached, while the conversation is kept."""
        return await self._context.memory.load_trace(conversation_id, answer_id)

    async def _keep_trace(self, final: dict[str, Any], recorder: TraceRecorder,
                          answer: Answer) -> None:
        """Store the answer's trace with its conversation; the answer stands if it cannot be."""
        if final.get("memory_down"):
            return
        try:
            trace = build_trace(final, recorder, answer, answer_id=answer.answer_id,
                                at=self._context.clock().isoformat(), price=self._price)
            await self._context.memory.save_trace(trace)
        except BackendUnavailableError as exc:
            log.warning("trace of answer %s not kept: %s", answer.answer_id, exc)
        except Exception:  # a trace explains an answer; it never costs one
            log.exception("trace of answer %s could not be built", answer.answer_id)

    def _price(self, usage: TokenUsage) -> float | None:
        """US dollars for `usage` at the model that used it (offline tokens cost nothing)."""
        model = self._context.model
        if model is None or not usage.total:
            return 0.0
        try:
            return round(estimate_cost(
                model_id(model.name), usage.input_tokens, usage.output_tokens,
                cache_read_tokens=usage.cache_read_tokens,
                cache_write_tokens=usage.cache_write_tokens), 6)
        except ValueError:
            return None

    async def gaps(self, deal_id: str, *, conversation_id: str | None = None) -> Answer:
        """IRL (or default checklist) coverage by category, for `/manda gaps`."""
        return await self.ask(deal_id, GAPS_QUESTION, conversation_id=conversation_id)

    async def red_flags(self, deal_id: str, *, conversation_id: str | None = None) -> Answer:
        """Contradictions, corrections, unusual items and gaps, for `/manda redflags`."""
        return await self.ask(deal_id, RED_FLAGS_QUESTION, conversation_id=conversation_id)

    def _record(self, answer: Answer, final: dict[str, Any], seconds: float) -> None:
        """The answer's log line and metrics. Tokens are priced at the model that used them,
        which is Claude even when its answer was replaced by the offline composer's."""
        model = self._context.model
        billed = model_id(model.name) if model is not None else "offline"
        u = answer.usage
        tokens = u.input_tokens + u.output_tokens + u.cache_read_tokens + u.cache_write_tokens
        priced = billed if tokens else model_id(answer.model)
        log_answer(
            intent=answer.intent.value,
            model=priced,
            tool_calls=list(final["evidence"].tool_calls),
            input_tokens=answer.usage.input_tokens,
            output_tokens=answer.usage.output_tokens,
            cache_read_tokens=answer.usage.cache_read_tokens,
            cache_write_tokens=answer.usage.cache_write_tokens,
            latency_ms=seconds * 1000,
            grounded=answer.grounded,
            answered_by=answer.model,
            citations=len(answer.citations),
            notices=list(answer.notices),
        )
        if self._metrics is not None:
            self._metrics.record_answer(
                intent=answer.intent.value,
                model=priced,
                grounded=answer.grounded,
                latency_seconds=seconds,
                input_tokens=answer.usage.input_tokens,
                output_tokens=answer.usage.output_tokens,
                cache_read_tokens=answer.usage.cache_read_tokens,
                cache_write_tokens=answer.usage.cache_write_tokens,
            )

    def _answer(self, final: dict[str, Any], usage: TokenUsage, started: float) -> Answer:
        resolution = final["resolution"]
        intent = Intent.CLARIFICATION if resolution.kind == "clarify" else final["ask"].intent
        model = self._context.model
        model_name = "offline" if final.get("origin") != "model" or model is None else model.name
        gate = final.get("gate")
        return Answer(
            answer=final["text"],
            intent=intent,
            citations=final.get("citations", []),
            numbers=list(gate.numbers) if gate is not None else [],
            suggested_actions=final.get("actions", []),
            conversation_id=final["conversation_id"],
            usage=Usage(
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                latency_ms=int((time.perf_counter() - started) * 1000),
                cache_read_tokens=usage.cache_read_tokens,
                cache_write_tokens=usage.cache_write_tokens,
            ),
            model=model_name,
            grounded=bool(gate is None or gate.ok),
            notices=list(dict.fromkeys([*final.get("notices", []),
                                        *final["evidence"].notices])),
            constraints=final["constraints"].to_json() if final.get("constraints") else [],
            constraint_checks=[c.to_json() for c in final.get("constraint_checks") or []],
            cautions=list(final.get("cautions") or []),
        )


def model_id(name: str) -> str:
    """`claude:claude-sonnet-4-5` -> `claude-sonnet-4-5`, the id prices are listed under."""
    provider, _, model = name.partition(":")
    return model or provider
