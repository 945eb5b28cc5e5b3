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
from bot.blocks.trace import answer_menu
from bot.payloads import AddToQA, Decision, Feedback
from manda.answers import Answer, Citation
from manda.models import Finding

MAX_SOURCES = 40  # four context blocks
MAX_DECISIONS = 5  # findings offered for approval under one answer
MAX_QA_BUTTONS = 5


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
    """Everything under the answer text: notices, sources, review buttons, Q&A and feedback."""
    blocks: list[Block] = []
    if answer.notices:
        blocks.append(context([f"⚠️ {escape(n)}" for n in answer.notices]))
    blocks.extend(render_sources(answer.citations))
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
