"""Errors a person will read: what went wrong, with which file or command, and what to do next."""

from __future__ import annotations


class MandaError(Exception):
    """Base class: the message is written for the person who will see it."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}".strip()


class UnknownDealError(MandaError):
    def __init__(self, deal_id: str) -> None:
        super().__init__(
            f"There is no deal called '{deal_id}'.",
            hint=f"Ingest its documents first: `manda ingest --deal {deal_id} PATH...`.",
        )
        self.deal_id = deal_id


class UnreadableFileError(MandaError):
    """A file of the data room that cannot be ingested (corrupt, encrypted, empty, too large...)."""

    def __init__(self, filename: str, reason: str) -> None:
        super().__init__(f"{filename}: {reason}")
        self.filename = filename
        self.reason = reason


class FindingNotFoundError(MandaError):
    def __init__(self, finding_id: str) -> None:
        super().__init__(
            f"There is no finding '{finding_id}'.",
            hint="See the ones waiting for review: `manda findings --deal D --status pending`.",
        )


class AlreadyDecidedError(MandaError):
    """A finding that a person (or the pipeline) already approved or rejected."""

    def __init__(self, finding_id: str, status: str, by: str) -> None:
        super().__init__(f"Finding {finding_id} was already {status} by {by}; nothing changed.")
        self.finding_id = finding_id
        self.status = status
        self.by = by


class NothingToUndoError(MandaError):
    """An undo of a decision that is no longer there (undone already, or decided again)."""

    def __init__(self, finding_id: str) -> None:
        super().__init__(
            f"Finding {finding_id} has no such decision to undo: it was undone already or "
            "decided again since; nothing changed.",
            hint=f"See its history in the audit log: `manda audit --deal D` ({finding_id}).",
        )
        self.finding_id = finding_id


class BackendUnavailableError(MandaError):
    """An external service (Neo4j, Redis, Claude, Voyage) that cannot be reached."""
