"""The Q&A list in Slack: numbered, Mark answered / Remove in place, edits by command, and an
Excel export shared in the channel through Slack's external upload flow."""

from __future__ import annotations

import io

from openpyxl import load_workbook
from slackworld import SlackWorld

from bot import ids
from manda.exports.qa import HEADERS
from manda.models import QAPriority


async def test_the_list_is_worked_through_and_exported(world: SlackWorld) -> None:
    deals = world.manda.deals
    for question in ("Explain the Q3 revenue bridge", "Who owns the IP?", "Any litigation?"):
        await deals.add_question("targetco", question, by=world.bob.id, category="Financial")
    await world.fake.slash(world.alice, world.deal, "/manda", "qa")
    await world.settle()
    [listed] = world.ws.ephemerals(world.alice.id, world.deal.id)
    text = listed.all_text()
    assert "Q1 Explain the Q3 revenue bridge" in text and "3 questions, 0 answered" in text

    first = (await deals.questions("targetco"))[0]
    await world.fake.click(world.alice, listed, ids.QA_ANSWERED, value=_value(listed, first.id))
    await world.settle()
    assert "✅ Q1 marked answered by" in listed.all_text()  # the same message, replaced
    assert "3 questions, 1 answered" in listed.all_text()

    await world.fake.slash(world.alice, world.deal, "/manda", "qa edit 2 priority high")
    await world.fake.slash(world.alice, world.deal, "/manda", "qa remove 3")
    await world.settle()
    items = {i.number: i for i in await deals.questions("targetco")}
    assert set(items) == {1, 2} and items[2].priority is QAPriority.HIGH

    await world.fake.slash(world.alice, world.deal, "/manda", "qa export")
    await world.settle()
    [shared] = [m for m in world.ws.bot_messages(world.deal.id) if m.files]
    assert "Q&A list of targetco: 2 questions" in shared.text
    stored = world.ws.files[shared.files[0]]
    assert stored.name == "targetco-qa-list.xlsx"
    sheet = load_workbook(io.BytesIO(stored.content)).active
    rows = [r for r in sheet.iter_rows(min_row=3, values_only=True)]
    assert rows[0] == HEADERS
    assert [(r[0], r[1], r[3], r[4], r[6]) for r in rows[1:]] == [
        (1, "Explain the Q3 revenue bridge", "medium", "answered", "Bob"),
        (2, "Who owns the IP?", "high", "draft", "Bob"),  # users.info names them
    ]
    assert world.ws.calls_to("files.completeUploadExternal", ok=True)


async def test_a_mistyped_qa_command_shows_how(world: SlackWorld) -> None:
    await world.fake.slash(world.alice, world.deal, "/manda", "qa frobnicate 2")
    await world.settle()  # the replies are read in order: Slack promises none between requests
    await world.fake.slash(world.alice, world.deal, "/manda", "qa remove 7")
    await world.settle()
    usage, missing = (m.all_text() for m in world.ws.ephemerals(world.alice.id, world.deal.id))
    assert "/manda qa export" in usage
    assert "Question 7 is not on the Q&amp;A list of targetco" in missing


def _value(message: object, item_id: str) -> str:
    for block in getattr(message, "blocks", []):
        if block.get("block_id") == ids.qa_item_block(item_id):
            return str(block["elements"][0]["value"])
    raise LookupError(item_id)
