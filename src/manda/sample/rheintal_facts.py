"""Ground truth of the Rheintal data room: a German Mittelstand GmbH written in German house style.

Rheintal Antriebstechnik GmbH ("Projekt Kormoran") is the third generalisation yardstick, after
Pennine and Tidewater. Its Geschäftsjahr ends 31 March (GJ 2024/25 = April 2024 to March 2025);
figures are in TEUR ("in TEUR", "Tsd. €") in German number format (1.234,5; negatives with "-");
the Jahresabschluss is HGB (Bilanz, GuV by Gesamtkostenverfahren, Anhang, Bestätigungsvermerk);
the BWA has months across the columns (Apr 24 … Mär 25, then "kumuliert"); the Gesellschafterliste
gives Geschäftsanteile in nominal € and %; the Konsortialkreditvertrag has Tranche A, a
Betriebsmittellinie and a Nettoverschuldungsgrad tested quarterly; the customer list is a
semicolon CSV with decimal commas; the compliance certificate is in English. The room is
evaluation-only: `manda.sample.generate.EVAL_ONLY_DEALS`. Conventions are those of
`manda.sample.facts`.
"""

from __future__ import annotations

from datetime import date

from manda.models import DocumentRole
from manda.sample.facts import Fact, IRLItem, Nature, SampleFile, Trap

RHEINTAL = "rheintal"
COMPANY = "Rheintal Antriebstechnik GmbH"

# ---------------------------------------------------------------- folders and files

F_FINANZEN = "1 Finanzen"
F_RECHT = "2 Recht"
F_KOMMERZIELL = "3 Kommerziell"
F_DD = "4 Due Diligence"

JAHRESABSCHLUSS = "Rheintal JA 2024-25 testiert.pdf"
BWA = "BWA Maerz 2025 kumuliert.xlsx"
KORREKTUR = "AW Korrektur EBITDA GJ 2024-25.eml"
GESELLSCHAFTERLISTE = "Gesellschafterliste Stand 12.05.2025.pdf"
KREDITVERTRAG = "Konsortialkreditvertrag Breisgauer Handelsbank.docx"
COMPLIANCE = "Compliance Certificate Q4 2024-25.pdf"
KUNDEN = "Top-10 Kunden GJ 2024-25.csv"
ANFORDERUNGSLISTE = "Anforderungsliste Projekt Kormoran.xlsx"


def _file(name: str, folder: str, issued: date, summary: str) -> SampleFile:
    return SampleFile(RHEINTAL, name, name.rsplit(".", 1)[1], issued, summary, folder=folder)


FILES: tuple[SampleFile, ...] = (
    _file(JAHRESABSCHLUSS, F_FINANZEN, date(2025, 6, 18),
          "HGB Jahresabschluss 31.03.2025: Bestätigungsvermerk, GuV, Bilanz, Anhang (TEUR)"),
    _file(BWA, F_FINANZEN, date(2025, 4, 22),
          "BWA GJ 2024/25: months across the columns (Apr 24 … Mär 25, kumuliert), Finanzstatus"),
    _file(KORREKTUR, F_FINANZEN, date(2025, 6, 20),
          "E-mail from the CFO correcting the BWA's preliminary EBITDA"),
    _file(GESELLSCHAFTERLISTE, F_RECHT, date(2025, 5, 12),
          "Gesellschafterliste: Geschäftsanteile in nominal € and %"),
    _file(KREDITVERTRAG, F_RECHT, date(2022, 7, 15),
          "Konsortialkreditvertrag: Tranche A, Betriebsmittellinie, Nettoverschuldungsgrad"),
    _file(COMPLIANCE, F_RECHT, date(2025, 6, 27),
          "Compliance certificate (English) for the test date 31 March 2025"),
    _file(KUNDEN, F_KOMMERZIELL, date(2025, 5, 5),
          "Top-10 Kunden with Umsatzanteil, semicolon CSV with decimal commas"),
    _file(ANFORDERUNGSLISTE, F_DD, date(2025, 7, 1), "Buyer's request list, in German"),
)

EXPECTED_ROLES: dict[str, DocumentRole] = {
    JAHRESABSCHLUSS: DocumentRole.AUDITED_STATEMENTS,
    BWA: DocumentRole.MANAGEMENT_ACCOUNTS,
    KORREKTUR: DocumentRole.CORRESPONDENCE,
    GESELLSCHAFTERLISTE: DocumentRole.CAP_TABLE,
    KREDITVERTRAG: DocumentRole.CONTRACT,
    COMPLIANCE: DocumentRole.CONTRACT,
    ANFORDERUNGSLISTE: DocumentRole.IRL,
}


def _t(subject: str, period: str | None, value: float | str | None, unit: str | None,
       file: str, location: str, stated: str, *, nature: Nature = "actual",
       note: str = "") -> Fact:
    return Fact(RHEINTAL, subject, period, value, unit, file, location, stated, nature, note)


def de(amount: float, decimals: int = 0) -> str:
    """German number format: 38.450 / 8.074,5 / -17.300."""
    text = f"{amount:,.{decimals}f}"
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


# ---------------------------------------------------------------- BWA (TEUR, preliminary)

MONTHS = ("Apr 24", "Mai 24", "Jun 24", "Jul 24", "Aug 24", "Sep 24",
          "Okt 24", "Nov 24", "Dez 24", "Jan 25", "Feb 25", "Mär 25")
MONTHLY_REVENUE = (3000, 3050, 3150, 3100, 2900, 3250, 3300, 3350, 3400, 3150, 3200, 3600)
MONTHLY_PERSONNEL = (960, 965, 970, 975, 970, 975, 980, 985, 990, 970, 975, 965)
MONTHLY_EBITDA = (360, 370, 390, 380, 330, 410, 420, 430, 440, 400, 410, 530)
_MATERIAL = [round(r * 0.45) for r in MONTHLY_REVENUE]
MONTHLY_MATERIAL = (*_MATERIAL[:-1], 17_300 - sum(_MATERIAL[:-1]))
# Sonstige betriebliche Aufwendungen are what is left between Rohertrag - Personal and EBITDA.
MONTHLY_OTHER = tuple(r - m - p - e for r, m, p, e in zip(
    MONTHLY_REVENUE, MONTHLY_MATERIAL, MONTHLY_PERSONNEL, MONTHLY_EBITDA, strict=True))
FY_REVENUE_K = sum(MONTHLY_REVENUE)  # 38.450
BWA_EBITDA_K = sum(MONTHLY_EBITDA)  # 4.870, before the year-end provision
_COLS = "BCDEFGHIJKLM"

MONTH_REVENUE = tuple(
    _t("revenue", month, amount * 1000, "EUR", BWA, f"BWA!{col}6", f"{amount:,}",
       note="months across the columns, TEUR")
    for col, month, amount in zip(_COLS, MONTHS, MONTHLY_REVENUE, strict=True)
)
DECEMBER_REVENUE = MONTH_REVENUE[8]  # Dez 24: 3.400
BWA_REVENUE_TOTAL = _t("revenue", "FY2024/25", FY_REVENUE_K * 1000, "EUR", BWA, "BWA!N6",
                       "38,450", note="'kumuliert' column, a formula")
BWA_EBITDA_TOTAL = _t("ebitda", "FY2024/25", BWA_EBITDA_K * 1000, "EUR", BWA, "BWA!N11",
                      "4,870", nature="actual",
                      note="preliminary; corrected to 4.620 TEUR in the CFO's e-mail")
BWA_WC_DRAWN = _t("working_capital_line_drawn", "as of 2025-03-31", 2_600_000, "EUR", BWA,
                  "Finanzstatus!B6", "2,600",
                  note="contradicts the Jahresabschluss Anhang's TEUR 3.200")

# ---------------------------------------------------------------- Jahresabschluss (HGB, TEUR)

AUDITOR_NAME = "Hegele & Brandt GmbH Wirtschaftsprüfungsgesellschaft"
GUV = (  # (line, GJ 2024/25, GJ 2023/24) in TEUR; costs negative
    ("1. Umsatzerlöse", 38_450, 35_120),
    ("2. Materialaufwand", -17_300, -15_980),
    ("3. Personalaufwand", -11_680, -10_940),
    ("4. Abschreibungen", -1_540, -1_480),
    ("5. Sonstige betriebliche Aufwendungen", -4_850, -4_410),
    ("6. Betriebsergebnis", 3_080, 2_310),
    ("7. Zinsen und ähnliche Aufwendungen", -610, -680),
    ("8. Ergebnis vor Steuern", 2_470, 1_630),
    ("9. Steuern vom Einkommen und vom Ertrag", -760, -500),
    ("10. Jahresüberschuss", 1_710, 1_130),
)
BANK_DEBT_K, TRANCHE_A_K, WC_DRAWN_K, CASH_K = 14_200, 11_000, 3_200, 2_150
NET_DEBT_K = BANK_DEBT_K - CASH_K  # 12.050
EBITDA_K = 4_620  # Betriebsergebnis + Abschreibungen, as corrected

JA_REVENUE = _t("revenue", "FY2024/25", 38_450_000, "EUR", JAHRESABSCHLUSS, "p.2", "38.450",
                note="'GJ 2024/25' column = 1 April 2024 to 31 March 2025")
JA_REVENUE_PRIOR = _t("revenue", "FY2023/24", 35_120_000, "EUR", JAHRESABSCHLUSS, "p.2",
                      "35.120", note="prior-year column, not a conflict")
JA_NET_INCOME = _t("net_income", "FY2024/25", 1_710_000, "EUR", JAHRESABSCHLUSS, "p.2",
                   "1.710", note="Jahresüberschuss")
JA_NET_INCOME_PRIOR = _t("net_income", "FY2023/24", 1_130_000, "EUR", JAHRESABSCHLUSS, "p.2",
                         "1.130")
JA_OPERATING_INCOME = _t("operating_income", "FY2024/25", 3_080_000, "EUR", JAHRESABSCHLUSS,
                         "p.2", "3.080")
JA_CASH = _t("cash", "as of 2025-03-31", 2_150_000, "EUR", JAHRESABSCHLUSS, "p.3", "2.150")
JA_BANK_DEBT = _t("bank_debt", "as of 2025-03-31", 14_200_000, "EUR", JAHRESABSCHLUSS, "p.3",
                  "14.200")
JA_WC_DRAWN = _t("working_capital_line_drawn", "as of 2025-03-31", 3_200_000, "EUR",
                 JAHRESABSCHLUSS, "p.3", "TEUR 3.200",
                 note="the BWA's Finanzstatus says 2.600: a contradiction")
JA_TRANCHE_A = _t("term_loan", "as of 2025-03-31", 11_000_000, "EUR", JAHRESABSCHLUSS, "p.3",
                  "TEUR 11.000")
AUDITOR = _t("auditor", "FY2024/25", AUDITOR_NAME, None, JAHRESABSCHLUSS, "p.1",
             "Hegele & Brandt GmbH")
OPINION = _t("audit_opinion", "FY2024/25", "uneingeschränkt", None, JAHRESABSCHLUSS, "p.1",
             "uneingeschränkten Bestätigungsvermerk", note="an unqualified (clean) opinion")
MANAGING_DIRECTORS = (
    _t("person:dr. klaus brenner", None, "Geschäftsführer (Vorsitzender)", None,
       JAHRESABSCHLUSS, "p.3", "Dr. Klaus Brenner"),
    _t("person:sabine kraus", None, "Geschäftsführerin Finanzen", None, JAHRESABSCHLUSS, "p.3",
       "Sabine Kraus"),
)

# ---------------------------------------------------------------- correction e-mail

CORRECTED_EBITDA = _t("correction", "FY2024/25", EBITDA_K * 1000, "EUR", KORREKTUR,
                      "e-mail body", "4.620 TEUR",
                      note="a 250 TEUR Drohverlustrückstellung booked at year end")

# ---------------------------------------------------------------- Gesellschafterliste

STAMMKAPITAL = 50_000
HOLDERS = (  # (holder, Geschäftsanteile Nr., nominal €)
    ("Brenner Familien-Holding GmbH, Freiburg im Breisgau", "1 – 30.000", 30_000),
    ("Dr. Klaus Brenner, Freiburg im Breisgau", "30.001 – 40.000", 10_000),
    ("Kormoran Mitarbeiterbeteiligung GbR, Lahr", "40.001 – 47.500", 7_500),
    ("Sabine Kraus, Emmendingen", "47.501 – 50.000", 2_500),
)
OWNERSHIP = tuple(
    _t(f"ownership:{holder.split(',')[0].casefold()}", "as of 2025-05-12",
       nominal / STAMMKAPITAL * 100, "%", GESELLSCHAFTERLISTE, "p.1",
       f"{de(nominal / STAMMKAPITAL * 100, 1)} %")
    for holder, _, nominal in HOLDERS
)

# ---------------------------------------------------------------- Konsortialkreditvertrag

LENDER = "Breisgauer Handelsbank AG"
TRANCHE_A_LIMIT = _t("facility_limit:tranche a", None, 12_000_000, "EUR", KREDITVERTRAG,
                     "§ 2 Kreditbetrag", "EUR 12.000.000")
WC_LIMIT = _t("facility_limit:betriebsmittellinie", None, 5_000_000, "EUR", KREDITVERTRAG,
              "§ 2 Kreditbetrag", "EUR 5.000.000")
LEVERAGE_COVENANT = _t("covenant:nettoverschuldungsgrad", "from 2025-03-31", 2.75, "x",
                       KREDITVERTRAG, "§ 14 Finanzkennzahlen", "2,75 : 1,00",
                       note="3,00 : 1,00 up to 31 December 2024")
CHANGE_OF_CONTROL = _t("change_of_control:breisgauer handelsbank ag", None,
                       "Kündigungsrecht", None, KREDITVERTRAG, "§ 18 Kündigung",
                       "Kontrollwechsel")
LEVERAGE_ACTUAL = _t("leverage", "as of 2025-03-31", 2.61, "x", COMPLIANCE, "p.1", "2.61:1.00",
                     note="against a maximum of 2.75:1.00: headroom of 0.14x")
COMPLIANCE_NET_DEBT = _t("net_debt", "as of 2025-03-31", 12_050_000, "EUR", COMPLIANCE, "p.1",
                         "EUR 12,050k")

# ---------------------------------------------------------------- Top-10 Kunden (CSV)

CUSTOMERS = (  # (name, country, share %)
    ("Hoffmann Landtechnik AG", "DE", 21.0), ("Vetter Fördersysteme GmbH", "DE", 12.5),
    ("Nordkap Marine AS", "NO", 7.8), ("Alpenstahl Bau GmbH", "AT", 6.1),
    ("Schwarzwald Mühlenwerke KG", "DE", 5.4), ("Lacroix Convoyage SAS", "FR", 4.2),
    ("Baumer Verpackung GmbH", "DE", 3.6), ("Ostalb Kran GmbH", "DE", 3.1),
    ("Tessiner Seilbahnen AG", "CH", 2.7), ("Moselwerk Pumpen GmbH", "DE", 2.2),
)
CUSTOMER_REVENUE_K = tuple(round(FY_REVENUE_K * share / 100, 1) for _, _, share in CUSTOMERS)
OTHER_CUSTOMERS_K = round(FY_REVENUE_K - sum(CUSTOMER_REVENUE_K), 1)
CUSTOMER_SHARES = tuple(
    _t(f"customer_share:{name.casefold()}", "FY2024/25", share, "%", KUNDEN, f"row {row}",
       f"{de(share, 1)} %")
    for row, (name, _, share) in enumerate(CUSTOMERS, start=2)
)
TOP_CUSTOMER_REVENUE = _t("customer_revenue:hoffmann landtechnik ag", "FY2024/25", 8_074_500,
                          "EUR", KUNDEN, "row 2", "8.074,5")

FACTS: tuple[Fact, ...] = (
    *MONTH_REVENUE, BWA_REVENUE_TOTAL, BWA_EBITDA_TOTAL, BWA_WC_DRAWN,
    JA_REVENUE, JA_REVENUE_PRIOR, JA_NET_INCOME, JA_NET_INCOME_PRIOR, JA_OPERATING_INCOME,
    JA_CASH, JA_BANK_DEBT, JA_WC_DRAWN, JA_TRANCHE_A, AUDITOR, OPINION, *MANAGING_DIRECTORS,
    CORRECTED_EBITDA, *OWNERSHIP,
    TRANCHE_A_LIMIT, WC_LIMIT, LEVERAGE_COVENANT, CHANGE_OF_CONTROL, LEVERAGE_ACTUAL,
    COMPLIANCE_NET_DEBT, *CUSTOMER_SHARES, TOP_CUSTOMER_REVENUE,
)

# ---------------------------------------------------------------- Anforderungsliste

IRL_ITEMS: tuple[IRLItem, ...] = (
    IRLItem("F-01", "Finanzen", "Jahresabschlüsse der letzten zwei Geschäftsjahre mit "
            "Bestätigungsvermerk", "hoch", "erledigt", (JAHRESABSCHLUSS,)),
    IRLItem("F-02", "Finanzen", "Monatliche BWA des laufenden Geschäftsjahres", "hoch",
            "erledigt", (BWA,)),
    IRLItem("F-03", "Finanzen", "Steuererklärungen und Steuerbescheide der letzten drei Jahre",
            "hoch", "offen"),
    IRLItem("F-04", "Finanzen", "Versicherungsmathematisches Gutachten zu den "
            "Pensionsrückstellungen", "mittel", "offen"),
    IRLItem("R-01", "Recht", "Aktuelle Gesellschafterliste und Handelsregisterauszug", "hoch",
            "erledigt", (GESELLSCHAFTERLISTE,)),
    IRLItem("R-02", "Recht", "Finanzierungsverträge und Covenant-Bescheinigungen", "hoch",
            "erledigt", (KREDITVERTRAG, COMPLIANCE)),
    IRLItem("R-03", "Recht", "Miet- und Pachtverträge aller Standorte", "mittel", "offen"),
    IRLItem("K-01", "Kommerziell", "Umsatz nach Kunden (Top-10), letztes Geschäftsjahr", "hoch",
            "erledigt", (KUNDEN,)),
    IRLItem("P-01", "Personal", "Mitarbeiterliste mit Vergütung und Eintrittsdatum", "mittel",
            "offen"),
)
UNCOVERED_IRL = tuple(item for item in IRL_ITEMS if not item.covered)

# ---------------------------------------------------------------- traps

TRAPS: tuple[Trap, ...] = (
    Trap(RHEINTAL, "supersedes",
         "The BWA (April 2025) shows a preliminary EBITDA of 4.870 TEUR for GJ 2024/25; the "
         "CFO's e-mail of 20 June 2025 corrects it to 4.620 TEUR (a year-end provision). The "
         "file names say nothing; the HGB GuV states no EBITDA line.",
         "Answer EUR 4.62 million for FY 2024/25 and say the BWA's figure was corrected.",
         (BWA, KORREKTUR), (BWA_EBITDA_TOTAL, CORRECTED_EBITDA)),
    Trap(RHEINTAL, "contradicts",
         "The Betriebsmittellinie drawn at 31 March 2025 is TEUR 3.200 in the Jahresabschluss "
         "Anhang and 2.600 in the BWA's Finanzstatus: same date, no correction.",
         "Show both figures with their sources and say they disagree.",
         (JAHRESABSCHLUSS, BWA), (JA_WC_DRAWN, BWA_WC_DRAWN)),
    Trap(RHEINTAL, "red_flag",
         "Net leverage (Nettoverschuldungsgrad) 2.61:1.00 at 31 March 2025 against a maximum "
         "that stepped down to 2,75 : 1,00 from that date: 0.14x of headroom.",
         "Flag the thin covenant headroom with the ratio and the maximum.",
         (KREDITVERTRAG, COMPLIANCE), (LEVERAGE_COVENANT, LEVERAGE_ACTUAL)),
    Trap(RHEINTAL, "red_flag",
         "Hoffmann Landtechnik AG is 21,0 % of GJ 2024/25 revenue.",
         "Flag the concentration with the share.", (KUNDEN,), CUSTOMER_SHARES),
    Trap(RHEINTAL, "uncovered_irl",
         "Requests with no document in the room: " + ", ".join(
             item.ref for item in UNCOVERED_IRL) + ".",
         "List them as gaps by category and offer to add them to the Q&A list.",
         (ANFORDERUNGSLISTE,)),
)

DISTINCTIVE_TERMS: tuple[str, ...] = (
    "Rheintal", "Kormoran", "Breisgauer Handelsbank", "Hoffmann Landtechnik", "Hegele & Brandt",
    "Klaus Brenner",
)
