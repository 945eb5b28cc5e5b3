"""Two annual reports of one invented company, fiscal 2023 and fiscal 2025 (June year ends): the
room of several filings of one company that tests of periods and citations ask."""

from __future__ import annotations

from datetime import date

from manda.models import Document, DocumentStatus


def annual_reports() -> tuple[Document, Document]:
    """Harrowgate's fiscal 2023 report and its fiscal 2025 report, in that order."""
    def report(year: int, content_hash: str) -> Document:
        return Document(id=f"d{year % 100}", deal_id="d", filename=f"Harrowgate_AR_{year}.pdf",
                        content_hash=content_hash, file_type="pdf", size_bytes=1,
                        version_family=f"f{year % 100}", status=DocumentStatus.COMPLETED,
                        doc_date=date(year, 6, 30), fiscal_year_end="--06-30")

    return report(2023, "a"), report(2025, "b")
