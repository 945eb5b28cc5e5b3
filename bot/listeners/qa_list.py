"""The Q&A list's buttons (Mark answered, Remove, Export to Excel) and the shared export.

The list is shown to one person (ephemeral), so a change answers through the click's
response_url with the list as it now stands; the export is shared with the channel as an XLSX
through Slack's external upload flow (`bot.fileupload`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.kit import who
from bot.blocks.mrkdwn import escape
from bot.blocks.qa import export_comment, render_qa_list
from bot.deps import Deps
from bot.fileupload import SharedFile, upload_to_thread
from bot.listeners.actions import Click, belongs_here, listener, tell
from bot.payloads import QAChange, QAExport
from bot.people import people_names


async def share_export(
    deps: Deps,
    client: AsyncWebClient,
    *,
    deal_id: str,
    channel: str,
    thread_ts: str | None,
    user: str,
) -> tuple[SharedFile, int]:
    """Write the deal's Q&A list to an XLSX and share it in `channel` (in a thread if given)."""
    people = await people_names(client, {i.created_by for i in await deps.deals.questions(deal_id)})
    with tempfile.TemporaryDirectory(prefix="manda-qa-") as tmp:
        path, count = await deps.deals.export_questions(
            deal_id, Path(tmp) / f"{deal_id}-qa-list.xlsx", people=people
        )
        shared = await upload_to_thread(
            client,
            channel=channel,
            thread_ts=thread_ts,
            filename=path.name,
            content=path.read_bytes(),
            title=f"Q&A list of {deal_id}",
            comment=export_comment(deal_id, count, user),
        )
    return shared, count


async def _refresh(deps: Deps, click: Click, deal_id: str, notice: str) -> None:
    """Show the clicker the list as it now stands, in place of the one they clicked."""
    message = render_qa_list(deal_id, await deps.deals.questions(deal_id), notice)
    if click.respond is not None and click.body.get("response_url"):
        await click.respond(
            text=message.text,
            blocks=message.blocks,
            replace_original=True,
            response_type="ephemeral",
        )


async def mark_answered(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = QAChange.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    item = await deps.deals.mark_answered(payload.deal_id, payload.item_id, by=click.user)
    await _refresh(
        deps, click, payload.deal_id, f"✅ Q{item.number} marked answered by {who(click.user)}."
    )


async def remove(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = QAChange.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    item = await deps.deals.remove_question(payload.deal_id, payload.item_id, by=click.user)
    await _refresh(
        deps,
        click,
        payload.deal_id,
        f"🗑 Q{item.number} removed by {who(click.user)} (the audit log keeps its text).",
    )


async def export(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = QAExport.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id) or click.channel is None:
        return
    _, count = await share_export(
        deps,
        client,
        deal_id=payload.deal_id,
        channel=click.channel,
        thread_ts=click.thread_ts,
        user=click.user,
    )
    await tell(
        client,
        click,
        f"⬇️ Shared the Q&A list of *{escape(payload.deal_id)}* ({count} rows) in this channel.",
    )


def register(app: AsyncApp, deps: Deps) -> None:
    app.action(ids.QA_ANSWERED)(listener(deps, mark_answered, "mark this question answered"))
    app.action(ids.QA_REMOVE)(listener(deps, remove, "remove this question"))
    app.action(ids.QA_EXPORT)(listener(deps, export, "export the Q&A list"))
