"""`/manda timeline` in Slack: a compact dated list with sources, upcoming events marked, filters
by date and category, Show more for the next page, and usage for words it cannot read."""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids
from bot.blocks.timeline import PAGE


async def test_the_timeline_pages_with_show_more(world: SlackWorld) -> None:
    every = (await world.manda.deals.timeline("targetco")).events
    events = [e for e in every if e.category != "document"]  # listed when asked for
    assert len(events) > PAGE  # the sample room has more than one page
    await world.fake.slash(world.alice, world.deal, "/manda", "timeline")
    await world.settle()
    [first] = [m for m in world.ws.bot_messages(world.deal.id) if "Timeline of" in m.all_text()]
    text = first.all_text()
    assert f"events 1–{PAGE} of {len(events)}" in text
    assert f"*{events[0].label}* · {events[0].title.split(' — ')[0]}" in text
    assert events[0].citations[0].document in text
    assert f"{len(every) - len(events)} documents' own dates not listed" in text

    await world.fake.click(world.alice, first, ids.TIMELINE_MORE)
    await world.settle()
    [more] = world.replies(world.deal, first.ts)
    assert f"events {PAGE + 1}–" in more.all_text()
    upcoming = [e for e in events if e.upcoming]
    assert upcoming and all(
        f"⏳ *{e.label}*" in text + more.all_text() for e in upcoming
    ), "upcoming events are marked"


async def test_the_timeline_filters_by_range_and_category(world: SlackWorld) -> None:
    await world.fake.slash(world.alice, world.deal, "/manda", "timeline 2025 2027 contract")
    await world.settle()
    [shown] = [m for m in world.ws.bot_messages(world.deal.id) if "Timeline of" in m.all_text()]
    text = shown.all_text()
    assert "(from 2025-01-01, to 2027-12-31, category contract)" in text
    assert "Contract expires — Globex AG" in text
    assert "Loan matures" not in text and "Claim filed" not in text

    await world.fake.slash(world.alice, world.deal, "/manda", "timeline next-week")
    await world.settle()
    [usage] = world.ws.ephemerals(world.alice.id, world.deal.id)
    assert "I can't read `next-week`" in usage.all_text()
    assert "`2024-06-30`, `2024-06` or `2024`" in usage.all_text()
