"""The deal operations that change what Manda knows, bound to one person, their message and
their conversation: what Claude's tools call (`manda.agent.actions`), and what a "note:" / "FYI"
mention does offline.

Each refuses, saying why, where that person may not act on the deal (`DealService.may_act`,
checked by the front end that builds it), and a note keeps only what that person said: a fact
whose figures or words are not in their own message (read in a document, or an instruction
inside one) is refused, so text of the room can never become something "told".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from manda.agent.actions import Acted
from manda.deals.entities import EntityLink, linked_names
from manda.deals.notes import NoteResult, Teller, note_text
from manda.deals.records import Reanalysis
from manda.errors import MandaError
from manda.finance.amounts import find_amounts, same_amount
from manda.injection import looks_like_instruction
from manda.models import SearchHit

if TYPE_CHECKING:  # types only: the workflows (IRL, CIM) load when first used
    from manda.deals.workflows import WorkflowStep

OWN_WORDS = 0.6  # of a noted fact's words, at least this share must be the person's own


@dataclass(frozen=True)
class Told:
    """What a message that tells Manda something did (offline cues): for the thread's reply."""

    kind: Literal["noted", "linked", "refused"]
    acted: Acted
    note: NoteResult | None = None
    link: EntityLink | None = None


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[^\W\d_]{3,}", text.lower())}


def their_own(fact: str, said: str) -> bool:
    """Whether `fact` restates what the person said: its figures are theirs, and most words."""
    stated = find_amounts(said)
    for amount in find_amounts(fact):
        if not any(same_amount(amount.value, s.value) for s in stated):
            return False
    words = _words(fact)
    return not words or len(words & _words(said)) >= OWN_WORDS * len(words)


class DealOperations(Protocol):
    """What the actions ask of the deal service (`DealService` is one): each audited there."""

    async def note(self, deal_id: str, text: str, *, teller: Teller) -> NoteResult: ...

    async def passages(self, deal_id: str, name: str) -> list[SearchHit]: ...

    async def draft_irl(
        self, deal_id: str, *, by: str, owner: str, conversation: str,
        requests: Sequence[tuple[str, str]] = (),
    ) -> WorkflowStep: ...

    async def reanalyse(self, deal_id: str, *, by: str, document: str | None = None
                        ) -> Reanalysis: ...

    async def link_entities(self, deal_id: str, names: Sequence[str], *, by: str
                            ) -> EntityLink: ...


@dataclass
class DealActions:
    """`KnowledgeActions` for one person asking in one conversation of one deal."""

    deals: DealOperations
    deal_id: str
    teller: Teller
    said: str  # the person's message: the only text a note may come from
    owner: str | None = None  # who owns workflows started here (the channel)
    conversation: str | None = None
    refusal: str | None = None  # why this person may not change the deal (None: they may)
    done: list[Acted] = field(default_factory=list)  # what was done, in order

    def _refused(self) -> Acted | None:
        if self.refusal is None:
            return None
        return self._keep(Acted(text=self.refusal, done=False))

    def _keep(self, acted: Acted) -> Acted:
        self.done.append(acted)
        return acted

    async def note(self, fact: str) -> Acted:
        if (refused := self._refused()) is not None:
            return refused
        fact = " ".join(fact.split())
        if not fact or looks_like_instruction(fact) or not their_own(fact, self.said):
            return self._keep(Acted(
                text=f"Not kept: “{fact[:160]}” is not what {self.teller.name} said in this "
                     "message. Only a fact the person tells you, in their words, is kept.",
                done=False))
        result = await self.deals.note(self.deal_id, fact, teller=self.teller)
        return self._keep(await self._noted(result))

    async def _noted(self, result: NoteResult) -> Acted:
        figures = "; ".join(f"{f.label}{f' {f.period}' if f.period else ''}: "
                            f"{f.value_text or ''} ({f.nature.value})".replace(":  (", ": (")
                            for f in result.findings) or "no figure in it"
        against = (" It disagrees with the room: " + "; ".join(result.conflicts) + "."
                   if result.conflicts else "")
        again = " (told before: nothing new kept)" if result.unchanged else ""
        text = (f"Kept as {result.citation}{again}: “{result.text}”. Figures waiting for "
                f"review: {figures}.{against} Cite it as (source: {result.citation}).")
        hits = await self.deals.passages(self.deal_id, result.name)
        return Acted(text=text, findings=list(result.findings), hits=hits)

    async def draft_irl(self, requests: Sequence[tuple[str, str]]) -> Acted:
        if (refused := self._refused()) is not None:
            return refused
        if self.owner is None or self.conversation is None:
            return self._keep(Acted(text="The IRL is built in a deal channel's thread: "
                                         "`/manda irl` there.", done=False))
        kept = [(r, c) for r, c in requests if r.strip() and not looks_like_instruction(r)]
        step = await self.deals.draft_irl(self.deal_id, by=self.teller.user, owner=self.owner,
                                          conversation=self.conversation, requests=kept)
        return self._keep(Acted(
            text=f"{step.text}\n(This thread now builds the IRL: reply `add: …`, `drop F-03`, "
                 "`priority F-03 high`, `attach Q&A` or `export`.)"))

    async def reanalyse(self, document: str | None) -> Acted:
        if (refused := self._refused()) is not None:
            return refused
        try:
            result = await self.deals.reanalyse(self.deal_id, by=self.teller.user,
                                                document=document)
        except MandaError as exc:
            return self._keep(Acted(text=str(exc), done=False))
        return self._keep(Acted(text=result.summary().capitalize() + "."))

    async def link_entities(self, names: Sequence[str]) -> Acted:
        if (refused := self._refused()) is not None:
            return refused
        missing = [n for n in names if n.strip().lower() not in self.said.lower()]
        if missing:
            return self._keep(Acted(text=f"Not linked: {', '.join(missing)} is not a name "
                                         f"{self.teller.name} gave in this message.", done=False))
        try:
            link = await self.deals.link_entities(self.deal_id, names, by=self.teller.user)
        except MandaError as exc:
            return self._keep(Acted(text=str(exc), done=False))
        return self._keep(Acted(text=_linked(link)))

    async def from_message(self, message: str) -> Told | None:
        """A message that tells Manda something ("note: …", "FYI …"): noted, or two names linked
        when it says they are one entity; None for anything else (a question)."""
        told = note_text(message)
        if told is None:
            return None
        if (refused := self._refused()) is not None:
            return Told("refused", refused)
        names = linked_names(told)
        if names:
            try:
                link = await self.deals.link_entities(self.deal_id, names, by=self.teller.user)
            except MandaError as exc:
                return Told("refused", self._keep(Acted(text=str(exc), done=False)))
            return Told("linked", self._keep(Acted(text=_linked(link))), link=link)
        result = await self.deals.note(self.deal_id, told, teller=self.teller)
        return Told("noted", self._keep(await self._noted(result)), note=result)


def _linked(link: EntityLink) -> str:
    names = " = ".join(link.names)
    if not link.changed:
        return f"Already one entity: {names}."
    return f"Linked as one entity: {names}. A question naming one now finds the others."
