"""What changed between two ingests a day apart: new and replaced documents, restated figures,
new and resolved conflicts, findings approved and rejected, Q&A answered, the IRL coverage before
and after and new red flags, most serious first with their sources; and the channel's daily post
of it, made only when something changed and never twice for the same day."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from manda.app import Manda
from manda.deals import DealChanges
from manda.models import FindingStatus, ReviewDecisionKind, utcnow

DEAL = "targetco"
CHANNEL = "slack:T1:CDEAL"

BOARD_UPDATE = ("# Board update\n\nDate: {day} November 2024.\n\n"
                "Revenue for Q3 2024 was {revenue}.\n")
INSURANCE = """# TargetCo GmbH — Insurance schedule

Date: 4 November 2024.

The company holds the following insurance policies: a D&O insurance policy (limit EUR 5
million), a cyber insurance policy (limit EUR 2 million) and a general liability insurance
policy (limit EUR 10 million).
"""
LEGAL_UPDATE = """# Legal update

Date: 4 November 2024.

In September 2024 TargetCo notified the supervisory authority of a personal data breach: an
unauthorised access exposed the contact data of 1,200 customer users.

Revenue for Q3 2024 was EUR 5.9 million.
"""


class Members:
    """Channel membership as a front end knows it (`manda.deals.Membership`)."""

    def is_direct(self, channel_key: str) -> bool:
        return False

    async def is_member(self, channel_key: str, user: str) -> bool:
        return True


async def _first_ingest(app: Manda, room: Path) -> None:
    """The sample room is already in; the first day adds a board update that disagrees with it
    (Q3 2024 revenue €5.4M against €5.2M) and the team asks the seller two questions."""
    (room / "Board_Update.md").write_text(BOARD_UPDATE.format(day=1, revenue="EUR 5.4 million"))
    await app.ingest.ingest(DEAL, [room / "Board_Update.md"])
    await app.deals.add_question(DEAL, "What was revenue in Q3 2024?", by="U1",
                                 category="Financial")
    await app.deals.add_question(DEAL, "Who audits the company's accounts?", by="U1",
                                 category="Financial")


async def _second_ingest(app: Manda, room: Path, tmp_path: Path) -> tuple[str, str]:
    """A day later: the board update corrected, an insurance schedule (an IRL request the IRL
    calls provided, met at last), a legal update with a data breach and a third Q3 revenue
    figure, the seller's answers, and two review decisions. The approved and rejected labels."""
    (room / "Board_Update.md").write_text(BOARD_UPDATE.format(day=2, revenue="EUR 5.2 million"))
    (room / "TargetCo_Insurance_Schedule.md").write_text(INSURANCE)
    (room / "Legal_Update_Nov_2024.md").write_text(LEGAL_UPDATE)
    await app.ingest.ingest(DEAL, [room])
    answers = tmp_path / "answers.csv"
    answers.write_text("No.,Question,Answer,Answered by,Answer date\n"
                       "1,What was revenue in Q3 2024?,Q3 2024 revenue was EUR 5.2 million.,"
                       "CFO,2024-11-04\n"
                       "2,Who audits the company's accounts?,Kessler Hartmann Audit GmbH.,"
                       "CFO,2024-11-04\n", encoding="utf-8")
    await app.deals.import_answers(DEAL, answers, by="U2")
    pending = [f for f in await app.graph.list_findings(DEAL, status=FindingStatus.PENDING)
               if f.value is not None]
    approve, reject = pending[0], pending[1]
    await app.deals.decide(DEAL, approve.id, ReviewDecisionKind.APPROVE, by="U1")
    await app.deals.decide(DEAL, reject.id, ReviewDecisionKind.REJECT, by="U1",
                           reason="a forecast, not an actual")
    return approve.label, reject.label


def _kinds(changes: DealChanges) -> list[str]:
    return [i.kind for i in changes.items]


async def test_what_changed_between_two_ingests_a_day_apart(app: Manda, tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    await _first_ingest(app, room)
    first_day = utcnow()
    quiet = await app.deals.changes(DEAL, since=first_day, remember=False)
    assert not quiet and quiet.headline() == "nothing changed"

    approved, rejected = await _second_ingest(app, room, tmp_path)
    changes = await app.deals.changes(DEAL, since=first_day, remember=False)
    kinds = _kinds(changes)
    assert kinds == sorted(kinds, key=["conflict", "restated", "red_flag", "resolved",
                                       "replaced", "answered", "document", "told", "rejected",
                                       "approved", "irl"].index)  # most serious first
    by_kind = {k: [i for i in changes.items if i.kind == k] for k in kinds}

    # the new €5.9M against the room's two figures: one conflict (the room's own €5.2M against
    # the presentation's €5M was known before, whoever sides with it now)
    [conflict] = by_kind["conflict"]
    assert conflict.text.startswith("Revenue Q3 2024: €5.9M (Legal_Update_Nov_2024.md) against ")
    assert " and €5M (TargetCo_Management_Presentation.pptx)" in conflict.text or \
        conflict.text.endswith("and €5.2M (TargetCo_Q3_2024_Report.pdf, TargetCo_Financials.xlsx, "
                               "Board_Update.md, Q&A #1)")
    assert "Legal_Update_Nov_2024.md, Legal update" in conflict.source
    [restated] = by_kind["restated"]
    assert restated.text == "Revenue Q3 2024 restated from €5.4M to €5.2M"
    assert restated.source.startswith("Board_Update.md")
    # the first day's €5.4M against the report's €5.2M and the presentation's €5M, gone
    [resolved] = by_kind["resolved"]
    assert resolved.text.startswith(
        "no longer in conflict — Revenue Q3 2024: €5.4M (Board_Update.md) against ")
    assert "€5M (TargetCo_Management_Presentation.pptx)" in resolved.text
    [flag] = by_kind["red_flag"]
    assert flag.text.startswith("Data-protection incident: “") and "data breach" in flag.text
    assert flag.source.startswith("Legal_Update_Nov_2024.md")
    [replaced] = by_kind["replaced"]
    assert replaced.text.startswith("Board_Update.md: a new version replaces the one added ")
    assert sorted(i.source for i in by_kind["document"]) == [
        "Legal_Update_Nov_2024.md", "TargetCo_Insurance_Schedule.md"]
    answered = {i.text.split(" ", 1)[0]: i for i in by_kind["answered"]}
    assert set(answered) == {"Q1", "Q2"}
    assert answered["Q1"].source.endswith("answered 4 Nov 2024 by CFO")
    assert "“Q3 2024 revenue was EUR 5.2 million.”" in answered["Q1"].text
    assert [(i.text.split(":")[0], i.by) for i in by_kind["approved"]] == [(approved, "U1")]
    [no] = by_kind["rejected"]
    assert no.text.startswith(rejected) and "(a forecast, not an actual)" in no.text
    [irl] = by_kind["irl"]
    assert changes.coverage is not None
    (was, total), (now, _) = changes.coverage
    assert now == was + 1 and irl.text == f"IRL coverage {was}/{total} → {now}/{total}"
    assert changes.headline().startswith("1 new conflict, 1 restated figure, 1 new red flag, "
                                         "1 conflict resolved,")

    # The sample room's corrected annual report, from the start: one restatement, said once
    # with every place of both versions stating it.
    whole = await app.deals.changes(DEAL, since=first_day - timedelta(days=7), remember=False)
    ebitda = [i for i in whole.items if i.kind == "restated" and i.text.startswith("EBITDA FY2023")]
    assert [i.text for i in ebitda] == ["EBITDA FY2023 restated from €3.1M to €2.9M"]
    assert ebitda[0].source.startswith("TargetCo_Annual_Report_2023_CORRECTED.pdf, p.")
    # Three figures of one line item disagree pairwise: one line, each figure said once.
    revenue = [i.text for i in whole.items
               if i.kind == "conflict" and i.text.startswith("Revenue Q3 2024:")]
    assert len(revenue) == 1 and revenue[0].count("€5M (") == 1, revenue

    # Nothing happened since the second day: nothing to say.
    assert not await app.deals.changes(DEAL, since=utcnow(), remember=False)


async def test_since_a_person_last_asked(app: Manda, tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    first = await app.deals.changes(DEAL, viewer="U1")
    assert first.since_reason == "in the last 7 days" and first  # the sample room is new
    again = await app.deals.changes(DEAL, viewer="U1")
    assert not again and again.since_reason.startswith("since you last asked")
    (room / "TargetCo_Insurance_Schedule.md").write_text(INSURANCE)
    await app.ingest.ingest(DEAL, [room])
    later = await app.deals.changes(DEAL, viewer="U1")
    assert [i.source for i in later.items if i.kind == "document"] == [
        "TargetCo_Insurance_Schedule.md"]
    assert (await app.deals.changes(DEAL, viewer="U2")).since_reason == "in the last 7 days"


async def test_the_daily_digest_posts_only_when_something_changed_once_a_day(
    app: Manda, tmp_path: Path
) -> None:
    room = tmp_path / "room"
    room.mkdir()
    deals = app.deals
    await deals.bind(CHANNEL, DEAL, by="U1", membership=Members())
    await _first_ingest(app, room)
    setting = await deals.set_digest(DEAL, CHANNEL, "08:30", by="U1", zone="Europe/Berlin")
    assert setting is not None and setting.shown == "08:30 (Europe/Berlin)"
    today = utcnow().date()

    def morning(day: int, hour: int = 9) -> datetime:  # Berlin is an hour or two ahead of UTC
        return datetime.combine(today + timedelta(days=day), time(hour), tzinfo=UTC)

    assert await deals.due_digests(morning(0, 5)) == []  # 06:00/07:00 in Berlin: not yet

    async def run_digests(now: datetime) -> list[DealChanges]:
        """What a worker does at `now`: the due digests worked out, posted when not empty."""
        posted = []
        for due, day in await deals.due_digests(now):
            assert await deals.claim_digest(due, day)
            changes = await deals.digest(due, now)
            await deals.digest_done(due, day, posted=changes.headline() if changes else None,
                                    until=now)
            if changes:
                posted.append(changes)
        return posted

    assert await run_digests(morning(0)) == []  # turned on after the first ingest: no news
    assert await deals.due_digests(morning(0, 20)) == []  # that day's is done

    await _second_ingest(app, room, tmp_path)
    [digest] = await run_digests(morning(1))
    assert {"conflict", "restated", "red_flag", "resolved", "replaced", "answered",
            "document", "approved", "rejected", "irl"} <= set(_kinds(digest))
    assert digest.since_reason.startswith("since ")
    assert await run_digests(morning(1, 15)) == []  # not twice for the same day
    assert await run_digests(morning(2)) == []  # nothing changed since that post

    await deals.set_digest(DEAL, CHANNEL, None, by="U1")
    assert await deals.digest_setting(DEAL, CHANNEL) is None
    assert await deals.due_digests(morning(3)) == []


async def test_a_change_made_while_a_digest_is_posted_is_in_the_next_one(
    app: Manda, tmp_path: Path
) -> None:
    """A digest is recorded at the end of what it reported, not when its post returned: a
    finding decided in between (Slack was slow) is reported the next day, not lost."""
    room = tmp_path / "room"
    room.mkdir()
    deals = app.deals
    await deals.bind(CHANNEL, DEAL, by="U1", membership=Members())
    await _first_ingest(app, room)
    setting = await deals.set_digest(DEAL, CHANNEL, "00:00", by="U1", zone="UTC")
    assert setting is not None
    reported_until = utcnow()
    first = await deals.digest(setting, reported_until)
    pending = [f for f in await app.graph.list_findings(DEAL, status=FindingStatus.PENDING)
               if f.value is not None]
    await deals.decide(DEAL, pending[0].id, ReviewDecisionKind.APPROVE, by="U1")  # meanwhile
    await deals.digest_done(setting, reported_until.date(),
                            posted=first.headline() if first else None, until=reported_until)
    later = await deals.digest(setting, utcnow() + timedelta(days=1))
    assert "approved" in _kinds(later)
