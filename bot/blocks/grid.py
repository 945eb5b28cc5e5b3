"""The review grid in Slack: the two-step modal that asks for it (documents and a saved column
set, then the columns pre-ticked and the person's own), the message that follows the reading,
and the grid itself — its summary line first, then Slack's `table` block (at most 100 rows of at
most 20 cells: https://docs.slack.dev/reference/block-kit/blocks/table-block), Show all rows, and a
menu to review cells or take a column to red flags or the seller. The full grid goes in the XLSX.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import ids
from bot.blocks.kit import Block, SlackMessage, actions, button, context, cut, fallback, section
from bot.blocks.modals import GROUP_OPTIONS, OPTION_TEXT, TITLE, option
from bot.blocks.mrkdwn import escape, plain
from bot.payloads import GridAction, GridModal
from manda.exports.grid import cell_text
from manda.grid.view import Grid, GridRow
from manda.models import CellStatus, FindingStatus, GridColumn, GridRunStatus

__all__ = [
    "FIRST_SCREEN_ROWS", "render_grid", "render_grid_column_modal", "render_grid_columns_modal",
    "render_grid_pick_modal", "render_grid_progress", "render_grid_review_modal", "table_block",
]

TABLE_ROWS = 100  # the header row and 99 documents
TABLE_CELLS = 20  # the document and 19 columns
FIRST_SCREEN_ROWS = 10
CELL_CHARS = 60
DOCUMENT_CHARS = 64
OWN_MAX = 2000
MENU_REVIEW, MENU_FLAG, MENU_ASK = "review", "flag", "ask"


def _plain(text: str) -> dict[str, Any]:
    return {"type": "plain_text", "text": text, "emoji": True}


def _modal(callback_id: str, title: str, submit: str, meta: GridModal,
           blocks: list[Block]) -> Block:
    return {"type": "modal", "callback_id": callback_id, "private_metadata": meta.encode(),
            "title": _plain(cut(title, TITLE)), "submit": _plain(cut(submit, TITLE)),
            "close": _plain("Cancel"), "blocks": blocks}


# ---------------------------------------------------------------- asking for a grid


def render_grid_pick_modal(meta: GridModal, *, kinds: Sequence[tuple[str, str]],
                           folders: Sequence[str], sets: Sequence[tuple[str, str, str]],
                           documents: str = "kind:contract", column_set: str = "contracts"
                           ) -> Block:
    """Step one: which documents (a kind, or a folder of the room) and which saved column set.
    `kinds`: (label, key); `sets`: (key, label, its columns in words)."""
    groups = [{"label": _plain("Kinds of document"),
               "options": [option(label, f"kind:{key}") for label, key in kinds]}]
    shown = [option(f"📁 {f}", f"folder:{f}"[:150]) for f in folders[: 100 - len(kinds)]]
    if shown:
        groups.append({"label": _plain("Folders of the room"), "options": shown})
    every = [o for g in groups for o in g["options"]]
    initial = next((o for o in every if o["value"] == documents), every[0])
    set_options = [{"text": _plain(label), "value": key,
                    "description": _plain(cut(columns, OPTION_TEXT))}
                   for key, label, columns in sets]
    set_options.append({"text": _plain("Only my own columns"), "value": "none",
                        "description": _plain("You write every question on the next step")})
    chosen_set = next((o for o in set_options if o["value"] == column_set), set_options[0])
    blocks: list[Block] = [
        section(f"One row per document, one column per question, every cell with its quote and "
                f"place. Deal *{escape(meta.deal_id)}*."),
        {"type": "input", "block_id": ids.GRID_DOCUMENTS, "label": _plain("Documents"),
         "element": {"type": "static_select", "action_id": ids.GRID_DOCUMENTS,
                     "option_groups": groups, "initial_option": initial}},
        {"type": "input", "block_id": ids.GRID_SET, "label": _plain("Saved column set"),
         "element": {"type": "radio_buttons", "action_id": ids.GRID_SET,
                     "options": set_options, "initial_option": chosen_set}},
    ]
    return _modal(ids.GRID_PICK_VIEW, "Review grid", "Next", meta, blocks)


def render_grid_columns_modal(meta: GridModal, columns: Sequence[GridColumn],
                              ticked: set[str], documents_label: str) -> Block:
    """Step two: the standard columns, the saved set's pre-ticked, and the person's own."""
    blocks: list[Block] = [section(f"Columns for *{escape(documents_label)}*. Untick what you "
                                   "do not need; add your own questions below.")]
    for number, start in enumerate(range(0, len(columns), GROUP_OPTIONS), start=1):
        group = columns[start:start + GROUP_OPTIONS]
        options = [option(c.name, c.key) for c in group]
        element: dict[str, Any] = {"type": "checkboxes", "action_id": ids.grid_pick(number),
                                   "options": options}
        initial = [o for o in options if o["value"] in ticked]
        if initial:
            element["initial_options"] = initial
        blocks.append({"type": "input", "block_id": ids.grid_pick(number), "optional": True,
                       "label": _plain("Standard columns" if number == 1 else "More columns"),
                       "element": element})
    blocks.append({
        "type": "input", "block_id": ids.GRID_OWN, "optional": True,
        "label": _plain("Your own columns, one a line"),
        "hint": _plain("Plain words or a question: “Is the rent reviewed upwards only?”"),
        "element": {"type": "plain_text_input", "action_id": ids.GRID_OWN, "multiline": True,
                    "max_length": OWN_MAX}})
    return _modal(ids.GRID_COLUMNS_VIEW, "Review grid", "Build grid", meta, blocks)


# ---------------------------------------------------------------- while it reads


def render_grid_progress(deal_id: str, run_id: str, title: str, done: int, total: int,
                         columns: int, by: str) -> SlackMessage:
    head = (f"📋 *Review grid* of {escape(title)} × {columns} columns, asked by <@{by}> — "
            f"reading {done} of {total} document{'s' if total != 1 else ''}…")
    value = GridAction(d=deal_id, r=run_id).encode()
    return SlackMessage(fallback(f"Review grid: reading {done} of {total}"), [
        section(head),
        actions(ids.GRID_ACTIONS, [button("Cancel", ids.GRID_CANCEL, value)]),
    ])


# ---------------------------------------------------------------- the grid


def _mark(status: FindingStatus | None) -> str:
    return {FindingStatus.APPROVED: "✓ ", FindingStatus.REJECTED: "✗ "}.get(status, "") \
        if status is not None else ""


def _cell(row: GridRow, column: GridColumn) -> str:
    kept = row.cells.get(column.key)
    if kept is None:
        return "…"
    if kept.status is CellStatus.NOT_STATED:
        return "—"
    if kept.status is CellStatus.UNREADABLE:
        return "⚠ unreadable"
    text = cell_text(row, column.key) if not row.replaced(column.key) else \
        f"{kept.shown} ↳ amended"
    return plain(_mark(row.review.get(column.key)) + text, CELL_CHARS) or "—"


def table_block(grid: Grid, rows: Sequence[GridRow]) -> Block:
    """Slack's table: a header row, then one row a document (the columns that fit)."""
    columns = grid.columns[: TABLE_CELLS - 1]
    header = [{"type": "raw_text", "text": "Document"}] + [
        {"type": "raw_text", "text": plain(c.name, CELL_CHARS) or c.key} for c in columns]
    body = []
    for row in rows[: TABLE_ROWS - 1]:
        name = row.document.filename + (" (amended)" if row.superseded_by else "")
        body.append([{"type": "raw_text", "text": plain(name, DOCUMENT_CHARS) or "?"}] + [
            {"type": "raw_text", "text": _cell(row, c)} for c in columns])
    return {"type": "table", "block_id": ids.GRID_TABLE, "rows": [header, *body],
            "column_settings": [{"is_wrapped": True} for _ in range(len(columns) + 1)]}


def render_grid(grid: Grid, *, by: str, expanded: bool = False,
                running: bool = False) -> SlackMessage:
    """The grid as one message: the summary line first, the table, notes, then buttons."""
    rows = grid.rows if expanded else grid.rows[:FIRST_SCREEN_ROWS]
    value = GridAction(d=grid.run.deal_id, r=grid.run.id).encode()
    state = ""
    if grid.run.status is GridRunStatus.CANCELLED:
        state = f" — cancelled after {grid.done} of {grid.total}; run it again to read the rest"
    elif running:
        state = f" — reading {grid.done} of {grid.total}…"
    blocks: list[Block] = [
        section(f"*{escape(grid.summary)}*{state}"),
        context([f"Review grid `{grid.run.id}` asked by <@{by}>: each cell is a finding waiting "
                 "for review (✓ approved, ✗ rejected, — not stated); quotes and places are in "
                 f"the XLSX. {escape(grid.spend.line())}."]),
        table_block(grid, rows),
    ]
    notes: list[str] = []
    names = {c.key: c.name.lower() for c in grid.columns}
    for row in grid.rows:
        if row.superseded_by is not None:
            replaced = ", ".join(names.get(k, k) for k in row.superseded_by.columns)
            notes.append(f"*{escape(row.document.filename)}* is amended by "
                         f"*{escape(row.superseded_by.filename)}*"
                         + (f" ({escape(replaced)})" if replaced else ""))
    notes += [f"⚠ could not read *{escape(name)}*: {escape(why)}" for name, why in
              grid.unreadable]
    hidden_rows = len(grid.rows) - len(rows)
    hidden_columns = len(grid.columns) - (TABLE_CELLS - 1)
    if hidden_rows > 0:
        notes.append(f"Showing {len(rows)} of {len(grid.rows)} documents.")
    if len(grid.rows) > TABLE_ROWS - 1 and expanded:
        notes.append(f"Slack shows {TABLE_ROWS - 1} rows: every row is in the XLSX.")
    if hidden_columns > 0:
        notes.append(f"{hidden_columns} more columns are in the XLSX (Slack's table holds "
                     f"{TABLE_CELLS - 1}).")
    if notes:
        blocks.append(context([cut("\n".join(notes), 2900)]))
    elements: list[Block] = []
    if hidden_rows > 0:
        elements.append(button("Show all rows", ids.GRID_SHOW_MORE, value))
    if running:
        elements.append(button("Cancel", ids.GRID_CANCEL, value))
    else:
        elements.append({"type": "overflow", "action_id": ids.GRID_MENU, "options": [
            option("Review cells…", f"{MENU_REVIEW}|{grid.run.id}"),
            option("Take a column's “yes” as red flags…", f"{MENU_FLAG}|{grid.run.id}"),
            option("Ask the seller where silent…", f"{MENU_ASK}|{grid.run.id}"),
        ]})
    blocks.append(actions(ids.GRID_ACTIONS, elements))
    return SlackMessage(fallback(grid.summary + state), blocks)


# ---------------------------------------------------------------- review and columns


def render_grid_review_modal(meta: GridModal, grid: Grid) -> Block:
    """Approve or reject cells: one (a column and a document), a column, or a row."""
    columns = [("Every column", "*"), *[(c.name, c.key) for c in grid.columns][:99]]
    documents = [("Every document", "*"),
                 *[(r.document.filename, r.document.id) for r in grid.rows][:99]]
    blocks: list[Block] = [
        section("Approve or reject the grid's cells: pick a column for a whole column, a "
                "document for its row, both for one cell. Cells decided before are left as "
                "they are."),
        _select(ids.GRID_COLUMN, "Column", columns),
        _select(ids.GRID_DOCUMENT, "Document", documents),
        {"type": "input", "block_id": ids.GRID_DECISION, "label": _plain("Decision"),
         "element": {"type": "radio_buttons", "action_id": ids.GRID_DECISION,
                     "options": [option("Approve", "approve"), option("Reject", "reject")],
                     "initial_option": option("Approve", "approve")}},
        {"type": "input", "block_id": ids.REASON_INPUT, "optional": True,
         "label": _plain("Why (for a rejection)"),
         "element": {"type": "plain_text_input", "action_id": ids.REASON_INPUT,
                     "max_length": 500}},
    ]
    return _modal(ids.GRID_REVIEW_VIEW, "Review cells", "Decide", meta, blocks)


def render_grid_column_modal(meta: GridModal, grid: Grid, purpose: str) -> Block:
    """Which column's cells become red flags ("yes"), or questions to the seller ("not
    stated")."""
    if purpose == MENU_FLAG:
        wanted = [c for c in grid.columns if c.type in ("yes_no", "termination")]
        text = ("Every document whose cell in this column says *yes* becomes a red flag of its "
                "topic, with its quote (`/manda redflags` lists them).")
        title, submit = "Red flags", "Take as red flags"
    else:
        wanted = list(grid.columns)
        text = ("A question to the seller joins the Q&A list for every document that is *not "
                "stated* on this column, saying which document.")
        title, submit = "Ask the seller", "Add to Q&A"
    choices = [(c.name, c.key) for c in wanted][:100] or [(c.name, c.key) for c in grid.columns]
    return _modal(ids.GRID_COLUMN_VIEW, title, submit, meta, [
        section(text), _select(ids.GRID_COLUMN, "Column", choices)])


def _select(block_id: str, label: str, choices: Sequence[tuple[str, str]]) -> Block:
    options = [option(text, value[:150]) for text, value in choices]
    return {"type": "input", "block_id": block_id, "label": _plain(label),
            "element": {"type": "static_select", "action_id": block_id, "options": options,
                        "initial_option": options[0]}}
