"""What a document is to a deal team (audited statements, cap table, IRL …), read from its content.

Data rooms are named by whoever uploads them (`Doc_017.pdf`, `1.3.2 Gesellschafterliste.xlsx`), so
the role is read from what the document says and how it is built: its headings and first lines,
the header cells of its tables, its vocabulary ("we have audited", "RESOLVED that", "Subject:"),
and its structure (an e-mail header block, a table of people with salary columns). The file name
counts only as a weak tie-breaker. Each signal is a weighted, capped count, so one stray word never
decides a role and a document that is clearly two things goes to the stronger one. The signals'
weights are in `manda/vocabulary/roles.yaml`, their words in every language's vocabulary file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePath

from manda.ingest.parsers.layout import table_shape
from manda.models import DocumentRole, ParsedDocument, Section
from manda.text import name_words
from manda.vocabulary import Cues, vocabulary
from manda.vocabulary.model import RoleSpec, Signal

__all__ = ["RoleVerdict", "classify_role", "header_cells"]

R = DocumentRole

TEXT_LIMIT = 40_000  # characters of body read per document; the opening decides most roles
MIN_SCORE = 3.0  # below this nothing is confident enough: the role stays `other`
FILENAME_WEIGHT = 1.5  # a name alone never reaches MIN_SCORE
LONG_OPENING = 2.0  # the opening's weight in a document longer than TEXT_LIMIT
_GREETING_LENGTH = 42  # "Dear Anna," is a short line: a long one is a sentence

_WORDS = vocabulary()
_REQUEST_COLUMN = _WORDS.cues("request_column")
_TRACKING_COLUMN = _WORDS.cues("tracking_column")
_PERSON_COLUMN = _WORDS.cues("person_column")
_PAY_COLUMN = _WORDS.cues("census_pay_column")
_ACTUAL_COLUMN = _WORDS.cues("actuals_column")  # the tables' words: one list
_BUDGET_COLUMN = _WORDS.cues("forecast_column")
_MAIL_SENDER = _WORDS.cues("mail_sender")
_MAIL_RECIPIENT = _WORDS.cues("mail_recipient")
_MAIL_SUBJECT = _WORDS.cues("mail_subject")


@cache
def _kinds() -> tuple[RoleSpec, ...]:
    """Every role that content can show (roles.yaml's order breaks ties)."""
    return tuple(k for k in _WORDS.role_specs.values() if k.role is not R.OTHER)


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


def _read_once(section: Section) -> str:
    """A section's words, each table label once: a table's text repeats its column headers in
    every row ("Q4 Budget: 5,600"), which would count one header as often as the table is long."""
    if not section.table or len(section.table) < 2:
        return section.text
    lines = section.text.split("\n")
    head = lines[: max(len(lines) - len(section.table) + 1, 0)]
    rows = (" | ".join(c for c in row if c.strip()) for row in section.table[1:])
    return "\n".join([*head, *rows])


def _body(parsed: ParsedDocument) -> str:
    out: list[str] = []
    size = 0
    for section in parsed.sections:
        text = _read_once(section)
        out.append(text)
        size += len(text)
        if size >= TEXT_LIMIT:
            break
    return "\n".join(out)[:TEXT_LIMIT]


def _longer_than_read(parsed: ParsedDocument) -> bool:
    size = 0
    for section in parsed.sections:
        size += len(section.text)
        if size > TEXT_LIMIT:
            return True
    return False


def _field(line: str, words: Cues) -> re.Match[str] | None:
    """"From: …", "Objet : …": a line that starts with the word and a colon."""
    start = len(line) - len(line.lstrip())
    m = words.pattern.match(line, start)
    return m if m is not None and line[m.end():].lstrip().startswith(":") else None


def _greeting(line: str, words: Cues) -> re.Match[str] | None:
    """"Dear Anna,", "Bonjour Paul,": a short line that starts with the word, ends with a comma."""
    stripped = line.strip()
    start = len(line) - len(line.lstrip())
    m = words.pattern.match(line, start)
    short = len(stripped) - (m.end() - start) <= _GREETING_LENGTH if m else False
    return m if m is not None and short and stripped.endswith(",") else None


_BY_LINE = {"field": _field, "greeting": _greeting}


def _matches(signal: Signal, text: str) -> Iterable[re.Match[str]]:
    if signal.where not in _BY_LINE:
        return signal.cues.finditer(text)
    found = (_BY_LINE[signal.where](line, signal.cues) for line in text.split("\n"))
    return (m for m in found if m is not None)


def _count(signal: Signal, texts: Iterable[str]) -> tuple[int, str]:
    """How often the signal's words appear (at most its cap), and the first of them."""
    found, example = 0, ""
    for text in texts:
        for m in _matches(signal, text):
            example = example or m.group(0)
            found += 1
            if found >= signal.cap:
                return signal.cap, example
    return found, example


def _scores(parsed: ParsedDocument, filename: str) -> dict[DocumentRole, tuple[float, list[str]]]:
    body = _body(parsed)
    opening = _opening_text(parsed)
    headers = header_cells(parsed)
    places = {"text": [body], "opening": [opening], "header": headers, "field": [body],
              "greeting": [body]}
    stem = name_words(PurePath(filename).stem)
    # of a document longer than the body read (an annual report of 200 pages) only the first
    # chapter is read: what its opening calls it counts twice against that chapter's words
    opening_weight = LONG_OPENING if _longer_than_read(parsed) else 1.0
    out: dict[DocumentRole, tuple[float, list[str]]] = {}
    for kind in _kinds():
        score = 0.0
        reasons: list[str] = []
        for signal in kind.signals:
            n, example = _count(signal, places[signal.where])
            if n:
                score += n * signal.weight * (opening_weight if signal.where == "opening" else 1)
                reasons.append(f"{signal.where}: {example.strip()!r}×{n}")
        if kind.names.search(stem):
            score += FILENAME_WEIGHT
            reasons.append(f"file name: {stem!r}")
        out[kind.role] = (score, reasons)
    _structure(parsed, body, headers, out)
    return out


def _add(out: dict[DocumentRole, tuple[float, list[str]]], role: DocumentRole, points: float,
         why: str) -> None:
    score, reasons = out[role]
    out[role] = (score + points, [*reasons, why])


def _structure(parsed: ParsedDocument, body: str, headers: list[str],
               out: dict[DocumentRole, tuple[float, list[str]]]) -> None:
    """Signals no single phrase carries: an e-mail header block, table shapes, file type."""
    if _mail_header(body[:5000]):
        _add(out, R.CORRESPONDENCE, 5.0, "structure: an e-mail header block")
    if quoted := min(sum(1 for line in body.split("\n") if line.startswith(">")), 4):
        _add(out, R.CORRESPONDENCE, 0.5 * quoted, f"structure: {quoted} quoted lines")
    if parsed.file_type.lower().lstrip(".") in ("pptx", "ppt"):
        _add(out, R.PRESENTATION, 3.0, "structure: a slide deck")
    rows = sum(len(s.table or []) for s in parsed.sections)
    lowered = " ".join(headers).lower()
    people_rows = rows >= 5 and _PERSON_COLUMN.found(lowered)
    if people_rows and _PAY_COLUMN.found(lowered):
        _add(out, R.EMPLOYEE_CENSUS, 3.0, "structure: a list of people with pay columns")
    if _request_list(parsed):
        _add(out, R.IRL, 8.0, "structure: a table of requests with status or priority")
        # A request list names every other kind of document; what it names, it is not.
        for role in out:
            if role is not R.IRL:
                score, reasons = out[role]
                out[role] = (score * 0.4, reasons)
    if _ACTUAL_COLUMN.found(lowered) and _BUDGET_COLUMN.found(lowered):
        _add(out, R.MANAGEMENT_ACCOUNTS, 4.0, "structure: actuals reported against a budget")
    prose = sum(len(s.text) for s in parsed.sections if not s.table)
    tabular = sum(len(s.text) for s in parsed.sections if s.table)
    if tabular > 2 * max(prose, 1):
        # Prose vocabulary means less in a spreadsheet: a contract table mentions "termination".
        for role in (R.CONTRACT, R.LEGAL_MEMO, R.BOARD_MINUTES, R.MANAGEMENT_BIOS):
            score, reasons = out[role]
            out[role] = (score * 0.5, reasons)


def _mail_header(text: str, within: int = 5) -> bool:
    """A sender's line, then a recipient's or date line, then a subject line, a few lines apart:
    the header block of an e-mail ("From: … To: … Subject: …")."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if _field(line, _MAIL_SENDER) is None:
            continue
        after = lines[n + 1:n + 1 + within]
        to = next((k for k, x in enumerate(after) if _field(x, _MAIL_RECIPIENT)), None)
        if to is not None and any(_field(x, _MAIL_SUBJECT)
                                  for x in lines[n + 2 + to:n + 2 + to + within]):
            return True
    return False


def _request_list(parsed: ParsedDocument) -> bool:
    """A table whose header names a request column and a tracking column (status, priority …)."""
    for section in parsed.sections:
        if not section.table or len(section.table) < 3:
            continue
        header = table_shape(section.table).header
        request = [c for c, cell in enumerate(header) if _REQUEST_COLUMN.found(cell)]
        tracking = [c for c, cell in enumerate(header)
                    if _TRACKING_COLUMN.fullmatch(cell) and c not in request]
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
