"""CIM and IRL threads in Slack, through signed requests to the real app and the fake Slack:
persona → outline edit → two sections approved → export, with the bot restarted halfway; an IRL
exported to Excel; `status` and `cancel`; and replies outside a workflow left to the Q&A agent."""

from __future__ import annotations

import io

from openpyxl import load_workbook
from pptx import Presentation
from slackworld import SlackWorld, bot_settings

from bot import ids
from bot.app import build_app
from bot.fakeslack import FakeSlack, Message
from bot.run import http_server
from manda.app import Manda
from manda.irl.service import HEADERS


def _thread_parent(world: SlackWorld, before: int) -> Message:
    """The parent message `/manda cim|irl` posted (the first new top-level bot message)."""
    new = [m for m in world.ws.bot_messages(world.deal.id) if not m.thread_ts][before:]
    assert new, "the command posted a thread parent"
    return new[0]


def _last(world: SlackWorld, parent: Message) -> Message:
    return world.replies(world.deal, parent.ts)[-1]


async def test_a_cim_is_built_in_a_thread_across_a_bot_restart(
    app: Manda, fake: FakeSlack, world: SlackWorld
) -> None:
    top = len([m for m in world.ws.bot_messages(world.deal.id) if not m.thread_ts])
    await world.fake.slash(world.alice, world.deal, "/manda", "cim")
    await world.settle()
    parent = _thread_parent(world, top)
    assert "Building the CIM of targetco" in parent.all_text()
    asked = _last(world, parent)
    assert "Who is this CIM for?" in asked.all_text()

    await world.fake.click(world.alice, asked, f"{ids.WF_PERSONA}.financial")
    await world.settle()
    outline = _last(world, parent).all_text()
    assert "Buyer: financial buyer" in outline and "1. " in outline

    await world.fake.say(world.alice, world.deal, "drop 7", thread_ts=parent.ts)
    await world.settle()
    edited = _last(world, parent).all_text()
    assert "Say *go* when the outline is right" in edited
    sections_after_edit = edited.count("\n")

    await world.fake.say(world.alice, world.deal, "go", thread_ts=parent.ts)
    await world.settle()
    slide = _last(world, parent)
    assert "1/" in slide.all_text() and "Sources:" in slide.all_text()
    await world.fake.click(world.alice, slide, ids.WF_APPROVE)
    await world.settle()
    second = _last(world, parent)
    assert "2/" in second.all_text()

    # ---- the bot stops; a new process on the same MANDA_HOME picks up the same thread
    await world.bot.aclose()
    settings = app.settings
    await app.aclose()
    async with Manda(settings) as restarted:
        bot = build_app(restarted, bot_settings(restarted, fake))
        try:
            async with http_server(bot, host="127.0.0.1", port=0) as url:
                fake.connect_app(url)
                await fake.say(world.alice, world.deal, "status", thread_ts=parent.ts)
                await bot.drain()
                assert "Section 2 of" in _last(world, parent).all_text()

                await fake.click(world.alice, second, ids.WF_EDIT)
                await bot.drain()
                await fake.submit_view(world.alice, {ids.WF_EDIT_INPUT: {
                    ids.WF_EDIT_INPUT: "title: What the buyer gets"}})
                await bot.drain()
                retitled = _last(world, parent)
                assert "What the buyer gets" in retitled.all_text()
                await fake.click(world.alice, retitled, ids.WF_APPROVE)
                await bot.drain()

                await fake.say(world.alice, world.deal, "export", thread_ts=parent.ts)
                await bot.drain()
                [shared] = [m for m in world.ws.bot_messages(world.deal.id, thread_ts=parent.ts)
                            if m.files]
                deck = Presentation(io.BytesIO(world.ws.files[shared.files[0]].content))
                titles = [s.shapes.title.text for s in deck.slides if s.shapes.title is not None]
                assert len(deck.slides) == 3  # title slide + the two approved sections
                assert "What the buyer gets" in titles
                assert "deck of *targetco*" in shared.text

                # the workflow has ended: a later reply is no longer the CIM's
                replies = len(world.replies(world.deal, parent.ts))
                await fake.say(world.alice, world.deal, "drop 3", thread_ts=parent.ts)
                await bot.drain()
                assert len(world.replies(world.deal, parent.ts)) == replies
        finally:
            await bot.aclose()
    assert sections_after_edit > 5


async def test_an_irl_is_edited_and_exported_to_excel(world: SlackWorld) -> None:
    await world.manda.deals.add_question("targetco", "Is the Vertex claim insured?",
                                         by=world.bob.id, category="Legal")
    top = len([m for m in world.ws.bot_messages(world.deal.id) if not m.thread_ts])
    await world.fake.slash(world.alice, world.deal, "/manda", "irl")
    await world.settle()
    parent = _thread_parent(world, top)
    listed = _last(world, parent)
    assert "IRL for targetco" in listed.all_text()
    await world.fake.click(world.alice, listed, ids.WF_ATTACH_QA)
    await world.settle()
    assert "Attached 1 open Q&amp;A question" in _last(world, parent).all_text()

    await world.fake.click(world.alice, _last(world, parent), ids.WF_EXPORT)
    await world.settle()
    [shared] = [m for m in world.ws.bot_messages(world.deal.id, thread_ts=parent.ts) if m.files]
    stored = world.ws.files[shared.files[0]]
    assert stored.name == "targetco-irl.xlsx"
    sheet = load_workbook(io.BytesIO(stored.content)).active
    rows = list(sheet.iter_rows(min_row=3, values_only=True))
    assert rows[0] == HEADERS
    assert any(r[2] == "Is the Vertex claim insured?" for r in rows[1:])
    assert len(rows) > 10  # the checklist, not only the attached question


async def test_status_by_link_and_cancel(world: SlackWorld) -> None:
    top = len([m for m in world.ws.bot_messages(world.deal.id) if not m.thread_ts])
    await world.fake.slash(world.alice, world.deal, "/manda", "cim strategic buyer")
    await world.settle()
    parent = _thread_parent(world, top)
    assert "Buyer: strategic buyer" in _last(world, parent).all_text()
    link = f"https://fake.slack.com/archives/{world.deal.id}/p{parent.ts.replace('.', '')}"
    await world.fake.slash(world.alice, world.deal, "/manda", f"status {link}")
    await world.settle()
    assert "Outline for a strategic buyer" in world.ws.ephemerals(
        world.alice.id, world.deal.id)[-1].all_text()

    await world.fake.say(world.bob, world.deal, "cancel", thread_ts=parent.ts)
    await world.settle()
    assert "CIM cancelled." in _last(world, parent).all_text()
    await world.fake.slash(world.alice, world.deal, "/manda", f"status {link}")
    await world.settle()
    assert "No CIM or IRL is in progress" in world.ws.ephemerals(
        world.alice.id, world.deal.id)[-1].all_text()

