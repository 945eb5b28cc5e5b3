"""The deal team's metric names: one canonical subject per metric, with the synonyms documents use.

"Sales", "turnover" and "net revenue" are all `revenue`; the answering agent and the extractors
both call `canonical_subject`, so a question and a finding meet on the same key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

__all__ = ["METRICS", "MetricSpec", "canonical_subject", "find_subjects", "metric_spec"]

UnitKind = Literal["currency", "percent", "count", "ratio"]


@dataclass(frozen=True)
class MetricSpec:
    """A metric: its canonical subject, how to name it, what kind of number it takes."""

    subject: str
    label: str
    unit_kind: UnitKind
    synonyms: tuple[str, ...]
    family: str = ""  # related subjects share a family: "ebitda" and "adjusted ebitda"
    stock: bool = False  # a balance at a date (cash, headcount), not a flow over a period
    cost: bool = False  # stated as a positive amount even where a P&L shows it as (1,508)

    @property
    def group(self) -> str:
        return self.family or self.subject


METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("revenue", "Revenue", "currency", (
        "revenue", "revenues", "sales", "net sales", "turnover", "net revenue", "net revenues",
        "total revenue", "total revenues", "top line", "top-line", "umsatz", "umsatzerlöse",
    )),
    MetricSpec("revenue growth", "Revenue growth", "percent", (
        "revenue growth", "sales growth", "growth in revenue", "top-line growth", "yoy growth",
        "year-over-year growth",
    ), family="revenue"),
    MetricSpec("arr", "ARR", "currency", (
        "arr", "annual recurring revenue", "annualised recurring revenue",
        "annualized recurring revenue", "recurring revenue",
    ), stock=True),
    MetricSpec("mrr", "MRR", "currency", ("mrr", "monthly recurring revenue")),
    MetricSpec("cost of sales", "Cost of sales", "currency", (
        "cost of sales", "cost of revenue", "cost of revenues", "cost of goods sold", "cogs",
    ), cost=True),
    MetricSpec("gross profit", "Gross profit", "currency", ("gross profit", "gross income",
                                                            "rohertrag", "rohergebnis")),
    MetricSpec("gross margin", "Gross margin", "percent", (
        "gross margin", "gross profit margin", "gross margin %",
    )),
    MetricSpec("ebitda", "EBITDA", "currency", ("ebitda", "reported ebitda"), family="ebitda"),
    MetricSpec("adjusted ebitda", "Adjusted EBITDA", "currency", (
        "adjusted ebitda", "adj. ebitda", "adj ebitda", "normalised ebitda", "normalized ebitda",
        "underlying ebitda", "pro forma ebitda", "pro-forma ebitda",
    ), family="ebitda"),
    MetricSpec("ebitda margin", "EBITDA margin", "percent", (
        "ebitda margin", "adjusted ebitda margin", "adj. ebitda margin", "ebitda margin %",
    ), family="ebitda"),
    MetricSpec("ebit", "EBIT", "currency", ("ebit", "operating profit", "operating income",
                                           "betriebsergebnis", "operatives ergebnis")),
    MetricSpec("net income", "Net income", "currency", (
        "net income", "net profit", "net earnings", "profit after tax", "net loss",
        "profit for the year", "profit for the period", "jahresüberschuss",
        "profit for the financial year", "loss for the financial year", "profit after taxation",
        "jahresfehlbetrag",
    )),
    MetricSpec("operating expenses", "Operating expenses", "currency", (
        "operating expenses", "opex", "operating costs",
    ), cost=True),
    MetricSpec("personnel costs", "Personnel costs", "currency", (
        "personnel costs", "personnel expenses", "employee costs", "employee expenses",
        "staff costs", "wages and salaries", "payroll", "personalaufwand", "personalkosten",
    ), cost=True),
    MetricSpec("sales and marketing", "Sales and marketing expenses", "currency", (
        "sales and marketing", "sales & marketing", "s&m",
    ), cost=True),
    MetricSpec("operating cash flow", "Operating cash flow", "currency", (
        "operating cash flow", "cash flow from operations", "cash flow from operating activities",
        "cash flow",
    )),
    MetricSpec("free cash flow", "Free cash flow", "currency", ("free cash flow", "fcf")),
    MetricSpec("cash", "Cash", "currency", (
        "cash", "cash and cash equivalents", "cash balance", "cash position", "cash at bank",
        "liquid funds", "liquide mittel", "kassenbestand", "flüssige mittel",
    ), stock=True),
    MetricSpec("net cash", "Net cash", "currency", ("net cash", "net cash position"),
               family="debt", stock=True),
    MetricSpec("debt", "Debt", "currency", (
        "debt", "total debt", "gross debt", "financial debt", "borrowings", "bank loans",
        "financial liabilities", "term loan", "term loans", "bank debt", "loan",
        "verbindlichkeiten gegenüber kreditinstituten", "bankverbindlichkeiten",
        "finanzverbindlichkeiten",
    ), family="debt", stock=True),
    # A facility's size and what is left undrawn are not debt (`manda.finance.facilities`).
    MetricSpec("facility limit", "Facility limit", "currency", (
        "facility limit", "facility limits", "facility size", "credit limit", "borrowing limit",
        "revolving credit facility limit", "revolving facility limit", "revolver limit",
        "revolver commitment", "revolving commitment", "revolving commitments",
    ), family="facility", stock=True),
    MetricSpec("facility headroom", "Facility headroom", "currency", (
        "facility headroom", "undrawn facilities", "undrawn facility", "undrawn commitments",
        "revolver availability", "undrawn revolver", "revolver headroom",
    ), family="facility", stock=True),
    # What is drawn under a revolving facility: debt, but a line of its own that lenders,
    # balance sheets and management packs state apart from the term loan.
    MetricSpec("revolver", "Revolver drawn", "currency", (
        "revolver", "revolver drawn", "drawn on the revolver", "revolving credit facility",
        "revolving facility", "revolving loans", "revolving credit", "rcf", "rcf drawn",
        "working capital line", "working-capital line", "working capital facility",
        "betriebsmittellinie", "betriebsmittelkredit", "betriebsmittelkreditlinie",
    ), family="debt", stock=True, cost=True),  # a net-debt table shows it as (500)
    # a credit agreement's wording: "Consolidated Total Debt less unrestricted cash of $25.9m"
    MetricSpec("net debt", "Net debt", "currency", (
        "net debt", "net financial debt", "nettofinanzverschuldung", "nettofinanzverbindlichkeiten",
        "net financial indebtedness", *(
            f"{debt} {less} {cash}" for debt in ("debt", "total debt", "funded debt")
            for less in ("less", "minus", "net of")
            for cash in ("cash", "unrestricted cash", "cash and cash equivalents"))),
        family="debt", stock=True),
    MetricSpec("leverage", "Leverage", "ratio", (
        "leverage", "net debt / ebitda", "net debt/ebitda", "net debt to ebitda", "leverage ratio",
    ), family="debt"),
    MetricSpec("capex", "Capex", "currency", (
        "capex", "capital expenditure", "capital expenditures", "investments in fixed assets",
    ), cost=True),
    MetricSpec("working capital", "Working capital", "currency", (
        "working capital", "net working capital", "nwc",
    ), stock=True),
    MetricSpec("deferred revenue", "Deferred revenue", "currency", (
        "deferred revenue", "deferred revenues", "deferred income", "contract liabilities",
    ), stock=True),
    # "Deferred income taxes" is a tax balance, not deferred (unearned) income.
    MetricSpec("deferred tax", "Deferred tax", "currency", (
        "deferred tax", "deferred taxes", "deferred income taxes", "deferred income tax",
        "deferred tax liabilities", "deferred tax liability",
    ), stock=True),
    MetricSpec("backlog", "Order backlog", "currency", (
        "backlog", "order backlog", "order book",
    ), stock=True),
    MetricSpec("one-time charges", "One-time charges", "currency", (
        "one-time charges", "one-time charge", "one-time costs", "one-time cost", "one-time",
        "one-off", "one-off costs", "one-off charges", "non-recurring", "non-recurring items",
        "non-recurring charges", "non-recurring costs", "exceptional items", "exceptional costs",
        "restructuring costs", "restructuring charges", "restructuring charge", "extraordinary",
    ), cost=True),
    MetricSpec("headcount", "Headcount", "count", (
        "headcount", "head count", "employees", "employee", "fte", "ftes", "full-time employees",
        "full-time equivalents", "staff", "workforce", "number of employees", "mitarbeiter",
        # how a deal team asks it
        "people employed", "persons employed", "how many people work",
        "do they employ", "does it employ", "does the company employ", "does the business employ",
        "beschäftigte", "anzahl der mitarbeiter",
    ), stock=True),
    MetricSpec("churn", "Churn", "percent", (
        "churn", "churn rate", "customer churn", "logo churn", "gross churn", "revenue churn",
        "gross revenue churn", "attrition",
    )),
    MetricSpec("net revenue retention", "Net revenue retention", "percent", (
        "net revenue retention", "nrr", "net dollar retention", "ndr", "net retention",
        "net retention rate",
    )),
    MetricSpec("customer concentration", "Customer concentration", "percent", (
        "customer concentration", "largest customer", "top customer", "biggest customer",
        "top 10 customers", "top-10 customers", "top ten customers", "top 5 customers",
        "top-5 customers", "top five customers", "concentration",
    )),
    MetricSpec("customers", "Number of customers", "count", (
        "number of customers", "customer count", "customers", "active customers", "clients",
    ), stock=True),
)

_BY_SUBJECT = {m.subject: m for m in METRICS}


def metric_spec(subject: str) -> MetricSpec | None:
    """The spec of a canonical subject ("revenue" → Revenue, currency)."""
    return _BY_SUBJECT.get(subject)


def _phrase_pattern(phrase: str) -> str:
    parts = [re.escape(p) for p in re.split(r"[\s\-]+", phrase)]
    return r"[\s\-]+".join(parts)


@cache
def _matcher() -> re.Pattern[str]:
    pairs = sorted(
        ((syn, m.subject) for m in METRICS for syn in m.synonyms), key=lambda p: -len(p[0])
    )
    alternatives = "|".join(_phrase_pattern(syn) for syn, _ in pairs)
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])", re.IGNORECASE)


@cache
def _synonym_index() -> dict[str, str]:
    return {
        " ".join(re.split(r"[\s\-]+", syn.lower())): m.subject
        for m in METRICS for syn in m.synonyms
    }


def find_subjects(text: str) -> list[tuple[str, int, int]]:
    """Every metric named in `text`: (canonical subject, start, end), longest name first wins."""
    out: list[tuple[str, int, int]] = []
    index = _synonym_index()
    for m in _matcher().finditer(text):
        key = " ".join(re.split(r"[\s\-]+", m.group(0).lower()))
        subject = index.get(key)
        if subject is not None:
            out.append((subject, m.start(), m.end()))
    return out


def canonical_subject(text: str) -> str | None:
    """The canonical metric a text names: "Net sales" → "revenue", "Adj. EBITDA" → "adjusted
    ebitda".

    The longest synonym wins ("net revenue retention" over "net revenue", "cost of sales" over
    "sales"); None if the text names no known metric.
    """
    found = find_subjects(text)
    if not found:
        return None
    return max(found, key=lambda t: (t[2] - t[1], -t[1]))[0]
