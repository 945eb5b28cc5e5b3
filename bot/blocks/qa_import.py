"""The summary of an answered Q&A file read back into the deal: one line of counts, what was
answered, what needs a follow-up, what contradicts the room, and the answers Manda could not
place for sure, each with a button for the question it answers."""

from __future__ import annotations

from dataclasses import replace

from bot import ids
from bot.blocks.ingest import review_actions
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    fallback,
    plural,
    section,
    sections,
)
from bot.blocks.mrkdwn import escape, plain
from bot.payloads import PlaceAnswer
from manda.deals import NEW_QUESTION, QAImport, UnsureMatch

MAX_LISTED = 12
MAX_UNSURE = 10  # two blocks each, under Slack's 50


def _answered(result: QAImport) -> str:
    lines = []
    for a in [a for a in result.changed if a.follow_up is None][:MAX_LISTED]:
        lines.append(f"✅ *Q{a.number}* {escape(plain(a.question, 160))} → "
                     f"“{escape(plain(a.answer, 220))}” _({escape(a.citation)})_")
    more = len([a for a in result.changed if a.follow_up is None]) - MAX_LISTED
    if more > 0:
        lines.append(f"… and {more} more answered")
    return "\n".join(lines)


def _follow_ups(result: QAImport) -> str:
    return "\n".join(
        f"↪️ *Q{a.number}* {escape(plain(a.question, 160))} — the answer "
        f"{escape(plain(a.why_follow_up, 160))}: follow-up *Q{a.follow_up}* added"
        for a in result.follow_ups[:MAX_LISTED])


def _conflicts(result: QAImport) -> str:
    lines = []
    for number, changes in sorted(result.conflicts.items()):
        for c in changes[:3]:
            period = f" {escape(c.period)}" if c.period else ""
            lines.append(f"⚠️ *Q{number}*: {escape(c.label)}{period} is *{escape(c.here)}* in "
                         f"the answer, *{escape(c.there)}* in {escape(c.other_source)}")
    return "\n".join(lines[:MAX_LISTED])


def unsure_blocks(deal_id: str, file_id: str, unsure: UnsureMatch) -> list[Block]:
    shortened = replace(unsure, candidate_question=plain(unsure.candidate_question, 300))
    text = (f"❓ Row {unsure.row}: “{escape(plain(unsure.question, 300))}” → "
            f"“{escape(plain(unsure.answer, 300))}”\nIs it *Q{unsure.candidate}* "
            f"{escape(shortened.quoted_candidate())}")
    attach = PlaceAnswer(d=deal_id, x=file_id, r=unsure.row, n=unsure.candidate).encode()
    apart = PlaceAnswer(d=deal_id, x=file_id, r=unsure.row, n=NEW_QUESTION).encode()
    return [section(text[:2900]), actions(ids.place_block(unsure.row), [
        button(f"Yes, it answers Q{unsure.candidate}", ids.QA_PLACE, attach, style="primary"),
        button("No, a new question", ids.QA_PLACE_NEW, apart)])]


def render_qa_import(result: QAImport, *, by: str | None = None) -> SlackMessage:
    deal = escape(result.deal_id)
    head = (f"📥 *{deal}*: the Q&A answers of `{escape(plain(result.filename, 150))}` — "
            f"{escape(result.headline())}")
    blocks: list[Block] = [{**section(head[:2900]), "block_id": ids.QA_IMPORT_SUMMARY}]
    for title, body in (("Answered", _answered(result)),
                        ("Need a follow-up", _follow_ups(result)),
                        ("Contradicts the data room", _conflicts(result))):
        if body:
            blocks.extend(sections(f"*{title}*\n{body}"))
    if result.added:
        blocks.append(section(f"*{plural(len(result.added), 'question')} of the file were not "
                              "on the list* and were added: "
                              + ", ".join(f"Q{i.number}" for i in result.added[:30])))
    if result.unsure:
        blocks.append(section("*Answers I could not place for sure* — which question does each "
                              "answer?"))
        for unsure in result.unsure[:MAX_UNSURE]:
            blocks.extend(unsure_blocks(result.deal_id, result.file_id, unsure))
        if len(result.unsure) > MAX_UNSURE:
            blocks.append(context([f"{len(result.unsure) - MAX_UNSURE} more: place them with "
                                   f"`manda qa import --deal {deal} FILE --match ROW=N`."]))
    (was, total), (now, _) = result.coverage
    opened, still = result.open_questions
    facts = [f"IRL coverage {was}/{total} → {now}/{total}" if now != was
             else f"IRL coverage unchanged ({now}/{total})",
             f"open questions {opened} → {still}" if still != opened
             else f"open questions unchanged ({still})"]
    if result.unanswered:
        facts.append(f"{plural(result.unanswered, 'question')} of the file still unanswered")
    facts.append("figures from the answers wait for review; each answer is cited as "
                 "“Q&A #N, answered … by …”")
    blocks.append(context([" · ".join(facts)]))
    pending = result.report.pending_review if result.report else 0
    if pending:
        blocks.append(review_actions(result.deal_id, pending))
    return SlackMessage(text=fallback(head), blocks=blocks[:50])
