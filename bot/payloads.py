"""Typed payloads carried in button values: validated on the way back, always under 2,000 chars.

A payload is its JSON with short field aliases; one that would not fit as JSON (many suggested
questions) travels deflated, `z:` and the base64url of its zlib-compressed JSON, and is read back
to at most `INFLATED_MAX` bytes.
"""

from __future__ import annotations

import base64
import zlib
from datetime import datetime
from typing import ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from manda.errors import MandaError

VALUE_LIMIT = 2000  # Slack's limit on a button value
METADATA_LIMIT = 3000  # Slack's limit on a view's private_metadata
# The Add to Q&A modal holds them: a view has at most 100 blocks, and 30 questions take 95 (the
# intro, 4 checkbox groups of at most 10 options for "All" and the 30, 3 inputs per question).
MAX_SUGGESTIONS = 30
DEFLATED = "z:"
INFLATED_MAX = 64_000

P = TypeVar("P", bound="ButtonPayload")


class StaleButtonError(MandaError):
    def __init__(self) -> None:
        super().__init__(
            "This button comes from an older version of Manda and can no longer be used.",
            hint="Ask the question again to get fresh buttons.",
        )


class ButtonPayload(BaseModel):
    """Short field aliases keep values compact; unknown fields are refused."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", frozen=True)

    deal_id: str = Field(alias="d", min_length=1)
    limit: ClassVar[int] = VALUE_LIMIT

    def _wire(self) -> str:
        """Its JSON, or the JSON deflated when only that fits."""
        value = self.model_dump_json(by_alias=True, exclude_none=True)
        if len(value) <= self.limit:
            return value
        packed = base64.urlsafe_b64encode(zlib.compress(value.encode(), 9)).decode()
        return DEFLATED + packed if len(DEFLATED) + len(packed) < len(value) else value

    def encode(self) -> str:
        value = self._wire()
        if len(value) > self.limit:
            raise ValueError(
                f"{type(self).__name__} is {len(value)} characters; limit {self.limit}"
            )
        return value

    def fits(self) -> bool:
        return len(self._wire()) <= self.limit

    @classmethod
    def decode(cls: type[P], value: str | None) -> P:
        try:
            return cls.model_validate_json(_inflated(value or ""))
        except (ValidationError, ValueError, zlib.error) as exc:
            raise StaleButtonError() from exc


def _inflated(value: str) -> str:
    if not value.startswith(DEFLATED):
        return value
    inflate = zlib.decompressobj()
    raw = inflate.decompress(base64.urlsafe_b64decode(value[len(DEFLATED) :]), INFLATED_MAX)
    if inflate.unconsumed_tail:
        raise ValueError(f"a deflated payload longer than {INFLATED_MAX} bytes")
    return raw.decode()


class AddToQA(ButtonPayload):
    """A question to put on the deal's Q&A list, with what raised it."""

    question: str = Field(alias="q", min_length=1)
    category: str = Field(default="General", alias="c")
    finding_id: str | None = Field(default=None, alias="f")
    source: str | None = Field(default=None, alias="s")

    @classmethod
    def fitted(
        cls,
        *,
        deal_id: str,
        question: str,
        category: str | None = None,
        finding_id: str | None = None,
        source: str | None = None,
    ) -> AddToQA:
        """One whose encoded value fits the limit: the source, then the question shortened."""
        payload = cls(d=deal_id, q=question, c=category or "General", f=finding_id, s=source)
        if payload.fits():
            return payload
        if source:
            payload = payload.model_copy(update={"source": source[:200]})
        if payload.fits():
            return payload
        low, high = 1, len(question)  # the longest question prefix that fits
        while low < high:
            middle = (low + high + 1) // 2
            if payload.model_copy(update={"question": question[:middle] + "…"}).fits():
                low = middle
            else:
                high = middle - 1
        return payload.model_copy(update={"question": question[:low].rstrip() + "…"})


class Suggestion(BaseModel):
    """One question an answer proposes for the Q&A list, with what raised it."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", frozen=True)

    question: str = Field(alias="q", min_length=1)
    category: str = Field(default="General", alias="c")
    finding_id: str | None = Field(default=None, alias="f")


class SuggestedQuestions(ButtonPayload):
    """"Add to Q&A…": the questions its modal lists, and the source that raised them."""

    questions: list[Suggestion] = Field(alias="qs", min_length=1, max_length=MAX_SUGGESTIONS)
    source: str | None = Field(default=None, alias="s")

    @classmethod
    def fitted(
        cls, *, deal_id: str, questions: list[Suggestion], source: str | None = None
    ) -> SuggestedQuestions:
        """One whose value fits a button: the source, then the longest questions shortened.

        The modal shows each question in an editable box, so a shortened one can be completed
        there before it is added.
        """
        payload = cls(d=deal_id, qs=questions[:MAX_SUGGESTIONS], s=source)
        if not payload.fits() and source:
            payload = payload.model_copy(update={"source": source[:200]})
        while not payload.fits():
            longest = max(range(len(payload.questions)),
                          key=lambda i: len(payload.questions[i].question))
            text = payload.questions[longest].question.removesuffix("…")
            if len(text) <= 40:
                raise ValueError("the suggested questions cannot fit one button's value")
            shorter = text[: max(40, int(len(text) * 0.8))].rstrip() + "…"
            changed = list(payload.questions)
            changed[longest] = changed[longest].model_copy(update={"question": shorter})
            payload = payload.model_copy(update={"questions": changed})
        return payload


class Origin(BaseModel):
    """Where a modal was opened from: the message (channel, ts, thread) or, when empty, Home."""

    channel: str | None = Field(default=None, alias="ch")
    message: str | None = Field(default=None, alias="m")
    thread: str | None = Field(default=None, alias="t")


class QAModal(SuggestedQuestions, Origin):
    """The Add to Q&A modal's private_metadata: the questions and the message to update."""

    limit: ClassVar[int] = METADATA_LIMIT


class Decision(ButtonPayload):
    """Approve or reject one finding (the action id says which)."""

    finding_id: str = Field(alias="f", min_length=1)


class Undo(ButtonPayload):
    """Undo one decision on one finding: the decision is named by when it was made, so a stale
    button never withdraws a later one."""

    finding_id: str = Field(alias="f", min_length=1)
    at: datetime = Field(alias="t")


class Feedback(ButtonPayload):
    """👍 / 👎 on one answer of one conversation."""

    conversation_id: str = Field(alias="c", min_length=1)


class ShowMore(ButtonPayload):
    """The rest of a long answer: its conversation and the digest of its stored text."""

    conversation_id: str = Field(alias="c", min_length=1)
    answer: str = Field(alias="h", min_length=8, max_length=64)


class QAChange(ButtonPayload):
    """Mark one Q&A item answered or remove it (the action id says which)."""

    item_id: str = Field(alias="i", min_length=1)


class QAExport(ButtonPayload):
    """Share the deal's Q&A list as a spreadsheet."""


class OpenReview(ButtonPayload):
    """Show the deal's review queue: from `offset`, filtered by priority, document, subject."""

    offset: int = Field(default=0, alias="o", ge=0)
    priority: str | None = Field(default=None, alias="p")
    document: str | None = Field(default=None, alias="doc", max_length=200)
    subject: str | None = Field(default=None, alias="s", max_length=200)
    # an ingestion summary's "Review N findings": how many of its findings wait, kept with the
    # button so a decision or an Undo in the summary can count on from it
    waiting: int | None = Field(default=None, alias="n", ge=0)


class WorkflowAction(ButtonPayload):
    """A button of a CIM / IRL thread: which workflow, and the message it stands for."""

    workflow: str = Field(alias="w", min_length=1)  # a `manda.workflows.WorkflowId`
    message: str = Field(default="", alias="m")


class TimelinePage(ButtonPayload):
    """"Show more" of a timeline: the filter it was asked with and where the next page starts."""

    start: str | None = Field(default=None, alias="f")
    end: str | None = Field(default=None, alias="t")
    category: str | None = Field(default=None, alias="c")
    offset: int = Field(default=0, alias="o", ge=0)


class RejectModal(Decision, Origin):
    """The Reject modal's private_metadata: which finding, and the message to update."""


class FeedbackModal(Feedback, Origin):
    """The 👎 modal's private_metadata: which answer, and the message to update."""


OPTION_VALUE_LIMIT = 150  # Slack's limit on an overflow option's value


class AnswerRef(ButtonPayload):
    """One answer of one conversation, carried in its overflow menu ("How I answered")."""

    conversation_id: str = Field(alias="c", min_length=1)
    answer_id: str = Field(alias="a", min_length=1)

    def fits_option(self) -> bool:
        return len(self.model_dump_json(by_alias=True, exclude_none=True)) <= OPTION_VALUE_LIMIT


class GridAction(ButtonPayload):
    """A button of a grid's message: the deal and the grid run."""

    run_id: str = Field(alias="r", min_length=1)


class GridModal(Origin):
    """A grid modal's private_metadata: the deal, where the command or click came from, the
    grid (for review and column modals) and, after the first step, what was picked in it."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", frozen=True)

    deal_id: str = Field(alias="d", min_length=1)
    run_id: str | None = Field(default=None, alias="r")
    documents: str | None = Field(default=None, alias="w")  # "kind:lease" / "folder:Leases"
    purpose: str | None = Field(default=None, alias="p")  # "flag" / "ask" for a column modal
    team: str | None = Field(default=None, alias="tm")

    def encode(self) -> str:
        value = self.model_dump_json(by_alias=True, exclude_none=True)
        if len(value) > METADATA_LIMIT:
            raise ValueError(f"GridModal is {len(value)} characters; limit {METADATA_LIMIT}")
        return value

    @classmethod
    def decode(cls, value: str | None) -> GridModal:
        try:
            return cls.model_validate_json(value or "")
        except (ValidationError, ValueError) as exc:
            raise StaleButtonError() from exc


class PlaceAnswer(ButtonPayload):
    """An answer of a Q&A file Manda could not place: the file, its row, the question chosen
    (0: keep it as a new question)."""

    file_id: str = Field(alias="x", min_length=1, max_length=64)
    row: int = Field(alias="r", ge=0)
    number: int = Field(alias="n", ge=0)
