"""What every listener needs, built once by `build_app`: the domain, settings, jobs, edit locks,
the metrics and circuit breakers the bot shares with the domain, and the Web API's connections."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import aiohttp

from bot.background import BackgroundJobs
from bot.edits import MessageEdits
from bot.inflight import InFlightUploads
from bot.ratelimit import LocalSlackLimiter, SlackLimiter
from bot.slackapi import TIMEOUT_SECONDS
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.config import Settings
from manda.deals import ConversationService, DealService
from manda.observability.metrics import Metrics
from manda.resilience.breaker import BreakerRegistry, CircuitBreaker

DEDUP_SECONDS = 3600  # Slack retries for up to about an hour; at least 10 minutes is required
ANSWER_TIMEOUT = 240.0
# Answers computed at once. The agent's work is mostly CPU in this process's event loop: more at
# once only interleaves them (every answer late, acks slowed); a few at once answer in order.
ANSWER_CONCURRENCY = 4
SLACK_BREAKER = "Slack"
PROGRESS_INTERVAL = 1.0


@dataclass(frozen=True)
class QueueWatch:
    """How the bot follows the job of files dropped in Slack (with MANDA_INGEST_VIA_QUEUE): how
    often it asks, how long a job may wait for a worker, and how long it is followed at most."""

    poll_seconds: float = 1.0
    unclaimed_seconds: float = 600.0
    limit_seconds: float = 4 * 3600.0


@dataclass
class Deps:
    manda: Manda
    settings: Settings
    jobs: BackgroundJobs = field(default_factory=BackgroundJobs)
    edits: MessageEdits = field(default_factory=MessageEdits)
    answer_timeout: float = ANSWER_TIMEOUT
    queue_watch: QueueWatch = field(default_factory=QueueWatch)
    answer_slots: asyncio.Semaphore = field(
        default_factory=lambda: asyncio.Semaphore(ANSWER_CONCURRENCY)
    )
    # Slack's rate budget: `choose_slack_limiter` (Redis, shared by the workers, with REDIS_URL)
    slack_limits: SlackLimiter = field(default_factory=LocalSlackLimiter)
    progress_interval: float = PROGRESS_INTERVAL  # seconds between two edits of one message
    _slack_session: aiohttp.ClientSession | None = field(default=None, init=False, repr=False)
    _uploads: InFlightUploads | None = field(default=None, init=False, repr=False)

    @property
    def uploads(self) -> InFlightUploads:
        """Uploads this bot is ingesting, on disk so a restart can tell how they ended."""
        if self._uploads is None:
            self._uploads = InFlightUploads(self.settings.home_dir)
        return self._uploads

    @property
    def answers(self) -> AnswerService:
        return self.manda.answers

    @property
    def deals(self) -> DealService:
        """Every deal operation a listener needs; listeners never reach the stores."""
        return self.manda.deals

    @property
    def conversations(self) -> ConversationService:
        return self.manda.conversations

    @property
    def breakers(self) -> BreakerRegistry:
        """The app's breakers: the domain's ("Claude", "Redis"…) and the bot's ("Slack")."""
        return self.manda.breakers

    @property
    def metrics(self) -> Metrics:
        return self.manda.metrics

    @property
    def slack_breaker(self) -> CircuitBreaker:
        return self.breakers.get(SLACK_BREAKER)

    def slack_session(self) -> aiohttp.ClientSession:
        """One connection pool for every Web API call, opened on first use (inside the loop).

        Without it the SDK opens a session, and a TCP connection, per call: under load the bot
        spent more time connecting to Slack than answering.
        """
        if self._slack_session is None or self._slack_session.closed:
            self._slack_session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
            )
        return self._slack_session

    async def aclose(self) -> None:
        """Close the Web API connections (after the jobs are drained) and the limiter's."""
        session, self._slack_session = self._slack_session, None
        if session is not None:
            await session.close()
        await self.slack_limits.aclose()
