"""The review grid's cells and runs in the embedded store: JSON bodies keyed for their lookups.

Its tables are created when the store opens, whatever the home's schema version, so a home made
before the grid existed gains them without a migration of its own.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from manda.models import GridCell, GridRun

DDL = """
CREATE TABLE IF NOT EXISTS grid_cells (
    deal_id      TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    wording      TEXT NOT NULL,
    reader       TEXT NOT NULL,
    data         TEXT NOT NULL,
    PRIMARY KEY (deal_id, document_id, wording, reader)
);
CREATE TABLE IF NOT EXISTS grid_runs (
    deal_id     TEXT NOT NULL,
    id          TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (deal_id, id)
);
CREATE INDEX IF NOT EXISTS grid_runs_by_time ON grid_runs (deal_id, created_at);
"""


def create_tables(conn: sqlite3.Connection) -> None:
    for statement in DDL.split(";"):
        if statement.strip():
            conn.execute(statement)


def put_cells(conn: sqlite3.Connection, cells: Sequence[GridCell]) -> None:
    conn.executemany(
        "INSERT INTO grid_cells (deal_id, document_id, wording, reader, data) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (deal_id, document_id, wording, reader) "
        "DO UPDATE SET data = excluded.data",
        [(c.deal_id, c.document_id, c.wording, c.reader, c.model_dump_json()) for c in cells],
    )


def cells(conn: sqlite3.Connection, deal_id: str, document_ids: Sequence[str],
          wordings: Sequence[str], reader: str) -> list[GridCell]:
    found: list[GridCell] = []
    wanted = set(wordings)
    for start in range(0, len(document_ids), 500):
        batch = list(document_ids[start:start + 500])
        marks = ",".join("?" * len(batch))
        rows = conn.execute(
            f"SELECT wording, data FROM grid_cells WHERE deal_id = ? AND reader = ? "
            f"AND document_id IN ({marks})", (deal_id, reader, *batch)).fetchall()
        found += [GridCell.model_validate_json(data) for wording, data in rows
                  if wording in wanted]
    return found


def put_run(conn: sqlite3.Connection, run: GridRun) -> None:
    conn.execute(
        "INSERT INTO grid_runs (deal_id, id, created_at, data) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (deal_id, id) DO UPDATE SET data = excluded.data",
        (run.deal_id, run.id, run.created_at.isoformat(), run.model_dump_json()),
    )


def get_run(conn: sqlite3.Connection, deal_id: str, run_id: str) -> GridRun | None:
    row = conn.execute("SELECT data FROM grid_runs WHERE deal_id = ? AND id = ?",
                       (deal_id, run_id)).fetchone()
    return GridRun.model_validate_json(row[0]) if row else None


def list_runs(conn: sqlite3.Connection, deal_id: str, limit: int) -> list[GridRun]:
    rows = conn.execute(
        "SELECT data FROM grid_runs WHERE deal_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
        (deal_id, limit)).fetchall()
    return [GridRun.model_validate_json(data) for (data,) in rows]
