"""Proof: a batch full of bad files ingests its good files, names every bad one with its reason,
keeps the process alive, and changes nothing when run again.

The bad files are made by the test (see `fixtures.bad_files`): a corrupt PDF, a PDF locked with
a password nobody gave us, a zero-byte file, a 200 MB file over the configured 100 MB limit, a
PNG named .pdf, a DOCX zip bomb, a workbook of a million empty rows, a ZIP export that is a zip
bomb (archives of zeros) and a ZIP whose members try to leave their folder (`../`, `/etc`,
a Windows drive).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fixtures import bad_files

from manda.app import Manda
from manda.config import Settings
from manda.models import DocumentStatus

DEAL = "falcon"
GOOD = ["Board_Notes.md", "Board_Pack.zip/Board/Minutes.md", "Q3_2024_Report.pdf"]
OUTSIDE = (
    "has a path that points outside the archive; refused (an archive may only hold files inside "
    "its own folders)"
)
BAD_REASONS = {
    "Q3_Report_draft.pdf": "is corrupt: damaged PDF (",
    "SPA_signed.pdf": "is password-protected; ask the seller for an unprotected copy",
    "Cap_Table.xlsx": "is empty (0 bytes)",
    "Data_Room_Export.pdf": "is 200 MB, over the 100 MB limit (MANDA_MAX_FILE_MB)",
    "Org_Chart.pdf": "is named .pdf but is a PNG image; upload the original PDF instead",
    "Contract.docx": "is a compressed archive with a part that expands",
    "Headcount.xlsx": "contains no data: every sheet is empty",
    **{
        f"Room_Export.zip/Financials/part-{i}.zip/zeros-{m}.pdf": "expands "
        for i in (1, 2) for m in (1, 2)
    },
    "Board_Pack.zip/../../../home/manda/.bashrc": OUTSIDE,
    "Board_Pack.zip//etc/cron.d/manda": OUTSIDE,
    "Board_Pack.zip/C:\\Windows\\evil.bat": OUTSIDE,
}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("room")
    bad_files.text_pdf(folder / "Q3_2024_Report.pdf", "TargetCo Q3 2024 report",
                       "Revenue for Q3 2024 was EUR 5.2 million.")
    (folder / "Board_Notes.md").write_text(
        "# Board notes\n\nHeadcount was 156 employees as of 30 September 2024.\n")
    bad_files.corrupt_pdf(folder / "Q3_Report_draft.pdf")
    bad_files.password_pdf(folder / "SPA_signed.pdf")
    bad_files.empty_file(folder / "Cap_Table.xlsx")
    bad_files.sparse_file(folder / "Data_Room_Export.pdf", 200 * bad_files.MB)
    bad_files.png_named_pdf(folder / "Org_Chart.pdf")
    bad_files.docx_zip_bomb(folder / "Contract.docx")
    bad_files.xlsx_with_empty_rows(folder / "Headcount.xlsx", rows=1_000_000)
    bad_files.zip_bomb(folder / "Room_Export.zip", inner=2, members=2, member_mb=12)
    bad_files.traversal_zip(folder / "Board_Pack.zip")
    return folder


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Manda]:
    settings = Settings(MANDA_HOME=tmp_path / "home", MANDA_MAX_FILE_MB=100)
    async with Manda(settings) as manda:
        yield manda


async def state(app: Manda) -> tuple[object, ...]:
    docs = sorted((d.id, d.filename, d.status, d.error) for d in
                  await app.graph.list_documents(DEAL))
    findings = sorted(f.model_dump_json() for f in await app.graph.list_findings(DEAL))
    relations = sorted(r.model_dump_json() for r in await app.graph.list_relations(DEAL))
    return docs, findings, relations


async def test_bad_files_are_named_with_their_reason_and_the_good_ones_ingested(
    app: Manda, room: Path
) -> None:
    report = await app.ingest.ingest(DEAL, [room])

    assert sorted(report.ingested) == GOOD
    reasons = {s.filename: s.reason for s in report.skipped}
    assert set(reasons) == set(BAD_REASONS)
    for name, expected in BAD_REASONS.items():
        assert reasons[name].startswith(expected), (name, reasons[name])
    assert report.findings >= 2

    docs = {d.filename: d for d in await app.graph.list_documents(DEAL)}
    completed = {n for n, d in docs.items() if d.status is DocumentStatus.COMPLETED}
    assert completed == {name.rsplit("/", 1)[-1] for name in GOOD}
    for name in BAD_REASONS:
        if "/" in name:  # archive members refused before they were written: no document
            continue
        assert docs[name].status is DocumentStatus.FAILED and docs[name].error == reasons[name]

    # the process is alive and answers from what was ingested
    answer = await app.answers.ask(DEAL, "What was Q3 2024 revenue?")
    assert "5.2" in answer.answer and answer.citations[0].document == "Q3_2024_Report.pdf"

    before = await state(app)
    again = await app.ingest.ingest(DEAL, [room])
    assert again.ingested == [] and sorted(again.unchanged) == GOOD
    assert {s.filename: s.reason for s in again.skipped} == reasons
    assert await state(app) == before
