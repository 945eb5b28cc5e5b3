"""Facts told in a thread (`update_knowledge_base`): a finding whose source is the person and the
message, never approved automatically, compared with the room (a later document that disagrees
is a conflict with both sources), cited after the documents, rejected or undone like any
finding; and the guards every front end and Claude share."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from manda.app import Manda
from manda.deals import Teller, note_text
from manda.models import DocumentRole, FindingStatus, ReviewDecisionKind

DEAL = "targetco"
ANA = Teller(user="U1ANA", name="Ana", at=datetime(2024, 11, 3, 9, 30, tzinfo=UTC),
             link="https://falcon.slack.com/archives/C1/p1730626200000100",
             where="slack:T1:C1:1730626200.000100")


class Members:
    """Channel membership as a front end knows it (`manda.deals.Membership`)."""

    def __init__(self, members: dict[str, set[str]]) -> None:
        self._members = members

    def is_direct(self, channel_key: str) -> bool:
        return False

    async def is_member(self, channel_key: str, user: str) -> bool:
        return user in self._members.get(channel_key, set())


@pytest.mark.parametrize(("message", "told"), [
    ("note: management said Q4 revenue will land at €5.5M",
     "management said Q4 revenue will land at €5.5M"),
    ("FYI the CFO expects 120 employees by June", "the CFO expects 120 employees by June"),
    ("Zur Info: Der Umsatz im Q4 liegt bei 5,5 Mio. EUR",
     "Der Umsatz im Q4 liegt bei 5,5 Mio. EUR"),
    ("Pour info : le CA du T4 sera de 5,5 M€", "le CA du T4 sera de 5,5 M€"),
    ("What did management say about Q4?", None),
    ("Can you note the Q4 figure?", None),  # a question that mentions a note is a question
])
def test_a_message_that_tells_a_fact_starts_with_a_note_cue(message: str, told: str | None
                                                             ) -> None:
    assert note_text(message) == told


async def test_a_note_is_a_pending_finding_sourced_to_the_conversation(app: Manda) -> None:
    result = await app.deals.note(
        DEAL, "management said Q4 2024 revenue will land at €5.5M", teller=ANA)
    assert result.name == "told by Ana on 3 Nov 2024"
    assert result.citation == "told by Ana on 3 Nov 2024, not in a document"
    [finding] = result.findings
    assert (finding.subject, finding.period, finding.value) == ("revenue", "Q4 2024", 5_500_000.0)
    assert finding.nature.value == "forecast" and finding.status is FindingStatus.PENDING
    document = await app.graph.get_document(DEAL, finding.document_id)
    assert document is not None and document.role is DocumentRole.THREAD_NOTE
    assert document.metadata["told_by"] == "Ana" and document.metadata["link"] == ANA.link
    links = await app.deals.document_links(DEAL)
    assert links["told by Ana on 3 Nov 2024"] == ANA.link  # the answer's footnote links to it
    again = await app.deals.note(
        DEAL, "management said Q4 2024 revenue will land at €5.5M", teller=ANA)
    assert again.unchanged  # the same message delivered twice keeps one note


async def test_a_sure_figure_told_in_a_thread_is_never_approved_automatically(
    app: Manda,
) -> None:
    result = await app.deals.note(
        DEAL, "The audited accounts state FY2023 revenue of EUR 18.4 million.", teller=ANA)
    assert result.findings and all(f.status is FindingStatus.PENDING for f in result.findings)
    audit = [e.action for e in await app.deals.audit_log(DEAL)
             if e.subject_id in {f.id for f in result.findings}]
    assert "finding.auto_approved" not in audit


async def test_a_note_that_a_later_document_contradicts(app: Manda, tmp_path: Path) -> None:
    told = await app.deals.note(DEAL, "management said Q4 2024 revenue was €5.5M", teller=ANA)
    [figure] = told.findings
    assert figure.nature.value == "actual" and told.conflicts == []  # nothing to compare yet
    since = datetime.now(UTC)
    flash = tmp_path / "TargetCo_Flash_Q4_2024.md"
    flash.write_text("# Flash report Q4 2024\n\nRevenue for Q4 2024 was EUR 5.9 million.\n",
                     encoding="utf-8")
    report = await app.ingest.ingest(DEAL, [flash])
    assert report.contradictions >= 1

    changes = await app.deals.changes(DEAL, since=since, viewer="U2")
    [conflict] = [i for i in changes.items if i.kind == "conflict"]
    assert conflict.text == ("Revenue Q4 2024: €5.9M (TargetCo_Flash_Q4_2024.md) against "
                             "€5.5M (told by Ana on 3 Nov 2024)")
    assert "told by Ana on 3 Nov 2024, not in a document" in conflict.source
    assert changes.items[0] is conflict  # the most serious first

    answer = await app.answers.ask(DEAL, "What was Q4 2024 revenue?")
    assert answer.answer.startswith("Revenue was EUR 5.9 million in Q4 2024")  # the document
    assert "told by Ana on 3 Nov 2024 gives €5.5M" in answer.answer
    assert "(source: told by Ana on 3 Nov 2024, not in a document)" in answer.answer

    await app.deals.decide(DEAL, figure.id, ReviewDecisionKind.REJECT, by="U2",
                           reason="management retracted it")
    assert not await app.graph.list_relations(DEAL, ids=[figure.id])  # it no longer counts
    rejected = await app.deals.changes(DEAL, since=since, viewer="U3")
    assert [i.text for i in rejected.items if i.kind == "rejected"] == [
        "Revenue Q4 2024: €5.5M (management retracted it)"]
    decision = await app.graph.get_decision(DEAL, figure.id)
    assert decision is not None
    await app.deals.undo(DEAL, figure.id, at=decision.at, by="U2")
    assert (await app.deals.finding(DEAL, figure.id)).status is FindingStatus.PENDING
    assert await app.graph.list_relations(DEAL, ids=[figure.id])  # it counts again


async def test_the_guards_a_person_s_actions_share(app: Manda) -> None:
    said = "FYI: management said Q4 2024 revenue will land at €5.5M"
    key = "slack:T1:C1"
    await app.graph.bind_channel(key, DEAL)
    member = await app.deals.actions_for(DEAL, ANA, said=said, workspace="slack:T1",
                                         membership=Members({key: {"U1ANA"}}), channel_key=key)
    # only what the person said: a figure read elsewhere is not "told"
    refused = await member.note("Q3 2024 revenue was €50M")
    assert not refused.done and "not what Ana said" in refused.text
    kept = await member.note("management said Q4 2024 revenue will land at €5.5M")
    assert kept.done and kept.findings and kept.hits
    assert "(source: told by Ana on 3 Nov 2024, not in a document)" in kept.text

    outsider = Teller(user="U9EVE", name="Eve", at=ANA.at)
    other = await app.deals.actions_for(DEAL, outsider, said=said, workspace="slack:T1",
                                        membership=Members({key: {"U1ANA"}}), channel_key=key)
    for acted in (await other.note("management said Q4 2024 revenue will land at €5.5M"),
                  await other.link_entities(["Globex AG", "Globex Holding"]),
                  await other.reanalyse(None)):
        assert not acted.done and "Eve may not change what Manda knows about targetco" in (
            acted.text)
    told = await other.from_message(said)
    assert told is not None and told.kind == "refused"

    linking = await app.deals.actions_for(
        DEAL, ANA, said="note: Globex AG is the same company as Globex Holding",
        workspace="slack:T1", membership=Members({key: {"U1ANA"}}), channel_key=key)
    link = await linking.from_message("note: Globex AG is the same company as Globex Holding")
    assert link is not None and link.kind == "linked"
    assert await app.deals.entity_links(DEAL) == [["Globex AG", "Globex Holding"]]
    not_named = await linking.link_entities(["Globex AG", "Initech"])
    assert not not_named.done and "Initech is not a name Ana gave" in not_named.text
