"""The seller's answered Q&A file dropped in a deal channel (imported, not ingested as a room
document; one summary in its thread with buttons for the answers Manda is unsure of; the same
file twice changes nothing), `/manda changes` and `/manda digest`, through the fake Slack and
signed requests as Slack sends them."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from fixtures.qa_answers import ANSWERS, QUESTIONS
from slackworld import SlackWorld

from bot import ids
from bot.digest import post_due_digests
from bot.fakeslack import Message
from manda.models import utcnow

DEAL = "targetco"


def ephemerals(world: SlackWorld, user_id: str, channel_id: str) -> list[str]:
    return [m.all_text() for m in world.ws.ephemerals(user_id, channel_id)]


def buttons(message: Message) -> list[dict[str, str]]:
    return [e for b in message.blocks if b.get("type") == "actions" for e in b["elements"]]


async def _ask_the_seller(world: SlackWorld) -> None:
    for text, category in QUESTIONS:
        await world.manda.deals.add_question(DEAL, text, by=world.alice.id, category=category)


async def test_an_answered_q_and_a_file_dropped_in_the_channel_is_imported_once(
    world: SlackWorld,
) -> None:
    await _ask_the_seller(world)
    before = {d.filename for d in await world.manda.graph.list_documents(DEAL)}
    upload = await world.fake.upload(world.alice, world.deal, [("Falcon_QA_log.csv", ANSWERS)])
    await world.settle()

    [summary] = world.replies(world.deal, upload.ts)  # one message in the file's thread
    text = summary.all_text()
    assert ("📥 *targetco*: the Q&A answers of `Falcon_QA_log.csv` — 3 answered, 1 needs a "
            "follow-up, 1 contradicts TargetCo_Q3_2024_Report.pdf") in text
    assert "1 answer to place on its question" in text
    assert "*Q2* Please provide the signed customer contracts" in text and "follow-up *Q4*" in text
    assert "is *€5.6M* in the answer, *€5.2M* in TargetCo_Q3_2024_Report.pdf" in text
    assert "Row 5: “What was Q3 revenue?”" in text and "Is it *Q1*" in text
    assert "?”?" not in text  # the quoted question ends the sentence with its own mark
    assert {b["action_id"] for b in buttons(summary)} >= {ids.QA_PLACE, ids.QA_PLACE_NEW}
    assert "IRL coverage unchanged (" in text and "open questions 3 → 1" in text

    documents = {d.filename for d in await world.manda.graph.list_documents(DEAL)}
    assert "Falcon_QA_log.csv" not in documents  # not a room document …
    assert documents - before == {"Q&A #1", "Q&A #2", "Q&A #3"}  # … its answers are
    questions = {q.number: q for q in await world.manda.deals.questions(DEAL)}
    assert [questions[n].status for n in (1, 2, 3)] == ["answered", "closed", "answered"]

    audit = await world.manda.deals.audit_log(DEAL)
    again = await world.fake.upload(world.bob, world.deal, [("Falcon_QA_log.csv", ANSWERS)])
    await world.settle()
    [repeat] = world.replies(world.deal, again.ts)
    assert "nothing new: the 3 answers of this file were imported before" in repeat.all_text()
    assert {d.filename for d in await world.manda.graph.list_documents(DEAL)} == documents
    assert {q.number: q for q in await world.manda.deals.questions(DEAL)} == questions
    assert await world.manda.deals.audit_log(DEAL) == audit

    # The unsure answer is a new question of its own, as alice says; the summary shows it.
    [apart] = [b for b in buttons(summary) if b["action_id"] == ids.QA_PLACE_NEW]
    await world.fake.click(world.alice, summary, ids.QA_PLACE_NEW, value=apart["value"])
    await world.settle()
    placed = world.ws.find(world.deal.id, summary.ts)
    assert placed is not None and "1 new question added" in placed.all_text()
    assert not any(b["action_id"] == ids.QA_PLACE_NEW for b in buttons(placed))
    assert len(await world.manda.deals.questions(DEAL)) == len(questions) + 1


async def test_manda_changes_answers_in_the_channel(world: SlackWorld) -> None:
    await _ask_the_seller(world)
    await world.fake.upload(world.alice, world.deal, [("Falcon_QA_log.csv", ANSWERS)])
    await world.settle()
    await world.fake.slash(world.alice, world.deal, "/manda", "changes")
    await world.settle()
    [changes] = ephemerals(world, world.alice.id, world.deal.id)
    assert changes.startswith("*What changed in targetco* in the last 7 days: ")
    assert "⚠️ *New conflict*: Revenue Q3 2024" in changes
    assert "💬 *Q&A answered*: Q1 What was revenue in Q3 2024?" in changes
    assert "answered 4 Nov 2024 by CFO" in changes

    await world.fake.slash(world.alice, world.deal, "/manda", "changes")
    await world.settle()
    again = ephemerals(world, world.alice.id, world.deal.id)[-1]
    assert again.startswith("*What changed in targetco* since you last asked") and \
        again.endswith(": nothing.")
    await world.fake.slash(world.alice, world.deal, "/manda", "changes last tuesday-ish")
    await world.settle()
    assert "is not a date: try `/manda changes 2024-11-01`" in ephemerals(
        world, world.alice.id, world.deal.id)[-1]


async def test_the_daily_digest_is_kept_refused_to_outsiders_and_posted_once_a_day(
    world: SlackWorld,
) -> None:
    deals = world.manda.deals
    await world.fake.slash(world.eve, world.deal, "/manda", "digest on 08:30")
    await world.settle()
    [refused] = ephemerals(world, world.eve.id, world.deal.id)
    assert "Only members of this channel" in refused and "nothing was changed" in refused
    key = f"slack:{world.ws.team_id}:{world.deal.id}"
    assert await deals.digest_setting(DEAL, key) is None

    await world.fake.slash(world.alice, world.deal, "/manda", "digest on 08:30")
    await world.settle()
    [on] = world.ws.bot_messages(world.deal.id)
    assert f"<@{world.alice.id}> turned the daily digest of *targetco* on: every day at " \
           "08:30" in on.all_text()
    setting = await deals.digest_setting(DEAL, key)
    assert setting is not None and setting.by == world.alice.id

    today = utcnow().date()

    def morning(day: int) -> datetime:  # 08:30 in any zone Slack may give alice has passed
        return datetime.combine(today + timedelta(days=day), time(23, 59), tzinfo=UTC)

    client = world.bot.bolt.client
    assert await post_due_digests(world.bot.deps, client, morning(0)) == 0  # nothing changed
    await _ask_the_seller(world)
    await world.fake.upload(world.alice, world.deal, [("Falcon_QA_log.csv", ANSWERS)])
    await world.settle()
    posts = len(world.ws.bot_messages(world.deal.id))
    assert await post_due_digests(world.bot.deps, client, morning(0)) == 0  # done for the day
    assert await post_due_digests(world.bot.deps, client, morning(1)) == 1
    digest = world.ws.bot_messages(world.deal.id)[-1]
    assert len(world.ws.bot_messages(world.deal.id)) == posts + 1
    assert digest.all_text().startswith("☀️ *Daily digest of targetco* — what changed since ")
    assert await post_due_digests(world.bot.deps, client, morning(1)) == 0  # not twice a day
    assert await post_due_digests(world.bot.deps, client, morning(2)) == 0  # nothing new

    await world.fake.slash(world.bob, world.deal, "/manda", "digest off")
    await world.settle()
    assert await deals.digest_setting(DEAL, key) is None
    assert "turned the daily digest of *targetco* off" in world.ws.bot_messages(
        world.deal.id)[-1].all_text()


async def test_a_fact_told_in_the_thread_is_noted_and_shows_in_what_changed(
    world: SlackWorld,
) -> None:
    await world.fake.slash(world.bob, world.deal, "/manda", "changes")  # bob has caught up
    await world.settle()
    said = await world.fake.mention(
        world.alice, world.deal, "note: management said Q4 2024 revenue will land at €5.5M")
    await world.settle()
    [noted] = world.replies(world.deal, said.ts)
    text = noted.all_text()
    assert text.startswith("📝 Noted, as told by Alice on ") and "(not in a document)" in text
    assert {b["action_id"] for b in buttons(noted)} >= {ids.APPROVE_FINDING}
    told = [f for f in await world.manda.graph.list_findings(DEAL, subject="revenue")
            if f.period == "Q4 2024"]
    assert [(f.value, f.status.value) for f in told] == [(5_500_000.0, "pending")]

    await world.fake.slash(world.bob, world.deal, "/manda", "changes")
    await world.settle()
    changes = ephemerals(world, world.bob.id, world.deal.id)[-1]
    assert changes.startswith("*What changed in targetco* since you last asked")
    assert "📝 *Told in a thread*: told by Alice on " in changes
    assert "fact noted from Alice (waits for review)" in changes
