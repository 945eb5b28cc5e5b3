"""Pennine's other files: minutes, contracts and legal memo (DOCX), the information memorandum
(PPTX), lease schedule and employee census (CSV), request list (XLSX), a trading update (MD) and
an e-mail thread exported as text. Ground truth: `manda.sample.pennine_facts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from docx import Document
from docx.document import Document as DocxDocument
from openpyxl import Workbook
from openpyxl.styles import Font
from pptx import Presentation
from pptx.presentation import Presentation as PptxPresentation
from pptx.util import Inches, Pt

from manda.sample._csv import csv_text
from manda.sample._office import save_office_file
from manda.sample._paths import room_folder
from manda.sample._xlsx import save_workbook
from manda.sample.pennine_facts import (
    CENSUS,
    COMPANY,
    CONTRACTS,
    EMAIL,
    F_BOARD,
    F_CONTRACTS,
    F_CORRESPONDENCE,
    F_EMPLOYEES,
    F_IM,
    F_LITIGATION,
    F_MANAGEMENT,
    F_PROPERTY,
    F_REQUESTS,
    IM,
    IRL,
    IRL_ITEMS,
    LEASES,
    LEGAL,
    MINUTES,
    TRADING,
)


def write_text_files(room: Path) -> list[Path]:
    """Write Pennine's documents, lists and correspondence into their VDR folders."""
    return [
        _minutes(room_folder(room, F_BOARD) / MINUTES),
        _trading_update(room_folder(room, F_MANAGEMENT) / TRADING),
        _memorandum(room_folder(room, F_IM) / IM),
        _contracts(room_folder(room, F_CONTRACTS) / CONTRACTS),
        _legal_memo(room_folder(room, F_LITIGATION) / LEGAL),
        _leases(room_folder(room, F_PROPERTY) / LEASES),
        _census(room_folder(room, F_EMPLOYEES) / CENSUS),
        _request_list(room_folder(room, F_REQUESTS) / IRL),
        _email(room_folder(room, F_CORRESPONDENCE) / EMAIL),
    ]


def _section(document: DocxDocument, heading: str, paragraphs: Sequence[str]) -> None:
    document.add_heading(heading, level=1)
    for text in paragraphs:
        document.add_paragraph(text)


# ---------------------------------------------------------------- board minutes


def _minutes(path: Path) -> Path:
    document = Document()
    document.add_heading(f"{COMPANY} — Minutes of a meeting of the board of directors", level=0)
    document.add_paragraph("Held at Colne Bridge Road, Huddersfield on 21 May 2024 at 10:00.")
    document.add_paragraph("Present: David Thornton (Chair), Sarah Okafor, James Whitaker, "
                           "Rhys Morgan, Tom Ashworth (investor director, Ridings Capital). "
                           "In attendance: Helen Baxter (Financial Controller).")
    _section(document, "1. Apologies and Declarations of Interest", [
        "There were no apologies. Tom Ashworth declared his interest as a partner of Ridings "
        "Capital, holder of the B Ordinary shares.",
    ])
    _section(document, "2. Trading and Correction to the Q4 Trading Update", [
        "Helen Baxter presented the draft results for the year ended 31 March 2024: revenue of "
        "14.2 million pounds and operating profit of £2.0m, subject to audit.",
        "Correction: the Q4 trading update circulated on 12 April 2024 overstated revenue. A "
        "Meridian invoice of £0.4m had been entered twice. The correct Q4 FY2024 revenue is "
        "£3.9m, not £4.3m, and revenue for the year is £14.2m, not £14.6m. The management "
        "accounts have been restated accordingly and the board noted the correction.",
    ])
    _section(document, "3. Finance Director", [
        "The board noted that the Finance Director role has been vacant since Paul Hendry left "
        "the company on 31 January 2024. Helen Baxter continues to lead the finance team as "
        "Financial Controller. The search, run by Harrogate Search Partners, continues; fees "
        "to date are £95,000.",
    ])
    _section(document, "4. Castleford Tooling Claim", [
        "Kirkgate Legal LLP reported that the claim by Castleford Tooling Ltd (£640,000) is at "
        "the disclosure stage. The board agreed to continue to defend the claim.",
    ])
    _section(document, "5. Customer Relationships", [
        "The board discussed the company's reliance on David Thornton for the Meridian and "
        "Halcyon relationships. James Whitaker will be introduced to Meridian's procurement "
        "team before the end of the year.",
    ])
    _section(document, "6. Sale Process", [
        "The board approved the appointment of Elland Corporate Finance to advise on a sale of "
        "the company (Project Kestrel). Ridings Capital confirmed that it supports a sale of "
        "100% of the shares.",
    ])
    document.add_paragraph("Signed: David Thornton, Chair")
    save_office_file(document, path, issued=date(2024, 5, 21), author=COMPANY,
                     title="Board minutes 21 May 2024")
    return path


# ---------------------------------------------------------------- trading update (Markdown)


def _trading_update(path: Path) -> Path:
    text = f"""# {COMPANY} — Trading update Q4 FY2024

Issued 12 April 2024 to the board and shareholders. Unaudited.

## Highlights

- Q4 FY2024 (January to March 2024) revenue of £4.3m, the strongest quarter of the year.
- FY2024 revenue of £14.6m (FY2023: £12.6m).
- Order intake in the quarter of £4.1m; the order book at 31 March 2024 stood at £6.2m.

## Operations

The second five-axis machining cell reached full two-shift operation in February. On-time
delivery was 94% in the quarter (Q3: 91%). Scrap and rework fell to 1.8% of revenue.

## Outlook

The board approved the FY2025 budget on 26 March 2024. Trading in April is in line with it.
"""
    path.write_bytes(text.encode("utf-8"))
    return path


# ---------------------------------------------------------------- information memorandum


def _bullet_slide(prs: PptxPresentation, title: str, lines: Sequence[str],
                  notes: str | None = None) -> None:
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = title
    body = slide.placeholders[1].text_frame
    body.text = lines[0]
    for line in lines[1:]:
        body.add_paragraph().text = line
    if notes:
        slide.notes_slide.notes_text_frame.text = notes


def _memorandum(path: Path) -> Path:
    prs = Presentation()
    cover = prs.slides.add_slide(prs.slide_layouts[0])
    cover.shapes.title.text = "Project Kestrel — Information Memorandum"
    cover.placeholders[1].text = (f"{COMPANY} · Prepared by Elland Corporate Finance · "
                                  "September 2024 · Strictly private and confidential")
    _bullet_slide(prs, "Business overview", [
        "Founded in 1987 in Huddersfield, West Yorkshire; family-owned until the 2021 minority "
        "investment by Ridings Capital",
        "CNC-machined precision components for aerospace (58% of revenue), medical devices "
        "(24%) and industrial hydraulics (18%)",
        "Two sites: Colne Bridge (manufacturing, 68,000 sq ft) and Brighouse (warehouse)",
        "126 employees; AS9100 and ISO 13485 certified",
    ], notes="Sector split is for the year ended 31 March 2024.")
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Financial summary"
    rows = [
        ["£m, years to 31 March", "FY2023", "FY2024", "FY2025 budget"],
        ["Revenue", "12.6", "14.2", "15.8"],
        ["Reported EBITDA", "2.18", "2.66", "3.20"],
        ["Adjusted EBITDA", "2.39", "3.02", "n/a"],
    ]
    shape = prs.slides[2].shapes.add_table(len(rows), len(rows[0]), Inches(0.5), Inches(1.8),
                                           Inches(9.0), Inches(2.0))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = shape.table.cell(r, c)
            cell.text = value
            cell.text_frame.paragraphs[0].runs[0].font.size = Pt(14)
    slide.notes_slide.notes_text_frame.text = (
        "FY2023 and FY2024 are audited; adjusted EBITDA is from the vendor quality of earnings "
        "report; FY2025 is the board-approved budget, not a forecast of the outcome.")
    _bullet_slide(prs, "Customers", [
        "More than 140 active customers across three sectors",
        "Meridian Aerostructures is the largest customer at 31% of FY2024 revenue; top three "
        "customers 57%",
        "Long-term supply agreement with Meridian runs to 31 March 2027",
        "Average customer tenure of the top ten customers: 11 years",
    ])
    _bullet_slide(prs, "Management team", [
        "David Thornton — Managing Director",
        "Sarah Okafor — Operations Director",
        "James Whitaker — Commercial Director",
        "Rhys Morgan — Engineering Director",
        "Helen Baxter — Financial Controller",
    ], notes="Full biographies are in folder 5.1 of the data room.")
    _bullet_slide(prs, "Growth opportunities", [
        "Second five-axis cell adds capacity of about £2m of revenue a year",
        "Medical devices pipeline with two new OEM customers in qualification",
        "Price increases of 3% agreed from 1 April 2024",
    ])
    save_office_file(prs, path, issued=date(2024, 9, 9), author="Elland Corporate Finance",
                     title="Project Kestrel — Information Memorandum")
    return path


# ---------------------------------------------------------------- contracts and facilities


def _contracts(path: Path) -> Path:
    document = Document()
    document.add_heading(f"{COMPANY} — Material contracts and facilities summary", level=0)
    document.add_paragraph("Prepared by Kirkgate Legal LLP for the data room, 30 August 2024.")
    _section(document, "Customer Contracts", [
        "Meridian Aerostructures Ltd: long-term supply agreement for machined aerostructure "
        "components from 1 April 2022 to 31 March 2027, worth about £4.4m a year. Change of "
        "control: if control of the company changes, Meridian may terminate the agreement on "
        "six months' written notice.",
        "Halcyon Medical Devices Ltd: framework supply agreement to 30 June 2026, renewing "
        "annually thereafter, worth about £2.4m a year. No change-of-control clause; "
        "assignment needs Halcyon's consent.",
        "Brigg Hydraulics Ltd: purchase orders on the company's standard terms of sale; no "
        "term commitment.",
    ])
    grid = document.add_table(rows=4, cols=4)
    grid.style = "Table Grid"
    for r, row in enumerate([
        ["Counterparty", "Agreement", "Expiry", "Change of control"],
        ["Meridian Aerostructures Ltd", "Long-term supply agreement", "31 Mar 2027",
         "Termination right, 6 months' notice"],
        ["Halcyon Medical Devices Ltd", "Framework supply agreement", "30 Jun 2026",
         "None (consent to assign)"],
        ["Brigg Hydraulics Ltd", "Purchase orders", "n/a", "None"],
    ]):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    _section(document, "Supplier Contracts", [
        "Holmfirth Alloys Ltd supplies aluminium and titanium bar stock under a two-year "
        "agreement to 31 December 2025 with quarterly price adjustment; no change-of-control "
        "clause.",
    ])
    _section(document, "Bank Facilities", [
        "Facilities agreement with Aire Valley Bank plc dated 14 June 2023: a term loan of "
        "£5.0m, £4.5m outstanding at 31 March 2024, amortising quarterly to June 2028, and a "
        "revolving credit facility of £1.5m, of which £0.5m was drawn.",
        "Financial covenants, tested quarterly: leverage (net debt to EBITDA) not more than "
        "2.50x; interest cover not less than 4.00x.",
        "A change of control is a mandatory prepayment event: the facilities must be repaid "
        "if control of the company changes.",
    ])
    save_office_file(document, path, issued=date(2024, 8, 30), author="Kirkgate Legal LLP",
                     title="Material contracts and facilities summary")
    return path


def _legal_memo(path: Path) -> Path:
    document = Document()
    document.add_heading("Memorandum — Litigation and disputes", level=0)
    document.add_paragraph(f"From: Kirkgate Legal LLP. To: the board of {COMPANY}. "
                           "Date: 30 August 2024. Privileged and confidential.")
    _section(document, "1. Castleford Tooling Ltd v Pennine Precision Engineering Ltd", [
        "Claimant: Castleford Tooling Ltd, a former supplier of press tooling. Claim: "
        "£640,000 for unpaid invoices and damages for the alleged wrongful termination of a "
        "tooling supply contract in 2023.",
        "Court: High Court of Justice, Business and Property Courts in Leeds (claim issued "
        "8 February 2024). The company filed its defence and a counterclaim of £210,000 for "
        "defective tooling on 12 April 2024.",
        "Status: disclosure stage; trial window March 2025. We assess the prospects of "
        "defending the claim as reasonable. No provision has been recognised. Legal costs "
        "in FY2024 were £185,000.",
    ])
    _section(document, "2. Employment Tribunal Claim", [
        "A former machinist has brought a claim for unfair dismissal in the Leeds Employment "
        "Tribunal, seeking compensation of about £38,000. The hearing is listed for "
        "14 January 2025. The claim is covered by the company's employment practices "
        "insurance, subject to an excess of £10,000.",
    ])
    _section(document, "3. Regulatory Matters", [
        "The Health and Safety Executive issued an improvement notice on machine guarding in "
        "November 2023. The company complied in January 2024 and the notice is closed.",
    ])
    _section(document, "4. Threatened Claims", [
        "We are not aware of any other threatened claims against the company.",
    ])
    save_office_file(document, path, issued=date(2024, 8, 30), author="Kirkgate Legal LLP",
                     title="Legal memo — litigation and disputes")
    return path


# ---------------------------------------------------------------- CSV files


def _leases(path: Path) -> Path:
    rows = [
        ["Property", "Use", "Landlord", "Lease start", "Lease expiry", "Tenant break",
         "Annual rent (GBP)", "Rent review", "1954 Act protection"],
        ["Unit 4, Colne Bridge Road, Huddersfield HD5 0RH (Colne Bridge)", "Manufacturing",
         "Colne Bridge Estates Ltd", "2016-07-01", "2031-06-30", "2026-06-30", "310000",
         "5-yearly, upward only", "Yes"],
        ["Unit 12, Armytage Road, Brighouse HD6 1QF (Brighouse)", "Warehouse",
         "Calderdale Industrial Properties Ltd", "2020-01-01", "2025-12-31", "", "85000",
         "None", "No"],
        ["Suite 3, Aspley House, Huddersfield HD1 6RX", "Sales office", "Aspley Wharf Ltd",
         "2023-04-01", "2028-03-31", "2026-03-31", "24000", "None", "No"],
    ]
    path.write_bytes(csv_text(rows).encode("utf-8"))
    return path


_FIRST = ("Adam", "Beth", "Callum", "Dawn", "Ethan", "Fiona", "Gareth", "Hannah", "Ian",
          "Jodie", "Kieran", "Lauren", "Martin", "Nadia", "Owen", "Paula", "Ryan", "Stacey",
          "Tariq", "Vicky", "Wayne", "Zoe")
_LAST = ("Ackroyd", "Brooke", "Crowther", "Dyson", "Eastwood", "Firth", "Greenwood", "Haigh",
         "Ingham", "Jagger", "Kaye", "Lodge", "Mellor", "Naylor", "Oldroyd", "Pickles",
         "Quarmby", "Rhodes", "Sykes", "Taylor", "Wood")
# (job title, department, site, base salary band start, step, bonus)
_ROLES = (
    ("CNC Machinist", "Production", "Colne Bridge", 31_000, 350, 750),
    ("Setter Operator", "Production", "Colne Bridge", 34_500, 400, 900),
    ("Quality Inspector", "Quality", "Colne Bridge", 30_500, 300, 600),
    ("Production Planner", "Operations", "Colne Bridge", 36_000, 500, 1_000),
    ("Maintenance Engineer", "Engineering", "Colne Bridge", 39_000, 450, 1_000),
    ("CNC Programmer", "Engineering", "Colne Bridge", 42_000, 600, 1_200),
    ("Warehouse Operative", "Logistics", "Brighouse", 25_500, 250, 400),
    ("Apprentice Machinist", "Production", "Colne Bridge", 18_500, 200, 0),
    ("Sales Engineer", "Sales", "Huddersfield office", 44_000, 700, 3_000),
    ("Accounts Assistant", "Finance", "Colne Bridge", 27_000, 300, 500),
)
# How many of each role, in _ROLES order: 121 staff below the five directors and managers.
_ROLE_COUNTS = (46, 18, 10, 5, 6, 5, 12, 9, 6, 4)


def _census(path: Path) -> Path:
    header = ["Employee ID", "Name", "Job title", "Department", "Site", "Start date",
              "Contract", "FTE", "Base salary (GBP)", "Bonus FY2024 (GBP)",
              "Employer pension (%)"]
    rows = [header,
            ["P0001", "David Thornton", "Managing Director", "Management", "Colne Bridge",
             "1994-09-01", "Permanent", "1.0", "185000", "40000", "5"],
            ["P0002", "Sarah Okafor", "Operations Director", "Management", "Colne Bridge",
             "2015-03-02", "Permanent", "1.0", "118000", "15000", "5"],
            ["P0003", "James Whitaker", "Commercial Director", "Management",
             "Huddersfield office", "2018-06-04", "Permanent", "1.0", "112000", "18000", "5"],
            ["P0004", "Rhys Morgan", "Engineering Director", "Management", "Colne Bridge",
             "2012-01-09", "Permanent", "1.0", "109000", "12000", "5"],
            ["P0005", "Helen Baxter", "Financial Controller", "Finance", "Colne Bridge",
             "2019-10-01", "Permanent", "1.0", "72000", "6000", "5"]]
    number = 6
    for (title, department, site, base, step, bonus), count in zip(_ROLES, _ROLE_COUNTS,
                                                                   strict=True):
        for index in range(count):
            first = _FIRST[(number * 7) % len(_FIRST)]
            last = _LAST[(number * 5 + index) % len(_LAST)]
            start = date(2005 + (number * 3) % 19, 1 + (number * 5) % 12, 1 + (number % 27))
            part_time = number % 17 == 0
            rows.append([f"P{number:04d}", f"{first} {last}", title, department, site,
                         start.isoformat(), "Permanent" if number % 23 else "Fixed term",
                         "0.6" if part_time else "1.0", str(base + step * (index % 9)),
                         str(bonus), "3"])
            number += 1
    path.write_bytes(csv_text(rows).encode("utf-8"))
    return path


# ---------------------------------------------------------------- request list


def _request_list(path: Path) -> Path:
    """Ref / Request / Priority / Status, with section rows ("1 Financial") instead of a
    category column."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Requests"
    ws["A1"] = "Project Kestrel — Information request list"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Buyer: Ashdown Industrial Group plc · updated 16 September 2024"
    bold = Font(bold=True)
    for col, label in enumerate(["Ref", "Request", "Priority", "Status", "VDR reference"],
                                start=1):
        ws.cell(row=4, column=col, value=label).font = bold
    row = 5
    section = ""
    for item in IRL_ITEMS:
        number = item.ref.split(".")[0]
        if number != section:
            section = number
            ws.cell(row=row, column=1, value=number).font = bold
            ws.cell(row=row, column=2, value=item.category).font = bold
            row += 1
        ws.cell(row=row, column=1, value=item.ref)
        ws.cell(row=row, column=2, value=item.request)
        ws.cell(row=row, column=3, value=item.priority)
        ws.cell(row=row, column=4, value=item.status)
        ws.cell(row=row, column=5, value=_vdr_refs(item.covered_by))
        row += 1
    ws.column_dimensions["B"].width = 60
    save_workbook(workbook, path, issued=date(2024, 9, 16), author="Ashdown Industrial Group plc")
    return path


def _vdr_refs(files: Sequence[str]) -> str | None:
    return ", ".join(name.split(" ", 1)[0] for name in files) or None


# ---------------------------------------------------------------- e-mail thread


def _email(path: Path) -> Path:
    text = """From: Mark Ellison <mark.ellison@ellandcf.co.uk>
To: David Thornton <david.thornton@pennineprecision.co.uk>
Cc: Tom Ashworth <tom.ashworth@ridingscapital.co.uk>
Date: Tue, 17 Sep 2024 16:42:10 +0100
Subject: RE: Project Kestrel - indicative offer

David, Tom,

Following this afternoon's call, Ashdown Industrial Group plc has confirmed its indicative offer
at an enterprise value of £21.5m on a cash-free, debt-free basis, assuming a normal level of
working capital. That is 7.1x adjusted EBITDA of £3.02m for FY2024. They are asking for four
weeks of exclusivity to complete confirmatory due diligence.

I recommend we accept exclusivity on that basis. Please confirm by Friday.

Regards,
Mark Ellison
Director, Elland Corporate Finance

-----Original Message-----
From: David Thornton <david.thornton@pennineprecision.co.uk>
To: Mark Ellison <mark.ellison@ellandcf.co.uk>
Date: Mon, 16 Sep 2024 09:15:32 +0100
Subject: RE: Project Kestrel - indicative offer

Mark,

Thanks. Margaret and I would not go below £21m, and Ridings want the B shares' preference
honoured in full. Happy to discuss on a call tomorrow.

David

-----Original Message-----
From: Mark Ellison <mark.ellison@ellandcf.co.uk>
To: David Thornton <david.thornton@pennineprecision.co.uk>
Cc: Tom Ashworth <tom.ashworth@ridingscapital.co.uk>
Date: Fri, 13 Sep 2024 11:03:47 +0100
Subject: Project Kestrel - indicative offer

David, Tom,

Two parties submitted indicative offers by the deadline. Ashdown Industrial Group's letter
is the stronger of the two; I will circulate a comparison before Monday.

Mark
"""
    path.write_bytes(text.encode("utf-8"))
    return path
