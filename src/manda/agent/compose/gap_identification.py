"""gap_identification: checklist coverage by category (✅/❌, "3/5 covered"), offer Q&A items."""

from __future__ import annotations

import re

from manda.agent.compose.common import Ask, Draft, qa_action
from manda.agent.evidence import Evidence
from manda.agent.gaps import Coverage
from manda.agent.grounding import cite


def _where(entry_sources: list, limit: int = 2) -> str:
    docs = list(dict.fromkeys(s.document for s in entry_sources))
    shown = ", ".join(docs[:limit]) + (f" (+{len(docs) - limit})" if len(docs) > limit else "")
    return shown


def render(coverage: Coverage, *, category: str | None = None) -> list[str]:
    lines: list[str] = []
    for name, entries in coverage.by_category().items():
        if category and category.lower() not in name.lower():
            continue
        done = sum(1 for e in entries if e.covered)
        lines.append(f"**{name}** — {done}/{len(entries)} covered")
        for entry in entries:
            if entry.covered:
                lines.append(f"✅ {entry.item.title} — {_where(entry.covered_by)}")
            elif entry.outstanding:
                why = f"marked “{entry.item.status}” in the IRL" + (
                    f"; {_where(entry.covered_by)} may answer it" if entry.covered_by else "")
            else:
                why = (f"marked “{entry.item.status}” in the IRL, but no document in the room "
                       "provides it" if entry.status_mismatch else "no document in the room")
            if not entry.covered:
                lines.append(f"❌ {entry.item.title} — {why}")
        lines.append("")
    return lines


def asked_category(question: str, coverage: Coverage) -> str | None:
    """A category the question names ("What is missing in IT/Cyber?" → "IT/Cyber")."""
    lowered = question.lower()
    for name in coverage.by_category():
        parts = [p for p in re.split(r"[/\s,&]+", name.lower()) if len(p) > 1]
        if name.lower() in lowered or any(re.search(rf"\b{re.escape(p)}\b", lowered)
                                          for p in parts if p not in {"it"}):
            return name
    return None


def compose(ask: Ask, evidence: Evidence, category: str | None = None) -> Draft:
    coverage = evidence.coverage
    if not isinstance(coverage, Coverage):
        return Draft(
            text=("I could not assess coverage: the checklist could not be read for this deal. "
                  "Shall I add a request for a complete IRL to the Q&A list?"),
            proposals=[qa_action("Please provide a complete information request list (IRL) "
                                 "with the status of each item.", "General")],
            offer_qa=True,
        )
    category = category or asked_category(ask.question, coverage)
    if coverage.origin == "irl":
        head = (f"IRL coverage: {coverage.covered}/{coverage.total} requests covered by documents "
                f"in the room {cite(coverage.irl_sources)}".rstrip())  # every range it lists
    else:
        head = (f"No IRL in this deal, so I checked the default due-diligence checklist: "
                f"{coverage.covered}/{coverage.total} items covered.")
    lines = [head, "", *render(coverage, category=category)]
    gaps = coverage.gaps
    if category:
        gaps = [g for g in gaps if category.lower() in g.item.category.lower()] or gaps
    if gaps:
        lines.append(f"Shall I generate Q&A items for the {len(gaps)} open "
                     f"{'request' if len(gaps) == 1 else 'requests'} and add them to the Q&A "
                     "list?")
    else:
        lines.append("Every item is covered by at least one document.")
    proposals = [qa_action(g.item.question, g.item.category) for g in gaps]
    return Draft(text="\n".join(lines).strip(), proposals=proposals, offer_qa=bool(gaps))
