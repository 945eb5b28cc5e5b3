"""The answer's stream and working sign, as Slack documents them: the stream methods within their
rate tiers, a status set again before Slack drops it, and the stream addressed to the team of the
person it is for (another organisation's in a Slack Connect channel).

- https://docs.slack.dev/reference/methods/chat.appendStream (Tier 4),
  https://docs.slack.dev/reference/methods/chat.stopStream (Tier 2)
- https://docs.slack.dev/reference/methods/assistant.threads.setStatus ("A two minute timeout
  applies, which will cause the status to be removed if no message has been sent"; "Special rate
  limits apply")
- https://docs.slack.dev/reference/methods/chat.startStream (`recipient_team_id`: "The encoded
  ID of the team the user receiving the streaming text belongs to")
"""

from __future__ import annotations

import asyncio

from slack_sdk.web.async_client import AsyncWebClient
from slackworld import SlackWorld

from bot.conversations import Thread, channel_key
from bot.ratelimit import POST_MESSAGE, TIER_2, TIER_4, TIERS
from bot.replies import STATUS_REFRESH_SECONDS, Working
from bot.slackapi import SlackRateLimiter

QUESTION = "What was Q3 2024 revenue?"


def test_the_stream_methods_have_their_tiers() -> None:
    assert TIERS["chat.appendStream"] == TIER_4
    assert TIERS["chat.stopStream"] == TIER_2
    assert TIERS["chat.startStream"] == TIER_2
    assert TIERS["assistant.threads.setStatus"] == POST_MESSAGE
    assert TIERS["views.update"] == TIER_4
    assert STATUS_REFRESH_SECONDS < 120


async def test_the_limiter_paces_stop_stream_per_workspace_and_status_per_channel() -> None:
    now = [0.0]
    limiter = SlackRateLimiter(clock=lambda: now[0])
    waits = [limiter.try_acquire("chat.stopStream", team="T1") for _ in range(TIER_2.burst + 1)]
    assert waits[:-1] == [0.0] * TIER_2.burst and waits[-1] > 2.5  # 20 a minute: 3 s apart
    assert limiter.try_acquire("chat.stopStream", team="T2") == 0.0  # another workspace's budget
    for _ in range(POST_MESSAGE.burst):
        assert limiter.try_acquire("assistant.threads.setStatus", "C1", team="T1") == 0.0
    assert limiter.try_acquire("assistant.threads.setStatus", "C1", team="T1") > 0
    assert limiter.try_acquire("assistant.threads.setStatus", "C2", team="T1") == 0.0


async def test_the_working_status_is_set_again_before_slack_drops_it(world: SlackWorld) -> None:
    ws = world.ws
    client = AsyncWebClient(token=world.fake.bot_token, base_url=world.fake.api_url)
    question = await world.fake.say(world.alice, world.deal, "thinking aloud")
    thread = Thread(team=ws.team_id, channel=world.deal.id, thread_ts=question.ts,
                    user=world.alice.id)
    key = (world.deal.id, question.ts)

    idle = Working(client, thread, refresh_seconds=3600)  # never refreshed within the test
    await idle.start()
    ws.advance(130)  # Slack's clock: past its two minutes with no message
    assert key not in ws.statuses
    await idle.stop()

    working = Working(client, thread, refresh_seconds=0.05)
    await working.start()
    for _ in range(4):  # 200 s of Slack's time, the status set again every 50 s of it
        ws.advance(50)
        await ws.wait_for(lambda: ws.status_times.get(key, 0) > ws.clock() - 1,
                          what="the status set again")
        assert key in ws.statuses
    working.hush()  # the answer spoke: no more refreshing
    refreshed = len(ws.calls_to("assistant.threads.setStatus"))
    await asyncio.sleep(0.2)
    assert len(ws.calls_to("assistant.threads.setStatus")) == refreshed
    await working.stop()


async def test_a_slack_connect_guest_gets_the_stream_addressed_to_their_own_team(
        world: SlackWorld) -> None:
    ws = world.ws
    guest = ws.add_user("carol", team_id="T0PARTNER")  # another organisation's, in the channel
    ws.join(world.deal.id, guest.id)
    question = await world.fake.mention(guest, world.deal, QUESTION)
    await world.settle()
    [started] = ws.calls_to("chat.startStream")
    assert started.ok, started.error
    assert started.args["recipient_user_id"] == guest.id
    assert started.args["recipient_team_id"] == "T0PARTNER" != ws.team_id
    [answer] = world.replies(world.deal, question.ts)
    assert "€5.2M" in answer.all_text()
    assert await world.manda.deals.deal_of(channel_key(ws.team_id, world.deal.id)) == "targetco"


def test_the_fake_refuses_a_stream_addressed_to_another_team(world: SlackWorld) -> None:
    api = world.fake.api
    root = api.call("chat.postMessage", {"channel": world.deal.id, "text": "root"},
                    world.fake.bot_token)
    assert root["ok"]
    refused = api.call("chat.startStream", {
        "channel": world.deal.id, "thread_ts": root["ts"], "markdown_text": "x",
        "recipient_user_id": world.alice.id, "recipient_team_id": "T0SOMEONEELSE"},
        world.fake.bot_token)
    assert refused["error"] == "invalid_arguments"
