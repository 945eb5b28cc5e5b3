"""A file the bot makes reaches a Slack thread through Slack's external upload flow.

The flow, as documented: files.getUploadURLExternal (filename, length) returns upload_url and
file_id (https://docs.slack.dev/reference/methods/files.getUploadURLExternal); the bytes are
POSTed to upload_url; files.completeUploadExternal (files=[{id, title}], channel_id, thread_ts)
shares the file (https://docs.slack.dev/reference/methods/files.completeUploadExternal).
"""

from __future__ import annotations

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.fakeslack import FakeSlack
from bot.fileupload import FileUploadError, upload_to_thread


def _client(fake: FakeSlack) -> AsyncWebClient:
    return AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)


async def test_a_file_is_uploaded_into_a_thread(fake: FakeSlack) -> None:
    ws = fake.workspace
    alice = ws.add_user("alice")
    room = ws.add_channel("deal-room", members=[alice.id, ws.bot.id])
    question = await fake.say(alice, room, "export the Q&A please")
    content = b"PK\x03\x04 pretend xlsx bytes"

    shared = await upload_to_thread(
        _client(fake),
        channel=room.id,
        thread_ts=question.ts,
        filename="falcon-qa.xlsx",
        content=content,
        title="Falcon Q&A list",
        comment="The Q&A list, 3 questions.",
    )

    stored = ws.files[shared.id]
    assert stored.content == content and stored.title == "Falcon Q&A list"
    assert stored.channels == [room.id] and shared.permalink
    [message] = [m for m in ws.bot_messages(room.id, thread_ts=question.ts) if m.files]
    assert message.files == [shared.id] and message.text == "The Q&A list, 3 questions."
    started = ws.calls_to("files.getUploadURLExternal", ok=True)[0]
    assert int(started.args["length"]) == len(content)
    # people in the channel download it as they download any file (with their session)
    async with aiohttp.ClientSession() as http:
        url = stored.to_api(fake.base_url, ws.team_id)["url_private_download"]
        headers = {"Authorization": f"Bearer {fake.bot_token}"}
        async with http.get(url, headers=headers) as response:
            assert await response.read() == content


async def test_slack_refusals_surface(fake: FakeSlack) -> None:
    ws = fake.workspace
    alice = ws.add_user("alice")
    outside = ws.add_channel("no-bot", members=[alice.id], with_bot=False)
    with pytest.raises(FileUploadError, match=r"empty\.xlsx is empty"):
        await upload_to_thread(
            _client(fake), channel=outside.id, thread_ts=None, filename="empty.xlsx", content=b""
        )
    with pytest.raises(SlackApiError) as refused:
        await upload_to_thread(
            _client(fake), channel=outside.id, thread_ts=None, filename="a.xlsx", content=b"x"
        )
    assert refused.value.response["error"] == "not_in_channel"


async def test_complete_without_the_bytes_is_refused(fake: FakeSlack) -> None:
    client = _client(fake)
    started = await client.files_getUploadURLExternal(filename="a.xlsx", length=3)
    with pytest.raises(SlackApiError) as refused:
        await client.files_completeUploadExternal(files=[{"id": started["file_id"]}])
    assert refused.value.response["error"] == "file_not_found"
    never_issued = f"{fake.base_url}upload/v1/never-issued"
    async with aiohttp.ClientSession() as http, http.post(never_issued, data=b"x") as response:
        assert response.status == 404
