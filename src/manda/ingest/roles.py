"""What a document is to a deal team (audited statements, cap table, IRL …), read from its content.

Data rooms are named by whoever uploads them (`Doc_017.pdf`, `1.3.2 Gesellschafterliste.xlsx`), so
the role is read from what the document says and how it is built: its headings and first lines,
the header cells of its tables, its vocabulary ("we have audited", "RESOLVED that", "Subject:"),
and its structure (an e-mail header block, a table of people with salary columns). The file name
counts only as a weak tie-breaker. Each signal is a weighted, capped count, so one stray word never
decides a role and a document that is clearly two things goes to the stronger one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePath

from manda.ingest.parsers.layout import table_shape
from manda.models import DocumentRole, ParsedDocument

__all__ = ["RoleVerdict", "classify_role", "header_cells"]

R = DocumentRole

TEXT_LIMIT = 40_000  # characters of body read per document; the opening decides most roles
MIN_SCORE = 3.0  # below this nothing is confident enough: the role stays `other`
FILENAME_WEIGHT = 1.5  # a name alone never reaches MIN_SCORE


def _rx(*phrases: str) -> re.Pattern[str]:
    """Phrases as one case-insensitive pattern; spaces match any run of spaces or dashes."""
    parts = [r"[\s\-_]+".join(re.escape(w) for w in p.split()) for p in phrases]
    return re.compile(r"(?<![\w])(?:" + "|".join(parts) + r")(?![\w])", re.IGNORECASE)


@dataclass(frozen=True)
class _Signal:
    """`weight` per occurrence of `pattern`, counted at most `cap` times, in one place."""

    pattern: re.Pattern[str]
    weight: float
    where: str = "text"  # "text", "opening" (title and first lines), "header" (table headers)
    cap: int = 3


def _text(weight: float, *phrases: str, cap: int = 3) -> _Signal:
    return _Signal(_rx(*phrases), weight, "text", cap)


def _opening(weight: float, *phrases: str) -> _Signal:
    return _Signal(_rx(*phrases), weight, "opening", 1)


def _header(weight: float, *phrases: str, cap: int = 3) -> _Signal:
    return _Signal(_rx(*phrases), weight, "header", cap)


# Weights: an opinion or a title that can only mean one role ~4-6; typical vocabulary ~1-2.
_SIGNALS: dict[DocumentRole, list[_Signal]] = {
    R.AUDITED_STATEMENTS: [
        _text(5.0, "independent auditor's report", "independent auditors' report",
              "independent auditor’s report",
              "report of independent registered public accounting firm",
              "we have audited", "bestätigungsvermerk", "true and fair view",
              "present fairly, in all material respects", "in our opinion, the accompanying",
              "in our opinion the financial statements", "audit opinion", cap=2),
        _text(2.5, "audited by", "auditor's report", "auditors' report", "basis for opinion",
              "statutory auditor", "abschlussprüfer", "wirtschaftsprüfer", cap=2),
        _text(1.5, "statement of financial position", "statement of comprehensive income",
              "statement of cash flows", "statements of cash flows",
              "statement of changes in equity",
              "notes to the financial statements", "notes to the consolidated financial statements",
              "consolidated balance sheets", "consolidated statements of operations",
              "gewinn- und verlustrechnung", "jahresabschluss", "konzernabschluss", "anhang",
              "lagebericht", cap=4),
        _opening(2.0, "annual report", "annual accounts", "financial statements",
                 "consolidated financial statements", "statutory accounts", "geschäftsbericht",
                 "jahresabschluss", "report and financial statements"),
        _text(1.0, "year ended", "years ended", "financial year ended", "geschäftsjahr", cap=2),
        _text(1.5, "audited", cap=2),
    ],
    R.MANAGEMENT_ACCOUNTS: [
        _opening(4.0, "management accounts", "management report", "monthly report",
                 "quarterly report",
                 "trading update", "monthly management accounts", "interim report",
                 "monatsbericht", "quartalsbericht", "board pack", "kpi report", "kpi pack",
                 "profit and loss", "p&l", "trial balance", "summen- und saldenliste", "bwa"),
        _text(2.0, "management accounts", "unaudited", "year to date", "ytd", "month end",
              "quarter ended", "three months ended", "monthly results", "actuals", "actual", cap=3),
        _header(2.0, "actual", "actuals", "act", "ytd actual", "ist", "variance", "var",
                "vs budget", "prior year", "debit", "credit", "soll", "haben", cap=2),
        _header(1.0, "revenue", "sales", "gross profit", "ebitda", "net income", "operating profit",
                "cost of sales", "umsatz", "umsatzerlöse", "rohertrag", "turnover", cap=4),
        _text(0.5, "revenue", "ebitda", "gross margin", "gross profit", "turnover", cap=4),
    ],
    R.BUDGET_FORECAST: [
        _opening(4.0, "budget", "forecast", "business plan", "financial plan", "projections",
                 "financial projections", "outlook", "reforecast", "re-forecast", "planung",
                 "financial model", "long range plan", "lrp"),
        _text(1.5, "budget", "forecast", "projected", "projection", "projections", "plan",
              "planned",
              "reforecast", "assumptions", "key assumptions", "planung", "prognose", cap=4),
        _Signal(re.compile(r"(?<![\w])(?:FY)?['’]?(?:19|20)?\d{2}\s?[EBFP](?![\w])"
                           r"|(?<![\w])(?:budget|forecast|plan|fcst|bp)(?![\w])", re.IGNORECASE),
                1.5, "header", 4),
    ],
    R.QOE_REPORT: [
        _text(5.0, "quality of earnings", "qoe", "financial due diligence", "financial dd",
              "ebitda bridge", "earnings bridge", cap=3),
        _opening(3.0, "normalised ebitda", "normalized ebitda", "adjusted ebitda"),
        _text(1.5, "normalised ebitda", "normalized ebitda", "adjusted ebitda", cap=3),
        _text(1.0, "normalisation", "normalization", "adjustments", "adjustment", "one-off",
              "non-recurring", "pro forma", "pro-forma", "run-rate", "reported ebitda",
              "management adjustments", "diligence adjustments", "net debt", "working capital",
              cap=4),
    ],
    R.CAP_TABLE: [
        _opening(4.0, "cap table", "capitalisation table", "capitalization table",
                 "shareholder register", "register of members", "register of shareholders",
                 "shareholders' register", "shareholder list", "gesellschafterliste",
                 "share register", "shareholding structure", "ownership structure"),
        _header(2.5, "shareholder", "shareholders", "holder", "investor", "gesellschafter",
                "member", cap=1),
        _header(2.0, "shares", "no. of shares", "number of shares", "ownership", "% ownership",
                "fully diluted", "stake", "share class", "class", "geschäftsanteile", "anteile",
                "nominal value", "nennbetrag", "beteiligung", cap=3),
        _text(1.0, "fully diluted", "ordinary shares", "preferred shares", "preference shares",
              "esop", "option pool", "series a", "series b", "share capital", "stammkapital",
              cap=3),
    ],
    R.MANAGEMENT_BIOS: [
        _opening(4.0, "management team", "leadership team", "management bios", "biographies",
                 "executive team", "key management", "org chart", "organisation chart",
                 "organization chart", "organigram", "organigramm", "senior management"),
        _text(1.5, "joined", "prior to joining", "previously", "years of experience", "mba",
              "graduated", "holds a degree", "degree in", "reports to", "was appointed",
              "career", "before joining", cap=4),
        _text(1.0, "chief executive officer", "chief financial officer", "chief technology officer",
              "chief operating officer", "managing director", "geschäftsführer", "ceo", "cfo",
              "cto", "coo", cap=4),
    ],
    R.EMPLOYEE_CENSUS: [
        _opening(4.0, "employee census", "employee list", "employee listing", "staff list",
                 "headcount report", "personnel list", "mitarbeiterliste", "hr census",
                 "payroll", "census"),
        _header(2.5, "salary", "base salary", "base pay", "annual salary", "gross salary",
                "compensation", "bonus", "gehalt", "jahresgehalt", "fte", "start date",
                "hire date", "date of hire", "employee id", "employee", "employee name",
                "eintrittsdatum", "notice period", "contract type", "full-time", "part-time",
                cap=4),
        _header(1.0, "title", "job title", "position", "department", "grade", "location",
                "age", "gender", "headcount", "abteilung", cap=3),
    ],
    R.LEGAL_MEMO: [
        _opening(4.0, "legal due diligence", "legal summary", "legal memo", "legal memorandum",
                 "memo", "legal opinion", "litigation summary", "legal report",
                 "red flag report", "rechtliche due diligence"),
        _text(1.5, "litigation", "claim", "claims", "court", "proceedings", "lawsuit", "dispute",
              "counsel", "privileged", "legal", "damages", "arbitration", "landgericht",
              "klage", "change of control", "change-of-control", cap=5),
    ],
    R.CONTRACT: [
        _opening(3.0, "agreement", "contract", "contracts", "material contracts", "key contracts",
                 "customer contracts", "supplier contracts", "vertrag", "verträge"),
        # delivered to the lenders under a facility agreement, read with it (covenant tests)
        _opening(3.0, "compliance certificate", "covenant certificate",
                 "covenant compliance certificate", "covenant-bescheinigung",
                 "covenantbescheinigung"),
        _text(3.0, "this agreement", "by and between", "in witness whereof", "hereinafter",
              "whereas", "entered into as of", "the parties agree", "now, therefore",
              "dieser vertrag", "zwischen", "vertragsparteien", cap=3),
        _text(1.0, "governing law", "termination", "term of this agreement", "shall", "hereby",
              "indemnif", "confidentiality", "force majeure", "signature", cap=5),
    ],
    R.LEASE_SCHEDULE: [
        _opening(4.0, "lease schedule", "schedule of leases", "property schedule", "leases",
                 "real estate", "property portfolio", "mietvertragsübersicht", "mietverträge"),
        _header(2.5, "landlord", "lessor", "tenant", "lease", "lease expiry", "lease end",
                "break date", "break option", "rent", "annual rent", "passing rent",
                "vermieter", "miete", "mietende", cap=3),
        _header(1.0, "premises", "property", "address", "site", "sq ft", "sqft", "m²", "m2",
                "square feet", "area", "expiry", "expiry date", "term", "standort", cap=3),
    ],
    R.IRL: [
        _opening(5.0, "information request list", "request list", "due diligence request",
                 "document request list", "irl", "dd request list", "information request",
                 "anforderungsliste"),
        _header(2.0, "request", "requested", "document requested", "information requested",
                "requested item", "requests", cap=1),
        _header(1.5, "priority", "status", "ref", "reference", "item", "category", "workstream",
                "provided", "date requested", "responsible", "response", "comments", cap=3),
        _text(1.0, "please provide", "copy of", "copies of", "list of", "details of", cap=4),
    ],
    R.PRESENTATION: [
        _opening(4.0, "management presentation", "information memorandum",
                 "confidential information memorandum", "teaser", "investor presentation",
                 "company presentation", "pitch deck", "commercial overview", "business overview",
                 "company overview", "company profile", "unternehmenspräsentation", "cim"),
        _text(1.0, "investment highlights", "key highlights", "highlights", "agenda", "our mission",
              "market opportunity", "the opportunity", "value proposition", "customers",
              "market", "competitive", "growth strategy", "at a glance", "who we are", cap=4),
    ],
    R.BOARD_MINUTES: [
        _opening(5.0, "minutes", "minutes of the board", "board meeting", "minutes of a meeting",
                 "protokoll", "niederschrift", "sitzung des aufsichtsrats", "board resolution",
                 "written resolution"),
        _text(2.0, "resolved", "it was resolved", "the board", "quorum", "quorate", "chair",
              "chairman", "apologies", "present:", "in attendance", "meeting closed",
              "the meeting", "beschluss", "beschlossen", "aufsichtsrat", "tagesordnung",
              "agenda item", "unanimously", "general meeting", "shareholders' meeting",
              "gesellschafterversammlung", "beschließt", "einstimmig", "anwesend", cap=4),
    ],
    R.CORRESPONDENCE: [
        _Signal(re.compile(r"^\s*(?:from|to|cc|bcc|sent|subject|von|an|betreff|gesendet)\s*:",
                           re.IGNORECASE | re.MULTILINE), 1.5, "text", 6),
        _Signal(re.compile(r"^\s*(?:re|aw|fw|fwd|wg)\s*:", re.IGNORECASE | re.MULTILINE),
                1.5, "text", 3),
        _text(1.0, "dear", "kind regards", "best regards", "regards", "sincerely",
              "mit freundlichen grüßen", "viele grüße", "hi all", "thanks", "original message",
              cap=4),
        _Signal(re.compile(r"\bwrote:|\bschrieb:|-----\s*original message", re.IGNORECASE),
                2.5, "text", 2),
        _Signal(re.compile(r"^\s*(?:hi|hello|dear|hallo|liebe[rs]?)\b[^\n]{0,40},\s*$",
                           re.IGNORECASE | re.MULTILINE), 1.5, "text", 2),
        _Signal(re.compile(r"^>", re.MULTILINE), 0.5, "text", 4),
    ],
}

# A weak hint from the file name; it only breaks near ties.
_NAME_HINTS: dict[DocumentRole, re.Pattern[str]] = {
    R.AUDITED_STATEMENTS: _rx("annual report", "audited", "financial statements", "accounts",
                              "jahresabschluss", "afs"),
    R.MANAGEMENT_ACCOUNTS: _rx("management accounts", "financials", "p&l", "pnl", "monthly",
                               "quarterly", "report", "kpi", "mgmt accounts"),
    R.BUDGET_FORECAST: _rx("budget", "forecast", "plan", "projections", "model"),
    R.QOE_REPORT: _rx("qoe", "quality of earnings", "fdd", "financial due diligence"),
    R.CAP_TABLE: _rx("cap table", "captable", "shareholders", "shareholder register",
                     "gesellschafterliste"),
    R.MANAGEMENT_BIOS: _rx("bios", "management team", "org chart", "organigram", "cvs"),
    R.EMPLOYEE_CENSUS: _rx("census", "employees", "headcount", "staff", "payroll", "hr"),
    R.LEGAL_MEMO: _rx("legal", "litigation", "ldd", "memo"),
    R.CONTRACT: _rx("contract", "agreement", "spa", "sha", "msa", "nda", "vertrag"),
    R.LEASE_SCHEDULE: _rx("leases", "lease schedule", "property", "real estate"),
    R.IRL: _rx("irl", "request list", "information request"),
    R.PRESENTATION: _rx("presentation", "deck", "teaser", "cim", "im", "overview"),
    R.BOARD_MINUTES: _rx("minutes", "board", "protokoll"),
    R.CORRESPONDENCE: _rx("email", "e-mail", "mail", "letter", "correspondence", "thread"),
}

_EMAIL_BLOCK = re.compile(
    r"^\s*from\s*:.*\n(?:.*\n){0,4}?\s*(?:to|sent|date)\s*:.*\n(?:.*\n){0,4}?\s*subject\s*:",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class RoleVerdict:
    """The role a document plays, the runner-up, and why (for `manda docs` and debugging)."""

    role: DocumentRole
    score: float
    runner_up: DocumentRole | None = None
    reasons: tuple[str, ...] = field(default_factory=tuple)


def header_cells(parsed: ParsedDocument) -> list[str]:
    """The label cells at the top of every table: where a table says what its columns are."""
    cells: list[str] = []
    for section in parsed.sections:
        if not section.table:
            continue
        shape = table_shape(section.table)
        cells.extend(c for c in shape.header if c.strip())
    return cells


def _opening_text(parsed: ParsedDocument) -> str:
    """Title and first lines: where a document says what it is."""
    lines: list[str] = [parsed.title or ""]
    for section in parsed.sections[:3]:
        text_lines = section.text.split("\n")
        if section.table:  # notes and header only: data rows are what a table holds, not is
            text_lines = text_lines[: max(len(text_lines) - len(section.table) + 1, 0)]
        lines.extend(line.strip() for line in text_lines[:4])
        if section.location.label and section.location.kind.value == "section":
            lines.append(section.location.label)
    return "\n".join(line for line in lines if line)[:1500]


def _body(parsed: ParsedDocument) -> str:
    out: list[str] = []
    size = 0
    for section in parsed.sections:
        out.append(section.text)
        size += len(section.text)
        if size >= TEXT_LIMIT:
            break
    return "\n".join(out)[:TEXT_LIMIT]


def _count(pattern: re.Pattern[str], texts: Iterable[str], cap: int) -> int:
    found = 0
    for text in texts:
        found += sum(1 for _ in pattern.finditer(text))
        if found >= cap:
            return cap
    return found


def _scores(parsed: ParsedDocument, filename: str) -> dict[DocumentRole, tuple[float, list[str]]]:
    body = _body(parsed)
    opening = _opening_text(parsed)
    headers = header_cells(parsed)
    places = {"text": [body], "opening": [opening], "header": headers}
    stem = re.sub(r"[_\-.]+", " ", PurePath(filename).stem)
    out: dict[DocumentRole, tuple[float, list[str]]] = {}
    for role, signals in _SIGNALS.items():
        score = 0.0
        reasons: list[str] = []
        for signal in signals:
            n = _count(signal.pattern, places[signal.where], signal.cap)
            if n:
                score += n * signal.weight
                example = next((m.group(0) for t in places[signal.where]
                                if (m := signal.pattern.search(t))), "")
                reasons.append(f"{signal.where}: {example.strip()!r}×{n}")
        if _NAME_HINTS[role].search(stem):
            score += FILENAME_WEIGHT
            reasons.append(f"file name: {stem!r}")
        out[role] = (score, reasons)
    _structure(parsed, body, headers, out)
    return out


def _add(out: dict[DocumentRole, tuple[float, list[str]]], role: DocumentRole, points: float,
         why: str) -> None:
    score, reasons = out[role]
    out[role] = (score + points, [*reasons, why])


def _structure(parsed: ParsedDocument, body: str, headers: list[str],
               out: dict[DocumentRole, tuple[float, list[str]]]) -> None:
    """Signals no single phrase carries: an e-mail header block, table shapes, file type."""
    if _EMAIL_BLOCK.search(body[:5000]):
        _add(out, R.CORRESPONDENCE, 5.0, "structure: an e-mail header block")
    if parsed.file_type.lower().lstrip(".") in ("pptx", "ppt"):
        _add(out, R.PRESENTATION, 3.0, "structure: a slide deck")
    rows = sum(len(s.table or []) for s in parsed.sections)
    lowered = " ".join(headers).lower()
    people_rows = rows >= 5 and re.search(r"\b(?:name|employee|mitarbeiter)\b", lowered)
    if people_rows and re.search(r"\b(?:salary|compensation|base pay|gehalt|fte)\b", lowered):
        _add(out, R.EMPLOYEE_CENSUS, 3.0, "structure: a list of people with pay columns")
    if _request_list(parsed):
        _add(out, R.IRL, 8.0, "structure: a table of requests with status or priority")
        # A request list names every other kind of document; what it names, it is not.
        for role in out:
            if role is not R.IRL:
                score, reasons = out[role]
                out[role] = (score * 0.4, reasons)
    if re.search(r"\b(?:actuals?|act|ist)\b", lowered) and re.search(
            r"\b(?:budget|bud|plan|forecast|soll)\b", lowered):
        _add(out, R.MANAGEMENT_ACCOUNTS, 4.0, "structure: actuals reported against a budget")
    prose = sum(len(s.text) for s in parsed.sections if not s.table)
    tabular = sum(len(s.text) for s in parsed.sections if s.table)
    if tabular > 2 * max(prose, 1):
        # Prose vocabulary means less in a spreadsheet: a contract table mentions "termination".
        for role in (R.CONTRACT, R.LEGAL_MEMO, R.BOARD_MINUTES, R.MANAGEMENT_BIOS):
            score, reasons = out[role]
            out[role] = (score * 0.5, reasons)


_REQUEST_COLUMN = _rx("request", "requests", "requested", "information requested",
                      "document requested", "documents requested", "item", "requested item",
                      "description", "anforderung", "unterlage", "unterlagen")
_TRACKING_COLUMN = _rx("priority", "prio", "status", "category", "workstream", "ref", "reference",
                       "no", "no.", "#", "responsible", "owner", "due date", "date requested",
                       "provided", "response", "comments", "area", "kategorie", "priorität")


def _request_list(parsed: ParsedDocument) -> bool:
    """A table whose header names a request column and a tracking column (status, priority …)."""
    for section in parsed.sections:
        if not section.table or len(section.table) < 3:
            continue
        header = table_shape(section.table).header
        request = [c for c, cell in enumerate(header) if _REQUEST_COLUMN.search(cell)]
        tracking = [c for c, cell in enumerate(header)
                    if _TRACKING_COLUMN.fullmatch(cell.strip()) and c not in request]
        if request and tracking:
            return True
    return False


def classify_role(filename: str, parsed: ParsedDocument) -> RoleVerdict:
    """The document's role from its content (file name only breaks near ties); `other` if unsure."""
    scores = _scores(parsed, filename)
    ranked = sorted(scores.items(), key=lambda kv: kv[1][0], reverse=True)
    (best, (score, reasons)), (second, (second_score, _)) = ranked[0], ranked[1]
    if score < MIN_SCORE:
        return RoleVerdict(R.OTHER, score, best if score > 0 else None, tuple(reasons))
    return RoleVerdict(best, round(score, 2), second if second_score > 0 else None, tuple(reasons))
