"""SQL for deals, documents and chunks in the embedded graph (keyword search: `keyword.py`).

Every function runs on the store's connection thread inside a transaction opened by the runner.
Models are kept as their own JSON next to the columns that are filtered or sorted on, so a round
trip returns exactly what was stored.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from manda.errors import MandaError
from manda.kg.embedded.sql import batched, marks, sortable
from manda.models import Chunk, Deal, Document, DocumentStatus, HeadingPath, Location

# ---------------------------------------------------------------- deals


def upsert_deal(conn: sqlite3.Connection, deal: Deal) -> None:
    conn.execute(
        "INSERT INTO deals (id, created_at, data) VALUES (?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, data = excluded.data",
        (deal.id, sortable(deal.created_at), deal.model_dump_json()),
    )


def get_deal(conn: sqlite3.Connection, deal_id: str) -> Deal | None:
    row = conn.execute("SELECT data FROM deals WHERE id = ?", (deal_id,)).fetchone()
    return Deal.model_validate_json(row[0]) if row else None


def list_deals(conn: sqlite3.Connection) -> list[Deal]:
    rows = conn.execute("SELECT data FROM deals ORDER BY created_at, id").fetchall()
    return [Deal.model_validate_json(data) for (data,) in rows]


# ---------------------------------------------------------------- documents


def upsert_document(conn: sqlite3.Connection, document: Document) -> None:
    conn.execute(
        "INSERT INTO documents (deal_id, id, content_hash, filename, status, ingested_at, data) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (deal_id, id) DO UPDATE SET content_hash = excluded.content_hash, "
        "filename = excluded.filename, status = excluded.status, "
        "ingested_at = excluded.ingested_at, data = excluded.data",
        (
            document.deal_id,
            document.id,
            document.content_hash,
            document.filename,
            document.status.value,
            sortable(document.ingested_at),
            document.model_dump_json(),
        ),
    )


def get_document(conn: sqlite3.Connection, deal_id: str, document_id: str) -> Document | None:
    row = conn.execute(
        "SELECT data FROM documents WHERE deal_id = ? AND id = ?", (deal_id, document_id)
    ).fetchone()
    return Document.model_validate_json(row[0]) if row else None


def find_document_by_hash(
    conn: sqlite3.Connection, deal_id: str, content_hash: str
) -> Document | None:
    row = conn.execute(
        "SELECT data FROM documents WHERE deal_id = ? AND content_hash = ? "
        "ORDER BY ingested_at DESC LIMIT 1",
        (deal_id, content_hash),
    ).fetchone()
    return Document.model_validate_json(row[0]) if row else None


def list_documents(conn: sqlite3.Connection, deal_id: str) -> list[Document]:
    rows = conn.execute(
        "SELECT data FROM documents WHERE deal_id = ? ORDER BY ingested_at, filename, id",
        (deal_id,),
    ).fetchall()
    return [Document.model_validate_json(data) for (data,) in rows]


class DocumentNames:
    """The completed documents' names of each deal, read again only when they changed.

    Search reads them on every question; a 100,000-page room has ~5,000 files. A light read
    (their count, rowids and latest ingestion, on the deal's primary-key range) tells whether
    the kept mapping still stands; the same mapping object is handed out until it does not.
    """

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple[object, ...], Mapping[str, str]]] = {}

    def read(self, conn: sqlite3.Connection, deal_id: str) -> Mapping[str, str]:
        completed = DocumentStatus.COMPLETED.value
        state = tuple(conn.execute(
            "SELECT count(*), total(rowid), max(ingested_at) FROM documents "
            "WHERE deal_id = ? AND status = ?", (deal_id, completed)).fetchone())
        kept = self._kept.get(deal_id)
        if kept is not None and kept[0] == state:
            return kept[1]
        rows = conn.execute("SELECT id, filename FROM documents WHERE deal_id = ? AND status = ?",
                            (deal_id, completed)).fetchall()
        names: Mapping[str, str] = MappingProxyType(dict(rows))
        self._kept[deal_id] = (state, names)
        return names


def set_document_status(
    conn: sqlite3.Connection,
    deal_id: str,
    document_id: str,
    status: DocumentStatus,
    error: str | None,
) -> None:
    cursor = conn.execute(
        "UPDATE documents SET status = ?, data = json_set(data, '$.status', ?, '$.error', ?) "
        "WHERE deal_id = ? AND id = ?",
        (status.value, status.value, error, deal_id, document_id),
    )
    if cursor.rowcount == 0:
        raise MandaError(
            f"There is no document '{document_id}' in deal '{deal_id}'.",
            hint=f"List the deal's documents with `manda docs --deal {deal_id}`.",
        )


# ---------------------------------------------------------------- chunks

_CHUNK_COLUMNS = "id, deal_id, document_id, ordinal, section, location, text, heading_path"


def add_chunks(conn: sqlite3.Connection, chunks: Sequence[Chunk]) -> None:
    # The WHERE clause skips rows that did not change, so re-ingesting leaves the keyword index
    # alone (the update trigger logs only rows it updates); a new heading path alone is written
    # by the second statement, which the keyword index does not watch.
    rows = [
        (
            c.id,
            c.deal_id,
            c.document_id,
            c.ordinal,
            c.section,
            c.location.model_dump_json(),
            c.text,
            _heading_json(c.heading_path),
        )
        for c in chunks
    ]
    conn.executemany(
        f"INSERT INTO chunks ({_CHUNK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (deal_id, id) DO UPDATE SET document_id = excluded.document_id, "
        "ordinal = excluded.ordinal, section = excluded.section, "
        "location = excluded.location, text = excluded.text "
        "WHERE chunks.text IS NOT excluded.text OR chunks.location IS NOT excluded.location "
        "OR chunks.ordinal IS NOT excluded.ordinal OR chunks.section IS NOT excluded.section "
        "OR chunks.document_id IS NOT excluded.document_id",
        rows,
    )
    conn.executemany(_SET_CHUNK_PATH, [(path, c.deal_id, c.id)
                                       for c, (*_, path) in zip(chunks, rows, strict=True)])


_SET_CHUNK_PATH = ("UPDATE chunks SET heading_path = ?1 WHERE deal_id = ?2 AND id = ?3 "
                   "AND heading_path IS NOT ?1")


def set_heading_paths(conn: sqlite3.Connection, deal_id: str,
                      paths: Mapping[str, HeadingPath]) -> None:
    """Each chunk's heading path, and the same for the findings extracted from it; rows whose
    path is already right are not written."""
    rows = [(_heading_json(path), deal_id, chunk_id) for chunk_id, path in paths.items()]
    conn.executemany(_SET_CHUNK_PATH, rows)
    conn.executemany(
        "UPDATE findings SET data = json_set(data, '$.heading_path', json(?1)) "
        "WHERE deal_id = ?2 AND chunk_id = ?3 "
        "AND json_extract(data, '$.heading_path') IS NOT json(?1)", rows)


def _heading_json(path: HeadingPath) -> str:
    return json.dumps(list(path), ensure_ascii=False, separators=(",", ":"))


def _chunk(row: tuple[str, str, str, int, int, str, str, str]) -> Chunk:
    chunk_id, deal_id, document_id, ordinal, section, location, text, heading_path = row
    return Chunk(
        id=chunk_id,
        deal_id=deal_id,
        document_id=document_id,
        ordinal=ordinal,
        section=section,
        location=Location.model_validate_json(location),
        text=text,
        heading_path=tuple(json.loads(heading_path)),
    )


def get_chunks(conn: sqlite3.Connection, deal_id: str, chunk_ids: Sequence[str]) -> list[Chunk]:
    """The chunks of this deal among `chunk_ids`, in the order asked, unknown ids left out."""
    wanted = list(dict.fromkeys(chunk_ids))
    found: dict[str, Chunk] = {}
    for batch in batched(wanted):
        rows = conn.execute(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks "
            f"WHERE deal_id = ? AND id IN ({marks(len(batch))})",
            (deal_id, *batch),
        ).fetchall()
        found.update((row[0], _chunk(row)) for row in rows)
    return [found[i] for i in wanted if i in found]


def list_chunks(conn: sqlite3.Connection, deal_id: str, document_id: str) -> list[Chunk]:
    rows = conn.execute(
        f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE deal_id = ? AND document_id = ? "
        "ORDER BY ordinal, id",
        (deal_id, document_id),
    ).fetchall()
    return [_chunk(row) for row in rows]


def existing_chunk_ids(
    conn: sqlite3.Connection, deal_id: str, chunk_ids: Sequence[str]
) -> set[str]:
    found: set[str] = set()
    for batch in batched(list(dict.fromkeys(chunk_ids))):
        rows = conn.execute(
            f"SELECT id FROM chunks WHERE deal_id = ? AND id IN ({marks(len(batch))})",
            (deal_id, *batch),
        ).fetchall()
        found.update(chunk_id for (chunk_id,) in rows)
    return found
