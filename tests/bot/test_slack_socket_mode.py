"""Socket Mode: a websocket opened through apps.connections.open; envelopes acked and handled."""

from __future__ import annotations

from slackworld import bot_settings

from bot.app import build_app
from bot.conversations import channel_key
from bot.fakeslack import FakeSlack
from bot.run import socket_mode
from manda.app import Manda


async def test_envelopes_are_acknowledged_and_handled(app: Manda, fake: FakeSlack) -> None:
    bot = build_app(app, bot_settings(app, fake))
    ws = fake.workspace
    alice = ws.add_user("alice")
    deal = ws.add_channel("deal-targetco", members=[alice.id])
    await app.graph.bind_channel(channel_key(ws.team_id, deal.id), "targetco")
    try:
        async with socket_mode(bot, fake.app_token):
            await fake.wait_for_socket()
            assert fake.workspace.calls_to("apps.connections.open", ok=True)

            question = await fake.mention(alice, deal, "What was Q3 2024 revenue?")
            help_ = await fake.slash(alice, deal, "/manda", "help")
            await bot.drain()

            assert [d.via for d in fake.deliveries] == ["socket"] * 3
            assert all(d.status == 200 for d in fake.deliveries)
            assert help_.json and "/manda review" in str(help_.json["blocks"])  # the ack's payload
            [answer] = [
                m for m in ws.bot_messages(deal.id, thread_ts=question.ts) if m.ts != question.ts
            ]
            assert "[1] " in answer.all_text()
    finally:
        await bot.aclose()
    await fake.workspace.wait_for(lambda: not fake.socket_connected, what="the socket to close")
