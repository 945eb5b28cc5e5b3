"""The deal's Q&A list: open questions for the target, added by people with one click."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal, Protocol

from manda.errors import MandaError
from manda.kg.port import QAList, ReviewLog
from manda.models import AuditEntry, QAItem, QAPriority, stable_id, utcnow

CATEGORIES = (
    "Financial",
    "Legal",
    "Commercial",
    "HR",
    "Tax",
    "IP",
    "IT/Cyber",
    "Operations",
    "General",
)


class QuestionNotFoundError(MandaError):
    """A Q&A item named by number or id that is not on the deal's list."""

    def __init__(self, deal_id: str, ref: str) -> None:
        super().__init__(
            f"Question {ref} is not on the Q&A list of {deal_id}.",
            hint="See the list and its numbers with `/manda qa` (or `manda qa --deal D`).",
        )


def category_of(text: str) -> str:
    """The list's category spelled as written (`legal` → `Legal`), `General` when unknown."""
    wanted = text.strip().lower()
    return next((c for c in CATEGORIES if c.lower() == wanted), "General")


class QAStore(QAList, ReviewLog, Protocol):
    """The roles the Q&A list needs: the list itself and the audit log."""


class QAService:
    """Adds each question once (a double click adds nothing) and logs who added it."""

    def __init__(self, *, graph: QAStore) -> None:
        self._graph = graph

    async def add(
        self,
        deal_id: str,
        question: str,
        *,
        by: str,
        category: str = "General",
        priority: QAPriority = QAPriority.MEDIUM,
        finding_id: str | None = None,
        source: str | None = None,
        follow_up_of: int | None = None,
    ) -> tuple[QAItem, bool]:
        """Return the item and whether it was newly added."""
        question = " ".join(question.split())
        existing = await self._graph.list_qa_items(deal_id)
        item = QAItem(
            id=QAItem.make_id(deal_id, question),
            deal_id=deal_id,
            question=question,
            category=category if category in CATEGORIES else "General",
            priority=priority,
            finding_id=finding_id,
            source=source,
            created_by=by,
            number=await self._next_number(deal_id, existing),
            follow_up_of=follow_up_of,
        )
        created = await self._graph.add_qa_item(item)
        if not created:
            found = {i.id: i for i in await self._graph.list_qa_items(deal_id)}
            return found.get(item.id, item), False
        await self._log(item, "qa.added", by, question, at=item.created_at)
        return item, True

    async def _next_number(self, deal_id: str, existing: list[QAItem]) -> int:
        """One past every number ever given: the append-only log counts removed items too."""
        added = sum(e.action == "qa.added" for e in await self._graph.list_audit(deal_id))
        return max([added, *(i.number for i in existing)]) + 1

    async def find(self, deal_id: str, ref: str) -> QAItem:
        """The item numbered `ref` ("7", "Q7") or with id `ref`."""
        wanted = ref.strip().lstrip("#").removeprefix("Q").removeprefix("q")
        for item in await self._graph.list_qa_items(deal_id):
            if item.id == ref.strip() or (wanted.isdigit() and item.number == int(wanted)):
                return item
        raise QuestionNotFoundError(deal_id, ref)

    async def mark_answered(self, deal_id: str, ref: str, *, by: str, answer: str = "") -> QAItem:
        """The target answered it: status `answered`, with the answer when one is given."""
        item = await self.find(deal_id, ref)
        answer = " ".join(answer.split())
        item = item.model_copy(
            update={
                "status": "answered",
                "answer": answer or item.answer,
                "updated_by": by,
                "updated_at": utcnow(),
            }
        )
        await self._replace(item)
        await self._log(item, "qa.answered", by, answer or "marked answered")
        return item

    async def record_answer(
        self,
        deal_id: str,
        ref: str,
        *,
        by: str,
        answer: str,
        answered_by: str | None = None,
        answered_on: date | None = None,
        document: str | None = None,
        status: Literal["answered", "closed"] = "answered",
    ) -> tuple[QAItem, bool]:
        """The seller's answer read from an answered Q&A file (`closed` when a follow-up question
        carries it on); the item, and whether anything changed (the same file read twice
        changes nothing)."""
        item = await self.find(deal_id, ref)
        answer = " ".join(answer.split())
        update = {"status": status, "answer": answer or item.answer,
                  "answered_by": answered_by or item.answered_by,
                  "answered_on": answered_on or item.answered_on,
                  "answer_document": document or item.answer_document}
        if all(getattr(item, k) == v for k, v in update.items()):
            return item, False
        item = item.model_copy(update={**update, "updated_by": by, "updated_at": utcnow()})
        await self._replace(item)
        who = f" by {answered_by}" if answered_by else ""
        await self._log(item, "qa.answered", by, f"{answer or 'answered'}{who}"
                        + (" (needs a follow-up)" if status == "closed" else ""))
        return item, True

    async def edit(
        self,
        deal_id: str,
        ref: str,
        *,
        by: str,
        question: str | None = None,
        category: str | None = None,
        priority: QAPriority | None = None,
    ) -> QAItem:
        """Reword a question or change its category or priority; the number stays."""
        item = await self.find(deal_id, ref)
        update: dict[str, object] = {"updated_by": by, "updated_at": utcnow()}
        if question is not None and " ".join(question.split()):
            update["question"] = " ".join(question.split())
        if category is not None:
            update["category"] = category_of(category)
        if priority is not None:
            update["priority"] = priority
        edited = item.model_copy(update=update)
        await self._replace(edited)
        changes = [
            f"{name}: {getattr(item, name)!s} → {getattr(edited, name)!s}"
            for name in ("question", "category", "priority")
            if getattr(item, name) != getattr(edited, name)
        ]
        await self._log(edited, "qa.edited", by, "; ".join(changes) or "no change")
        return edited

    async def remove(self, deal_id: str, ref: str, *, by: str) -> QAItem:
        """Take a question off the list (the audit log keeps what it said)."""
        item = await self.find(deal_id, ref)
        if not await self._graph.remove_qa_item(deal_id, item.id):
            raise QuestionNotFoundError(deal_id, ref)
        await self._log(item, "qa.removed", by, item.question)
        return item

    async def _replace(self, item: QAItem) -> None:
        if not await self._graph.replace_qa_item(item):
            raise QuestionNotFoundError(item.deal_id, str(item.number or item.id))

    async def _log(
        self, item: QAItem, action: str, by: str, detail: str, *, at: datetime | None = None
    ) -> None:
        """Audit one change; an add keeps its one id (a retried add logs nothing new)."""
        when = at or utcnow()
        moment = () if at else (when.isoformat(),)
        await self._graph.append_audit(
            AuditEntry(
                id=stable_id("a", item.deal_id, action, item.id, *moment),
                deal_id=item.deal_id,
                action=action,
                subject_id=item.id,
                by=by,
                at=when,
                detail=detail,
            )
        )

    async def items(self, deal_id: str) -> list[QAItem]:
        order = {QAPriority.HIGH: 0, QAPriority.MEDIUM: 1, QAPriority.LOW: 2}
        return sorted(
            await self._graph.list_qa_items(deal_id),
            key=lambda i: (order[i.priority], i.created_at, i.id),
        )
