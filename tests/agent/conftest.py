"""Fixtures for the answering agent: a small hand-built deal in a temporary embedded store."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import anthropic
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from room import Room, open_room

from manda.agent.service import AnswerService
from manda.testing.anthropic_server import FakeAnthropicServer


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


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropicServer]:
    """The local Messages API (`manda.testing.anthropic_server`), keyed like the real one."""
    async with FakeAnthropicServer(api_key="test-key") as fake:
        yield fake


@pytest.fixture
async def client(server: FakeAnthropicServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    """The real SDK against it, with no retries of its own (each test says what it sends)."""
    sdk = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url, max_retries=0,
                                   timeout=10.0)
    yield sdk
    await sdk.close()
