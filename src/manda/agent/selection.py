"""Which value answers "X for period P": corrections applied, conflicts kept, forecasts apart.

Different periods never conflict (the most recent wins when no period is asked); a corrected
version replaces the figure it corrects (and is said to); two documents that disagree on the same
period, with no correction between them, are both shown. Pure functions of the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from manda.agent.evidence import Evidence
from manda.companies import same_company
from manda.finance.amount_heads import of_another
from manda.finance.amounts import (
    find_amounts,
    format_amount,
    misread_in_english,
    same_amount,
    with_english_separators,
)
from manda.finance.compare import comparable
from manda.finance.fiscal import WEEK_YEAR_SLACK, fiscal_year_named
from manda.finance.label_heads import adds_another_thing, an_included_part, joins_line_items
from manda.finance.periods import period_end, period_kind, period_sort_key, year_of
from manda.finance.signs import loss_wording, names_a_loss
from manda.finance.vocabulary import find_line_items, metric_spec
from manda.injection import looks_like_instruction
from manda.models import TOLD_ROLES, Finding, FindingStatus, Nature
from manda.vocabulary import vocabulary

# Question subjects (vocabulary) and how extractors may key the same thing.
_ALIASES: dict[str, tuple[str, ...]] = {
    "customer concentration": ("customer concentration", "customer share", "customer_share"),
    "one-time charges": ("one-time charges", "restructuring charge", "restructuring_charge"),
    "leverage": ("leverage", "covenant"),
    "debt": ("debt", "bank debt", "bank_debt"),
    "headcount": ("headcount",),
}


_ENGLISH_ITEMS = vocabulary().languages["en"].line_items  # answers are worded in English
_CORRECTION_TEXT = vocabulary().cues("correction_stated")  # "misstated", "rectifié", "berichtigt"


def subject_base(subject: str) -> str:
    return subject.split(":", 1)[0].replace("_", " ").strip().lower()


def subject_keys(subject: str) -> set[str]:
    base = subject_base(subject)
    return {k.replace("_", " ") for k in _ALIASES.get(base, (base,))} | {base}


def subject_label(subject: str | None) -> str | None:
    if subject is None:
        return None
    spec = metric_spec(subject)
    return spec.label if spec else subject_base(subject).capitalize()


def asked_label(label: str, wording: str | None) -> str:
    """A metric named as the question names it: "Operating income" when asked so, not the
    vocabulary's "EBIT"; the label's acronyms keep their capitals ("adj. EBITDA")."""
    if not wording or wording.lower() == label.lower():
        return label
    capitals = {token.lower(): token for token in label.split() if token.isupper()}
    words = [capitals.get(token.lower(), token) for token in wording.split()]
    first = words[0]
    words[0] = first if first.isupper() else first[:1].upper() + first[1:]
    return " ".join(words)


def in_text(label: str) -> str:
    """A metric's name inside a sentence: "revenue", but "EBITDA" and "ARR" stay as they are."""
    first = label.split()[0] if label.split() else label
    return label if first.isupper() and len(first) > 1 else label[:1].lower() + label[1:]


def show(finding: Finding) -> str:
    """How a person reads the value: the document's own wording when it names the unit."""
    text = (finding.value_text or "").strip()
    marks = ("€", "£", "$", "EUR", "GBP", "USD", "CHF", "%", "x")
    if text and any(m in text for m in marks) and not _scale_left_out(text, finding.value):
        if not misread_in_english(text):
            return text
        # written the German way: an amount as the figures beside it are formatted ("€4.62M"),
        # a ratio or percentage with its separators turned, to keep its precision
        if finding.value is not None and finding.unit not in ("%", "x"):
            return format_amount(finding.value, finding.unit)
        return with_english_separators(text)
    if finding.value is None:
        return text
    return format_amount(finding.value, finding.unit)


def shown_as_named(finding: Finding, label: str) -> str:
    """The figure in the words the question names it by. A loss is a negative income: asked for
    the "Net loss", its size ("Net loss was $1.0 billion"); asked for the income of a loss, the
    negative figure and what it is ("Net income was -$1.0 billion (a net loss)")."""
    text = show(finding)
    value = finding.value
    if value is None or value >= 0 or finding.unit in ("%", "x", "people", "shares"):
        return text
    written = find_amounts(text)
    signed = len(written) == 1 and written[0].value < 0
    if names_a_loss(label):
        return format_amount(-value, finding.unit) if signed else text
    shown = text if signed else f"-{text}"
    english = _ENGLISH_ITEMS.get(finding.subject.split(":", 1)[0], ())
    wording = loss_wording(w for w in english if "|" not in w)
    if wording is None:
        return shown
    if wording.split()[-1] not in ("loss", "deficit"):
        return f"{shown} ({wording})"  # "(net cash used in operating activities)"
    return f"{shown} ({'an' if wording[:1] in 'aeiou' else 'a'} {wording})"


def segment_label(finding: Finding, label: str) -> str:
    """A segment's figure named with its segment: "Région Sud revenue", not "Revenue"."""
    segment = finding.attributes.get("segment")
    return f"{segment} {in_text(label)}" if segment else label


def _scale_left_out(text: str, value: float | None) -> bool:
    """"$416,161" read from a table "(in millions)": the wording drops the scale its value has."""
    written = find_amounts(text)
    return (value is not None and len(written) == 1 and written[0].unit is None
            and abs(written[0].value) > 0 and abs(value) >= 1000 * abs(written[0].value))


def is_clean(finding: Finding) -> bool:
    """A finding a statement may rest on: not rejected, and not lifted from an instruction."""
    return finding.status is not FindingStatus.REJECTED and not looks_like_instruction(
        finding.excerpt
    )


def _another_nouns(finding: Finding) -> bool:
    """The finding's figure is one its sentence states of a part its subject includes ("our
    cash and cash equivalents balance includes short-term investments of $4.6 billion"), or of
    another noun ("operating income includes charges of $2.5 billion", "our liabilities for
    payroll related expenses were $7.5 billion"), whoever extracted it."""
    text, written = finding.excerpt or "", finding.value_text or ""
    at = text.find(written) if written else -1
    if at < 0:
        return False
    base = subject_base(finding.subject)
    named = find_line_items(text)
    places = [(start, end) for _, start, end in named]
    ends = [end for subject, _, end in named if end <= at and subject == base]
    if ends and an_included_part(text, ends[-1], at):
        return True
    # a table row's excerpt ("Net loss | 2021: (570)") has no sentence to read
    return not finding.attributes.get("row") and of_another(
        text, 0, (at, at + len(written)), places)


def findings_for(
    evidence: Evidence, subject: str, *, entity: str | None = None, exact_entity: bool = False
) -> list[Finding]:
    """The findings of `subject`, those of `entity` first (only those: `exact_entity`). In a
    room of several companies' documents whose deal has a target, a question that names no
    company is the target's: its documents' findings first."""
    keys = subject_keys(subject)
    room = evidence.companies
    owner = room.of if room.several else (lambda _: None)
    out: list[Finding] = []
    for finding in evidence.usable_findings():
        if not is_clean(finding) or subject_base(finding.subject) not in keys:
            continue
        if joins_line_items(str(finding.attributes.get("row") or "")):
            continue  # "Debt and finance leases" states their sum, the figure of neither
        if _another_nouns(finding):
            continue  # "cash … includes short-term investments of $4.6 billion": the part's
        if (segment := finding.attributes.get("segment")) and not (
                entity and names_segment(entity, segment)):
            continue  # a segment's figure answers for that segment only, never the company
        if entity and exact_entity and not _same_entity(finding, entity,
                                                        owner(finding.document_id)):
            continue
        out.append(finding)
    if entity and not exact_entity:
        named = [f for f in out if _same_entity(f, entity, owner(f.document_id))]
        if named or not (room.several and room.company(entity) is not None):
            return named or out
        # a company of the room asked: another company's figure never stands for its own
        return [f for f in out if owner(f.document_id) is None]
    if not entity and evidence.scope is None and room.several and room.target:
        return [f for f in out if room.is_target(f.document_id)] or out
    return out


def names_segment(entity: str, segment: str) -> bool:
    """The name asked is the segment's ("North America" of "North America segment"), word
    for word: "US" is no part of "Business"."""
    asked, own = _name_words(entity), _name_words(segment)
    return bool(own) and own <= asked


def _name_words(name: str) -> set[str]:
    return {w.strip(".,;:'’()") for w in name.lower().replace("'s", " ").split()} - {""}


def _same_entity(finding: Finding, entity: str, company: str | None = None) -> bool:
    """The finding names `entity`, or its document is that company's (`company`: the
    document's, in a room of several companies)."""
    wanted = entity.lower()
    have = " ".join(filter(None, [finding.entity, finding.subject.partition(":")[2]])).lower()
    if have and (wanted in have or have.split()[0] in wanted):
        return True
    return company is not None and same_company(company, entity)


def periods_of(findings: Iterable[Finding]) -> list[str]:
    return sorted({f.period for f in findings if f.period}, key=period_sort_key)


_FULL_YEAR = re.compile(r"^FY(\d{4})$")


@dataclass(frozen=True)
class CountedYears:
    """Full years a question counted back ("last year", "the year before"), read in the room."""

    periods: list[str]  # oldest first: ["FY2022", "FY2023"]
    note: str  # "“Last year” read as FY2023, the latest full year the room reports."


def counted_years(findings: Iterable[Finding], years_back: Sequence[int]) -> CountedYears | None:
    """The full years `years_back` names (1 = the latest full year with an actual figure among
    `findings`), or None when no full year has one. A fiscal year is the room's own ("FY2024"
    for a year to March): a banker's "last year" is the company's last reported year."""
    years = [int(m.group(1)) for f in findings
             if f.nature is Nature.ACTUAL and f.period and (m := _FULL_YEAR.match(f.period))]
    if not years_back or not years:
        return None
    latest = max(years)
    periods = [f"FY{latest - (back - 1)}" for back in sorted(set(years_back), reverse=True)]
    before = [p for p in periods if p != f"FY{latest}"]
    note = f"“Last year” read as FY{latest}, the latest full year the room reports"
    if before and 1 in years_back:
        note += f"; earlier years counted back from it ({', '.join(before)})"
    elif before:
        note = (f"Counted back from FY{latest}, the latest full year the room reports: "
                f"{', '.join(before)}")
    return CountedYears(periods=periods, note=note + ".")


def choose_period(
    findings: Sequence[Finding],
    *,
    period: str | None,
    partial: str | None = None,
    wants_forecast: bool = False,
) -> str | None:
    """The asked period, else the most recent one (actuals first unless a forecast is asked)."""
    if period:
        return period
    pool = list(findings)
    if partial:
        pool = [f for f in pool if f.period and f.period.startswith(f"{partial} ")]
    actuals = [f for f in pool if f.nature is Nature.ACTUAL]
    forecasts = [f for f in pool if f.nature is Nature.FORECAST]
    preferred = (forecasts or actuals) if wants_forecast else (actuals or forecasts)
    periods = periods_of(preferred)
    return periods[-1] if periods else None


@dataclass
class Reading:
    """The answer to one metric for one period, with everything that must be said about it."""

    subject: str
    label: str
    period: str | None
    primary: Finding
    support: list[Finding] = field(default_factory=list)  # same value elsewhere (sources)
    conflicts: list[Finding] = field(default_factory=list)  # one per other value, same period
    corrected_from: list[Finding] = field(default_factory=list)  # superseded, different value

    @property
    def is_forecast(self) -> bool:
        return self.primary.nature is Nature.FORECAST

    @property
    def findings(self) -> list[Finding]:
        return [self.primary, *self.support, *self.conflicts, *self.corrected_from]


def _with_unit(value_text: str) -> bool:
    """The value as written carries its unit: a currency, a percentage, a multiple or the people
    it counts ("€5.2M", "19%", "3.0x", "120 employees", "186 salariés"), not a bare "5,200"."""
    return any(a.currency or a.unit for a in find_amounts(value_text))


def _authority(finding: Finding, evidence: Evidence, cluster_docs: int) -> tuple:
    """Which statement of a value to lead with: a document before what was told outside the
    room (a seller's answer, a note from a thread), corrections, audited and final documents,
    a total row before the rows it adds up, the report's own wording ("€5.2M" on p.1 before
    "5,200" in a table on p.2)."""
    doc = evidence.document_of(finding)
    return (
        0 if doc is not None and doc.role in TOLD_ROLES else 1,
        cluster_docs,
        1 if evidence.predecessor(finding.id) is not None else 0,
        1 if doc is not None and doc.authoritative else 0,
        0 if doc is not None and doc.draft else 1,
        1 if finding.status is FindingStatus.APPROVED else 0,
        # a row that adds another thing to the line item ("Cash, cash equivalents and
        # restricted cash") after the row of the line item itself
        0 if adds_another_thing(str(finding.attributes.get("row") or "")) else 1,
        _whole_count(finding),
        # a statement's total row states the whole ("Total net sales" over "Net product sales")
        1 if finding.attributes.get("total") == "yes" else 0,
        finding.location.kind.value == "page",
        1 if _with_unit(finding.value_text or "") else 0,
        -(finding.location.page or 0),
        doc.doc_date.toordinal() if doc is not None and doc.doc_date else 0,
    )


def _whole_count(finding: Finding) -> float:
    """A count at a date (headcount, customers): of the counts one document states for that date,
    the largest is the company's; the others count a part of it (a team, a site, a country)."""
    spec = metric_spec(subject_base(finding.subject))
    counted = spec is not None and spec.unit_kind == "count" and spec.stock
    return (finding.value or 0.0) if counted else 0.0


def best_of(findings: Sequence[Finding], evidence: Evidence) -> Finding:
    """The statement of a value to cite first (see `_authority`)."""
    return max(findings, key=lambda f: _authority(f, evidence, 0))


def is_correction_statement(finding: Finding) -> bool:
    """A sentence that reports a correction ("was misstated as EUR 3.1 million")."""
    return _CORRECTION_TEXT.found(finding.excerpt)


def _clusters(findings: Sequence[Finding]) -> list[list[Finding]]:
    clusters: list[list[Finding]] = []
    for finding in findings:
        for cluster in clusters:
            if finding.value is not None and cluster[0].value is not None and same_amount(
                finding.value, cluster[0].value
            ):
                cluster.append(finding)
                break
        else:
            clusters.append([finding])
    return clusters


def read_fact(
    evidence: Evidence,
    subject: str,
    period: str | None,
    *,
    entity: str | None = None,
    nature: Nature | None = None,
    documents: Collection[str] | None = None,
    prefer: Callable[[Finding], bool] | None = None,
    prefer_in_period: Callable[[Finding], bool] | None = None,
) -> Reading | None:
    """The most recent authoritative value of `subject` for `period`, with its caveats
    (`documents`: as stated in those documents only; `prefer`: the findings read first, where
    any is, as a level over a change by an amount; `prefer_in_period`: the same among the
    period's findings, as a whole balance's row over a portion's)."""
    pool = [f for f in findings_for(evidence, subject, entity=entity) if f.value is not None]
    if prefer is not None:
        pool = [f for f in pool if prefer(f)] or pool
    if period:
        # a balance (ARR, cash) asked for a period is the balance at its end: "October 2024"
        # and "FY2025" are read "as of 2024-10-31" and "as of" the fiscal year's last day
        at_end = balance_date(subject, period, evidence)
        pool = [f for f in pool if f.period == period] or [
            f for f in pool if at_end is not None and f.period == at_end] or [
            f for f in pool if at_end is not None and _week_year_end(f.period, at_end)]
    if documents is not None:
        pool = [f for f in pool if f.document_id in documents]
    # the period's preferred findings lead; the others still confirm, contradict or correct
    # them (a comparison read from one row still shows another document's conflicting figure)
    preferred = {f.id for f in pool if prefer_in_period(f)} if prefer_in_period else set()
    if nature is not None:
        pool = [f for f in pool if f.nature is nature] or pool
    if not pool:
        return None
    chosen = [f for f in pool if f.id in preferred] or pool
    current = [f for f in chosen if evidence.successor(f.id) is None
               and f.status is not FindingStatus.SUPERSEDED]
    corrected = [f for f in chosen if f not in current]
    if not current:
        current = [evidence.latest(f) for f in corrected]
    clusters = _clusters(current)
    ranked = sorted(
        clusters,
        key=lambda c: max(_authority(f, evidence, len({x.document_id for x in c})) for f in c),
        reverse=True,
    )
    best = ranked[0]
    best.sort(key=lambda f: _authority(f, evidence, 0), reverse=True)
    if chosen is not pool:  # the others of the period, to confirm or contradict the preferred
        ids = {f.id for f in best}
        ranked = [best, *_clusters([f for f in pool if f.id not in ids
                                    and evidence.successor(f.id) is None
                                    and f.status is not FindingStatus.SUPERSEDED])]
    primary = best[0]

    def ours(finding: Finding) -> bool:
        """Of the primary's company: another's figure neither confirms, contradicts nor
        corrects it."""
        return evidence.companies.same(finding.document_id, primary.document_id)

    support = one_per_document([f for f in best[1:]
                                if f.document_id != primary.document_id and ours(f)])
    primary_docs = {f.document_id for f in best}
    conflicts: list[Finding] = []
    restated: list[Finding] = []
    for cluster in ([f for f in c if ours(f)] for c in ranked[1:]):
        if not cluster or not comparable(cluster[0].value, primary.value, cluster[0].unit,
                                         primary.unit):
            continue  # another scale or scope, not another statement of this figure
        outside = [f for f in cluster if f.document_id not in primary_docs]
        if outside:  # another document disagrees: a conflict between documents
            conflicts.append(sorted(outside, key=lambda f: _authority(f, evidence, 0),
                                    reverse=True)[0])
        else:  # the same document also states another value: what it corrects, or a comparison
            restated += [f for f in cluster if is_correction_statement(f)]
    old = [f for f in corrected
           if f.value is not None and primary.value is not None and ours(f)
           and not same_amount(f.value, primary.value)]
    return Reading(
        subject=subject,
        label=segment_label(primary, subject_label(subject) or primary.label),
        period=period or primary.period,
        primary=primary,
        support=support[:2],
        conflicts=conflicts,
        corrected_from=one_per_document(
            sorted(old, key=lambda f: _authority(f, evidence, 0), reverse=True)
            or restated),
    )


def balance_date(subject: str, period: str, evidence: Evidence) -> str | None:
    """"as of" the last day of `period` for a balance (a stock metric), at the room's fiscal
    year end; None for a flow, or a period already a date."""
    spec = metric_spec(subject)
    if spec is None or not spec.stock or period.startswith("as of"):
        return None
    fye = evidence.fiscal_year_end()
    end = period_end(period, fye.key if fye else None)
    if end is not None and fye is not None and period_kind(period) == "FY" and \
            fiscal_year_named(end) < end.year:
        end = fye.end_of(end.year + 1)  # a retail calendar's fiscal 2025 ends in January 2026
    return f"as of {end.isoformat()}" if end else None


def _week_year_end(stated: str | None, at_end: str) -> bool:
    """A balance dated within a week of the period's nominal end: a 52/53-week year's last day
    ("as of 2023-09-30" for a year that nominally ends on 24 September)."""
    if not stated or not stated.startswith("as of ") or not at_end.startswith("as of "):
        return False
    try:
        day, end = date.fromisoformat(stated[6:]), date.fromisoformat(at_end[6:])
    except ValueError:
        return False
    return abs((day - end).days) <= WEEK_YEAR_SLACK


def one_per_document(findings: Sequence[Finding]) -> list[Finding]:
    """The first finding of each document, in order: one source per document."""
    seen: set[str] = set()
    out: list[Finding] = []
    for finding in findings:
        if finding.document_id not in seen:
            seen.add(finding.document_id)
            out.append(finding)
    return out


def series(
    evidence: Evidence, subject: str, *, nature: Nature = Nature.ACTUAL, entity: str | None = None
) -> list[Reading]:
    """One reading per period of a metric, oldest first (quarters and years kept apart)."""
    pool = [f for f in findings_for(evidence, subject, entity=entity)
            if f.value is not None and f.nature is nature]
    readings = []
    for period in periods_of(pool):
        reading = read_fact(evidence, subject, period, entity=entity, nature=nature)
        if reading is not None:
            readings.append(reading)
    return readings


def same_kind_periods(readings: Sequence[Reading]) -> list[Reading]:
    """The readings of the most frequent period kind (quarters with quarters, years with years)."""
    kinds: dict[str, list[Reading]] = {}
    for reading in readings:
        kinds.setdefault(period_kind(reading.period), []).append(reading)
    if not kinds:
        return []
    return max(kinds.values(), key=lambda rs: (len(rs), year_of(rs[-1].period) or 0))
