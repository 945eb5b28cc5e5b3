"""An agent `Answer` as Slack messages: text, notices, sources and the buttons to click."""

from __future__ import annotations

from collections.abc import Sequence

from bot import ids
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    contexts,
    fallback,
    paginate,
    sections,
)
from bot.blocks.mrkdwn import escape, plain, to_mrkdwn
from bot.payloads import Decision, Feedback, SuggestedQuestions, Suggestion
from manda.answers import Answer, Citation
from manda.finance.amounts import find_amounts, format_amount
from manda.models import Finding, Nature

MAX_SOURCES = 40  # four context blocks
MAX_DECISIONS = 5  # findings offered for approval under one answer


def source_label(citation: Citation) -> str:
    return f"{citation.document}, {citation.location}"


def render_sources(citations: Sequence[Citation]) -> list[Block]:
    """One context element per distinct (file, location), in the order the answer cites them."""
    seen: dict[tuple[str, str], None] = {}
    for c in citations:
        seen.setdefault((c.document, c.location), None)
    labels = [f"📄 {escape(doc)} · {escape(loc)}" for doc, loc in seen]
    if not labels:
        return []
    if len(labels) > MAX_SOURCES:
        extra = len(labels) - (MAX_SOURCES - 1)
        labels = [*labels[: MAX_SOURCES - 1], f"… and {extra} more sources"]
    return contexts(["*Sources*", *labels], block_id=ids.SOURCES)


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
    written = (finding.value_text or "").strip()
    if finding.value is not None and finding.unit:
        stated = find_amounts(written)
        if stated and (stated[0].currency or stated[0].unit):
            value = written  # as the document writes it, with its unit ("€5.0M", "19%")
        else:  # "22,500" in a table in EUR thousands: the amount it stands for, then as written
            value = format_amount(finding.value, finding.unit)
            value += f" (as written: {written})" if written else ""
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


def render_decision_blocks(deal_id: str, finding: Finding, document: str | None) -> list[Block]:
    """A finding the answer relies on, waiting for review, and its Approve / Reject pair."""
    value = Decision(d=deal_id, f=finding.id).encode()
    return [
        context([figure_line(finding, document)]),
        actions(
            ids.decision_block(finding.id),
            [
                button("Approve finding", ids.APPROVE_FINDING, value, style="primary"),
                button("Reject…", ids.REJECT_FINDING, value, style="danger"),
            ],
        ),
    ]


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
    """Everything under the answer text: notices, sources, review buttons, Q&A and feedback."""
    blocks: list[Block] = []
    if answer.notices:
        blocks.append(context([f"⚠️ {escape(n)}" for n in answer.notices]))
    blocks.extend(render_sources(answer.citations))
    blocks.extend(render_decisions(deal_id, pending, documents))
    blocks.extend(render_qa_offer(suggested_questions(answer, deal_id=deal_id, question=question)))
    blocks.append(render_feedback(deal_id, answer.conversation_id))
    return blocks


def render_answer(
    answer: Answer,
    *,
    deal_id: str,
    question: str,
    pending: Sequence[Finding] = (),
    documents: dict[str, str] | None = None,
) -> list[SlackMessage]:
    """The answer as one or more messages (Slack's limits respected); buttons on the last one."""
    text = to_mrkdwn(answer.answer)
    footer = render_footer(
        answer, deal_id=deal_id, question=question, pending=pending, documents=documents
    )
    pages = paginate(sections(text), footer)
    return [
        SlackMessage(
            text=fallback(text if i == 0 else f"(continued) {plain(text, 200)}"), blocks=page
        )
        for i, page in enumerate(pages)
    ]


def render_placeholder(line: str) -> SlackMessage:
    """The message an answer will replace, posted at once so people see Manda is on it."""
    return SlackMessage(text=fallback(line), blocks=[context([f"⏳ {line}"])])
