"""Version families and order from data-room filenames."""

from __future__ import annotations

import pytest

from manda.ingest.versions import supersedes, version_info


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        ("Annual_Report_2023_CORRECTED.pdf", "Annual_Report_2023.pdf"),
        ("Forecast_2025_v2.xlsx", "Forecast_2025.xlsx"),
        ("Forecast_2025_v3.xlsx", "Forecast_2025_v2.xlsx"),
        ("Deck_FINAL.pptx", "Deck_v3.pptx"),
        ("Model_updated.xlsx", "Model_FINAL.xlsx"),
        ("Memo (2).docx", "Memo (1).docx"),
        ("Memo (1).docx", "Memo.docx"),
        ("Q3 report.pdf", "Q3 report draft.pdf"),
        ("budget-v10.xlsx", "budget-v9.xlsx"),
        # German and French markers are vocabulary words like the English ones
        ("Jahresabschluss_2024_korrigiert.pdf", "Jahresabschluss_2024.pdf"),
        ("Comptes_annuels_2024_version_définitive.pdf", "Comptes_annuels_2024_projet.pdf"),
        ("Reporting_mars_2025_rectifié.xlsx", "Reporting_mars_2025.xlsx"),
        ("Contrat_de_credit_V2.docx", "Contrat_de_credit_projet.docx"),
    ],
)
def test_later_versions_supersede_earlier_ones(newer: str, older: str) -> None:
    assert supersedes(newer, older)
    assert not supersedes(older, newer)


def test_different_documents_never_supersede_each_other() -> None:
    assert not supersedes("Q3_2024_Report.pdf", "Q2_2024_Report.pdf")
    assert not supersedes("Forecast_2025_v2.xlsx", "Annual_Report_2023.pdf")


def test_words_that_merely_end_like_markers_are_not_versions() -> None:
    assert version_info("Report_Nov2024.pdf").rank == 0
    assert version_info("Report_Nov2024.pdf").family == "report_nov2024"
    assert version_info("Overview.md").markers == ()


def test_family_ignores_case_separators_and_file_type() -> None:
    assert (
        version_info("TargetCo Annual-Report 2023.pdf").family
        == version_info("targetco_annual_report_2023_CORRECTED.docx").family
    )


def test_a_draft_and_a_correction_are_named_in_every_language() -> None:
    assert version_info("Comptes_annuels_2024_projet.pdf").is_draft
    assert version_info("Planung_2025_Entwurf.xlsx").is_draft
    assert version_info("Reporting_mars_2025_rectifié.xlsx").is_correction
    assert not version_info("Projet_Faucon_IM.pdf").is_draft  # a deal's code name, not a draft
    assert version_info("Projet_Faucon_IM.pdf").family == "projet_faucon_im"
    assert version_info("Report_v1.2.3.pdf").rank == 0  # no version number of ours
