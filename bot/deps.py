"""What every listener needs, built once by `build_app`: the domain, settings, jobs, edit locks."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.edits import MessageEdits
from bot.jobs import Jobs
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.config import Settings

DEDUP_SECONDS = 3600  # Slack retries for up to about an hour; at least 10 minutes is required
ANSWER_TIMEOUT = 240.0


@dataclass
class Deps:
    manda: Manda
    settings: Settings
    jobs: Jobs = field(default_factory=Jobs)
    edits: MessageEdits = field(default_factory=MessageEdits)
    answer_timeout: float = ANSWER_TIMEOUT

    @property
    def answers(self) -> AnswerService:
        return self.manda.answers
