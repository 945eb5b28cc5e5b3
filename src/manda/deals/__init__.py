"""Deal operations shared by every front end (Slack, the CLI), with the rules of who may do what."""

from manda.deals.access import AccessRules, BindingRefusedError, Membership, Refusal, workspace_of
from manda.deals.conversations import ConversationService
from manda.deals.service import (
    Binding,
    DealOverview,
    DealService,
    DocumentChanges,
    PendingEvidence,
    ReviewFilter,
    ReviewPage,
)
from manda.hitl.priority import PRIORITIES, Priority, Urgency
from manda.hitl.qa import CATEGORIES as QA_CATEGORIES
from manda.hitl.qa import category_of

__all__ = [
    "PRIORITIES",
    "QA_CATEGORIES",
    "AccessRules",
    "Binding",
    "BindingRefusedError",
    "ConversationService",
    "DealOverview",
    "DealService",
    "DocumentChanges",
    "Membership",
    "PendingEvidence",
    "Priority",
    "Refusal",
    "ReviewFilter",
    "ReviewPage",
    "Urgency",
    "category_of",
    "workspace_of",
]
