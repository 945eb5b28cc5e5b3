"""A running Manda bot wired to a running fake Slack, with people and channels, for bot tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import SecretStr

from bot.app import MandaBot, build_app
from bot.conversations import channel_key
from bot.fakeslack import Channel, FakeSlack, Message, User, Workspace
from bot.run import http_server
from manda.app import Manda
from manda.config import Settings


def bot_settings(manda: Manda, fake: FakeSlack, **extra: Any) -> Settings:
    """The app's settings plus the fake's tokens, signing secret and API URL."""
    return manda.settings.model_copy(
        update={
            "slack_bot_token": SecretStr(fake.bot_token),
            "slack_signing_secret": SecretStr(fake.signing_secret),
            "slack_app_token": SecretStr(fake.app_token),
            "slack_api_url": fake.api_url,
            **extra,
        }
    )


@dataclass
class SlackWorld:
    fake: FakeSlack
    bot: MandaBot
    manda: Manda
    alice: User  # in the deal channel
    bob: User  # in the deal channel
    eve: User  # in the workspace, not in the deal channel
    deal: Channel  # bound to targetco
    lobby: Channel  # not bound to any deal

    @property
    def ws(self) -> Workspace:
        return self.fake.workspace

    async def settle(self) -> None:
        """Wait for every job the bot started after its acks."""
        await self.bot.drain()

    def replies(self, channel: Channel, thread_ts: str) -> list[Message]:
        """The bot's visible messages in a thread, the parent left out."""
        return [
            m for m in self.ws.bot_messages(channel.id, thread_ts=thread_ts) if m.ts != thread_ts
        ]

    def text_of(self, message: Message) -> str:
        return message.all_text()

    def modal_notice(self, user: User) -> str | None:
        """What the modal open for `user` says, when it is a notice with nothing to submit (the
        click's modal opens at once; a refusal then replaces its loading view); None else."""
        modal = self.ws.modals.get(user.id)
        if modal is None or "submit" in modal or modal.get("callback_id"):
            return None
        return " ".join(b["text"]["text"] for b in modal.get("blocks", [])
                        if b.get("type") == "section")


@asynccontextmanager
async def running_world(
    manda: Manda, fake: FakeSlack, **settings: Any
) -> AsyncIterator[SlackWorld]:
    bot = build_app(manda, bot_settings(manda, fake, **settings))
    try:
        async with http_server(bot, host="127.0.0.1", port=0) as url:
            fake.connect_app(url)
            ws = fake.workspace
            alice, bob, eve = ws.add_user("alice"), ws.add_user("bob"), ws.add_user("eve")
            deal = ws.add_channel("deal-targetco", members=[alice.id, bob.id])
            lobby = ws.add_channel("lobby", members=[alice.id, bob.id, eve.id])
            await manda.graph.bind_channel(channel_key(ws.team_id, deal.id), "targetco")
            yield SlackWorld(fake, bot, manda, alice, bob, eve, deal, lobby)
    finally:
        await bot.aclose()
