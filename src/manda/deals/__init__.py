"""Deal operations shared by every front end (Slack, the CLI), with the rules of who may do what."""

from manda.deals.access import AccessRules, BindingRefusedError, Membership, Refusal, workspace_of
from manda.deals.conversations import ConversationService
from manda.deals.service import (
    Binding,
    DealOverview,
    DealService,
    PendingEvidence,
    ReviewPage,
)

__all__ = [
    "AccessRules",
    "Binding",
    "BindingRefusedError",
    "ConversationService",
    "DealOverview",
    "DealService",
    "Membership",
    "PendingEvidence",
    "Refusal",
    "ReviewPage",
    "workspace_of",
]
