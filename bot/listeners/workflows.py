"""CIM and IRL threads: `/manda cim|irl|status`, replies in a workflow's thread, its buttons, the
slide Edit modal, and the exported file shared in the thread.

A workflow lives in a new thread: its conversation is the thread
(`slack:{team}:{channel}:{thread_ts}`) and its owner the channel, so any later reply there, in
this process or a restarted one, finds it again through the deal operations
(`deps.deals.workflows`); nothing about it is kept in the bot.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.answering import follow_up
from bot.blocks.kit import SlackMessage
from bot.blocks.messages import render_error, render_notice
from bot.blocks.workflows import (
    render_edit_modal,
    render_exported,
    render_started,
    render_step,
)
from bot.conversations import Thread, conversation_id
from bot.deps import Deps
from bot.fileupload import upload_to_thread
from bot.listeners.actions import Click, belongs_here, listener, modal_listener
from bot.listeners.commands import Command, _bound_deal, _post, _say, handles
from bot.listeners.common import team_of
from bot.payloads import WorkflowAction
from manda.deals.workflows import WorkflowMode, WorkflowStep
from manda.workflows.ids import WorkflowId

log = logging.getLogger(__name__)

# A Slack message link: https://team.slack.com/archives/C0123/p1700000000123456
_LINK = re.compile(r"/archives/([A-Z0-9]+)/p(\d{10})(\d{6})")
FILE_TYPES = {"cim": "PPTX", "irl": "XLSX"}


async def _post_step(
    client: AsyncWebClient, channel: str, thread_ts: str, step: WorkflowStep
) -> None:
    message = render_step(step)
    await client.chat_postMessage(
        channel=channel, thread_ts=thread_ts, text=message.text, blocks=message.blocks
    )


async def _share(
    client: AsyncWebClient, channel: str, thread_ts: str, step: WorkflowStep, user: str
) -> None:
    """The exported deck or spreadsheet, uploaded into the workflow's thread."""
    if step.exported is None:
        await _post_step(client, channel, thread_ts, step)
        return
    await upload_to_thread(
        client,
        channel=channel,
        thread_ts=thread_ts,
        filename=step.exported.name,
        content=step.exported.read_bytes(),
        title=f"{step.workflow.deal_id} {step.mode.upper()} ({FILE_TYPES[step.mode]})",
        comment=render_exported(step, user),
    )


async def advance(
    deps: Deps, client: AsyncWebClient, *, channel: str, thread_ts: str, wid: WorkflowId,
    message: str, user: str,
) -> WorkflowStep:
    """One message to the workflow, its reply (or exported file) posted in the thread."""
    step = await deps.deals.workflows.send(wid, message)
    await _share(client, channel, thread_ts, step, user)
    return step


# ---------------------------------------------------------------- slash commands


async def _start(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command,
    mode: WorkflowMode, persona: str | None,
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    channel, user = command["channel_id"], command["user_id"]
    thread_ts = await _post(client, respond, channel, render_started(mode, deal_id, user))
    if thread_ts is None:
        return
    step = await deps.deals.workflows.start(
        mode, deal_id, owner=channel,
        conversation=conversation_id(command["team_id"], channel, thread_ts),
        persona=persona or None,
    )
    await _post_step(client, channel, thread_ts, step)


@handles("cim")
async def cim(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _start(deps, client, respond, command, "cim", rest)


@handles("irl")
async def irl(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _start(deps, client, respond, command, "irl", None)


@handles("status")
async def status(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    """Slack sends no thread with a slash command, so the thread is named by its link."""
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    found = _LINK.search(rest)
    if found is None:
        await _say(respond, render_notice(
            "Reply `status` in the workflow's thread, or give its link: "
            "`/manda status <link to the thread's first message>` (⋯ → Copy link)."))
        return
    channel, thread_ts = found.group(1), f"{found.group(2)}.{found.group(3)}"
    step = await deps.deals.workflows.current(
        deal_id, owner=channel,
        conversation=conversation_id(command["team_id"], channel, thread_ts))
    if step is None:
        await _say(respond, render_notice(
            "No CIM or IRL is in progress in that thread. Start one with `/manda cim` or "
            "`/manda irl`."))
        return
    await _say(respond, render_step(step))


# ---------------------------------------------------------------- replies in a workflow's thread


async def reply_or_follow_up(
    deps: Deps, client: AsyncWebClient, thread: Thread, text: str
) -> None:
    """A reply goes to the thread's running workflow; without one, to the Q&A follow-up."""
    try:
        deal_id = await deps.deals.deal_of(thread.channel_key)
        step = None if deal_id is None else await deps.deals.workflows.current(
            deal_id, owner=thread.channel, conversation=thread.conversation_id)
    except Exception:
        log.exception("could not look up the workflow of %s", thread.conversation_id)
        step = None
    if step is None:
        await follow_up(deps, client, thread, text)
        return
    try:
        await advance(deps, client, channel=thread.channel, thread_ts=thread.thread_ts,
                      wid=step.workflow, message=text, user=thread.user)
    except Exception as exc:
        log.exception("workflow step failed in %s", thread.conversation_id)
        failure = render_error(exc, f"continue the {step.mode.upper()}")
        await client.chat_postMessage(channel=thread.channel, thread_ts=thread.thread_ts,
                                      text=failure.text, blocks=failure.blocks)


# ---------------------------------------------------------------- buttons and the Edit modal


async def _ours(deps: Deps, client: AsyncWebClient, click: Click) -> WorkflowAction | None:
    payload = WorkflowAction.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return None
    if click.channel is None or click.thread_ts is None:
        return None
    return payload


async def press(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """Persona, Approve, Regenerate, Attach Q&A, Export: the message the button stands for."""
    payload = await _ours(deps, client, click)
    if payload is None:
        return
    assert click.channel is not None and click.thread_ts is not None
    await advance(deps, client, channel=click.channel, thread_ts=click.thread_ts,
                  wid=WorkflowId.parse(payload.workflow), message=payload.message,
                  user=click.user)


async def open_edit(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = await _ours(deps, client, click)
    if payload is None:
        return
    step = await deps.deals.workflows.status(WorkflowId.parse(payload.workflow))
    title = "this slide"
    if step is not None and step.cim is not None and step.cim.outline:
        title = step.cim.outline[step.cim.current].title
    where = f"{click.channel}|{click.thread_ts}"
    value = WorkflowAction(deal_id=payload.deal_id, workflow=payload.workflow,
                           message=where).encode()
    assert click.modal is not None  # opened by `modal_listener` as Edit was clicked
    await click.modal.show(render_edit_modal(value, title))


def _edit_submitted(deps: Deps) -> Any:
    async def on_submit(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        view = body["view"]
        payload = WorkflowAction.decode(view.get("private_metadata"))
        channel, _, thread_ts = payload.message.partition("|")
        values = view.get("state", {}).get("values", {})
        text = str(values.get(ids.WF_EDIT_INPUT, {}).get(ids.WF_EDIT_INPUT, {}).get("value") or "")
        user = str(body["user"]["id"])

        async def apply() -> None:
            try:
                await advance(deps, client, channel=channel, thread_ts=thread_ts,
                              wid=WorkflowId.parse(payload.workflow), message=text.strip(),
                              user=user)
            except Exception as exc:
                log.exception("slide edit failed")
                failure: SlackMessage = render_error(exc, "edit the slide")
                await client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts,
                                                text=failure.text, blocks=failure.blocks)

        if text.strip():
            deps.jobs.spawn(apply(), name=f"slide edit {team_of(body)}")

    return on_submit


def register(app: AsyncApp, deps: Deps) -> None:
    for action_id in (ids.WF_PERSONA_ANY, ids.WF_APPROVE, ids.WF_REGENERATE, ids.WF_EXPORT,
                      ids.WF_ATTACH_QA):
        app.action(action_id)(listener(deps, press, "move the workflow on"))
    app.action(ids.WF_EDIT)(modal_listener(deps, open_edit, "open the slide editor",
                                           "Edit slide"))
    app.view(ids.WF_EDIT_VIEW)(_edit_submitted(deps))

