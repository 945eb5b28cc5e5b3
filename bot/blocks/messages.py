"""Short messages: help, how to bind a channel, the deal list, the documents, and errors."""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.kit import Block, SlackMessage, context, cut, fallback, plural, section
from bot.blocks.mrkdwn import escape, plain
from manda.errors import MandaError
from manda.models import Deal, Document, DocumentRole, DocumentStatus

HELP = """*Manda* answers from this channel's deal documents, with sources.
• `@Manda <question>` — answered in a thread; reply in that thread to follow up.
• `/manda ask <question>` — the same, from the message box.
• `/manda gaps` or `/gaps` — what the data room is missing against the request list.
• `/manda redflags` or `/redflags` — contradictions, gaps and unusual items.
• `/manda review` — findings waiting for a human, with Approve / Reject.
• `/manda qa` — the deal's Q&A list.
• `/manda docs` — the indexed documents and their status.
• `/manda deal [id]` — bind this channel to a deal (lists the deals without an id).
• Drop files in a deal channel to ingest them."""

DOCS_PAGE = 40


def render_help(note: str | None = None) -> SlackMessage:
    blocks: list[Block] = []
    if note:
        blocks.append(section(note))
    blocks.append(section(HELP))
    return SlackMessage(text=fallback(note or "How to use Manda"), blocks=blocks)


def deal_names(deals: Sequence[Deal]) -> str:
    return ", ".join(f"`{escape(d.id)}`" for d in deals) or "none yet"


def render_unbound(deals: Sequence[Deal], where: str = "This channel") -> SlackMessage:
    text = (
        f"{where} is not linked to a deal yet, so I can't answer from any documents here. "
        f"Run `/manda deal <id>` here to link it. Deals: {deal_names(deals)}."
    )
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def render_deal_list(deals: Sequence[Deal], current: str | None) -> SlackMessage:
    now = (
        f"This channel is linked to *{escape(current)}*."
        if current
        else "This channel is not linked to a deal."
    )
    lines = [
        now,
        f"Deals: {deal_names(deals)}",
        "Link it with `/manda deal <id>` (a new id starts an empty deal).",
    ]
    text = "\n".join(lines)
    return SlackMessage(text=fallback(now), blocks=[section(text)])


def render_bound(deal_id: str, user: str, previous: str | None, created: bool) -> SlackMessage:
    text = f"🔗 <@{user}> linked this channel to deal *{escape(deal_id)}*"
    if previous and previous != deal_id:
        text += f" (it was linked to *{escape(previous)}*)"
    text += "."
    if created:
        text += " It is a new deal with no documents yet: drop files here to ingest them."
    else:
        text += " Ask with `@Manda <question>` or `/manda help`."
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def _doc_line(doc: Document) -> str:
    status = {
        DocumentStatus.COMPLETED: "✅",
        DocumentStatus.FAILED: "❌",
        DocumentStatus.RUNNING: "⏳",
        DocumentStatus.PENDING: "⏳",
    }[doc.status]
    name = escape(plain(doc.filename, 150))
    role = "" if doc.role is DocumentRole.OTHER else doc.role.value.replace("_", " ") + ", "
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
