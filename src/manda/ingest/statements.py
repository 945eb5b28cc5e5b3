"""What the deal learns outside its data room, kept like a document: the seller's answer to a
question of the Q&A list, a fact a person told Manda in a thread.

A `Statement` has no file. It is stored as a document of its own role (`qa_response`,
`thread_note`) under the name it is cited by ("Q&A #12", "told by Ana on 3 Nov 2024"), one
section whose place says where it comes from ("answered 3 Nov 2024 by the seller", "not in a
document"), so it is searched, cited, read for figures and compared with the room like any
document; its figures always wait for a person (`hold`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from difflib import SequenceMatcher

from manda.ingest.chunking import chunk_document, context_line
from manda.ingest.versions import version_info
from manda.models import (
    Chunk,
    Document,
    DocumentRole,
    DocumentStatus,
    Finding,
    Location,
    ParsedDocument,
    Section,
)

MAX_STATEMENT_CHARS = 20_000  # a seller's answer or a note; longer text is cut, and says so
FILE_TYPES = {DocumentRole.QA_RESPONSE: "qa", DocumentRole.THREAD_NOTE: "note"}


@dataclass(frozen=True)
class Statement:
    """One statement to keep: how it is cited, its text, where it comes from, why it waits."""

    name: str  # "Q&A #12", "told by Ana on 3 Nov 2024": the citation's file part
    text: str  # everything searched (a question with its answer)
    role: DocumentRole
    place: str  # the citation's place: "answered 3 Nov 2024 by the seller"
    hold: str  # why its figures wait for a person, however sure they are
    dated: date | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    # only figures stated in this part count as the statement's (the answer, not the question)
    figures_from: str | None = None
    # searched with it but not part of what it says (the question an answer answers): indexed
    # on each passage's context line, never shown, quoted or read for figures
    context: str = ""

    @property
    def content_hash(self) -> str:
        """Its identity: the same statement kept twice is one document."""
        body = "\x1f".join((self.role.value, self.name, self.place, self.context, self.text))
        return hashlib.sha256(body.encode()).hexdigest()

    def document(self, deal_id: str) -> Document:
        info = version_info(self.name)
        return Document(
            id=Document.make_id(deal_id, self.content_hash),
            deal_id=deal_id,
            filename=self.name,
            content_hash=self.content_hash,
            file_type=FILE_TYPES.get(self.role, "text"),
            size_bytes=len(self.text.encode()),
            doc_date=self.dated,
            version_family=info.family,
            version_rank=info.rank,
            role=self.role,
            metadata=dict(self.metadata),
            status=DocumentStatus.RUNNING,
            units=1,
        )

    def parsed(self) -> ParsedDocument:
        text = self.text.strip()
        if len(text) > MAX_STATEMENT_CHARS:
            text = text[:MAX_STATEMENT_CHARS] + " … (cut: longer than Manda keeps of one answer)"
        return ParsedDocument(
            filename=self.name,
            file_type=FILE_TYPES.get(self.role, "text"),
            sections=[Section(text=text, location=Location.for_section(self.place))],
            units=1,
            title=self.name,
            doc_date=self.dated,
            metadata=dict(self.metadata),
        )

    def chunks(self, document: Document, parsed: ParsedDocument) -> list[Chunk]:
        chunks = chunk_document(parsed, deal_id=document.deal_id, document_id=document.id,
                                role=self.role.value)
        about = " ".join(self.context.split())
        if not about:
            return chunks
        out = []
        for chunk in chunks:
            head = context_line(chunk)
            if head is not None:
                body = chunk.text[len(head) + 1:]
                chunk = chunk.model_copy(update={"text": f"{head} · {about}\n{body}"})
            out.append(chunk)
        return out

    def own_figures(self, candidates: Sequence[Finding]) -> list[Finding]:
        """The candidates the statement's own part states (a figure only the question quotes is
        the buyer's, not the seller's answer)."""
        if not self.figures_from:
            return list(candidates)
        own = " ".join(self.figures_from.split())
        return [f for f in candidates if _within(f.excerpt, own)]


def _within(excerpt: str, text: str) -> bool:
    """Whether most of the excerpt is taken from `text` (an excerpt may carry a label line
    before it, "Answer:")."""
    words = " ".join(excerpt.split())
    if not words:
        return False
    if words in text:
        return True
    match = SequenceMatcher(None, words, text, autojunk=False).find_longest_match()
    return match.size >= 0.6 * len(words)
