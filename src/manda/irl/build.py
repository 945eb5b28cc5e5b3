"""Building and editing the IRL: the checklist (or the room's own IRL) with what the room covers,
the gaps first, grouped by workstream; edits in plain words ("drop F-03", "priority 4 high")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.agent.gaps import Coverage
from manda.irl.model import IrlItem, IrlProject, Priority, purpose_for
from manda.models import QAItem

__all__ = ["attach_qa", "build_irl", "edit_irl", "render_irl"]

_PRIORITY_WORDS: dict[str, Priority] = {
    "high": "high", "h": "high", "1": "high", "critical": "high", "urgent": "high",
    "medium": "medium", "m": "medium", "2": "medium", "normal": "medium",
    "low": "low", "l": "low", "3": "low", "nice to have": "low",
}
_HIGH_BY_DEFAULT = ("financial", "legal", "tax")


def _priority(stated: str | None, category: str, covered: bool) -> Priority:
    if stated and stated.strip().lower() in _PRIORITY_WORDS:
        return _PRIORITY_WORDS[stated.strip().lower()]
    if covered:
        return "low"
    return "high" if category.lower().startswith(_HIGH_BY_DEFAULT) else "medium"


def _prefix(category: str) -> str:
    letters = re.sub(r"[^A-Za-z]", "", category)
    return (letters[:2] if category.lower().startswith(("hr", "ip", "it")) else letters[:1]
            ).upper() or "G"


def build_irl(deal_id: str, coverage: Coverage) -> IrlProject:
    """The IRL from a coverage assessment: every item, with its status and what covers it."""
    items: list[IrlItem] = []
    counters: dict[str, int] = {}
    for entry in coverage.items:
        category = entry.item.category
        prefix = _prefix(category)
        counters[prefix] = counters.get(prefix, 0) + 1
        covered = [f"{s.document}, {s.location}" for s in entry.covered_by] \
            if entry.covered else []  # an IRL's own "Open" stays open
        items.append(IrlItem(
            ref=entry.item.ref or f"{prefix}-{counters[prefix]:02d}",
            category=category,
            request=entry.item.item,
            priority=_priority(entry.item.priority, category, bool(covered)),
            purpose=purpose_for(category),
            status="provided" if covered else "open",
            covered_by=covered,
        ))
    return IrlProject(deal_id=deal_id, origin=coverage.origin, items=_ordered(items))


def _ordered(items: Sequence[IrlItem]) -> list[IrlItem]:
    rank = {"high": 0, "medium": 1, "low": 2}
    categories = list(dict.fromkeys(i.category for i in items))
    return sorted(items, key=lambda i: (categories.index(i.category), i.status == "provided",
                                        rank[i.priority]))


def attach_qa(project: IrlProject, questions: Sequence[QAItem]) -> IrlProject:
    """The deal's open Q&A questions as requests of their own (once each)."""
    known = {i.qa_id for i in project.items if i.qa_id}
    added = [
        IrlItem(ref=f"Q-{n:02d}", category=q.category or "Q&A", request=q.question,
                priority=q.priority.value if q.priority.value in _PRIORITY_WORDS else "medium",
                purpose=purpose_for("q&a"), qa_id=q.id)
        for n, q in enumerate((q for q in questions if q.id not in known and q.status in
                               ("draft", "sent")), start=len(known) + 1)
    ]
    return project.model_copy(update={"items": _ordered([*project.items, *added])})


_DROP = re.compile(r"^\s*(?:drop|remove|delete)\s+(?P<ref>[\w/-]+)\s*$", re.I)
_PRIO = re.compile(r"^\s*(?:priority|prio)\s+(?P<ref>[\w/-]+)\s+(?P<p>high|medium|low)\s*$|"
                   r"^\s*(?:make|set)\s+(?P<ref2>[\w/-]+)\s+(?P<p2>high|medium|low)(?:\s+"
                   r"priority)?\s*$", re.I)
_MARK = re.compile(r"^\s*(?:mark\s+)?(?P<ref>[\w/-]+)\s+(?:as\s+)?(?P<s>provided|open|partial|"
                   r"received)\s*$", re.I)
_ADD = re.compile(r"^\s*add\s*:?\s+(?P<req>.+?)(?:\s*\((?P<cat>[^,)]+)(?:,\s*(?P<p>high|medium|"
                  r"low))?\))?\s*$", re.I)


def _find(project: IrlProject, ref: str) -> int:
    for n, item in enumerate(project.items):
        if item.ref.lower() == ref.lower():
            return n
    if ref.isdigit() and 1 <= int(ref) <= len(project.items):
        return int(ref) - 1
    raise ValueError(f"There is no request {ref}: use its reference (e.g. "
                     f"{project.items[0].ref if project.items else 'F-01'}) or its number.")


def edit_irl(project: IrlProject, instruction: str) -> IrlProject:
    """The IRL after one edit; `ValueError` said for a person when the edit cannot apply."""
    items = list(project.items)
    if m := _DROP.match(instruction):
        del items[_find(project, m.group("ref"))]
    elif m := _PRIO.match(instruction):
        n = _find(project, m.group("ref") or m.group("ref2"))
        priority = (m.group("p") or m.group("p2")).lower()
        items[n] = items[n].model_copy(update={"priority": priority})
    elif m := _MARK.match(instruction):
        n = _find(project, m.group("ref"))
        status = "provided" if m.group("s").lower() == "received" else m.group("s").lower()
        items[n] = items[n].model_copy(update={"status": status})
    elif m := _ADD.match(instruction):
        category = (m.group("cat") or "General").strip()
        prefix = _prefix(category)
        count = sum(1 for i in items if i.ref.startswith(prefix + "-")) + 1
        items.append(IrlItem(ref=f"{prefix}-{count:02d}", category=category,
                             request=m.group("req").strip(),
                             priority=(m.group("p") or "medium").lower(),  # type: ignore[arg-type]
                             purpose=purpose_for(category)))
    else:
        raise ValueError("I can “drop F-03”, “priority F-03 high”, “mark T-01 provided”, "
                         "“add: Insurance policies (Legal, high)”, “attach Q&A”, or *export*.")
    return project.model_copy(update={"items": _ordered(items)})


def render_irl(project: IrlProject, *, limit: int = 40) -> str:
    """The list grouped by workstream, open requests first, for a thread or a terminal."""
    lines: list[str] = []
    category = None
    open_count = len(project.open_items())
    lines.append(f"IRL for {project.deal_id}: {len(project.items)} requests, {open_count} open "
                 f"({'from the room’s IRL' if project.origin == 'irl' else 'default checklist'})")
    for item in project.items[:limit]:
        if item.category != category:
            category = item.category
            lines.append(f"*{category}*")
        mark = "✅" if item.status == "provided" else ("◐" if item.status == "partial" else "•")
        where = f" — provided: {item.covered_by[0]}" if item.covered_by else ""
        lines.append(f"{mark} {item.ref} {item.request} [{item.priority}]{where}")
    if len(project.items) > limit:
        lines.append(f"… and {len(project.items) - limit} more in the export.")
    return "\n".join(lines)
