"""Fixtures for the answering agent: a small hand-built deal in a temporary embedded store."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from room import Room, open_room

from manda.agent.service import AnswerService


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    opened = await open_room(tmp_path)
    try:
        yield opened
    finally:
        await opened.memory.aclose()
        await opened.graph.aclose()


@pytest.fixture
def service(room: Room) -> AnswerService:
    """The offline agent (no model) over the hand-built deal."""
    return room.service()
