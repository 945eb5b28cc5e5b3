"""The embedded graph's SQLite schema, created idempotently so two processes can open one file.

Quirks worked around here:
- every table is keyed by `deal_id` first, so each read is an index range scan of one deal;
- `chunks` keeps an implicit integer rowid because the FTS5 index (`chunks_fts`) is an
  *external content* table keyed by that rowid; triggers keep it in step with `chunks`, and
  chunk upserts use `ON CONFLICT DO UPDATE` (never `INSERT OR REPLACE`) so the rowid is stable;
- FTS5 carries `deal_id` as an UNINDEXED column so a match is filtered to one deal without a join;
- `vector_spaces` holds one row per (deal, embedder): its `dim` and a `generation` counter that
  every write of vectors bumps, so any process can tell cheaply whether its cached matrix is stale;
- a vector row deleted (by any process, any tool) bumps that counter too and leaves a row in
  `vector_removals` (with its chunk's rowid, the approximate index's key), so caches drop it;
- `store_meta` holds an id made when the file is created: index files saved beside the database
  name it, so a re-created database never loads another one's index.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2
BUSY_TIMEOUT_MS = 5_000

PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
)

DDL = """
CREATE TABLE IF NOT EXISTS deals (
    id          TEXT PRIMARY KEY,
    created_at  TEXT NOT NULL,
    data        TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS documents (
    deal_id       TEXT NOT NULL,
    id            TEXT NOT NULL,
    content_hash  TEXT NOT NULL,
    filename      TEXT NOT NULL,
    status        TEXT NOT NULL,
    ingested_at   TEXT NOT NULL,
    data          TEXT NOT NULL,
    PRIMARY KEY (deal_id, id)
);
CREATE INDEX IF NOT EXISTS documents_by_hash ON documents (deal_id, content_hash);

CREATE TABLE IF NOT EXISTS chunks (
    deal_id      TEXT NOT NULL,
    id           TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,
    section      INTEGER NOT NULL,
    location     TEXT NOT NULL,
    text         TEXT NOT NULL,
    UNIQUE (deal_id, id)
);
CREATE INDEX IF NOT EXISTS chunks_by_document ON chunks (deal_id, document_id, ordinal);

CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (
    text,
    deal_id UNINDEXED,
    content = 'chunks',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61'
);

CREATE TRIGGER IF NOT EXISTS chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts (rowid, text, deal_id) VALUES (new.rowid, new.text, new.deal_id);
END;
CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts (chunks_fts, rowid, text, deal_id)
    VALUES ('delete', old.rowid, old.text, old.deal_id);
END;
CREATE TRIGGER IF NOT EXISTS chunks_fts_update AFTER UPDATE ON chunks BEGIN
    INSERT INTO chunks_fts (chunks_fts, rowid, text, deal_id)
    VALUES ('delete', old.rowid, old.text, old.deal_id);
    INSERT INTO chunks_fts (rowid, text, deal_id) VALUES (new.rowid, new.text, new.deal_id);
END;

CREATE TABLE IF NOT EXISTS vector_spaces (
    deal_id      TEXT NOT NULL,
    embedder_id  TEXT NOT NULL,
    dim          INTEGER NOT NULL,
    generation   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (deal_id, embedder_id)
);
CREATE INDEX IF NOT EXISTS vector_spaces_by_embedder ON vector_spaces (embedder_id);

CREATE TABLE IF NOT EXISTS chunk_vectors (
    deal_id      TEXT NOT NULL,
    embedder_id  TEXT NOT NULL,
    chunk_id     TEXT NOT NULL,
    dim          INTEGER NOT NULL,
    generation   INTEGER NOT NULL,
    vector       BLOB NOT NULL,
    PRIMARY KEY (deal_id, embedder_id, chunk_id),
    FOREIGN KEY (deal_id, chunk_id) REFERENCES chunks (deal_id, id)
);
CREATE INDEX IF NOT EXISTS chunk_vectors_by_generation
    ON chunk_vectors (deal_id, embedder_id, generation);

CREATE TABLE IF NOT EXISTS vector_removals (
    deal_id      TEXT NOT NULL,
    embedder_id  TEXT NOT NULL,
    chunk_id     TEXT NOT NULL,
    chunk_rowid  INTEGER,
    generation   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS vector_removals_by_generation
    ON vector_removals (deal_id, embedder_id, generation);

CREATE TRIGGER IF NOT EXISTS chunk_vectors_removed AFTER DELETE ON chunk_vectors BEGIN
    UPDATE vector_spaces SET generation = generation + 1
    WHERE deal_id = old.deal_id AND embedder_id = old.embedder_id;
    INSERT INTO vector_removals (deal_id, embedder_id, chunk_id, chunk_rowid, generation)
    SELECT old.deal_id, old.embedder_id, old.chunk_id,
           (SELECT rowid FROM chunks WHERE deal_id = old.deal_id AND id = old.chunk_id),
           generation
    FROM vector_spaces WHERE deal_id = old.deal_id AND embedder_id = old.embedder_id;
END;

CREATE TABLE IF NOT EXISTS store_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
INSERT OR IGNORE INTO store_meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));

CREATE TABLE IF NOT EXISTS findings (
    deal_id      TEXT NOT NULL,
    id           TEXT NOT NULL,
    status       TEXT NOT NULL,
    subject      TEXT NOT NULL,
    period       TEXT,
    document_id  TEXT NOT NULL,
    chunk_id     TEXT,
    created_at   TEXT NOT NULL,
    data         TEXT NOT NULL,
    PRIMARY KEY (deal_id, id)
);
CREATE INDEX IF NOT EXISTS findings_by_status ON findings (deal_id, status);
CREATE INDEX IF NOT EXISTS findings_by_subject ON findings (deal_id, subject, period);
CREATE INDEX IF NOT EXISTS findings_by_document ON findings (deal_id, document_id);
CREATE INDEX IF NOT EXISTS findings_by_chunk ON findings (deal_id, chunk_id);

CREATE TABLE IF NOT EXISTS relations (
    deal_id    TEXT NOT NULL,
    type       TEXT NOT NULL,
    source_id  TEXT NOT NULL,
    target_id  TEXT NOT NULL,
    ends       TEXT NOT NULL,  -- Relation.between: 'finding' or 'document'
    reason     TEXT NOT NULL,
    PRIMARY KEY (deal_id, type, source_id, target_id)
);
CREATE INDEX IF NOT EXISTS relations_by_source ON relations (deal_id, source_id);
CREATE INDEX IF NOT EXISTS relations_by_target ON relations (deal_id, target_id);

CREATE TABLE IF NOT EXISTS decisions (
    deal_id     TEXT NOT NULL,
    finding_id  TEXT NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (deal_id, finding_id)
);

CREATE TABLE IF NOT EXISTS audit (
    deal_id  TEXT NOT NULL,
    id       TEXT NOT NULL,
    at       TEXT NOT NULL,
    data     TEXT NOT NULL,
    PRIMARY KEY (deal_id, id)
);
CREATE INDEX IF NOT EXISTS audit_by_time ON audit (deal_id, at);

CREATE TABLE IF NOT EXISTS qa_items (
    deal_id     TEXT NOT NULL,
    id          TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (deal_id, id)
);

CREATE TABLE IF NOT EXISTS channel_bindings (
    channel_key  TEXT PRIMARY KEY,
    deal_id      TEXT NOT NULL
);
"""


def configure(conn: sqlite3.Connection) -> None:
    """Set the per-connection pragmas: WAL, a busy timeout, foreign keys."""
    for pragma in PRAGMAS:
        conn.execute(pragma)


def statements(script: str) -> list[str]:
    """Split a script into complete statements (trigger bodies contain `;`, so ask SQLite)."""
    found: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            found.append(buffer.strip())
            buffer = ""
    return found


def apply_schema(conn: sqlite3.Connection) -> None:
    """Create every missing table, index and trigger in one short write transaction.

    `executescript` would commit on its own, so the statements run one by one inside
    `BEGIN IMMEDIATE`: two processes starting together serialise on the write lock.
    """
    if conn.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements(DDL):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
