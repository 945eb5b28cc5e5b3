"""A stored chunk as a retrieved passage: one builder for every path that hands chunks to answers.

Search, the role and document fallbacks, the checklist and the change digest all turn chunks into
`SearchHit`s. Each hit carries what ingestion read of its page (the statements in the chunk's
context line), so a row reached by any path is still known as a P&L, balance-sheet or cash-flow
row.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.finance.statements import StatementKind
from manda.ingest.chunking import context_line, shown_text
from manda.models import Chunk, SearchHit


def chunk_statements(chunk: Chunk) -> list[StatementKind]:
    """The statements ingestion labelled the chunk's page as (in its context line)."""
    head = context_line(chunk)
    if head is None:
        return []
    return [kind for kind in StatementKind if str(kind) in head]


def chunk_hit(chunk: Chunk, document: str, *, via: Sequence[str], score: float = 0.0,
              text: str | None = None) -> SearchHit:
    """`chunk` of the document named `document` as a passage reached `via` a path; its text is
    what a person sees of it unless `text` is given."""
    return SearchHit(
        chunk_id=chunk.id, document_id=chunk.document_id, document=document,
        location=chunk.location, text=shown_text(chunk) if text is None else text, score=score,
        heading_path=chunk.heading_path, statements=tuple(map(str, chunk_statements(chunk))),
        via=list(via),
    )
