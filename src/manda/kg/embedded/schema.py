"""The embedded graph's SQLite schema, created idempotently so two processes can open one file.

Quirks worked around here:
- every table is keyed by `deal_id` first, so each read is an index range scan of one deal;
- `chunks` keeps an implicit integer rowid, stable under upserts (`ON CONFLICT DO UPDATE`, never
  `INSERT OR REPLACE`): the keyword index (`keyword.py`) knows chunks by it;
- triggers on `chunks` log each insert, text change and delete in `keyword_changes` (one row per
  deal and chunk rowid, a delete's row kept as its tombstone) tagged with the deal's
  `keyword_generations` counter, which they bump in the writer's own transaction;
- `vector_spaces` holds one row per (deal, embedder): its `dim` and a `generation` counter that
  every write of vectors bumps, so any process can tell cheaply whether its cached matrix is stale;
- a vector row deleted (by any process, any tool) bumps that counter too and leaves a row in
  `vector_removals` (with its chunk's rowid, the approximate index's key), so caches drop it;
- `store_meta` holds an id made when the file is created: index files saved beside the database
  name it, so a re-created database never loads another one's index.
"""

from __future__ import annotations

import sqlite3

# 3: keyword search on tantivy (`keyword.py`), FTS5 dropped; 4: heading paths; 5: findings'
# `fact_score`
SCHEMA_VERSION = 5
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
CREATE INDEX IF NOT EXISTS documents_by_status ON documents (deal_id, status);

CREATE TABLE IF NOT EXISTS chunks (
    deal_id      TEXT NOT NULL,
    id           TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,
    section      INTEGER NOT NULL,
    location     TEXT NOT NULL,
    text         TEXT NOT NULL,
    heading_path TEXT NOT NULL DEFAULT '[]',  -- JSON list, outermost heading first
    UNIQUE (deal_id, id)
);
CREATE INDEX IF NOT EXISTS chunks_by_document ON chunks (deal_id, document_id, ordinal);

CREATE TABLE IF NOT EXISTS keyword_generations (
    deal_id     TEXT PRIMARY KEY,
    generation  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS keyword_changes (
    deal_id      TEXT NOT NULL,
    chunk_rowid  INTEGER NOT NULL,
    generation   INTEGER NOT NULL,
    PRIMARY KEY (deal_id, chunk_rowid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS keyword_changes_by_generation
    ON keyword_changes (deal_id, generation);

CREATE TRIGGER IF NOT EXISTS chunks_keyword_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO keyword_generations (deal_id, generation) VALUES (new.deal_id, 1)
        ON CONFLICT (deal_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO keyword_changes (deal_id, chunk_rowid, generation) VALUES (new.deal_id,
        new.rowid, (SELECT generation FROM keyword_generations WHERE deal_id = new.deal_id))
        ON CONFLICT (deal_id, chunk_rowid) DO UPDATE SET generation = excluded.generation;
END;
CREATE TRIGGER IF NOT EXISTS chunks_keyword_update AFTER UPDATE OF text ON chunks BEGIN
    INSERT INTO keyword_generations (deal_id, generation) VALUES (new.deal_id, 1)
        ON CONFLICT (deal_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO keyword_changes (deal_id, chunk_rowid, generation) VALUES (new.deal_id,
        new.rowid, (SELECT generation FROM keyword_generations WHERE deal_id = new.deal_id))
        ON CONFLICT (deal_id, chunk_rowid) DO UPDATE SET generation = excluded.generation;
END;
CREATE TRIGGER IF NOT EXISTS chunks_keyword_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO keyword_generations (deal_id, generation) VALUES (old.deal_id, 1)
        ON CONFLICT (deal_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO keyword_changes (deal_id, chunk_rowid, generation) VALUES (old.deal_id,
        old.rowid, (SELECT generation FROM keyword_generations WHERE deal_id = old.deal_id))
        ON CONFLICT (deal_id, chunk_rowid) DO UPDATE SET generation = excluded.generation;
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
    fact_score   REAL GENERATED ALWAYS AS (FACT_SCORE) VIRTUAL,
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


# What a finding adds to retrieval's findings channel for its passage (`findings.fact_chunks`):
# its confidence, half when superseded, nothing when rejected or without a passage. A generated
# column kept in step with the status column by SQLite itself, indexed in the order the channel
# reads it: a subject's strongest passages first.
FACT_SCORE = (
    "CASE WHEN chunk_id IS NULL OR status = 'rejected' THEN NULL "
    "WHEN status = 'superseded' THEN 0.5 * json_extract(data, '$.confidence') "
    "ELSE json_extract(data, '$.confidence') END"
)
DDL = DDL.replace("FACT_SCORE", FACT_SCORE)
FACT_INDEX = (
    "CREATE INDEX IF NOT EXISTS findings_by_fact ON findings "
    "(deal_id, subject, fact_score DESC, chunk_id) WHERE fact_score IS NOT NULL"
)


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


# A home made before keyword search moved to tantivy (`keyword.py`) loses its FTS5 table and
# triggers, and logs its chunks so the keyword index builds them. Detected by the FTS5 table, not
# by version number, so it runs whatever other schema changes landed before or after it.
FROM_FTS5 = """
DROP TRIGGER IF EXISTS chunks_fts_insert;
DROP TRIGGER IF EXISTS chunks_fts_delete;
DROP TRIGGER IF EXISTS chunks_fts_update;
DROP TABLE chunks_fts;
INSERT INTO keyword_generations (deal_id, generation)
    SELECT DISTINCT deal_id, 1 FROM chunks WHERE true ON CONFLICT (deal_id) DO NOTHING;
INSERT INTO keyword_changes (deal_id, chunk_rowid, generation)
    SELECT deal_id, rowid, 1 FROM chunks WHERE true ON CONFLICT DO NOTHING;
"""


# A home made before chunks kept their heading path gains the column; its chunks stand under no
# heading until their document is read again (`IngestService`, on the next ingestion of the
# room). Detected by the missing column, whatever the version number says.
TO_HEADING_PATHS = "ALTER TABLE chunks ADD COLUMN heading_path TEXT NOT NULL DEFAULT '[]'"


def _has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    # table_xinfo: generated columns too (table_info leaves them out)
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_xinfo({table})"))


def apply_schema(conn: sqlite3.Connection) -> None:
    """Create every missing table, index and trigger, then migrate older homes, in one short
    write transaction.

    `executescript` would commit on its own, so the statements run one by one inside
    `BEGIN IMMEDIATE`: two processes starting together serialise on the write lock (the second
    finds the version already current).
    """
    if conn.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found < SCHEMA_VERSION:
            for statement in statements(DDL):
                conn.execute(statement)
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'chunks_fts'").fetchone():
                for statement in statements(FROM_FTS5):
                    conn.execute(statement)
            if not _has_column(conn, "chunks", "heading_path"):
                conn.execute(TO_HEADING_PATHS)
            if not _has_column(conn, "findings", "fact_score"):  # made before version 5
                conn.execute("ALTER TABLE findings ADD COLUMN fact_score REAL "
                             f"GENERATED ALWAYS AS ({FACT_SCORE}) VIRTUAL")
            conn.execute(FACT_INDEX)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
