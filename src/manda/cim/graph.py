"""The CIM builder as a LangGraph graph: one step per message of the thread, state checkpointed.

Persona → outline (edited in plain words) → sections one by one (approve / regenerate / edit) →
export. The project lives in the graph's checkpoint, keyed by the workflow id, so a thread can be
resumed from any process after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypedDict

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from manda.agent.context import AgentContext
from manda.cim import tools
from manda.cim.drafting import ExtractiveDrafter
from manda.cim.model import CimProject
from manda.cim.outline import render_outline
from manda.cim.port import SlideDrafter
from manda.text import count_of
from manda.workflows.graph import build_step_graph

__all__ = ["CimState", "build_cim_graph", "render_slide"]

ASK_PERSONA = ("Who is this CIM for? Say *strategic* or *financial* buyer, and if you like the "
               "sector, size and what they care about — e.g. “financial buyer, mid-market, cares "
               "about cash conversion and management”.")
_GO = re.compile(r"^\s*(?:go|ok|okay|looks good|start|draft|yes|proceed|continue|lgtm)\b", re.I)
_NEXT = re.compile(r"^\s*(?:next|skip)\b", re.I)
_REGEN = re.compile(r"^\s*(?:regenerate|redraft|again|retry)\b", re.I)
_EXPORT = re.compile(r"^\s*(?:export|finish|done|build (?:the )?deck)\b", re.I)
_CANCEL = re.compile(r"^\s*(?:cancel|stop|abort|quit)\b", re.I)
_STATUS = re.compile(r"^\s*(?:status|where are we)\b", re.I)
_SECTION = re.compile(r"^\s*(?:section|go to|draft)\s+#?(\d+)\s*$", re.I)
_OUTLINE = re.compile(r"^\s*(?:outline|back to (?:the )?outline)\s*$", re.I)


class CimState(TypedDict, total=False):
    project: dict[str, Any]  # a `CimProject`, as JSON-ready data (checkpoint-friendly)
    message: str
    reply: str


@dataclass
class CimContext:
    """What a CIM step needs: the answering agent's stores and search, and the slide writer
    (Claude when configured, else extractive)."""

    agent: AgentContext
    drafter: SlideDrafter = field(default_factory=ExtractiveDrafter)


def render_slide(project: CimProject, index: int) -> str:
    section = project.outline[index]
    draft = project.drafts.get(section.id)
    if draft is None:
        return f"{index + 1}. {section.title}: not drafted yet."
    lines = [f"*{index + 1}/{len(project.outline)} · {draft.title}*"
             + (" ✅ approved" if draft.status == "approved" else "")]
    sources = {(c.document, c.location): n for n, c in enumerate(draft.sources(), start=1)}
    for bullet in draft.bullets:
        marks = "".join(f"[{n}]" for n in dict.fromkeys(
            sources[(c.document, c.location)] for c in bullet.citations))
        lines.append(f"• {bullet.text} {marks}")
    if draft.figures:
        periods = list(dict.fromkeys(p for r in draft.figures for p in r.values))
        lines.append("| | " + " | ".join(periods) + " |")
        lines.append("|---" * (len(periods) + 1) + "|")
        for row in draft.figures:
            lines.append(f"| {row.label} | "
                         + " | ".join(row.values.get(p, "—") for p in periods) + " |")
    for note in draft.notes:
        lines.append(f"_Note: {note}_")
    if draft.notice:
        lines.append(f"_⚠️ {draft.notice}._")
    lines.append("Sources: " + "; ".join(f"[{n}] {doc}, {loc}"
                                         for (doc, loc), n in sources.items()))
    return "\n".join(lines)


def _status(project: CimProject) -> str:
    if project.phase == "persona":
        return "Waiting for the buyer persona. " + ASK_PERSONA
    approved = len(project.approved())
    if project.phase == "outline":
        return (f"Outline for a {project.persona.describe() if project.persona else 'buyer'}, "
                f"{len(project.outline)} sections, not drafted yet.")
    if project.phase in {"done", "cancelled"}:
        return f"This CIM is {project.phase}; {count_of(approved, 'section')} approved."
    return (f"Section {project.current + 1} of {len(project.outline)} "
            f"({project.outline[project.current].title}); {approved} approved so far.")


async def _next_unapproved(ctx: CimContext, project: CimProject) -> tuple[CimProject, str]:
    for index in range(project.current + 1, len(project.outline)):
        if project.outline[index].id not in {d.section_id for d in project.approved()}:
            project = await _generate(ctx, project, index)
            return project, render_slide(project, index)
    project = project.model_copy(update={"phase": "export"})
    return project, (f"All sections are done ({len(project.approved())} approved). Say "
                     "*export* to build the deck.")


async def step(state: CimState, runtime: Runtime[CimContext]) -> dict[str, Any]:
    ctx = runtime.context
    project = CimProject.model_validate(state["project"])
    message = (state.get("message") or "").strip()
    reply: str
    try:
        project, reply = await _handle(ctx, project, message)
    except ValueError as exc:  # an edit that cannot apply: say why, change nothing
        reply = str(exc)
    return {"project": project.model_dump(mode="json"), "reply": reply, "message": ""}


async def _generate(ctx: CimContext, project: CimProject, index: int) -> CimProject:
    return await tools.generate_slide(ctx.agent, project, index, ctx.drafter)


async def _handle(ctx: CimContext, project: CimProject, message: str
                  ) -> tuple[CimProject, str]:
    if _CANCEL.match(message):
        return project.model_copy(update={"phase": "cancelled"}), "CIM cancelled."
    if _STATUS.match(message):
        return project, _status(project)
    if project.phase in {"done", "cancelled"}:
        return project, _status(project) + " Start a new one with /manda cim."
    if project.phase == "persona":
        persona = tools.parse_persona(message) if message else None
        if persona is None:
            return project, ASK_PERSONA
        project = tools.create_outline(tools.save_buyer_persona(project, persona))
        return project, (f"Buyer: {persona.describe()}. Proposed outline:\n"
                         f"{render_outline(project.outline)}\nEdit it (“drop 7”, “merge 3 and "
                         "4”, “add a section on IP”, “move 9 to 2”) or say *go* to draft "
                         "section 1.")
    if _OUTLINE.match(message):
        return project.model_copy(update={"phase": "outline"}), render_outline(project.outline)
    if project.phase == "outline":
        if _GO.match(message):
            project = await _generate(ctx, project, 0)
            return project, render_slide(project, 0)
        project = tools.update_outline(project, message)
        return project, render_outline(project.outline) + "\nSay *go* when the outline is right."
    if _EXPORT.match(message):
        return project.model_copy(update={"phase": "export"}), (
            f"Ready to export {count_of(len(project.approved()), 'approved section')}.")
    if m := _SECTION.match(message):
        project = await _generate(ctx, project, int(m.group(1)) - 1)
        return project, render_slide(project, project.current)
    if _REGEN.match(message):
        project = await _generate(ctx, project, project.current)
        return project, render_slide(project, project.current)
    if _NEXT.match(message):
        return await _next_unapproved(ctx, project)
    project = tools.update_slide(project, project.current, message)
    section = project.outline[project.current]
    if project.drafts[section.id].status == "approved":
        return await _next_unapproved(ctx, project)
    return project, render_slide(project, project.current)


def build_cim_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    """A fresh compiled CIM graph; run it with `context=CimContext(...)` and a thread id."""
    return build_step_graph(step, state_schema=CimState, context_schema=CimContext,
                            checkpointer=checkpointer)
