"""Every slash command: acked at once, results in the channel or only for the person who asked."""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids
from bot.conversations import channel_key
from bot.fakeslack import Message


def root_messages(world: SlackWorld, channel_id: str) -> list[Message]:
    return [m for m in world.ws.bot_messages(channel_id) if not m.is_reply]


def ephemerals(world: SlackWorld, user_id: str, channel_id: str) -> list[str]:
    return [m.all_text() for m in world.ws.ephemerals(user_id, channel_id)]


async def test_help_and_unknown_subcommands_are_the_ack_itself(world: SlackWorld) -> None:
    for text in ("help", "", "frobnicate"):
        delivery = await world.fake.slash(world.alice, world.deal, "/manda", text)
        assert delivery.status == 200 and delivery.json and delivery.json["blocks"]
        assert world.bot.deps.jobs.running == 0  # nothing left to do after the ack
    shown = ephemerals(world, world.alice.id, world.deal.id)
    assert len(shown) == 3 and all("/manda review" in s for s in shown)
    assert "I don't know `/manda frobnicate`" in shown[2]
    assert root_messages(world, world.deal.id) == []


async def test_deal_shows_the_link_only_then_links_and_unlinks_the_channel(
    world: SlackWorld,
) -> None:
    await world.fake.slash(world.alice, world.lobby, "/manda", "deal")
    await world.settle()
    [listing] = ephemerals(world, world.alice.id, world.lobby.id)
    assert "not linked" in listing and "targetco" not in listing and "northwind" not in listing

    bad = await world.fake.slash(world.alice, world.lobby, "/manda", "deal Not A Deal!")
    assert bad.json and "is not a deal id" in str(bad.json["blocks"])

    await world.fake.slash(world.alice, world.lobby, "/manda", "deal northwind")
    await world.settle()
    [bound] = root_messages(world, world.lobby.id)
    assert f"<@{world.alice.id}> linked this channel to deal *northwind*" in bound.all_text()
    lobby = channel_key(world.ws.team_id, world.lobby.id)
    assert await world.manda.graph.channel_deal(lobby) == "northwind"

    # never moved silently: the refusal names no deal, and nothing changes
    await world.fake.slash(world.bob, world.lobby, "/manda", "deal new falcon")
    await world.settle()
    refusal = ephemerals(world, world.bob.id, world.lobby.id)[-1]
    assert "already linked" in refusal and "/manda unlink" in refusal
    assert "northwind" not in refusal and "falcon" not in refusal
    assert await world.manda.graph.channel_deal(lobby) == "northwind"
    assert await world.manda.graph.get_deal("falcon") is None

    await world.fake.slash(world.bob, world.lobby, "/manda", "unlink")
    await world.settle()
    await world.fake.slash(world.bob, world.lobby, "/manda", "deal new falcon")
    await world.settle()
    unlinked, relinked = (m.all_text() for m in root_messages(world, world.lobby.id)[-2:])
    assert f"<@{world.bob.id}> unlinked this channel from deal *northwind*" in unlinked
    assert "new deal" in relinked and "*falcon*" in relinked
    assert await world.manda.graph.get_deal("falcon") is not None
    audit = [(e.action, e.by) for e in await world.manda.graph.list_audit("northwind")]
    assert audit[-2:] == [("channel.bound", world.alice.id), ("channel.unbound", world.bob.id)]

    await world.fake.slash(world.alice, world.lobby, "/manda", "deal")
    await world.settle()
    current = ephemerals(world, world.alice.id, world.lobby.id)[-1]
    assert "linked to *falcon*" in current and "northwind" not in current


async def test_ask_answers_in_the_channel_once_and_its_thread_continues(
    world: SlackWorld,
) -> None:
    """Slash commands run outside threads, so the answer cannot stream; it is posted once when
    ready (never replacing a placeholder, which Slack would show "(edited)"), and meanwhile only
    the person who asked sees that Manda is reading — through the command's response_url, which
    Slack takes up to 5 times within 30 minutes.
    https://api.slack.com/interactivity/slash-commands#responding_to_commands
    https://docs.slack.dev/messaging/modifying-messages
    """
    delivery = await world.fake.slash(
        world.alice, world.deal, "/manda", "ask What was Q3 2024 revenue?"
    )
    assert delivery.status == 200 and delivery.body == ""
    await world.settle()
    [answer] = root_messages(world, world.deal.id)
    assert f"<@{world.alice.id}> asked" in answer.all_text() and "[1] " in answer.all_text()
    assert not answer.edited and answer.versions == []  # never changed
    assert world.ws.calls_to("chat.update") == []
    [reading] = ephemerals(world, world.alice.id, world.deal.id)
    assert "reading the documents" in reading and "posted in this channel" in reading
    assert ephemerals(world, world.bob.id, world.deal.id) == []

    await world.fake.say(world.bob, world.deal, "And EBITDA?", thread_ts=answer.ts)
    await world.settle()
    [follow_up] = world.replies(world.deal, answer.ts)
    assert "ebitda" in follow_up.all_text().lower()
    assert "q3 2024" in follow_up.all_text().lower()  # the context carried over from the command


async def test_a_command_in_a_channel_manda_is_not_in_answers_who_asked(world: SlackWorld) -> None:
    outside = world.ws.add_channel("deal-quiet", members=[world.alice.id], with_bot=False)
    await world.manda.graph.bind_channel(channel_key(world.ws.team_id, outside.id), "targetco")
    await world.fake.slash(world.alice, outside, "/manda", "redflags")
    await world.settle()
    assert root_messages(world, outside.id) == []
    shown = ephemerals(world, world.alice.id, outside.id)
    assert "reading the documents" in shown[0]
    assert any("/invite @Manda" in s for s in shown)
    assert any("Red flags in *targetco*" in s for s in shown)  # the work is not thrown away
    assert len(world.ws.calls_to("response_url", ok=True)) == len(shown) <= 5


async def test_ask_without_a_question_shows_how(world: SlackWorld) -> None:
    delivery = await world.fake.slash(world.alice, world.deal, "/manda", "ask")
    assert delivery.json and "/manda ask &lt;question&gt;" not in str(delivery.json)
    assert "/manda ask <question>" in str(delivery.json)
    assert world.bot.deps.jobs.running == 0


async def test_gaps_and_red_flags_with_their_shortcuts(world: SlackWorld) -> None:
    for command, text in (
        ("/manda", "gaps"),
        ("/gaps", ""),
        ("/manda", "redflags"),
        ("/redflags", ""),
    ):
        delivery = await world.fake.slash(world.alice, world.deal, command, text)
        assert delivery.status == 200 and delivery.body == ""
    await world.settle()
    answers = [m.all_text() for m in root_messages(world, world.deal.id)]
    assert len(answers) == 4
    assert sum("Gaps in the data room of *targetco*" in a for a in answers) == 2
    assert sum("Red flags in *targetco*" in a for a in answers) == 2
    assert not any("could not" in a for a in answers)


async def test_review_lists_pending_findings_with_buttons(world: SlackWorld) -> None:
    await world.fake.slash(world.alice, world.deal, "/manda", "review")
    await world.settle()
    [queue] = root_messages(world, world.deal.id)
    pending = await world.manda.review.queue("targetco")
    assert pending, "the sample deal has findings waiting for review"
    text = queue.all_text()
    assert f"{len(pending)} finding" in text and "Source:" in text and "\n> " in text
    pairs = [b for b in queue.blocks if b.get("block_id", "").startswith("manda.decide.")]
    assert len(pairs) == 10 and all(
        [e["action_id"] for e in b["elements"]] == [ids.APPROVE_FINDING, ids.REJECT_FINDING]
        for b in pairs
    )


async def test_qa_and_docs_are_shown_only_to_who_asked(world: SlackWorld) -> None:
    await world.fake.slash(world.alice, world.deal, "/manda", "qa")
    await world.settle()
    await world.manda.qa.add(
        "targetco", "Please share the 2024 audited accounts", by=world.bob.id, category="Financial"
    )
    await world.fake.slash(world.alice, world.deal, "/manda", "qa")
    await world.settle()  # two commands are two requests: Slack promises no order between them
    await world.fake.slash(world.alice, world.deal, "/manda", "docs")
    await world.settle()
    empty, listed, docs = ephemerals(world, world.alice.id, world.deal.id)
    assert "is empty" in empty
    assert "2024 audited accounts" in listed and f"<@{world.bob.id}>" in listed
    documents = await world.manda.graph.list_documents("targetco")
    assert f"of {len(documents)} ingested" in docs and documents[0].filename.split(".")[0] in docs
    assert "TargetCo_Cap_Table.csv` — cap table, csv" in docs  # the role read from its content
    assert root_messages(world, world.deal.id) == []


async def test_commands_in_an_unbound_channel_say_how_to_bind(world: SlackWorld) -> None:
    for sub in ("review", "qa", "docs", "gaps", "ask What was revenue?"):
        await world.fake.slash(world.alice, world.lobby, "/manda", sub)
    await world.settle()
    shown = ephemerals(world, world.alice.id, world.lobby.id)
    assert len(shown) == 5 and all("/manda deal" in s for s in shown)
    assert root_messages(world, world.lobby.id) == []


async def test_a_channel_without_the_bot_gets_an_invite_hint(world: SlackWorld) -> None:
    outside = world.ws.add_channel("deal-secret", members=[world.alice.id], with_bot=False)
    await world.manda.graph.bind_channel(channel_key(world.ws.team_id, outside.id), "targetco")
    await world.fake.slash(world.alice, outside, "/manda", "review")
    await world.settle()
    [hint] = ephemerals(world, world.alice.id, outside.id)
    assert "/invite @Manda" in hint
