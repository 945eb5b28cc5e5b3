"""Helpers shared by the commands: an app that is started and closed, deal checks, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from manda.config import Settings

if TYPE_CHECKING:
    from manda.app import Manda


@asynccontextmanager
async def running(settings: Settings, *, workflows: bool = True) -> AsyncIterator[Manda]:
    """A started app; `workflows=False` for commands that only read the deal (no LangGraph)."""
    from manda.app import Manda  # the adapters load when a command runs, not for --help

    app = Manda(settings, workflows=workflows)
    await app.start()
    try:
        yield app
    finally:
        await app.aclose()


async def require_deal(app: Manda, deal_id: str) -> None:
    await app.deals.require(deal_id)


def print_json(payload: Any) -> None:
    json.dump(payload, sys.stdout, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write("\n")
