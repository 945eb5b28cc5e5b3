"""The deal's confidentiality rules, in the deal service every front end uses: who may link a
channel to a deal, unlink it, and approve its findings; links are audited; refusals name no deal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from manda.app import Manda
from manda.config import Settings
from manda.deals import AccessRules, BindingRefusedError, DealService, Refusal
from manda.models import Deal

T1, T2 = "slack:T1", "slack:T2"
DEAL_ROOM, LOBBY, OTHER, DM = (f"{T1}:C_ROOM", f"{T1}:C_LOBBY", f"{T1}:C_OTHER", f"{T1}:D_ANN")


class Members:
    """A front end's channels and their people (one-to-one conversations start with D)."""

    def __init__(self, channels: dict[str, set[str]]) -> None:
        self.channels = channels
        self.asked: list[str] = []

    def is_direct(self, channel_key: str) -> bool:
        return channel_key.rpartition(":")[2].startswith("D")

    async def is_member(self, channel_key: str, user: str) -> bool:
        self.asked.append(channel_key)
        return user in self.channels.get(channel_key, set())


@pytest.fixture
def members() -> Members:
    return Members(
        {
            DEAL_ROOM: {"ann", "bob"},
            LOBBY: {"ann", "bob", "eve"},
            OTHER: {"eve"},
            DM: {"ann"},
        }
    )


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Manda]:
    app = Manda(Settings(MANDA_HOME=tmp_path))
    await app.graph.start()  # the rules need the graph only
    try:
        yield app
    finally:
        await app.graph.aclose()


@pytest.fixture
def deals(store: Manda) -> DealService:
    return store.deals


async def refused(reason: Refusal, call) -> BindingRefusedError:  # type: ignore[no-untyped-def]
    with pytest.raises(BindingRefusedError) as caught:
        await call
    assert caught.value.reason is reason
    return caught.value


async def test_the_first_link_is_free_and_later_ones_need_a_member_of_a_linked_channel(
    deals: DealService, members: Members
) -> None:
    first = await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members, create=True)
    assert (first.created, first.changed, first.previous) == (True, True, None)
    assert await deals.get("falcon") is not None

    error = await refused(
        Refusal.NOT_LINKABLE, deals.bind(OTHER, "falcon", by="eve", membership=members)
    )
    assert "falcon" not in str(error)  # a refusal never names a deal
    assert await deals.deal_of(OTHER) is None

    await deals.bind(LOBBY, "falcon", by="bob", membership=members)  # bob is in the deal room
    assert await deals.channels_of("falcon", T1) == sorted([DEAL_ROOM, LOBBY])
    audit = await deals.audit_log("falcon")
    assert [(e.action, e.subject_id, e.by) for e in audit] == [
        ("channel.bound", DEAL_ROOM, "ann"),
        ("channel.link_refused", OTHER, "eve"),  # the deal team can see who tried
        ("channel.bound", LOBBY, "bob"),
    ]


async def test_linking_never_creates_a_deal_and_says_the_same_whether_it_exists_or_not(
    deals: DealService, members: Members
) -> None:
    """Issue 26, item 4: `/manda deal <name>` was a probe that created and linked a new deal."""
    await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members, create=True)
    absent = await refused(
        Refusal.NOT_LINKABLE, deals.bind(OTHER, "osprey", by="eve", membership=members)
    )
    present = await refused(
        Refusal.NOT_LINKABLE, deals.bind(OTHER, "falcon", by="eve", membership=members)
    )
    assert (absent.message, absent.hint) == (present.message, present.hint)
    assert await deals.get("osprey") is None and await deals.deal_of(OTHER) is None
    # the same from a one-to-one conversation, and for a deal admin asking for a missing deal
    for where in (DM, OTHER):
        dm = await refused(Refusal.NOT_LINKABLE, deals.bind(where, "osprey", by="eve",
                                                             membership=members))
        assert dm.message == absent.message
    deals.rules = AccessRules(deal_admins=frozenset({"ann"}))
    await refused(Refusal.NOT_LINKABLE, deals.bind(LOBBY, "osprey", by="ann", membership=members))
    await refused(Refusal.NOT_ADMIN, deals.bind(LOBBY, "osprey", by="eve", membership=members))
    await refused(Refusal.NOT_ADMIN, deals.bind(LOBBY, "falcon", by="eve", membership=members))
    assert await deals.get("osprey") is None


async def test_a_new_deal_is_created_only_on_purpose_and_never_over_an_existing_one(
    deals: DealService, members: Members
) -> None:
    made = await deals.bind(OTHER, "osprey", by="eve", membership=members, create=True)
    assert (made.created, made.changed) == (True, True)
    taken = await refused(
        Refusal.NAME_TAKEN, deals.bind(LOBBY, "osprey", by="ann", membership=members, create=True)
    )
    assert "osprey" not in str(taken) and await deals.deal_of(LOBBY) is None
    assert [e.action for e in await deals.audit_log("osprey")] == [
        "channel.bound", "deal.create_refused"
    ]
    # not from a one-to-one conversation: a deal is set up in its team's channel
    await refused(
        Refusal.NEW_IN_DIRECT, deals.bind(DM, "kestrel", by="ann", membership=members, create=True)
    )
    assert await deals.get("kestrel") is None


async def test_a_direct_conversation_neither_claims_nor_blocks_a_deal_nor_vouches(
    store: Manda, deals: DealService, members: Members
) -> None:
    """Issue 26, item 3: a DM linked to a free deal blocked every group channel from it."""
    await store.graph.upsert_deal(Deal(id="falcon", name="Falcon"))  # ingested from a terminal
    await refused(Refusal.NOT_LINKABLE, deals.bind(DM, "falcon", by="ann", membership=members))
    assert await deals.deal_of(DM) is None
    await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members)  # still free: first link
    await deals.bind(DM, "falcon", by="ann", membership=members)  # ann is in the deal room
    members.channels[DM].add("eve")  # even if the front end said so, a DM vouches for nobody
    await refused(Refusal.NOT_LINKABLE, deals.bind(OTHER, "falcon", by="eve", membership=members))
    eve_dm = f"{T1}:D_EVE"
    await refused(Refusal.NOT_LINKABLE, deals.bind(eve_dm, "falcon", by="eve", membership=members))


async def test_a_dm_link_blocks_no_group_channel(
    store: Manda, deals: DealService, members: Members
) -> None:
    deals.rules = AccessRules(deal_admins=frozenset({"ann"}))
    await store.graph.upsert_deal(Deal(id="falcon", name="Falcon"))
    await deals.bind(DM, "falcon", by="ann", membership=members)  # an admin may
    deals.rules = AccessRules()
    # the DM is no channel of the deal for anyone else: the first group link is still free
    await deals.bind(OTHER, "falcon", by="eve", membership=members)
    assert await deals.channels_of("falcon") == sorted([DM, OTHER])


async def test_another_workspace_is_no_claim_on_a_linked_deal(
    deals: DealService, members: Members
) -> None:
    """Issue 26, item 2: a user of another team linked her own channel to a linked deal, decided
    its findings and saw it on her Home tab: membership is asked of the deal's channels, whatever
    the team."""
    await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members, create=True)
    theirs = f"{T2}:C_HERS"
    members.channels[theirs] = {"mallory"}
    await refused(
        Refusal.NOT_LINKABLE, deals.bind(theirs, "falcon", by="mallory", membership=members)
    )
    assert await deals.deal_of(theirs) is None
    for where in (theirs, None):
        assert not await deals.may_decide("falcon", "mallory", membership=members,
                                          channel_key=where)
    assert await deals.visible_deals("mallory", workspace=T2, membership=members) == {}

    # someone of the other team who is in the deal's (shared) channel is one of the deal's people
    members.channels[DEAL_ROOM].add("carol")
    members.channels[theirs].add("carol")
    await deals.bind(theirs, "falcon", by="carol", membership=members)
    assert await deals.may_decide("falcon", "carol", membership=members, channel_key=None)
    assert await deals.visible_deals("carol", workspace=T2, membership=members) == {
        "falcon": [DEAL_ROOM, theirs]
    }


async def test_a_deal_linked_only_in_another_workspace_is_not_free_here(
    store: Manda, deals: DealService, members: Members
) -> None:
    await store.graph.upsert_deal(Deal(id="falcon", name="Falcon"))  # ingested from a terminal
    linked = await deals.bind(OTHER, "falcon", by="eve", membership=members)
    assert (linked.created, linked.changed) == (False, True)
    # another workspace's first link is not free any more: the deal has a channel
    await refused(Refusal.NOT_LINKABLE,
                  deals.bind(f"{T2}:C9", "falcon", by="zed", membership=members))
    members.channels[OTHER].add("zed")  # zed is in the deal's shared channel: he may
    await deals.bind(f"{T2}:C9", "falcon", by="zed", membership=members)
    assert await deals.channels_of("falcon", T2) == [f"{T2}:C9"]


async def test_a_linked_channel_is_never_moved_silently(
    deals: DealService, members: Members
) -> None:
    await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members, create=True)
    error = await refused(
        Refusal.ALREADY_LINKED,
        deals.bind(DEAL_ROOM, "osprey", by="ann", membership=members, create=True),
    )
    assert "falcon" not in str(error) and "osprey" not in str(error)
    assert await deals.get("osprey") is None and await deals.deal_of(DEAL_ROOM) == "falcon"

    again = await deals.bind(DEAL_ROOM, "falcon", by="bob", membership=members)
    assert (again.changed, again.previous) == (False, "falcon")
    assert len(await deals.audit_log("falcon")) == 1  # nothing changed, nothing audited


async def test_unlinking_needs_a_member_of_the_channel_and_is_audited(
    deals: DealService, members: Members
) -> None:
    await deals.bind(LOBBY, "falcon", by="ann", membership=members, create=True)
    await refused(Refusal.NOT_A_MEMBER, deals.unbind(LOBBY, by="zed", membership=members))
    assert await deals.unbind(LOBBY, by="eve", membership=members) == "falcon"
    assert await deals.deal_of(LOBBY) is None
    assert [e.action for e in await deals.audit_log("falcon")] == [
        "channel.bound",
        "channel.unbound",
    ]
    await refused(Refusal.NOT_LINKED, deals.unbind(LOBBY, by="eve", membership=members))


async def test_with_deal_admins_only_they_link_unlink_or_create(
    deals: DealService, members: Members
) -> None:
    deals.rules = AccessRules(deal_admins=frozenset({"ann"}))
    await refused(Refusal.NOT_ADMIN,
                  deals.bind(LOBBY, "falcon", by="bob", membership=members, create=True))
    assert await deals.get("falcon") is None  # not created either
    await deals.bind(LOBBY, "falcon", by="ann", membership=members, create=True)
    # an admin needs no membership, others may not follow a first link
    await deals.bind(OTHER, "falcon", by="ann", membership=members)
    await refused(Refusal.NOT_ADMIN, deals.bind(DEAL_ROOM, "falcon", by="bob", membership=members))
    await refused(Refusal.NOT_ADMIN, deals.unbind(LOBBY, by="bob", membership=members))
    assert await deals.unbind(LOBBY, by="ann", membership=members) == "falcon"


async def test_approvals_come_from_members_of_the_channel_where_the_button_was(
    deals: DealService, members: Members
) -> None:
    await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members, create=True)
    await deals.bind(DM, "falcon", by="ann", membership=members)

    async def may(user: str, where: str | None) -> bool:
        return await deals.may_decide("falcon", user, membership=members, channel_key=where)

    assert await may("bob", DEAL_ROOM)
    assert not await may("eve", DEAL_ROOM)
    assert not await may("eve", LOBBY)  # in the lobby, but the lobby is not the deal's
    assert not await may("bob", LOBBY)
    # a direct conversation or the Home tab: a member of any of the deal's group channels
    assert await may("ann", DM) and await may("bob", None)
    assert not await may("eve", None)

    deals.rules = AccessRules(approvers=frozenset({"eve"}))
    assert await may("eve", LOBBY) and not await may("bob", DEAL_ROOM)


async def test_home_shows_the_deals_of_the_channels_a_person_is_in(
    deals: DealService, members: Members
) -> None:
    await deals.bind(DEAL_ROOM, "falcon", by="ann", membership=members, create=True)
    await deals.bind(OTHER, "osprey", by="eve", membership=members, create=True)
    await deals.bind(f"{T2}:C9", "kestrel", by="zed", membership=members, create=True)
    assert await deals.visible_deals("ann", workspace=T1, membership=members) == {
        "falcon": [DEAL_ROOM]
    }
    deals.rules = AccessRules(approvers=frozenset({"ann"}))
    assert await deals.visible_deals("ann", workspace=T1, membership=members) == {
        "falcon": [DEAL_ROOM],
        "osprey": [OTHER],
    }


async def test_feedback_is_audited_with_its_reason(deals: DealService) -> None:
    entry = await deals.feedback(
        "falcon", "slack:T1:C1:1.0", by="ann", helpful=False, reason=" wrong period "
    )
    assert entry.detail == "not helpful: wrong period"
    assert [e.model_dump() for e in await deals.audit_log("falcon")] == [entry.model_dump()]
