"""Ingestion reads the next file while it stores the current one: the report and the stored
documents are what one file at a time gives — the same content twice is `unchanged`, failures
keep their file order, and every stored document is completed."""

from __future__ import annotations

from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.models import DocumentStatus

BOARD = "# Board minutes\n\nRevenue for FY2023 was EUR 12.5 million, approved by the board.\n"


async def test_a_room_read_ahead_reports_in_file_order(tmp_path: Path) -> None:
    room = tmp_path / "room"
    (room / "1 Corporate").mkdir(parents=True)
    (room / "2 Copies").mkdir()
    (room / "1 Corporate" / "1.1 Minutes.md").write_text(BOARD)
    (room / "1 Corporate" / "1.2 Broken.pdf").write_bytes(b"%PDF-1.7\nnot really a pdf")
    (room / "2 Copies" / "2.1 Minutes copy.md").write_text(BOARD)  # the same content again
    (room / "2 Copies" / "2.2 Damaged.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    (room / "2 Copies" / "2.3 Notes.md").write_text("# Notes\n\nEBITDA for FY2023 was EUR 3.1m.\n")

    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        report = await app.ingest.ingest("falcon", [room])
        documents = await app.graph.list_documents("falcon")

    names = [Path(label).name for label in report.ingested]
    assert names == ["1.1 Minutes.md", "2.3 Notes.md"]
    assert [Path(label).name for label in report.unchanged] == ["2.1 Minutes copy.md"]
    assert [Path(s.filename).name for s in report.skipped] == ["1.2 Broken.pdf", "2.2 Damaged.xlsx"]
    completed = sorted(d.filename for d in documents if d.status is DocumentStatus.COMPLETED)
    assert completed == ["1.1 Minutes.md", "2.3 Notes.md"]
    assert {d.status for d in documents} == {DocumentStatus.COMPLETED, DocumentStatus.FAILED}
