"""Topic shapes: ownership, management team, a person's pay, business overview, P&L, litigation
and material contracts, each built from findings and table rows with a source per line; `compose`
answers a topic with the composer its row of the topic table names (balance sheet and debt,
covenants, customers and key people live in `balance` and `dependence`, who holds which role in
`people`).

Every function returns None when the room holds nothing for its shape, so the caller falls back to
the evidence-first answer (and, with low retrieval confidence, to "not found").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.agent.compose import evidence_first, portions
from manda.agent.compose.balance import covenants, debt
from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    cite_findings,
    current,
    is_request_list,
    largest_shares,
    no_data,
    qa_action,
    qa_offer,
    render_rows,
    role_hits,
    role_rank,
    tables_of,
    whole_tables,
    with_assumption,
)
from manda.agent.compose.dependence import customers, key_people
from manda.agent.compose.first_line import beyond_topic
from manda.agent.compose.people import (
    TITLE_HEADER,
    adds_to,
    holder,
    holder_line,
    missing_key_roles,
    person_background,
    team_members,
)
from manda.agent.compose.stated import of_another_period
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.relevance import NOT_FOUND_BELOW, candidates, coverage
from manda.agent.selection import (
    Reading,
    best_of,
    choose_period,
    findings_for,
    in_text,
    one_per_document,
    read_fact,
    series,
    show,
    subject_base,
)
from manda.agent.spans import rank_spans
from manda.agent.tables import Table, rows_naming
from manda.agent.topics import (
    CONTRACTS,
    KEY_ROLES,
    LITIGATION,
    MANAGEMENT,
    OVERVIEW,
    OWNERSHIP,
    PAY_HEADER,
    Shape,
)
from manda.agent.translate import period_name, period_phrase
from manda.agent.unusual import scan, sentences, trim, under_topic
from manda.finance.amounts import find_amounts, format_amount
from manda.finance.periods import period_sort_key
from manda.ingest.extract.tables import is_total_row
from manda.injection import looks_like_instruction
from manda.models import DocumentRole, Finding, FindingKind, Nature, SearchHit
from manda.vocabulary import topic, vocabulary

_F = re.IGNORECASE


def compose(ask: Ask, evidence: Evidence, shape: Shape) -> Draft | None:
    """The shape's answer, or None when the room holds nothing for it."""
    builders = {
        "debt": debt,
        "covenants": covenants,
        "customers": customers,
        "key_people": key_people,
        "ownership": ownership,
        "management": management,
        "overview": overview,
        "pnl": pnl,
        "litigation": litigation,
        "contracts": contracts,
        "evidence": lambda ask, evidence: topic_statements(ask, evidence, shape),
    }
    if shape.composer not in builders:
        raise KeyError(f"topic {shape.key!r} names composer {shape.composer!r}, which "
                       f"manda.agent.compose.topics does not have (topics.yaml)")
    draft = builders[shape.composer](ask, evidence)
    if draft is not None:
        _lead_with_the_figure(ask, evidence, draft)
    if draft is not None and ask.assumption:
        draft.text = with_assumption(ask.assumption, draft.text)
    return draft


def _lead_with_the_figure(ask: Ask, evidence: Evidence, draft: Draft) -> None:
    """"How much cash is on the balance sheet?": the figure asked for is the first line, the
    topic's table after it as context."""
    if len(ask.frame.subjects) != 1 or not ask.frame.one_figure:
        return  # "what are the terms of the term loan?" asks for terms, not a figure
    subject = ask.frame.subjects[0]
    pool = [f for f in findings_for(evidence, subject, entity=ask.entity) if f.value is not None]
    period = ask.period or choose_period(pool, period=None)
    reading = read_fact(evidence, subject, period, entity=ask.entity, nature=Nature.ACTUAL) \
        if period else None
    if reading is None or reading.is_forecast:
        return
    first = draft.text.split("\n", 1)[0]
    if show(reading.primary) in first or find_amounts(first):
        return  # the shape already leads with it, or with the figure it answers with
    lead = portions.described(reading, evidence, portion_asked=ask.frame.portion)
    draft.text = f"{lead}\n\n{draft.text}"
    draft.rests_on = [*reading.findings, *draft.rests_on]
    draft.proposals = [*approvals([reading.primary]), *draft.proposals]


def _lines_with_sources(items: Sequence[tuple[str, Sequence[Source]]]) -> list[str]:
    return [f"- {text} {cite(list(sources))}".rstrip() for text, sources in items]


# ---------------------------------------------------------------- ownership

_WORDS = vocabulary()
# a register's columns, as the vocabulary names them in every language
_HOLDER = _WORDS.cues("cap_holder_header").pattern
_PCT_STRICT = _WORDS.cues("cap_percent_header").pattern
_PCT = (_WORDS.cues("cap_percent_header") | _WORDS.cues("cap_stake_header")).pattern
_CLASS = _WORDS.cues("cap_class_header").pattern
_SHARES = _WORDS.cues("cap_shares_header").pattern
_SHARES_TOTAL = _WORDS.cues("cap_total_header").pattern
_AS_OF = _WORDS.cues("as_of_header").pattern


def ownership(ask: Ask, evidence: Evidence) -> Draft | None:
    found = [f for f in current(findings_for(evidence, "ownership"), evidence)
             if f.value is not None and f.unit in (None, "%") and 0 < (f.value or 0.0) <= 100]
    ledgers = [f for f in found if role_rank(evidence, f, OWNERSHIP) == 0]
    has_ledger = any(d.role is DocumentRole.CAP_TABLE for d in evidence.documents.values())
    if ask.frame.class_rights and (rights := _rights_table(evidence)) is not None:
        return rights  # "the liquidation preferences": the table of each class's rights
    if (has_ledger and not ledgers) or ask.frame.share_class or ask.frame.class_rights:
        table = _ownership_from_tables(ask, evidence)  # the register itself, with its classes
        if table is not None:
            return table
    found = ledgers or found  # a cap table's stakes, not percentages read from another list
    if found and sum(f.value or 0.0 for f in found) <= 110.0 * max(
            1, len({f.document_id for f in found})):
        return _ownership_from_findings(evidence, found)
    return _ownership_from_tables(ask, evidence)


def _ownership_from_findings(evidence: Evidence, found: list[Finding]) -> Draft:
    doc_id, rows = largest_shares(found)
    as_of = rows[0].period if rows else None
    lines = ["| Holder | Class | Shares | Ownership | Source |", "|---|---|---|---|---|"]
    for f in rows:
        name = f.entity or f.label.replace(" ownership", "").split(" as of")[0]
        note = f" ({f.attributes['note']})" if f.attributes.get("note") else ""
        lines.append(f"| {name}{note} | {f.attributes.get('class', '—') or '—'} | "
                     f"{_number(f.attributes.get('shares'))} | {show(f)} | "
                     f"{cite_findings([f], evidence)} |")
    total = sum(f.value or 0.0 for f in rows)
    when = f" {period_phrase(as_of)}" if as_of else ""
    head = (f"Ownership{when}, from {evidence.filename(doc_id)}: {len(rows)} holders, "
            f"{total:.1f}% in total.")
    text = "\n".join([head, "", *lines, "", _sum_note(total)])
    return Draft(text=text.strip(), proposals=approvals(rows), rests_on=rows)


def _sum_note(total: float) -> str:
    if abs(total - 100.0) <= 0.6:
        return "The stakes add up to 100%."
    return (f"The stakes listed add up to {total:.1f}%, not 100%: the rest is not broken down "
            "in the documents.")


def _number(text: str | None) -> str:
    if not text:
        return "—"
    try:
        return f"{float(text):,.0f}"
    except ValueError:
        return text


_CLASS_HEADER = _WORDS.cues("cap_class_column_header")
_CLASS_COLUMN = _WORDS.cues("cap_class_column")
_NOT_CLASS = _WORDS.cues("cap_not_class_column")


def _class_columns(table: Table) -> list[str]:
    """Share classes laid out as columns ("A Ordinary | B Ordinary | EMI options"): columns
    named as a class whose cells are share counts (a "Share class" column holds names)."""
    out = []
    for h in table.header[1:]:
        if not _CLASS_COLUMN.search(h) or _NOT_CLASS.search(h):
            continue
        cells = [r.cells.get(h, "").strip() for r in table.rows]
        if any(cells) and all(not c or c in "-–—" or find_amounts(c) for c in cells):
            out.append(h)
    return out


# What each class carries beyond its shares: asked for, the register's own columns are shown.
_RIGHTS_COLUMN = _WORDS.cues("cap_rights_column")


def _nonzero(value: str) -> bool:
    amounts = find_amounts(value)
    return bool(amounts) and any(a.value for a in amounts)




def _ownership_from_tables(ask: Ask, evidence: Evidence) -> Draft | None:
    for table, hit, pieces in whole_tables(role_hits(evidence, OWNERSHIP.roles)):
        if not (table.has_header(_PCT) or table.has_header(_SHARES)):
            continue
        # a register with a "Class" column names each row's class; columns are not classes
        classes = [] if any(_CLASS_HEADER.fullmatch(h) for h in table.header) \
            else _class_columns(table)
        if not (table.has_header(_HOLDER) or table.has_header(_CLASS) or classes):
            continue
        rows = [r for r in table.rows if not is_total_row(r.label) and r.cells]
        if not rows:
            continue
        source = evidence.hit_source(hit)
        sources = [evidence.hit_source(h) for h in pieces]
        extra = [h for h in table.header[1:] if _RIGHTS_COLUMN.search(h)] \
            if ask.frame.class_rights else []
        lines = ["| Holder | Class | Shares | Ownership |" + "".join(f" {h} |" for h in extra),
                 "|---|---|---|---|" + "---|" * len(extra)]
        total = 0.0
        by_class: dict[str, list[str]] = {}
        for row in rows:
            pct = row.get(_PCT_STRICT, _PCT)
            held = [(h, row.cells[h]) for h in classes if _nonzero(row.cells.get(h, ""))]
            cls = row.get(_CLASS) if not classes else None
            shares = row.get(_SHARES, _SHARES_TOTAL)
            if pct and (amounts := find_amounts(pct[1])):
                total += amounts[0].value
            kind = "; ".join(f"{h}: {v}" for h, v in held) if held else (cls[1] if cls else "—")
            for h, v in held:
                basis = pct[0].replace("%", "").strip() if pct else ""
                by_class.setdefault(h, []).append(f"{row.label} ({v}" + (
                    f"; {pct[1]} {basis}".rstrip() if pct else "") + ")")
            lines.append(f"| {row.label} | {kind} | {shares[1] if shares else '—'} | "
                         f"{pct[1] if pct else '—'} |"
                         + "".join(f" {row.cells.get(h, '').strip() or '—'} |" for h in extra))
        as_of = next((v for r in rows if (v := r.get(_AS_OF))), None)
        stated = next((c for c in table.caption if _AS_OF.search(c)), None)
        said = vocabulary()
        when = said.answer("ownership_as_of", ask.language, day=as_of[1]) if as_of else (
            f" ({stated})" if stated else "")
        head = said.answer("ownership_head", ask.language, when=when, document=source.document,
                           cite=cite(sources))
        wanted = ask.frame.share_class
        lead: list[str] = []
        if wanted:
            match = [h for h in by_class if wanted.lower() in h.lower()]
            if match:
                lead = [f"{h} shares are held by {', '.join(by_class[h])} {cite([source])}."
                        for h in match] + [""]
        notes = [c for c in _statements_in(hit)
                 if _CLASS_COLUMN.search(c) or (extra and _RIGHTS_COLUMN.search(c))]
        tail = _sum_note(total) if total else ""
        text = "\n".join([*lead, head, "", *lines, "", tail,
                          *[f"{n} {cite([source])}" for n in notes[:2]]])
        return Draft(text=text.strip())
    return None


def _rights_table(evidence: Evidence) -> Draft | None:
    """A table of what each share class carries (issue price, preference, participation,
    seniority), as the document states it, with the sentences written under it."""
    for table, hit, pieces in whole_tables(role_hits(evidence, OWNERSHIP.roles)):
        rights = [h for h in table.header[1:] if _RIGHTS_COLUMN.search(h)]
        if len(rights) < 2 or not table.has_header(_CLASS):
            continue
        columns = [h for h in table.header[1:] if h]
        lines = ["| " + " | ".join([table.header[0] or "Class", *columns]) + " |",
                 "|---|" + "---|" * len(columns)]
        lines += ["| " + " | ".join([row.label, *(row.cells.get(h, "").strip() or "—"
                                                 for h in columns)]) + " |"
                  for row in table.rows if row.cells]
        sources = [evidence.hit_source(h) for h in pieces]
        caption = next((c for c in reversed(table.caption) if c.strip()), "Share class rights")
        notes = [f"{n} {cite(sources[:1])}" for n in _statements_in(hit)
                 if _CLASS_COLUMN.search(n) or _RIGHTS_COLUMN.search(n)][:2]
        text = "\n".join([f"{caption}, from {sources[0].document} {cite(sources)}:", "",
                          *lines, "", *notes])
        return Draft(text=text.strip())
    return None


def _statements_in(hit: SearchHit) -> list[str]:
    """Prose sentences of a table passage (rights of each class, the as-of line)."""
    return [s for s in sentences(hit.text) if "|" not in s and len(s) > 40
            and not looks_like_instruction(s)]


# ---------------------------------------------------------------- management


def management(ask: Ask, evidence: Evidence) -> Draft | None:
    members = team_members(evidence)
    if not members:
        return None
    lines: list[str] = []
    for name, role, sources, _ in members:
        extra = ""
        background = person_background(evidence, name)
        if background is not None and adds_to(background[0], name, role):
            sentence, source = background
            extra = f"; {sentence}"
            sources = [*sources, source]
        title = role or "no role stated in the documents"
        lines.append(f"- **{name}** — {title}{extra} {cite(sources)}")
    missing = missing_key_roles(members)
    words, lang = vocabulary(), ask.language
    parts = [words.answer("team_count", lang, count=len(members)), *lines]
    # "who runs Globex?": its chief executive first, and since when if the documents say
    if ask.frame.runs_company and (chief := holder(evidence, KEY_ROLES[0][0])):
        parts.insert(0, holder_line(evidence, chief, lang))
    proposals = approvals([f for *_, found in members for f in found[:1]])
    offer = False
    if missing:
        what = missing[0] if len(missing) == 1 else words.answer(
            "listed_or", lang, first=", ".join(missing[:-1]), last=missing[-1])
        parts += ["", f"{words.answer('key_roles_missing', lang, what=what)} "
                  f"{qa_offer(language=lang)}"]
        question = words.answer("key_role_question", lang, what=what)
        proposals.insert(0, qa_action(question, MANAGEMENT.category))
        offer = True
    return Draft(text="\n".join(parts), proposals=proposals, offer_qa=offer,
                 rests_on=[f for *_, found in members for f in found[:1]])


def person_pay(ask: Ask, evidence: Evidence) -> Draft | None:
    """A named person's pay, read from the row that names them, with its column header."""
    assert ask.entity is not None
    texts = [(h, h.text) for h in evidence.hits if not is_request_list(evidence, h.document_id)]
    for hit, text in texts:
        for table, row in rows_naming([text], ask.entity):
            pay = [(h, v) for h, v in row.cells.items() if PAY_HEADER.search(h) and v.strip()]
            if not pay:
                continue
            source = evidence.hit_source(hit)
            stated = "; ".join(f"{h}: {_grouped(v)}" for h, v in pay)
            title = row.get(TITLE_HEADER)
            name = next((v for v in [row.label, *row.cells.values()]
                         if ask.entity.split()[-1].lower() in v.lower()), row.label)
            who = name + (f" ({title[1]})" if title else "")
            caption = next((c for c in table.caption if _SCALE_OR_CURRENCY.search(c)), "")
            unit = f" — {caption}" if caption else ""
            return Draft(text=f"{who}: {stated}{unit} {cite([source])}.")
    return None


def _grouped(value: str) -> str:
    """`185000` → `185,000`; anything else as written."""
    return f"{int(value):,}" if value.strip().isdigit() and len(value.strip()) > 4 else value


_SCALE_OR_CURRENCY = _WORDS.cues("scale_or_currency")


# ---------------------------------------------------------------- business overview

_BUSINESS = _WORDS.cues("business_description")
_PRONOUN_LED = _WORDS.cues("pronoun_lead")


def overview(ask: Ask, evidence: Evidence) -> Draft | None:
    from manda.agent.compose.synthesis import latest, reading_line

    described: list[tuple[int, str, Source]] = []
    preferred = (DocumentRole.PRESENTATION, DocumentRole.AUDITED_STATEMENTS,
                 DocumentRole.MANAGEMENT_ACCOUNTS)
    role_docs = {h.document_id for h in role_hits(evidence, preferred)
                 if (d := evidence.documents.get(h.document_id)) is not None
                 and d.role in preferred}
    for rank, hit in enumerate(role_hits(evidence, preferred)):
        for sentence in sentences(hit.text):
            if ("|" in sentence or len(sentence) < 40 or looks_like_instruction(sentence)
                    or _PRONOUN_LED.begins(sentence)):
                continue
            score = _BUSINESS.count(sentence) * 2 + (2 if hit.document_id in role_docs
                                                             else 0) - rank // 4
            if OVERVIEW.terms.found(" ".join(hit.heading_path)):
                score += 4  # it stands under "Business overview", "About us", "Unternehmensprofil"
            if score >= 4:
                described.append((score, trim(sentence, 240), evidence.hit_source(hit)))
    described.sort(key=lambda t: -t[0])
    what: list[tuple[str, Source]] = []
    for _, sentence, source in described:
        if all(sentence != s for s, _ in what):
            what.append((sentence, source))
        if len(what) >= 3:
            break
    figures: list[str] = []
    rests: list[Finding] = []
    for subject in ("revenue", "ebitda", "headcount", "arr"):
        reading = latest(evidence, subject, full_year=subject in ("revenue", "ebitda")) \
            or latest(evidence, subject)
        doc = evidence.document_of(reading.primary) if reading is not None else None
        if doc is not None and doc.role is DocumentRole.CAP_TABLE:
            continue  # a cap table states shares and stakes, never the size of the business
        if reading is not None:  # with its correction or conflict, said where it is stated
            figures.append(reading_line(reading, evidence))
            rests.append(reading.primary)
    customers = [i for i in scan(evidence) if i.topic.key == "customer_concentration"]
    if not what and not figures:
        return None
    parts: list[str] = []
    if what:
        parts += ["**What the company does**", *_lines_with_sources([(s, [src])
                                                                     for s, src in what])]
    if figures:
        parts += ["", "**Size**", *figures]
    if customers:
        item = customers[0]
        parts += ["", "**Customers**", f"- {item.statement} {cite([item.source])}"]
    parts += ["", "**Where to drill down**",
              "- “Walk me through the P&L”", "- “Who owns the company?”",
              "- “Who is on the management team?”",
              "- “What are the red flags?” (`/manda redflags`) or “What is missing?” "
              "(`/manda gaps`)"]
    return Draft(text="\n".join(parts).strip(), rests_on=rests)


# ---------------------------------------------------------------- P&L walk-through

_PNL_ROWS: tuple[tuple[str, str], ...] = (
    ("revenue", "Revenue"), ("cost of sales", "Cost of sales"), ("gross profit", "Gross profit"),
    ("ebitda", "EBITDA"), ("adjusted ebitda", "Adjusted EBITDA"), ("net income", "Net income"),
)


def _kind(period: str | None) -> str:
    return (period or "?")[:2].rstrip("0123456789 ")


def pnl(ask: Ask, evidence: Evidence) -> Draft | None:
    revenue = series(evidence, "revenue")
    if not revenue:
        return None
    kinds: dict[str, list[Reading]] = {}
    for r in revenue:
        kinds.setdefault(_kind(r.period), []).append(r)
    years = kinds.get("FY", [])
    chosen = years if len(years) >= 2 else max(kinds.values(), key=len)
    periods = [r.period or "" for r in chosen][-4:]
    if ask.period and ask.period not in periods:
        periods = [*periods[-3:], ask.period]
    lines, readings, rests = _pnl_table(evidence, periods)
    names = [period_name(p) for p in periods]
    parts = [f"P&L by {('financial year' if _kind(periods[-1]) == 'FY' else 'period')}, "
             f"{names[0]} to {names[-1]} (actuals; margins computed from the figures shown):",
             "", *lines]
    notes = _pnl_notes(evidence, readings, periods)
    later = _later_quarters(kinds.get("Q", []), periods)
    if later:  # the year so far, when the last full year is behind the latest quarters
        more, more_readings, more_rests = _pnl_table(evidence, later)
        parts += ["", f"**Latest quarters, {period_name(later[0])} to {period_name(later[-1])}**",
                  "", *more]
        notes += _pnl_notes(evidence, more_readings, later)
        rests += more_rests
    if notes:
        parts += ["", "**Reported vs adjusted, and caveats**", *dict.fromkeys(notes)]
    if any("adjusted EBITDA" in n for n in notes) and (bridge := _bridge_table(evidence)):
        parts += ["", *bridge]
    return Draft(text="\n".join(parts), proposals=approvals(rests), rests_on=rests)


def _later_quarters(quarters: Sequence[Reading], periods: Sequence[str]) -> list[str]:
    """Quarters after the last period shown (at most four), when that period is a year."""
    if not periods or _kind(periods[-1]) != "FY":
        return []
    last = period_sort_key(periods[-1])
    return [r.period or "" for r in quarters if period_sort_key(r.period) > last][-4:]


def _pnl_table(evidence: Evidence, periods: list[str]
               ) -> tuple[list[str], dict[str, dict[str, Reading]], list[Finding]]:
    """Rows revenue → gross profit → EBITDA → net income, periods as columns, with margins."""
    readings: dict[str, dict[str, Reading]] = {}
    for subject, _ in _PNL_ROWS:
        for period in periods:
            reading = read_fact(evidence, subject, period, nature=Nature.ACTUAL)
            if reading is not None and not reading.is_forecast:
                readings.setdefault(subject, {})[period] = reading
    names = [period_name(p) for p in periods]
    body = ["| Line | " + " | ".join(names) + " | Sources |",
            "|---|" + "---|" * len(periods) + "---|"]
    rests: list[Finding] = []
    for subject, label in _PNL_ROWS:
        by_period = readings.get(subject, {})
        if not by_period:
            if subject == "gross profit":
                _computed_gross_profit(readings, periods, body)
            continue
        found = [by_period[p].primary for p in periods if p in by_period]
        rests += found
        cells = [show(by_period[p].primary) if p in by_period else "—" for p in periods]
        body.append(f"| {label} | " + " | ".join(cells)
                    + f" | {cite_findings(found, evidence)} |")
        if subject in ("gross profit", "ebitda", "net income"):
            margins = [_margin(by_period.get(p), readings.get("revenue", {}).get(p))
                       for p in periods]
            if any(m != "—" for m in margins):
                body.append(f"| {label} margin (computed) | " + " | ".join(margins) + " | |")
    return body, readings, rests


def _margin(value: Reading | None, revenue: Reading | None) -> str:
    if value is None or revenue is None or not revenue.primary.value:
        return "—"
    return f"{(value.primary.value or 0.0) / revenue.primary.value * 100:.1f}%"


def _computed_gross_profit(readings: dict[str, dict[str, Reading]], periods: list[str],
                           body: list[str]) -> None:
    rev, cos = readings.get("revenue", {}), readings.get("cost of sales", {})
    cells = []
    for p in periods:
        if p in rev and p in cos:
            value = (rev[p].primary.value or 0.0) - abs(cos[p].primary.value or 0.0)
            cells.append(format_amount(value, rev[p].primary.unit))
        else:
            cells.append("—")
    if any(c != "—" for c in cells):
        body.append("| Gross profit (computed) | " + " | ".join(cells) + " | |")


def _pnl_notes(evidence: Evidence, readings: dict[str, dict[str, Reading]],
               periods: list[str]) -> list[str]:
    notes: list[str] = []
    reported, adjusted = readings.get("ebitda", {}), readings.get("adjusted ebitda", {})
    charges = [f for f in findings_for(evidence, "one-time charges") if f.value is not None]
    for p in periods:
        stated: dict[float, list[Finding]] = {}
        for f in charges:
            if f.period == p and not of_another_period(f, p, evidence):
                stated.setdefault(round(f.value or 0.0, -3), []).append(f)
        bridge = [best_of(same, evidence) for same in stated.values()]  # one line per item
        if p in adjusted and p in reported:
            a, r = adjusted[p].primary, reported[p].primary
            diff = (a.value or 0.0) - (r.value or 0.0)
            line = (f"- {period_name(p)}: adjusted EBITDA {show(a)} vs reported {show(r)} "
                    f"{cite_findings([a, r], evidence)}; the difference of "
                    f"{format_amount(abs(diff), a.unit)} is definitional (adjustments for "
                    "non-recurring items), not a disagreement between documents")
            if bridge:
                line += "; bridge items: " + "; ".join(
                    f"{_bridge_label(b)} {show(b)} {cite_findings([b], evidence)}"
                    for b in bridge)
            notes.append(line + ".")
        elif bridge and p in reported:
            b = bridge[0]
            notes.append(f"- {period_name(p)}: reported EBITDA {show(reported[p].primary)} is "
                         f"after a one-time charge of {show(b)} {cite_findings([b], evidence)}; "
                         "excluding it, the underlying figure is higher.")
    for _subject, by_period in readings.items():
        for p, reading in by_period.items():
            if reading.corrected_from:
                old = reading.corrected_from[0]
                notes.append(f"- {period_name(p)} {in_text(reading.label)}: corrected from "
                             f"{show(old)} {cite_findings([old], evidence)}.")
            if reading.conflicts:
                other = reading.conflicts[0]
                notes.append(f"- {period_name(p)} {in_text(reading.label)}: "
                             f"{evidence.filename(other.document_id)} gives {show(other)} "
                             f"{cite_findings([other], evidence)}; the documents conflict.")
    return notes


def reported_vs_adjusted(ask: Ask, evidence: Evidence) -> Draft | None:
    """Reported and adjusted EBITDA side by side for each period that states both, with the
    bridge items between them: a difference of definition, explained, never a conflict.
    None where one item the metric leaves out is asked (its reconciliation's row answers it)
    or where no period asked states both (another year's pair never leads)."""
    if ask.frame.excluded:
        return None
    reported = {r.period: r for r in series(evidence, "ebitda") if r.period}
    adjusted = {r.period: r for r in series(evidence, "adjusted ebitda") if r.period}
    both = sorted((p for p in reported if p in adjusted), key=period_sort_key)
    asked = [p for p in both if p in ask.frame.periods]
    if ask.frame.periods and not asked:
        return None
    periods = (both[:both.index(asked[-1]) + 1] if asked else both)[-3:]  # up to the asked
    if not periods:
        return None
    readings = {"ebitda": {p: reported[p] for p in periods},
                "adjusted ebitda": {p: adjusted[p] for p in periods}}
    rows = ["| | " + " | ".join(period_name(p) for p in periods) + " |",
            "|---|" + "---|" * len(periods)]
    rests: list[Finding] = []
    for subject, label in (("ebitda", "Reported EBITDA"), ("adjusted ebitda", "Adjusted EBITDA")):
        found = [readings[subject][p].primary for p in periods]
        rests += found
        rows.append(f"| {label} | " + " | ".join(show(f) for f in found) + " |")
    notes = [n for n in _pnl_notes(evidence, readings, periods) if "adjusted EBITDA" in n]
    bridge = _bridge_table(evidence)
    if bridge:  # the bridge as laid out replaces the items read one by one
        notes = [n.split("; bridge items:")[0].rstrip(".") + "." for n in notes]
        notes += ["", *bridge]
    latest = periods[-1]  # the period asked's (or the latest) two figures, above the table
    a, r = readings["adjusted ebitda"][latest].primary, readings["ebitda"][latest].primary
    lead = (f"Adjusted EBITDA was {show(a)} in {period_name(latest)}, against reported EBITDA "
            f"of {show(r)} {cite_findings([a, r], evidence)}.")
    text = "\n".join([lead, "", "Reported vs adjusted EBITDA:", "", *rows, "", *notes])
    return Draft(text=with_assumption(ask.assumption, text), proposals=approvals(rests),
                 rests_on=rests)


_REPORTED_ROW = _WORDS.cues("ebitda_reported_row")
_ADJUSTED_ROW = _WORDS.cues("ebitda_adjusted_row")


def _bridge_label(finding: Finding) -> str:
    return finding.attributes.get("row") or in_text(finding.label)


def _bridge_table(evidence: Evidence) -> list[str]:
    """The bridge as the document lays it out: the rows between reported and adjusted EBITDA,
    under their own column headers."""
    for table, hit in tables_of(role_hits(evidence, (DocumentRole.QOE_REPORT,))):
        labels = [r.label for r in table.rows]
        start = next((i for i, t in enumerate(labels) if _REPORTED_ROW.found(t)
                      or t.strip().lower() == "ebitda"), None)
        end = next((i for i, t in enumerate(labels) if _ADJUSTED_ROW.search(t)), None)
        if start is None or end is None or end - start < 2:
            continue
        source = evidence.hit_source(hit)
        return [f"**Bridge from reported to adjusted EBITDA** {cite([source])}", "",
                *render_rows(table, table.rows[start:end + 1], source)]
    return []


# ---------------------------------------------------------------- litigation and contracts


def litigation(ask: Ask, evidence: Evidence) -> Draft | None:
    cases = current([f for f in evidence.usable_findings()
                      if f.kind is FindingKind.LITIGATION
                      or subject_base(f.subject) == "litigation"], evidence)
    lines: list[str] = []
    seen: set[str] = set()
    ordered = sorted(cases, key=lambda f: (role_rank(evidence, f, LITIGATION),
                                           -sum(1 for v in f.attributes.values() if v.strip())))
    for case in ordered:
        # a case is its claimant and claim: two unnamed claims under one heading are two cases
        if _case_key(case) in seen:
            continue
        seen.add(_case_key(case))
        same = [f for f in ordered if _case_key(f) == _case_key(case)]
        party = case.entity or case.label
        bits = []
        if case.value is not None:
            bits.append(f"claim of {show(case)}")
        if case.attributes.get("court"):
            bits.append("before " + " ".join(case.attributes["court"].split()))
        if case.attributes.get("status"):
            bits.append(f"status: {case.attributes['status']}")
        if case.attributes.get("date"):
            bits.append(f"dated {case.attributes['date']}")
        statement = _statement_about(evidence, case, party)
        detail = f" — {', '.join(bits)}" if bits else ""
        text = f"**{party}**{detail}"
        sources = [evidence.finding_source(f) for f in one_per_document(same)[:3]]
        if statement is not None:
            text += f". {statement[0]}"
            sources.append(statement[1])
        lines.append(f"- {text} {cite(sources)}")
    if not lines:
        items = [i for i in scan(evidence) if i.topic.key == "litigation"]
        if not items:
            return None
        lines = [f"- {i.statement} {cite([i.source])}" for i in items]
    label = topic("litigation").label_in(ask.language)
    head = vocabulary().answer("topic_in_documents" if len(lines) > 1 else "topic_heading",
                               ask.language, label=label)
    return Draft(text="\n".join([head, *lines]), proposals=approvals(cases), rests_on=cases)



def _case_key(case: Finding) -> tuple[str, str]:
    """One case however many documents state it: its subject, else its claim's amount."""
    if ":" in case.subject or case.entity:
        return case.subject, ""
    return case.subject, f"{case.value}{case.unit}" if case.value is not None else case.label


_CASE_STATE = _WORDS.cues("case_state")


def _statement_about(evidence: Evidence, finding: Finding, party: str
                     ) -> tuple[str, Source] | None:
    """The sentences of the retrieved passage that describe a case (claimant, court, status)."""
    # a claim with no claimant named is found by its amount, in its own passage first
    key = (party.split() or [""])[0].lower() if finding.entity or not finding.value_text \
        else finding.value_text.lower()
    own_first = sorted(evidence.hits, key=lambda h: h.chunk_id != finding.chunk_id)
    for hit in own_first:
        if hit.chunk_id != finding.chunk_id and hit.document_id != finding.document_id:
            continue
        said = [s for s in sentences(hit.text) if len(s) > 30 and "|" not in s
                and not looks_like_instruction(s)]
        start = next((i for i, s in enumerate(said) if key and key in s.lower()), None)
        if start is None:
            continue
        # the sentence naming the party, then the ones that say where the case stands
        rest = sorted(range(start + 1, len(said)), key=lambda i: (
            -_CASE_STATE.count(said[i]), i))[:2]
        text = " ".join(said[i] for i in [start, *sorted(rest)])
        return trim(text, 420), evidence.hit_source(hit)
    return None


def contracts(ask: Ask, evidence: Evidence) -> Draft | None:
    found = current([f for f in evidence.usable_findings()
                      if f.kind is FindingKind.CONTRACT
                      or subject_base(f.subject) == "contract"], evidence)
    if not found:
        return None
    by_subject: dict[str, Finding] = {}
    for f in sorted(found, key=lambda f: (role_rank(evidence, f, CONTRACTS),
                                          f.attributes.get("change_of_control") != "yes",
                                          -sum(1 for v in f.attributes.values() if v.strip()))):
        by_subject.setdefault(f.subject, f)
    lines = []
    for f in by_subject.values():
        bits = [f.attributes.get("contract") or "agreement"]
        coc = f.attributes.get("change_of_control")
        if coc == "yes":
            bits.append("change-of-control clause")
        for key in ("term", "expiry", "expires", "termination", "notice"):
            if f.attributes.get(key):
                bits.append(f"{key}: {f.attributes[key]}")
        lines.append(f"- **{f.entity or f.label}** — {'; '.join(bits)} "
                     f"{cite_findings([f], evidence)}")
    head = vocabulary().answer("topic_in_documents", ask.language,
                               label=topic("contracts").label_in(ask.language))
    return Draft(text="\n".join([head, *lines]),
                 proposals=approvals(list(by_subject.values())),
                 rests_on=list(by_subject.values()))


# ---------------------------------------------------------------- any other topic

_STATEMENTS = 4


def topic_statements(ask: Ask, evidence: Evidence, wanted: Shape) -> Draft:
    """A topic with no shape of its own (data protection, open source, tax …): its best
    statements and table rows in the room, each with its place; what the question asks beyond
    the topic ("R&D tax credits") must be in them, else it was not found."""
    focus = beyond_topic(ask.frame.ranking.terms, wanted, ask.entity)
    scored: list[tuple[float, int, str, Source]] = []
    for n, (sentence, source, _row) in enumerate(candidates(evidence)):
        stated = wanted.stated.found(sentence)
        under = under_topic(wanted, source.heading_path)
        if not (stated or under or wanted.terms.found(sentence)):
            continue
        doc = evidence.documents.get(source.document_id)
        score = 3 * stated + 2 * under + wanted.prefer.count(sentence) \
            + bool(find_amounts(sentence)) + (doc is not None and doc.role in wanted.roles) \
            + 4 * coverage(sentence, focus)
        scored.append((-score, n, trim(sentence), source))
    scored.sort()
    said = [s for s in scored if coverage(s[2], focus) >= 0.5]
    if not said and evidence_first.span_confidence(
            rank_spans(ask.frame, evidence)) >= NOT_FOUND_BELOW:
        # "How much TCJA transition tax is still owed?": the topic's statements do not say
        # what it asks beyond the topic, but a sentence of the passages does (by its words,
        # not the topic's): it leads, as where no topic is asked
        return evidence_first.answer(ask, evidence, category=wanted.category)
    if not said:
        label = wanted.label_in(ask.language)  # a label as its language writes it
        label = label.lower() if ask.language == "en" else label
        what = ", ".join(focus) if focus else label
        return no_data(ask, evidence, category=wanted.category,
                       why=vocabulary().answer("not_spoken_of", ask.language, topic=label,
                                               what=what),
                       closest=[(sentence, source) for _, _, sentence, source in scored[:2]])
    lines: list[str] = []
    for _, _, sentence, source in said[:_STATEMENTS]:
        lines.append(f"- {sentence} {cite([source])}")
    head = vocabulary().answer("topic_in_documents", ask.language,
                               label=wanted.label_in(ask.language))
    return Draft(text="\n".join([head, *lines]),
                 proposals=[qa_action(wanted.question, wanted.category)])
