"""An agent `Answer` as Slack messages: text, notices, sources and the buttons to click."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot import ids
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    contexts,
    fallback,
    plural,
)
from bot.blocks.layout import Footnote, Layout, digest, lay_out
from bot.blocks.mrkdwn import escape, plain
from bot.blocks.trace import answer_menu
from bot.payloads import AddToQA, Decision, Feedback, ShowMore
from manda.answers import Answer, Citation
from manda.models import Finding

MAX_SOURCES = 40  # four context blocks
MAX_DECISIONS = 5  # findings offered for approval under one answer
MAX_QA_BUTTONS = 5


def source_label(citation: Citation) -> str:
    return f"{citation.document}, {citation.location}"


def render_sources(notes: Sequence[Footnote]) -> list[Block]:
    """The footnotes: each file and location once, numbered as the text cites them."""
    labels = [n.mrkdwn() for n in notes]
    if not labels:
        return []
    if len(labels) > MAX_SOURCES:
        extra = len(labels) - (MAX_SOURCES - 1)
        labels = [*labels[: MAX_SOURCES - 1], f"… and {extra} more sources"]
    return contexts(["*Sources*", *labels], block_id=ids.SOURCES)


def markdown_block(text: str, block_id: str) -> Block:
    """Answer text as Slack renders streamed text (standard markdown), so nothing reflows."""
    return {"type": "markdown", "text": text, "block_id": block_id}


def render_show_more(layout: Layout, *, deal_id: str, conversation_id: str,
                     answer_text: str) -> list[Block]:
    """The button that opens the rest of the answer in place (from the stored answer)."""
    if not layout.more:
        return []
    lines = sum(1 for line in layout.more.split("\n") if line.strip())
    value = ShowMore(d=deal_id, c=conversation_id, h=digest(answer_text.strip())).encode()
    return [actions(ids.ANSWER_MORE, [
        button(f"Show more ({plural(lines, 'more line')})", ids.ANSWER_SHOW_MORE, value)])]


def finding_title(finding: Finding) -> str:
    parts = [f"*{escape(finding.label)}*"]
    if finding.period:
        parts.append(escape(finding.period))
    title = " · ".join(parts)
    if finding.value_text:
        title += f": {escape(finding.value_text)}"
    return title


def render_decision_blocks(deal_id: str, finding: Finding, document: str | None) -> list[Block]:
    """A finding waiting for review and its Approve / Reject pair."""
    where = (
        f"{escape(document)}, {escape(finding.location.label)}"
        if document
        else escape(finding.location.label)
    )
    value = Decision(d=deal_id, f=finding.id).encode()
    return [
        context([f"⏳ Waiting for review: {finding_title(finding)} — _{where}_"]),
        actions(
            ids.decision_block(finding.id),
            [
                button("Approve finding", ids.APPROVE_FINDING, value, style="primary"),
                button("Reject", ids.REJECT_FINDING, value, style="danger"),
            ],
        ),
    ]


def qa_payloads(answer: Answer, *, deal_id: str, question: str) -> list[AddToQA]:
    """Questions the agent proposed for the Q&A list; the asked question when nothing was found."""
    first_source = source_label(answer.citations[0]) if answer.citations else None
    payloads = [
        AddToQA.fitted(
            deal_id=deal_id,
            question=action.question,
            category=action.category,
            finding_id=action.finding_id,
            source=first_source,
        )
        for action in answer.suggested_actions
        if action.type == "add_to_qa" and action.question
    ]
    if not payloads and not answer.citations and question.strip():
        payloads.append(AddToQA.fitted(deal_id=deal_id, question=question))
    unique: dict[str, AddToQA] = {}
    for p in payloads:
        unique.setdefault(" ".join(p.question.lower().split()), p)
    return list(unique.values())[:MAX_QA_BUTTONS]


def render_qa_buttons(payloads: Sequence[AddToQA]) -> list[Block]:
    if not payloads:
        return []
    single = len(payloads) == 1
    return [
        actions(
            ids.QA_ACTIONS,
            [
                button(
                    "📝 Add to Q&A" if single else f"📝 Add: {p.question}",
                    ids.add_to_qa(i),
                    p.encode(),
                )
                for i, p in enumerate(payloads)
            ],
        )
    ]


def render_footer(
    answer: Answer,
    *,
    deal_id: str,
    question: str,
    pending: Sequence[Finding] = (),
    documents: dict[str, str] | None = None,
) -> list[Block]:
    """Everything under the answer text and its sources: notices, review, Q&A and feedback."""
    blocks: list[Block] = []
    if answer.notices:
        blocks.append(context([f"⚠️ {escape(n)}" for n in answer.notices]))
    for finding in pending[:MAX_DECISIONS]:
        blocks.extend(
            render_decision_blocks(deal_id, finding, (documents or {}).get(finding.document_id))
        )
    blocks.extend(render_qa_buttons(qa_payloads(answer, deal_id=deal_id, question=question)))
    feedback = Feedback(d=deal_id, c=answer.conversation_id).encode()
    blocks.append(
        actions(
            ids.ANSWER_ACTIONS,
            [button("👍", ids.FEEDBACK_UP, feedback), button("👎", ids.FEEDBACK_DOWN, feedback)],
        )
    )
    blocks.extend(answer_menu(answer, deal_id=deal_id))  # "How I answered"
    return blocks


@dataclass(frozen=True)
class RenderedAnswer:
    """An answer as one message: the first screen (markdown, streamed or posted) and the blocks
    under it (its footnotes, Show more, the footer), which `chat.stopStream` appends."""

    layout: Layout
    tail: list[Block]
    text: str  # the notification text

    def blocks(self, intro: str | None = None) -> list[Block]:
        """The whole message, for where it is posted or replaced rather than streamed."""
        head = [context([intro])] if intro else []
        return [*head, markdown_block(self.layout.shown or " ", ids.ANSWER_BODY), *self.tail]

    def message(self, intro: str | None = None) -> SlackMessage:
        return SlackMessage(text=self.text, blocks=self.blocks(intro))


def render_answer(
    answer: Answer,
    *,
    deal_id: str,
    question: str,
    pending: Sequence[Finding] = (),
    documents: dict[str, str] | None = None,
    links: Mapping[str, str] | None = None,
) -> RenderedAnswer:
    """The answer laid out: lead and first screen, footnotes, Show more, then the footer."""
    layout = lay_out(answer.answer, known_files=[c.document for c in answer.citations],
                     links=links)
    tail = [
        *render_sources(layout.notes_for(layout.shown)),
        *render_show_more(layout, deal_id=deal_id, conversation_id=answer.conversation_id,
                          answer_text=answer.answer),
        *render_footer(answer, deal_id=deal_id, question=question, pending=pending,
                       documents=documents),
    ]
    return RenderedAnswer(layout=layout, tail=tail, text=fallback(plain(layout.shown, 600)))


def expand_in_place(blocks: Sequence[Block], layout: Layout, rest: str) -> list[Block]:
    """The answer message with Show more replaced by the rest and every footnote listed."""
    out: list[Block] = []
    for block in blocks:
        block_id = str(block.get("block_id", ""))
        if block_id == ids.SOURCES or block_id.startswith(f"{ids.SOURCES}."):
            continue
        if block_id == ids.ANSWER_MORE:
            out.append(markdown_block(rest, ids.ANSWER_REST))
            out.extend(render_sources(layout.notes))
            continue
        out.append(block)
    return out


def render_placeholder(line: str) -> SlackMessage:
    """The message an answer will replace, posted at once so people see Manda is on it."""
    return SlackMessage(text=fallback(line), blocks=[context([f"⏳ {line}"])])
