"""Files dropped in a deal channel: downloaded with the bot token, ingested here or (with
MANDA_INGEST_VIA_QUEUE) by a `manda worker` through the job queue, progress in one message that
ends as the summary (every file that could not be ingested named with why)."""

from __future__ import annotations

import asyncio
import logging
import re
import tempfile
from pathlib import Path
from typing import Any

import aiohttp
from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.ingest import (
    render_downloading,
    render_ingest_failure,
    render_progress,
    render_summary,
)
from bot.blocks.kit import SlackMessage
from bot.blocks.messages import render_unbound
from bot.blocks.qa_import import render_qa_import
from bot.conversations import Thread
from bot.deps import Deps
from bot.downloads import DOWNLOAD_TIMEOUT, DownloadError, FileHosts, download
from bot.listeners import upload_queue
from bot.listeners.common import from_a_bot, team_of, thread_of
from bot.listeners.qa_import import import_qa_files
from bot.progress import ProgressMessage
from manda.checksums import file_sha256
from manda.deals import QAImport
from manda.errors import MandaError
from manda.jobs import IngestJob
from manda.models import SkippedFile

log = logging.getLogger(__name__)



def safe_name(name: str) -> str:
    cleaned = re.sub(r"[^\w.\- ()]+", "_", Path(name).name).strip(" .") or "file"
    return cleaned[:120]


async def file_url(client: AsyncWebClient, file: dict[str, Any]) -> str:
    """`url_private_download` of a shared file (asking files.info when the event left it out)."""
    url = file.get("url_private_download") or file.get("url_private")
    if url:
        return str(url)
    info = await client.files_info(file=file["id"])
    url = info["file"].get("url_private_download") or info["file"].get("url_private")
    if not url:
        raise DownloadError("Slack gave no download link for it")
    return str(url)


async def fetch_all(
    deps: Deps, client: AsyncWebClient, files: list[dict[str, Any]], folder: Path
) -> tuple[list[Path], dict[Path, str], list[SkippedFile], dict[str, str]]:
    """Download every file; the ones that fail are returned as skipped, with the reason. Also
    the content (sha256) of each downloaded file → its Slack permalink, for `link_shared`."""
    token = client.token or ""
    max_bytes = int(deps.settings.max_file_mb * 1_000_000)
    paths: list[Path] = []
    names: dict[Path, str] = {}
    skipped: list[SkippedFile] = []
    permalinks: dict[str, str] = {}
    hosts = FileHosts.for_api_url(deps.settings.slack_api_url)
    async with aiohttp.ClientSession(timeout=DOWNLOAD_TIMEOUT) as session:
        for index, file in enumerate(files):
            name = str(file.get("name") or file.get("title") or file.get("id"))
            target = folder / f"{index:03d}_{safe_name(name)}"
            try:
                if file.get("size") and int(file["size"]) > max_bytes:
                    raise DownloadError(
                        f"it is larger than the {max_bytes / 1e6:g} MB limit (MANDA_MAX_FILE_MB)"
                    )
                url = await file_url(client, file)
                await download(
                    session,
                    url,
                    token=token,
                    target=target,
                    max_bytes=max_bytes,
                    expected_type=str(file.get("mimetype", "")),
                    hosts=hosts,
                )
            except (DownloadError, SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
                reason = (
                    str(exc)
                    if isinstance(exc, DownloadError)
                    else f"could not be downloaded from Slack ({type(exc).__name__})"
                )
                skipped.append(SkippedFile(filename=name, reason=reason))
                target.unlink(missing_ok=True)
                continue
            paths.append(target)
            names[target] = name
            if file.get("permalink"):
                permalinks[await asyncio.to_thread(file_sha256, target)] = str(file["permalink"])
    return paths, names, skipped, permalinks


async def link_shared(deps: Deps, deal_id: str, links: dict[str, str]) -> None:
    """Keep each shared file's Slack permalink with the document whose content it is (once that
    document is ingested), so answers link to it; never by name."""
    if links:
        try:
            await deps.deals.link_documents(deal_id, links)
        except Exception:  # the answer footnotes simply go without a link
            log.exception("could not keep the Slack links of the files shared in %s", deal_id)


async def ingest_upload(
    deps: Deps, client: AsyncWebClient, thread: Thread, files: list[dict[str, Any]]
) -> None:
    progress = ProgressMessage(client, thread, jobs=deps.jobs,
                               min_interval=deps.progress_interval)
    deal_id: str | None = None
    record: Path | None = None
    try:
        deal_id = await deps.deals.deal_of(thread.channel_key)
        if deal_id is None:
            unbound = render_unbound()
            note = SlackMessage(
                text=unbound.text,
                blocks=[
                    *unbound.blocks,
                    {
                        "type": "context",
                        "elements": [
                            {
                                "type": "mrkdwn",
                                "text": "The files were not ingested; drop them again "
                                "once the channel is linked.",
                            }
                        ],
                    },
                ],
            )
            await progress.show(note)
            return
        shown_names = [str(f.get("name", f.get("id"))) for f in files]
        await progress.show(render_downloading(deal_id, shown_names))
        if progress.ts is not None:
            record = deps.uploads.begin(thread.channel, progress.ts, deal_id, shown_names)
        with tempfile.TemporaryDirectory(prefix="manda-upload-") as tmp:
            paths, names, failed, permalinks = await fetch_all(deps, client, files, Path(tmp))
            # an answered Q&A list goes back onto the deal's Q&A list, not into the room
            imports, paths = await import_qa_files(deps, thread, deal_id, paths, names)
            if imports and not paths and not failed:
                await progress.show(render_qa_import(imports[0]))
                await _post_imports(client, thread, imports[1:])
                return

            async def on_progress(done: int, total: int, name: str) -> None:
                await progress.show(render_progress(deal_id or "", done, total, name))

            outcome = await deps.deals.ingest_upload(
                deal_id, paths, names=names, by=thread.user, progress=on_progress
            )
        await _post_imports(client, thread, imports)
        if isinstance(outcome, IngestJob):
            followed = await upload_queue.follow(deps, outcome, progress.show)
            if followed is None:  # the message already says how the job ended
                return
            report = followed
        else:
            report = outcome
        report.skipped = [*failed, *report.skipped]
        await link_shared(deps, deal_id, permalinks)
        changes = await deps.deals.what_changed(deal_id, report.ingested)
        await progress.show(render_summary(report, changes))
    except Exception as exc:
        log.exception("ingesting files shared in %s failed", thread.channel)
        reason = (
            str(exc)
            if isinstance(exc, MandaError)
            else f"something went wrong on my side ({type(exc).__name__})"
        )
        try:
            await progress.show(render_ingest_failure(deal_id or "this channel's deal", reason))
        except SlackApiError:
            log.exception("could not report the failed ingestion in %s", thread.channel)
    finally:
        if record is not None:
            deps.uploads.end(record)


async def _post_imports(client: AsyncWebClient, thread: Thread,
                        imports: list[QAImport]) -> None:
    for result in imports:
        message = render_qa_import(result)
        await client.chat_postMessage(channel=thread.channel, thread_ts=thread.thread_ts,
                                      text=message.text, blocks=message.blocks)


def register(app: AsyncApp, deps: Deps) -> None:
    @app.event({"type": "message", "subtype": "file_share"})
    async def on_file_share(
        ack: AsyncAck, event: dict[str, Any], body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        await ack()
        files = [f for f in event.get("files", []) if f.get("mode") != "tombstone"]
        if from_a_bot(event) or not files:
            return
        thread = thread_of(event, team_of(body))
        deps.jobs.spawn(
            ingest_upload(deps, client, thread, files),
            name=f"upload {thread.channel} {thread.message_ts}",
        )

    @app.event("file_shared")
    async def on_file_shared(ack: AsyncAck) -> None:
        await ack()  # handled through the `file_share` message, which carries channel and files
