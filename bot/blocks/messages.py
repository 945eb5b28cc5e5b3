"""Short messages: help, how to link a channel, its link, the documents, and errors."""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.kit import Block, SlackMessage, context, cut, fallback, plural, section
from bot.blocks.mrkdwn import escape, plain
from bot.commands import help_lines
from manda.deals import Binding, BindingRefusedError, Refusal
from manda.errors import MandaError
from manda.ingest.parsers.formats import readable_formats
from manda.models import Document, DocumentRole, DocumentStatus

HELP_TITLE = "*Manda* answers from this channel's deal documents, with sources."
HELP_FOOTER = (f"Drop files in a deal channel to ingest them: {readable_formats()}, or a whole "
               "data room as a ZIP export.")

DOCS_PAGE = 40


def render_help(note: str | None = None) -> SlackMessage:
    """`/manda help`, rendered from the command table."""
    lines = [HELP_TITLE, *(f"• {line}" for line in help_lines()), f"• {HELP_FOOTER}"]
    blocks: list[Block] = []
    if note:
        blocks.append(section(note))
    blocks.append(section("\n".join(lines)))
    return SlackMessage(text=fallback(note or "How to use Manda"), blocks=blocks)


def render_unbound(where: str = "This channel") -> SlackMessage:
    """How to link a conversation to a deal; never which deals exist (they are confidential)."""
    text = (
        f"{where} is not linked to a deal yet, so I can't answer from any documents here. "
        "Run `/manda deal <id>` here to link it to your deal (ask your deal team for its id), "
        "or `/manda deal new <id>` to start a new deal."
    )
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def render_binding(current: str | None) -> SlackMessage:
    """`/manda deal` without an id: this channel's link only, never the other deals."""
    if current:
        text = (
            f"This channel is linked to *{escape(current)}*. "
            "`/manda unlink` unlinks it."
        )
    else:
        text = (
            "This channel is not linked to a deal. Link it with `/manda deal <id>`, or start a "
            "new deal with `/manda deal new <id>`."
        )
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def render_bound(binding: Binding, user: str) -> SlackMessage:
    """The announcement in the channel that it was linked (everyone there sees who did it)."""
    deal_id = escape(binding.deal_id)
    if not binding.changed:
        text = f"This channel is already linked to deal *{deal_id}*; nothing changed."
    else:
        text = f"🔗 <@{user}> linked this channel to deal *{deal_id}*."
    if binding.created:
        text += " It is a new deal with no documents yet: drop files here to ingest them."
    else:
        text += " Ask with `@Manda <question>` or `/manda help`."
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def render_unbound_announcement(deal_id: str, user: str) -> SlackMessage:
    """The announcement in the channel that it was unlinked from its deal."""
    text = (
        f"🔓 <@{user}> unlinked this channel from deal *{escape(deal_id)}*. "
        "I will not answer from its documents here any more; `/manda deal <id>` links it again."
    )
    return SlackMessage(text=fallback(text), blocks=[section(text)])


NEXT_STEP = {
    Refusal.NOT_ADMIN: "Ask one of the deal admins to do it.",
    Refusal.NOT_LINKABLE: (
        "Ask someone in the deal's channel to run the command here, or start a new deal with "
        "`/manda deal new <id>`."
    ),
    Refusal.NAME_TAKEN: "Choose another id for the new deal.",
    Refusal.NEW_IN_DIRECT: "Run `/manda deal new <id>` in the deal team's channel.",
    Refusal.NOT_A_MEMBER: "Ask someone in this channel to run the command.",
    Refusal.ALREADY_LINKED: "`/manda deal` shows the link; `/manda unlink` removes it first.",
    Refusal.NOT_LINKED: "`/manda deal <id>` links it.",
}


def render_refusal(error: BindingRefusedError) -> SlackMessage:
    """A refused link or unlink, for the person who asked only; it names no deal."""
    text = f"🔒 {escape(error.message)} {NEXT_STEP[error.reason]}"
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def _doc_line(doc: Document) -> str:
    status = {
        DocumentStatus.COMPLETED: "✅",
        DocumentStatus.FAILED: "❌",
        DocumentStatus.RUNNING: "⏳",
        DocumentStatus.PENDING: "⏳",
    }[doc.status]
    name = escape(plain(doc.filename, 150))
    role = "" if doc.role is DocumentRole.OTHER else doc.role.label + ", "
    line = f"{status} `{name}` — {role}{doc.file_type}, {plural(doc.units, 'unit')}"
    if doc.doc_date:
        line += f", dated {doc.doc_date.isoformat()}"
    if doc.status is DocumentStatus.FAILED and doc.error:
        line += f"\n    _{escape(plain(doc.error, 300))}_"
    return line


def render_documents(deal_id: str, documents: Sequence[Document]) -> SlackMessage:
    if not documents:
        text = (
            f"*{escape(deal_id)}* has no documents yet. Drop files in this channel to ingest them."
        )
        return SlackMessage(text=fallback(text), blocks=[section(text)])
    docs = sorted(documents, key=lambda d: d.filename.lower())
    ok = sum(d.status is DocumentStatus.COMPLETED for d in docs)
    title = f"*Documents of {escape(deal_id)}* — {ok} of {len(docs)} ingested"
    blocks: list[Block] = [section(title)]
    chunk: list[str] = []
    for line in (_doc_line(d) for d in docs[:DOCS_PAGE]):
        if sum(len(x) + 1 for x in chunk) + len(line) > 2900:
            blocks.append(section("\n".join(chunk)))
            chunk = []
        chunk.append(line)
    if chunk:
        blocks.append(section("\n".join(chunk)))
    if len(docs) > DOCS_PAGE:
        blocks.append(
            context(
                [
                    f"… and {len(docs) - DOCS_PAGE} more "
                    f"(`manda docs --deal {escape(deal_id)}` lists all)."
                ]
            )
        )
    return SlackMessage(text=fallback(title), blocks=blocks)


def error_text(exc: BaseException, doing: str) -> str:
    """What went wrong while `doing` something, written for the person who asked."""
    if isinstance(exc, MandaError):
        return f"⚠️ I could not {doing}: {escape(str(exc))}"
    if isinstance(exc, TimeoutError):
        return (
            f"⚠️ I could not {doing}: it took too long. "
            "Try a narrower question, or try again in a minute."
        )
    return (
        f"⚠️ I could not {doing}: something went wrong on my side ({escape(type(exc).__name__)}). "
        "Try again; if it keeps failing, ask whoever runs Manda to check its log "
        "and run `manda doctor`."
    )


def render_error(exc: BaseException, doing: str) -> SlackMessage:
    text = error_text(exc, doing)
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def render_notice(text: str) -> SlackMessage:
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def render_reading(title: str) -> SlackMessage:
    """What only the person who ran a slash command sees while Manda reads: the answer will be
    a new message in the channel, so this stays true once it is there."""
    line = f"⏳ {title} — reading the documents; the answer will be posted in this channel."
    return SlackMessage(text=fallback(line), blocks=[context([line])])
