"""Pure Block Kit rendering: messages stay inside Slack's limits; buttons carry typed payloads."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from bot import ids
from bot.blocks.answer import render_answer
from bot.blocks.changes import render_changes
from bot.blocks.home import HomeDeal, render_home
from bot.blocks.ingest import recount_review, render_summary
from bot.blocks.kit import mark_done
from bot.blocks.layout import FIRST_SCREEN_CHARS
from bot.blocks.qa import render_qa_list
from bot.blocks.review import decision_note, render_review_queue
from bot.fakeslack.blockkit import validate_blocks
from bot.payloads import (
    MAX_SUGGESTIONS,
    VALUE_LIMIT,
    AddToQA,
    Decision,
    OpenReview,
    StaleButtonError,
    SuggestedQuestions,
    Suggestion,
    Undo,
)
from manda.answers import Answer, Citation, Intent, SuggestedAction
from manda.deals import ChangeItem, DealChanges, ReviewPage, Urgency
from manda.models import (
    CarriedDecision,
    Confidence,
    Finding,
    FindingKind,
    IngestReport,
    Location,
    QAItem,
    ReviewDecision,
    ReviewDecisionKind,
    SkippedFile,
)

# A question that does not compress (hex digests), so it must be shortened to fit a button.
LONG_QUESTION = "".join(hashlib.sha256(str(i).encode()).hexdigest() for i in range(80))


def finding(n: int, *, priority: str = "normal", deal: str = "targetco") -> Finding:
    return Finding(
        id=f"f_{deal}_{n:04d}",
        deal_id=deal,
        document_id="d_1",
        kind=FindingKind.METRIC,
        subject="revenue",
        label="Revenue",
        period=f"Q{n % 4 + 1} 2024",
        value=5.2e6,
        unit="EUR",
        value_text="€5.2M",
        excerpt="Revenue for the quarter was €5.2M <!channel> " + "x" * 400,
        location=Location.for_page(n),
        confidence=0.6,
        confidence_level=Confidence.MEDIUM,
        review_priority=priority,  # type: ignore[arg-type]
    )


def buttons(blocks: list[dict]) -> list[dict]:
    return [e for b in blocks if b["type"] == "actions" for e in b["elements"]]


def test_a_huge_answer_is_one_message_slack_accepts_with_the_rest_behind_show_more() -> None:
    body = "\n".join(f"- Cost line {i} rose to €{i}.0M (source: Report_{i}.pdf, p.{i})"
                      for i in range(60))
    answer = Answer(
        answer="Costs rose in every line (source: Report_0.pdf, p.0).\n\n" + body
        + " <!channel>",
        intent=Intent.DEEP_DIVE,
        citations=[
            Citation(
                document=f"Report_{i}.pdf",
                location=f"p.{i}",
                page=i,
                excerpt="…",
                finding_id=f"f_targetco_{i:04d}",
            )
            for i in range(60)
        ],
        suggested_actions=[
            SuggestedAction(type="add_to_qa", question=LONG_QUESTION, category="Financial"),
            *[
                SuggestedAction(type="add_to_qa", question=f"Why did cost {i} rise?")
                for i in range(10)
            ],
        ],
        conversation_id="slack:T1:C1:1.000001",
        notices=["The model was unavailable; this answer was composed offline."],
    )
    rendered = render_answer(
        answer,
        deal_id="targetco",
        question="Tell me everything",
        pending=[finding(i) for i in range(8)],
        documents={"d_1": "Q3_Report.pdf"},
    )
    blocks = rendered.blocks()
    assert validate_blocks(blocks) == [] and validate_blocks(rendered.tail) == []
    assert 0 < len(rendered.text) <= 3000
    assert rendered.layout.shown.startswith("Costs rose in every line [1]")
    assert len(rendered.layout.shown) <= FIRST_SCREEN_CHARS + 100
    assert "Cost line 59" in rendered.layout.more
    sources = " ".join(
        e["text"]
        for b in blocks
        if b.get("block_id", "").startswith(ids.SOURCES)
        for e in b["elements"]
    )
    assert "[1] Report_0.pdf · p.0" in sources and "Report_59.pdf" not in sources
    actions = {e["action_id"] for e in buttons(blocks)}
    assert actions == {
        ids.QA_OPEN,
        ids.APPROVE_FINDING,
        ids.REJECT_FINDING,
        ids.FEEDBACK_UP,
        ids.FEEDBACK_DOWN,
        ids.ANSWER_SHOW_MORE,
        ids.ANSWER_MENU,  # the overflow menu: "How I answered"
    }
    assert all(len(e.get("value", "")) <= VALUE_LIMIT for e in buttons(blocks))
    assert sum(e["action_id"] == ids.APPROVE_FINDING for e in buttons(blocks)) == 5
    [offer] = [e for e in buttons(blocks) if e["action_id"] == ids.QA_OPEN]
    offered = SuggestedQuestions.decode(offer["value"]).questions
    assert len(offered) == 11 and offered[0].question.endswith("…")  # shortened, editable
    assert [q.question for q in offered[1:]] == [f"Why did cost {i} rise?" for i in range(10)]
    assert offer["text"]["text"] == "📝 Add to Q&A… (11 questions)"
    assert "<!channel>" not in str(blocks)


def test_no_data_answer_offers_the_question_for_the_qa_list() -> None:
    answer = Answer(
        answer="I searched the financial statements and found nothing on carbon.",
        intent=Intent.FACT_LOOKUP,
        conversation_id="c",
    )
    blocks = render_answer(answer, deal_id="targetco",
                           question="What is the carbon footprint?").blocks()
    [add] = [e for e in buttons(blocks) if e["action_id"] == ids.QA_OPEN]
    payload = SuggestedQuestions.decode(add["value"])
    assert [q.question for q in payload.questions] == ["What is the carbon footprint?"]
    assert payload.deal_id == "targetco" and add["text"]["text"] == "📝 Add to Q&A…"


def test_a_cited_answer_without_suggestions_has_no_qa_button() -> None:
    answer = Answer(
        answer="Q3 revenue was €5.2M (source: Q3.pdf, p.3).",
        intent=Intent.FACT_LOOKUP,
        conversation_id="c",
        citations=[Citation(document="Q3.pdf", location="p.3", excerpt="…")],
    )
    rendered = render_answer(answer, deal_id="targetco", question="Q3 revenue?")
    blocks = rendered.blocks()
    assert not any(e["action_id"] == ids.QA_OPEN for e in buttons(blocks))
    assert rendered.layout.shown == "Q3 revenue was €5.2M [1]."
    assert "[1] Q3.pdf · p.3" in str(blocks) and "Show more" not in str(blocks)


def test_many_suggestions_travel_deflated_and_whole() -> None:
    questions = [
        Suggestion(q=f"Please provide the signed {kind} for {year}, with any side letters "
                     "and amendments agreed since signing", c="Legal")
        for kind in ("customer contracts", "leases", "loan agreements", "supply contracts",
                     "employment contracts", "licences")
        for year in (2021, 2022, 2023, 2024, 2025)
    ]
    assert len(questions) == MAX_SUGGESTIONS
    offer = SuggestedQuestions.fitted(deal_id="targetco", questions=questions, source="IRL")
    value = offer.encode()
    plain_json = offer.model_dump_json(by_alias=True, exclude_none=True)
    assert len(plain_json) > VALUE_LIMIT >= len(value) and value.startswith("z:")
    assert SuggestedQuestions.decode(value).questions == questions  # nothing shortened
    with pytest.raises(StaleButtonError):
        SuggestedQuestions.decode("z:not-deflated")


def test_payloads_round_trip_and_refuse_tampering() -> None:
    value = AddToQA.fitted(deal_id="d", question='é"' * 3000, source="x" * 5000).encode()
    assert len(value) <= VALUE_LIMIT
    assert AddToQA.decode(value).question.startswith('é"')
    assert Decision.decode(Decision(d="d", f="f_1").encode()).finding_id == "f_1"
    with pytest.raises(StaleButtonError):
        Decision.decode('{"d": "d"}')
    with pytest.raises(StaleButtonError):
        Decision.decode("click_me_123")


def test_mark_done_replaces_only_the_clicked_button() -> None:
    qa = AddToQA(d="d", q="one").encode(), AddToQA(d="d", q="two").encode()
    blocks = [
        {"type": "section", "text": {"type": "mrkdwn", "text": "answer"}},
        {
            "type": "actions",
            "block_id": ids.QA_ACTIONS,
            "elements": [
                {
                    "type": "button",
                    "action_id": ids.add_to_qa(0),
                    "value": qa[0],
                    "text": {"type": "plain_text", "text": "1"},
                },
                {
                    "type": "button",
                    "action_id": ids.add_to_qa(1),
                    "value": qa[1],
                    "text": {"type": "plain_text", "text": "2"},
                },
            ],
        },
    ]
    once = mark_done(
        blocks, block_id=ids.QA_ACTIONS, action_id=ids.add_to_qa(0), value=qa[0], note="added one"
    )
    assert [e["value"] for e in buttons(once)] == [qa[1]]
    assert "added one" in str(once)
    # a second click on the same (stale) button changes nothing more
    assert (
        mark_done(
            once, block_id=ids.QA_ACTIONS, action_id=ids.add_to_qa(0), value=qa[0], note="again"
        )
        == once
    )
    twice = mark_done(
        once, block_id=ids.QA_ACTIONS, action_id=ids.add_to_qa(1), value=qa[1], note="added two"
    )
    assert buttons(twice) == [] and validate_blocks(twice) == []


def test_review_queue_shows_excerpt_source_and_two_buttons() -> None:
    findings = [finding(i, priority="high" if i == 0 else "normal") for i in range(14)]
    page = ReviewPage(
        deal_id="targetco",
        findings=findings[:10],
        total=14,
        offset=0,
        document_names={"d_1": "Q3_Report.pdf"},
        urgency={findings[0].id: Urgency("high", ("failed a check",))},
        headings={findings[1].id: "Revenue bridge"},
    )
    message = render_review_queue(page)
    assert validate_blocks(message.blocks) == []
    text = str(message.blocks)
    assert (
        "14 findings of targetco" in text
        and "1–10, most urgent first" in text
        and "Q3_Report.pdf, p.0" in text
        and "high priority — failed a check" in text
        and "> *Revenue bridge*" in text
    )
    assert "&lt;!channel&gt;" in text and "Next 4 →" in text
    pairs = [b for b in message.blocks if b["type"] == "actions"]
    assert len(pairs) == 11  # ten Approve / Reject pairs and the paging
    next_page = OpenReview.decode(pairs[-1]["elements"][0]["value"])
    assert next_page.offset == 10
    assert [e["action_id"] for e in pairs[0]["elements"]] == [
        ids.APPROVE_FINDING,
        ids.REJECT_FINDING,
    ]
    decision = ReviewDecision(
        finding_id="f_targetco_0000",
        deal_id="targetco",
        decision=ReviewDecisionKind.APPROVE,
        by="U0ALICE",
        at=datetime(2025, 1, 2, 3, 4, tzinfo=UTC),
    )
    assert decision_note(decision) == "✅ Approved by <@U0ALICE> · 2025-01-02 03:04 UTC"


def test_ingest_summary_names_each_bad_file_and_offers_review() -> None:
    report = IngestReport(
        deal_id="falcon",
        ingested=["Q3_Report.pdf"],
        skipped=[SkippedFile(filename="broken.pdf", reason="is not a valid PDF")],
        findings=12,
        auto_approved=9,
        pending_review=3,
    )
    message = render_summary(report)
    assert validate_blocks(message.blocks) == []
    text = str(message.blocks)
    assert "`broken.pdf`: is not a valid PDF" in text and "3 need review" in text
    [review] = buttons(message.blocks)
    assert review["action_id"] == ids.OPEN_REVIEW and review["text"]["text"] == "Review 3 findings"


def test_the_summarys_review_count_is_counted_on_from_its_button() -> None:
    def count(blocks: list) -> str | None:
        found = [b for b in buttons(blocks) if b["action_id"] == ids.OPEN_REVIEW]
        return found[0]["text"]["text"] if found else None

    one = render_summary(IngestReport(deal_id="falcon", ingested=["a.pdf"], pending_review=1))
    assert count(one.blocks) == "Review 1 finding"
    none = recount_review(one.blocks, "falcon", -1)  # decided: nothing waits, no button
    assert count(none) is None and validate_blocks(none) == []
    back = recount_review(none, "falcon", +1)  # undone: it waits again
    assert count(back) == "Review 1 finding" and validate_blocks(back) == []
    assert count(recount_review(back, "falcon", +1)) == "Review 2 findings"
    assert recount_review([{"type": "section", "text": {"type": "mrkdwn", "text": "queue"}}],
                          "falcon", +1)[0]["text"]["text"] == "queue"  # not a summary
    older = [{**b, "elements": [{**b["elements"][0], "value": '{"d":"falcon"}'}]}
             if b.get("block_id") == ids.INGEST_ACTIONS else b for b in one.blocks]
    assert recount_review(older, "falcon", +1) == older  # kept no count: left as it is


def test_ingest_summary_offers_undo_for_each_carried_decision() -> None:
    at = datetime(2024, 10, 2, 9, 30, tzinfo=UTC)
    carried = [CarriedDecision(finding_id=f"f{i}", decision=ReviewDecisionKind.REJECT,
                               by="U0ALICE", at=at, figure=f"EBITDA Q{i} 2024: €1.1M",
                               document="Board_Pack_v2.pdf") for i in range(10)]
    report = IngestReport(deal_id="falcon", ingested=["Board_Pack_v2.pdf"], carried=carried)
    message = render_summary(report)
    assert validate_blocks(message.blocks) == []
    text = str(message.blocks)
    assert "10 decisions carried over" in text and "… and 2 more" in text
    assert ("EBITDA Q0 2024: €1.1M in `Board_Pack_v2.pdf` — rejected by <@U0ALICE> in the "
            "earlier version") in text
    undos = [b["accessory"] for b in message.blocks
             if b.get("accessory", {}).get("action_id") == ids.UNDO_DECISION]
    assert len(undos) == 8
    first = Undo.decode(undos[0]["value"])
    assert (first.deal_id, first.finding_id, first.at) == ("falcon", "f0", at)
    blocks = {b.get("block_id") for b in message.blocks}
    assert ids.decision_block("f0") in blocks  # where the undone note and the pair then go


def test_home_and_qa_list_stay_within_limits() -> None:
    items = [
        QAItem(
            id=f"q{i}",
            deal_id="targetco",
            question=f"Question {i}?" * 20,
            category="Financial",
            created_by="U0ALICE",
            source="Q3.pdf, p.2",
        )
        for i in range(60)
    ]
    qa = render_qa_list("targetco", items)
    assert validate_blocks(qa.blocks) == [] and "60 questions" in str(qa.blocks)
    deals = [
        HomeDeal(
            deal_id=f"deal{i}",
            channels=["C1"],
            documents=3,
            pending=[finding(j, deal=f"deal{i}") for j in range(8)],
            qa_items=items[:7],
        )
        for i in range(6)
    ]
    view = render_home(deals, notice="Only members can approve.")
    assert view["type"] == "home"
    assert validate_blocks(view["blocks"], limit=100) == []
    assert "Not shown for lack of room" in str(
        view["blocks"]
    ) and "Only members can approve." in str(view["blocks"])


def test_what_changed_beyond_the_first_screen_is_counted_by_kind_in_slack_terms() -> None:
    """`/manda changes` lists the most serious 25 and counts the rest by kind, pointing to a
    Slack command (a deal team in Slack has no terminal)."""
    at = datetime(2024, 11, 5, tzinfo=UTC)
    items = ([ChangeItem("conflict", f"Revenue Q{n % 4 + 1} 2024: €5.2M against €5M",
                         "Report.pdf, p.1", at) for n in range(20)]
             + [ChangeItem("document", f"Doc_{n}.pdf (contract) added", f"Doc_{n}.pdf", at)
                for n in range(14)]
             + [ChangeItem("approved", "EBITDA 2023: €3M", "Report.pdf, p.2", at, by="U1")])
    message = render_changes(DealChanges("targetco", at, at, items, since_reason="since 1 Nov"))
    validate_blocks(message.blocks)
    text = " ".join(b["text"]["text"] for b in message.blocks if b["type"] == "section")
    assert "… and 10 more: 9 new documents, 1 finding approved (`/manda changes 2024-11-01`" in text
    assert "manda changes --deal" not in text
