"""TargetCo's PDF filings: three quarterly reports, the 2023 annual report and its correction."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from reportlab.platypus import Table

from manda.sample._pdf import Page, PdfMeta, bullets, para, spacer, table, write_pdf
from manda.sample.facts import TARGETCO_COMPANY
from manda.sample.targetco_figures import (
    ASSET_LINES,
    BALANCE_SHEET,
    FY2022,
    FY2023,
    FY2023_EBITDA_AS_FIRST_REPORTED,
    HEADCOUNT,
    LIABILITY_LINES,
    QUARTERS,
    PnL,
    equity,
    total,
)

COMPANY = TARGETCO_COMPANY
AUDITOR = "Kessler Hartmann Audit GmbH"
# Real filings are often locked for editing but open to anyone; the owner password is public
# sample data.
OWNER_PASSWORD = "targetco-finance-2024"


def write_reports(folder: Path) -> list[Path]:
    """Write every TargetCo PDF into `folder` and return their paths."""
    return [
        _q1_report(folder / "TargetCo_Q1_2024_Report.pdf"),
        _q2_report(folder / "TargetCo_Q2_2024_Report.pdf"),
        _q3_report(folder / "TargetCo_Q3_2024_Report.pdf"),
        _annual_report(folder / "TargetCo_Annual_Report_2023.pdf", corrected=False),
        _annual_report(folder / "TargetCo_Annual_Report_2023_CORRECTED.pdf", corrected=True),
    ]


# ---------------------------------------------------------------- shared building blocks


def _k(value: int) -> str:
    return f"{value:,}"


def _cost(value: int) -> str:
    return f"({value:,})" if value else "–"


def _income_statement(columns: list[tuple[str, PnL]], *,
                      ebitda_shown: dict[str, int] | None = None) -> list[list[str]]:
    """Rows of an income statement; `ebitda_shown` overrides a printed EBITDA subtotal."""
    shown = ebitda_shown or {}
    labels = [label for label, _ in columns]
    periods = [pnl for _, pnl in columns]
    rows = [
        ["EUR thousands", *labels],
        ["Revenue", *(_k(p.revenue) for p in periods)],
        ["Cost of sales", *(_cost(p.cost_of_sales) for p in periods)],
        ["Gross profit", *(_k(p.gross_profit) for p in periods)],
        ["Operating expenses", *(_cost(p.opex) for p in periods)],
    ]
    if any(p.restructuring for p in periods):
        rows.append(["Restructuring charge (one-time)",
                     *(_cost(p.restructuring) for p in periods)])
    rows += [
        ["EBITDA", *(_k(shown.get(label, p.ebitda)) for label, p in columns)],
        ["Depreciation and amortisation", *(_cost(p.depreciation) for p in periods)],
        ["EBIT", *(_k(p.ebit) for p in periods)],
        ["Net finance cost", *(_cost(p.net_finance) for p in periods)],
        ["Profit before tax", *(_k(p.pretax) for p in periods)],
        ["Income tax", *(_cost(p.tax) for p in periods)],
        ["Net income", *(_k(p.net_income) for p in periods)],
    ]
    return rows


def _statement_table(rows: list[list[str]]) -> Table:
    bold = [i for i, row in enumerate(rows) if row[0] in ("Gross profit", "EBITDA", "Net income")]
    widths = [62] + [27] * (len(rows[0]) - 1)
    return table(rows, widths, bold_rows=bold)


def _cover(title: str, period: str, issued: date, review_line: str) -> Page:
    return [
        para(COMPANY, "Title"),
        para(title, "Heading1"),
        para(period),
        para(f"Date: {issued.day} {issued:%B %Y}"),
        para(review_line, "Small"),
        spacer(),
    ]


def _headcount_rows(column: int, as_of: str) -> list[list[str]]:
    rows = [["Department", f"Headcount at {as_of}"]]
    rows += [[dept, str(counts[column])] for dept, counts in HEADCOUNT.items()]
    rows.append(["Total", str(sum(counts[column] for counts in HEADCOUNT.values()))])
    return rows


def _meta(title: str, issued: date) -> PdfMeta:
    return PdfMeta(title=f"{COMPANY} — {title}", author=f"{COMPANY}, Finance",
                   subject=title, issued=issued, footer=f"{COMPANY} — {title} — confidential")


_REVIEWED = (f"The interim figures in this report have been reviewed (not audited) by our "
             f"auditor, {AUDITOR}.")


# ---------------------------------------------------------------- quarterly reports


def _q1_report(path: Path) -> Path:
    issued = date(2024, 5, 10)
    q1, q1_prior = QUARTERS["Q1 2024"], QUARTERS["Q1 2023"]
    pages: list[Page] = [
        [
            *_cover("Quarterly Report Q1 2024", "Quarter ended 31 March 2024", issued, _REVIEWED),
            para("Highlights", "Heading2"),
            *bullets([
                "Revenue of €4.6M (Q1 2023: €4.3M), up 7.0% year on year.",
                "EBITDA of €0.8M (Q1 2023: €0.65M), an EBITDA margin of 17.4%.",
                "Gross margin of 70%, unchanged on the prior year.",
                "Headcount of 146 as of 31 March 2024.",
                "Two new enterprise customers signed in the manufacturing segment.",
            ]),
        ],
        [
            para("Income statement", "Heading2"),
            para("EUR thousands, reviewed.", "Small"),
            _statement_table(_income_statement([("Q1 2024", q1), ("Q1 2023", q1_prior)])),
            spacer(),
            para(f"Revenue for the quarter was EUR {_k(q1.revenue)}k (Q1 2023: EUR "
                 f"{_k(q1_prior.revenue)}k), driven by subscription growth with existing "
                 "customers."),
        ],
        [
            para("Operations, headcount and outlook", "Heading2"),
            para("Operations", "Heading3"),
            para("The platform release 7.2 shipped in February 2024. Customer support moved to "
                 "a follow-the-sun model between Munich and the Leipzig support office."),
            para("Headcount", "Heading3"),
            para("Headcount was 146 as of 31 March 2024 (31 December 2023: 142)."),
            para("Outlook", "Heading3"),
            para("Management expects revenue growth of 10–12% for FY2024."),
        ],
    ]
    write_pdf(path, pages, _meta("Quarterly Report Q1 2024", issued))
    return path


def _q2_report(path: Path) -> Path:
    issued = date(2024, 8, 9)
    q2, q2_prior = QUARTERS["Q2 2024"], QUARTERS["Q2 2023"]
    h1 = total(QUARTERS["Q1 2024"], q2)
    h1_prior = total(QUARTERS["Q1 2023"], q2_prior)
    pages: list[Page] = [
        [
            *_cover("Quarterly Report Q2 2024", "Quarter ended 30 June 2024", issued, _REVIEWED),
            para("Highlights", "Heading2"),
            *bullets([
                "Revenue of EUR 4.9 million (Q2 2023: EUR 4.5 million), up 8.9% year on year.",
                "EBITDA of EUR 0.6 million (Q2 2023: EUR 0.7 million), after a one-time "
                "restructuring charge of €0.4M.",
                "Adjusted EBITDA, excluding the non-recurring restructuring charge, was "
                "EUR 1.0 million.",
                "Gross margin of 70%.",
                "Headcount of 148 as of 30 June 2024.",
            ]),
            para("The restructuring charge of €0.4M is one-time and non-recurring: it covers "
                 "the consolidation of the Leipzig support office into Munich (severance, "
                 "lease exit). No further charges are expected."),
        ],
        [
            para("Income statement", "Heading2"),
            para("EUR thousands, reviewed.", "Small"),
            _statement_table(_income_statement(
                [("Q2 2024", q2), ("Q2 2023", q2_prior), ("H1 2024", h1), ("H1 2023", h1_prior)]
            )),
            spacer(),
            para(f"Revenue for the quarter was EUR {_k(q2.revenue)}k. The restructuring charge "
                 f"of EUR {_k(q2.restructuring)}k is shown separately because it is "
                 "non-recurring."),
        ],
        [
            para("Operations, headcount and outlook", "Heading2"),
            para("Operations", "Heading3"),
            para("The Leipzig support office was consolidated into Munich; the move completes "
                 "in July 2024. Support response times were unaffected."),
            para("Headcount", "Heading3"),
            para("Headcount was 148 as of 30 June 2024 (31 March 2024: 146)."),
            para("Outlook", "Heading3"),
            para("Management confirms expected revenue growth of 10–12% for FY2024."),
        ],
    ]
    write_pdf(path, pages, _meta("Quarterly Report Q2 2024", issued))
    return path


def _q3_report(path: Path) -> Path:
    issued = date(2024, 10, 15)
    q3, q3_prior = QUARTERS["Q3 2024"], QUARTERS["Q3 2023"]
    nine = total(QUARTERS["Q1 2024"], QUARTERS["Q2 2024"], q3)
    nine_prior = total(QUARTERS["Q1 2023"], QUARTERS["Q2 2023"], q3_prior)
    pages: list[Page] = [
        [
            *_cover("Quarterly Report Q3 2024", "Quarter ended 30 September 2024", issued,
                    _REVIEWED),
            para("Highlights", "Heading2"),
            *bullets([
                "Revenue of €5.2M (Q3 2023: €4.7M), up 10.6% year on year.",
                "EBITDA of €1.1M (Q3 2023: €0.75M), an EBITDA margin of 21.2%.",
                "Gross margin of 71% (Q3 2023: 70%).",
                "Headcount of 156 as of 30 September 2024.",
                "Cash of €6.8M and bank debt of €4.0M as of 30 September 2024 (net cash €2.8M).",
            ]),
        ],
        [
            para("Income statement", "Heading2"),
            para("EUR thousands, reviewed.", "Small"),
            _statement_table(_income_statement([
                ("Q3 2024", q3), ("Q3 2023", q3_prior), ("9M 2024", nine), ("9M 2023", nine_prior)
            ])),
            spacer(),
            para(f"Revenue for the quarter was EUR {_k(q3.revenue)}k (Q3 2023: EUR "
                 f"{_k(q3_prior.revenue)}k). Gross profit was EUR {_k(q3.gross_profit)}k, a gross "
                 "margin of 71%."),
        ],
        [
            para("Operations, headcount and outlook", "Heading2"),
            para("Operations", "Heading3"),
            para("The consolidation of the Leipzig support office was completed in July 2024. "
                 "No further restructuring charges are expected."),
            para("Headcount", "Heading3"),
            para("Headcount was 156 as of 30 September 2024."),
            table(_headcount_rows(1, "30 Sep 2024"), [70, 45], bold_rows=[len(HEADCOUNT) + 1]),
            spacer(),
            para("Outlook", "Heading3"),
            para("For FY2024, management expects revenue of €20.0M–€20.5M and EBITDA of "
                 "€3.6M–€3.9M."),
        ],
    ]
    write_pdf(path, pages, _meta("Quarterly Report Q3 2024", issued),
              owner_password=OWNER_PASSWORD)
    return path


# ---------------------------------------------------------------- annual report


def _annual_report(path: Path, *, corrected: bool) -> Path:
    issued = date(2024, 4, 15) if corrected else date(2024, 3, 20)
    title = "Annual Report 2023 (Corrected)" if corrected else "Annual Report 2023"
    ebitda_millions = "2.9" if corrected else "3.1"
    printed_ebitda = FY2023.ebitda if corrected else FY2023_EBITDA_AS_FIRST_REPORTED
    correction: Page = [
        para("<b>Corrected version.</b> This corrected version replaces the report dated "
             "20 March 2024. FY2023 EBITDA was misstated as EUR 3.1 million; the correct "
             "figure is EUR 2.9 million. All other figures are unchanged.", "Notice"),
    ] if corrected else []
    pages: list[Page] = [
        [
            *_cover(title, "Financial year ended 31 December 2023", issued,
                    f"The consolidated financial statements were audited by {AUDITOR}."),
            *correction,
            para("Highlights", "Heading2"),
            *bullets([
                "Revenue of EUR 18.4 million (FY2022: EUR 15.6 million), up 17.9%.",
                f"EBITDA of EUR {ebitda_millions} million (FY2022: EUR 2.3 million).",
                "Net income of EUR 1.7 million (FY2022: EUR 1.2 million).",
                "Headcount of 142 as of 31 December 2023.",
                "Cash of EUR 5.9 million and bank debt of EUR 4.0 million at year end.",
            ]),
            para(f"Auditor: {AUDITOR}, Munich (unqualified opinion)."),
        ],
        [
            para("Income statement", "Heading2"),
            para("EUR thousands, audited.", "Small"),
            _statement_table(_income_statement(
                [("FY2023", FY2023), ("FY2022", FY2022)],
                ebitda_shown={"FY2023": printed_ebitda},
            )),
            spacer(),
            para(f"Revenue grew to EUR {_k(FY2023.revenue)}k, with quarterly revenue of "
                 f"EUR 4,300k, 4,500k, 4,700k and 4,900k."),
        ],
        [
            para("Balance sheet and headcount", "Heading2"),
            para("EUR thousands, audited.", "Small"),
            table(_balance_rows(), [80, 35, 35],
                  bold_rows=[len(ASSET_LINES) + 1, len(ASSET_LINES) + len(LIABILITY_LINES) + 3]),
            spacer(),
            para("Headcount was 142 as of 31 December 2023."),
            table(_headcount_rows(0, "31 Dec 2023"), [70, 45], bold_rows=[len(HEADCOUNT) + 1]),
        ],
        [
            para("Independent auditor's report", "Heading2"),
            para(f"{AUDITOR} Wirtschaftsprüfungsgesellschaft, Munich, audited the consolidated "
                 "financial statements of TargetCo GmbH for the financial year ended "
                 "31 December 2023 and issued an unqualified opinion on 18 March 2024."),
            para("Outlook", "Heading2"),
            para("For FY2024 management expects revenue growth of 10–12% and a stable gross "
                 "margin of around 70%."),
        ],
    ]
    write_pdf(path, pages, _meta(title, issued))
    return path


def _balance_rows() -> list[list[str]]:
    rows = [["EUR thousands", "31 Dec 2023", "31 Dec 2022"]]
    rows += [[line, _k(BALANCE_SHEET[line][1]), _k(BALANCE_SHEET[line][0])] for line in ASSET_LINES]
    rows.append(["Total assets", *(_k(sum(BALANCE_SHEET[line][c] for line in ASSET_LINES))
                                   for c in (1, 0))])
    rows.append(["Equity", _k(equity(1)), _k(equity(0))])
    rows += [[line, _k(BALANCE_SHEET[line][1]), _k(BALANCE_SHEET[line][0])]
             for line in LIABILITY_LINES]
    rows.append(["Total equity and liabilities",
                 *(_k(equity(c) + sum(BALANCE_SHEET[line][c] for line in LIABILITY_LINES))
                   for c in (1, 0))])
    return rows
