"""The IRL workflow of a thread: build from the room, edit in plain words, export to Excel.

An exported IRL is also filed into the deal's data room as its newest request list, so gap
checks (`find_gaps`, `/manda gaps`) read the list the team built, with its rows as sources.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, TypedDict

from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from manda.agent.evidence import Evidence
from manda.agent.gaps import assess_coverage
from manda.exports.xlsx import write_table
from manda.irl.build import attach_qa, build_irl, edit_irl, render_irl
from manda.irl.model import IrlProject
from manda.kg.port import KnowledgeGraph
from manda.workflows.checkpoints import WorkflowCheckpoints
from manda.workflows.graph import build_step_graph
from manda.workflows.ids import WorkflowId

__all__ = ["IrlReply", "IrlService", "export_irl_xlsx"]

IngestFiles = Callable[[str, Sequence[Path]], Awaitable[Any]]
_ATTACH = re.compile(r"^\s*(?:attach|add|include)\s+(?:the\s+)?(?:q&a|qa|questions)\b", re.I)
_CANCEL = re.compile(r"^\s*(?:cancel|stop|abort)\b", re.I)
_STATUS = re.compile(r"^\s*(?:status|show|list)\b", re.I)
_EXPORT = re.compile(r"^\s*(?:export|done|finish)\b", re.I)
HEADERS = ("Ref", "Category", "Request", "Priority", "Purpose", "Status", "Provided by")


class IrlState(TypedDict, total=False):
    project: dict[str, Any]
    message: str
    reply: str


@dataclass
class IrlContext:
    graph: KnowledgeGraph


@dataclass(frozen=True)
class IrlReply:
    text: str
    project: IrlProject


async def _step(state: IrlState, runtime: Runtime[IrlContext]) -> dict[str, Any]:
    project = IrlProject.model_validate(state["project"])
    message = (state.get("message") or "").strip()
    try:
        if not message or _STATUS.match(message):
            reply = render_irl(project)
        elif _CANCEL.match(message):
            project, reply = project.model_copy(update={"phase": "cancelled"}), "IRL cancelled."
        elif _ATTACH.match(message):
            questions = await runtime.context.graph.list_qa_items(project.deal_id)
            before = len(project.items)
            project = attach_qa(project, questions)
            reply = (f"Attached {len(project.items) - before} open Q&A question(s).\n"
                     + render_irl(project))
        elif _EXPORT.match(message):
            reply = "Exporting the IRL."
        else:
            project = edit_irl(project, message)
            reply = render_irl(project)
    except ValueError as exc:
        reply = str(exc)
    return {"project": project.model_dump(mode="json"), "reply": reply, "message": ""}


def export_irl_xlsx(project: IrlProject, out: Path) -> Path:
    rows = [(i.ref, i.category, i.request, i.priority, i.purpose, i.status,
             "; ".join(i.covered_by)) for i in project.items]
    title = f"Information request list — {project.deal_id} — Date: {date.today():%-d %B %Y}"
    return write_table(out, sheet="IRL", headers=HEADERS, rows=rows, title=title)


class IrlService:
    """One IRL per workflow id, checkpointed like every workflow."""

    def __init__(self, *, graph: KnowledgeGraph, checkpoints: WorkflowCheckpoints,
                 ingest: IngestFiles | None = None) -> None:
        self._graph = graph
        self._checkpoints = checkpoints
        self._ingest = ingest
        self._compiled_graph: CompiledStateGraph | None = None

    def _compiled(self) -> CompiledStateGraph:
        if self._compiled_graph is None:
            self._compiled_graph = build_step_graph(
                _step, state_schema=IrlState, context_schema=IrlContext,
                checkpointer=self._checkpoints.saver)
        return self._compiled_graph

    @staticmethod
    def _config(wid: WorkflowId) -> dict[str, Any]:
        return {"configurable": {"thread_id": str(wid)}}

    async def project(self, wid: WorkflowId) -> IrlProject | None:
        snapshot = await self._compiled().aget_state(self._config(wid))
        data = snapshot.values.get("project") if snapshot and snapshot.values else None
        return IrlProject.model_validate(data) if data else None

    async def _run(self, wid: WorkflowId, update: dict[str, Any]) -> IrlReply:
        result = await self._compiled().ainvoke(update, self._config(wid),
                                                context=IrlContext(graph=self._graph))
        return IrlReply(text=result["reply"], project=IrlProject.model_validate(
            result["project"]))

    async def start(self, wid: WorkflowId) -> IrlReply:
        """Build the IRL from what the room covers (its own IRL, else the default checklist)."""
        coverage = await assess_coverage(self._graph, wid.deal_id, Evidence())
        project = build_irl(wid.deal_id, coverage)
        return await self._run(wid, {"project": project.model_dump(mode="json"), "message": ""})

    async def send(self, wid: WorkflowId, message: str) -> IrlReply:
        if await self.project(wid) is None:
            raise LookupError("No IRL is being built in this thread: start one with /manda irl.")
        return await self._run(wid, {"message": message})

    async def export(self, wid: WorkflowId, out: Path, *, file_into_room: bool = True) -> Path:
        """Write the XLSX; file it into the deal's room as its newest IRL unless told not to."""
        project = await self.project(wid)
        if project is None:
            raise LookupError("No IRL is being built in this thread: start one with /manda irl.")
        path = export_irl_xlsx(project, out)
        if file_into_room and self._ingest is not None:
            await self._ingest(wid.deal_id, [path])
        done = project.model_copy(update={"phase": "exported"})
        await self._compiled().aupdate_state(self._config(wid), {
            "project": done.model_dump(mode="json"), "reply": f"IRL exported: {path.name}"})
        return path
