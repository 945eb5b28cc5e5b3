"""App Home: the deals of the channels a person is in, their review queue and Q&A list."""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids


async def test_home_shows_deals_review_queue_and_qa_list(world: SlackWorld) -> None:
    await world.manda.qa.add(
        "targetco", "Please share the 2024 audited accounts", by=world.bob.id, category="Financial"
    )
    delivery = await world.fake.open_home(world.alice)
    assert delivery.status == 200
    await world.settle()
    view = world.ws.home_views[world.alice.id]
    text = str(view["blocks"])
    pending = await world.manda.review.queue("targetco")
    assert "Deal targetco" in text and f"<#{world.deal.id}>" in text
    assert f"{len(pending)} waiting for review" in text and "2024 audited accounts" in text
    assert "northwind" not in text  # no channel of hers is bound to it

    await world.fake.open_home(world.eve)
    await world.settle()
    assert "No deal is linked to a channel you are in" in str(
        world.ws.home_views[world.eve.id]["blocks"]
    )


async def test_deciding_from_home_records_and_refreshes_it(world: SlackWorld) -> None:
    await world.fake.open_home(world.alice)
    await world.settle()
    before = len(await world.manda.review.queue("targetco"))
    await world.fake.click_home(world.alice, ids.APPROVE_FINDING)
    await world.settle()
    assert len(await world.manda.review.queue("targetco")) == before - 1
    assert len(world.ws.calls_to("views.publish", ok=True)) == 2
    assert f"{before - 1} waiting for review" in str(world.ws.home_views[world.alice.id]["blocks"])
