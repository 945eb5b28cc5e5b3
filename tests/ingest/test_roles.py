"""Document roles are read from content: every document here has a name that says nothing."""

from __future__ import annotations

import pytest

from manda.ingest.parsers.base import table_text
from manda.ingest.roles import classify_role
from manda.models import DocumentRole, Location, ParsedDocument, Section

R = DocumentRole


def _prose(*paragraphs: str, file_type: str = "pdf", title: str | None = None) -> ParsedDocument:
    sections = [Section(text=p, location=Location.for_page(i + 1))
                for i, p in enumerate(paragraphs)]
    return ParsedDocument(filename="x", file_type=file_type, sections=sections,
                          units=len(sections), title=title)


def _table(rows: list[list[str]], notes: list[str] | None = None,
           file_type: str = "xlsx") -> ParsedDocument:
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    section = Section(text=table_text(rows, notes), location=Location.for_cell("Sheet1", "A1"),
                      table=rows)
    return ParsedDocument(filename="x", file_type=file_type, sections=[section], units=1)


US_AUDITED = _prose(
    "REPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM\nTo the Board of Directors and "
    "Stockholders of Acme Widgets, Inc.\nOpinion on the Financial Statements\nWe have audited the "
    "accompanying consolidated balance sheets of Acme Widgets, Inc. as of June 30, 2024 and 2023. "
    "In our opinion, the financial statements present fairly, in all material respects, the "
    "financial position of the Company.",
    "CONSOLIDATED STATEMENTS OF OPERATIONS\n(in thousands of U.S. dollars)\n"
    "Year ended June 30 | 2024 | 2023\nNet revenues | 46,700 | 41,200\nCost of revenues | "
    "(18,100) | (16,900)\nNet income | 5,300 | 4,100",
)
DE_AUDITED = _prose(
    "Jahresabschluss zum 31. Dezember 2023 der Müller Maschinenbau GmbH\n"
    "Bilanz, Gewinn- und Verlustrechnung und Anhang",
    "Gewinn- und Verlustrechnung (in TEUR)\nTEUR | 2023 | 2022\nUmsatzerlöse | 38.410 | 35.220",
    "Bestätigungsvermerk des unabhängigen Abschlussprüfers\nWir haben den Jahresabschluss der "
    "Müller Maschinenbau GmbH geprüft.",
)
UK_MANAGEMENT_ACCOUNTS = _table(
    [["£000", "Apr-24", "May-24", "Jun-24", "YTD"],
     ["Turnover", "1,210", "1,180", "1,260", "3,650"],
     ["Gross profit", "480", "470", "505", "1,455"],
     ["EBITDA", "120", "110", "131", "361"]],
    notes=["Harbour Foods Ltd — monthly management accounts", "Unaudited"],
)
BUDGET = _table(
    [["USD 000s", "FY25 Budget", "FY26 Plan", "FY27 Plan"],
     ["Revenue", "52,000", "58,500", "64,000"],
     ["Adjusted EBITDA", "9,100", "10,800", "12,400"]],
    notes=["Five-year plan — key assumptions below"],
)
QOE = _prose(
    "Project Kestrel — Quality of Earnings\nPrepared for the purchaser. Financial due diligence.",
    "EBITDA bridge\nReported EBITDA | 8,200\nOne-off restructuring costs | 600\n"
    "Owner's salary normalisation | 250\nAdjusted EBITDA | 9,050",
)
CAP_TABLE_DE = _table(
    [["Gesellschafter", "Geschäftsanteile", "Nennbetrag (EUR)", "Beteiligung"],
     ["Dr. Hans Müller", "12.500", "12.500", "50,0 %"],
     ["Beteiligungs GmbH", "7.500", "7.500", "30,0 %"],
     ["Familie Krause", "5.000", "5.000", "20,0 %"]],
    file_type="csv",
)
CENSUS = _table(
    [["Employee ID", "Name", "Job title", "Department", "Start date", "Base salary (USD)", "FTE"],
     ["1001", "Maria Lopez", "Controller", "Finance", "2019-03-01", "98,000", "1.0"],
     ["1002", "James Carter", "Sales Manager", "Sales", "2020-07-15", "87,500", "1.0"],
     ["1003", "Priya Shah", "Engineer", "R&D", "2021-01-04", "105,000", "1.0"],
     ["1004", "Tom Reed", "Analyst", "Finance", "2022-09-12", "64,000", "0.8"],
     ["1005", "Ana Silva", "Engineer", "R&D", "2023-02-01", "99,000", "1.0"]],
    file_type="csv",
)
EMAIL = _prose(
    "From: James Whitfield <j.whitfield@harbourfoods.co.uk>\nSent: 14 May 2024 09:12\n"
    "To: deal-team@buyer.com\nSubject: RE: Pricing for the Tesco renewal\n\nDear all,\n"
    "Following our call, the renewal price is £2.35 per case from July.\nKind regards,\nJames",
    file_type="txt",
)
IRL_REF_LAYOUT = _table(
    [["Ref", "Request", "Status"],
     ["1.1", "Audited accounts for the last three years", "Open"],
     ["1.2", "Monthly management accounts FY24", "Provided"],
     ["2.1", "Corporation tax returns", "Open"],
     ["3.1", "Employee census with salaries", "Open"]],
)
IRL_CATEGORY_LAYOUT = _table(
    [["Category", "Item", "Priority"],
     ["Financial", "Cash flow statement", "High"],
     ["Financial", "Budget vs actual for FY24", "Medium"],
     ["Legal", "Copies of all customer contracts", "High"],
     ["HR", "Organisation chart", "Low"]],
    file_type="csv",
)
MINUTES = _prose(
    "Minutes of a meeting of the board of directors held on 3 March 2024\nPresent: A. Jones "
    "(Chair), B. Patel, C. Wu\nApologies: D. Smith",
    "1. Approval of the budget\nIT WAS RESOLVED that the FY25 budget be approved. The chair noted "
    "the board was quorate. There being no further business, the meeting closed at 11:40.",
    file_type="docx",
)
LEASES = _table(
    [["Property", "Landlord", "Lease start", "Lease expiry", "Break date", "Annual rent (£)"],
     ["Unit 4, Trafford Park", "Peel Estates", "01/04/2019", "31/03/2029", "31/03/2026",
      "145,000"],
     ["12 King Street, Leeds", "Bruntwood", "01/01/2021", "31/12/2030", "", "98,500"]],
)
US_CONTRACT = _prose(
    "MASTER SERVICES AGREEMENT\nThis Agreement is entered into as of January 1, 2023 by and "
    "between Acme Widgets, Inc. (\"Supplier\") and Globex Corporation (\"Customer\").\n"
    "WHEREAS, Customer wishes to purchase services; NOW, THEREFORE, the parties agree as follows.",
    "12. Governing law. This Agreement shall be governed by the laws of the State of Delaware.\n"
    "13. Termination. Either party may terminate this Agreement on 90 days' notice.",
    file_type="docx",
)
LEGAL_MEMO = _prose(
    "Memorandum — Legal due diligence: litigation\nPrivileged and confidential.",
    "Smith Logistics Ltd issued a claim in the High Court against the Company seeking damages of "
    "£1.4 million. Counsel considers the claim defensible; proceedings are at disclosure stage.",
    file_type="docx",
)
BIOS = _prose(
    "Leadership team",
    "Sarah Connor — Chief Executive Officer. Sarah joined in 2018; previously she was COO of "
    "Cyberdyne Systems. She holds an MBA from INSEAD.",
    "Miles Dyson — Chief Financial Officer. Prior to joining, Miles spent 12 years at KPMG.",
    file_type="docx",
)
CIM = _prose(
    "Project Falcon — Confidential Information Memorandum",
    "Investment highlights\nMarket leader in cold-chain logistics; 400 customers; long-term "
    "contracts; growth strategy built on the market opportunity in the Nordics.",
    file_type="pdf",
)

# Documents that look like two things at once.
BOARD_PACK = _prose(
    "Board pack — March 2024\nManagement accounts for the month ended 31 March 2024",
    "Income statement\n£000 | Mar-24 | Budget | Variance\nRevenue | 1,210 | 1,150 | 60\n"
    "EBITDA | 210 | 190 | 20", "The board is asked to note the results.")
FDD_CITING_AUDIT = _prose(
    "Project Atlas\nFinancial due diligence report — draft for discussion",
    "Quality of earnings\nReported EBITDA per the audited accounts | 12.1\n"
    "Normalisation adjustments | 1.4\nAdjusted EBITDA | 13.5")
CIM_WITH_FINANCIALS = _prose(
    "Project Falcon\nConfidential Information Memorandum\nStrictly private and confidential",
    "Investment highlights\n• Leading UK provider\n• 20% revenue CAGR",
    "Financial overview\n£m | FY22 | FY23 | FY24\nRevenue | 30.1 | 35.2 | 41.0")
REPLY_WITHOUT_HEADERS = _prose(
    "Hi Tom,\nPlease find the updated pricing below. The new price is £2.35 per case.\nThanks,\n"
    "Sarah\n\nOn 12 May 2024, Tom Baker wrote:\n> Could you confirm pricing?", file_type="txt")
SHAREHOLDER_RESOLUTIONS_DE = _prose(
    "Protokoll der Gesellschafterversammlung der Müller GmbH vom 12. März 2024\n"
    "Anwesend: Dr. Hans Müller, Petra Krause",
    "TOP 1: Feststellung des Jahresabschlusses 2023\nDie Gesellschafterversammlung beschließt "
    "einstimmig, den Jahresabschluss festzustellen.")
LEASES_DE = _table([["Standort", "Vermieter", "Fläche (m²)", "Miete p.a. (EUR)", "Mietende"],
                    ["München", "Immo AG", "1.200", "240.000", "31.12.2028"]],
                   notes=["Übersicht Mietverträge"])

# A French room (issue 24: its accounts, management accounts, cap table and request list were
# all classed "other").
FR_AUDITED = _prose(
    "Société Exemple SAS\nComptes annuels de l'exercice clos le 30 septembre 2024",
    "Bilan actif (en K€)\nK€ | 30/09/2024 | 30/09/2023\nDisponibilités | 1 240,5 | 980,0",
    "Rapport du commissaire aux comptes sur les comptes annuels\nNous certifions que les "
    "comptes annuels sont, au regard des règles et principes comptables français, réguliers et "
    "sincères et donnent une image fidèle du résultat des opérations de l'exercice écoulé.")
FR_REPORTING = _table(
    [["K€", "Réel oct.", "Budget oct.", "Écart", "Cumul réel"],
     ["Chiffre d'affaires", "1 210,4", "1 150,0", "60,4", "1 210,4"],
     ["Marge brute", "480,1", "470,0", "10,1", "480,1"],
     ["EBE", "120,3", "110,0", "10,3", "120,3"]],
    notes=["Reporting mensuel — octobre 2024", "Non audité"])
FR_CAP_TABLE = _table(
    [["Actionnaire", "Catégorie", "Nombre d'actions", "% du capital", "% des droits de vote"],
     ["Holding Fondateurs SAS", "Actions ordinaires", "600 000", "60,0 %", "60,0 %"],
     ["Fonds Capital Croissance", "Actions de préférence", "300 000", "30,0 %", "30,0 %"],
     ["BSPCE (dilution)", "BSPCE", "100 000", "10,0 %", "10,0 %"]],
    notes=["Table de capitalisation au 30 juin 2024"], file_type="csv")
FR_REQUEST_LIST = _table(
    [["Réf", "Catégorie", "Demande", "Priorité", "Statut"],
     ["F-01", "Finance", "Comptes annuels certifiés des deux derniers exercices", "Haute",
      "Reçu"],
     ["F-02", "Finance", "Reporting mensuel de l'exercice en cours", "Haute", "En attente"],
     ["J-01", "Juridique", "Liste des litiges en cours", "Moyenne", "En attente"]])
FR_LOAN = _prose(
    "CONTRAT DE CRÉDIT SYNDIQUÉ\nENTRE LES SOUSSIGNÉS : Société Exemple SAS, ci-après dénommée "
    "l'« Emprunteur », d'une part, et Banque du Nord, ci-après dénommée l'« Agent », d'autre "
    "part.\nIL A ÉTÉ CONVENU CE QUI SUIT :",
    "Article 12 — Droit applicable. Le présent contrat est soumis au droit français. "
    "Article 13 — Résiliation.", file_type="docx")
FR_MINUTES = _prose(
    "Procès-verbal des délibérations du conseil d'administration du 12 mars 2024\nÉtaient "
    "présents : M. Martin (président de séance), Mme Durand",
    "Ordre du jour : approbation du budget 2025. Après délibération, le conseil "
    "d'administration adopte à l'unanimité la résolution suivante.", file_type="docx")
FR_CENSUS = _table(
    [["Matricule", "Nom", "Poste", "Date d'entrée", "Type de contrat", "Salaire annuel brut"],
     ["001", "Marie Dupont", "Comptable", "01/03/2019", "CDI", "42 000"],
     ["002", "Jean Martin", "Commercial", "15/07/2020", "CDI", "38 500"],
     ["003", "Luc Bernard", "Ingénieur", "04/01/2021", "CDI", "51 000"],
     ["004", "Anne Petit", "Assistante", "12/09/2022", "CDD", "29 000"],
     ["005", "Paul Roux", "Technicien", "01/02/2023", "CDI", "33 000"]],
    notes=["Registre du personnel au 30 septembre 2024"], file_type="csv")
FR_LEGAL_MEMO = _prose(
    "Mémo juridique — due diligence juridique\nStrictement confidentiel.",
    "Un ancien distributeur a assigné la Société devant le tribunal de commerce de Lyon et "
    "réclame 2,3 M€ de dommages et intérêts. La procédure est en cours.", file_type="docx")
FR_LEASES = _table(
    [["Site", "Bailleur", "Surface (m²)", "Loyer annuel (K€)", "Échéance du bail"],
     ["Lyon", "Foncière Rhône", "1 200", "240", "31/12/2028"],
     ["Paris", "SCI Opéra", "800", "310", "30/06/2027"]],
    notes=["État des baux commerciaux"])
FR_PRESENTATION = _prose(
    "Présentation de la société — Projet Faucon",
    "Chiffres clés et faits marquants\nLeader français de la logistique du froid ; "
    "positionnement premium ; stratégie de croissance à l'international.", file_type="pdf")


@pytest.mark.parametrize(
    ("parsed", "role"),
    [
        (US_AUDITED, R.AUDITED_STATEMENTS),
        (DE_AUDITED, R.AUDITED_STATEMENTS),
        (UK_MANAGEMENT_ACCOUNTS, R.MANAGEMENT_ACCOUNTS),
        (BUDGET, R.BUDGET_FORECAST),
        (QOE, R.QOE_REPORT),
        (CAP_TABLE_DE, R.CAP_TABLE),
        (CENSUS, R.EMPLOYEE_CENSUS),
        (EMAIL, R.CORRESPONDENCE),
        (IRL_REF_LAYOUT, R.IRL),
        (IRL_CATEGORY_LAYOUT, R.IRL),
        (MINUTES, R.BOARD_MINUTES),
        (LEASES, R.LEASE_SCHEDULE),
        (US_CONTRACT, R.CONTRACT),
        (LEGAL_MEMO, R.LEGAL_MEMO),
        (BIOS, R.MANAGEMENT_BIOS),
        (CIM, R.PRESENTATION),
        (BOARD_PACK, R.MANAGEMENT_ACCOUNTS),
        (FDD_CITING_AUDIT, R.QOE_REPORT),
        (CIM_WITH_FINANCIALS, R.PRESENTATION),
        (REPLY_WITHOUT_HEADERS, R.CORRESPONDENCE),
        (SHAREHOLDER_RESOLUTIONS_DE, R.BOARD_MINUTES),
        (LEASES_DE, R.LEASE_SCHEDULE),
        (FR_AUDITED, R.AUDITED_STATEMENTS),
        (FR_REPORTING, R.MANAGEMENT_ACCOUNTS),
        (FR_CAP_TABLE, R.CAP_TABLE),
        (FR_REQUEST_LIST, R.IRL),
        (FR_LOAN, R.CONTRACT),
        (FR_MINUTES, R.BOARD_MINUTES),
        (FR_CENSUS, R.EMPLOYEE_CENSUS),
        (FR_LEGAL_MEMO, R.LEGAL_MEMO),
        (FR_LEASES, R.LEASE_SCHEDULE),
        (FR_PRESENTATION, R.PRESENTATION),
    ],
    ids=lambda v: v.value if isinstance(v, DocumentRole) else "",
)
def test_role_comes_from_content_under_a_meaningless_name(parsed: ParsedDocument,
                                                          role: DocumentRole) -> None:
    verdict = classify_role("Document_017.pdf", parsed)
    assert verdict.role is role, verdict.reasons


def test_the_file_name_does_not_override_content() -> None:
    assert classify_role("Cap_Table.xlsx", CENSUS).role is R.EMPLOYEE_CENSUS
    assert classify_role("Board_Minutes.pdf", EMAIL).role is R.CORRESPONDENCE


def test_the_file_name_alone_is_not_enough() -> None:
    empty = _prose("Page intentionally left blank.")
    assert classify_role("Cap_Table.pdf", empty).role is R.OTHER


def test_a_request_list_under_any_name_is_the_irl() -> None:
    from manda.ingest.extract.profile import classify_document

    profile = classify_document("VDR_0.1.xlsx", IRL_CATEGORY_LAYOUT)
    assert profile.is_irl and profile.role is R.IRL


def test_an_annual_report_is_known_by_its_title_over_its_officers_biographies() -> None:
    """A listed company's annual report opens with its title ("FORM 10-K", "Annual Report")
    and, in its first chapter, its officers' careers: it is the audited statements' document,
    not a set of management bios, nor management accounts for the revenue it talks about."""
    report = _prose(
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nAnnual report for the "
        "fiscal year ended December 31, 2025\nHarbor Freightways, Inc.",
        "Information about our Executive Officers\nDana Ruiz, 52, has served as Chief Executive "
        "Officer since 2021; previously she was Chief Operating Officer. Lee Park, 47, Chief "
        "Financial Officer since 2022, previously served as Treasurer. Omar Haddad, 55, Chief "
        "Executive Officer of the Freight division, previously its Chief Financial Officer.",
        "Revenue grew in every quarter; actual results may differ from our expectations, and "
        "revenue from new lanes is uncertain.",
    )
    assert classify_role("report.pdf", report).role is R.AUDITED_STATEMENTS
    # its title may name the form alone ("Harbor Freightways, Inc. 10-K"), its cover no title
    cover = (
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFor the fiscal year ended December "
        "31, 2025\nLarge accelerated filer")
    titled = report.model_copy(update={
        "title": "Harbor Freightways, Inc. 10-K",
        "sections": [report.sections[0].model_copy(update={"text": cover}),
                     *report.sections[1:]]})
    assert classify_role("report.pdf", titled).role is R.AUDITED_STATEMENTS


def test_a_long_annual_report_is_not_decided_by_the_first_chapter_read() -> None:
    """Only the first 40,000 characters of a long document are read: an annual report whose
    first chapter is its officers' careers is still what its opening calls it."""
    careers = (
        "Dana Ruiz has served as Chief Executive Officer since 2021; previously she was Chief "
        "Operating Officer. Lee Park, Chief Financial Officer since 2022, previously served as "
        "Treasurer. Omar Haddad, Chief Executive Officer of Freight, previously led Sales. ")
    lanes = "Our trucks run 4,200 lanes across 31 states and two provinces of Canada. " * 40
    report = _prose("Harbor Freightways, Inc.\nFORM 10-K", careers, *[lanes] * 16)
    assert classify_role("report.pdf", report).role is R.AUDITED_STATEMENTS
    short = _prose("Harbor Freightways, Inc.\nFORM 10-K", careers, lanes)
    assert classify_role("report.pdf", short).role is R.MANAGEMENT_BIOS  # read whole: bios
