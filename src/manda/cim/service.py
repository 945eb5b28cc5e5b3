"""The CIM builder as a deal operation: start, step, status and export, whatever the front end."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.graph.state import CompiledStateGraph

from manda.agent.context import AgentContext
from manda.cim.drafting import ExtractiveDrafter
from manda.cim.export import export_pptx
from manda.cim.graph import CimContext, build_cim_graph
from manda.cim.model import CimProject
from manda.cim.port import SlideDrafter
from manda.workflows.checkpoints import WorkflowCheckpoints
from manda.workflows.ids import WorkflowId

__all__ = ["CimReply", "CimService"]


@dataclass(frozen=True)
class CimReply:
    """What to show after a step: the text, and the project for buttons (current section)."""

    text: str
    project: CimProject


class CimService:
    """One CIM per workflow id; every step is checkpointed, so any process can resume it."""

    def __init__(self, *, agent: AgentContext, checkpoints: WorkflowCheckpoints,
                 drafter: SlideDrafter | None = None) -> None:
        """`drafter` writes each section's slide (extractive when None)."""
        self._agent = agent
        self._checkpoints = checkpoints
        self.drafter: SlideDrafter = drafter or ExtractiveDrafter()
        self._graph: CompiledStateGraph | None = None

    def _compiled(self) -> CompiledStateGraph:
        if self._graph is None:
            self._graph = build_cim_graph(self._checkpoints.saver)
        return self._graph

    @staticmethod
    def _config(wid: WorkflowId) -> dict[str, Any]:
        return {"configurable": {"thread_id": str(wid)}}

    async def project(self, wid: WorkflowId) -> CimProject | None:
        snapshot = await self._compiled().aget_state(self._config(wid))
        data = snapshot.values.get("project") if snapshot and snapshot.values else None
        return CimProject.model_validate(data) if data else None

    async def _run(self, wid: WorkflowId, update: dict[str, Any]) -> CimReply:
        result = await self._compiled().ainvoke(update, self._config(wid),
                                                context=CimContext(agent=self._agent,
                                                                   drafter=self.drafter))
        return CimReply(text=result["reply"], project=CimProject.model_validate(
            result["project"]))

    async def start(self, wid: WorkflowId, persona: str | None = None) -> CimReply:
        """A new CIM for the deal in this thread (an earlier one there is replaced)."""
        project = CimProject(deal_id=wid.deal_id)
        return await self._run(wid, {"project": project.model_dump(mode="json"),
                                     "message": persona or ""})

    async def send(self, wid: WorkflowId, message: str) -> CimReply:
        """One message of the thread; `LookupError` when no CIM was started there."""
        if await self.project(wid) is None:
            raise LookupError("No CIM is in progress in this thread: start one with /manda cim.")
        return await self._run(wid, {"message": message})

    async def export(self, wid: WorkflowId, out: Path, *, company: str | None = None) -> Path:
        project = await self.project(wid)
        if project is None:
            raise LookupError("No CIM is in progress in this thread: start one with /manda cim.")
        path = export_pptx(project, out, company=company)
        done = project.model_copy(update={"phase": "done"})
        await self._compiled().aupdate_state(self._config(wid),
                                             {"project": done.model_dump(mode="json"),
                                              "reply": f"Deck written: {path.name}"})
        return path
