"""How a German Mittelstand room is written, read as it means: BWA month columns and their
"kumuliert" total, TEUR in prose, a Geschäftsjahr to 31 March, a correction in a German e-mail,
facilities, covenants and the audit firm in German words (the mechanisms the Rheintal room
exposed; evals/dataset.yaml has their dev cases)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from manda.agent.frame import read_question
from manda.app import Manda
from manda.config import Settings
from manda.finance.amounts import find_amounts, writes_decimal_comma
from manda.finance.covenants import levels_stated
from manda.finance.equivalents import group_patterns
from manda.finance.facilities import FacilityRole, facility_roles
from manda.finance.fiscal import FiscalYearEnd, year_end_statements
from manda.finance.periods import find_periods, parse_period
from manda.ingest.corrections import find_correction_statements
from manda.ingest.extract.excerpts import sentence_spans
from manda.models import FindingStatus, Location, ParsedDocument, Section


@pytest.mark.parametrize(("header", "period"), [
    ("Apr 24", "Apr 2024"), ("Mär 25", "Mar 2025"), ("Dez 24", "Dec 2024"), ("Mai 24", "May 2024"),
])
def test_a_bwa_month_column_is_a_month(header: str, period: str) -> None:
    assert parse_period(header) == period


def test_split_fiscal_years_in_quarters_and_full_years() -> None:
    assert find_periods("May 24 was a busy day") == []  # in running text a day, not a month
    assert [p for p, _, _ in find_periods("Compliance Certificate Q4 2024-25")] == ["Q4 2025"]
    assert [p for p, _, _ in find_periods("Q4 2024 25")] == ["Q4 2025"]  # a file name's stem
    assert [p for p, _, _ in find_periods("over the full year 2024/25")] == ["FY2025"]
    assert year_end_statements("Werte in TEUR · Geschäftsjahr 01.04.2024 – 31.03.2025") == [
        FiscalYearEnd(3, 31)]


def test_teur_beside_a_number_scales_it_and_reads_it_the_german_way() -> None:
    found = find_amounts("EBITDA 4.620 TEUR; davon TEUR 3.200 und 1.540 kEUR, 3.200 T€")
    assert [(a.value, a.currency) for a in found] == [
        (4_620_000, "EUR"), (3_200_000, "EUR"), (1_540_000, "EUR"), (3_200_000, "EUR")]
    assert [a.value for a in find_amounts("revenue of EUR 5.2 million and 1,540k")] == [
        5_200_000, 1_540_000]


def test_a_document_whose_clear_numbers_are_german_reads_the_ambiguous_ones_so() -> None:
    german = "Tranche A in Höhe von EUR 12.000.000, Marge 2,25 %; Raten von EUR 500.000."
    assert writes_decimal_comma(german)
    assert not writes_decimal_comma("Revenue 1,234,567; leverage 2.61:1.00; EUR 500.000")
    assert not writes_decimal_comma("Datum 31.03.2025, EUR 500.000")  # a date is no vote
    assert find_amounts("EUR 500.000", decimal_comma=True)[0].value == 500_000


def test_a_german_email_correcting_a_figure_names_the_document_before_its_verb() -> None:
    def statements(text: str) -> list[object]:
        parsed = ParsedDocument(filename="x.eml", file_type="eml", units=1, sections=[
            Section(text=text, location=Location.for_section("e-mail body"))])
        return list(find_correction_statements(parsed))

    (said,) = statements("Das in der BWA März 2025 ausgewiesene vorläufige EBITDA von 4.870 "
                         "TEUR ist zu korrigieren.")
    assert "bwa" in said.target_words and said.target_start is None  # type: ignore[attr-defined]
    assert statements("Die Rechnung des Lieferanten wurde korrigiert.") == []


def test_german_facilities_are_named_after_their_amounts() -> None:
    text = ("Die Verbindlichkeiten betreffen mit TEUR 11.000 die Tranche A und mit TEUR 3.200 die "
            "Inanspruchnahme der Betriebsmittellinie.")
    found = facility_roles(text, 0, len(text), find_amounts(text))
    assert [(s.amount.value, s.role, s.facility) for s in found] == [
        (11_000_000, FacilityRole.DRAWN, "term loan"),
        (3_200_000, FacilityRole.DRAWN, "revolving credit facility")]


def test_a_german_covenant_limit_and_the_level_in_force() -> None:
    sentence = ("(1) Nettoverschuldungsgrad: Das Verhältnis der Nettofinanzverbindlichkeiten zum "
                "EBITDA darf zu Stichtagen bis einschließlich 31. Dezember 2024 3,00 : 1,00 und zu "
                "jedem späteren Stichtag 2,75 : 1,00 nicht überschreiten.")
    [covenant] = levels_stated(sentence)
    assert (covenant.name, covenant.level, covenant.minimum) == (
        "Nettoverschuldungsgrad", 2.75, False)
    assert covenant.key == "nettoverschuldungsgrad" and "earlier 3,00" in covenant.stated
    assert levels_stated("Die Eigenkapitalquote beträgt 31,6 %.") == []


def test_the_audit_firm_and_opinion_in_german_inflections() -> None:
    auditor = group_patterns("auditor")
    assert any(p.search("Bestätigungsvermerk des unabhängigen Abschlussprüfers") for p in auditor)
    assert any(p.search("Hegele & Brandt GmbH Wirtschaftsprüfungsgesellschaft") for p in auditor)
    opinion = group_patterns("audit opinion")
    assert any(p.search("wir erteilen einen uneingeschränkten Bestätigungsvermerk")
               for p in opinion)


def test_a_german_day_ends_no_sentence_and_a_german_question_names_no_one() -> None:
    text = "Freiburg, 18. Juni 2025. Revenue grew 12. March was fine."
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Freiburg, 18. Juni 2025.", "Revenue grew 12.", "March was fine."]
    assert read_question("Wer sind die Geschäftsführer?").entity is None


async def test_a_bwa_total_column_is_the_fiscal_year_and_a_german_email_corrects_it(
        tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    months = ["Apr 24", "Mai 24", "Jun 24", "Jul 24", "Aug 24", "Sep 24", "Okt 24", "Nov 24",
              "Dez 24", "Jan 25", "Feb 25", "Mär 25"]
    workbook = Workbook()
    ws = workbook.active
    ws.title = "BWA"
    ws.append(["Betriebswirtschaftliche Auswertung März 2025"])
    ws.append(["Werte in TEUR · Geschäftsjahr 01.04.2024 – 31.03.2025"])
    ws.append(["TEUR", *months, "kumuliert"])
    ws.append(["Umsatzerlöse", *[300] * 12, 3600])
    ws.append(["EBITDA", *[40] * 12, 480])
    workbook.save(room / "BWA Maerz 2025.xlsx")
    (room / "AW Korrektur.eml").write_text(
        "From: cfo@example.de\nTo: dd@example.de\nDate: Fri, 20 Jun 2025 16:42:00 +0200\n"
        "Subject: Korrektur EBITDA\nContent-Type: text/plain; charset=\"utf-8\"\n\n"
        "Das in der BWA März 2025 ausgewiesene vorläufige EBITDA für das Geschäftsjahr 2024/25 "
        "von 480 TEUR ist zu korrigieren. Das EBITDA für das GJ 2024/25 beträgt damit 430 TEUR.\n",
        encoding="utf-8")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("gmbh", [room])
        docs = {d.id: d.filename for d in await app.graph.list_documents("gmbh")}
        revenue = [(f.period, f.value) for f in await app.graph.list_findings(
            "gmbh", subject="revenue")]
        assert ("FY2025", 3_600_000) in revenue and ("Mar 2025", 300_000) in revenue
        ebitda = {(docs[f.document_id], f.value): f.status
                  for f in await app.graph.list_findings("gmbh", subject="ebitda")
                  if f.period == "FY2025"}
        assert ebitda[("BWA Maerz 2025.xlsx", 480_000)] is FindingStatus.SUPERSEDED
        assert ("AW Korrektur.eml", 430_000) in ebitda
        assert ("AW Korrektur.eml", 480_000) not in ebitda  # the figure it corrects


def test_a_file_name_split_year_and_german_management_words() -> None:
    from manda.agent.topics import KEY_ROLES
    from manda.ingest.extract.names import is_person_name

    assert [p for p, _, _ in find_periods("AW Korrektur EBITDA GJ 2024 25")] == ["FY2025"]
    assert not is_person_name("Organe der Gesellschaft")
    assert is_person_name("Ursula von der Leyen")
    cfo = dict(KEY_ROLES)["CFO"]
    assert cfo.search("Geschäftsführerin Finanzen") and cfo.search("Managing Director (CFO)")


def test_german_requests_name_their_documents_and_german_totals_end_a_label() -> None:
    from manda.agent.gaps import _roles_named
    from manda.agent.tables import read_tables
    from manda.ingest.extract.tables import is_total_row
    from manda.models import DocumentRole as R

    assert _roles_named("Jahresabschlüsse der letzten zwei Geschäftsjahre") == [
        R.AUDITED_STATEMENTS]
    assert _roles_named("Monatliche BWA des laufenden Geschäftsjahres") == [
        R.MANAGEMENT_ACCOUNTS]
    assert _roles_named("Aktuelle Gesellschafterliste") == [R.CAP_TABLE]
    assert _roles_named("Mitarbeiterliste mit Vergütung") == [R.EMPLOYEE_CENSUS]
    assert is_total_row("Stammkapital gesamt") and not is_total_row("Gesamtkostenverfahren x")
    (table,) = read_tables("31.03.2025 | 31.03.2024\nVorräte | 31.03.2025: 6.900 | "
                           "31.03.2024: 6.300")
    assert table.header == ["", "31.03.2025", "31.03.2024"]
    assert table.rows[0].cells == {"31.03.2025": "6.900", "31.03.2024": "6.300"}


def test_a_german_customer_list_and_change_of_control() -> None:
    from manda.agent.unusual import TOPICS
    from manda.ingest.extract.tables import _CUSTOMER_HEADER, _REST_OF_CUSTOMERS, _SHARE_HEADER

    assert _CUSTOMER_HEADER.search("Kunde") and _SHARE_HEADER.search("Umsatzanteil")
    assert _REST_OF_CUSTOMERS.begins("Übrige Kunden") and _REST_OF_CUSTOMERS.begins("All other")
    assert not _REST_OF_CUSTOMERS.begins("Hoffmann Landtechnik AG")
    coc = next(t for t in TOPICS if t.key == "change_of_control")
    assert coc.stated.search("… oder (c) ein Kontrollwechsel eintritt")
