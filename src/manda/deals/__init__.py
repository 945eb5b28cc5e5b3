"""Deal operations shared by every front end (Slack, the CLI), with the rules of who may do what."""

from manda.deals.access import AccessRules, BindingRefusedError, Membership, Refusal, workspace_of
from manda.deals.changes import ChangeItem, DealChanges, counted
from manda.deals.conversations import ConversationService
from manda.deals.digest import DigestSetting
from manda.deals.entities import EntityLink, linked_names
from manda.deals.notes import NoteResult, Teller, note_text
from manda.deals.qa_import import NEW as NEW_QUESTION
from manda.deals.qa_import import QAImport, UnsureMatch
from manda.deals.records import (
    Binding,
    Change,
    DealOverview,
    DocumentChanges,
    PendingEvidence,
    Reanalysis,
    ReviewFilter,
    ReviewPage,
)
from manda.deals.service import DealService
from manda.hitl.priority import PRIORITIES, Priority, Urgency
from manda.hitl.qa import CATEGORIES as QA_CATEGORIES
from manda.hitl.qa import category_of

__all__ = [
    "NEW_QUESTION",
    "PRIORITIES",
    "QA_CATEGORIES",
    "AccessRules",
    "Binding",
    "BindingRefusedError",
    "Change",
    "ChangeItem",
    "ConversationService",
    "DealChanges",
    "DealOverview",
    "DealService",
    "DigestSetting",
    "DocumentChanges",
    "EntityLink",
    "Membership",
    "NoteResult",
    "PendingEvidence",
    "Priority",
    "QAImport",
    "Reanalysis",
    "Refusal",
    "ReviewFilter",
    "ReviewPage",
    "Teller",
    "UnsureMatch",
    "Urgency",
    "category_of",
    "counted",
    "linked_names",
    "note_text",
    "workspace_of",
]
