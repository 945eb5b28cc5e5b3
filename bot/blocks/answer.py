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
from bot.payloads import Decision, Feedback, ShowMore, SuggestedQuestions, Suggestion
from manda.answers import Answer, Caution, Citation
from manda.finance.amounts import shown_as_written
from manda.models import Finding, Nature

MAX_SOURCES = 40  # four context blocks
MAX_DECISIONS = 5  # findings offered for approval under one answer


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


CAUTION_MARK = {"not_met": "⚠️", "left_out": "⚠️", "still_applying": "ℹ️"}


def render_cautions(cautions: Sequence[Caution]) -> list[Block]:
    """The answer's cautions (not met and why, left out: ⚠️; still applying from the thread: ℹ️),
    a line each, set apart under the text so a reader sees at once what the answer could not do
    as asked."""
    if not cautions:
        return []
    return [context(["\n".join(f"{CAUTION_MARK[c.kind]} {escape(c.text)}" for c in cautions)],
                    block_id=ids.ANSWER_CAUTIONS)]


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


# ---------------------------------------------------------------- footer: review and Q&A actions

APPROVAL_MEANS = (  # what approval changes: agent.selection._authority, cim.drafting
    "_Approve_ = you checked the figure against its source (recorded with your name). Answers "
    "cite an approved statement before unchecked ones, after corrections and audited or final "
    "documents: approving does not settle a conflict or hide other documents' figures. The CIM "
    "builds on approved figures first. _Reject_ (with a reason) = Manda stops using it in answers."
)


def figure_line(finding: Finding, document: str | None) -> str:
    """What a pending finding says, in full: subject, value with its unit, period and source."""
    if finding.value is not None and finding.unit:
        value = shown_as_written(finding.value, finding.unit, (finding.value_text or "").strip())
    else:
        value = (finding.value_text or "").strip() or "no figure"
        if finding.value is not None:
            value += " (no unit stated in the source)"
    period = finding.period or "no period stated"
    if finding.nature is Nature.FORECAST:
        period += ", forecast"
    where = f"{document}, {finding.location.label}" if document else finding.location.label
    return (
        f"⏳ *{escape(finding.label)}* · {escape(period)}: *{escape(value)}* — "
        f"_{escape(where)}_"
    )


def decision_pair(deal_id: str, finding_id: str) -> Block:
    """The Approve / Reject pair of one finding (its block is replaced by the decision)."""
    value = Decision(d=deal_id, f=finding_id).encode()
    return actions(
        ids.decision_block(finding_id),
        [
            button("Approve finding", ids.APPROVE_FINDING, value, style="primary"),
            button("Reject…", ids.REJECT_FINDING, value, style="danger"),
        ],
    )


def render_decision_blocks(deal_id: str, finding: Finding, document: str | None) -> list[Block]:
    """A finding the answer relies on, waiting for review, and its Approve / Reject pair."""
    return [context([figure_line(finding, document)]), decision_pair(deal_id, finding.id)]


def render_decisions(
    deal_id: str, pending: Sequence[Finding], documents: dict[str, str] | None = None
) -> list[Block]:
    """The pending findings an answer relies on, then one line on what deciding means."""
    blocks: list[Block] = []
    for finding in pending[:MAX_DECISIONS]:
        blocks.extend(
            render_decision_blocks(deal_id, finding, (documents or {}).get(finding.document_id))
        )
    if blocks:
        blocks.append(context([APPROVAL_MEANS]))
    return blocks


def suggested_questions(
    answer: Answer, *, deal_id: str, question: str
) -> SuggestedQuestions | None:
    """Questions the agent proposed for the Q&A list; the asked question when nothing was found."""
    proposed = [
        Suggestion(q=a.question, c=a.category or "General", f=a.finding_id)
        for a in answer.suggested_actions
        if a.type == "add_to_qa" and a.question
    ]
    if not proposed and not answer.citations and question.strip():
        proposed.append(Suggestion(q=question))
    unique: dict[str, Suggestion] = {}
    for s in proposed:
        unique.setdefault(" ".join(s.question.lower().split()), s)
    if not unique:
        return None
    first_source = source_label(answer.citations[0]) if answer.citations else None
    return SuggestedQuestions.fitted(
        deal_id=deal_id, questions=list(unique.values()), source=first_source
    )


def render_qa_offer(offer: SuggestedQuestions | None) -> list[Block]:
    """One "Add to Q&A…" button: its modal lists the questions to tick, reword and classify."""
    if offer is None:
        return []
    count = len(offer.questions)
    text = "📝 Add to Q&A…" if count == 1 else f"📝 Add to Q&A… ({count} questions)"
    return [actions(ids.QA_ACTIONS, [button(text, ids.QA_OPEN, offer.encode())])]


def render_feedback(deal_id: str, conversation_id: str) -> Block:
    """👍 records at once; 👎 asks what was wrong first."""
    value = Feedback(d=deal_id, c=conversation_id).encode()
    return actions(
        ids.ANSWER_ACTIONS,
        [button("👍", ids.FEEDBACK_UP, value), button("👎", ids.FEEDBACK_DOWN, value)],
    )


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
    blocks.extend(render_decisions(deal_id, pending, documents))
    blocks.extend(render_qa_offer(suggested_questions(answer, deal_id=deal_id, question=question)))
    blocks.append(render_feedback(deal_id, answer.conversation_id))
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
        *render_cautions(answer.cautions),
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

