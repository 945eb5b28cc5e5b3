"""The deal team's vocabulary as typed models: documents, chunks, findings, relations, Q&A, audit.

Everything that crosses a port (knowledge graph, memory, model, embedder) or reaches the Slack
adapter is one of these. They carry no behaviour beyond small, obvious helpers.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


def utcnow() -> datetime:
    """The one clock of the domain (timezone-aware UTC)."""
    return datetime.now(UTC)


def stable_id(prefix: str, *parts: object) -> str:
    """A short deterministic id, so re-ingesting the same content yields the same ids."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()
    return f"{prefix}_{digest[:12]}"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid")


# ---------------------------------------------------------------- deals and documents


class Deal(_Model):
    """A deal: everything retrieved for a channel is scoped to exactly one of these."""

    id: str
    name: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    fiscal_year_end: str | None = None  # "--06-30" (ISO 8601 day of year), learned from the room
    # names the team said are one entity ("Globex AG" = "Globex Holding"): each a group of names
    entity_links: list[list[str]] = Field(default_factory=list)


class LocationKind(StrEnum):
    PAGE = "page"
    CELL = "cell"
    SLIDE = "slide"
    SECTION = "section"
    ROW = "row"


OCR_MARK = ", OCR"


class Location(_Model):
    """Where in a document something was said: `p.3`, `Sheet!B7`, `slide 2`, a heading, `row 5`."""

    kind: LocationKind
    label: str
    page: int | None = None

    @classmethod
    def for_page(cls, page: int, *, ocr: bool = False) -> Location:
        """`p.4`, or `p.4, OCR` when the text was read from an image of the page (a scan)."""
        label = f"p.{page}{OCR_MARK}" if ocr else f"p.{page}"
        return cls(kind=LocationKind.PAGE, label=label, page=page)

    @property
    def ocr(self) -> bool:
        """Read by OCR from a scan, not from a text layer (kept in the label: no new field, so
        stored locations stay readable by every version)."""
        return self.kind is LocationKind.PAGE and self.label.endswith(OCR_MARK)

    @classmethod
    def for_cell(cls, sheet: str, cell: str) -> Location:
        return cls(kind=LocationKind.CELL, label=f"{sheet}!{cell}")

    @classmethod
    def for_slide(cls, slide: int, notes: bool = False) -> Location:
        label = f"slide {slide} notes" if notes else f"slide {slide}"
        return cls(kind=LocationKind.SLIDE, label=label, page=slide)

    @classmethod
    def for_section(cls, heading: str) -> Location:
        return cls(kind=LocationKind.SECTION, label=heading or "(untitled)")

    @classmethod
    def for_row(cls, row: int, sheet: str | None = None) -> Location:
        label = f"{sheet} row {row}" if sheet else f"row {row}"
        return cls(kind=LocationKind.ROW, label=label)


class DocumentStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


class DocumentRole(StrEnum):
    """What a document is to a deal team, read from its content (never only its file name)."""

    AUDITED_STATEMENTS = "audited_statements"
    MANAGEMENT_ACCOUNTS = "management_accounts"
    BUDGET_FORECAST = "budget_forecast"
    QOE_REPORT = "qoe_report"
    CAP_TABLE = "cap_table"
    MANAGEMENT_BIOS = "management_bios"
    EMPLOYEE_CENSUS = "employee_census"
    LEGAL_MEMO = "legal_memo"
    CONTRACT = "contract"
    LEASE_SCHEDULE = "lease_schedule"
    IRL = "irl"
    PRESENTATION = "presentation"  # CIM, teaser, management presentation
    BOARD_MINUTES = "board_minutes"
    CORRESPONDENCE = "correspondence"  # e-mails, letters
    QA_RESPONSE = "qa_response"  # the seller's answer to one question of the deal's Q&A list
    THREAD_NOTE = "thread_note"  # a fact a person told Manda in a deal thread (not a document)
    OTHER = "other"

    @property
    def label(self) -> str:
        """How a deal team says it: "audited statements", "QoE report", "IRL"."""
        return _ROLE_LABELS.get(self, self.value.replace("_", " "))


_ROLE_LABELS = {
    DocumentRole.BUDGET_FORECAST: "budget / forecast",
    DocumentRole.QOE_REPORT: "QoE report",
    DocumentRole.IRL: "IRL",
    DocumentRole.PRESENTATION: "presentation / CIM",
    DocumentRole.QA_RESPONSE: "Q&A answer",
    DocumentRole.THREAD_NOTE: "note told in a thread",
}

# Roles of what the deal learns outside the data room: no file, kept as sourced statements
TOLD_ROLES = frozenset({DocumentRole.QA_RESPONSE, DocumentRole.THREAD_NOTE})


class CorrectionStatement(_Model):
    """A document's own words saying it corrects, restates or replaces another document."""

    sentence: str
    location: Location
    target_start: date | None = None  # the date the statement gives the replaced document
    target_end: date | None = None
    target_words: list[str] = Field(default_factory=list)


class Document(_Model):
    """One file of the data room, identified within its deal by the hash of its content."""

    id: str
    deal_id: str
    filename: str
    content_hash: str
    file_type: str
    size_bytes: int
    doc_date: date | None = None
    version_family: str
    version_rank: int = 0
    is_irl: bool = False
    role: DocumentRole = DocumentRole.OTHER
    fiscal_year_end: str | None = None  # "--06-30": the year end its periods were read with
    authoritative: bool = False
    draft: bool = False
    units: int = 0  # pages, sheets, slides or sections parsed
    path: str | None = None  # its place in the data room: "2 Financial/2.3 Audited/Accounts.pdf"
    room_index: str | None = None  # the room's own numbering of that place: "2.3.1"
    metadata: dict[str, str] = Field(default_factory=dict)  # e.g. an e-mail's from, to, subject
    # the company it is a document of, as it names itself ("Apple Inc.", its filer or issuer:
    # `manda.companies`); "" when it names none, None when stored before companies were read
    company: str | None = None
    status: DocumentStatus = DocumentStatus.PENDING
    error: str | None = None
    corrections: list[CorrectionStatement] = Field(default_factory=list)
    # its passages carry their heading paths (False: stored before those were kept; they are
    # read again, without extraction, when the room is next ingested)
    headings_read: bool = False
    ingested_at: datetime = Field(default_factory=utcnow)
    # `host:pid` of the process ingesting it while `running`: a dead owner means a crash
    ingest_owner: str | None = None

    @staticmethod
    def make_id(deal_id: str, content_hash: str) -> str:
        return stable_id("d", deal_id, content_hash)


HeadingPath = tuple[str, ...]
"""Where a passage stands in its document, outermost first: `("3 Legal", "3.2 Litigation")`; a
sheet name, a slide title, a table's caption or an e-mail's subject are headings too."""

HEADING_SEPARATOR = " › "


def heading_trail(path: HeadingPath) -> str:
    """`3 Legal › 3.2 Litigation`: a heading path as a person reads it ("" when there is none)."""
    return HEADING_SEPARATOR.join(path)


class Section(_Model):
    """A parser's output unit: text at one location (a page, a cell block, a slide, a heading)."""

    text: str
    location: Location
    table: list[list[str]] | None = None  # rows of cells when the section is a table
    cell_refs: list[list[str]] | None = None  # `Sheet!B7` per cell, parallel to `table`
    # cells saved without a result whose value Manda computed from their formula: ref → formula
    computed: dict[str, str] = Field(default_factory=dict)
    heading_path: HeadingPath = ()  # the headings the section's text starts under
    # where a heading inside the text (a PDF page holds several) starts a new path: (line index
    # in `text`, the path from that line on), in order; chunks are cut there
    heading_changes: list[tuple[int, HeadingPath]] = Field(default_factory=list)


class ParsedDocument(_Model):
    """All sections of one file plus what the parser learned about the file itself."""

    filename: str
    file_type: str
    sections: list[Section]
    units: int
    title: str | None = None
    doc_date: date | None = None
    metadata: dict[str, str] = Field(default_factory=dict)  # what the format itself states


class Chunk(_Model):
    """A retrievable passage with its exact location; vectors are stored per embedder."""

    id: str
    deal_id: str
    document_id: str
    ordinal: int
    text: str
    location: Location
    section: int = 0  # index of the parser section it came from
    heading_path: HeadingPath = ()  # the headings it stands under (its section's, or deeper)

    @staticmethod
    def make_id(document_id: str, ordinal: int) -> str:
        return f"{document_id}_c{ordinal:04d}"


# ---------------------------------------------------------------- findings


class FindingKind(StrEnum):
    METRIC = "metric"
    HEADCOUNT = "headcount"
    OWNERSHIP = "ownership"
    PERSON = "person"
    CONTRACT = "contract"
    LITIGATION = "litigation"
    DATE = "date"
    CUSTOMER = "customer"
    FACT = "fact"
    CLAUSE = "clause"  # one cell of a review grid: what a document states on one column


class Confidence(StrEnum):
    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"

    @classmethod
    def from_score(cls, score: float) -> Confidence:
        if score >= 0.8:
            return cls.HIGH
        if score >= 0.5:
            return cls.MEDIUM
        return cls.LOW


class FindingStatus(StrEnum):
    PENDING = "pending"  # waiting for a human in the review queue
    APPROVED = "approved"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"


class Nature(StrEnum):
    ACTUAL = "actual"
    FORECAST = "forecast"


class Finding(_Model):
    """A fact extracted from a document: subject, period, value, excerpt and exact source."""

    id: str
    deal_id: str
    document_id: str
    chunk_id: str | None = None
    kind: FindingKind
    subject: str  # normalised key, e.g. "revenue", "ebitda", "headcount", "person:jane doe"
    label: str  # how a person would name it: "Revenue", "Jane Doe — CFO"
    period: str | None = None  # "Q3 2024", "FY2023", "H1 2024", "as of 2024-06-30"
    value: float | None = None  # normalised: currency amounts in units (5.2M -> 5_200_000)
    unit: str | None = None  # "EUR", "%", "people", "shares", "x"
    value_text: str | None = None  # as stated: "€5.2M"
    entity: str | None = None  # person or organisation named by the finding
    attributes: dict[str, str] = Field(default_factory=dict)
    nature: Nature = Nature.ACTUAL
    doc_date: date | None = None
    excerpt: str
    location: Location
    heading_path: HeadingPath = ()  # the headings its passage stands under
    confidence: float
    confidence_level: Confidence
    status: FindingStatus = FindingStatus.PENDING
    review_priority: Literal["high", "normal"] = "normal"
    extractor: str = "offline"
    created_at: datetime = Field(default_factory=utcnow)

    @staticmethod
    def make_id(deal_id: str, document_id: str, location: str, subject: str, period: str | None,
                value: float | str | None) -> str:
        return stable_id("f", deal_id, document_id, location, subject, period, value)


class RelationType(StrEnum):
    SUPERSEDES = "SUPERSEDES"
    CONTRADICTS = "CONTRADICTS"
    SUPPORTS = "SUPPORTS"
    ATTACHED_TO = "ATTACHED_TO"  # a document that came attached to an e-mail -> that e-mail


class Relation(_Model):
    """A typed edge between two findings, or between two documents (SUPERSEDES, ATTACHED_TO)."""

    deal_id: str
    type: RelationType
    source_id: str  # the newer / one side
    target_id: str  # the older / other side
    between: Literal["finding", "document"] = "finding"
    reason: str = ""


# ---------------------------------------------------------------- human in the loop


class ReviewDecisionKind(StrEnum):
    APPROVE = "approve"
    REJECT = "reject"


class ReviewDecision(_Model):
    """A person's (or the pipeline's) decision on a finding, kept in the audit log."""

    finding_id: str
    deal_id: str
    decision: ReviewDecisionKind
    by: str
    at: datetime = Field(default_factory=utcnow)
    reason: str = ""
    # the earlier version's finding whose decision this is, carried to a figure restated unchanged
    carried_from: str | None = None


class AuditEntry(_Model):
    """Who did what, when: approvals, rejections, Q&A changes, automatic promotions."""

    id: str
    deal_id: str
    action: str  # "finding.approved", "finding.rejected", "finding.auto_approved", "qa.added"
    subject_id: str
    by: str
    at: datetime = Field(default_factory=utcnow)
    detail: str = ""


class QAPriority(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class QAItem(_Model):
    """An open question for the target, on the deal's Q&A list."""

    id: str
    deal_id: str
    question: str
    category: str
    priority: QAPriority = QAPriority.MEDIUM
    finding_id: str | None = None
    source: str | None = None  # "file, location" of the citation that raised it
    created_by: str
    created_at: datetime = Field(default_factory=utcnow)
    status: Literal["draft", "sent", "answered", "closed"] = "draft"
    number: int = 0  # "Q7" on the list the deal team sends; given once, kept when others go
    answer: str | None = None  # what the target answered, when marked answered
    updated_by: str | None = None
    updated_at: datetime | None = None
    answered_by: str | None = None  # who answered, as the answer file says ("the seller", "CFO")
    answered_on: date | None = None  # when, as the answer file says
    answer_document: str | None = None  # where the answer is kept and cited ("Q&A #12")
    follow_up_of: int | None = None  # the number of the question this one follows up

    @staticmethod
    def make_id(deal_id: str, question: str) -> str:
        return stable_id("q", deal_id, " ".join(question.lower().split()))


# ---------------------------------------------------------------- the review grid


class GridColumn(_Model):
    """One question of a review grid: a standard column of the vocabulary (`key` is its key) or
    a question in plain words (`key` is `q_<hash of its wording>`), and the type of its cells."""

    key: str
    name: str  # as the person asked for it ("change of control", "Is there a rent review?")
    type: str = "text"  # manda.vocabulary.grid.ColumnType
    standard: bool = False

    @property
    def wording(self) -> str:
        """What a cell is computed for: the standard column, or the question's words."""
        return self.key if self.standard else " ".join(self.name.lower().split())


class CellStatus(StrEnum):
    STATED = "stated"  # the document states it: value, quote and place
    NOT_STATED = "not_stated"  # it is silent; `searched` says what was looked for
    UNREADABLE = "unreadable"  # the document could not be read; `reason` says why
    UNSUPPORTED = "unsupported"  # an answer whose quote did not support it (the gate's refusal)


class GridCell(_Model):
    """What one document says on one column, computed once per (document version, column
    wording, reader) and kept; a stated cell is also a finding (`finding_id`) for review."""

    deal_id: str
    document_id: str
    column: str  # GridColumn.key
    wording: str  # GridColumn.wording
    reader: str  # "offline-1", "claude:claude-sonnet-5-5"
    status: CellStatus
    value: str | bool | float | dict[str, str | float | bool] | None = None  # normalised
    shown: str = ""  # the value as a person reads it ("Yes", "36 months", "GBP 2,000,000")
    detail: str = ""  # what goes with it: a consequence, a scope, who may and on what notice
    quote: str = ""
    location: Location | None = None
    clause: str | None = None  # "12.2", "§ 12 (3)"
    heading: str = ""  # the heading the quote stands under
    amending: bool = False  # the quote replaces part of an earlier document (an amendment)
    searched: str = ""  # for "not stated": what was searched, where
    reason: str = ""  # for "unreadable" and "unsupported": why
    finding_id: str | None = None
    usage: dict[str, int] = Field(default_factory=dict)  # the reading's tokens (on one cell)
    computed_at: datetime = Field(default_factory=utcnow)

    @property
    def place(self) -> str:
        """`p.2, clause 12.2`, `Termination`, `p.1, OCR`: where a person finds the quote."""
        label = self.location.label if self.location is not None else ""
        if self.clause and self.clause not in label:
            return f"{label}, clause {self.clause}" if label else f"clause {self.clause}"
        return label

    @staticmethod
    def key_of(document_id: str, wording: str, reader: str) -> str:
        return stable_id("gc", document_id, wording, reader)


class GridRunStatus(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


class GridSelection(_Model):
    """Which documents a grid is asked of: a kind (`customer_contract`, `lease`, `contract`) or
    a document role, a folder of the room, a file-name pattern; each narrows the others."""

    kind: str | None = None
    folder: str | None = None
    pattern: str | None = None


class GridRun(_Model):
    """One grid asked of a deal: its documents and columns, who asked, how far it is, what it
    cost. Cells are kept apart (`GridCell`), so a run is light and a re-run reuses them."""

    id: str
    deal_id: str
    selection: GridSelection
    columns: list[GridColumn]
    document_ids: list[str]
    reader: str
    title: str = ""  # what the rows are, for a person: "customer contracts"
    target: list[str] = Field(default_factory=list)  # the target's party keys
    kinds: dict[str, str] = Field(default_factory=dict)  # document id -> document kind
    amends: dict[str, str] = Field(default_factory=dict)  # amendment's id -> amended document's
    requested_by: str = ""
    status: GridRunStatus = GridRunStatus.RUNNING
    jobs: dict[str, str] = Field(default_factory=dict)  # document id -> job id (queued reading)
    usage: dict[str, int] = Field(default_factory=dict)  # tokens by kind, over its documents
    cost_usd: float | None = None
    cancelled_by: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None

    @staticmethod
    def new_id() -> str:
        return f"grid-{uuid.uuid4().hex[:12]}"


# ---------------------------------------------------------------- retrieval


class SearchHit(_Model):
    """One retrieved passage: the chunk, its document's filename and a fused score."""

    chunk_id: str
    document_id: str
    document: str
    location: Location
    text: str
    score: float
    heading_path: HeadingPath = ()  # the headings the passage stands under
    # the statements its page is, as ingestion read the whole page ("income statement"): a row
    # retrieved alone still knows it is a P&L row, a balance-sheet row or a note's
    statements: tuple[str, ...] = ()
    via: list[str] = Field(default_factory=list)  # "vector", "bm25", "graph", "rerank"
    # each channel's own score before fusion (cosine, BM25, finding confidence, rerank)
    channel_scores: dict[str, float] = Field(default_factory=dict)


# ---------------------------------------------------------------- ingestion reports


class SkippedFile(_Model):
    """A file that could not be ingested, with a reason written for a person."""

    filename: str
    reason: str


class CarriedDecision(_Model):
    """A person's decision carried to a new version's figure that restates it unchanged: what an
    ingestion summary offers to undo."""

    finding_id: str
    decision: ReviewDecisionKind
    by: str
    at: datetime
    figure: str  # "EBITDA Q3 2024: €1.1M"
    document: str  # the new version's file name


class IngestReport(_Model):
    """What one `ingest` run did: new documents, unchanged ones, skipped files, findings."""

    deal_id: str
    ingested: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    # passages of unchanged documents embedded again: they had no vector for the embedder now
    # configured (its model or precision changed since they were ingested)
    embedded_again: int = 0
    skipped: list[SkippedFile] = Field(default_factory=list)
    findings: int = 0
    auto_approved: int = 0
    pending_review: int = 0
    superseded: int = 0
    contradictions: int = 0
    carried: list[CarriedDecision] = Field(default_factory=list)
    pages: int = 0
    seconds: float = 0.0
