"""A composed answer brought into the form its question's constraints ask for.

Form constraints (a table, one sentence, the exact wording quoted, amounts in one unit, a number of
sources) are applied to the text the composer or the model wrote, by mechanisms that keep every
citation marker and every number's source; evidence constraints ("only audited", "as of",
"no forecasts") were applied when the evidence was gathered, and what they left out is said here.
Whatever still cannot be met is said beside the answer by `note_unmet` (its cautions), never
dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.agent.constraints import (
    CitedFacts,
    Constraint,
    ConstraintCheck,
    ConstraintKind,
    Constraints,
    check_constraints,
)
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite, cited_sources, strip_markers
from manda.agent.selection import show, subject_base
from manda.agent.translate import document_basis
from manda.agent.unusual import sentences
from manda.answers import AnswerNumber, Caution, caution
from manda.finance.amounts import CURRENCY_SYMBOLS, find_amounts
from manda.injection import looks_like_instruction
from manda.models import Finding
from manda.text import NOTE_LINE, SOURCE_NOTE, TABLE_LINE, is_heading_line, is_table_rule
from manda.vocabulary import vocabulary

K = ConstraintKind
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(*_])")
# a line of an answer that qualifies its lead: a correction, a conflict, a forecast or the Q&A
# offer, in the answer's language ("restated", "contradictoire", "Prognose", "Q&A")
_CAVEAT = (vocabulary().cues("answer_correction") | vocabulary().cues("answer_conflict")
           | vocabulary().cues("answer_forecast") | vocabulary().cues("qa_offer"))
_QUOTED_SPAN = re.compile(r"[“\"][^”\"]*[”\"]")
_SCALE_SUFFIX = {1e3: "k", 1e6: "M", 1e9: "bn"}
_MIN_QUOTE = 24
_BULLET = re.compile(r"^(?:[-•]|\*(?!\*))\s+")
_QA = re.compile(r"\bQ&A\b")


# ---------------------------------------------------------------- what was cited


def cited_facts(text: str, evidence: Evidence, numbers: Sequence[AnswerNumber]) -> CitedFacts:
    """The documents, stated findings and excerpts an answer's markers point to; `numbers` is
    the text's map of numbers to sources (`GateResult.numbers`)."""
    sources = cited_sources(text, evidence)
    index = evidence.source_index()
    documents = [d for s in sources if (d := evidence.documents.get(s.document_id))]
    excerpts = [e for s in sources for e in [s.excerpt, *(x.excerpt for x in index.get(s.key,
                                                                                      []))]]
    keys = {s.key for s in sources}
    pool = [*evidence.usable_findings(), *(x.finding for x in evidence.excluded if x.finding)]
    findings = [
        f for f in pool if f.value is not None and evidence.finding_source(f).key in keys
        and any(abs(n.value - f.value) <= 0.011 * abs(f.value) for n in numbers)
    ]
    return CitedFacts(documents=list({d.id: d for d in documents}.values()),
                      findings=list({f.id: f for f in findings}.values()),
                      excerpts=list(dict.fromkeys(excerpts)))


# ---------------------------------------------------------------- offline drafts


def conform_draft(text: str, constraints: Constraints, evidence: Evidence, *,
                  rests_on: Sequence[Finding] = (), terms: Sequence[str] = (),
                  subject: str | None = None, period: str | None = None
                  ) -> tuple[str, list[Caution]]:
    """The offline composer's answer in the form the constraints ask for, and the cautions that
    say what the evidence constraints left out."""
    if not constraints:
        return text, []
    if (c := constraints.get(K.MIN_SOURCES)) is not None:
        text = corroborate(text, rests_on, evidence, c.count or 2)
    if constraints.get(K.QUOTE_EXACT) is not None:
        text = with_quote(text, evidence, rests_on, terms)
    text = conform_text(text, constraints, evidence, rests_on=rests_on)
    return text, left_out_cautions(evidence, constraints, subject=subject, period=period)


def conform_text(text: str, constraints: Constraints, evidence: Evidence, *,
                 rests_on: Sequence[Finding] = ()) -> str:
    """Mechanical form changes that keep every marker: units, a table, one sentence."""
    if (c := constraints.get(K.UNITS)) is not None:
        text = in_units(text, c)
    if constraints.get(K.TABLE) is not None:
        text = as_table(text, evidence, rests_on)
    elif constraints.get(K.ONE_SENTENCE) is not None:
        text = in_one_sentence(text)
    return text


def corroborate(text: str, rests_on: Sequence[Finding], evidence: Evidence, count: int) -> str:
    """Other retrieved documents stating the same figure, added until `count` documents do."""
    cited = {s.document_id for s in cited_sources(text, evidence)}
    if len(cited) >= count:
        return text
    extra: list[Finding] = []
    for finding in rests_on:
        if finding.value is None:
            continue
        for other in evidence.usable_findings():
            if (other.document_id in cited or other.value is None
                    or subject_base(other.subject) != subject_base(finding.subject)
                    or other.period != finding.period
                    or abs(other.value - finding.value) > 0.011 * abs(finding.value)):
                continue
            cited.add(other.document_id)
            extra.append(other)
            if len(cited) >= count:
                break
        if len(cited) >= count:
            break
    lines = [f"The same figure is stated in {evidence.filename(f.document_id)} "
             f"{cite([evidence.finding_source(f)])}." for f in extra]
    return " ".join([text, *lines]) if lines else text


def with_quote(text: str, evidence: Evidence, rests_on: Sequence[Finding],
               terms: Sequence[str]) -> str:
    """The document's own wording, verbatim in quotation marks with its place, unless the answer
    already quotes a cited passage."""
    quote_only = Constraints(items=(Constraint(K.QUOTE_EXACT, "quote"),))
    # a quote is checked against the cited excerpts alone: no figure of the draft is needed
    if not check_constraints(text, quote_only, cited_facts(text, evidence, ())):
        return text
    found = _wording(evidence, rests_on, terms, cited_sources(text, evidence))
    if found is None:
        return text
    sentence, source = found
    if sentence in text:  # the answer already gives the wording: mark it as the quote
        return text.replace(sentence, f"“{sentence}”", 1)
    return f"{text}\nIn the document's words: “{sentence}” {cite([source])}"


def _wording(evidence: Evidence, rests_on: Sequence[Finding], terms: Sequence[str],
             cited: Sequence[Source]) -> tuple[str, Source] | None:
    """The exact sentence to quote: the one holding the figure the answer rests on, else the
    passage sentence sharing most of the question's words (the answer's own sources first)."""
    index = evidence.source_index()
    for finding in rests_on[:1]:
        source = evidence.finding_source(finding)
        for place in [source, *index.get(source.key, [])]:
            for sentence in sentences(place.excerpt):
                if (len(sentence) >= _MIN_QUOTE and finding.excerpt.strip()
                        and finding.excerpt.strip()[:20] in sentence):
                    return sentence, place
        if len(finding.excerpt) >= _MIN_QUOTE:
            return finding.excerpt.strip(), source
    words = {t.lower() for t in terms if len(t) > 2}
    if not words:
        return None
    cited_keys = {s.key for s in cited}
    best: tuple[tuple[int, int, int], str, Source] | None = None
    for hit in evidence.hits:
        source = evidence.hit_source(hit)
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        for sentence in sentences(hit.text):
            if len(sentence) < _MIN_QUOTE or looks_like_instruction(sentence):
                continue
            lowered = sentence.lower()
            score = sum(1 for w in words if w in lowered)
            if not score:
                continue
            rank = (score, int(source.key in cited_keys), -abs(len(sentence) - 200))
            if best is None or rank > best[0]:
                best = (rank, sentence, source)
    return (best[1], best[2]) if best else None


def left_out_cautions(evidence: Evidence, constraints: Constraints, *, subject: str | None,
                      period: str | None) -> list[Caution]:
    """What the evidence constraints kept out, by document and reason; when the figure asked
    for is stated only there, that this constraint cannot be met."""
    if not evidence.excluded:
        return []
    rules = [c for c in constraints.items
             if c.kind in (K.AUTHORITATIVE_ONLY, K.AS_OF, K.EXCLUDE_FORECASTS)]
    named = " and ".join(f"“{c.describe()}”" for c in rules) or "the question's constraints"
    by_doc: dict[str, str] = {}
    irl = {d.filename for d in evidence.documents.values() if d.is_irl}
    for item in evidence.excluded:
        if item.document not in irl:  # the request list is never evidence anyway
            by_doc.setdefault(item.document, item.reason)
    if not by_doc:
        return []
    shown = [f"{name} ({why})" for name, why in list(by_doc.items())[:4]]
    more = f" and {len(by_doc) - 4} more" if len(by_doc) > 4 else ""
    cautions = [caution("left_out", f"{named}: {', '.join(shown)}{more}.")]
    unmet = unanswerable(evidence, constraints, subject=subject, period=period)
    if unmet is not None:
        cautions.insert(0, caution("not_met", f"{unmet[0].describe()}: {unmet[1]}."))
    return cautions


def unanswerable(evidence: Evidence, constraints: Constraints, *, subject: str | None,
                 period: str | None) -> tuple[Constraint, str] | None:
    """The evidence constraint that keeps the figure asked for out of reach, and why ("no
    audited document in the room gives revenue for FY2024; …"), when every retrieved statement
    of it was left out."""
    rules = [c for c in constraints.items
             if c.kind in (K.AUTHORITATIVE_ONLY, K.AS_OF, K.EXCLUDE_FORECASTS)]
    asked = _asked_only_in_excluded(evidence, subject, period) if rules else None
    if asked is None:
        return None
    label, files = asked
    return rules[0], (f"{_none_admitted(rules[0])} in the room gives {label}; it is stated only "
                      f"in {', '.join(files)}")


def _none_admitted(rule: Constraint) -> str:
    if rule.kind is K.AUTHORITATIVE_ONLY:
        return "no audited document" if rule.audited else "no audited or final document"
    if rule.kind is K.AS_OF and rule.as_of:
        return f"no figure as of {rule.as_of:%-d %B %Y}"
    return "no actual (non-forecast) figure"


def _asked_only_in_excluded(evidence: Evidence, subject: str | None, period: str | None
                            ) -> tuple[str, list[str]] | None:
    """The figure asked for, when every retrieved statement of it was left out."""
    if not subject:
        return None
    base = subject_base(subject)

    def asked(f: Finding) -> bool:
        return subject_base(f.subject) == base and (period is None or f.period == period)

    if any(asked(f) for f in evidence.usable_findings()):
        return None
    out = [x for x in evidence.excluded if x.finding is not None and asked(x.finding)]
    if not out:
        return None
    first = out[0].finding
    assert first is not None
    label = " ".join(filter(None, [first.label.lower(), f"for {period}" if period else ""]))
    files = list(dict.fromkeys(f"{x.document} ({x.reason})" for x in out))[:3]
    return label, files


# ---------------------------------------------------------------- mechanical forms


def in_units(text: str, constraint: Constraint) -> str:
    """Every amount in the requested currency restated at the requested scale; amounts in
    another currency stay as written (there is no exchange rate to convert them with)."""
    if constraint.scale is None:
        return text
    protected = [(m.start(), m.end()) for m in _QUOTED_SPAN.finditer(text)]
    protected += [(m.start(), m.end()) for m in SOURCE_NOTE.finditer(text)]
    out, last = [], 0
    for amount in find_amounts(text):
        if (amount.currency is None or amount.unit in {"%", "x", "people", "shares"}
                or any(s <= amount.start < e for s, e in protected)):
            continue
        if constraint.currency and amount.currency != constraint.currency:
            continue
        out.append(text[last:amount.start])
        out.append(_restated(amount.value, amount.currency, constraint.scale))
        last = amount.end
    out.append(text[last:])
    return "".join(out)


def _restated(value: float, currency: str, scale: float) -> str:
    number = value / scale
    digits = 0 if abs(number) >= 100 else 2
    shown = f"{abs(number):,.{digits}f}"
    if "." in shown:
        shown = shown.rstrip("0").rstrip(".")
    sign = "-" if number < 0 else ""
    symbol = CURRENCY_SYMBOLS.get(currency)
    suffix = _SCALE_SUFFIX[scale]
    return f"{sign}{symbol}{shown}{suffix}" if symbol else f"{sign}{currency} {shown}{suffix}"


def as_table(text: str, evidence: Evidence, rests_on: Sequence[Finding] = ()) -> str:
    """The answer as a Markdown table: one row per figure it rests on (with its source and
    basis), or one row per statement; the caveats stay under the table."""
    body, notes = _split_notes(text)
    if sum(1 for line in body.splitlines() if TABLE_LINE.match(line)) >= 3:
        return text
    unique = list({f.id: f for f in rests_on}.values())
    valued = [f for f in unique if f.value is not None or f.value_text]
    if valued:
        rows = ["| Figure | Period | Value | Source | Basis |", "|---|---|---|---|---|"]
        for f in valued:
            basis = "forecast" if f.nature.value == "forecast" else document_basis(f, evidence)
            if evidence.successor(f.id) is not None:
                basis = ", ".join(filter(None, [basis, "corrected later"]))
            rows.append("| " + " | ".join(_cell(x) for x in (
                f.label, f.period or "", show(f), cite([evidence.finding_source(f)]), basis))
                + " |")
        tail = _after_first_sentence(body)  # the table states the first sentence
    else:
        rows = ["| Point | Detail |", "|---|---|"]
        for statement in _statements(body):
            label, sep, detail = statement.partition(": ")
            if sep and len(label) <= 40 and "(" not in label:
                rows.append(f"| {_cell(label.strip('*- '))} | {_cell(detail)} |")
            else:
                rows.append(f"|  | {_cell(statement)} |")
        tail = ""
    table = "\n".join(rows)
    return "\n\n".join(x for x in (table, tail, notes) if x)


def in_one_sentence(text: str) -> str:
    """The answer's first sentence, with the caveats it must carry (corrections, conflicts,
    forecasts, the Q&A offer) as clauses of the same sentence; a lead-in without a source
    ("Ownership as of 30 June 2024: 5 holders") takes its list or table rows as clauses."""
    body, notes = _split_notes(text)
    units = _units_of(body)
    if len(units) <= 1:
        return text
    first_item = next((n for n, (kind, _) in enumerate(units) if kind == "item"), len(units))
    lead = units[0][1]
    used = {0}
    if units[0][0] == "sentence" and strip_markers(lead) == lead and first_item < len(units):
        items = [n for n, (kind, _) in enumerate(units) if kind == "item"][:6]
        lead = lead.rstrip(" .:") + ": " + "; ".join(_clause(units[n][1]) for n in items)
        used |= set(items)
    rest = [u for n, (_, u) in enumerate(units) if n not in used]
    offer = [u for u in rest if _QA.search(u)][-1:]  # the Q&A offer stays: the gate needs it
    caveats = [u for u in rest if _CAVEAT.search(strip_markers(u)) and u not in offer][:3]
    caveats += offer
    clauses = [lead.rstrip(" .")] + [_clause(c, lower=True) for c in caveats]
    sentence = "; ".join(clauses) + "."
    return "\n\n".join(x for x in (sentence, notes) if x)


def _clause(text: str, *, lower: bool = False) -> str:
    """A sentence or item as a clause of a longer sentence: no full stops inside."""
    part = re.sub(r"(?<=[.!?])\s+(?=[A-Z“])", ", ", text.strip()).rstrip(" .?")
    part = re.sub(r"\.,", ",", part)
    if lower and not part[:2].isupper():
        part = part[:1].lower() + part[1:]
    return part


def _units_of(body: str) -> list[tuple[str, str]]:
    """The answer as ("sentence" | "item", text): prose sentences, list items, table rows."""
    out: list[tuple[str, str]] = []
    header_seen = False
    for raw in body.splitlines():
        line = raw.strip()
        if TABLE_LINE.match(line):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if is_table_rule(cells):
                continue
            if not header_seen:
                header_seen = True  # the header row names the columns
                continue
            marker = [c for c in cells if c.startswith("(source")]
            words = [c for c in cells if c and not c.startswith("(source")]
            out.append(("item", ", ".join(words) + (f" {marker[0]}" if marker else "")))
            continue
        header_seen = False
        if not line or is_heading_line(line):
            continue
        if _BULLET.match(line):
            out.append(("item", _BULLET.sub("", line).strip()))
        else:
            out += [("sentence", x) for x in _sentences(line)]
    return out


def _statements(body: str) -> list[str]:
    """The sentences and list items of an answer, headings left out."""
    out: list[str] = []
    for line in body.splitlines():
        line = _BULLET.sub("", line.strip()).strip()
        if not line or is_heading_line(line):
            continue
        out += _sentences(line)
    return out


def _sentences(text: str) -> list[str]:
    """Sentences of answer text, never split inside a parenthesis (a source marker, a list of
    searches) or a quotation."""
    out, start = [], 0
    for m in _SENTENCE_BREAK.finditer(text):
        before = text[start:m.start()]
        inside = before.count("(") > before.count(")") or before.count("“") > before.count(
            "”") or before.count('"') % 2 == 1
        if not inside:
            out.append(text[start:m.start()].strip())
            start = m.end()
    out.append(text[start:].strip())
    return [s for s in out if s]


def _after_first_sentence(body: str) -> str:
    first_line, _, other_lines = body.strip().partition("\n")
    rest = " ".join(_sentences(first_line)[1:])
    return "\n".join(x for x in (rest, other_lines.strip()) if x)


def _split_notes(text: str) -> tuple[str, str]:
    """The answer and its italic notes (limits, what was left out), apart."""
    body, notes = [], []
    for line in text.splitlines():
        (notes if NOTE_LINE.match(line.strip()) else body).append(line)
    return "\n".join(body).strip(), "\n".join(notes).strip()


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "/").split())


# ---------------------------------------------------------------- what is still not met


def note_unmet(checks: Sequence[ConstraintCheck]) -> list[Caution]:
    """The constraints the answer does not meet and does not say so itself, each with why."""
    return [caution("not_met", f"{c.constraint.describe()}: {c.reason}.") for c in checks
            if not c.met and not c.disclosed and c.reason]
