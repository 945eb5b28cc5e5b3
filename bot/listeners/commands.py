"""`/manda ask|gaps|redflags|qa|review|docs|deal|help`, `/gaps`, `/redflags`: acked at once.

Help and usage errors are the ack itself (ephemeral). Everything else runs as a job: results the
team shares (answers, the review queue, a new binding) go in the channel; lists for the person
who asked (Q&A list, documents, deals) and errors are ephemeral.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering import Kind, answer_in_thread
from bot.blocks.answer import render_placeholder
from bot.blocks.kit import SlackMessage
from bot.blocks.messages import (
    render_bound,
    render_deal_list,
    render_documents,
    render_error,
    render_help,
    render_notice,
    render_unbound,
)
from bot.blocks.mrkdwn import escape, plain
from bot.blocks.qa import render_qa_list
from bot.blocks.review import render_review_queue
from bot.conversations import DEAL_ID, Thread, bind, deal_for
from bot.deps import Deps
from bot.slacktext import from_slack

log = logging.getLogger(__name__)

Command = dict[str, Any]
Job = Callable[[Deps, AsyncWebClient, AsyncRespond, Command, str], Awaitable[None]]

NOT_IN_CHANNEL = (
    "I am not in this channel, so I can't post here. "
    "Invite me with `/invite @Manda`, then try again."
)


async def _say(respond: AsyncRespond, message: SlackMessage, *, in_channel: bool = False) -> None:
    await respond(
        text=message.text,
        blocks=message.blocks,
        response_type="in_channel" if in_channel else "ephemeral",
        replace_original=False,
    )


async def _post(
    client: AsyncWebClient, respond: AsyncRespond, channel: str, message: SlackMessage
) -> str | None:
    """Post in the channel as the bot; when it is not a member, answer through the command."""
    try:
        reply = await client.chat_postMessage(
            channel=channel, text=message.text, blocks=message.blocks
        )
        return str(reply["ts"])
    except SlackApiError as exc:
        if exc.response.get("error") not in ("not_in_channel", "channel_not_found"):
            raise
        await _say(respond, render_notice(NOT_IN_CHANNEL))
        return None


async def _bound_deal(deps: Deps, respond: AsyncRespond, command: Command) -> str | None:
    deal_id = await deal_for(deps.manda.graph, command["team_id"], command["channel_id"])
    if deal_id is None:
        await _say(respond, render_unbound(await deps.manda.graph.list_deals()))
    return deal_id


# ---------------------------------------------------------------- jobs


async def _answer(
    deps: Deps,
    client: AsyncWebClient,
    respond: AsyncRespond,
    command: Command,
    kind: Kind,
    question: str,
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    user = command["user_id"]
    titles = {
        "ask": f"<@{user}> asked: “{escape(plain(question, 500))}”",
        "gaps": f"Gaps in the data room of *{escape(deal_id)}*, for <@{user}>",
        "redflags": f"Red flags in *{escape(deal_id)}*, for <@{user}>",
    }
    placeholder = render_placeholder(f"{titles[kind]} — reading the documents…")
    ts = await _post(client, respond, command["channel_id"], placeholder)
    if ts is None:
        return
    thread = Thread(
        team=command["team_id"],
        channel=command["channel_id"],
        thread_ts=ts,
        user=user,
        channel_type="im" if command["channel_id"].startswith("D") else "channel",
    )
    await answer_in_thread(
        deps, client, thread, deal_id, question, kind=kind, placeholder_ts=ts, intro=titles[kind]
    )


async def ask(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _answer(deps, client, respond, command, "ask", rest)


async def gaps(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _answer(deps, client, respond, command, "gaps", "")


async def redflags(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _answer(deps, client, respond, command, "redflags", "")


async def review(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    queue = await deps.manda.review.queue(deal_id)
    documents = {d.id: d.filename for d in await deps.manda.graph.list_documents(deal_id)}
    await _post(
        client, respond, command["channel_id"], render_review_queue(deal_id, queue, documents)
    )


async def qa(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is not None:
        await _say(respond, render_qa_list(deal_id, await deps.manda.qa.items(deal_id)))


async def docs(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is not None:
        documents = await deps.manda.graph.list_documents(deal_id)
        await _say(respond, render_documents(deal_id, documents))


async def deal(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    graph = deps.manda.graph
    team, channel = command["team_id"], command["channel_id"]
    if not rest:
        current = await deal_for(graph, team, channel)
        await _say(respond, render_deal_list(await graph.list_deals(), current))
        return
    previous, created = await bind(graph, team, channel, rest)
    await _post(client, respond, channel, render_bound(rest, command["user_id"], previous, created))


JOBS: dict[str, Job] = {
    "ask": ask,
    "gaps": gaps,
    "redflags": redflags,
    "review": review,
    "qa": qa,
    "docs": docs,
    "deal": deal,
}
USAGE = {"ask": "`/manda ask <question>`"}
ALIASES = {
    "red-flags": "redflags",
    "red_flags": "redflags",
    "gap": "gaps",
    "bind": "deal",
    "documents": "docs",
    "q&a": "qa",
}


def parse(text: str) -> tuple[str, str]:
    """(subcommand, rest) of `/manda` text as Slack sends it; an empty text is `help`."""
    sub, _, rest = from_slack(text).partition(" ")
    sub = sub.lower()
    return ALIASES.get(sub, sub) or "help", rest.strip()


async def _run(
    deps: Deps,
    job: Job,
    client: AsyncWebClient,
    respond: AsyncRespond,
    command: Command,
    rest: str,
    name: str,
) -> None:
    try:
        await job(deps, client, respond, command, rest)
    except Exception as exc:
        log.exception("/manda %s failed", name)
        try:
            await _say(respond, render_error(exc, f"run `/manda {name}`"))
        except Exception:
            log.exception("could not report the failure of /manda %s", name)


def register(app: AsyncApp, deps: Deps) -> None:
    def start(
        name: str, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
    ) -> None:
        deps.jobs.spawn(
            _run(deps, JOBS[name], client, respond, command, rest, name), name=f"/manda {name}"
        )

    @app.command("/manda")
    async def manda(
        ack: AsyncAck, command: Command, client: AsyncWebClient, respond: AsyncRespond
    ) -> None:
        sub, rest = parse(command.get("text", ""))
        if sub == "help":
            help_ = render_help()
            await ack(text=help_.text, blocks=help_.blocks)
        elif sub not in JOBS:
            note = render_help(
                f"I don't know `/manda {escape(plain(sub, 40))}`. Here is what I can do:"
            )
            await ack(text=note.text, blocks=note.blocks)
        elif sub == "ask" and not rest:
            usage = render_notice(f"Ask a question after the command: {USAGE['ask']}.")
            await ack(text=usage.text, blocks=usage.blocks)
        elif sub == "deal" and rest and not DEAL_ID.match(rest):
            bad = render_notice(
                f"`{escape(plain(rest, 80))}` is not a deal id: use lower-case letters, "
                "digits, `-` and `_` (for example `/manda deal falcon`)."
            )
            await ack(text=bad.text, blocks=bad.blocks)
        else:
            await ack()
            start(sub, client, respond, command, rest)

    @app.command("/gaps")
    async def gaps_shortcut(
        ack: AsyncAck, command: Command, client: AsyncWebClient, respond: AsyncRespond
    ) -> None:
        await ack()
        start("gaps", client, respond, command, "")

    @app.command("/redflags")
    async def redflags_shortcut(
        ack: AsyncAck, command: Command, client: AsyncWebClient, respond: AsyncRespond
    ) -> None:
        await ack()
        start("redflags", client, respond, command, "")
