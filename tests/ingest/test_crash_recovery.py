"""A process killed mid-ingestion (SIGKILL: no cleanup runs) leaves nothing half-read to cite.

Reproduces issue 12: after `kill -9` during an upload the document stayed `running` forever and
its chunks (no findings, never reviewed) were cited in answers.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.ingest.service import INTERRUPTED
from manda.models import DocumentStatus

MEMO = "Zorblax_licence_memo.txt"
FACT = "Zorblax licence revenue was EUR 987 million in FY2024, per the side letter. "


def _half_ingested(db: Path) -> bool:
    """The memo is `running` and its chunks are already stored (embedding or extraction next)."""
    if not db.exists():
        return False
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            row = conn.execute(
                "SELECT d.status, count(c.id) FROM documents d "
                "LEFT JOIN chunks c ON c.deal_id = d.deal_id AND c.document_id = d.id "
                "WHERE d.filename = ? GROUP BY d.id",
                (MEMO,),
            ).fetchone()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == "running" and row[1] > 0


async def test_a_document_cut_short_by_sigkill_is_never_cited(
    home_copy: Path, tmp_path: Path
) -> None:
    memo = tmp_path / MEMO
    filler = "The licensing programme is described in the appendix of the memo. " * 12
    # ~0.3 MB of prose, 300 chunks: storing its chunks comes seconds before the document is
    # completed (its findings are extracted and stored after), so the kill lands in between
    memo.write_text("\n\n".join(f"{FACT}{filler}" for _ in range(300)))
    env = {**os.environ, "MANDA_HOME": str(home_copy)}
    code = "import sys; from manda.cli import main; sys.exit(main(sys.argv[1:]))"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "ingest", "--deal", "targetco", str(memo)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not _half_ingested(home_copy / "manda.db"):
            assert process.poll() is None, "the ingestion ended before it could be interrupted"
            assert time.monotonic() < deadline, "the memo never reached the half-ingested state"
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait()

    async with Manda(Settings(MANDA_HOME=home_copy)) as app:
        [memo_doc] = [
            d for d in await app.graph.list_documents("targetco") if d.filename == MEMO
        ]
        assert memo_doc.status is DocumentStatus.RUNNING  # left so by the dead process…
        hits = await app.search.search("targetco", "Zorblax licence revenue", k=10)
        assert MEMO not in {h.document for h in hits}  # …and never searchable meanwhile
        await app.ingest.recover_interrupted()  # what `manda serve` and every ingestion start do
        [memo_doc] = [
            d for d in await app.graph.list_documents("targetco") if d.filename == MEMO
        ]
        assert (memo_doc.status, memo_doc.error) == (DocumentStatus.FAILED, INTERRUPTED)
        assert await app.graph.list_chunks("targetco", memo_doc.id)  # its chunks are there…
        hits = await app.search.search("targetco", "Zorblax licence revenue", k=10)
        assert MEMO not in {h.document for h in hits}  # …but never searched
        answer = await app.answers.ask("targetco", "What was Zorblax licence revenue in FY2024?")
        assert "987" not in answer.answer
        assert MEMO not in {c.document for c in answer.citations}


async def test_findings_stored_before_a_crash_are_never_evidence_nor_queued(
    home_copy: Path,
) -> None:
    """Issue 26, item 15: the crash came after the document's findings were stored and before
    it was marked `completed`; recovery marked it failed, yet its finding was cited and queued."""
    from manda.errors import FindingNotFoundError
    from manda.models import (
        Chunk,
        Confidence,
        Document,
        Finding,
        FindingKind,
        Location,
        ReviewDecisionKind,
    )

    async with Manda(Settings(MANDA_HOME=home_copy)) as app:
        memo = Document(
            id="d_crashed", deal_id="targetco", filename=MEMO, content_hash="crashed",
            file_type="txt", size_bytes=len(FACT), version_family="zorblax licence memo",
            status=DocumentStatus.RUNNING, ingest_owner="elsewhere:1",
        )
        await app.graph.upsert_document(memo)
        chunk = Chunk(id="d_crashed_c0", deal_id="targetco", document_id=memo.id, ordinal=0,
                      text=FACT, location=Location.for_section("memo"))
        await app.graph.add_chunks("targetco", [chunk])
        finding = Finding(
            id="f_crashed", deal_id="targetco", document_id=memo.id, chunk_id=chunk.id,
            kind=FindingKind.METRIC, subject="zorblax licence revenue",
            label="Zorblax licence revenue", period="FY2024",
            value=987_000_000.0, unit="EUR", excerpt=FACT, location=chunk.location,
            confidence=0.95, confidence_level=Confidence.HIGH,
        )
        await app.graph.add_findings([finding])
        await app.graph.set_document_status("targetco", memo.id, DocumentStatus.FAILED,
                                            INTERRUPTED)  # what recovery does

        queue = await app.deals.review_page("targetco")
        assert finding.id not in {f.id for f in queue.findings}
        assert finding.id not in {f.id for f in await app.deals.findings("targetco")}
        answer = await app.answers.ask("targetco", "What was Zorblax licence revenue in FY2024?")
        assert "987" not in answer.answer and MEMO not in {c.document for c in answer.citations}
        try:
            await app.deals.decide("targetco", finding.id, ReviewDecisionKind.APPROVE, by="U1")
        except FindingNotFoundError:
            pass
        else:
            raise AssertionError("a finding of a failed document was approved")
