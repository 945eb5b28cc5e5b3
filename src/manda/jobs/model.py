"""A job a worker takes from the queue: ingesting files into a deal, or reading one document of
a review grid; who asked, and how far the work has come."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from manda.models import IngestReport, utcnow


class JobStatus(StrEnum):
    PENDING = "pending"  # waiting for a worker (new, or back after a service was down)
    RUNNING = "running"  # a worker holds it
    COMPLETED = "completed"  # ingested; the report says what happened to each file
    FAILED = "failed"  # cannot succeed by waiting (a bug, a refused request); `error` says why


class GridTask(BaseModel):
    """One document of a review grid to read (`manda.grid`): the grid run and the document."""

    run_id: str
    document_id: str
    document: str = ""  # its name, for people reading the job list


class IngestJob(BaseModel):
    """One batch of data-room files to ingest into one deal, or (with `grid`) one document of a
    review grid to read, as the queue stores it.

    `paths` are absolute; `display_names` maps a stored path to the name a person knows the file
    by (an upload is stored under MANDA_HOME/uploads under another name). `attempts` counts the
    times a worker took the job; `not_before` holds a job back after a service was down.
    """

    id: str
    deal_id: str
    paths: list[str]
    display_names: dict[str, str] = Field(default_factory=dict)
    upload_dir: str | None = None
    requested_by: str = ""
    status: JobStatus = JobStatus.PENDING
    attempts: int = 0
    worker: str | None = None
    error: str | None = None
    report: IngestReport | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    not_before: datetime | None = None
    grid: GridTask | None = None

    @staticmethod
    def new_id() -> str:
        return f"job-{uuid.uuid4().hex[:12]}"

    @property
    def done(self) -> bool:
        return self.status in (JobStatus.COMPLETED, JobStatus.FAILED)

    def claimed(self, worker: str, now: datetime) -> IngestJob:
        return self.model_copy(update={
            "status": JobStatus.RUNNING, "worker": worker, "attempts": self.attempts + 1,
            "started_at": now, "updated_at": now, "not_before": None,
        })

    def completed(self, report: IngestReport, now: datetime) -> IngestJob:
        return self.model_copy(update={
            "status": JobStatus.COMPLETED, "report": report, "error": None, "worker": None,
            "finished_at": now, "updated_at": now,
        })

    def failed(self, error: str, now: datetime) -> IngestJob:
        return self.model_copy(update={
            "status": JobStatus.FAILED, "error": error, "worker": None, "finished_at": now,
            "updated_at": now,
        })

    def retry_later(self, error: str, not_before: datetime, now: datetime) -> IngestJob:
        """Back to pending after a service was down: kept, tried again from `not_before`."""
        return self.model_copy(update={
            "status": JobStatus.PENDING, "error": error, "worker": None,
            "not_before": not_before, "updated_at": now,
        })

    def requeued(self, reason: str, now: datetime) -> IngestJob:
        """Back to pending because the worker holding it stopped answering."""
        return self.model_copy(update={
            "status": JobStatus.PENDING, "error": reason, "worker": None, "updated_at": now,
        })

    def summary(self) -> str:
        """One line for a person: where the job stands and what it did."""
        files = f"{len(self.paths)} file{'s' if len(self.paths) != 1 else ''}"
        if self.grid is not None:
            files = f"grid {self.grid.run_id}: {self.grid.document or self.grid.document_id}"
            if self.status is JobStatus.COMPLETED:
                return f"{files}: read"
        if self.status is JobStatus.COMPLETED and self.report is not None:
            r = self.report
            findings = f"{r.findings} finding{'s' if r.findings != 1 else ''}"
            return (f"{files}: {len(r.ingested)} ingested, {len(r.unchanged)} unchanged, "
                    f"{len(r.skipped)} skipped; {findings}")
        if self.status is JobStatus.FAILED:
            return f"{files}: failed — {self.error}"
        if self.status is JobStatus.RUNNING:
            return f"{files}: running (attempt {self.attempts})"
        if self.error:
            when = f" after {self.not_before:%H:%M:%S} UTC" if self.not_before else ""
            return f"{files}: waiting to be retried{when} — {self.error}"
        return f"{files}: waiting for a worker"
