"""SQL for findings and the relations between them (SUPERSEDES, CONTRADICTS, SUPPORTS).

A finding is stored as its JSON plus the columns reads filter on (deal, status, subject, period,
document, chunk); status changes update both in one statement so they never disagree. Every read
leaves out the findings of a document whose ingestion has not completed (running, or failed after
a crash): they are never evidence, never in the review queue, never decided; only ingestion reads
them (`unfinished`), to keep people's decisions on a document it reads again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from manda.errors import FindingNotFoundError
from manda.kg.embedded.sql import batched, marks, sortable
from manda.models import Finding, FindingStatus, Relation, RelationType

# ---------------------------------------------------------------- findings

# A finding of a document that is not completed ("f" is the findings table's row).
_UNFINISHED = (
    "EXISTS (SELECT 1 FROM documents d WHERE d.deal_id = f.deal_id AND d.id = f.document_id "
    "AND d.status != 'completed')"
)


def add_findings(conn: sqlite3.Connection, findings: Sequence[Finding]) -> None:
    conn.executemany(
        "INSERT INTO findings "
        "(deal_id, id, status, subject, period, document_id, chunk_id, created_at, data) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (deal_id, id) DO UPDATE SET status = excluded.status, "
        "subject = excluded.subject, period = excluded.period, "
        "document_id = excluded.document_id, chunk_id = excluded.chunk_id, "
        "created_at = excluded.created_at, data = excluded.data",
        [
            (
                f.deal_id,
                f.id,
                f.status.value,
                f.subject,
                f.period,
                f.document_id,
                f.chunk_id,
                sortable(f.created_at),
                f.model_dump_json(),
            )
            for f in findings
        ],
    )


def get_finding(conn: sqlite3.Connection, deal_id: str, finding_id: str) -> Finding | None:
    row = conn.execute(
        f"SELECT data FROM findings f WHERE deal_id = ? AND id = ? AND NOT {_UNFINISHED}",
        (deal_id, finding_id),
    ).fetchone()
    return Finding.model_validate_json(row[0]) if row else None


def list_findings(
    conn: sqlite3.Connection,
    deal_id: str,
    status: FindingStatus | None,
    subject: str | None,
    document_id: str | None,
    unfinished: bool = False,
) -> list[Finding]:
    clauses = ["deal_id = ?"]
    params: list[str] = [deal_id]
    for column, value in (("status", status), ("subject", subject), ("document_id", document_id)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(str(value))
    if not unfinished:
        clauses.append(f"NOT {_UNFINISHED}")
    rows = conn.execute(
        f"SELECT data FROM findings f WHERE {' AND '.join(clauses)} ORDER BY created_at, id",
        params,
    ).fetchall()
    return [Finding.model_validate_json(data) for (data,) in rows]


def finding_subjects(conn: sqlite3.Connection, deal_id: str) -> list[str]:
    rows = conn.execute(
        f"SELECT DISTINCT subject FROM findings f WHERE deal_id = ? AND NOT {_UNFINISHED} "
        "ORDER BY subject", (deal_id,)
    ).fetchall()
    return [subject for (subject,) in rows]


def fact_chunks(
    conn: sqlite3.Connection,
    deal_id: str,
    subjects: Sequence[str],
    periods: Sequence[str],
    among: Sequence[str],
    limit: int,
) -> list[tuple[str, float]]:
    """Retrieval's findings channel (`Findings.fact_chunks`) on the `fact_score` column: the
    passages of `among` by their own findings, then each subject's strongest passages read in
    the order of the `findings_by_fact` index until `limit` distinct ones (no sort, no scan of
    the subject)."""
    subjects = list(dict.fromkeys(subjects))
    if not subjects:
        return []
    period_sql = f" AND period IN ({marks(len(periods))})" if periods else ""
    best: dict[str, float] = {}
    for batch in batched(list(dict.fromkeys(among))):
        rows = conn.execute(
            f"SELECT chunk_id, MAX(fact_score) FROM findings WHERE deal_id = ? "
            f"AND chunk_id IN ({marks(len(batch))}) AND subject IN ({marks(len(subjects))})"
            f"{period_sql} AND fact_score IS NOT NULL GROUP BY chunk_id",
            (deal_id, *batch, *subjects, *periods),
        ).fetchall()
        best.update({chunk_id: score for chunk_id, score in rows})
    wanted = set(best)
    strongest: dict[str, float] = {}
    for subject in subjects:
        cursor = conn.execute(
            f"SELECT chunk_id, fact_score FROM findings INDEXED BY findings_by_fact "
            f"WHERE deal_id = ? AND subject = ?{period_sql} AND fact_score IS NOT NULL "
            "ORDER BY fact_score DESC, chunk_id",
            (deal_id, subject, *periods),
        )
        seen: set[str] = set()
        for chunk_id, score in cursor:
            if chunk_id in wanted or chunk_id in seen:
                continue
            seen.add(chunk_id)
            strongest[chunk_id] = max(strongest.get(chunk_id, 0.0), score)
            if len(seen) >= limit:
                break
        cursor.close()
    rest = sorted(strongest.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return sorted([*best.items(), *rest], key=lambda kv: (-kv[1], kv[0]))


def findings_for_chunks(
    conn: sqlite3.Connection, deal_id: str, chunk_ids: Sequence[str]
) -> list[Finding]:
    found: dict[str, tuple[str, str]] = {}
    for batch in batched(list(dict.fromkeys(chunk_ids))):
        rows = conn.execute(
            "SELECT id, created_at, data FROM findings f "
            f"WHERE deal_id = ? AND chunk_id IN ({marks(len(batch))}) AND NOT {_UNFINISHED}",
            (deal_id, *batch),
        ).fetchall()
        found.update((finding_id, (created, data)) for finding_id, created, data in rows)
    ordered = sorted(found.items(), key=lambda item: (item[1][0], item[0]))
    return [Finding.model_validate_json(data) for _, (_, data) in ordered]


def set_finding_status(
    conn: sqlite3.Connection, deal_id: str, finding_id: str, status: FindingStatus
) -> None:
    cursor = conn.execute(
        "UPDATE findings SET status = ?, data = json_set(data, '$.status', ?) "
        "WHERE deal_id = ? AND id = ?",
        (status.value, status.value, deal_id, finding_id),
    )
    if cursor.rowcount == 0:
        raise FindingNotFoundError(finding_id)


def remove_findings(conn: sqlite3.Connection, deal_id: str, finding_ids: Sequence[str]) -> None:
    for batch in batched(list(dict.fromkeys(finding_ids))):
        held = marks(len(batch))
        conn.execute(f"DELETE FROM findings WHERE deal_id = ? AND id IN ({held})",
                     (deal_id, *batch))
        conn.execute(
            f"DELETE FROM relations WHERE deal_id = ? AND (source_id IN ({held}) "
            f"OR target_id IN ({held}))",
            (deal_id, *batch, *batch),
        )


# ---------------------------------------------------------------- relations

_RELATION_COLUMNS = "deal_id, type, source_id, target_id, ends, reason"


def add_relations(conn: sqlite3.Connection, relations: Sequence[Relation]) -> None:
    conn.executemany(
        f"INSERT INTO relations ({_RELATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (deal_id, type, source_id, target_id) DO UPDATE SET "
        "ends = excluded.ends, reason = excluded.reason",
        [
            (r.deal_id, r.type.value, r.source_id, r.target_id, r.between, r.reason)
            for r in relations
        ],
    )


def remove_relations_except(
    conn: sqlite3.Connection, deal_id: str, keep: Sequence[Relation], types: Sequence[RelationType]
) -> None:
    """Delete the deal's relations of `types` that are not in `keep`."""
    if not types:
        return
    wanted = {(r.type.value, r.source_id, r.target_id) for r in keep}
    rows = conn.execute(
        f"SELECT rowid, type, source_id, target_id FROM relations WHERE deal_id = ? "
        f"AND type IN ({marks(len(types))})",
        (deal_id, *(t.value for t in types)),
    ).fetchall()
    stale = [rowid for rowid, *key in rows if tuple(key) not in wanted]
    for batch in batched(stale):
        conn.execute(f"DELETE FROM relations WHERE rowid IN ({marks(len(batch))})", batch)


def list_relations(
    conn: sqlite3.Connection,
    deal_id: str,
    type: RelationType | None,
    ids: Sequence[str] | None,
) -> list[Relation]:
    """Relations of the deal, of one type if given, touching any of `ids` (either end) if given.
    A relation with a rejected finding at either end does not count while it is rejected, nor
    one with a finding of a document whose ingestion has not completed."""
    base = (f"SELECT rowid, {_RELATION_COLUMNS} FROM relations WHERE deal_id = ? AND NOT ("
            "ends = 'finding' AND EXISTS (SELECT 1 FROM findings f WHERE f.deal_id = "
            "relations.deal_id AND f.id IN (relations.source_id, relations.target_id) "
            f"AND (f.status = '{FindingStatus.REJECTED.value}' OR {_UNFINISHED})))")
    params: list[str] = [deal_id]
    if type is not None:
        base += " AND type = ?"
        params.append(type.value)
    rows: list[tuple[int, str, str, str, str, str, str]] = []
    if ids is None:
        rows = conn.execute(base, params).fetchall()
    else:
        # one query per end, each on its own index: `source_id IN … OR target_id IN …` made
        # SQLite scan the deal's relations (93,780 SUPPORTS in a 10,000-page room)
        for batch in batched(list(dict.fromkeys(ids))):
            for end in ("source_id", "target_id"):
                rows += conn.execute(
                    f"{base} AND {end} IN ({marks(len(batch))})", (*params, *batch)
                ).fetchall()
    found = {row[0]: row[1:] for row in rows}
    return [
        Relation(deal_id=d, type=RelationType(t), source_id=s, target_id=g, between=b, reason=r)
        for _, (d, t, s, g, b, r) in sorted(found.items())
    ]
