"""The fake Slack itself answers like Slack: auth, membership, Block Kit limits, files, streams."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.fakeslack import FakeSlack


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as server:
        yield server  # type: ignore[misc]


def client_for(fake: FakeSlack, token: str | None = None) -> AsyncWebClient:
    return AsyncWebClient(token=token or fake.bot_token, base_url=fake.api_url)


async def error_of(call: object) -> str:
    with pytest.raises(SlackApiError) as caught:
        await call  # type: ignore[misc]
    return str(caught.value.response["error"])


async def test_auth_and_tokens(fake: FakeSlack) -> None:
    me = await client_for(fake).auth_test()
    assert me["user_id"] == fake.workspace.bot.id and me["bot_id"] == fake.workspace.bot.bot_id
    assert await error_of(client_for(fake, "xoxb-wrong").auth_test()) == "invalid_auth"
    opened = await client_for(fake, fake.app_token).apps_connections_open(app_token=fake.app_token)
    assert opened["url"].startswith(f"ws://127.0.0.1:{fake.port}/socket-mode")
    assert fake.workspace.calls_to("auth.test", ok=False)[0].error == "invalid_auth"


async def test_messages_threads_and_membership(fake: FakeSlack) -> None:
    ws = fake.workspace
    alice = ws.add_user("alice")
    deal = ws.add_channel("deal-x", members=[alice.id])
    outside = ws.add_channel("random", members=[alice.id], with_bot=False)
    client = client_for(fake)
    root = await client.chat_postMessage(channel=deal.id, text="root")
    reply = await client.chat_postMessage(channel=deal.id, text="reply", thread_ts=root["ts"])
    assert reply["message"]["thread_ts"] == root["ts"]
    replies = await client.conversations_replies(channel=deal.id, ts=root["ts"])
    assert [m["text"] for m in replies["messages"]] == ["root", "reply"]
    assert (
        await error_of(client.chat_postMessage(channel=outside.id, text="hi")) == "not_in_channel"
    )
    assert await error_of(client.chat_postMessage(channel="C404", text="hi")) == "channel_not_found"
    updated = await client.chat_update(channel=deal.id, ts=root["ts"], text="root v2")
    assert (
        updated["text"] == "root v2" and ws.find(deal.id, root["ts"]).versions[0]["text"] == "root"
    )  # type: ignore[union-attr]
    await client.reactions_add(channel=deal.id, timestamp=root["ts"], name="eyes")
    assert (
        await error_of(client.reactions_add(channel=deal.id, timestamp=root["ts"], name="eyes"))
        == "already_reacted"
    )
    await client.reactions_remove(channel=deal.id, timestamp=root["ts"], name="eyes")
    assert ws.find(deal.id, root["ts"]).reactions == {}  # type: ignore[union-attr]


async def test_block_kit_limits_are_enforced(fake: FakeSlack) -> None:
    channel = fake.workspace.add_channel("deal-x")
    client = client_for(fake)
    section = {"type": "section", "text": {"type": "mrkdwn", "text": "x"}}
    with pytest.raises(SlackApiError) as caught:
        await client.chat_postMessage(channel=channel.id, text="t", blocks=[section] * 51)
    assert caught.value.response["error"] == "invalid_blocks"
    long_text = {"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}
    assert (
        await error_of(client.chat_postMessage(channel=channel.id, text="t", blocks=[long_text]))
        == "invalid_blocks"
    )
    button = {
        "type": "actions",
        "elements": [
            {
                "type": "button",
                "action_id": "a",
                "value": "v" * 2001,
                "text": {"type": "plain_text", "text": "b"},
            }
        ],
    }
    assert (
        await error_of(client.chat_postMessage(channel=channel.id, text="t", blocks=[button]))
        == "invalid_blocks"
    )


async def test_members_are_paginated(fake: FakeSlack) -> None:
    people = [fake.workspace.add_user(f"p{i}").id for i in range(5)]
    channel = fake.workspace.add_channel("big", members=people)
    client = client_for(fake)
    first = await client.conversations_members(channel=channel.id, limit=4)
    assert len(first["members"]) == 4 and first["response_metadata"]["next_cursor"]
    rest = await client.conversations_members(
        channel=channel.id, limit=4, cursor=first["response_metadata"]["next_cursor"]
    )
    assert set(first["members"]) | set(rest["members"]) == {*people, fake.workspace.bot.id}


async def test_private_files_need_the_bot_token(fake: FakeSlack) -> None:
    alice = fake.workspace.add_user("alice")
    stored = fake.workspace.add_file("deck.pdf", b"%PDF-1.4 data", user=alice.id)
    info = await client_for(fake).files_info(file=stored.id)
    url = info["file"]["url_private_download"]
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as anonymous:
            assert anonymous.content_type == "text/html"  # Slack's sign-in page, not the file
        async with session.get(
            url, headers={"Authorization": f"Bearer {fake.bot_token}"}
        ) as authed:
            assert await authed.read() == b"%PDF-1.4 data"
    assert fake.workspace.downloads == [(stored.id, False), (stored.id, True)]


async def test_streams_and_status(fake: FakeSlack) -> None:
    ws = fake.workspace
    alice = ws.add_user("alice")
    channel = ws.add_channel("deal-x", members=[alice.id])
    client = client_for(fake)
    root = await client.chat_postMessage(channel=channel.id, text="question")
    await client.assistant_threads_setStatus(
        channel_id=channel.id, thread_ts=root["ts"], status="is thinking…"
    )
    assert ws.statuses == {(channel.id, root["ts"]): "is thinking…"}
    assert (
        await error_of(
            client.chat_startStream(channel=channel.id, thread_ts=root["ts"], markdown_text="x")
        )
        == "invalid_arguments"
    )
    started = await client.chat_startStream(
        channel=channel.id,
        thread_ts=root["ts"],
        markdown_text="Rev",
        recipient_user_id=alice.id,
        recipient_team_id=ws.team_id,
    )
    await client.chat_appendStream(channel=channel.id, ts=started["ts"], markdown_text="enue")
    await client.chat_stopStream(channel=channel.id, ts=started["ts"])
    streamed = ws.find(channel.id, started["ts"])
    assert streamed is not None and streamed.text == "Revenue" and not streamed.streaming
    assert ws.statuses == {}  # a reply from the bot clears the thread's status, as in Slack
    fake.features.streaming = False
    assert (
        await error_of(
            client.chat_startStream(
                channel=channel.id,
                thread_ts=root["ts"],
                markdown_text="x",
                recipient_user_id=alice.id,
                recipient_team_id=ws.team_id,
            )
        )
        == "unknown_method"
    )


async def test_home_views_are_stored_per_user(fake: FakeSlack) -> None:
    alice = fake.workspace.add_user("alice")
    view = {
        "type": "home",
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}],
    }
    first = await client_for(fake).views_publish(user_id=alice.id, view=view)
    again = await client_for(fake).views_publish(user_id=alice.id, view=view)
    assert first["view"]["id"] == again["view"]["id"] == fake.workspace.home_views[alice.id]["id"]


def test_every_payload_is_also_parsed_by_slack_sdks_block_models() -> None:
    """The fake checks each chat/views payload of the whole suite with Slack's limits and with
    slack_sdk's block models (`Block.parse(...).to_dict()` validates every element)."""
    from bot.fakeslack.blockkit import validate_blocks

    long_button = {
        "type": "actions",
        "elements": [
            {"type": "button", "text": {"type": "plain_text", "text": "x" * 80}, "action_id": "a"}
        ],
    }
    errors = validate_blocks([long_button])
    assert any(e.startswith("[ERROR] slack_sdk: text attribute cannot exceed 75") for e in errors)
    assert validate_blocks([{"type": "section", "text": {"type": "mrkdwn", "text": "ok"}}]) == []


def test_modals_are_held_to_slacks_view_rules() -> None:
    """views.open refuses what Slack refuses: a title over 24 characters, more than 10
    checkboxes, input blocks without a submit button.
    https://docs.slack.dev/reference/views/modal-views"""
    from bot.fakeslack.blockkit import validate_modal

    def option(i: int) -> dict:
        return {"text": {"type": "plain_text", "text": f"Q{i}"}, "value": str(i)}

    def modal(title: str, options: int, submit: bool = True) -> dict:
        view = {
            "type": "modal",
            "title": {"type": "plain_text", "text": title},
            "blocks": [{"type": "input", "block_id": "b", "label": {
                "type": "plain_text", "text": "Pick"}, "element": {
                "type": "checkboxes", "action_id": "a",
                "options": [option(i) for i in range(options)]}}],
        }
        if submit:
            view["submit"] = {"type": "plain_text", "text": "Add"}
        return view

    assert validate_modal(modal("Add to Q&A", 10)) == []
    assert any("title" in e for e in validate_modal(modal("A title of more than 24 chars", 3)))
    assert validate_modal(modal("Add", 11)) == [
        "[ERROR] must have 1 to 10 items [json-pointer:/blocks/0/element/options]"]
    assert any("submit is required" in e for e in validate_modal(modal("Add", 3, submit=False)))


def test_a_submission_carries_typed_state_and_initial_values() -> None:
    """view.state.values as Slack sends them: text as typed, the chosen option objects, and
    what was left untouched at its initial value."""
    from bot.fakeslack.actions import view_state

    def option(value: str) -> dict:
        return {"text": {"type": "plain_text", "text": value.title()}, "value": value}

    view = {"blocks": [
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "hi"}]},
        {"type": "input", "block_id": "t", "element": {
            "type": "plain_text_input", "action_id": "t", "initial_value": "P&L <draft>"}},
        {"type": "input", "block_id": "c", "element": {
            "type": "checkboxes", "action_id": "c", "options": [option("1"), option("2")],
            "initial_options": [option("2")]}},
        {"type": "input", "block_id": "s", "element": {
            "type": "static_select", "action_id": "s", "options": [option("low"), option("high")],
            "initial_option": option("low")}},
    ]}
    untouched = view_state(view, {})
    assert untouched == {
        "t": {"t": {"type": "plain_text_input", "value": "P&L <draft>"}},
        "c": {"c": {"type": "checkboxes", "selected_options": [option("2")]}},
        "s": {"s": {"type": "static_select", "selected_option": option("low")}},
    }
    chosen = view_state(view, {"c": {"c": ["1", "2"]}, "s": {"s": "high"}})
    assert chosen["c"]["c"]["selected_options"] == [option("1"), option("2")]
    assert chosen["s"]["s"]["selected_option"] == option("high")
    with pytest.raises(LookupError):
        view_state(view, {"s": {"s": "medium"}})


async def test_a_response_url_takes_five_posts_within_thirty_minutes(
    fake: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """"You can respond to a user's command up to 5 times within 30 minutes of the user's
    invocation": https://api.slack.com/interactivity/slash-commands#responding_to_commands"""
    ws = fake.workspace
    alice = ws.add_user("alice")
    deal = ws.add_channel("deal-x", members=[alice.id])
    async with aiohttp.ClientSession() as http:
        hook = fake.new_hook(deal.id, alice.id)
        statuses = []
        for n in range(6):
            async with http.post(hook, json={"text": f"note {n}"}) as response:
                statuses.append(response.status)
        assert statuses == [200] * 5 + [404]
        assert len(ws.ephemerals(alice.id, deal.id)) == 5
        assert ws.calls_to("response_url", ok=False)[0].error == "used_url"

        late = fake.new_hook(deal.id, alice.id)
        started = time.monotonic()
        monkeypatch.setattr("bot.fakeslack.server.time.monotonic", lambda: started + 30 * 60 + 1)
        async with http.post(late, json={"text": "too late"}) as response:
            assert response.status == 404
        assert ws.calls_to("response_url", ok=False)[-1].error == "expired_url"


async def test_table_blocks_are_held_to_the_block_kit_reference(fake: FakeSlack) -> None:
    """https://docs.slack.dev/reference/block-kit/blocks/table-block: at most 100 rows of at
    most 20 raw_text or rich_text cells, at most 20 column settings, one table a message."""
    channel = fake.workspace.add_channel("deal-x")
    client = client_for(fake)

    def table(rows: int, cells: int, **extra: object) -> dict[str, object]:
        row = [{"type": "raw_text", "text": "x"}] * cells
        return {"type": "table", "rows": [row] * rows, **extra}

    await client.chat_postMessage(channel=channel.id, text="t", blocks=[table(100, 20)])
    for refused in (table(101, 2), table(2, 21), table(0, 1),
                    table(1, 1, column_settings=[{"is_wrapped": True}] * 21),
                    table(1, 1, column_settings=[{"align": "middle"}]),
                    {"type": "table", "rows": [[{"type": "raw_text", "text": ""}]]},
                    {"type": "table", "rows": [[{"type": "mrkdwn", "text": "x"}]]}):
        assert await error_of(client.chat_postMessage(
            channel=channel.id, text="t", blocks=[refused])) == "invalid_blocks"
    with pytest.raises(SlackApiError) as caught:
        await client.chat_postMessage(channel=channel.id, text="t",
                                      blocks=[table(2, 2), table(2, 2)])
    assert caught.value.response["error"] == "invalid_attachments"
    assert caught.value.response["response_metadata"]["messages"] == ["only_one_table_allowed"]
