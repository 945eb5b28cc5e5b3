"""Bot fixtures: a fake Slack on 127.0.0.1 and the real Bolt app serving HTTP against it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from slackworld import SlackWorld, running_world

from bot.fakeslack import FakeSlack
from manda.app import Manda


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    server = FakeSlack()
    await server.start()
    try:
        yield server
    finally:
        await server.aclose()


@pytest.fixture
async def world(app: Manda, fake: FakeSlack) -> AsyncIterator[SlackWorld]:
    async with running_world(app, fake) as running:
        yield running
        await running.settle()
