"""Uploads being ingested by this bot, written down so a restart can finish their story.

Each upload's progress message is recorded under `MANDA_HOME/uploads-in-flight/` while the bot
ingests it and removed when it ends. A record left behind by a process that no longer runs means
the bot died mid-ingestion (a crash, `kill -9`, an OOM): on start its message is updated to say
the files were not ingested and what to do. (Uploads through the job queue recover with the queue.)
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.ingest import render_interrupted
from manda.private import private_dir

log = logging.getLogger(__name__)

FOLDER = "uploads-in-flight"


@dataclass(frozen=True)
class InFlight:
    """One upload's progress message and who was ingesting it."""

    channel: str
    ts: str
    deal_id: str
    files: list[str]
    host: str
    pid: int


def _alive(record: InFlight) -> bool:
    if record.host != socket.gethostname():
        return True  # not ours to judge
    try:
        os.kill(record.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class InFlightUploads:
    """The records of one `MANDA_HOME`; cheap file writes, no I/O until used."""

    def __init__(self, home: Path) -> None:
        self._folder = home / FOLDER

    def begin(self, channel: str, ts: str, deal_id: str, files: list[str]) -> Path:
        private_dir(self._folder)
        record = InFlight(channel, ts, deal_id, files, socket.gethostname(), os.getpid())
        path = self._folder / f"{uuid.uuid4().hex}.json"
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(asdict(record), out)
        tmp.replace(path)
        return path

    @staticmethod
    def end(path: Path) -> None:
        path.unlink(missing_ok=True)

    def abandoned(self) -> list[tuple[Path, InFlight]]:
        """Records whose process is gone: uploads interrupted mid-ingestion."""
        if not self._folder.is_dir():
            return []
        found: list[tuple[Path, InFlight]] = []
        for path in sorted(self._folder.glob("*.json")):
            try:
                record = InFlight(**json.loads(path.read_text()))
            except (OSError, ValueError, TypeError):
                log.warning("unreadable in-flight upload record %s; removing it", path.name)
                path.unlink(missing_ok=True)
                continue
            if not _alive(record):
                found.append((path, record))
        return found


async def recover_uploads(uploads: InFlightUploads, client: AsyncWebClient) -> int:
    """Tell each interrupted upload's thread what happened; return how many were told."""
    told = 0
    for path, record in uploads.abandoned():
        message = render_interrupted(record.deal_id, record.files)
        with contextlib.suppress(SlackApiError):
            await client.chat_update(
                channel=record.channel, ts=record.ts, text=message.text, blocks=message.blocks
            )
            told += 1
        uploads.end(path)
    return told
