"""The router of the slash commands in `bot.commands`' table: acked at once, one handler each.

Help and usage errors are the ack itself (ephemeral). Everything else runs as a job: results the
team shares (answers, the review queue, a link or unlink) go in the channel; lists for the person
who asked (Q&A list, documents, the channel's link), refusals and errors are ephemeral.
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

from bot.answering import KINDS, NOT_IN_CHANNEL, Kind, answer_in_channel
from bot.blocks.kit import SlackMessage, who
from bot.blocks.messages import (
    render_binding,
    render_bound,
    render_documents,
    render_error,
    render_help,
    render_notice,
    render_reading,
    render_refusal,
    render_unbound,
    render_unbound_announcement,
)
from bot.blocks.mrkdwn import escape, plain
from bot.blocks.qa import render_qa_list
from bot.blocks.review import QUEUE_PAGE, render_review_queue
from bot.commands import BY_NAME, NEW_DEAL, SHORTCUTS, SLASH, SUBCOMMANDS, parse
from bot.conversations import DEAL_ID, channel_key
from bot.deps import Deps
from bot.listeners.qa_list import share_export
from bot.permissions import SlackMembership
from manda.deals import PRIORITIES, BindingRefusedError, Priority, ReviewFilter
from manda.models import QAPriority

log = logging.getLogger(__name__)

Command = dict[str, Any]
Job = Callable[[Deps, AsyncWebClient, AsyncRespond, Command, str], Awaitable[None]]


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


def _channel_key(command: Command) -> str:
    return channel_key(command["team_id"], command["channel_id"])


async def _bound_deal(deps: Deps, respond: AsyncRespond, command: Command) -> str | None:
    deal_id = await deps.deals.deal_of(_channel_key(command))
    if deal_id is None:
        where = "This conversation" if command["channel_id"].startswith("D") else "This channel"
        await _say(respond, render_unbound(where))
    return deal_id


HANDLERS: dict[str, Job] = {}
# Commands whose answer is a modal, opened with the command's trigger_id in the ack path.
ModalOpener = Callable[[Deps, AsyncWebClient, AsyncRespond, Command], Awaitable[None]]
MODALS: dict[str, ModalOpener] = {}


def opens_modal(name: str) -> Callable[[ModalOpener], ModalOpener]:
    """Make the decorated function open the command's modal, inside the ack path."""
    if name not in BY_NAME:
        raise KeyError(f"`/manda {name}` is not in bot.commands.SUBCOMMANDS; add its row first")

    def register(opener: ModalOpener) -> ModalOpener:
        MODALS[name] = opener
        return opener

    return register


def handles(name: str) -> Callable[[Job], Job]:
    """Make the decorated job the handler of the command table's row `name`."""
    if name not in BY_NAME:
        raise KeyError(f"`/manda {name}` is not in bot.commands.SUBCOMMANDS; add its row first")

    def register(job: Job) -> Job:
        HANDLERS[name] = job
        return job

    return register


# ---------------------------------------------------------------- handlers, one per table row


async def _answer(
    deps: Deps,
    client: AsyncWebClient,
    respond: AsyncRespond,
    command: Command,
    kind: Kind,
    question: str,
) -> None:
    """Tell who asked that Manda is reading (only them, through the command's response_url),
    then post the answer in the channel once it is ready: a message that is never changed, so
    Slack shows no "(edited)". Its thread continues the conversation.
    https://api.slack.com/interactivity/slash-commands#responding_to_commands
    """
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    title = KINDS[kind].title.format(
        user=command["user_id"], deal=escape(deal_id), question=escape(plain(question, 500))
    )
    await _say(respond, render_reading(title))
    await answer_in_channel(
        deps, client, team=command["team_id"], channel=command["channel_id"], deal_id=deal_id,
        question=question, kind=kind, intro=title, tell=lambda message: _say(respond, message),
    )


@handles("ask")
async def ask(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _answer(deps, client, respond, command, "ask", rest)


@handles("gaps")
async def gaps(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _answer(deps, client, respond, command, "gaps", "")


@handles("redflags")
async def redflags(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _answer(deps, client, respond, command, "redflags", "")


def review_filter(text: str) -> ReviewFilter:
    """`high`, `doc:<part of a file name>`, `subject:<part of a subject>`, in any order."""
    priority: Priority | None = None
    document = subject = None
    for word in text.split():
        lowered = word.lower()
        if lowered in PRIORITIES:
            priority = lowered  # type: ignore[assignment]
        elif lowered.startswith(("doc:", "document:", "file:")):
            document = word.split(":", 1)[1] or None
        elif lowered.startswith(("subject:", "about:")):
            subject = word.split(":", 1)[1] or None
        else:
            subject = f"{subject} {word}".strip() if subject else word
    return ReviewFilter(priority=priority, document=document, subject=subject)


@handles("review")
async def review(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    where = review_filter(rest)
    page = await deps.deals.review_page(deal_id, limit=QUEUE_PAGE, where=where)
    await _post(client, respond, command["channel_id"], render_review_queue(page))


QA_USAGE = (
    "`/manda qa` shows the list; `/manda qa export` shares it as Excel; "
    "`/manda qa answered N [answer]`, `/manda qa edit N <new wording>`, "
    "`/manda qa edit N priority high|medium|low`, `/manda qa edit N category Legal`, "
    "`/manda qa remove N`."
)


@handles("qa")
async def qa(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    verb, _, args = rest.partition(" ")
    verb, user = verb.lower(), command["user_id"]
    ref, _, text = args.strip().partition(" ")
    if verb == "export":
        _, count = await share_export(
            deps, client, deal_id=deal_id, channel=command["channel_id"], thread_ts=None, user=user
        )
        await _say(respond, render_notice(f"⬇️ Shared the Q&A list ({count} rows) here."))
        return
    if verb and (verb not in ("answered", "edit", "remove") or not ref):
        await _say(respond, render_notice(QA_USAGE))
        return
    notice = ""
    if verb == "answered":
        item = await deps.deals.mark_answered(deal_id, ref, by=user, answer=text)
        notice = f"✅ Q{item.number} marked answered by {who(user)}."
    elif verb == "remove":
        item = await deps.deals.remove_question(deal_id, ref, by=user)
        notice = f"🗑 Q{item.number} removed by {who(user)} (the audit log keeps its text)."
    elif verb == "edit":
        field, _, value = text.partition(" ")
        if field.lower() == "priority" and value.strip().lower() in {p.value for p in QAPriority}:
            change = {"priority": QAPriority(value.strip().lower())}
        elif field.lower() == "category" and value.strip():
            change = {"category": value.strip()}
        elif text.strip():
            change = {"question": text}
        else:
            await _say(respond, render_notice(QA_USAGE))
            return
        item = await deps.deals.edit_question(deal_id, ref, by=user, **change)
        notice = f"✏️ Q{item.number} edited by {who(user)}."
    await _say(respond, render_qa_list(deal_id, await deps.deals.questions(deal_id), notice))


@handles("docs")
async def docs(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is not None:
        await _say(respond, render_documents(deal_id, await deps.deals.documents(deal_id)))


@handles("deal")
async def deal(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    """Without an id: this channel's link only. With one: link it to that existing deal; with
    `new <id>`: create the deal and link it. A link is announced in the channel."""
    key = _channel_key(command)
    if not rest:
        await _say(respond, render_binding(await deps.deals.deal_of(key)))
        return
    deal_id, create = deal_request(rest)
    membership = SlackMembership(client)
    try:
        binding = await deps.deals.bind(
            key, deal_id, by=command["user_id"], membership=membership, create=create
        )
    except BindingRefusedError as refused:
        await _say(respond, render_refusal(refused))
        return
    message = render_bound(binding, command["user_id"])
    if binding.changed:
        await _post(client, respond, command["channel_id"], message)
    else:
        await _say(respond, message)


@handles("unlink")
async def unlink(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    membership = SlackMembership(client)
    try:
        deal_id = await deps.deals.unbind(
            _channel_key(command), by=command["user_id"], membership=membership
        )
    except BindingRefusedError as refused:
        await _say(respond, render_refusal(refused))
        return
    announcement = render_unbound_announcement(deal_id, command["user_id"])
    await _post(client, respond, command["channel_id"], announcement)


@handles("help")
async def help_(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    await _say(respond, render_help())


# ---------------------------------------------------------------- routing


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


def _missing_handlers() -> list[str]:
    return [c.name for c in SUBCOMMANDS if c.name not in HANDLERS and c.name not in MODALS]


def _ack_now(sub: str, rest: str) -> SlackMessage | None:
    """The ack's own reply for help and usage mistakes; None when a job will answer."""
    if sub == "help":
        return render_help()
    if sub not in BY_NAME:
        return render_help(
            f"I don't know `{SLASH} {escape(plain(sub, 40))}`. Here is what I can do:"
        )
    spec = BY_NAME[sub]
    if spec.needs_args and not rest:
        return render_notice(f"Add {spec.args} after the command: {spec.usage}.")
    if sub == "deal" and rest:
        deal_id, create = deal_request(rest)
        if create and not deal_id:
            return render_notice(
                f"Add the new deal's id: `{SLASH} deal {NEW_DEAL} <id>` (for example "
                f"`{SLASH} deal {NEW_DEAL} falcon`)."
            )
        if not DEAL_ID.match(deal_id):
            return render_notice(
                f"`{escape(plain(deal_id, 80))}` is not a deal id: use lower-case letters, "
                f"digits, `-` and `_` (for example `{SLASH} deal falcon`)."
            )
    return None


def deal_request(rest: str) -> tuple[str, bool]:
    """`/manda deal <id>` links an existing deal; `/manda deal new <id>` creates one."""
    first, _, after = rest.strip().partition(" ")
    if first.lower() == NEW_DEAL:
        return after.strip(), True
    return rest.strip(), False


def register(app: AsyncApp, deps: Deps) -> None:
    if missing := _missing_handlers():
        raise RuntimeError(f"commands without a handler in bot.listeners.commands: {missing}")

    def start(
        name: str, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
    ) -> None:
        deps.jobs.spawn(
            _run(deps, HANDLERS[name], client, respond, command, rest, name),
            name=f"{SLASH} {name}",
        )

    @app.command(SLASH)
    async def manda(
        ack: AsyncAck, command: Command, client: AsyncWebClient, respond: AsyncRespond
    ) -> None:
        sub, rest = parse(command.get("text", ""))
        reply = _ack_now(sub, rest)
        if reply is not None:
            await ack(text=reply.text, blocks=reply.blocks)
            return
        await ack()
        if sub in MODALS:  # its trigger_id lives 3 s: the modal opens here, in the ack path
            try:
                await MODALS[sub](deps, client, respond, command)
            except Exception as exc:
                log.exception("/manda %s could not open its modal", sub)
                await _say(respond, render_error(exc, f"run `{SLASH} {sub}`"))
            return
        start(sub, client, respond, command, rest)

    def shortcut_of(name: str) -> Callable[..., Awaitable[None]]:
        # Bolt passes listener arguments by name, so the subcommand is closed over, not passed.
        async def run_shortcut(
            ack: AsyncAck, command: Command, client: AsyncWebClient, respond: AsyncRespond
        ) -> None:
            await ack()
            start(name, client, respond, command, "")

        return run_shortcut

    for shortcut, spec in SHORTCUTS.items():
        app.command(shortcut)(shortcut_of(spec.name))
