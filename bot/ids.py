"""Action and block ids of every interactive element, so listeners and renderers agree on them."""

from __future__ import annotations

import re

ADD_TO_QA = "manda.qa.add"  # several in one block: numbered, ADD_TO_QA_ANY matches them all
QA_OPEN = "manda.qa.open"  # "Add to Q&A…": opens QA_VIEW with the answer's suggested questions
QA_VIEW = "manda.qa.view"  # callback_id of the Add to Q&A modal
QA_PICK = "manda.qa.pick"  # its first checkboxes (block and action id); option values "all" or
# "1".."n"; a checkbox group holds 10 options, so further groups are `qa_pick(2)`, …
QA_ALL = "all"
APPROVE_FINDING = "manda.finding.approve"
REJECT_FINDING = "manda.finding.reject"
UNDO_DECISION = "manda.finding.undo"  # withdraws one decision (a person's, or carried over)
FEEDBACK_UP = "manda.feedback.up"
FEEDBACK_DOWN = "manda.feedback.down"  # opens FEEDBACK_VIEW for the reason
REJECT_VIEW = "manda.finding.reject.view"  # callback_id of the Reject modal (its reason)
FEEDBACK_VIEW = "manda.feedback.view"  # callback_id of the 👎 modal
REASON_INPUT = "manda.reason"  # the reason's block and action id in both
OPEN_REVIEW = "manda.review.open"
REVIEW_PAGE = "manda.review.page"  # Next in the queue
REVIEW_PREVIOUS = "manda.review.previous"  # its own id: action ids are unique within a block
REVIEW_PAGING = "manda.review.paging"  # block id
QA_ANSWERED = "manda.qa.answered"  # on one item of the Q&A list
QA_REMOVE = "manda.qa.remove"
QA_EXPORT = "manda.qa.export"  # share the list as an XLSX

WF_PERSONA = "manda.wf.persona"  # CIM: `.strategic` / `.financial` buyer (one id per button)
WF_APPROVE = "manda.wf.approve"  # CIM: approve the section shown
WF_REGENERATE = "manda.wf.regenerate"
WF_EDIT = "manda.wf.edit"  # opens WF_EDIT_VIEW
WF_EXPORT = "manda.wf.export"  # CIM deck / IRL spreadsheet into the thread
WF_ATTACH_QA = "manda.wf.attach_qa"  # IRL: the deal's Q&A questions join the list
WF_EDIT_VIEW = "manda.wf.edit.view"  # callback_id of the Edit modal
WF_EDIT_INPUT = "manda.wf.edit.input"  # its block and action id
TIMELINE_MORE = "manda.timeline.more"
ANSWER_MENU = "manda.answer.menu"  # the overflow menu of an answer ("How I answered")
TRACE_VIEW = "manda.trace.view"  # callback_id of the "How I answered" modal
ANSWER_SHOW_MORE = "manda.answer.more"  # the rest of a long answer, in place
# the review grid (`/manda grid`)
GRID_PICK_VIEW = "manda.grid.pick"  # callback_id: the documents and the saved column set
GRID_COLUMNS_VIEW = "manda.grid.columns"  # callback_id: the columns, pre-ticked, and own ones
GRID_DOCUMENTS = "manda.grid.documents"  # block and action id: a kind or a folder
GRID_SET = "manda.grid.set"  # block and action id: the saved column set
GRID_OWN = "manda.grid.own"  # block and action id: the person's own columns, one a line
GRID_SHOW_MORE = "manda.grid.more"  # every row of the table, in place
GRID_CANCEL = "manda.grid.cancel"
GRID_MENU = "manda.grid.menu"  # overflow: review cells, red flags, ask the seller
GRID_REVIEW_VIEW = "manda.grid.review"  # callback_id: approve or reject cells
GRID_COLUMN_VIEW = "manda.grid.column"  # callback_id: a column for red flags or the seller
GRID_COLUMN = "manda.grid.column.pick"  # block and action id
GRID_DOCUMENT = "manda.grid.document.pick"  # block and action id
GRID_DECISION = "manda.grid.decision"  # block and action id: approve / reject
QA_PLACE = "manda.qa.place"  # an unsure answer of a Q&A file: the question it answers
QA_PLACE_NEW = "manda.qa.place.new"  # …or a new question of its own

ADD_TO_QA_ANY = re.compile(rf"^{re.escape(ADD_TO_QA)}(\.\d+)?$")
WF_PERSONA_ANY = re.compile(rf"^{re.escape(WF_PERSONA)}(\.\w+)?$")

DECISIONS = (APPROVE_FINDING, REJECT_FINDING)
FEEDBACK = (FEEDBACK_UP, FEEDBACK_DOWN)

# block ids (unique within one message or view)
ANSWER_ACTIONS = "manda.answer.actions"
QA_ACTIONS = "manda.answer.qa"
QA_LIST_ACTIONS = "manda.qa.list"
SOURCES = "manda.answer.sources"  # footnotes; a second block is `.10`, …
ANSWER_BODY = "manda.answer.body"  # the first screen (markdown)
ANSWER_REST = "manda.answer.rest"  # what Show more added
ANSWER_MORE = "manda.answer.more"  # block id of the Show more button
ANSWER_CAUTIONS = "manda.answer.cautions"  # what the answer says of its question's constraints
INGEST_ACTIONS = "manda.ingest.actions"
INGEST_SUMMARY = "manda.ingest.summary"  # the head of an ingestion summary (its Review count)
WF_ACTIONS = "manda.wf.actions"
TIMELINE_ACTIONS = "manda.timeline.actions"
ANSWER_MENU_BLOCK = "manda.answer.menu"
GRID_TABLE = "manda.grid.table"
GRID_ACTIONS = "manda.grid.actions"
QA_IMPORT_SUMMARY = "manda.qa.import"  # the head of a Q&A import's summary


def place_block(row: int) -> str:
    """The Attach / New question pair of one unsure answer of a Q&A file."""
    return f"manda.qa.place.{row}"


def add_to_qa(index: int) -> str:
    """Action ids are unique within a block, so each Add to Q&A button has its own number."""
    return f"{ADD_TO_QA}.{index}"


def qa_pick(group: int) -> str:
    """Block and action id of the Add to Q&A modal's `group`-th checkbox group (from 1)."""
    return QA_PICK if group == 1 else f"{QA_PICK}.{group}"


def qa_field(kind: str, index: int) -> str:
    """Block and action id of one question's `text`, `category` or `priority` in QA_VIEW."""
    return f"manda.qa.{kind}.{index}"


def qa_item_block(item_id: str) -> str:
    """The actions block of one Q&A item (Mark answered / Remove)."""
    return f"manda.qa.item.{item_id}"


def decision_block(finding_id: str) -> str:
    """The block holding the Approve / Reject pair of one finding, then its decision and Undo."""
    return f"manda.decide.{finding_id}"


def undone_block(finding_id: str) -> str:
    """The note above a finding's Approve / Reject pair offered again after an undo."""
    return f"manda.undone.{finding_id}"


def grid_pick(group: int) -> str:
    """Block and action id of the grid's `group`-th column checkbox group (from 1)."""
    return f"manda.grid.pick.{group}"
