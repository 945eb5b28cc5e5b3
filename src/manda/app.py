"""The composition root: settings in, adapters chosen, services wired. Nothing else picks adapters.

Each port's real adapter is chosen by its own setting; with none set, everything runs embedded
under `MANDA_HOME`. Every choice is logged and reported by `manda doctor`, so nothing falls back
to a weaker mode silently. Every external adapter gets its service's circuit breaker (one
registry per app: "Claude", "Voyage", "Neo4j", "Redis") and counts its failures in `Metrics`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property, partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from manda.config import Settings
from manda.deals.conversations import ConversationService
from manda.embed.port import Embedder, Reranker
from manda.hitl.qa import QAService
from manda.hitl.review import ReviewService
from manda.ingest.parsers.base import ParseLimits
from manda.jobs.port import JobQueue
from manda.kg.port import KnowledgeGraph
from manda.memory.locks import LocalLock, MemoryEventGate, NamedLock, RedisLock
from manda.memory.port import ConversationMemory
from manda.observability.metrics import Metrics
from manda.private import private_dir
from manda.resilience.breaker import BreakerRegistry
from manda.retrieval.hybrid import HybridSearch

if TYPE_CHECKING:  # the heavy services (LangGraph, parsers, Claude) load on first use
    from manda.agent.service import AnswerService
    from manda.cim.port import SlideDrafter
    from manda.cim.service import CimService
    from manda.deals import DealService
    from manda.deals.workflows import DealWorkflows
    from manda.grid.service import GridService
    from manda.ingest.service import Extractor, IngestService
    from manda.irl.service import IrlService
    from manda.jobs.service import JobService
    from manda.workflows.checkpoints import WorkflowCheckpoints

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AdapterChoice:
    """Which adapter serves a port, and why (for logs and `manda doctor`)."""

    port: str
    adapter: str
    reason: str


@dataclass(frozen=True)
class Guards:
    """The breakers and metrics an external adapter is given, by service name."""

    breakers: BreakerRegistry = field(default_factory=BreakerRegistry)
    metrics: Metrics | None = None

    def __call__(self, service: str) -> dict[str, Any]:
        """`breaker=` and `on_error=` keyword arguments for the adapter of `service`."""
        on_error = (
            partial(self.metrics.record_external_error, service)
            if self.metrics is not None
            else None
        )
        return {"breaker": self.breakers.get(service), "on_error": on_error}


NO_GUARDS: dict[str, Any] = {}
CHAT_CLAUDE = "Claude"
INGESTION_CLAUDE = "Claude (ingestion)"
GRID_CLAUDE = "Claude (grid)"


def _guards(guards: Guards | None, service: str) -> dict[str, Any]:
    return guards(service) if guards is not None else NO_GUARDS


def choose_graph(
    settings: Settings, guards: Guards | None = None
) -> tuple[KnowledgeGraph, AdapterChoice]:
    if settings.neo4j_uri:
        from manda.kg.neo4j import Neo4jKnowledgeGraph

        graph: KnowledgeGraph = Neo4jKnowledgeGraph(
            uri=settings.neo4j_uri,
            user=settings.neo4j_user,
            password=Settings.secret(settings.neo4j_password) or "",
            database=settings.neo4j_database,
            **_guards(guards, "Neo4j"),
        )
        return graph, AdapterChoice("graph", "neo4j", f"NEO4J_URI={settings.neo4j_uri}")
    from manda.kg.embedded import EmbeddedKnowledgeGraph
    from manda.kg.embedded.keyword import engine_name
    from manda.kg.embedded.vectors import DenseOptions

    path = settings.home_dir / "manda.db"
    dense = DenseOptions(
        engine=settings.dense_engine,
        ann_min_vectors=settings.ann_min_vectors,
        index_dir=settings.home_dir / "vector-index",
    )
    keyword_dir = settings.home_dir / "keyword-index"
    return EmbeddedKnowledgeGraph(path, dense=dense, keyword_dir=keyword_dir), AdapterChoice(
        "graph",
        "embedded",
        f"SQLite at {path}; keyword search: {engine_name(keyword_dir)} "
        "(NEO4J_URI not set; one machine only)",
    )


def choose_memory(
    settings: Settings, guards: Guards | None = None
) -> tuple[ConversationMemory, AdapterChoice]:
    if settings.redis_url:
        from manda.memory.redis import RedisConversationMemory

        return RedisConversationMemory(
            settings.redis_url,
            ttl_seconds=settings.conversation_ttl_seconds,
            **_guards(guards, "Redis"),
        ), AdapterChoice("memory", "redis", "REDIS_URL set")
    from manda.memory.embedded import SqliteConversationMemory

    path = settings.home_dir / "memory.db"
    return SqliteConversationMemory(
        path, ttl_seconds=settings.conversation_ttl_seconds
    ), AdapterChoice(
        "memory", "embedded", f"SQLite at {path} (REDIS_URL not set; single process only)"
    )


def conversation_lock(memory: ConversationMemory) -> NamedLock:
    """The lock conversation updates go under: in Redis when the memory is shared by every
    process, else in this process (the embedded memory serves one process)."""
    from manda.memory.redis import RedisConversationMemory

    if isinstance(memory, RedisConversationMemory):
        return RedisLock(memory)
    return LocalLock()


def choose_job_queue(
    settings: Settings, guards: Guards | None = None
) -> tuple[JobQueue, AdapterChoice]:
    if settings.redis_url:
        from manda.jobs.redis import RedisJobQueue

        on_error = _guards(guards, "Redis").get("on_error")
        queue = RedisJobQueue(
            settings.redis_url, finished_ttl=settings.job_ttl_seconds, on_error=on_error
        )
        return queue, AdapterChoice(
            "jobs", "redis", "REDIS_URL set: every worker takes jobs from one queue"
        )
    from manda.jobs.sqlite import SqliteJobQueue

    path = settings.home_dir / "jobs.db"
    return SqliteJobQueue(path, finished_ttl=settings.job_ttl_seconds), AdapterChoice(
        "jobs", "embedded", f"SQLite at {path} (REDIS_URL not set; workers on this machine only)"
    )


def choose_embeddings(
    settings: Settings, guards: Guards | None = None
) -> tuple[Embedder, Reranker | None, AdapterChoice]:
    key = Settings.secret(settings.voyage_api_key)
    if key:
        from manda.embed.voyage import VoyageEmbedder, VoyageReranker

        embedder = VoyageEmbedder(
            api_key=key,
            model=settings.voyage_model,
            base_url=settings.voyage_base_url,
            **_guards(guards, "Voyage"),
        )
        reranker = VoyageReranker(
            api_key=key,
            model=settings.voyage_rerank_model,
            base_url=settings.voyage_base_url,
            **_guards(guards, "Voyage"),
        )
        return (
            embedder,
            reranker,
            AdapterChoice(
                "embeddings", "voyage", f"{settings.voyage_model} + {settings.voyage_rerank_model}"
            ),
        )
    from manda.embed.offline import OfflineEmbedder

    precision, cache = settings.offline_embedder, settings.model_cache_dir
    embedder = OfflineEmbedder(
        model=settings.offline_model, precision=precision,
        cache_dir=cache.expanduser() if cache else None,
    )
    stored = "4-bit" if settings.offline_model == "multilingual-e5-small" else "int8"
    kind = {"q8": "int8 weights and activations", "fp32": f"{stored} weights, float32 products"}
    return (
        embedder,
        None,
        AdapterChoice(
            "embeddings",
            "offline",
            f"{embedder.model.title}, {kind[precision]} (VOYAGE_API_KEY not set; no reranker)",
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


def extractor_choice(settings: Settings, client: object | None) -> AdapterChoice:
    """Which extractor `choose_extractor` will build, without importing it."""
    if client is not None:
        return AdapterChoice("extraction", "claude", settings.claude_model)
    return AdapterChoice(
        "extraction", "offline", "deterministic rules (ANTHROPIC_API_KEY not set)"
    )


def choose_extractor(
    settings: Settings, client: object | None, guards: Guards | None = None
) -> tuple[Extractor, AdapterChoice]:
    choice = extractor_choice(settings, client)
    if client is not None:
        from manda.ingest.extract.batches import SqliteBatchLedger
        from manda.ingest.extract.claude import ClaudeExtractor

        extractor = ClaudeExtractor(
            client=client,
            model=settings.claude_model,
            # a document tried again resumes at its first unfinished batch (no re-billing)
            ledger=SqliteBatchLedger(settings.home_dir / "extraction-batches.db"),
            # its own breaker: a dense data room must not open the one answers go through
            **_guards(guards, INGESTION_CLAUDE),
        )
        return extractor, choice
    from manda.ingest.extract.offline import OfflineExtractor

    return OfflineExtractor(), choice


class Manda:
    """Everything one process needs, wired from `Settings`. Start it, use it, close it."""

    def __init__(
        self,
        settings: Settings,
        *,
        breakers: BreakerRegistry | None = None,
        metrics: Metrics | None = None,
        workflows: bool = True,
    ) -> None:
        """`breakers` and `metrics` default to fresh ones; the HTTP server reads both.
        `workflows=False` leaves the workflow checkpoints (CIM, IRL) closed: a command that
        only reads the deal (`manda search`) then never loads LangGraph."""
        self.settings = settings
        self.breakers = breakers if breakers is not None else BreakerRegistry()
        self.metrics = metrics if metrics is not None else Metrics(breakers=self.breakers)
        guards = Guards(self.breakers, self.metrics)
        self.graph, graph_choice = choose_graph(settings, guards)
        self.memory, memory_choice = choose_memory(settings, guards)
        self.embedder, self.reranker, embed_choice = choose_embeddings(settings, guards)
        self.anthropic = anthropic_client(settings)
        self._guards = guards
        self.choices = [
            graph_choice,
            memory_choice,
            embed_choice,
            extractor_choice(settings, self.anthropic),
            AdapterChoice("model", "claude", settings.claude_model)
            if self.anthropic is not None
            else AdapterChoice("model", "offline", "offline composer (ANTHROPIC_API_KEY not set)"),
            AdapterChoice("cim", "claude", f"{settings.claude_model}, under the grounding gate")
            if self.anthropic is not None
            else AdapterChoice("cim", "extractive",
                               "slides from findings and passages (ANTHROPIC_API_KEY not set)"),
            AdapterChoice("grid", "claude", f"{settings.claude_model}, one request a document, "
                          f"{settings.grid_concurrency} at once, quotes checked")
            if self.anthropic is not None
            else AdapterChoice("grid", "offline", "clauses read by headings, cues and meaning "
                               "(ANTHROPIC_API_KEY not set)"),
        ]
        self.search = HybridSearch(graph=self.graph, embedder=self.embedder, reranker=self.reranker)
        self.job_queue, jobs_choice = choose_job_queue(settings, guards)
        self.choices.append(jobs_choice)
        self.review = ReviewService(graph=self.graph)
        self.qa = QAService(graph=self.graph)
        self.conversations = ConversationService(memory=self.memory)
        self._workflows = workflows
        self._started = False

    # The services below are built on first use, so a command that only searches never imports
    # the parsers, LangGraph or the Claude SDK (`manda --help` and `manda search` start fast).

    @cached_property
    def extractor(self) -> Extractor:
        return choose_extractor(self.settings, self.anthropic, self._guards)[0]

    @cached_property
    def ingest(self) -> IngestService:
        from manda.ingest.service import IngestService

        return IngestService(
            graph=self.graph,
            embedder=self.embedder,
            extractor=self.extractor,
            limits=ParseLimits.from_settings(self.settings),
            isolation=self.settings.ingest_isolation,
        )

    @cached_property
    def answers(self) -> AnswerService:
        from manda.agent.context import AgentContext
        from manda.agent.service import AnswerService

        model = None
        if self.anthropic is not None:
            from manda.llm.claude import ClaudeChatModel

            model = ClaudeChatModel(
                client=self.anthropic, model=self.settings.claude_model,
                **self._guards(CHAT_CLAUDE),
            )
        return AnswerService(
            AgentContext(graph=self.graph, search=self.search, memory=self.memory, model=model,
                         lock=conversation_lock(self.memory), embedder=self.embedder),
            metrics=self.metrics,
        )

    @cached_property
    def workflow_checkpoints(self) -> WorkflowCheckpoints:
        from manda.workflows.checkpoints import WorkflowCheckpoints

        return WorkflowCheckpoints(self.settings.home_dir / "workflows.sqlite",
                                   redis_url=self.settings.redis_url)

    @cached_property
    def cim(self) -> CimService:
        from manda.cim.service import CimService

        return CimService(agent=self.answers.context, checkpoints=self.workflow_checkpoints,
                          drafter=self.cim_drafter)

    @cached_property
    def cim_drafter(self) -> SlideDrafter:
        """Who writes CIM slides: Claude (the answering agent's model) when configured."""
        model = self.answers.context.model
        if model is None:
            from manda.cim.drafting import ExtractiveDrafter

            return ExtractiveDrafter()
        from manda.cim.claude import ClaudeDrafter

        return ClaudeDrafter(model=model)

    @cached_property
    def irl(self) -> IrlService:
        from manda.irl.service import IrlService

        return IrlService(graph=self.graph, checkpoints=self.workflow_checkpoints,
                          ingest=self.ingest.ingest)

    @cached_property
    def jobs(self) -> JobService:
        from manda.jobs.service import JobService, RetryPolicy

        return JobService(
            queue=self.job_queue,
            ingest=self.ingest,
            uploads_dir=self.settings.home_dir / "uploads",
            retry=RetryPolicy(max_attempts=self.settings.job_max_attempts),
            metrics=self.metrics,
            grid=lambda deal, run, document: self.grid.read_document(deal, run, document),
        )

    @cached_property
    def grid(self) -> GridService:
        """The review grid: Claude reads each document when configured, else the offline
        reader (clauses by headings, cues and the embedder's meaning)."""
        from manda.grid.offline import OfflineReader
        from manda.grid.service import GridService

        if self.anthropic is None:
            return GridService(graph=self.graph, reader=OfflineReader(embedder=self.embedder))
        from manda.grid.claude import ClaudeGridReader
        from manda.llm.claude import ClaudeChatModel

        model = ClaudeChatModel(client=self.anthropic, model=self.settings.claude_model,
                                **self._guards(GRID_CLAUDE))
        reader = ClaudeGridReader(model=model, concurrency=self.settings.grid_concurrency,
                                  requests_per_minute=self.settings.grid_requests_per_minute)
        return GridService(graph=self.graph, reader=reader, model=self.settings.claude_model)

    @cached_property
    def deals(self) -> DealService:
        """What front ends call: named deal operations, never the stores behind them."""
        from manda.deals import DealService

        return DealService(
            graph=self.graph,
            review=self.review,
            qa=self.qa,
            ingest=self.ingest,
            jobs=self.jobs,
            settings=self.settings,
            workflows=self._deal_workflows,
            traces=self.memory,
            grid=lambda: self.grid,
            gate=MemoryEventGate(self.memory),
        )

    def _deal_workflows(self) -> DealWorkflows:
        """The CIM and IRL workflows, built when first used (they load LangGraph)."""
        from manda.deals.workflows import DealWorkflows

        return DealWorkflows(cim=self.cim, irl=self.irl,
                             exports_dir=self.settings.home_dir / "exports")

    def probes(self) -> dict[str, Callable[[], Awaitable[None]]]:
        """The stores a request needs, by port, each with its ping (readiness checks)."""
        return {"graph": self.graph.ping, "memory": self.memory.ping}

    async def start(self) -> None:
        settings_home = self.settings.home_dir
        private_dir(settings_home)
        for choice in self.choices:
            log.info("%s: %s (%s)", choice.port, choice.adapter, choice.reason)
        await self.graph.start()
        await self.memory.start()
        await self.embedder.start()
        if self.reranker is not None:
            await self.reranker.start()
        await self.job_queue.start()
        if self._workflows:
            await self.workflow_checkpoints.start()
        self._started = True

    async def aclose(self) -> None:
        if not self._started:
            return
        self._started = False
        if "workflow_checkpoints" in self.__dict__:  # built (cached_property) means maybe open
            await self.workflow_checkpoints.aclose()
        await self.job_queue.aclose()
        if self.reranker is not None:
            await self.reranker.aclose()
        await self.embedder.aclose()
        await self.memory.aclose()
        await self.graph.aclose()
        if self.anthropic is not None:
            await self.anthropic.close()

    async def warm_linked_deals(self) -> None:
        """Open the search indexes of every deal a channel is linked to, one after the other,
        so the first question after a start does not wait for them (`manda serve` runs this in
        the background). A deal that fails is logged and the rest still warmed."""
        for deal_id in await self.deals.linked_deals():
            try:
                await self.search.warm(deal_id)
            except Exception:
                log.warning("could not open the search indexes of deal %s ahead of its first "
                            "question; its first search will try again", deal_id, exc_info=True)

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
