"""Confidentiality in Slack: a deal is reached only through its channels, links are announced,
and a refusal is ephemeral and names no deal."""

from __future__ import annotations

from slackworld import SlackWorld

from bot.conversations import channel_key
from manda.deals import AccessRules


def ephemerals(world: SlackWorld, user_id: str, channel_id: str) -> list[str]:
    return [m.all_text() for m in world.ws.ephemerals(user_id, channel_id)]


async def test_someone_outside_the_deal_channel_cannot_link_another_channel_to_it(
    world: SlackWorld,
) -> None:
    # eve is in the lobby but not in #deal-targetco, which is linked to targetco
    await world.fake.slash(world.eve, world.lobby, "/manda", "deal targetco")
    await world.settle()
    [refusal] = ephemerals(world, world.eve.id, world.lobby.id)
    assert "🔒" in refusal and "targetco" not in refusal and "northwind" not in refusal
    assert world.ws.bot_messages(world.lobby.id) == []
    lobby = channel_key(world.ws.team_id, world.lobby.id)
    assert await world.manda.graph.channel_deal(lobby) is None

    # alice is in the deal channel: she may link the lobby too, and the channel is told
    await world.fake.slash(world.alice, world.lobby, "/manda", "deal targetco")
    await world.settle()
    [announced] = world.ws.bot_messages(world.lobby.id)
    assert f"<@{world.alice.id}> linked this channel to deal *targetco*" in announced.all_text()


async def test_with_deal_admins_a_non_admin_is_refused_and_nothing_is_created(
    world: SlackWorld,
) -> None:
    world.manda.deals.rules = AccessRules(deal_admins=frozenset({world.bob.id}))
    await world.fake.slash(world.alice, world.lobby, "/manda", "deal falcon")
    await world.fake.slash(world.alice, world.deal, "/manda", "unlink")
    await world.settle()
    refusals = ephemerals(world, world.alice.id, world.lobby.id) + ephemerals(
        world, world.alice.id, world.deal.id
    )
    assert len(refusals) == 2 and all("deal admins" in r for r in refusals)
    assert all("falcon" not in r and "targetco" not in r for r in refusals)
    assert await world.manda.graph.get_deal("falcon") is None

    await world.fake.slash(world.bob, world.lobby, "/manda", "deal falcon")
    await world.settle()
    [announced] = world.ws.bot_messages(world.lobby.id)
    assert "new deal" in announced.all_text()
