"""`/manda grid` through signed requests to the real app and the fake Slack: the modal opens in
the ack path, its first step is updated into the second (the saved set's columns ticked), the
grid's one message follows the reading and ends as the summary, Slack's table and the menu, with
the XLSX in its thread; cells reviewed, a column taken to red flags, silences to the seller."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from fixtures.grid_room import dev_rows, saying_yes, stated
from openpyxl import load_workbook
from slackworld import SlackWorld, running_world

from bot import ids
from bot.blocks.grid import FIRST_SCREEN_ROWS, MENU_ASK, MENU_FLAG, MENU_REVIEW
from bot.conversations import channel_key
from bot.fakeslack import Channel, FakeSlack, Message
from manda.app import Manda

DEAL = "fernhill"
CUSTOMER = dev_rows("customer_contract")  # the dev set's customer contracts, as its truth says


@pytest.fixture
async def grid_world(grid_app: Manda, fake: FakeSlack) -> AsyncIterator[tuple[SlackWorld, Channel]]:
    async with running_world(grid_app, fake) as world:
        room = world.ws.add_channel("deal-fernhill", members=[world.alice.id, world.bob.id])
        await grid_app.graph.bind_channel(channel_key(world.ws.team_id, room.id), DEAL)
        yield world, room
        await world.settle()


def _grid_message(world: SlackWorld, room: Channel) -> Message:
    [message] = [m for m in world.ws.bot_messages(room.id) if not m.thread_ts
                 and any(b.get("type") == "table" for b in m.blocks)]
    return message


async def _ask(world: SlackWorld, room: Channel, *, own: str = "") -> Message:
    await world.fake.slash(world.alice, room, "/manda", "grid")
    await world.settle()
    first = world.ws.modals[world.alice.id]
    assert first["callback_id"] == ids.GRID_PICK_VIEW
    await world.fake.submit_view(world.alice, {
        ids.GRID_DOCUMENTS: {ids.GRID_DOCUMENTS: "kind:customer_contract"},
        ids.GRID_SET: {ids.GRID_SET: "contracts"}})
    second = world.ws.modals[world.alice.id]
    assert second["callback_id"] == ids.GRID_COLUMNS_VIEW
    ticked = [o["value"] for b in second["blocks"] if b.get("block_id", "").startswith(
        "manda.grid.pick.") for o in b["element"].get("initial_options", [])]
    assert ticked[:3] == ["counterparty", "date", "term"] and len(ticked) == 11
    await world.fake.submit_view(world.alice, {
        ids.grid_pick(1): {ids.grid_pick(1): ["counterparty", "term", "change_of_control"]},
        ids.grid_pick(2): {ids.grid_pick(2): []},
        ids.GRID_OWN: {ids.GRID_OWN: own}})
    await world.settle()
    return _grid_message(world, room)


async def test_a_grid_is_asked_in_a_modal_and_shown_as_a_table_with_its_xlsx(
        grid_world: tuple[SlackWorld, Channel]) -> None:
    world, room = grid_world
    message = await _ask(world, room, own="Is there a minimum purchase commitment?")
    text = message.all_text()
    assert text.startswith(f"{len(CUSTOMER)} customer contracts: "
                           f"{len(saying_yes(CUSTOMER, 'change_of_control'))} with change of "
                           "control")
    [table] = [b for b in message.blocks if b["type"] == "table"]
    header = [c["text"] for c in table["rows"][0]]
    assert header == ["Document", "Counterparty", "Term", "Change of control",
                      "Is there a minimum purchase commitment?"]
    assert len(table["rows"]) == 1 + min(len(CUSTOMER), FIRST_SCREEN_ROWS)
    cells = {row[0]["text"]: [c["text"] for c in row[1:]] for row in table["rows"][1:]}
    assert cells["Master Purchase Agreement - Cordova Irrigation Inc.docx"][:3] == [
        "Cordova Irrigation Inc.", "Until 31 May 2026", "No"]
    assert "Supply Agreement - Hallam Water Services Ltd.pdf (amended)" in cells
    amended = text.split("is amended by *Deed of Variation - Hallam Water Supply Agreement.pdf* (")
    assert len(amended) == 2 and "term)" in amended[1]
    assert message.edited  # the progress message became the grid: one message, no new post

    [upload] = [m for m in world.ws.bot_messages(room.id, thread_ts=message.ts) if m.files]
    stored = world.ws.files[upload.files[0]]
    book = load_workbook(io.BytesIO(stored.content))
    sheet = book["Grid"]
    assert sheet["A4"].value == "Document" and sheet.max_row == 4 + len(CUSTOMER)
    assert book["Quotes"].max_row == 1 + len(CUSTOMER) * 4


async def test_a_grids_cells_are_reviewed_and_a_column_taken_further_from_its_menu(
        grid_world: tuple[SlackWorld, Channel]) -> None:
    world, room = grid_world
    message = await _ask(world, room)
    run_id = next(o["value"] for b in message.blocks if b["type"] == "actions"
                  for e in b["elements"] if e["type"] == "overflow"
                  for o in e["options"]).split("|")[1]

    await world.fake.click(world.bob, message, ids.GRID_MENU, value=f"{MENU_REVIEW}|{run_id}")
    await world.settle()
    assert world.ws.modals[world.bob.id]["callback_id"] == ids.GRID_REVIEW_VIEW
    await world.fake.submit_view(world.bob, {
        ids.GRID_COLUMN: {ids.GRID_COLUMN: "change_of_control"},
        ids.GRID_DECISION: {ids.GRID_DECISION: "approve"}})
    await world.settle()
    notes = [m.all_text() for m in world.ws.bot_messages(room.id, thread_ts=message.ts)]
    approved = len(stated(CUSTOMER, "change_of_control"))
    assert any(f"approved {approved} cells of the grid" in n for n in notes)
    table = next(b for b in world.ws.find(room.id, message.ts).blocks if b["type"] == "table")
    assert any(c["text"].startswith("✓ ") for row in table["rows"] for c in row)

    grid_message = world.ws.find(room.id, message.ts)
    await world.fake.click(world.bob, grid_message, ids.GRID_MENU, value=f"{MENU_FLAG}|{run_id}")
    await world.settle()
    await world.fake.submit_view(world.bob, {ids.GRID_COLUMN: {ids.GRID_COLUMN:
                                                                "change_of_control"}})
    await world.settle()
    await world.fake.click(world.bob, world.ws.find(room.id, message.ts), ids.GRID_MENU,
                           value=f"{MENU_ASK}|{run_id}")
    await world.settle()
    await world.fake.submit_view(world.bob, {ids.GRID_COLUMN: {ids.GRID_COLUMN:
                                                                "change_of_control"}})
    await world.settle()
    notes = [m.all_text() for m in world.ws.bot_messages(room.id, thread_ts=message.ts)]
    flagged = len(saying_yes(CUSTOMER, "change_of_control"))
    assert any(f"took {flagged} documents with *change of control* as red flags" in n
               for n in notes)
    silent = len(CUSTOMER) - approved
    questions = "question" if silent == 1 else "questions"
    assert any(f"added {silent} {questions} on *change of control* to the Q&A list" in n
               for n in notes), notes


async def test_no_column_keeps_the_modal_open_and_an_unlinked_channel_is_told(
        grid_world: tuple[SlackWorld, Channel]) -> None:
    world, room = grid_world
    await world.fake.slash(world.alice, room, "/manda", "grid")
    await world.settle()
    await world.fake.submit_view(world.alice, {
        ids.GRID_DOCUMENTS: {ids.GRID_DOCUMENTS: "kind:lease"},
        ids.GRID_SET: {ids.GRID_SET: "none"}})
    await world.fake.submit_view(world.alice, {ids.GRID_OWN: {ids.GRID_OWN: ""}})
    assert world.ws.modal_errors[world.alice.id] == {
        ids.GRID_OWN: "Tick a column or write one of your own."}

    await world.fake.slash(world.eve, world.lobby, "/manda", "grid")
    await world.settle()
    assert world.eve.id not in world.ws.modals
    [told] = world.ws.ephemerals(world.eve.id, world.lobby.id)
    assert "not linked to a deal" in told.all_text()


def test_a_grid_larger_than_slacks_table_is_cut_to_it_and_says_so() -> None:
    from bot.blocks.grid import render_grid
    from bot.fakeslack.blockkit import validate_blocks
    from manda.grid.view import Grid, GridRow
    from manda.models import (
        CellStatus,
        Document,
        GridCell,
        GridColumn,
        GridRun,
        GridSelection,
        Location,
    )

    columns = [GridColumn(key=f"q{i}", name=f"Question {i}", standard=False) for i in range(25)]
    run = GridRun(id="grid-big", deal_id="d", selection=GridSelection(kind="contract"),
                  columns=columns, document_ids=[f"doc{i}" for i in range(150)], reader="x",
                  title="contracts")
    rows = [GridRow(document=Document(id=f"doc{i}", deal_id="d", filename=f"Contract {i}.pdf",
                                      content_hash=str(i), file_type="pdf", size_bytes=1,
                                      version_family=str(i)),
                    kind="contract",
                    cells={c.key: GridCell(deal_id="d", document_id=f"doc{i}", column=c.key,
                                           wording=c.wording, reader="x",
                                           status=CellStatus.STATED, value="v" * 90,
                                           shown="v" * 90, quote="q", location=Location.for_page(1))
                           for c in columns})
            for i in range(150)]
    grid = Grid(run=run, rows=rows, done=150)
    for expanded, shown in ((False, 10), (True, 99)):
        message = render_grid(grid, by="U1", expanded=expanded)
        assert validate_blocks(message.blocks) == []
        [table] = [b for b in message.blocks if b["type"] == "table"]
        assert len(table["rows"]) == 1 + shown and len(table["rows"][0]) == 20
        text = " ".join(b["elements"][0]["text"] for b in message.blocks
                        if b["type"] == "context")
        assert "6 more columns are in the XLSX" in text
        assert ("every row is in the XLSX" in text) is expanded
