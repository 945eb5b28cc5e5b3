"""Confidentiality in Slack: a deal is reached only through its channels, links are announced,
and a refusal is ephemeral and names no deal."""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids
from bot.conversations import channel_key
from bot.fakeslack import Channel, User, payloads
from bot.payloads import Decision
from manda.deals import AccessRules
from manda.models import Deal


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
    await world.fake.slash(world.alice, world.lobby, "/manda", "deal new falcon")
    await world.fake.slash(world.alice, world.deal, "/manda", "unlink")
    await world.settle()
    refusals = ephemerals(world, world.alice.id, world.lobby.id) + ephemerals(
        world, world.alice.id, world.deal.id
    )
    assert len(refusals) == 2 and all("deal admins" in r for r in refusals)
    assert all("falcon" not in r and "targetco" not in r for r in refusals)
    assert await world.manda.graph.get_deal("falcon") is None

    await world.fake.slash(world.bob, world.lobby, "/manda", "deal new falcon")
    await world.settle()
    [announced] = world.ws.bot_messages(world.lobby.id)
    assert "new deal" in announced.all_text()


# ---------------------------------------------------------------- issue 26, items 2 to 4

OTHER_TEAM = "TOTHERORG"


async def slash_from(world: SlackWorld, user: User, channel: Channel, text: str,
                     team: str | None = None) -> None:
    """`/manda <text>` as Slack sends it for a person of `team` (an org-wide install or a
    Slack Connect channel carries the person's own team id)."""
    form = payloads.slash_command(world.ws, user, channel, "/manda", text,
                                  world.fake.new_hook(channel.id, user.id))
    if team is not None:
        form["team_id"] = team
    await world.fake.deliver("slash_commands", form)
    await world.settle()


async def test_a_person_of_another_team_cannot_claim_a_linked_deal(world: SlackWorld) -> None:
    mallory = world.ws.add_user("mallory")
    hers = world.ws.add_channel("mallorys-room", members=[mallory.id])
    await slash_from(world, mallory, hers, "deal targetco", team=OTHER_TEAM)
    assert await world.manda.graph.channel_deal(channel_key(OTHER_TEAM, hers.id)) is None
    assert world.ws.bot_messages(hers.id) == []  # no announcement: nothing was linked

    # her Home tab lists no deal, and a forged Approve click from her channel decides nothing
    home = payloads.event_callback(world.ws, payloads.app_home_opened_event(
        world.ws, mallory.id, world.ws.open_im(mallory.id).id))
    home["team_id"] = OTHER_TEAM
    await world.fake.deliver("events_api", home)
    [finding] = (await world.manda.deals.review_page("targetco", limit=1)).findings
    posted = world.fake.post(mallory, hers, "forged")
    element = {"action_id": ids.APPROVE_FINDING, "type": "button",
               "value": Decision(d="targetco", f=finding.id).encode()}
    click = payloads.block_actions(world.ws, mallory, element, "b1",
                                   message={"ts": posted.ts, "blocks": []}, channel=hers)
    click["team"]["id"] = click["user"]["team_id"] = OTHER_TEAM
    await world.fake.deliver("interactive", click)
    await world.settle()
    assert "targetco" not in str(world.ws.home_views.get(mallory.id, {}))
    assert await world.manda.graph.get_decision("targetco", finding.id) is None


async def test_someone_of_another_team_in_the_deals_shared_channel_is_one_of_its_people(
    world: SlackWorld,
) -> None:
    carol = world.ws.add_user("carol")  # of a partner firm, in the shared deal channel
    world.ws.join(world.deal.id, carol.id)
    theirs = world.ws.add_channel("carols-room", members=[carol.id])
    await slash_from(world, carol, theirs, "deal targetco", team=OTHER_TEAM)
    assert await world.manda.graph.channel_deal(channel_key(OTHER_TEAM, theirs.id)) == "targetco"


async def test_a_direct_message_neither_claims_a_free_deal_nor_blocks_its_channel(
    world: SlackWorld,
) -> None:
    await world.manda.graph.upsert_deal(Deal(id="osprey", name="Osprey"))  # from a terminal
    dm = world.ws.open_im(world.eve.id)
    await slash_from(world, world.eve, dm, "deal osprey")
    assert await world.manda.graph.channel_deal(channel_key(world.ws.team_id, dm.id)) is None
    team_room = world.ws.add_channel("deal-osprey", members=[world.bob.id])
    await slash_from(world, world.bob, team_room, "deal osprey")  # the deal team sets up
    key = channel_key(world.ws.team_id, team_room.id)
    assert await world.manda.graph.channel_deal(key) == "osprey"


async def test_linking_an_unknown_deal_answers_as_for_a_deal_one_may_not_see(
    world: SlackWorld,
) -> None:
    await slash_from(world, world.eve, world.lobby, "deal targetco")
    await slash_from(world, world.eve, world.lobby, "deal no-such-deal")
    present, absent = ephemerals(world, world.eve.id, world.lobby.id)
    assert present == absent and "no-such-deal" not in absent
    assert await world.manda.graph.get_deal("no-such-deal") is None  # a probe creates nothing
    assert world.ws.bot_messages(world.lobby.id) == []


async def test_a_new_deal_is_created_by_deal_new_and_announced(world: SlackWorld) -> None:
    await slash_from(world, world.eve, world.lobby, "deal new falcon")
    assert await world.manda.graph.get_deal("falcon") is not None
    [announced] = world.ws.bot_messages(world.lobby.id)
    assert "new deal" in announced.all_text()
    # the same id again, from another channel: refused, nothing linked
    room = world.ws.add_channel("deal-falcon-2", members=[world.alice.id])
    await slash_from(world, world.alice, room, "deal new falcon")
    assert await world.manda.graph.channel_deal(channel_key(world.ws.team_id, room.id)) is None
