"""`/manda grid`: the review grid asked in a modal, read in one message that follows it, shown
as a table with the full grid attached as XLSX; its cells reviewed, and a column taken to red
flags or to the seller, from the message's menu.

The command's modal opens with its trigger_id inside the ack path (a trigger lives 3 s:
https://docs.slack.dev/reference/methods/views.open); its first step (documents and a saved
column set) is answered with `response_action: update` by the second (the set's columns ticked,
and the person's own), so no trigger is needed for it
(https://docs.slack.dev/surfaces/modals#updating_response). The grid is read as deal operations
(`deps.deals`): here in a job, or by `manda worker`s with the job queue; the message is edited
within Slack's limits (`bot.progress`) and has a Cancel button until it is done.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from pathlib import Path
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.grid import (
    MENU_FLAG,
    MENU_REVIEW,
    render_grid,
    render_grid_column_modal,
    render_grid_columns_modal,
    render_grid_pick_modal,
    render_grid_progress,
    render_grid_review_modal,
)
from bot.blocks.kit import SlackMessage, plural
from bot.blocks.messages import render_error, render_unbound
from bot.blocks.mrkdwn import escape
from bot.conversations import Thread, channel_key
from bot.deps import Deps
from bot.fileupload import upload_to_thread
from bot.listeners.actions import Click, belongs_here, listener, tell
from bot.listeners.commands import Command, _say, opens_modal
from bot.listeners.common import team_of
from bot.payloads import GridAction, GridModal
from bot.progress import ProgressMessage
from bot.slacktext import from_input
from manda.grid.columns import parse_columns, standard_column
from manda.grid.view import Grid
from manda.models import GridColumn, GridRunStatus, ReviewDecisionKind
from manda.vocabulary.grid import grid_vocabulary

log = logging.getLogger(__name__)

FOLLOW_SECONDS = 1.0  # a queued grid's progress is looked up this often
Values = dict[str, dict[str, dict[str, Any]]]


def _kinds() -> list[tuple[str, str]]:
    g = grid_vocabulary()
    order = ["contract", *(k.key for k in g.kinds if k.key != "contract")]
    labels = {k.key: k.plural.capitalize() for k in g.kinds}
    labels["contract"] = "All contracts"
    return [(labels[key], key) for key in order]


def _sets() -> list[tuple[str, str, str]]:
    g = grid_vocabulary()
    return [(key, key.capitalize(), ", ".join(g.column(c).label for c in columns))
            for key, columns in g.column_sets.items()]


# ---------------------------------------------------------------- the command


@opens_modal("grid")
async def open_grid_modal(deps: Deps, client: AsyncWebClient, respond: AsyncRespond,
                          command: Command) -> None:
    """Within the ack path: the modal's first step, or why there is none."""
    key = channel_key(command["team_id"], command["channel_id"])
    deal_id = await deps.deals.deal_of(key)
    if deal_id is None:
        where = "This conversation" if command["channel_id"].startswith("D") else "This channel"
        await _say(respond, render_unbound(where))
        return
    meta = GridModal(d=deal_id, ch=command["channel_id"], tm=command["team_id"])
    view = render_grid_pick_modal(meta, kinds=_kinds(),
                                  folders=await deps.deals.grid_folders(deal_id), sets=_sets())
    await client.views_open(trigger_id=command["trigger_id"], view=view)


def _chosen(values: Values, block_id: str) -> str | None:
    state = values.get(block_id, {}).get(block_id) or {}
    return (state.get("selected_option") or {}).get("value")


def _picked(deps: Deps) -> Any:
    async def on_submit(ack: AsyncAck, body: dict[str, Any]) -> None:
        view = body["view"]
        meta = GridModal.decode(view.get("private_metadata"))
        values: Values = view.get("state", {}).get("values", {})
        documents = _chosen(values, ids.GRID_DOCUMENTS) or "kind:contract"
        chosen_set = _chosen(values, ids.GRID_SET) or "contracts"
        g = grid_vocabulary()
        ticked = list(g.column_sets.get(chosen_set, ()))
        order = [*ticked, *(c.key for c in g.columns if c.key not in ticked)]
        columns = [standard_column(k) for k in order]
        label = _documents_label(documents)
        await ack(response_action="update", view=render_grid_columns_modal(
            meta.model_copy(update={"documents": documents}), columns, set(ticked), label))

    return on_submit


def _documents_label(documents: str) -> str:
    kind, _, name = documents.partition(":")
    if kind == "folder":
        return f"the documents in {name}"
    return dict((key, label.lower()) for label, key in _kinds()).get(name, name)


def _columns_of(values: Values) -> list[GridColumn]:
    ticked: list[str] = []
    for block_id, actions in values.items():
        if block_id.startswith("manda.grid.pick."):
            state = actions.get(block_id) or {}
            ticked += [str(o.get("value")) for o in state.get("selected_options") or []]
    own = from_input(str((values.get(ids.GRID_OWN, {}).get(ids.GRID_OWN) or {}).get("value")
                         or ""))
    g = grid_vocabulary()
    order = [c.key for c in g.columns]
    columns = [standard_column(k) for k in sorted(set(ticked), key=order.index)
               if k in order]
    return [*columns, *(c for c in parse_columns(own.splitlines())
                        if c.key not in {x.key for x in columns})]


def _submitted(deps: Deps) -> Any:
    async def on_submit(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        view = body["view"]
        meta = GridModal.decode(view.get("private_metadata"))
        columns = _columns_of(view.get("state", {}).get("values", {}))
        if not columns:
            await ack(response_action="errors", errors={
                ids.GRID_OWN: "Tick a column or write one of your own."})
            return
        await ack()
        user = str(body["user"]["id"])
        deps.jobs.spawn(build(deps, client, meta, user, columns),
                        name=f"grid {meta.deal_id} {team_of(body)}")

    return on_submit


async def build(deps: Deps, client: AsyncWebClient, meta: GridModal, user: str,
                columns: list[GridColumn]) -> None:
    """Start the grid, follow it in one message, then show it and attach the XLSX."""
    assert meta.channel is not None
    kind, _, name = (meta.documents or "kind:contract").partition(":")
    thread = Thread(team=meta.team or "", channel=meta.channel, thread_ts="", user=user)
    progress = ProgressMessage(client, thread, jobs=deps.jobs,
                               min_interval=deps.progress_interval)
    try:
        run = await deps.deals.start_grid(
            meta.deal_id, columns, by=user, kind=name if kind == "kind" else None,
            folder=name if kind == "folder" else None)
    except Exception as exc:
        log.exception("grid of deal %s could not start", meta.deal_id)
        failure = render_error(exc, "build the grid")
        await client.chat_postEphemeral(channel=meta.channel, user=user, text=failure.text,
                                        blocks=failure.blocks)
        return
    await progress.show(render_grid_progress(meta.deal_id, run.id, run.title, 0,
                                             len(run.document_ids), len(columns), user))

    async def shown(grid: Grid) -> None:
        await progress.show(render_grid(grid, by=user, running=True))

    if run.jobs:
        grid = await deps.deals.grid(meta.deal_id, run.id)
        while not grid.finished and grid.run.status is GridRunStatus.RUNNING:
            await shown(grid)
            await asyncio.sleep(FOLLOW_SECONDS)
            grid = await deps.deals.grid(meta.deal_id, run.id)
    else:
        grid = await deps.deals.run_grid(run, progress=shown)
    await progress.show(render_grid(grid, by=user))
    await progress.flush()
    if progress.ts is not None:
        await _attach(deps, client, meta.channel, progress.ts, grid, user)


async def _attach(deps: Deps, client: AsyncWebClient, channel: str, thread_ts: str, grid: Grid,
                  user: str) -> None:
    """The full grid as XLSX, in the grid message's thread."""
    with tempfile.TemporaryDirectory(prefix="manda-grid-") as tmp:
        name = f"{grid.run.deal_id}-grid-{grid.run.id.removeprefix('grid-')}.xlsx"
        path = await deps.deals.export_grid(grid.run.deal_id, grid.run.id, Path(tmp) / name)
        await upload_to_thread(
            client, channel=channel, thread_ts=thread_ts, filename=name,
            content=path.read_bytes(), title=f"Review grid: {grid.run.title}",
            comment=(f"⬇️ The full grid for <@{user}>: {plural(len(grid.rows), 'row')} × "
                     f"{plural(len(grid.columns), 'column')}, every cell's quote and place as "
                     "its comment and on the Quotes sheet."))


# ---------------------------------------------------------------- its message's buttons


async def _payload(deps: Deps, client: AsyncWebClient, click: Click) -> GridAction | None:
    payload = GridAction.decode(click.action.get("value"))
    return payload if await belongs_here(deps, client, click, payload.deal_id) else None


async def _redraw(deps: Deps, client: AsyncWebClient, click: Click, grid: Grid, *,
                  expanded: bool) -> None:
    if click.channel is None or click.message is None:
        return
    by = grid.run.requested_by or click.user
    message = render_grid(grid, by=by, expanded=expanded)
    await client.chat_update(channel=click.channel, ts=click.message["ts"], text=message.text,
                             blocks=message.blocks)


async def show_more(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = await _payload(deps, client, click)
    if payload is None:
        return
    grid = await deps.deals.grid(payload.deal_id, payload.run_id)
    await _redraw(deps, client, click, grid, expanded=True)


async def cancel(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = await _payload(deps, client, click)
    if payload is None:
        return
    run = await deps.deals.cancel_grid(payload.deal_id, payload.run_id, by=click.user)
    await tell(client, click, f"Grid `{run.id}` is {run.status.value}: the documents read so "
                              "far are kept, and asking the same grid again reads only the rest.")


def _menu(deps: Deps) -> Any:
    """The grid's menu opens its modal inside the ack path, with the click's trigger_id."""

    async def on_click(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient,
                       respond: AsyncRespond) -> None:
        await ack()
        click = Click(body, respond)
        picked = str((click.action.get("selected_option") or {}).get("value") or "")
        purpose, _, run_id = picked.partition("|")
        try:
            meta, grid = await _grid_of(deps, click, run_id)
            meta = meta.model_copy(update={"purpose": purpose})
            view = render_grid_review_modal(meta, grid) if purpose == MENU_REVIEW else \
                render_grid_column_modal(meta, grid, purpose)
            await client.views_open(trigger_id=body["trigger_id"], view=view)
        except Exception as exc:
            log.exception("grid menu %s failed", purpose)
            await tell(client, click, render_error(exc, "open that").text)

    return on_click


async def _grid_of(deps: Deps, click: Click, run_id: str) -> tuple[GridModal, Grid]:
    """The grid a click in a channel is about, from the channel's deal (only its grids)."""
    deal_id = await deps.deals.deal_of(channel_key(click.team, click.channel or ""))
    if deal_id is None:
        raise LookupError("this channel is no longer linked to a deal")
    grid = await deps.deals.grids.grid(deal_id, run_id)
    meta = GridModal(d=deal_id, r=run_id, ch=click.channel,
                     m=(click.message or {}).get("ts"), tm=click.team)
    return meta, grid


def _review_submitted(deps: Deps) -> Any:
    async def on_submit(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        view = body["view"]
        meta = GridModal.decode(view.get("private_metadata"))
        values: Values = view.get("state", {}).get("values", {})
        column = _chosen(values, ids.GRID_COLUMN)
        document = _chosen(values, ids.GRID_DOCUMENT)
        decision = ReviewDecisionKind(_chosen(values, ids.GRID_DECISION) or "approve")
        reason = str((values.get(ids.REASON_INPUT, {}).get(ids.REASON_INPUT) or {}).get(
            "value") or "")
        user = str(body["user"]["id"])

        async def work() -> None:
            grid = await deps.deals.grids.grid(meta.deal_id, meta.run_id or "")
            names = {c.key: c.name for c in grid.columns}
            done = await deps.deals.decide_grid_cells(
                meta.deal_id, meta.run_id or "", decision, by=user,
                column=None if column in (None, "*") else names.get(column, column),
                document=None if document in (None, "*") else document, reason=from_input(reason))
            verb = "approved" if decision is ReviewDecisionKind.APPROVE else "rejected"
            note = (f"<@{user}> {verb} {plural(len(done.decided), 'cell')} of the grid"
                    + (f" ({done.already} decided before)" if done.already else "") + ".")
            await _after(deps, client, meta, note)

        deps.jobs.spawn(_reported(client, meta, user, work(), "decide those cells"),
                        name=f"grid review {meta.run_id}")

    return on_submit


def _column_submitted(deps: Deps) -> Any:
    async def on_submit(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        view = body["view"]
        meta = GridModal.decode(view.get("private_metadata"))
        column = _chosen(view.get("state", {}).get("values", {}), ids.GRID_COLUMN) or ""
        user = str(body["user"]["id"])

        async def work() -> None:
            grid = await deps.deals.grids.grid(meta.deal_id, meta.run_id or "")
            name = next((c.name for c in grid.columns if c.key == column), column)
            if meta.purpose == MENU_FLAG:
                flagged = await deps.deals.grid_red_flags(meta.deal_id, meta.run_id or "",
                                                          name, by=user)
                note = (f"🚩 <@{user}> took {plural(len(flagged), 'document')} with "
                        f"*{escape(name.lower())}* as red flags: `/manda redflags` lists them.")
            else:
                added = await deps.deals.grid_questions(meta.deal_id, meta.run_id or "", name,
                                                        by=user)
                new = sum(1 for _, fresh in added if fresh)
                note = (f"📝 <@{user}> added {plural(new, 'question')} on "
                        f"*{escape(name.lower())}* to the Q&A list, one for each document that "
                        "does not state it" + (f" ({len(added) - new} already on it)"
                                               if len(added) > new else "") + ".")
            await _after(deps, client, meta, note)

        deps.jobs.spawn(_reported(client, meta, user, work(), "do that"),
                        name=f"grid column {meta.run_id}")

    return on_submit


async def _after(deps: Deps, client: AsyncWebClient, meta: GridModal, note: str) -> None:
    """Say what was done in the grid message's thread, and redraw its review marks."""
    if meta.channel is None or meta.message is None:
        return
    await client.chat_postMessage(channel=meta.channel, thread_ts=meta.message, text=note)
    grid = await deps.deals.grid(meta.deal_id, meta.run_id or "")
    message: SlackMessage = render_grid(grid, by=grid.run.requested_by or "someone")
    await client.chat_update(channel=meta.channel, ts=meta.message, text=message.text,
                             blocks=message.blocks)


async def _reported(client: AsyncWebClient, meta: GridModal, user: str, work: Any,
                    doing: str) -> None:
    try:
        await work
    except Exception as exc:
        log.exception("grid modal work failed")
        if meta.channel is not None:
            failure = render_error(exc, doing)
            await client.chat_postEphemeral(channel=meta.channel, user=user, text=failure.text,
                                            blocks=failure.blocks)


def register(app: AsyncApp, deps: Deps) -> None:
    app.view(ids.GRID_PICK_VIEW)(_picked(deps))
    app.view(ids.GRID_COLUMNS_VIEW)(_submitted(deps))
    app.view(ids.GRID_REVIEW_VIEW)(_review_submitted(deps))
    app.view(ids.GRID_COLUMN_VIEW)(_column_submitted(deps))
    app.action(ids.GRID_SHOW_MORE)(listener(deps, show_more, "show every row of the grid"))
    app.action(ids.GRID_CANCEL)(listener(deps, cancel, "cancel the grid"))
    app.action(ids.GRID_MENU)(_menu(deps))
