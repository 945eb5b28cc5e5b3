"""The composition root: settings in, adapters chosen, services wired. Nothing else picks adapters.

Each port's real adapter is chosen by its own setting; with none set, everything runs embedded
under `MANDA_HOME`. Every choice is logged and reported by `manda doctor`, so nothing falls back
to a weaker mode silently.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.config import Settings
from manda.embed.port import Embedder, Reranker
from manda.hitl.qa import QAService
from manda.hitl.review import ReviewService
from manda.ingest.parsers import ParseLimits
from manda.ingest.service import Extractor, IngestService
from manda.kg.port import KnowledgeGraph
from manda.llm.claude import ClaudeChatModel
from manda.memory.port import ConversationMemory
from manda.retrieval.hybrid import HybridSearch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AdapterChoice:
    """Which adapter serves a port, and why (for logs and `manda doctor`)."""

    port: str
    adapter: str
    reason: str


def choose_graph(settings: Settings) -> tuple[KnowledgeGraph, AdapterChoice]:
    if settings.neo4j_uri:
        from manda.kg.neo4j import Neo4jKnowledgeGraph

        graph: KnowledgeGraph = Neo4jKnowledgeGraph(
            uri=settings.neo4j_uri,
            user=settings.neo4j_user,
            password=Settings.secret(settings.neo4j_password) or "",
            database=settings.neo4j_database,
        )
        return graph, AdapterChoice("graph", "neo4j", f"NEO4J_URI={settings.neo4j_uri}")
    from manda.kg.embedded import EmbeddedKnowledgeGraph

    path = settings.home_dir / "manda.db"
    return EmbeddedKnowledgeGraph(path), AdapterChoice(
        "graph", "embedded", f"SQLite at {path} (NEO4J_URI not set; one machine only)"
    )


def choose_memory(settings: Settings) -> tuple[ConversationMemory, AdapterChoice]:
    if settings.redis_url:
        from manda.memory.redis import RedisConversationMemory

        return RedisConversationMemory(
            settings.redis_url, ttl_seconds=settings.conversation_ttl_seconds
        ), AdapterChoice("memory", "redis", "REDIS_URL set")
    from manda.memory.embedded import SqliteConversationMemory

    path = settings.home_dir / "memory.db"
    return SqliteConversationMemory(
        path, ttl_seconds=settings.conversation_ttl_seconds
    ), AdapterChoice(
        "memory", "embedded", f"SQLite at {path} (REDIS_URL not set; single process only)"
    )


def choose_embeddings(settings: Settings) -> tuple[Embedder, Reranker | None, AdapterChoice]:
    key = Settings.secret(settings.voyage_api_key)
    if key:
        from manda.embed.voyage import VoyageEmbedder, VoyageReranker

        embedder = VoyageEmbedder(
            api_key=key, model=settings.voyage_model, base_url=settings.voyage_base_url
        )
        reranker = VoyageReranker(
            api_key=key, model=settings.voyage_rerank_model, base_url=settings.voyage_base_url
        )
        return (
            embedder,
            reranker,
            AdapterChoice(
                "embeddings", "voyage", f"{settings.voyage_model} + {settings.voyage_rerank_model}"
            ),
        )
    from manda.embed.offline import OfflineEmbedder

    return (
        OfflineEmbedder(),
        None,
        AdapterChoice(
            "embeddings",
            "offline",
            "all-MiniLM-L6-v2 int8 ONNX (VOYAGE_API_KEY not set; no reranker)",
        ),
    )


def anthropic_client(settings: Settings):  # type: ignore[no-untyped-def]
    """The one `AsyncAnthropic` client, or None when no key is configured."""
    key = Settings.secret(settings.anthropic_api_key)
    if not key:
        return None
    from anthropic import AsyncAnthropic

    return AsyncAnthropic(
        api_key=key,
        base_url=settings.anthropic_base_url,
        timeout=settings.model_timeout_seconds,
        max_retries=settings.model_max_retries,
    )


def choose_extractor(settings: Settings, client: object | None) -> tuple[Extractor, AdapterChoice]:
    if client is not None:
        from manda.ingest.extract.claude import ClaudeExtractor

        return ClaudeExtractor(client=client, model=settings.claude_model), AdapterChoice(
            "extraction", "claude", settings.claude_model
        )
    from manda.ingest.extract.offline import OfflineExtractor

    return OfflineExtractor(), AdapterChoice(
        "extraction", "offline", "deterministic rules (ANTHROPIC_API_KEY not set)"
    )


class Manda:
    """Everything one process needs, wired from `Settings`. Start it, use it, close it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.graph, graph_choice = choose_graph(settings)
        self.memory, memory_choice = choose_memory(settings)
        self.embedder, self.reranker, embed_choice = choose_embeddings(settings)
        self.anthropic = anthropic_client(settings)
        self.extractor, extract_choice = choose_extractor(settings, self.anthropic)
        self.choices = [graph_choice, memory_choice, embed_choice, extract_choice]
        self.search = HybridSearch(graph=self.graph, embedder=self.embedder, reranker=self.reranker)
        self.ingest = IngestService(
            graph=self.graph,
            embedder=self.embedder,
            extractor=self.extractor,
            limits=ParseLimits.from_settings(settings),
        )
        model = (
            ClaudeChatModel(client=self.anthropic, model=settings.claude_model)
            if self.anthropic is not None
            else None
        )
        self.choices.append(
            AdapterChoice("model", "claude", settings.claude_model)
            if model is not None
            else AdapterChoice("model", "offline", "offline composer (ANTHROPIC_API_KEY not set)")
        )
        self.answers = AnswerService(
            AgentContext(graph=self.graph, search=self.search, memory=self.memory, model=model)
        )
        self.review = ReviewService(graph=self.graph)
        self.qa = QAService(graph=self.graph)
        self._started = False

    async def start(self) -> None:
        settings_home = self.settings.home_dir
        settings_home.mkdir(parents=True, exist_ok=True)
        for choice in self.choices:
            log.info("%s: %s (%s)", choice.port, choice.adapter, choice.reason)
        await self.graph.start()
        await self.memory.start()
        await self.embedder.start()
        if self.reranker is not None:
            await self.reranker.start()
        self._started = True

    async def aclose(self) -> None:
        if not self._started:
            return
        self._started = False
        if self.reranker is not None:
            await self.reranker.aclose()
        await self.embedder.aclose()
        await self.memory.aclose()
        await self.graph.aclose()
        if self.anthropic is not None:
            await self.anthropic.close()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
