"""SQL for the human-in-the-loop records: review decisions, the audit log, Q&A items, bindings.

These survive restarts and are written once: a finding is decided once, an audit entry and a
Q&A item are never overwritten by a retry.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from manda.errors import AlreadyDecidedError
from manda.kg.embedded.sql import sortable
from manda.models import AuditEntry, FindingStatus, QAItem, ReviewDecision, ReviewDecisionKind

_STATUS_OF = {
    ReviewDecisionKind.APPROVE: FindingStatus.APPROVED,
    ReviewDecisionKind.REJECT: FindingStatus.REJECTED,
}


def record_decision(conn: sqlite3.Connection, decision: ReviewDecision) -> None:
    cursor = conn.execute(
        "INSERT INTO decisions (deal_id, finding_id, data) VALUES (?, ?, ?) "
        "ON CONFLICT (deal_id, finding_id) DO NOTHING",
        (decision.deal_id, decision.finding_id, decision.model_dump_json()),
    )
    if cursor.rowcount == 0:
        earlier = get_decision(conn, decision.deal_id, decision.finding_id)
        assert earlier is not None  # the conflicting row is in this very transaction's snapshot
        raise AlreadyDecidedError(
            decision.finding_id, status=_STATUS_OF[earlier.decision].value, by=earlier.by
        )


def get_decision(
    conn: sqlite3.Connection, deal_id: str, finding_id: str
) -> ReviewDecision | None:
    row = conn.execute(
        "SELECT data FROM decisions WHERE deal_id = ? AND finding_id = ?", (deal_id, finding_id)
    ).fetchone()
    return ReviewDecision.model_validate_json(row[0]) if row else None


def withdraw_decision(
    conn: sqlite3.Connection, deal_id: str, finding_id: str, at: datetime
) -> ReviewDecision | None:
    """Delete the decision made at `at` (read and deleted in the writer's one transaction)."""
    decision = get_decision(conn, deal_id, finding_id)
    if decision is None or decision.at != at:
        return None
    conn.execute("DELETE FROM decisions WHERE deal_id = ? AND finding_id = ?",
                 (deal_id, finding_id))
    return decision


def append_audit(conn: sqlite3.Connection, entry: AuditEntry) -> None:
    # A retried append with the same id keeps the first entry: the log is append-only.
    conn.execute(
        "INSERT INTO audit (deal_id, id, at, data) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (deal_id, id) DO NOTHING",
        (entry.deal_id, entry.id, sortable(entry.at), entry.model_dump_json()),
    )


def list_audit(conn: sqlite3.Connection, deal_id: str) -> list[AuditEntry]:
    rows = conn.execute(
        "SELECT data FROM audit WHERE deal_id = ? ORDER BY at, rowid", (deal_id,)
    ).fetchall()
    return [AuditEntry.model_validate_json(data) for (data,) in rows]


def add_qa_item(conn: sqlite3.Connection, item: QAItem) -> bool:
    cursor = conn.execute(
        "INSERT INTO qa_items (deal_id, id, created_at, data) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (deal_id, id) DO NOTHING",
        (item.deal_id, item.id, sortable(item.created_at), item.model_dump_json()),
    )
    return cursor.rowcount == 1


def list_qa_items(conn: sqlite3.Connection, deal_id: str) -> list[QAItem]:
    rows = conn.execute(
        "SELECT data FROM qa_items WHERE deal_id = ? ORDER BY created_at, rowid", (deal_id,)
    ).fetchall()
    return [QAItem.model_validate_json(data) for (data,) in rows]


def replace_qa_item(conn: sqlite3.Connection, item: QAItem) -> bool:
    cursor = conn.execute(
        "UPDATE qa_items SET data = ? WHERE deal_id = ? AND id = ?",
        (item.model_dump_json(), item.deal_id, item.id),
    )
    return cursor.rowcount == 1


def remove_qa_item(conn: sqlite3.Connection, deal_id: str, item_id: str) -> bool:
    cursor = conn.execute("DELETE FROM qa_items WHERE deal_id = ? AND id = ?", (deal_id, item_id))
    return cursor.rowcount == 1


def bind_channel(conn: sqlite3.Connection, channel_key: str, deal_id: str) -> None:
    conn.execute(
        "INSERT INTO channel_bindings (channel_key, deal_id) VALUES (?, ?) "
        "ON CONFLICT (channel_key) DO UPDATE SET deal_id = excluded.deal_id",
        (channel_key, deal_id),
    )


def unbind_channel(conn: sqlite3.Connection, channel_key: str) -> None:
    conn.execute("DELETE FROM channel_bindings WHERE channel_key = ?", (channel_key,))


def channel_deal(conn: sqlite3.Connection, channel_key: str) -> str | None:
    row = conn.execute(
        "SELECT deal_id FROM channel_bindings WHERE channel_key = ?", (channel_key,)
    ).fetchone()
    return row[0] if row else None


def list_bindings(conn: sqlite3.Connection) -> dict[str, str]:
    rows = conn.execute("SELECT channel_key, deal_id FROM channel_bindings ORDER BY channel_key")
    return dict(rows.fetchall())
