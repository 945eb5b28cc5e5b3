"""A document dropped in Slack has its findings approved automatically only when it is
authoritative (audited, signed or final); the same file from the data room folder is trusted as
its kind allows."""

from __future__ import annotations

from pathlib import Path

from manda.app import Manda
from manda.models import FindingStatus

FLASH = """# Flash report Q4 2024

Revenue for Q4 2024 was EUR 6.1 million.
EBITDA for Q4 2024 was EUR 1.3 million.
"""
AUDITED = """# Annual report 2024 — audited financial statements

Independent auditor's report: the financial statements give a true and fair view.

Revenue for FY2024 was EUR 22.4 million.
EBITDA for FY2024 was EUR 4.9 million.
"""


async def _statuses(app: Manda, deal: str, name: str) -> set[FindingStatus]:
    docs = {d.filename: d.id for d in await app.deals.documents(deal)}
    return {f.status for f in await app.deals.findings(deal) if f.document_id == docs[name]}


async def test_only_authoritative_drops_are_approved_automatically(
    app: Manda, tmp_path: Path
) -> None:
    flash, audited = tmp_path / "Flash_Q4_2024.md", tmp_path / "AR_2024.md"
    flash.write_text(FLASH)
    audited.write_text(AUDITED)

    await app.deals.ingest("fromfolder", [flash])
    assert FindingStatus.APPROVED in await _statuses(app, "fromfolder", flash.name)

    names = {flash: flash.name, audited: audited.name}
    report = await app.deals.ingest_upload("dropped", [flash, audited], names=names, by="U1")
    assert report.ingested == [flash.name, audited.name]  # type: ignore[union-attr]
    assert await _statuses(app, "dropped", flash.name) == {FindingStatus.PENDING}
    assert FindingStatus.APPROVED in await _statuses(app, "dropped", audited.name)
    held = [f for f in await app.deals.findings("dropped") if f.status is FindingStatus.PENDING]
    reason = held[0].attributes["review_reason"]
    assert "Flash_Q4_2024.md" in reason and "audited, signed or final" in reason
