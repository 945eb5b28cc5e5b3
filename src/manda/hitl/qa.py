"""The deal's Q&A list: open questions for the target, added by people with one click."""

from __future__ import annotations

from typing import Protocol

from manda.kg.port import QAList, ReviewLog
from manda.models import AuditEntry, QAItem, QAPriority, stable_id

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
    ) -> tuple[QAItem, bool]:
        """Return the item and whether it was newly added."""
        question = " ".join(question.split())
        item = QAItem(
            id=QAItem.make_id(deal_id, question),
            deal_id=deal_id,
            question=question,
            category=category if category in CATEGORIES else "General",
            priority=priority,
            finding_id=finding_id,
            source=source,
            created_by=by,
        )
        created = await self._graph.add_qa_item(item)
        if not created:
            existing = {i.id: i for i in await self._graph.list_qa_items(deal_id)}
            return existing.get(item.id, item), False
        await self._graph.append_audit(
            AuditEntry(
                id=stable_id("a", deal_id, "qa.added", item.id),
                deal_id=deal_id,
                action="qa.added",
                subject_id=item.id,
                by=by,
                at=item.created_at,
                detail=question,
            )
        )
        return item, True

    async def items(self, deal_id: str) -> list[QAItem]:
        order = {QAPriority.HIGH: 0, QAPriority.MEDIUM: 1, QAPriority.LOW: 2}
        return sorted(
            await self._graph.list_qa_items(deal_id),
            key=lambda i: (order[i.priority], i.created_at, i.id),
        )
