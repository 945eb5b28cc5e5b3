"""Answered Q&A files dropped in a deal channel, read back into the deal's Q&A list, and the
buttons that place an answer Manda was unsure about."""

from __future__ import annotations

from pathlib import Path

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.qa_import import render_qa_import
from bot.conversations import Thread, workspace_key
from bot.deps import Deps
from bot.listeners.actions import Click, belongs_here, edit_message, listener, tell
from bot.payloads import PlaceAnswer
from bot.permissions import SlackMembership
from manda.deals import QAImport


async def import_qa_files(
    deps: Deps, thread: Thread, deal_id: str, paths: list[Path], names: dict[Path, str]
) -> tuple[list[QAImport], list[Path]]:
    """The dropped files that are answered Q&A lists, imported; the others, to be ingested."""
    imported: list[QAImport] = []
    rest: list[Path] = []
    for path in paths:
        name = names.get(path, path.name)
        log = await deps.deals.qa_file(path, name)
        if log is None:
            rest.append(path)
            continue
        imported.append(await deps.deals.import_answers(deal_id, path, by=thread.user,
                                                        name=name, log=log))
    return imported, rest


async def place(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """A person says which question an unsure answer answers: the file is read again with it
    and its summary shows the result."""
    payload = PlaceAnswer.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    if click.channel is not None and not await deps.deals.may_act(
            payload.deal_id, click.user, workspace=workspace_key(click.team),
            membership=SlackMembership(client)):
        await tell(client, click, "Only members of the deal's channel can place answers; "
                                  "nothing was changed.")
        return
    result = await deps.deals.place_answer(payload.deal_id, payload.file_id, payload.row,
                                           payload.number, by=click.user)
    message = render_qa_import(result)
    await edit_message(deps, client, click, lambda _blocks: message.blocks, text=message.text)


def register(app: AsyncApp, deps: Deps) -> None:
    for action_id in (ids.QA_PLACE, ids.QA_PLACE_NEW):
        app.action(action_id)(listener(deps, place, "place that answer"))
