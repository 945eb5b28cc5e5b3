"""What the answering graph needs from the outside, injected per run as LangGraph runtime context.

Nothing here is global: the service builds one `AgentContext` from the app's stores and model and
passes it to every `ainvoke`, so tests run the real graph with fakes and temporary stores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from manda.agent.degraded import OncePerConversation
from manda.embed.port import Embedder
from manda.kg.port import KnowledgeGraph
from manda.llm.port import ChatModel
from manda.memory.locks import LocalLock, NamedLock
from manda.memory.port import ConversationMemory
from manda.models import SearchHit, utcnow


@runtime_checkable
class PassageSearch(Protocol):
    """Deal-scoped passage retrieval (`manda.retrieval.hybrid.HybridSearch` in the app)."""

    async def search(self, deal_id: str, query: str, k: int = 8) -> list[SearchHit]: ...


# Tokens the reply of a model turn may use, by the answer shape of the intent. The room the model
# thinks in comes on top (`manda.llm.calls.ANSWER`: thinking counts toward `max_tokens`). A reply
# cut off at its cap is continued (`Limits.max_continuations`); a turn cut off before it wrote a
# word is asked again with twice the cap, up to `Limits.max_answer_tokens`.
ANSWER_TOKENS: Mapping[str, int] = MappingProxyType({
    "fact_lookup": 2048,  # one sourced sentence
    "clarification": 1024,
    "exploration": 3072,  # an overview with drill-down offers
    "comparison": 4096,  # a side-by-side table with variance
    "deep_dive": 6144,  # a headed breakdown with trends
    "synthesis": 6144,
    "gap_identification": 6144,  # IRL coverage by category
    "due_diligence": 8192,  # contradictions, gaps and unusual items
})


@dataclass(frozen=True)
class Limits:
    """Hard limits per question: the loop stops and says what is missing when one is reached."""

    # a risk scan: contradictions, gaps, the timeline's upcoming events and three topic searches
    max_tool_calls: int = 6
    max_iterations: int = 10
    max_reprompts: int = 3
    search_k: int = 8
    history_messages: int = 10
    answer_tokens: Mapping[str, int] = field(default_factory=lambda: ANSWER_TOKENS)
    max_answer_tokens: int = 16384
    max_continuations: int = 2  # a reply cut off by its cap is continued this many times
    # Seconds every model turn of one answer may take together; past them the findings answer
    # (well inside the Slack bot's own `ANSWER_TIMEOUT`, so a slow model never becomes an error).
    model_seconds: float = 150.0

    def tokens_for(self, intent: str) -> int:
        """The output cap of a turn answering `intent` (the largest shape's for an unknown one)."""
        return self.answer_tokens.get(intent, max(self.answer_tokens.values()))


@dataclass
class AgentContext:
    """The answering graph's dependencies: stores, search, memory, model, limits and clock.

    `model` is None for the offline path: the graph then runs the deterministic tool plan and
    composes from the extracted findings. The same offline composer is the fallback when the
    model is unavailable or cannot produce an answer that passes the validation gate.
    `memory_told` remembers which conversations already heard that their memory is unreachable.
    `lock` serialises the updates of one conversation's memory: a `RedisLock` across processes
    with Redis, an in-process lock embedded.
    """

    graph: KnowledgeGraph
    search: PassageSearch
    memory: ConversationMemory
    model: ChatModel | None = None
    limits: Limits = field(default_factory=Limits)
    clock: Callable[[], datetime] = utcnow
    memory_told: OncePerConversation = field(default_factory=OncePerConversation)
    lock: NamedLock = field(default_factory=LocalLock)
    # the deal's embedder, to weigh the leading spans by meaning (`manda.agent.meaning`)
    embedder: Embedder | None = None
