"""The workflow modes of a conversation (CIM, IRL) as deal operations any front end calls.

A front end knows a conversation (a Slack thread, a playground session) and who started the work;
these operations find the workflow running there, feed it a message, say where it stands and
export its deliverable. State is the workflow's LangGraph checkpoint, so nothing here is kept in
memory: a restarted process continues the same thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from manda.cim.model import CimProject
from manda.cim.service import CimService
from manda.irl.model import IrlProject
from manda.irl.service import IrlService
from manda.workflows.ids import WorkflowId

__all__ = ["DealWorkflows", "WorkflowMode", "WorkflowStep"]

WorkflowMode = Literal["cim", "irl"]
WORKFLOW_MODES: tuple[WorkflowMode, ...] = ("cim", "irl")
# What ends a workflow with its deliverable, in either mode ("export", "done", "build the deck").
EXPORT_REQUEST = re.compile(r"^\s*(?:export|finish|done|build (?:the )?deck)\b", re.I)
_ENDED = {"done", "cancelled", "exported"}
_SUFFIX = {"cim": "cim.pptx", "irl": "irl.xlsx"}


@dataclass(frozen=True)
class WorkflowStep:
    """Where a workflow stands after a message: its reply, phase and project, and any export."""

    workflow: WorkflowId
    text: str
    cim: CimProject | None = None
    irl: IrlProject | None = None
    exported: Path | None = None

    @property
    def mode(self) -> str:
        return self.workflow.mode

    @property
    def phase(self) -> str:
        project = self.cim or self.irl
        return project.phase if project is not None else "cancelled"

    @property
    def active(self) -> bool:
        """Replies in the conversation still belong to the workflow (not to the Q&A agent)."""
        return self.phase not in _ENDED


class DealWorkflows:
    """Start, continue, report on and export the CIM and IRL workflows of a deal's conversations."""

    def __init__(self, *, cim: CimService, irl: IrlService, exports_dir: Path) -> None:
        self._cim = cim
        self._irl = irl
        self._exports_dir = exports_dir

    async def start(
        self,
        mode: WorkflowMode,
        deal_id: str,
        *,
        owner: str,
        conversation: str,
        persona: str | None = None,
    ) -> WorkflowStep:
        """A new workflow in `conversation` (an earlier one of the same mode there is replaced)."""
        wid = WorkflowId(mode, deal_id, owner, conversation)
        if mode == "cim":
            reply = await self._cim.start(wid, persona)
            return WorkflowStep(wid, reply.text, cim=reply.project)
        started = await self._irl.start(wid)
        return WorkflowStep(wid, started.text, irl=started.project)

    async def current(self, deal_id: str, *, owner: str, conversation: str) -> WorkflowStep | None:
        """The workflow still running in `conversation`, if any (the latest-started wins)."""
        for mode in WORKFLOW_MODES:
            step = await self.status(WorkflowId(mode, deal_id, owner, conversation))
            if step is not None and step.active:
                return step
        return None

    async def status(self, wid: WorkflowId) -> WorkflowStep | None:
        """Where the workflow `wid` stands (its `status` reply), or None if it never started."""
        if wid.mode == "cim":
            if await self._cim.project(wid) is None:
                return None
            reply = await self._cim.send(wid, "status")
            return WorkflowStep(wid, reply.text, cim=reply.project)
        if await self._irl.project(wid) is None:
            return None
        irl = await self._irl.send(wid, "status")
        return WorkflowStep(wid, irl.text, irl=irl.project)

    async def send(self, wid: WorkflowId, message: str) -> WorkflowStep:
        """One message of the conversation; "export"/"done" also writes the deliverable.

        `LookupError` (said for a person) when no such workflow was started.
        """
        if wid.mode == "cim":
            reply = await self._cim.send(wid, message)
            step = WorkflowStep(wid, reply.text, cim=reply.project)
        else:
            irl = await self._irl.send(wid, message)
            step = WorkflowStep(wid, irl.text, irl=irl.project)
        if EXPORT_REQUEST.match(message) and step.active:
            return await self.export(wid)
        return step

    async def export(self, wid: WorkflowId) -> WorkflowStep:
        """Write the deliverable (PPTX / XLSX) under MANDA_HOME/exports and end the workflow."""
        out = self._exports_dir / f"{wid.deal_id}-{_SUFFIX[wid.mode]}"
        out.parent.mkdir(parents=True, exist_ok=True)
        if wid.mode == "cim":
            project = await self._cim.project(wid)
            if project is not None and not project.approved():
                return WorkflowStep(wid, "No section is approved yet, so there is no deck to "
                                    "export: approve at least one section first.", cim=project)
            path = await self._cim.export(wid, out)
            done = await self._cim.project(wid)
            return WorkflowStep(wid, f"Deck written: {path.name}", cim=done, exported=path)
        path = await self._irl.export(wid, out)
        return WorkflowStep(wid, f"IRL exported: {path.name}",
                            irl=await self._irl.project(wid), exported=path)
