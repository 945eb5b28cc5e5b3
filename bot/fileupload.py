"""Puts a file the bot made (Q&A export, CIM deck, IRL spreadsheet) into a Slack thread.

Slack's external upload flow, the only one it keeps (`files.upload` is retired):
1. `files.getUploadURLExternal` (filename, length) → `upload_url` and `file_id`;
2. an HTTP POST of the bytes to `upload_url` (no token: the URL is the credential);
3. `files.completeUploadExternal` (files=[{id, title}], channel_id, thread_ts) shares it.
https://docs.slack.dev/reference/methods/files.getUploadURLExternal
https://docs.slack.dev/reference/methods/files.completeUploadExternal
Needs the `files:write` bot scope.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from manda.errors import MandaError

UPLOAD_TIMEOUT_SECONDS = 60  # a few MB to Slack's file service; the Web API calls keep their own


class FileUploadError(MandaError):
    """Slack's file service refused or lost the bytes of a file the bot was sharing."""


@dataclass(frozen=True)
class SharedFile:
    """The file as Slack holds it once shared: its id and where people open it."""

    id: str
    name: str
    permalink: str | None = None


async def upload_to_thread(
    client: AsyncWebClient,
    *,
    channel: str,
    thread_ts: str | None,
    filename: str,
    content: bytes,
    title: str | None = None,
    comment: str | None = None,
    session: aiohttp.ClientSession | None = None,
) -> SharedFile:
    """Upload `content` as `filename` and share it in `channel` (in `thread_ts`'s thread if set).

    `thread_ts` must be the thread's parent ts, as Slack asks; `comment` is the message text that
    introduces the file. Raises `SlackApiError` for a refused Web API call and
    `FileUploadError` when the upload URL does not take the bytes.
    """
    if not content:
        # Slack answers `missing_argument` for length 0; say which file instead.
        raise FileUploadError(
            f"{filename} is empty, so there is nothing to share in Slack.",
            hint="Check what produced the file and try again.",
        )
    started = await client.files_getUploadURLExternal(filename=filename, length=len(content))
    upload_url, file_id = str(started["upload_url"]), str(started["file_id"])
    await _post_bytes(upload_url, filename, content, session or client.session)
    completed = await client.files_completeUploadExternal(
        files=[{"id": file_id, "title": title or filename}],
        channel_id=channel,
        thread_ts=thread_ts,
        initial_comment=comment,
    )
    shared = (completed.get("files") or [{}])[0]
    return SharedFile(
        id=str(shared.get("id") or file_id),
        name=str(shared.get("name") or filename),
        permalink=shared.get("permalink"),
    )


async def _post_bytes(
    url: str, filename: str, content: bytes, session: aiohttp.ClientSession | None
) -> None:
    """Step 2: the raw bytes to the upload URL; Slack answers 200 when it has them."""
    timeout = aiohttp.ClientTimeout(total=UPLOAD_TIMEOUT_SECONDS)
    own = session is None or session.closed
    http = aiohttp.ClientSession() if own else session
    assert http is not None
    try:
        async with http.post(url, data=content, timeout=timeout) as response:
            if response.status != 200:
                detail = (await response.text())[:200]
                raise FileUploadError(
                    f"Slack's file service refused {filename} (HTTP {response.status}: {detail}).",
                    hint="Try again in a minute; if it keeps failing, check the app's files:write.",
                )
    except aiohttp.ClientError as exc:
        raise FileUploadError(
            f"Could not send {filename} to Slack's file service ({type(exc).__name__}: {exc}).",
            hint="Try again in a minute.",
        ) from exc
    finally:
        if own:
            await http.close()
