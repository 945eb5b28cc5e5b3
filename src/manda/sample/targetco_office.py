"""TargetCo's Word and PowerPoint files: management bios, legal summary, management presentation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from docx import Document
from docx.document import Document as DocxDocument
from pptx import Presentation
from pptx.util import Inches, Pt

from manda.sample._office import save_office_file
from manda.sample._slides import bullet_slide
from manda.sample.facts import TARGETCO_COMPANY

AUTHOR = TARGETCO_COMPANY


def write_office_files(folder: Path) -> list[Path]:
    """Write TargetCo's presentation and Word documents into `folder`; return their paths."""
    return [
        _presentation(folder / "TargetCo_Management_Presentation.pptx"),
        _bios(folder / "TargetCo_Management_Bios.docx"),
        _legal_summary(folder / "TargetCo_Legal_Summary.docx"),
    ]


# ---------------------------------------------------------------- presentation


def _presentation(path: Path) -> Path:
    prs = Presentation()
    title = prs.slides.add_slide(prs.slide_layouts[0])
    title.shapes.title.text = "TargetCo GmbH — Management Presentation"
    title.placeholders[1].text = "Date: 8 October 2024 · Strictly confidential"

    bullet_slide(prs, "Highlights", [
        "Q3 2024 revenue €5.0M",
        "ARR €19.8M as of 30 September 2024",
        "Net revenue retention 112%",
        "156 employees",
    ], notes="Q3 figure is preliminary management estimate; the reviewed figures follow in the "
             "Q3 2024 quarterly report.")
    bullet_slide(prs, "Growth", [
        "FY2023 revenue €18.4M, up 18% on FY2022 (€15.6M)",
        "ARR up 17% year on year (30 September 2023: €16.9M)",
        "Gross margin consistently around 70%",
    ], notes="FY2023 figures are taken from the audited annual report.")
    bullet_slide(prs, "Customers", [
        "Over 180 customers in the DACH region",
        "Globex AG: 38% of revenue",
        "Top 3 customers: 61% of revenue",
    ], notes="The Globex AG master agreement runs until February 2027.")
    bullet_slide(prs, "Team", [
        "Anna Schmidt — Chief Executive Officer (founder)",
        "Thomas Müller — Chief Financial Officer",
        "Lena Fischer — Chief Technology Officer",
        "156 employees as of 30 September 2024",
    ])

    table_slide = prs.slides.add_slide(prs.slide_layouts[5])
    table_slide.shapes.title.text = "Quarterly performance"
    rows = [
        ["Quarter", "Revenue (EUR M)", "EBITDA (EUR M)"],
        ["Q1 2024", "4.6", "0.8"],
        ["Q2 2024", "4.9", "0.6"],
        ["Q3 2024", "5.0", "1.1"],
    ]
    shape = table_slide.shapes.add_table(len(rows), len(rows[0]), Inches(1), Inches(2),
                                         Inches(8), Inches(2))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = shape.table.cell(r, c)
            cell.text = value
            cell.text_frame.paragraphs[0].runs[0].font.size = Pt(16)
    table_slide.notes_slide.notes_text_frame.text = (
        "Q3 2024 is a preliminary management estimate. Q2 2024 EBITDA is after the one-time "
        "restructuring charge of €0.4M."
    )

    bullet_slide(prs, "Outlook", [
        "FY2025 revenue target €22.5M (revised September 2024)",
        "FY2025 EBITDA target €4.2M",
    ], notes="Targets follow the revised forecast (v2) of September 2024.")
    save_office_file(prs, path, issued=date(2024, 10, 8), author=AUTHOR,
                     title="TargetCo GmbH — Management Presentation")
    return path


# ---------------------------------------------------------------- Word documents


def _table(document: DocxDocument, rows: Sequence[Sequence[str]]) -> None:
    grid = document.add_table(rows=len(rows), cols=len(rows[0]))
    grid.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
            if r == 0:
                grid.cell(r, c).paragraphs[0].runs[0].bold = True


def _bios(path: Path) -> Path:
    document = Document()
    document.add_heading("TargetCo GmbH — Management Team", level=0)
    document.add_paragraph("Biographies of the management team as of 30 September 2024.")
    people = [
        ("Anna Schmidt — Chief Executive Officer",
         "Anna Schmidt founded TargetCo in 2015 and has led the company as Chief Executive "
         "Officer since then. Before founding TargetCo she spent nine years in enterprise "
         "software sales at a large German software vendor. She holds an MBA from the "
         "University of Mannheim."),
        ("Thomas Müller — Chief Financial Officer",
         "Thomas Müller joined TargetCo as Chief Financial Officer in 2020. He was previously "
         "finance director of a private-equity-backed industrial group and started his career "
         "in audit. He is a certified public accountant (Wirtschaftsprüfer)."),
        ("Lena Fischer — Chief Technology Officer",
         "Lena Fischer joined TargetCo in 2016 and became Chief Technology Officer in 2019. "
         "She leads engineering and product development and previously built data platforms "
         "at a Munich logistics company. She holds a PhD in computer science from TU Munich."),
        ("Markus Weber",
         "Markus Weber joined TargetCo in March 2019. Before that he spent eight years at a "
         "Munich-based consultancy. He holds a degree in industrial engineering from "
         "TU Darmstadt."),
    ]
    for heading, bio in people:
        document.add_heading(heading, level=1)
        document.add_paragraph(bio)
    document.add_heading("Overview", level=1)
    _table(document, [
        ["Name", "Role", "Joined"],
        ["Anna Schmidt", "Chief Executive Officer", "2015"],
        ["Thomas Müller", "Chief Financial Officer", "2020"],
        ["Lena Fischer", "Chief Technology Officer", "2016"],
        ["Markus Weber", "", "2019"],
    ])
    save_office_file(document, path, issued=date(2024, 9, 30), author=AUTHOR,
                     title="TargetCo GmbH — Management Team")
    return path


def _legal_summary(path: Path) -> Path:
    document = Document()
    document.add_heading("TargetCo GmbH — Legal Summary", level=0)
    document.add_paragraph("Prepared by company counsel for prospective buyers. "
                           "Date: 30 September 2024.")

    document.add_heading("Litigation", level=1)
    document.add_paragraph(
        "Vertex Distribution GmbH, a former distributor, filed a claim against TargetCo on "
        "2024-05-14 before the Regional Court Munich (Landgericht München I). It seeks damages "
        "of EUR 1.2 million for the alleged wrongful termination of its distribution agreement "
        "in 2023. TargetCo disputes the claim. The outcome is uncertain; no provision has been "
        "recognised. The first oral hearing is scheduled for 12 December 2024."
    )

    document.add_heading("Material Contracts", level=1)
    document.add_paragraph(
        "Master subscription agreement with Globex AG, signed 1 March 2021 and renewed in 2023, "
        "running until 28 February 2027. Globex AG is TargetCo's largest customer. The agreement "
        "contains a change-of-control clause: on a change of control of TargetCo, Globex AG may "
        "terminate the agreement with 90 days' notice."
    )
    document.add_paragraph(
        "Subscription agreements with Initech (until 31 December 2025) and Umbrella Retail "
        "(until 30 June 2026) contain no change-of-control provisions."
    )

    document.add_heading("Financing", level=1)
    document.add_paragraph(
        "Term loan of EUR 4.0 million from Isartal Bank AG, drawn in July 2022 and "
        "maturing on 30 June 2027, interest at EURIBOR plus 2.75%. Financial covenant: the "
        "leverage ratio (net debt / EBITDA) must not exceed 3.0x, tested quarterly. The company "
        "has complied with the covenant at every test date."
    )

    document.add_heading("IP", level=1)
    document.add_paragraph(
        "TargetCo owns the EU trade mark TARGETCO (EUIPO) and the source code of its platform, "
        "which is developed in house. It holds no patents. Open-source components are tracked "
        "in a software bill of materials."
    )

    document.add_heading("Key contracts", level=1)
    _table(document, [
        ["Counterparty", "Contract", "Term", "Change of control"],
        ["Globex AG", "Master subscription agreement", "until 28 Feb 2027",
         "Yes: Globex AG may terminate"],
        ["Initech", "Subscription agreement", "until 31 Dec 2025", "No"],
        ["Umbrella Retail", "Subscription agreement", "until 30 Jun 2026", "No"],
        ["Isartal Bank AG", "Term loan EUR 4.0 million", "until 30 Jun 2027", "No"],
        ["Vertex Distribution GmbH", "Distribution agreement (terminated 2023)", "terminated",
         "n/a (in litigation)"],
    ])
    save_office_file(document, path, issued=date(2024, 9, 30), author=AUTHOR,
                     title="TargetCo GmbH — Legal Summary")
    return path
