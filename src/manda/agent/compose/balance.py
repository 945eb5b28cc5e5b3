"""Balance sheet, cash and debt, and covenants: read from table rows with their headers and from
the sentences that state facilities, lenders, maturities, covenant levels and test results.

Nothing here knows a room's wording: a balance sheet is a table whose rows are balance-sheet line
items (UK, US or German style), a facility is a sentence about loans, lenders and maturities, a
covenant is a ratio with a limit ("not more than 2.50x", "must not exceed 3.0x", "mindestens
4,0x"; its grammar is `manda.finance.covenants`, beside the facilities'). Each builder returns
None when the room holds nothing for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from manda.agent.compose.common import (
    Ask,
    Draft,
    qa_action,
    qa_offer,
    render_rows,
    role_hits,
    scale_note,
    tables_of,
)
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.tables import Table
from manda.agent.topics import COVENANTS, DEBT
from manda.agent.unusual import sentences, trim
from manda.finance.amounts import find_amounts, format_amount, same_amount
from manda.finance.covenants import (
    COMPLIANCE,
    CovenantLevel,
    levels_stated,
    speaks_of_tests,
    stated_result,
    when_tested,
)
from manda.finance.facilities import DRAWABLE
from manda.finance.periods import period_sort_key
from manda.finance.vocabulary import line_item_of
from manda.injection import looks_like_instruction
from manda.models import Finding, SearchHit
from manda.vocabulary import topic, vocabulary

_WORDS = vocabulary()
_DEBT_ROW = _WORDS.cues("debt_row")
_FACILITY = _WORDS.cues("facility_sentence").pattern


def _written(name: str) -> str:
    """A named word list as one alternation, longest first, case as written."""
    return "|".join(re.escape(w) for w in sorted(_WORDS.phrases(name), key=len, reverse=True))


# a lender by its name ("Barclays Bank plc", "Banque Populaire", "from Lloyds plc")
_NAME = r"[A-ZÀ-Ý][\w&'-]+"
_FORM = rf"(?:{_written('legal_forms')})(?!\w)"
_LENDER = re.compile(
    rf"\b(?:{_NAME} )+(?:{_written('lender_after')})(?!\w)(?: {_FORM})?"
    rf"|\b(?:{_written('lender_before')})(?: {_NAME})+"
    rf"|{_WORDS.cues('lender_lead').slot} {_NAME}(?: {_NAME})* {_FORM}")


def _line(label: str) -> str | None:
    item = line_item_of(label)
    return item.subject if item is not None else None


def _sheet_row(label: str) -> bool:
    """A row a balance sheet shows: any of its lines, or a debt or cash line."""
    item = line_item_of(label)
    return (item is not None and (item.sheet or item.stock)) or bool(_DEBT_ROW.search(label))


def _usable(sentence: str) -> bool:
    return "|" not in sentence and len(sentence) > 30 and not looks_like_instruction(sentence)


def _heading(evidence: Evidence, hit: SearchHit, table: Table) -> str:
    source = evidence.hit_source(hit)
    scale = scale_note(table)
    return f"**{source.document}**" + (f" — {scale}" if scale else "") + f" {cite([source])}"


@dataclass(frozen=True)
class _Statement:
    text: str
    source: Source
    score: int


def _statements(evidence: Evidence, hits: Sequence[SearchHit], pattern: re.Pattern[str],
                *, least: int = 2, with_amount: bool = True) -> list[_Statement]:
    """Sentences with at least `least` of the pattern's words (or, `with_amount`, one and an
    amount), best first, from the passages of the shape's roles first."""
    out: list[_Statement] = []
    seen: set[str] = set()
    for rank, hit in enumerate(hits):
        for sentence in sentences(hit.text):
            if not _usable(sentence) or sentence in seen:
                continue
            words = len(pattern.findall(sentence))
            amounts = 1 if find_amounts(sentence) else 0
            if words >= least or (with_amount and words and amounts):
                seen.add(sentence)
                lender = 2 if _LENDER.search(sentence) else 0
                out.append(_Statement(trim(sentence, 320), evidence.hit_source(hit),
                                      words + amounts + lender - rank // 6))
    return sorted(out, key=lambda s: -s.score)


# ---------------------------------------------------------------- balance sheet, cash and debt


def debt(ask: Ask, evidence: Evidence) -> Draft | None:
    hits = role_hits(evidence, DEBT.roles)
    whole = ask.frame.whole_sheet
    words = _WORDS
    parts: list[str] = []
    shown: set[tuple[str, ...]] = set()
    tables = sorted(tables_of(hits), key=lambda th: -sum(
        1 for r in th[0].rows if (_sheet_row(r.label) if whole else _DEBT_ROW.search(r.label))))
    for table, hit in tables:
        rows = [r for r in table.rows
                if (_sheet_row(r.label) if whole else _DEBT_ROW.search(r.label))]
        if len(rows) < (3 if whole else 2):
            continue
        if whole:
            rows = list(table.rows)
        key = tuple(r.line for r in rows)
        if key in shown:
            continue
        shown.add(key)
        parts += ["", _heading(evidence, hit, table), "", *render_rows(table, rows,
                                                                       evidence.hit_source(hit))]
        if len(shown) >= (1 if whole else 2):
            break
    parts += facility_table(evidence)
    facilities = _one_per_document(_statements(evidence, hits, _FACILITY, with_amount=False))[:4]
    if facilities:
        section = ["", words.answer("facilities_heading", ask.language),
                   *[f"- “{s.text}” {cite([s.source])}" for s in facilities]]
        if ask.frame.facility_terms:
            # "what are the terms of the term loan?": the terms are the answer, balances after
            first, *rest = facilities
            section = [words.answer("span_states", ask.language, document=first.source.document,
                                    text=first.text, cite=cite([first.source])),
                       *[f"- “{s.text}” {cite([s.source])}" for s in rest]]
            if (asked := facility_sentence(ask, evidence)) is not None:
                section = [asked, "", *section]
            parts = [*section, "", words.answer("cash_debt_heading", ask.language), *parts]
        else:
            parts = [*parts, *section]
    covenant = next((s for s in _statements(evidence, hits, topic("covenants").terms.pattern,
                                            least=1)
                     if s.text not in {f.text for f in facilities}), None)
    if covenant is not None and parts:
        parts += ["", words.answer("covenants_heading", ask.language),
                  f"- “{covenant.text}” {cite([covenant.source])} "
                  f"{words.answer('covenants_ask', ask.language)}"]
    if not parts:
        return None
    parts += _differences(evidence, "\n".join(parts))
    lead = words.answer("balance_sheet_lead" if whole else "cash_debt_lead", ask.language)
    if facilities and ask.frame.facility_terms:
        return Draft(text="\n".join(parts).strip())
    drawing = (drawing_sentence(ask, evidence) or facility_sentence(ask, evidence)
               or working_capital_sentence(ask, evidence, hits)
               or _computed_working_capital(ask, evidence))
    if drawing is not None:
        lead = f"{drawing}\n\n{lead}"
    return Draft(text="\n".join([lead, *parts]).strip())


def _computed_working_capital(ask: Ask, evidence: Evidence) -> str | None:
    """"What was working capital?" of a filing: current assets less current liabilities of its
    balance sheet, for the year asked, each input cited and the working shown."""
    if not ask.frame.working_capital or ask.frame.derived is None:
        return None
    from manda.agent.compose import computed

    draft = computed.answer(ask, evidence)
    return draft.text if draft is not None else None


def _one_per_document(statements: Sequence[_Statement]) -> list[_Statement]:
    """The best statement of each document first, then the rest: the agreement that sets the
    facilities and the accounts that report their balances each get their say."""
    firsts: dict[str, _Statement] = {}
    for statement in statements:
        firsts.setdefault(statement.source.document_id, statement)
    chosen = list(firsts.values())
    return chosen + [s for s in statements if s not in chosen]



@dataclass(frozen=True)
class FacilityLine:
    """One facility: its limit, what is drawn and the headroom, with the findings they rest on."""

    name: str
    limit: Finding
    drawn: Finding | None
    headroom: str  # stated, computed ("… (computed)") or why there is none
    used: list[Finding]


def facility_lines(evidence: Evidence) -> list[FacilityLine]:
    """Each facility whose size the documents state (headroom = limit − drawn, computed where
    both are stated for the same date and no document states it)."""
    from manda.agent.selection import findings_for, show

    def latest(found: Sequence[Finding]) -> Finding | None:
        return max(found, key=lambda f: period_sort_key(f.period), default=None)

    limits = [f for f in findings_for(evidence, "facility limit")
              if f.value is not None and f.entity]
    lines: list[FacilityLine] = []
    for name in dict.fromkeys(f.entity for f in limits if f.entity):
        limit = latest([f for f in limits if f.entity == name])
        assert limit is not None
        drawn_all = [f for f in findings_for(evidence, "debt") if f.entity == name
                     and f.value is not None]
        if name == "revolving credit facility":  # what is drawn on it is the revolver line,
            # the facility's own sentence first
            lines_drawn = [f for f in findings_for(evidence, "revolver") if f.value is not None]
            drawn_all += ([f for f in lines_drawn if f.attributes.get("facility") == name]
                          or lines_drawn)
        drawn = latest([f for f in drawn_all if f.period == limit.period]) or latest(drawn_all)
        stated = latest([f for f in findings_for(evidence, "facility headroom")
                         if f.entity == name and f.value is not None])
        if stated is not None:
            headroom = show(stated)
        elif drawn is not None and name in DRAWABLE and drawn.period == limit.period:
            left = abs(limit.value or 0.0) - abs(drawn.value or 0.0)
            headroom = f"{format_amount(left, limit.unit)} (computed)"
        else:
            headroom = "not stated" if name in DRAWABLE else "— (drawn in full when made)"
        used = [f for f in (limit, drawn, stated) if f is not None]
        lines.append(FacilityLine(name, limit, drawn, headroom, used))
    return lines


def facility_table(evidence: Evidence) -> list[str]:
    """Limit, drawn and headroom side by side, so a limit is never read as debt."""
    from manda.agent.compose.common import cite_findings

    lines = facility_lines(evidence)
    if not lines:
        return []
    rows = ["", "**Facilities: limit, drawn and headroom**", "",
            "| Facility | Limit (term loan: original principal) | Drawn | Headroom (undrawn) | "
            "Sources |", "|---|---|---|---|---|"]
    for line in lines:
        rows.append(f"| {line.name[:1].upper()}{line.name[1:]} | {_dated(line.limit)} | "
                    f"{_dated(line.drawn) if line.drawn else 'not stated'} | {line.headroom} | "
                    f"{cite_findings(line.used, evidence)} |")
    return rows


def drawing_sentence(ask: Ask, evidence: Evidence) -> str | None:
    """"How much is drawn on the revolver?": the facility asked (or every drawable one), what
    is drawn of its limit and what is left, as the answer's first line."""
    from manda.agent.compose.common import cite_findings
    from manda.agent.selection import show
    from manda.agent.translate import period_phrase

    if not ask.frame.drawing:
        return None
    asked = ask.frame.facility
    lines = [line for line in facility_lines(evidence)
             if (line.name == asked if asked else line.name in DRAWABLE) and line.drawn]
    if not lines:
        return None
    said = []
    for line in lines:
        assert line.drawn is not None
        when = period_phrase(line.limit.period)
        said.append(f"{show(line.drawn)} is drawn on the {line.name} of {show(line.limit)}"
                    f"{f' {when}' if when else ''}; headroom {line.headroom} "
                    f"{cite_findings(line.used, evidence)}")
        for other in _other_drawn(evidence, line):
            doc = evidence.documents.get(other.document_id)
            said.append(f"the documents disagree on what is drawn {period_phrase(other.period)}"
                        f": {doc.filename if doc else 'another document'} gives {show(other)} "
                        f"{cite_findings([other], evidence)}")
    return "; ".join(said) + "."


def _other_drawn(evidence: Evidence, line: FacilityLine) -> list[Finding]:
    """What other documents say is drawn on the same facility at the same date, where it is not
    the same figure: a balance-sheet line ("Betriebsmittellinie (Inanspruchnahme)", "Revolver
    drawn") states the drawings of a revolving facility as the sentence's facility does."""
    from manda.agent.selection import findings_for

    drawn = line.drawn
    if drawn is None or drawn.value is None:
        return []
    same = [f for f in findings_for(evidence, "debt") if f.entity == line.name]
    if line.name == "revolving credit facility":
        same += findings_for(evidence, "revolver")
    out: list[Finding] = []
    for f in same:
        if (f.period == drawn.period and f.value is not None
                and f.document_id != drawn.document_id
                and not same_amount(abs(f.value), abs(drawn.value))
                and all(f.document_id != o.document_id for o in out)):
            out.append(f)
    return out


def facility_sentence(ask: Ask, evidence: Evidence) -> str | None:
    """"Tell me about the term loan": the facility asked, its size (a term loan's original
    principal, a revolver's limit) and what is drawn under it now, as the answer's first line."""
    from manda.agent.compose.common import cite_findings
    from manda.agent.selection import show
    from manda.agent.translate import period_phrase

    asked = ask.frame.facility
    lines = [line for line in facility_lines(evidence) if line.name == asked]
    if asked is None or not lines:
        return None
    line = lines[0]
    size = "original principal" if line.name not in DRAWABLE else "limit"
    said = (f"The {line.name}: {size} {show(line.limit)} {period_phrase(line.limit.period)}"
            .rstrip())
    if line.drawn is not None:
        said += f"; {show(line.drawn)} outstanding {period_phrase(line.drawn.period)}".rstrip()
        if (line.name not in DRAWABLE and line.limit.value and line.drawn.value
                and period_sort_key(line.drawn.period) > period_sort_key(line.limit.period)
                and abs(line.drawn.value) < abs(line.limit.value)):
            repaid = abs(line.limit.value) - abs(line.drawn.value)
            said += f" ({format_amount(repaid, line.limit.unit)} repaid since, computed)"
    elif line.name in DRAWABLE:
        said += "; what is drawn is not stated"
    if line.name in DRAWABLE and line.drawn is not None:
        said += f"; headroom {line.headroom}"
    return f"{said} {cite_findings(line.used, evidence)}."


def _amount(cell: str) -> float | None:
    """A statement cell: "2,350", "(2,350)" (negative), "1.850" (German thousands)."""
    text = cell.strip().replace("\u2212", "-")
    negative = (text.startswith("(") and text.endswith(")")) or text.startswith("-")
    body = text.strip("()-–— ")
    if re.fullmatch(r"\d{1,3}(?:[,. ]\d{3})*", body):  # whole units, thousands grouped
        value = float(re.sub(r"\D", "", body))
    elif m := re.fullmatch(r"(\d+)[.,](\d{1,2})", body):  # "12.4" in millions
        value = float(f"{m.group(1)}.{m.group(2)}")
    else:
        return None
    return -value if negative else value


def working_capital_sentence(ask: Ask, evidence: Evidence,
                             hits: Sequence[SearchHit]) -> str | None:
    """"What's the working capital position?" with no stated figure: stocks + debtors − trade
    creditors of the balance sheet, per column, computed and said to be, in its units."""
    if not ask.frame.working_capital:
        return None
    for table, hit in tables_of(hits):
        lines = {name: next((r for r in table.rows if _line(r.label) == subject), None)
                 for name, subject in (("inventory", "inventory"),
                                       ("receivables", "trade receivables"),
                                       ("payables", "trade payables"))}
        if lines["receivables"] is None or lines["payables"] is None:
            continue
        said = []
        for column in table.header[1:]:
            values = {n: _amount(r.cells.get(column, "")) if r is not None else 0.0
                      for n, r in lines.items()}
            if values["receivables"] is None or values["payables"] is None:
                continue
            total = (values["inventory"] or 0.0) + values["receivables"] - abs(values["payables"])
            said.append(f"{column}: {total:,.0f}")
        if not said:
            continue
        parts = [r.label for r in lines.values() if r is not None]
        units = scale_note(table)
        return (f"Trade working capital (computed; the documents give no figure of their own) "
                f"— {'; '.join(said)}"
                + (f" ({units.rstrip('.')})" if units else "")
                + f": {' + '.join(parts[:-1])} − {parts[-1]}, from the balance sheet "
                f"{cite([evidence.hit_source(hit)])}.")
    return None


def _dated(finding: Finding) -> str:
    from manda.agent.selection import show

    when = (finding.period or "").removeprefix("as of ")
    return f"{show(finding)} at {when}" if when else show(finding)


def _differences(evidence: Evidence, text: str) -> list[str]:
    """Where documents give another figure for a cash or debt line shown above: both, with both
    sources, since a facility limit, a drawn amount and a balance are easy to mistake."""
    from manda.agent.compose.common import cite_findings
    from manda.agent.selection import findings_for, show

    # the tables above show figures in the units each table gives ("5,500" in a $000s table)
    stated = [a.value * scale for a in find_amounts(text) for scale in (1, 1e3, 1e6)]
    lines: list[str] = []
    seen: set[frozenset[str]] = set()
    for subject in DEBT.subjects:
        for f in findings_for(evidence, subject):
            if f.value is None or not any(abs(abs(v) - abs(f.value)) <= 0.011 * abs(f.value)
                                          for v in stated):
                continue
            for other in evidence.conflicts_of(f.id):
                pair = frozenset((f.id, other.id))
                if pair in seen or evidence.successor(other.id) is not None:
                    continue
                seen.add(pair)
                lines.append(f"- {f.label} {f.period or ''}: {evidence.filename(f.document_id)} "
                             f"gives {show(f)} {cite_findings([f], evidence)}, whereas "
                             f"{evidence.filename(other.document_id)} gives {show(other)} "
                             f"{cite_findings([other], evidence)}")
    if not lines:
        return []
    return ["", "**Where the documents differ** (often a facility limit, a drawn amount and a "
            "balance, or another date: check which is which)", *lines[:6]]


# ---------------------------------------------------------------- covenants


@dataclass(frozen=True)
class Covenant:
    """A covenant level a retrieved passage states (`manda.finance.covenants`), and where."""

    terms: CovenantLevel
    source: Source


def covenant_levels(evidence: Evidence, hits: Sequence[SearchHit]) -> list[Covenant]:
    """Each covenant the passages state with its limit, once per ratio: the first place that
    states it."""
    found: dict[str, Covenant] = {}
    for hit in hits:
        for sentence in sentences(hit.text):
            if not _usable(sentence):
                continue
            for level in levels_stated(sentence):
                found.setdefault(level.key, Covenant(level, evidence.hit_source(hit)))
    return list(found.values())


def _latest_result(evidence: Evidence, hits: Sequence[SearchHit], covenant: CovenantLevel
                   ) -> tuple[float, str, Source] | None:
    """A stated test result for the covenant's ratio ("leverage … was 1.18x at 31 March 2024")."""
    for hit in hits:
        for sentence in sentences(hit.text):
            # a compliance certificate's table row ("Leverage | not more than 3.00:1.00 |
            # 2.91:1.00") states a result as well as a sentence does
            if not (_usable(sentence) or _is_table_row(sentence)):
                continue
            if (value := stated_result(sentence, covenant)) is not None:
                return value, trim(sentence, 240), evidence.hit_source(hit)
    return None


def _is_table_row(line: str) -> bool:
    return line.count("|") >= 2 and not looks_like_instruction(line)


_COVENANT_COLUMN = vocabulary().cues("covenant_column")
_TEST_COLUMN = vocabulary().cues("covenant_test_columns")


def stated_covenant_tables(evidence: Evidence, hits: Sequence[SearchHit]) -> list[str]:
    """Each table that states the covenants with their tests (a compliance certificate's
    "Covenant | Requirement | Actual | Headroom"), as the document states it, with its place."""
    out: list[str] = []
    for table, hit in tables_of(hits):
        tests = [h for h in table.header[1:] if _TEST_COLUMN.found(h)]
        if not (table.header and _COVENANT_COLUMN.begins(table.header[0]) and tests):
            continue
        lines = ["| " + " | ".join([table.header[0], *tests]) + " |",
                 "|---|" + "---|" * len(tests)]
        lines += ["| " + " | ".join([row.label, *(row.cells.get(h, "").strip() or "—"
                                                 for h in tests)]) + " |"
                  for row in table.rows if row.cells]
        # the lines above it (a PDF wraps them), joined: "To Harbourline … under clause 9 …"
        caption = " ".join(" ".join(table.caption).split())
        caption = caption if 20 < len(caption) <= 240 else ""
        head = f"As stated in {evidence.hit_source(hit).document}"
        out.append("\n".join([f"{head}{f' ({caption})' if caption else ''} "
                              f"{cite([evidence.hit_source(hit)])}:", "", *lines]))
    return list(dict.fromkeys(out))


def covenants(ask: Ask, evidence: Evidence) -> Draft | None:
    hits = role_hits(evidence, COVENANTS.roles)
    levels = covenant_levels(evidence, hits)
    compliance = [s for s in _statements(evidence, hits, COMPLIANCE, least=1)
                  if speaks_of_tests(s.text)][:2]
    stated = stated_covenant_tables(evidence, hits)
    if not levels and not compliance and not stated:
        return None
    lines: list[str] = []
    missing_result = False
    if levels:
        lines += ["| Covenant | Limit | Latest stated | Headroom | Source |",
                  "|---|---|---|---|---|"]
        for covenant in levels:
            c, where = covenant.terms, covenant.source
            result = _latest_result(evidence, hits, c)
            limit = c.stated if c.stated[:1].isalpha() or ":" in c.stated else f"{c.level:g}x"
            if result is None:
                missing_result = True
                lines.append(f"| {c.name} | {limit} | not stated | — | {cite([where])} |")
                continue
            value, _, source = result
            room = value - c.level if c.minimum else c.level - value
            share = abs(room) / c.level * 100 if c.level else 0.0
            verdict = (f"{room:.2f}x ({share:.0f}% of the limit, computed)" if room >= 0
                       else f"breached by {abs(room):.2f}x (computed)")
            lines.append(f"| {c.name} | {limit} | {value:g}x | {verdict} | "
                         f"{cite([where, source])} |")
    tested = next(((when, evidence.hit_source(h)) for h in hits for s in sentences(h.text)
                   if _usable(s) and (when := when_tested(s))), None)
    if lines or stated:
        parts = [_WORDS.answer("covenants_lead", ask.language), "", *lines]
        for table in stated:
            parts += ["", table] if parts[-1] else [table]
    else:
        parts = [_WORDS.answer("covenants_unstated", ask.language)]
    if tested is not None:
        parts += ["", _WORDS.answer("covenants_tested", ask.language, when=tested[0],
                                    cite=cite([tested[1]]))]
    if compliance:
        parts += ["", _WORDS.answer("compliance_heading", ask.language),
                  *[f"- “{s.text}” {cite([s.source])}" for s in compliance]]
    proposals = []
    offer = False
    if missing_result and not compliance and not stated:
        question = topic("covenants").question
        parts += ["", f"{_WORDS.answer('covenants_no_result', ask.language)} "
                  f"{qa_offer(language=ask.language)} "
                  f"(“{question}”)"]
        proposals.append(qa_action(question, COVENANTS.category))
        offer = True
    return Draft(text="\n".join(parts).strip(), proposals=proposals, offer_qa=offer)
