"""The answering service: ask a question about a deal, get a grounded, cited `Answer`.

Used by the CLI (`manda ask`, `manda chat`), the Slack bot and the evals. `gaps()` and
`red_flags()` are the same agent asked the questions behind `/manda gaps` and `/manda redflags`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from manda.agent.context import AgentContext
from manda.agent.graph import RECURSION_LIMIT, build_answer_graph
from manda.agent.state import AnswerState
from manda.answers import Answer, Intent, Usage
from manda.errors import MandaError, UnknownDealError
from manda.llm.port import TokenUsage

GAPS_QUESTION = "What is missing from the data room against the IRL?"
RED_FLAGS_QUESTION = "What are the red flags in this deal?"


class AnswerService:
    """Questions in, `Answer`s out; one compiled graph, dependencies passed on every run."""

    def __init__(self, context: AgentContext) -> None:
        self._context = context
        self._graph = build_answer_graph()

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
    ) -> Answer:
        """Answer `question` about `deal_id`; with a conversation id, follow-ups carry over."""
        text = " ".join(question.split())
        if not text:
            raise MandaError("The question is empty.", hint="Ask something about the deal, "
                             "e.g. `manda ask --deal D \"What was Q3 revenue?\"`.")
        if await self._context.graph.get_deal(deal_id) is None:
            raise UnknownDealError(deal_id)
        started = time.perf_counter()
        usage = TokenUsage()
        state: AnswerState = {
            "deal_id": deal_id,
            "question": text,
            "conversation_id": conversation_id or f"cli:{uuid.uuid4().hex[:12]}",
            "sink": on_text,
            "usage": usage,
        }
        final: dict[str, Any] = await self._graph.ainvoke(
            state, context=self._context, config={"recursion_limit": RECURSION_LIMIT}
        )
        return self._answer(final, usage, started)

    async def gaps(self, deal_id: str, *, conversation_id: str | None = None) -> Answer:
        """IRL (or default checklist) coverage by category, for `/manda gaps`."""
        return await self.ask(deal_id, GAPS_QUESTION, conversation_id=conversation_id)

    async def red_flags(self, deal_id: str, *, conversation_id: str | None = None) -> Answer:
        """Contradictions, corrections, unusual items and gaps, for `/manda redflags`."""
        return await self.ask(deal_id, RED_FLAGS_QUESTION, conversation_id=conversation_id)

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
            suggested_actions=final.get("actions", []),
            conversation_id=final["conversation_id"],
            usage=Usage(
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                latency_ms=int((time.perf_counter() - started) * 1000),
            ),
            model=model_name,
            grounded=bool(gate is None or gate.ok),
            notices=list(dict.fromkeys([*final.get("notices", []),
                                        *final["evidence"].notices])),
        )
