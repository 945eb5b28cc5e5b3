"""What kind of document a file is, which decides how much its statements are worth.

An audited annual report outranks a management presentation, which outranks meeting minutes; a
draft is worth less than a final version, and the IRL (information request list) is the checklist
the gaps command measures coverage against rather than a source of facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

from manda.ingest.roles import classify_role
from manda.models import DocumentRole, ParsedDocument

__all__ = ["DocumentKind", "DocumentProfile", "classify_document"]

DocumentKind = Literal[
    "annual_report", "quarterly_report", "financials", "presentation", "forecast", "cap_table",
    "legal", "irl", "minutes", "other",
]


@dataclass(frozen=True)
class DocumentProfile:
    """How the ingest pipeline should treat a document."""

    authoritative: bool
    draft: bool
    is_irl: bool
    kind: DocumentKind
    certified: bool = False  # its opening says it is audited, signed or final
    role: DocumentRole = DocumentRole.OTHER

    @property
    def is_forecast(self) -> bool:
        return self.kind == "forecast"


_SEP = r"[\s_\-.]*"


def _words(*phrases: str) -> re.Pattern[str]:
    joined = "|".join(_SEP.join(re.escape(w) for w in p.split()) for p in phrases)
    return re.compile(rf"(?<![a-z])(?:{joined})(?![a-z])", re.IGNORECASE)


# Checked in order: the first kind whose words appear in the name (then the title) wins.
_KINDS: list[tuple[DocumentKind, re.Pattern[str]]] = [
    ("irl", _words(
        "irl", "information request list", "information request", "request list",
        "document request list", "due diligence request list", "dd request list",
    )),
    ("cap_table", _words(
        "cap table", "captable", "capitalisation table", "capitalization table",
        "shareholder register", "shareholders register", "share register", "shareholder list",
        "shareholding", "shareholdings",
    )),
    ("minutes", _words(
        "minutes", "board meeting", "meeting notes", "call notes", "notes", "protokoll",
    )),
    ("forecast", _words(
        "forecast", "budget", "business plan", "projection", "projections", "outlook", "plan",
        "financial model", "model",
    )),
    ("annual_report", _words(
        "annual report", "annual accounts", "annual financial statements", "financial statements",
        "audited accounts", "audited", "jahresabschluss", "geschäftsbericht", "statutory accounts",
    )),
    ("quarterly_report", _words(
        "quarterly report", "quarterly", "interim report", "interim statements", "q1 report",
        "q2 report", "q3 report", "q4 report", "half year report", "half-year report",
        "monthly report", "management accounts",
    )),
    ("financials", _words(
        "p&l", "pnl", "p l", "profit and loss", "income statement", "balance sheet",
        "financials", "financial data", "kpis", "kpi", "trial balance", "cash flow statement",
    )),
    ("presentation", _words(
        "management presentation", "presentation", "deck", "teaser", "cim",
        "information memorandum", "pitch", "investor presentation", "slides",
    )),
    ("legal", _words(
        "legal", "litigation", "contract", "contracts", "agreement", "agreements", "spa", "sha",
        "nda", "legal due diligence", "ldd", "disputes", "claims", "material contracts",
    )),
]
_QUARTER_IN_NAME = re.compile(r"(?<![a-z0-9])(?:q[1-4]|[1-4]q|h[12])[\s_\-.]*(?:19|20)?\d{2}",
                              re.IGNORECASE)
_FY_IN_NAME = re.compile(r"(?<![a-z0-9])(?:fy|ar)[\s_\-.]*(?:19|20)?\d{2}", re.IGNORECASE)
_DRAFT_NAME = re.compile(
    r"(?<![a-z])(?:draft|entwurf|wip|preliminary|prelim|v0(?:[._]\d+)?)(?![a-z])", re.IGNORECASE
)
_DRAFT_TEXT = re.compile(r"\b(?:DRAFT|ENTWURF)\b|\b[Dd]raft\s+(?:version|for\s+discussion)\b"
                         r"|\b[Pp]reliminary\s+and\s+subject\s+to\s+change\b")
_AUDITED = re.compile(r"\baudited\b|\bauditor'?s'?\s+report\b|\bindependent\s+auditor",
                      re.IGNORECASE)
_AUTHORITATIVE: frozenset[DocumentKind] = frozenset(
    {"annual_report", "quarterly_report", "financials", "cap_table"}
)
_CERTIFIED = re.compile(
    r"\baudited\b|\bauditor'?s'?\s+(?:report|opinion)\b|\bindependent\s+auditor"
    r"|\b(?:signed|executed)\s+(?:by|on|for)\b|\bsignature\b"
    r"|\bfinal\s+(?:version|accounts|statements|report)\b|\bapproved\s+by\s+the\s+board\b",
    re.IGNORECASE,
)
_BY_TYPE: dict[str, DocumentKind] = {"pptx": "presentation", "ppt": "presentation"}
# When the name says nothing, the role read from the content decides the kind.
_KIND_OF_ROLE: dict[DocumentRole, DocumentKind] = {
    DocumentRole.AUDITED_STATEMENTS: "annual_report",
    DocumentRole.MANAGEMENT_ACCOUNTS: "financials",
    DocumentRole.BUDGET_FORECAST: "forecast",
    DocumentRole.CAP_TABLE: "cap_table",
    DocumentRole.LEGAL_MEMO: "legal",
    DocumentRole.CONTRACT: "legal",
    DocumentRole.IRL: "irl",
    DocumentRole.PRESENTATION: "presentation",
    DocumentRole.BOARD_MINUTES: "minutes",
}


def _kind_from(text: str) -> DocumentKind | None:
    for kind, pattern in _KINDS:
        if pattern.search(text):
            return kind
    return None


def _opening(parsed: ParsedDocument, limit: int = 1500) -> str:
    text = "\n".join(s.text for s in parsed.sections[:2])
    return text[:limit]


def classify_document(filename: str, parsed: ParsedDocument) -> DocumentProfile:
    """Kind, authority, draft status and role from the file's name, title and content.

    The role is read from the content (see `manda.ingest.roles`). The kind, which weighs a
    statement's authority, still trusts a telling name first (`Q3_2024_Report.pdf`); when the
    name says nothing, the title, the file type and then the role decide.
    """
    stem = PurePath(filename).stem
    opening = _opening(parsed)
    kind = _kind_from(stem) or _kind_from(parsed.title or "")
    if kind is None and _QUARTER_IN_NAME.search(stem):
        kind = "quarterly_report"
    if kind is None and _FY_IN_NAME.search(stem) and "report" in stem.lower():
        kind = "annual_report"
    if kind is None:
        kind = _BY_TYPE.get(parsed.file_type.lower().lstrip("."))
    role = classify_role(filename, parsed).role
    if kind is None:
        kind = _KIND_OF_ROLE.get(role)
    if kind is None:
        first_line = opening.strip().split("\n", 1)[0] if opening.strip() else ""
        kind = _kind_from(first_line) or "other"
    if kind == "quarterly_report" and _AUDITED.search(opening):
        kind = "annual_report" if not _QUARTER_IN_NAME.search(stem) else kind
    draft = bool(_DRAFT_NAME.search(stem) or _DRAFT_TEXT.search(opening)
                 or (parsed.title and _DRAFT_NAME.search(parsed.title)))
    return DocumentProfile(
        authoritative=kind in _AUTHORITATIVE and not draft,
        draft=draft,
        is_irl=kind == "irl" or role is DocumentRole.IRL,
        kind=kind,
        certified=bool(_CERTIFIED.search(opening)) and not draft,
        role=role,
    )
