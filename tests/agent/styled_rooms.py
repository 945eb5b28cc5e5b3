"""Three small data rooms written in other styles than the sample deal, ingested for real.

A US company (USD, "$000" tables, a stock ledger, an employee census, a complaint in a California
court, an offer price only in an e-mail), a German GmbH (Gesellschafterliste, Geschäftsführer,
Landgericht) and a UK company (register of members, financial year to 31 March, £). File names
are a virtual data room's numbered folders and generic names, never the sample's. The answering
rules are checked against these rooms so they cannot lean on TargetCo's names or phrasings.
"""

from __future__ import annotations

from pathlib import Path

US = "redwood"
DE = "mueller"
UK = "thistle"

ROOMS: dict[str, dict[str, str]] = {
    US: {
        "00 Overview/Project Sequoia teaser.md": (
            "# Project Sequoia — Confidential teaser\n\n"
            "## The business\n\n"
            "Redwood Analytics, Inc. is a San Jose-based provider of supply-chain analytics "
            "software to mid-market retailers and distributors in North America. The company "
            "serves about 240 customers on multi-year subscription contracts.\n"),
        "01 Corporate/1.4 Stock ledger.csv": (
            "Stockholder,Share Class,Shares Held,Fully Diluted %\n"
            "Jane Doe,Common,5200000,52.0%\n"
            "Sequoia Ridge Partners LP,Series A Preferred,2800000,28.0%\n"
            "Employee option pool,Options,1200000,12.0%\n"
            "Robert Chen,Common,800000,8.0%\n"
            "Total,,10000000,100.0%\n"),
        "02 People/2.1 Leadership.md": (
            "# Redwood Analytics, Inc. — Leadership Team\n\n"
            "Profiles of the executive team as of September 30, 2024.\n\n"
            "## Jane Doe — Chief Executive Officer\n\n"
            "Jane Doe co-founded Redwood Analytics in 2012 after ten years at Oracle. She leads "
            "product strategy and owns the relationships with the five largest customers.\n\n"
            "## Kim Lee — Chief Operating Officer\n\n"
            "Kim Lee joined Redwood Analytics in 2018 from Deloitte, where she was a senior "
            "manager.\n\n"
            "## Raj Patel — VP, Sales\n\n"
            "Raj Patel joined in 2019 and previously led enterprise sales at Tableau.\n"),
        "02 People/2.3 Employee census Sept 2024.csv": (
            "Employee ID,Name,Job Title,Department,Base Salary (USD),Start Date\n"
            "E-001,Jane Doe,Chief Executive Officer,Management,310000,2012-04-01\n"
            "E-002,Kim Lee,Chief Operating Officer,Management,265000,2018-02-15\n"
            "E-014,Raj Patel,VP Sales,Sales,185000,2019-06-03\n"
            "E-027,Maria Gomez,Senior Data Engineer,Engineering,162000,2020-09-14\n"
            "E-031,Tom Baker,Account Executive,Sales,120000,2021-01-11\n"),
        "03 Legal/3.1 Legal due diligence memo.md": (
            "# Legal Due Diligence Memorandum — Redwood Analytics, Inc.\n\n"
            "Prepared by outside counsel, October 2024.\n\n"
            "## Litigation\n\n"
            "Acme Supply LLC filed a complaint against Redwood Analytics, Inc. in the Superior "
            "Court of California, County of Santa Clara, on March 3, 2024, alleging breach of a "
            "reseller agreement and seeking damages of $2.4 million. The case is in discovery and "
            "trial is set for June 2025. No reserve has been recorded.\n\n"
            "## Key person\n\n"
            "The business is heavily dependent on its founder Jane Doe, who holds the "
            "relationships with the five largest customers; there is no succession plan.\n"),
        "04 Correspondence/RE_ Indicative offer.txt": (
            "From: David Ross <d.ross@bluepeak.com>\n"
            "To: Jane Doe <jane@redwood-analytics.com>\n"
            "Date: Tue, 8 Oct 2024 09:12:00 -0700\n"
            "Subject: RE: Indicative offer\n\n"
            "Dear Jane,\n\n"
            "Following our call, Bluepeak confirms its indicative offer of $48 million for 100% "
            "of the shares of Redwood Analytics, Inc., on a cash-free, debt-free basis, subject "
            "to confirmatory due diligence.\n\n"
            "Best regards,\nDavid\n"),
        "05 Financials/5.3 Consolidated balance sheets.md": (
            "# Redwood Analytics, Inc. — Consolidated balance sheets\n\n"
            "(in thousands of U.S. dollars)\n\n"
            "| | December 31, 2023 | December 31, 2022 |\n"
            "|---|---|---|\n"
            "| Cash and cash equivalents | 12,400 | 9,800 |\n"
            "| Accounts receivable, net | 7,300 | 6,100 |\n"
            "| Total current assets | 21,900 | 17,600 |\n"
            "| Long-term debt, net of current portion | 15,000 | 18,000 |\n"
            "| Total liabilities | 24,600 | 26,300 |\n"
            "| Total stockholders' equity | 11,800 | 8,400 |\n\n"
            "## Credit agreement\n\n"
            "On June 30, 2022 the company entered into a $20.0 million senior secured term loan "
            "with First Harbor Bank, N.A., maturing on June 30, 2027 and bearing interest at SOFR "
            "plus 3.25%. The credit agreement requires a total net leverage ratio of not more "
            "than 3.50x and a fixed charge coverage ratio of at least 1.25x, tested quarterly. "
            "At December 31, 2023 the total net leverage ratio was 1.40x. The credit agreement "
            "also provides a $10.0 million revolving credit facility; at December 31, 2023, "
            "$3.5 million was drawn under it.\n"),
        "05 Financials/5.4 Revenue by customer.md": (
            "# Redwood Analytics, Inc. — Revenue by customer, FY2023\n\n"
            "| Customer | Revenue ($000) | % of revenue |\n"
            "|---|---|---|\n"
            "| Northgate Retail Corp. | 9,340 | 20% |\n"
            "| Pioneer Distribution LLC | 5,600 | 12% |\n"
            "| Bayside Grocers Inc. | 3,270 | 7% |\n"
            "| All other customers | 28,490 | 61% |\n"),
        "05 Financials/5.2 Statement of operations.md": (
            "# Redwood Analytics, Inc. — Statements of operations\n\n"
            "Audited. Years ended December 31.\n\n"
            "## Results\n\n"
            "Revenue was $46.7 million in FY2023 (FY2022: $38.2 million). Gross profit was "
            "$33.1 million in FY2023 (FY2022: $26.4 million). EBITDA was $8.6 million in FY2023 "
            "(FY2022: $6.1 million). Net income was $4.9 million in FY2023 (FY2022: $3.2 "
            "million).\n"),
    },
    DE: {
        "Dokumente/Gesellschafterliste.md": (
            "# Gesellschafterliste der Müller Maschinenbau GmbH\n\n"
            "Stand: 30. Juni 2024\n\n"
            "| Gesellschafter | Geschäftsanteile | Beteiligung |\n"
            "|---|---|---|\n"
            "| Familie Müller Holding GmbH | 60.000 | 60 % |\n"
            "| Dr. Klaus Berger | 25.000 | 25 % |\n"
            "| Sparkasse Beteiligungsgesellschaft mbH | 15.000 | 15 % |\n"),
        "Dokumente/Geschaeftsfuehrung.md": (
            "# Müller Maschinenbau GmbH — Management team\n\n"
            "## Dr. Klaus Berger — Managing Director (Geschäftsführer)\n\n"
            "Dr. Klaus Berger has been Managing Director since 2010; previously he spent twelve "
            "years at Siemens.\n\n"
            "## Sabine Koch — Head of Production\n\n"
            "Sabine Koch joined in 2016 and previously ran a plant of Bosch Rexroth.\n"),
        "Dokumente/Bilanz_2023.md": (
            "# Müller Maschinenbau GmbH — Bilanz zum 31.12.2023 (HGB)\n\n"
            "Angaben in TEUR\n\n"
            "| Posten | 31.12.2023 | 31.12.2022 |\n"
            "|---|---|---|\n"
            "| Sachanlagen | 8.450 | 8.100 |\n"
            "| Vorräte | 3.200 | 2.900 |\n"
            "| Forderungen aus Lieferungen und Leistungen | 2.750 | 2.400 |\n"
            "| Guthaben bei Kreditinstituten | 1.150 | 980 |\n"
            "| Eigenkapital | 6.300 | 5.700 |\n"
            "| Rückstellungen | 1.100 | 950 |\n"
            "| Verbindlichkeiten gegenüber Kreditinstituten | 4.800 | 5.200 |\n\n"
            "## Finanzierung\n\n"
            "The bank loan from Kreissparkasse Esslingen of EUR 6.0 million is repayable in "
            "quarterly instalments until 30 September 2028; EUR 4.8 million was outstanding at "
            "31 December 2023. Die Kreditlinie über EUR 2,0 Mio. war zum 31.12.2023 mit "
            "EUR 0,8 Mio. in Anspruch genommen.\n"),
        "Dokumente/Rechtliche_Zusammenfassung.md": (
            "# Legal summary — Müller Maschinenbau GmbH\n\n"
            "## Litigation\n\n"
            "Stahlhandel Nord GmbH filed a claim against Müller Maschinenbau GmbH before the "
            "Landgericht Stuttgart on 12 February 2024, seeking damages of EUR 850,000 for late "
            "delivery. The proceedings are pending; a settlement hearing is scheduled for "
            "January 2025.\n"),
    },
    UK: {
        "VDR/1.2 Register of members.md": (
            "# Thistle Software Ltd — Register of members\n\n"
            "As at 31 March 2024.\n\n"
            "| Member | Class of share | Number of shares | % of issued share capital |\n"
            "|---|---|---|---|\n"
            "| Alasdair Grant | Ordinary £0.01 | 600,000 | 60% |\n"
            "| Highland Ventures LLP | A Ordinary £0.01 | 300,000 | 30% |\n"
            "| EMI option holders | Ordinary £0.01 | 100,000 | 10% |\n"),
        "VDR/3.1 Directors.md": (
            "# Thistle Software Ltd — Board and senior management\n\n"
            "## Alasdair Grant — Chief Executive Officer\n\n"
            "Alasdair Grant founded Thistle in 2009 and previously worked at Sage for eight "
            "years.\n\n"
            "## Fiona Reid — Finance Director\n\n"
            "Fiona Reid joined in 2017; she qualified as a chartered accountant with KPMG.\n"),
        "VDR/4.3 Budget FY2024.md": (
            "# Thistle Software Ltd — Budget for the year ending 31 March 2024\n\n"
            "Approved by the board in March 2023. Budget, not actuals.\n\n"
            "## Budget\n\n"
            "Budgeted revenue for FY2024 is £15.0m. Budgeted EBITDA for FY2024 is £3.0m.\n"),
        "VDR/4.1 Board pack March 2024.md": (
            "# Thistle Software Ltd — Board pack, management accounts\n\n"
            "Year to 31 March 2024, unaudited actuals.\n\n"
            "## Trading\n\n"
            "Revenue for FY2024 was £14.2m (FY2023: £12.1m). EBITDA for FY2024 was £2.6m "
            "(FY2023: £2.2m).\n"),
    },
}


def write_room(root: Path, deal: str) -> Path:
    """Write one room's files under `root/deal` and return that folder."""
    folder = root / deal
    for name, text in ROOMS[deal].items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder
