"""Replays are decided from the signed body, never from an unsigned header (issue 26, item 1).

A captured signed `/manda review` replayed with `Content-Type: Application/JSON` ran again on the
earlier code: the replay check trusted the header, and Bolt parsed the body as the form it is."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest
from slackworld import SlackWorld

from bot import ids
from bot.fakeslack import payloads
from bot.fakeslack.state import Call, Workspace
from bot.payloads import Feedback

# Content types an attacker can put on a captured request: the header is not signed.
CONTENT_TYPES = (
    "Application/JSON",
    "application/json",
    "APPLICATION/JSON; charset=utf-8",
    "application/json ; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "",
)


def replies(ws: Workspace) -> list[Call]:
    """What the bot said back: through the command's response_url or in the channel."""
    return [c for c in ws.calls if c.method in ("response_url", "chat.postMessage")]


async def post(url: str, body: str, headers: dict[str, str]) -> int:
    async with aiohttp.ClientSession() as session, session.post(
        url, data=body.encode(), headers=headers
    ) as resp:
        return resp.status


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
async def test_a_signed_command_replayed_under_any_content_type_runs_once(
    world: SlackWorld, content_type: str
) -> None:
    ws = world.fake.workspace
    hook = world.fake.new_hook(world.deal.id, world.alice.id)
    form = payloads.slash_command(ws, world.alice, world.deal, "/manda", "review", hook)
    body, headers = world.fake.signed_request("slash_commands", form, timestamp=int(time.time()))
    url = world.fake.request_url
    assert url is not None
    assert await post(url, body, headers) == 200  # as Slack sent it
    for _ in range(3):  # the same signed body, replayed with a header nobody signed
        replayed = {**headers, "Content-Type": content_type}
        if not content_type:
            del replayed["Content-Type"]
        assert await post(url, body, replayed) == 200
    await world.settle()
    assert len(replies(ws)) == 1


async def test_a_replayed_feedback_click_sent_as_json_is_recorded_once(
    world: SlackWorld,
) -> None:
    value = Feedback(d="targetco", c="slack:T:C:1.0").encode()
    element = {"action_id": ids.FEEDBACK_UP, "value": value, "type": "button"}
    posted = world.fake.post(world.alice, world.deal, "An answer")
    message = {"ts": posted.ts, "blocks": []}
    click = payloads.block_actions(world.ws, world.alice, element, "b1", message=message,
                                   channel=world.deal)
    body, headers = world.fake.signed_request("interactive", click)
    url = world.fake.request_url
    assert url is not None
    assert await post(url, body, headers) == 200
    for _ in range(3):
        assert await post(url, body, {**headers, "Content-Type": "Application/JSON"}) == 200
    await world.settle()
    audit = await world.manda.deals.audit_log("targetco")
    assert [e.action for e in audit].count("answer.feedback") == 1


async def test_a_json_body_that_is_not_an_event_is_checked_for_replays_too(
    world: SlackWorld,
) -> None:
    ws = world.fake.workspace
    hook = world.fake.new_hook(world.deal.id, world.alice.id)
    form = payloads.slash_command(ws, world.alice, world.deal, "/manda", "qa", hook)
    raw = json.dumps(form)  # Bolt reads a body that starts with "{" as JSON, whatever the header
    body, headers = world.fake.signed_request("events_api", json.loads(raw))
    url = world.fake.request_url
    assert url is not None
    for _ in range(3):
        assert await post(url, body, {**headers, "Content-Type": "text/plain"}) == 200
    await world.settle()
    assert len(replies(ws)) <= 1
