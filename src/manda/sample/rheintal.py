"""Rheintal's files: a German GmbH room (Geschäftsjahr to 31 March, TEUR) nobody on the team wrote.

PDFs (HGB Jahresabschluss with Bestätigungsvermerk, Gesellschafterliste, an English compliance
certificate), workbooks (BWA with months across the columns and a Finanzstatus, the
Anforderungsliste), a German Konsortialkreditvertrag in Word, a semicolon CSV customer list with
decimal commas and a German `.eml` correcting a figure. Ground truth:
`manda.sample.rheintal_facts`; evaluation-only, so the demo does not get slower.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

from docx import Document
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample._office import save_office_file
from manda.sample._paths import room_folder
from manda.sample._pdf import PdfMeta, para, spacer, table, write_pdf
from manda.sample._xlsx import save_workbook
from manda.sample.rheintal_facts import (
    ANFORDERUNGSLISTE,
    AUDITOR_NAME,
    BANK_DEBT_K,
    BWA,
    CASH_K,
    COMPANY,
    COMPLIANCE,
    CUSTOMER_REVENUE_K,
    CUSTOMERS,
    EBITDA_K,
    F_DD,
    F_FINANZEN,
    F_KOMMERZIELL,
    F_RECHT,
    FY_REVENUE_K,
    GESELLSCHAFTERLISTE,
    GUV,
    HOLDERS,
    IRL_ITEMS,
    JAHRESABSCHLUSS,
    KORREKTUR,
    KREDITVERTRAG,
    KUNDEN,
    LENDER,
    MONTHLY_MATERIAL,
    MONTHLY_OTHER,
    MONTHLY_PERSONNEL,
    MONTHLY_REVENUE,
    MONTHS,
    NET_DEBT_K,
    OTHER_CUSTOMERS_K,
    STAMMKAPITAL,
    TRANCHE_A_K,
    WC_DRAWN_K,
    de,
)

_BOLD = Font(bold=True)
TEUR = "#,##0"


def write_rheintal(room: Path) -> list[Path]:
    """Write every Rheintal file into its folder under `room`; return their paths."""
    return [
        _jahresabschluss(room_folder(room, F_FINANZEN) / JAHRESABSCHLUSS),
        _bwa(room_folder(room, F_FINANZEN) / BWA),
        _korrektur(room_folder(room, F_FINANZEN) / KORREKTUR),
        _gesellschafterliste(room_folder(room, F_RECHT) / GESELLSCHAFTERLISTE),
        _kreditvertrag(room_folder(room, F_RECHT) / KREDITVERTRAG),
        _compliance(room_folder(room, F_RECHT) / COMPLIANCE),
        _kunden(room_folder(room, F_KOMMERZIELL) / KUNDEN),
        _anforderungsliste(room_folder(room, F_DD) / ANFORDERUNGSLISTE),
    ]


def _meta(title: str, issued: date, author: str = COMPANY) -> PdfMeta:
    return PdfMeta(title=title, author=author, subject=title, issued=issued,
                   footer=f"{COMPANY} — {title}")


# ---------------------------------------------------------------- Jahresabschluss (HGB)


def _jahresabschluss(path: Path) -> Path:
    pages = [
        [
            para(COMPANY, "Title"),
            para("Jahresabschluss zum 31. März 2025 (Geschäftsjahr 2024/25)", "Heading1"),
            para("Bestätigungsvermerk des unabhängigen Abschlussprüfers", "Heading2"),
            para(f"An die {COMPANY}, Lahr. Wir haben den Jahresabschluss der {COMPANY} – "
                 "bestehend aus der Bilanz zum 31. März 2025 und der Gewinn- und "
                 "Verlustrechnung für das Geschäftsjahr vom 1. April 2024 bis zum 31. März 2025 "
                 "sowie dem Anhang – geprüft. Nach unserer Beurteilung aufgrund der bei der "
                 "Prüfung gewonnenen Erkenntnisse entspricht der beigefügte Jahresabschluss in "
                 "allen wesentlichen Belangen den deutschen, für Kapitalgesellschaften geltenden "
                 "handelsrechtlichen Vorschriften und vermittelt ein den tatsächlichen "
                 "Verhältnissen entsprechendes Bild der Vermögens- und Finanzlage der "
                 "Gesellschaft. Unsere Prüfung hat zu keinen Einwendungen geführt; wir erteilen "
                 "einen uneingeschränkten Bestätigungsvermerk."),
            para(f"{AUDITOR_NAME}, Freiburg im Breisgau, 18. Juni 2025"),
            para(f"Die {COMPANY} entwickelt und fertigt Getriebemotoren und Antriebssysteme "
                 "für Landtechnik, Fördertechnik und Schiffbau am Standort Lahr (Schwarzwald); "
                 "im Geschäftsjahr waren durchschnittlich 214 Mitarbeiter beschäftigt."),
        ],
        [
            para("Gewinn- und Verlustrechnung für die Zeit vom 1. April 2024 bis 31. März 2025",
                 "Heading2"),
            para("Gesamtkostenverfahren (§ 275 Abs. 2 HGB) · Angaben in TEUR", "Small"),
            table([["", "GJ 2024/25", "GJ 2023/24"],
                   *([line, de(current), de(prior)] for line, current, prior in GUV)],
                  [95, 30, 30], bold_rows=[6, 10]),
        ],
        [
            para("Bilanz zum 31. März 2025", "Heading2"),
            para("Angaben in TEUR", "Small"),
            table([
                ["", "31.03.2025", "31.03.2024"],
                ["A. Anlagevermögen", "16.400", "15.900"],
                ["B. I. Vorräte", "6.900", "6.300"],
                ["B. II. Forderungen aus Lieferungen und Leistungen", "5.800", "5.200"],
                ["B. IV. Kassenbestand, Guthaben bei Kreditinstituten", de(CASH_K), "1.900"],
                ["Summe Aktiva", "31.250", "29.300"],
                ["A. Eigenkapital", "9.870", "8.160"],
                ["B. Rückstellungen", "3.480", "3.050"],
                ["C. 1. Verbindlichkeiten gegenüber Kreditinstituten", de(BANK_DEBT_K),
                 "14.800"],
                ["C. 2. Verbindlichkeiten aus Lieferungen und Leistungen", "3.700", "3.290"],
                ["Summe Passiva", "31.250", "29.300"],
            ], [95, 30, 30], bold_rows=[5, 10]),
            spacer(),
            para("Anhang (Auszug)", "Heading2"),
            para(f"Die Verbindlichkeiten gegenüber Kreditinstituten von TEUR {de(BANK_DEBT_K)} "
                 f"betreffen mit TEUR {de(TRANCHE_A_K)} die Tranche A und mit TEUR "
                 f"{de(WC_DRAWN_K)} die Inanspruchnahme der Betriebsmittellinie aus dem "
                 f"Konsortialkreditvertrag vom 15. Juli 2022 mit der {LENDER} als "
                 "Konsortialführerin; sie sind durch Sicherungsübereignung und Globalzession "
                 "besichert."),
            para("Organe der Gesellschaft: Geschäftsführer waren im Geschäftsjahr Dr. Klaus "
                 "Brenner (Vorsitzender der Geschäftsführung) und Sabine Kraus (Finanzen)."),
        ],
    ]
    write_pdf(path, pages, _meta("Jahresabschluss zum 31. März 2025", date(2025, 6, 18),
                                 AUDITOR_NAME))
    return path


# ---------------------------------------------------------------- BWA workbook


def _header(ws: Worksheet, row: int, labels: list[str]) -> None:
    for col, label in enumerate(labels, start=1):
        ws.cell(row=row, column=col, value=label).font = _BOLD


def _bwa(path: Path) -> Path:
    """Months across the columns as German text headers, then a 'kumuliert' column."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "BWA"
    ws["A1"] = f"{COMPANY} — Betriebswirtschaftliche Auswertung (BWA) März 2025"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = ("Werte in TEUR · Geschäftsjahr 01.04.2024 – 31.03.2025 (GJ 2024/25) · "
                "vorläufig, ungeprüft")
    _header(ws, 4, ["TEUR", *MONTHS, "kumuliert"])
    lines = {6: ("Umsatzerlöse", MONTHLY_REVENUE), 7: ("Materialaufwand", MONTHLY_MATERIAL),
             9: ("Personalaufwand", MONTHLY_PERSONNEL),
             10: ("Sonstige betriebliche Aufwendungen", MONTHLY_OTHER)}
    for row, (label, values) in lines.items():
        ws.cell(row=row, column=1, value=label)
        for col, value in enumerate(values, start=2):
            ws.cell(row=row, column=col, value=value)
    ws["A8"], ws["A11"] = "Rohertrag", "EBITDA"
    ws["A8"].font = ws["A11"].font = _BOLD
    for col in "BCDEFGHIJKLM":
        ws[f"{col}8"] = f"={col}6-{col}7"
        ws[f"{col}11"] = f"={col}8-{col}9-{col}10"
    for row in (6, 7, 8, 9, 10, 11):
        ws[f"N{row}"] = f"=SUM(B{row}:M{row})"
        ws[f"N{row}"].font = _BOLD
        for col in "BCDEFGHIJKLMN":
            ws[f"{col}{row}"].number_format = TEUR
    ws["A13"] = "Vorläufige Zahlen vor Abschlussbuchungen; Aufwendungen ohne Vorzeichen."
    ws.column_dimensions["A"].width = 34
    _finanzstatus(workbook.create_sheet("Finanzstatus"))
    save_workbook(workbook, path, issued=date(2025, 4, 22), author=COMPANY)
    return path


def _finanzstatus(ws: Worksheet) -> None:
    ws["A1"] = "Finanzstatus zum 31.03.2025"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "in Tsd. €"
    _header(ws, 4, ["Position", "31.03.2025"])
    rows = [("Tranche A", TRANCHE_A_K), ("Betriebsmittellinie (Inanspruchnahme)", 2_600),
            ("Liquide Mittel", CASH_K)]
    for row, (label, value) in enumerate(rows, start=5):
        ws.cell(row=row, column=1, value=label)
        ws.cell(row=row, column=2, value=value).number_format = TEUR
    ws["A8"] = "Nettofinanzverschuldung"
    ws["A8"].font = _BOLD
    ws["B8"] = "=B5+B6-B7"
    ws["B8"].number_format = TEUR
    ws.column_dimensions["A"].width = 40


# ---------------------------------------------------------------- correction e-mail


def _korrektur(path: Path) -> Path:
    text = f"""From: Sabine Kraus <s.kraus@rheintal-antriebe.de>
To: Projekt Kormoran Datenraum <kormoran@lindenberg-capital.de>
Date: Fri, 20 Jun 2025 16:42:00 +0200
Subject: AW: Korrektur EBITDA GJ 2024/25
Message-ID: <korrektur-ebitda-2425@rheintal-antriebe.de>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Sehr geehrte Damen und Herren,

das in der BWA März 2025 ausgewiesene vorläufige EBITDA für das Geschäftsjahr 2024/25 von
4.870 TEUR ist zu korrigieren. Im Rahmen der Abschlussprüfung wurde eine
Drohverlustrückstellung von 250 TEUR für einen Festpreisauftrag gebildet und im März 2025 unter
den sonstigen betrieblichen Aufwendungen erfasst. Das EBITDA für das GJ 2024/25 beträgt damit
{de(EBITDA_K)} TEUR (Betriebsergebnis 3.080 TEUR zzgl. Abschreibungen 1.540 TEUR). Die
Umsatzerlöse von {de(FY_REVENUE_K)} TEUR bleiben unverändert.

Mit freundlichen Grüßen
Sabine Kraus
Geschäftsführerin Finanzen, {COMPANY}
"""
    path.write_bytes(text.encode("utf-8"))
    return path


# ---------------------------------------------------------------- Gesellschafterliste


def _gesellschafterliste(path: Path) -> Path:
    rows = [["Gesellschafter", "Geschäftsanteile Nr.", "Nennbetrag", "Beteiligung"]]
    for holder, numbers, nominal in HOLDERS:
        rows.append([holder, numbers, f"{de(nominal)} €",
                     f"{de(nominal / STAMMKAPITAL * 100, 1)} %"])
    rows.append(["Stammkapital gesamt", "", f"{de(STAMMKAPITAL)} €", "100,0 %"])
    pages = [[
        para("Liste der Gesellschafter", "Title"),
        para(f"{COMPANY} mit Sitz in Lahr, Amtsgericht Freiburg HRB 712345", "Heading2"),
        para("Stand: 12. Mai 2025 · Nennbetrag je Geschäftsanteil 1,00 €"),
        table(rows, [70, 36, 30, 28], bold_rows=[len(rows) - 1]),
        spacer(),
        para("Lahr, den 12. Mai 2025 — Dr. Klaus Brenner, Geschäftsführer"),
    ]]
    write_pdf(path, pages, _meta("Gesellschafterliste", date(2025, 5, 12)))
    return path


# ---------------------------------------------------------------- Konsortialkreditvertrag


def _kreditvertrag(path: Path) -> Path:
    document = Document()
    document.add_heading("Konsortialkreditvertrag", level=0)
    document.add_paragraph(
        f"vom 15. Juli 2022 zwischen der {COMPANY} als Kreditnehmerin, der {LENDER} als "
        "Konsortialführerin und Agent sowie der Ortenauer Kreditkasse AG als weiterer "
        "Kreditgeberin.")
    sections = {
        "§ 2 Kreditbetrag": [
            "Die Kreditgeber stellen der Kreditnehmerin folgende Kreditlinien zur Verfügung: "
            "(a) einen Terminkredit (Tranche A) in Höhe von EUR 12.000.000 zur Refinanzierung "
            "bestehender Finanzverbindlichkeiten; (b) eine revolvierende Betriebsmittellinie in "
            "Höhe von EUR 5.000.000 zur Finanzierung des laufenden Geschäftsbetriebs.",
        ],
        "§ 5 Laufzeit und Tilgung": [
            "Tranche A ist in jährlichen Raten von EUR 500.000, erstmals zum 31. März 2024, zu "
            "tilgen. Die Endfälligkeit beider Kreditlinien ist der 15. Juli 2027.",
        ],
        "§ 6 Zinsen": [
            "Die Kredite sind mit EURIBOR zuzüglich einer Marge von 2,25 % p.a. (Tranche A) "
            "bzw. 2,00 % p.a. (Betriebsmittellinie) zu verzinsen; die Marge richtet sich nach "
            "dem Nettoverschuldungsgrad.",
        ],
        "§ 14 Finanzkennzahlen": [
            "(1) Nettoverschuldungsgrad: Das Verhältnis der Nettofinanzverbindlichkeiten zum "
            "EBITDA der jeweils letzten zwölf Monate darf zu Stichtagen bis einschließlich 31. "
            "Dezember 2024 3,00 : 1,00 und zu jedem späteren Stichtag 2,75 : 1,00 nicht "
            "überschreiten.",
            "(2) Eigenkapitalquote: Die Eigenkapitalquote darf 25 % nicht unterschreiten.",
            "(3) Die Finanzkennzahlen werden quartalsweise zum Ende jedes Kalenderquartals "
            "geprüft; die Kreditnehmerin legt innerhalb von 90 Tagen eine Covenant-Bescheinigung "
            "(Compliance Certificate) vor.",
        ],
        "§ 18 Kündigung": [
            "Die Kreditgeber sind zur außerordentlichen Kündigung berechtigt, wenn (a) die "
            "Kreditnehmerin fällige Zahlungen nicht leistet, (b) eine Finanzkennzahl nach § 14 "
            "verletzt wird oder (c) ein Kontrollwechsel eintritt, d. h. die Familie Brenner "
            "unmittelbar oder mittelbar weniger als 50 % der Geschäftsanteile hält.",
        ],
    }
    for heading, paragraphs in sections.items():
        document.add_heading(heading, level=1)
        for text in paragraphs:
            document.add_paragraph(text)
    save_office_file(document, path, issued=date(2022, 7, 15), author="Kanzlei Roth Wendler",
                     title="Konsortialkreditvertrag")
    return path


# ---------------------------------------------------------------- compliance certificate (English)


def _compliance(path: Path) -> Path:
    pages = [[
        para(COMPANY, "Title"),
        para("Compliance Certificate", "Heading1"),
        para(f"To: {LENDER} as Agent · Facilities Agreement (Konsortialkreditvertrag) dated "
             "15 July 2022 · Test Date: 31 March 2025 · dated 27 June 2025"),
        para("We confirm that as at the Test Date the financial covenants in clause 14 were "
             "as follows:"),
        table([
            ["Covenant (clause 14)", "Requirement", "Actual"],
            ["Net Leverage (Nettoverschuldungsgrad)", "not more than 2.75:1.00", "2.61:1.00"],
            ["Equity Ratio (Eigenkapitalquote)", "not less than 25%", "31.6%"],
        ], [70, 50, 30]),
        spacer(),
        para(f"Net Financial Indebtedness of EUR {NET_DEBT_K:,}k (bank debt EUR "
             f"{BANK_DEBT_K:,}k less cash EUR {CASH_K:,}k); EBITDA for the twelve months ended "
             f"31 March 2025 of EUR {EBITDA_K:,}k, as per the audited financial statements. No "
             "Default is continuing."),
        para("Sabine Kraus, Managing Director (CFO)"),
    ]]
    write_pdf(path, pages, _meta("Compliance Certificate 31 March 2025", date(2025, 6, 27)))
    return path


# ---------------------------------------------------------------- Top-10 Kunden (CSV)


def _kunden(path: Path) -> Path:
    """A German Excel export: semicolons between fields, decimal commas, thousands dots."""
    rows = [["Kunde", "Land", "Umsatz GJ 2024/25 (TEUR)", "Umsatzanteil"]]
    for (name, country, share), revenue in zip(CUSTOMERS, CUSTOMER_REVENUE_K, strict=True):
        rows.append([name, country, de(revenue, 1), f"{de(share, 1)} %"])
    other_share = round(100 - sum(share for _, _, share in CUSTOMERS), 1)
    rows.append(["Übrige Kunden", "", de(OTHER_CUSTOMERS_K, 1), f"{de(other_share, 1)} %"])
    rows.append(["Gesamt", "", de(FY_REVENUE_K, 1), "100,0 %"])
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", lineterminator="\n").writerows(rows)
    path.write_bytes(buffer.getvalue().encode("utf-8"))
    return path


# ---------------------------------------------------------------- Anforderungsliste


def _anforderungsliste(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Anforderungen"
    ws["A1"] = "Projekt Kormoran — Anforderungsliste Due Diligence"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Käufer: Lindenberg Capital Partners · Stand 1. Juli 2025"
    _header(ws, 4, ["Nr.", "Bereich", "Anforderung", "Priorität", "Status"])
    for row, item in enumerate(IRL_ITEMS, start=5):
        for col, value in enumerate((item.ref, item.category, item.request, item.priority,
                                     item.status), start=1):
            ws.cell(row=row, column=col, value=value)
    ws.column_dimensions["C"].width = 70
    save_workbook(workbook, path, issued=date(2025, 7, 1), author="Lindenberg Capital Partners")
    return path
