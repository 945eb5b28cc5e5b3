"""Who may link a channel to a deal, unlink it, or decide a deal's findings: the deal's
confidentiality rules, in one place, whichever front end (Slack, a terminal) asks.

A channel key is `{front end}:{workspace}:{channel}` (for Slack `slack:T123:C456`). Membership
is always asked of the deal's own linked channels, whatever workspace the person or the channel
belongs to: an organisation-wide install or a shared (Slack Connect) channel brings people of
other workspaces, and a workspace of one's own is no claim on anyone's deal. Whether a person is
in a channel is asked of the front end through `Membership`, so the rules never know Slack.

- Deals are created only on purpose: `/manda deal new <id>` or a terminal (`manda ingest`).
  Linking by id never creates one, and a refused link says the same whether the deal exists or
  not (a channel that is not linked never learns which deals exist).
- With deal admins configured (`MANDA_DEAL_ADMINS`), only they link, unlink or create deals.
- Without them, a deal no group channel is linked to may be linked once by anyone (the first
  link, as when a deal team sets up its channel); any further link needs a member of a group
  channel already linked to it.
- A one-to-one conversation with Manda vouches for nobody and blocks nobody: it may be linked
  only by someone who is in one of the deal's group channels (or by an admin), never to a new
  deal, and it never counts as a channel of the deal for anyone else.
- A channel linked to one deal is never silently moved: it is unlinked first (by an admin, or
  without admins by a member of that channel; a one-to-one conversation by its person).
- Findings are decided by approvers (`MANDA_APPROVERS`) when configured; else by members of the
  group channel where the button was clicked, if it is linked to the finding's deal (a direct
  conversation or the Home tab: by members of any group channel linked to it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from manda.config import Settings
from manda.errors import MandaError


@dataclass(frozen=True)
class AccessRules:
    """The people the rules name: deal admins (`MANDA_DEAL_ADMINS`) and approvers
    (`MANDA_APPROVERS`), by front-end user id; empty sets mean the membership rules apply."""

    deal_admins: frozenset[str] = field(default_factory=frozenset)
    approvers: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_settings(cls, settings: Settings) -> AccessRules:
        return cls(frozenset(settings.deal_admins), frozenset(settings.approvers))


class Membership(Protocol):
    """What the front end knows about its channels' people (the Slack adapter asks Slack)."""

    def is_direct(self, channel_key: str) -> bool:
        """A one-to-one conversation with Manda: anyone has one, so it vouches for nobody."""
        ...

    async def is_member(self, channel_key: str, user: str) -> bool:
        """Whether `user` is in that channel, whatever workspace either belongs to (False when
        the front end cannot tell)."""
        ...


class Refusal(StrEnum):
    """Why a link or unlink was refused; the front end words it without naming any deal."""

    NOT_ADMIN = "not_admin"  # deal admins are configured and this person is not one
    # no deal by that id, or one linked to group channels this person is in none of: one reply
    # for both, so a refusal never tells whether a deal exists
    NOT_LINKABLE = "not_linkable"
    NAME_TAKEN = "name_taken"  # `/manda deal new` with the id of an existing deal
    NEW_IN_DIRECT = "new_in_direct"  # a new deal is created in its deal channel, not a DM
    NOT_A_MEMBER = "not_a_member"  # unlinking a channel this person is not in
    ALREADY_LINKED = "already_linked"  # the channel is linked to another deal: unlink first
    NOT_LINKED = "not_linked"  # nothing to unlink


class BindingRefusedError(MandaError):
    """A channel was not linked or unlinked, and why; the message names no deal."""

    def __init__(self, reason: Refusal) -> None:
        self.reason = reason
        super().__init__(_REFUSALS[reason], hint=_HINTS[reason])


_REFUSALS = {
    Refusal.NOT_ADMIN: "Only the deal admins can link or unlink channels and create deals.",
    Refusal.NOT_LINKABLE: (
        "I can't link this conversation to that deal: there is no deal by that id, or it is "
        "linked to channels you are not in. Nothing was changed."
    ),
    Refusal.NAME_TAKEN: "That id cannot be used for a new deal; nothing was created.",
    Refusal.NEW_IN_DIRECT: "A new deal is created in its deal channel, not here.",
    Refusal.NOT_A_MEMBER: "You are not in this channel, so it was not unlinked.",
    Refusal.ALREADY_LINKED: "This channel is already linked to a deal; nothing was changed.",
    Refusal.NOT_LINKED: "This channel is not linked to a deal; nothing was changed.",
}
_HINTS = {
    Refusal.NOT_ADMIN: "Ask one of the deal admins (MANDA_DEAL_ADMINS) to do it.",
    Refusal.NOT_LINKABLE: (
        "Ask someone in the deal's channel to link this one, or create a new deal with "
        "`/manda deal new <id>`."
    ),
    Refusal.NAME_TAKEN: "Choose another id for the new deal.",
    Refusal.NEW_IN_DIRECT: "Run `/manda deal new <id>` in the deal team's channel.",
    Refusal.NOT_A_MEMBER: "Ask someone in this channel to unlink it.",
    Refusal.ALREADY_LINKED: "Unlink it first, then link it to the other deal.",
    Refusal.NOT_LINKED: "",
}


def workspace_of(channel_key: str) -> str:
    """`slack:T1` of `slack:T1:C2`: the channels that share a workspace share these rules."""
    return channel_key.rpartition(":")[0]


def in_workspace(channel_key: str, workspace: str) -> bool:
    return workspace_of(channel_key) == workspace
