"""Every span of the evidence scored against the question frame, best first."""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Sequence
from datetime import date
from itertools import pairwise

from manda.agent.evidence import Evidence
from manda.agent.frame import QuestionFrame
from manda.agent.kinds import (
    asks_change,
    asks_contents,
    asks_definition_by,
    cause_after,
    counted_terms,
    names_own_figure,
    outside_containers,
    states_change,
    states_count,
)
from manda.agent.measures import measure_wordings
from manda.agent.qualifiers import Qualified, contradicted, unqualified
from manda.agent.relevance import (
    OFF_TOPIC,
    PERIOD_FORMS,
    content_terms,
    names_topic,
    says_change,
    stems_of,
    term_in,
)
from manda.agent.spans.asked import _asked_statements, _stems_of_word
from manda.agent.spans.balances import (
    _HOLDING,
    _PORTION_SECTION,
    a_movement,
    a_portion,
    balance_side,
    states_forecast,
    totals_row,
)
from manda.agent.spans.kind_fit import (
    _FIRM_WORDS,
    _a_part_row,
    _kind_fit,
    _names_aside,
    _names_item,
    _of_subject,
    _part_of_item,
    _states_figure,
    _states_recorded,
    _states_total,
    _thing_asked,
    _verb_of,
    named_after,
    question_verb,
)
from manda.agent.spans.order import (
    _largest_is_the_whole,
    _siblings_tell_apart,
    _total_where_no_row_is_named,
    _whole_over_its_portion,
)
from manda.agent.spans.period_rows import period_label
from manda.agent.spans.pool import _pool
from manda.agent.spans.rows import statement_row
from manda.agent.spans.sentences import (
    _states_nothing,
    figures_of_others,
    main_clause,
    names_a_table,
    names_among_others,
)
from manda.agent.spans.span import (
    _AUXILIARY,
    _RECORDED,
    _WORD,
    EXTRA_WORD,
    FOOTNOTE_MISS,
    KIND_FIT,
    KIND_MISS,
    MEANING,
    PART_MISS,
    PORTION_MISS,
    PROGRAMME_MISS,
    SIDE_MISS,
    TOTAL_FIT,
    TOTAL_MISS,
    Span,
    _with,
    label_periods,
)
from manda.agent.unusual import first_sentence
from manda.answers import Intent
from manda.finance.amounts import find_amounts, same_amount
from manda.finance.equivalents import named_items
from manda.finance.figures import column_date, column_year
from manda.finance.fiscal import CALENDAR_YEAR, FiscalYearEnd, fiscal_year_named
from manda.finance.label_heads import adds_another_thing, label_line_item
from manda.finance.periods import find_dates, find_periods, parse_period, period_kind, quarters_in
from manda.finance.statements import StatementKind, named_statements
from manda.finance.vocabulary import find_line_items, metric_spec
from manda.models import Document
from manda.text import YEAR, letter_words
from manda.vocabulary import vocabulary

# weights of the parts of a span's score (chosen on the filings dev split, bench/filings_answers)
WORDS, PERIOD_FIT, PERIOD_MISS, OLD_DOCUMENT, OWN_YEAR = 1.0, 0.12, 0.3, 0.35, 0.1


SUBJECT_MISS, ITEM_FIT, FORECAST_FIT = 0.3, 0.25, 0.3


# a span that states an amount the question quotes ("What drove other income of $15.2
# billion?"): it speaks of that very figure, where a sentence stating other amounts only is of
# another line item sharing its words
QUOTED_FIT = 0.3


# the line item's row in the primary statement the question asks of (a flow: the P&L or cash
# flow; a balance: the balance sheet), over its row in a note's table or MD&A's
STATEMENT_FIT = 0.1


# a span that states nothing of the kind asked (no cause for "why", no count of the things "how
# many" counts, no figure for "how much") counts its share of the question's words at 1 - ECHO
ECHO = 0.35


_STATED_KINDS = ("reason", "figure", "rate", "date", "place", "quarter", "definition", "method")


# a condition or possibility stated ("if adoption is slower…", "there is no guarantee…"), an
# exhibit index's entry, a run of headings: none states the fact asked; the question's own words
# side by side in a span ("credit ratings", "team members") say it speaks of the very thing
HEDGED, NO_STATEMENT, PHRASE = 0.3, 0.6, 0.12


# a sentence whose quote starts mid-word or mid-sentence, where its passage was cut, reads as a
# fragment: among spans that answer alike, a whole sentence leads
FRAGMENT = 0.05


# a sentence that names the thing asked as one of several it lists before the word they share
# ("driver, rider and renters incentive programs"): its figure is their sum, as far off as a
# part's row is from the whole
SUM_MISS = PART_MISS


# a sentence whose several figures are each said of another thing than asked (the question's
# words stand only in what one of them is for): it states no figure of the thing asked
OTHERS_FIGURES = KIND_FIT + KIND_MISS


# a row or sentence that names the line item asked by a sibling of the qualifier the question
# puts on it ("Net lease cost" where the operating lease cost is asked): another measure
SIBLING_MISS = PART_MISS


# a row whose every figure is nil ("Cash | 0.0 | 0.0" in a fair-value table): beside a row that
# states the item's figures, it states none of it
NIL_ROW = 0.1


# the kinds a lead-in with its items answers ("We define Contribution as revenue less cost of
# revenue, adjusted to exclude the following items: …" is a definition)
_LISTED_ANSWERS = (None, "reason", "means", "list", "definition")


_HEDGED = vocabulary().cues("hedged_statement")


_RISK_ASKED = vocabulary().cues("intent_due_diligence")


_CHANGE_ASKED = vocabulary().cues("change_asked")  # "compare", "versus"


_SPENT_AS_MEANS = vocabulary().cues("spent_as_means")  # "how much cash did it spend on"


_REMAINDER = vocabulary().cues("remainder_stated")  # "remained of", "may yet be purchased"


_CURRENT = vocabulary().cues("current_portion")  # "the current portion of long-term debt"
_INCLUDED = vocabulary().cues("portion_included")  # "including the current portion"
_LIMIT = vocabulary().cues("limit_stated")  # "authorized … up to $10.0 billion", "committed"


_USE = vocabulary().cues("programme_use_stated")  # "utilized the final $19.8 billion under …"


_FORECAST_BASE = vocabulary().cues("forecast_base")  # "compared with", "gegenüber"
_PROGRAMME = vocabulary().cues("programme_named")  # "the program", "the Revolving Credit Facility"


def states_bound(text: str) -> bool:
    """A sentence states a programme's size or what remains of it, and nothing used of it
    ("announced a new program to repurchase up to $100 billion", "$22.3 billion remained of
    our $60 billion program"): a bound of what may be spent, no amount spent."""
    return bool(_REMAINDER.search(text) or (_LIMIT.search(text) and not _USE.search(text)))


def _use_fit(span: Span, where: str) -> float:
    """How a span with a figure answers what was used of a programme: "we have repurchased …
    for a total of $6.7 billion under the program" answers, a footnote's "utilized the final
    $19.8 billion under the May 2024 program" as well as a sentence; its size ("authorized a
    $15 billion program", which names the programme by its date the more surely) and what
    remains of it state another part of it, and a figure that names no programme (the
    statement's "Repurchases of common stock", "we repurchased $89.3 billion of stock in 2025")
    is the company's whole activity, not the programme's."""
    if not _PROGRAMME.search(where):
        return -PROGRAMME_MISS
    if span.row is not None or not any(a.currency for a in find_amounts(span.text)):
        return 0.0
    if states_bound(span.text):
        return -PROGRAMME_MISS
    if _USE.search(span.text):
        return KIND_FIT + (FOOTNOTE_MISS if span.footnote else 0.0)
    return 0.0


def rank_spans(frame: QuestionFrame, evidence: Evidence) -> list[Span]:
    """Every sentence and row of the evidence, best answer to the question first (its words
    as the frame read them for ranking: `QuestionFrame.ranking`)."""
    asked = frame.ranking
    terms = [t for t in asked.terms if re.sub(r"'s?$", "", t) not in evidence.scope_words]
    if not terms:
        return []
    # the qualifier the question puts on its line item is a word a span must say, though the
    # question's words read it as a word of form ("state" of "state income taxes paid")
    terms += [t for q in frame.qualified for t in sorted(stems_of(q.word)) if t not in terms]
    when = {t for t in terms if t in asked.when or t in PERIOD_FORMS}
    core = [t for t in terms if t not in when] or terms
    pool = _pool(evidence)
    if not pool.spans:
        return []
    alone = [stems for span, stems in zip(pool.spans, pool.stems, strict=True)
             if not (span.joined or span.continued)]
    n = len(alone)  # a sentence read with the one before it is counted once, as itself
    weight = {}
    for term in terms:
        df = sum(1 for s in alone if term_in(term, s))
        weight[term] = math.log(1 + n / (1 + df)) if df else math.log(1 + n)
    if frame.answer_kind == "list" and (verb := _verb_of(frame.text, core)) is not None:
        weight[verb] /= 2  # "What services does Amazon offer?": "offer" is how it asks
    if frame.answer_kind == "definition":
        for term in (t for t in core if asks_definition_by(t)):
            weight[term] /= 2  # "How does Lyft define cash equivalents?": "define" is how it asks
    # "How many stores did Target operate?": the verb is how a count is asked; the things
    # counted are what a span must say
    verb = frame.verb if frame.verb in core and len(core) > 1 else None
    if verb is not None and (frame.counted or frame.spending):
        # "How much cash did it spend on acquisitions?": what it was spent on must be said
        weight[verb] /= 2
    total = sum(weight[t] for t in core)
    said_otherwise = [(own & set(terms), patterns) for own, patterns in asked.said_otherwise]
    # the measure asked in any of its wordings ("square footage": "Retail Square Feet")
    measured = [(set(content_terms(own)) & set(terms), pattern)
                for own, pattern in measure_wordings(frame.text)]
    # the line items named, where their figures are asked: a figure, an item left out, or the
    # line item compared between periods ("how did total assets compare with a year earlier?")
    items = [(frozenset(_item_words(own)) & set(terms), patterns)
             for own, patterns in _items_asked(frame.text)] \
        if frame.answer_kind == "figure" or frame.excluded or _compares_items(frame) else []
    # the words of the line items the question names, whatever it asks of them
    subject_words = {t for s in frame.subjects for t in _item_words(s)} & set(terms)
    if verb is not None and items and verb in _HOLDING:
        # "How much cash did it hold at year end?": the verb is how a balance is asked, which
        # its row never says; a sentence that says "held" names no more of what is asked
        total -= weight[verb]
        weight[verb] = 0.0
    # the question asks for a part of the line item ("services net sales") its table states
    part_asked = bool(items) and any(_part_of_item(s, items, core) for s in pool.spans)
    # the question's verb is how it asks ("spend" of "how much did it spend on …"), no topic
    topics = [t for t in terms if names_topic(t) and t != verb]
    years = set(frame.period_years)
    parts = set(frame.parts_of_year)
    exact = {p for p in frame.periods if not re.fullmatch(r"FY\d{4}", p)}
    latest_doc = _latest_documents(evidence)
    now = frame.now and not years  # "currently", "today": the latest document, not an older one
    # a factual question: a conditional or hedged sentence does not answer it (a question that
    # asks about risks, or in the hedge's own words, is answered by them)
    hedged = not (_HEDGED.search(frame.text) or _RISK_ASKED.search(frame.text)
                  or frame.wants_forecast)  # a forecast asked is stated as one
    pairs = _question_pairs(frame.text, core)
    # "by how much did … increase", "by how much did … reduce revenue": a change or an effect
    change_asked = frame.effect or any(says_change(t) for t in terms)
    # a balance asked at a day ("as of February 1, 2025") stands at the end of the period that
    # day closes: a roll-forward's "Balance at end of period" in that year's column
    # the part of a balance due within a year, asked itself ("the current portion of its
    # debt") or only as what the whole asked includes ("its debt, including the current portion")
    portion_named = _CURRENT.found(frame.text)
    portion_itself = portion_named and not _only_included(frame.text)
    side_asked = balance_side(frame.text, row=True) or (
        "closing" if any(period_kind(p) == "as" for p in frame.periods) else None)
    opening_asked = side_asked == "opening"
    item_words = {t for own, _ in items for t in own}
    # the words that name a part of the line item asked ("North America" of operating income),
    # where a row of the passages says them by its label or heading; a question that names
    # none asks for the whole
    labels = [stems_of(f"{s.group} {s.row.label}") if s.row is not None and items else set()
              for s in pool.spans]
    qualifiers = {t for t in core if t not in item_words and any(
        term_in(t, label) for span, label in zip(pool.spans, labels, strict=True)
        if span.row is not None and not totals_row(span.row.label))}
    # a word the question sets right before a line item asked ("unrecognized" of "unrecognized
    # stock-based compensation cost") that no row's label says and a sentence does: the item's
    # rows are of a coarser thing (the expense, not the cost not yet recognized)
    narrowed = {t for t in _modifiers(frame.text, core) if t not in item_words and
                t not in qualifiers and t not in when and any(
                    term_in(t, stems) for span, stems in zip(pool.spans, pool.stems, strict=True)
                    if span.row is None)} if items else set()
    cause_asked = frame.answer_kind == "reason"
    moved = _changed_items(frame.subjects) if cause_asked else frame.subjects
    # the kind of thing a list question asks for ("models" of "which iPhone models …")
    listing = _thing_asked(frame.text, asked.terms) & set(core) \
        if frame.answer_kind == "list" else frozenset()
    # "acquire" of "which businesses did it acquire": the verb done to a firm, which a sentence
    # names after it ("the acquisition of Halden"), where a firm is asked (not "what accounting
    # does it use": "the use of AWS chips" names no accounting)
    acted = question_verb(frame) if listing and any(
        term_in(t, _FIRM_WORDS) for t in listing) else None
    # the things asked that a filing records at an amount ("charges", "impairments")
    booked = stems_of(" ".join(m.group(0) for m in _RECORDED.finditer(frame.text)))
    recorded = frozenset(t for t in _thing_asked(frame.text, asked.terms) & set(core)
                         if term_in(t, booked))
    # "why did margins compress?": the question's verb of change is how it asks, and any change
    # a span states answers it ("gross margin decreased"), whichever word it takes
    # the statement the question names ("on the balance sheet"): every row of that statement
    # says it, as a sentence says it by its words
    statement_words = [(kind.value, {t for t in terms if term_in(t, stems_of(said))})
                       for kind, said in named_statements(frame.text)]
    asked_statements = _asked_statements(frame)
    # a balance asked of a statement line, the cash flow not asked: that statement's row of
    # the line states its change over the year, never the balance
    # or a balance asked at one end of a period ("the commercial paper balance at the end of
    # fiscal 2025": "Repayments of commercial paper" in the cash flow is no balance)
    balance_asked = (StatementKind.BALANCE in asked_statements or side_asked is not None) and \
        StatementKind.CASH_FLOW not in asked_statements
    changes = ({t for w in _WORD.findall(frame.text) if asks_change(w) for t in content_terms(w)}
               | {t for t in core if says_change(t)}) & set(core) \
        if frame.answer_kind in ("reason", "rate") else set()
    quoted = [a.value for a in find_amounts(frame.text) if a.currency and a.value]
    # a figure or a comparison asked of a line, not what the line carries: a sentence naming the
    # line only as where another figure is carried speaks of it for half
    carried_asked = frame.answer_kind in ("figure", "rate", None) and not asks_contents(frame.text)
    ranked: list[Span] = []
    wholes: list[int] = []  # the rows naming the line item asked, where its whole is asked
    # the documents a sentence of which states a line item asked as a whole ("our total unearned
    # revenue … was $25.0 billion"): their balance sheet's row of it under "Current
    # liabilities:" is that portion only
    totalled = {s.source.document_id for s in pool.spans if items and _states_total(s, items)}
    for span, name, stems, under, label_stems in zip(pool.spans, pool.names, pool.stems,
                                                     pool.under, labels, strict=True):
        if span.joined and not (cause_asked or frame.answer_kind == "method"):
            continue  # "Inventories are stated at cost. Cost is computed using …": the method
        if span.continued and frame.answer_kind != "method":
            continue  # a sentence read with the one before it answers a method asked only
        if span.listed and frame.answer_kind not in _LISTED_ANSWERS:
            continue  # a whole list answers no question for one figure, date or name
        where = f"{span.group} {span.row.label}" if span.row is not None else span.text
        if span.row is not None and not statement_row(span.row):
            where = span.text  # a record: every cell speaks ("Interest Rate (Fixed): 5.00%")
        circular = False
        matched = {t for t in terms if term_in(t, name)}
        counted = False  # a number of the very things "how many" counts
        for own, patterns in said_otherwise:
            if any(p.search(where) for p in patterns):
                matched |= own
        loose: set[str] = set()
        if span.row is not None and not statement_row(span.row):
            matched |= {t for t in terms if term_in(t, stems)}  # a record: every cell speaks
        elif span.row is not None:
            matched |= {t for kind, said in statement_words if kind in span.statements
                        for t in said}
            label = stems_of(span.row.label)
            if not label_periods(span.row) and not any(term_in(t, label) for t in core) and not any(
                    p.search(span.row.label) for _, ps in said_otherwise for p in ps):
                loose, matched = matched, set()  # only its heading speaks to the question
                if side_asked is not None and balance_side(span.row.label, row=True) == side_asked:
                    # "Balance at end of period" of a roll-forward headed by the thing asked at
                    # that end ("Reconciliation of Gross Unrecognized Tax Benefits"): its balance
                    matched = {t for t in terms if term_in(t, stems)}
            # a row's other cells (its headers) count for half, in any wording of what they
            # name ("Retail Square Feet" for the "square footage" asked)
            loose |= ({t for t in terms if term_in(t, stems)} | {
                t for own, p in measured if p.search(span.text) for t in own}) - matched
            if any("change" in h.lower() or h.strip().endswith("%") for h in span.row.cells):
                # its change column says it: "grow", and "compare" of "how did … compare with"
                matched |= {t for t in terms if says_change(t) or _CHANGE_ASKED.fullmatch(t)}
            elif sum(1 for h in span.row.cells if _column_fiscal_year(h) is not None) >= 2:
                # its columns of two periods compare them: "compare" of "how did inventories
                # compare with a year earlier?"
                matched |= {t for t in terms if _CHANGE_ASKED.fullmatch(t)}
        else:
            own = _named_by_document(span, core) if matched else set()
            circular = cause_asked and _cause_is_asked(
                span.text, [t for t in core if t not in when], _named_by_document(span, core),
                subject_words)
            if frame.answer_kind in ("figure", "rate", "reason") and (
                    cause := cause_after(span.text)) and not (
                    frame.answer_kind != "reason" and names_own_figure(
                        span.text, cause, change_asked=change_asked)):
                # "Operating expenses increased 21% driven by investments in Azure" states no
                # figure of Azure, nor why Azure grew: words after the cause count for half
                # (not "$250 million of costs related to …", nor "… due to a $2.1 billion
                # increase in Courier payments": a figure of what follows)
                head = stems_of(span.text[:cause.start()])
                loose = {t for t in matched if not term_in(t, head)} - own
                matched -= loose
            if carried_asked and (outside := outside_containers(span.text)) != span.text:
                # "… were $8.5 billion and are included in “Accrued expenses and other”": the
                # quoted statement line says where another figure is carried, not what it is
                # of; its words count for half
                said = stems_of(outside)
                carried = {t for t in matched if not term_in(t, said)} - own
                matched -= carried
                loose |= carried
            if changes and states_change(span.text):
                matched |= changes
                loose -= changes
            if counted := bool(frame.counted) and states_count(span.text, frame.counted):
                matched |= counted_terms(core, frame.counted)  # "23,400 associates" employed
            if recorded and _states_recorded(span.text):
                # "What charges did it record?": "we recorded $2.4 billion of expense related
                # to …" states the charges, in the words a filing books them
                matched |= recorded
            if listing and span.whole and span.text[:1].isupper() and (
                    matched & set(core)) - listing - when:
                # "Which iPhone models …?": "The iPhone line includes iPhone 17 Pro, …" lists
                # models without the word, as a count of associates says no "employees"
                matched |= listing
            elif listing and acted is not None and acted in matched and named_after(
                    span.text, acted, {w.lower() for w in letter_words(span.source.document)}):
                # "Which businesses did it acquire?": "we completed the acquisition of the
                # remaining interest in Cornershop" names one, though no "business" is said
                matched |= listing
            matched |= own  # the company's own filing speaks of it without naming it
            # the heading it stands under ("Capital Allocation") speaks of it for half
            loose |= {t for t in terms if term_in(t, under)} - matched
        if verb is not None and span.row is not None and (
                (own := label_line_item(span.row.label)) is not None
                and not _same_metric(own, frame.subjects)):
            # "operate" of "How many stores did Target operate?" is no word of "Operating income"
            matched.discard(verb)
            loose.discard(verb)
        aside = bool(items) and _names_aside(span, items, terms)
        part = bool(items) and not aside and _part_of_item(span, items, core)
        # a line item asked placed in another asked ("share-based payments" added back to reach
        # underlying EBITDA), or any row a question says its metric leaves out ("what charge
        # did they exclude from adjusted EBITDA?"): the row's place says how they relate
        placed = part and ((len(items) > 1 and _names_item(span, items)) or frame.excluded)
        if items and _states_figure(span):
            named = not aside and (part or counted or _names_item(span, items)
                                   or _of_subject(span, frame))
            if named:
                matched |= {t for own, _ in items for t in own}
                if placed:
                    # a line item asked, placed in another asked ("added back to reach
                    # adjusted EBITDA"): the row's place says how the question relates them
                    loose |= set(core) - matched
            else:  # "Share-based compensation" shares a word with "share repurchases" only
                matched -= {t for own, _ in items for t in own}
                loose -= {t for own, _ in items for t in own}
        else:
            named = False
        loose -= matched  # a word said in full is not said again for half
        covered = sum(weight[t] for t in matched if t in core) + 0.5 * sum(
            weight[t] for t in loose if t in core)
        if not covered:
            continue
        words = min(1.0, covered / total)
        if topics and not any(t in matched or t in loose for t in topics):
            words *= OFF_TOPIC  # about insurance only if it speaks of insurance
        score = WORDS * words
        extra: list[str] = []
        if span.row is not None:
            # a row headed by its period ("Three Months Ending December 31, 2023") says its
            # period by its label, no word of another line item
            own = "" if span.by_period and period_label(span.row.label) else span.row.label
            extra = [w for w in _WORD.findall(f"{span.group} {own}")
                     if len(w) > 3 and not any(term_in(t, stems_of(w)) for t in terms)]
            score -= EXTRA_WORD * min(len(extra), 5)
        elif names_a_table(span):
            score -= 0.2 + words / 2  # a heading or caption names what follows it
        elif _states_nothing(span.text, listing=bool(span.whole) and span.text[:1].isupper()):
            score -= NO_STATEMENT * words
        else:
            if hedged and _HEDGED.search(main_clause(span.text)):
                score -= HEDGED  # not of an aside: "…, with $6.5 billion expected to be paid"
            if span.text[:1].islower():
                score -= FRAGMENT  # a passage cut mid-sentence ("ity method investments …")
        if not frame.subjects:  # a metric asked is answered by its row or figure
            score += PHRASE * _phrase_share(pairs, where)  # a row: by its label
        score += _period_fit(span, years, evidence, latest_doc, parts, exact, now=now,
                             forecast=frame.wants_forecast)
        if span.by_period and years and not parts and not frame.remaining and not any(
                period_kind(p) == "as" for p in frame.periods):
            # a whole year asked, of a table whose rows are periods within it: a month's or a
            # quarter's line is no year's figure (what remains at the year's end is its total;
            # the days asked, "from June 29, 2025 to August 2, 2025", are a line's own period)
            score -= PERIOD_MISS
        if quoted and span.row is None and (
                stated := [a.value for a in find_amounts(span.text) if a.currency and a.value]):
            # the figure quoted, or another figure (of another line item sharing its words)
            same = any(same_amount(a, q) for a in stated for q in quoted)
            score += QUOTED_FIT if same else -QUOTED_FIT
        if cause_asked and years and span.row is None and (
                said_years := {int(y) for y in YEAR.findall(span.text)}) and not said_years & years:
            score -= PERIOD_MISS  # why it moved in 2025 against 2024, where 2023's move is asked
        elif frame.answer_kind == "figure" and years and span.row is None and (
                said_years := {int(y) for y in YEAR.findall(span.text)}) and \
                max(said_years) < min(years):
            # "As of December 31, 2019, there was $3.9 million of unrecognized cost" where 2021
            # is asked: an earlier year's figure (a later year may be a maturity, "due 2028")
            score -= PERIOD_MISS
        elif frame.answer_kind == "figure" and years and span.row is None and \
                _dated_later(span, years, evidence):
            # "As of September 27, 2025, the balance … was $8.8 billion" in a later filing of the
            # company, where the end of fiscal 2023 is asked: the figure of its own period
            score -= PERIOD_MISS
        if span.row is None and frame.subjects and not frame.derived and \
                frame.answer_kind in ("figure", "rate") and (
                head := _sentence_subject(span.text)) is not None:
            if not any(_same_metric(said, frame.subjects) for said in head[0]):
                score -= SUBJECT_MISS  # "Cost of revenue increased $3.2 billion": no revenue
            else:  # "AWS sales increased 20%" beside "Sales increased 12%": a part's, by a word
                said = [t for t in content_terms(span.text[:head[1]]) if t not in terms
                        and t not in PERIOD_FORMS and not t.isdigit()
                        and t not in evidence.scope_words]
                score -= EXTRA_WORD * min(len(said), 3)
        elif span.row is None and frame.subjects and not frame.derived and \
                frame.answer_kind in ("figure", "rate"):
            # "… reduced North America net sales by $454 million" beside "… increased net
            # sales by $4.4 billion": a part's figure, by the name before the line item
            score -= EXTRA_WORD * min(_part_named(span.text, frame.subjects, terms,
                                                  evidence.scope_words), 3)
        if circular:
            # "Segment gross margin decreased primarily due to the automotive gross margin
            # decrease discussed above" gives, as its cause, the very change asked: it points
            # to where the cause is stated, and that sentence answers
            score -= SUBJECT_MISS
        if span.row is None and cause_asked and frame.subjects and not frame.derived and \
                not _speaks_of(span.text, moved):
            # "What drove the decline in comparable sales?": a cause stated of the SG&A rate, or
            # of a sentence that names no line item asked, is not why comparable sales fell
            score -= SUBJECT_MISS
        elif span.row is None and cause_asked and frame.subjects and not frame.derived and (
                head := _sentence_subject(span.text)) is not None and not any(
                    _same_metric(said, moved) for said in head[0]):
            # "What drove services revenue growth?": "Services gross margin increased due to
            # higher services net sales" explains the margin, whose cause names the revenue
            score -= SUBJECT_MISS
        if span.row is None and frame.answer_kind is None and subject_words and not (
                subject_words & (matched | loose)):
            # "How does it measure the cost of its inventory?": a sentence that never names
            # the line item asked ("… to measure the cost of employee services") is of another
            score -= SUBJECT_MISS
        if span.row is not None and frame.subjects:
            own = label_line_item(span.row.label)  # a metric or a statement line
            if (own is not None and not _same_metric(own, frame.subjects)) or (
                    own is None and _names_inside(span.row.label, frame.subjects)):
                score -= SUBJECT_MISS  # "Cost of sales" is not sales, "Unearned revenue" none
            elif own is None and not span.group and (over := label_line_item(span.caption)) \
                    is not None and not _same_metric(over, frame.subjects):
                # "Services and other 7,830" under the caption "Cost of Revenue", where the
                # part's revenue is asked: a label that names a part only is of its caption's
                # line item
                score -= SUBJECT_MISS
        fit = _kind_fit(span, frame)
        score += fit
        if span.row is None and frame.answer_kind == "figure" and _states_figure(span) and \
                names_among_others(span.text, pairs, core):
            score -= SUM_MISS  # "the driver, rider and renters incentive programs": their sum
        elif span.row is None and frame.answer_kind == "figure" and not frame.counted and \
                figures_of_others(f"{span.pointed} {main_clause(span.text)}".strip(), [
                    t for t in core if t not in when and t not in _named_by_document(span, core)]):
            score -= OTHERS_FIGURES  # "a tax benefit of $5.9 billion for the release of …"
        if (fit <= 0 and frame.answer_kind in _STATED_KINDS) or (
                fit < 0 and frame.answer_kind == "list"):
            # it echoes the question and states nothing of the kind asked (a line item's row of
            # figures where the things it is made of are asked: "what products are in wearables?")
            score -= ECHO * words
        if frame.qualified and sibling_said(frame.qualified, span, where, stems):
            score -= SIBLING_MISS  # "Total income taxes paid" where the federal ones are asked
        if portion_named and _portion_missed(span, itself=portion_itself):
            score -= SUBJECT_MISS  # "… including the current portion": the whole, not the part
        if span.footnote and frame.answer_kind in ("figure", "rate"):
            score -= FOOTNOTE_MISS  # "(a) Includes amounts paid for …" under the table asked
        if frame.remaining and frame.answer_kind == "figure" and span.row is None and \
                _REMAINDER.search(span.text):
            score += KIND_FIT  # "… may yet be purchased under the program is $8.3 billion"
        if frame.remaining and span.by_period and not totals_row(
                span.text if span.row is None else span.row.label):
            # what remains is stated where a table by period closes, its total line; a line of
            # one period within it states what moved in that period
            score -= SIDE_MISS
        if frame.capacity and span.row is None and any(
                a.currency for a in find_amounts(span.text)):
            # the programme's size asked: "authorized a program to repurchase up to $10.0
            # billion" answers, "we have $6.1 billion remaining under the program" does not
            if _LIMIT.search(span.text):
                score += KIND_FIT
            elif _REMAINDER.search(span.text):
                score -= KIND_FIT
        if frame.programme_part == "used" and frame.answer_kind == "figure" and \
                _states_figure(span):
            score += _use_fit(span, where)
        if frame.said_as and not any(term_in(t, stems) for t in frame.said_as):
            # "each quarter" asked: a span that never says quarterly (a fiscal year's row of
            # dividends per share) states another period's figure
            score -= PERIOD_MISS
        # a forecast stated by the sentence the others point back at: "This compensation is
        # expected to be expensed …" after an actual's figure is no forecast of it
        if span.row is None and states_forecast(main_clause(first_sentence(span.text))):
            if frame.wants_forecast:
                score += FORECAST_FIT  # "net sales are expected to be between …" for guidance
            elif frame.answer_kind in ("figure", "rate") or frame.wants_actual:
                score -= FORECAST_FIT  # a forecast is no actual: "we expect capex of $5 billion"
        if named and (part or not part_asked):  # the part asked, not the item's total
            # a figure of the very line item asked, in any of its wordings: the statement's own
            # row first, where a sentence may state a variant of it
            score += ITEM_FIT if span.row is not None and statement_row(span.row) \
                else ITEM_FIT / 2
        if _states_figure(span):
            side = balance_side(where, row=span.row is not None)
            if side == ("closing" if opening_asked else "opening"):
                score -= SIDE_MISS  # the balance at the other end of the period
            elif side is None and balance_asked and (_a_change_row(span) or (
                    span.row is not None and a_movement(span.row.label))):
                # "Inventories (3,002)" in the cash flow: its change; "Repayments of
                # commercial paper": a movement of the balance, not the balance
                score -= SIDE_MISS
        # a row names the line item asked: by the vocabulary's wordings, or (an item it does not
        # know) by half the question's words ("Total liabilities"; not "Total operating
        # expenses" for the interest expense's sensitivity to rates)
        names_asked = named or (not items and words >= 0.5)
        if names_asked and span.row is not None and \
                statement_row(span.row) and asked_statements & set(span.statements) and \
                StatementKind.SEGMENT not in span.statements:
            score += STATEMENT_FIT  # the row of the statement asked, not a note's or MD&A's
        if named and span.row is not None and narrowed and not any(
                term_in(t, stems) for t in narrowed):
            score -= PART_MISS  # "Stock-based compensation" where its unrecognized cost is asked
        if named and not (part_asked or qualifiers) and _a_part_row(span, items):
            score -= PART_MISS  # "AWS" under "Net sales" where the company's net sales are asked
        elif named and span.row is not None and not part and a_portion(span.row.label) and not (
                frame.portion or any(term_in(t, label_stems) for t in qualifiers)):
            score -= PORTION_MISS  # the non-current part where the debt outstanding is asked
        elif named and span.row is not None and not part and \
                span.source.document_id in totalled and _PORTION_SECTION.begins(span.group) and \
                not (frame.portion or any(term_in(t, label_stems) for t in qualifiers)):
            score -= PORTION_MISS  # the current part, where a note states the whole
        if named and span.row is not None and totals_row(span.row.label):
            if not (part_asked or qualifiers):
                # the whole asked: its total row, unless it totals more than is asked ("Total
                # cash, cash equivalents and restricted cash" for the cash)
                more = [w for w in extra if w in span.row.label and not totals_row(w)]
                score += 0.0 if more else TOTAL_FIT
            elif not any(term_in(t, label_stems) for t in qualifiers):
                score -= TOTAL_MISS  # "Total net sales" where the iPhone's are asked
        if span.row is not None and frame.answer_kind in ("figure", "rate") and _nil_row(span):
            score -= NIL_ROW
        score += MEANING * evidence.meaning.get(span.text, 0.0)
        if when:
            score += 0.05 * len(when & {t for t in terms if term_in(t, stems)}) / len(when)
        score += min(len(span.text), 200) / 4000  # a full sentence over a fragment
        said = frozenset(t for t in qualifiers if term_in(t, label_stems)) if named else frozenset()
        ranked.append(_with(span, words=round(words, 4), score=round(score, 4), parts=said,
                            placed=placed, aside=aside))
        if named and span.row is not None and statement_row(span.row) and not (
                part_asked or qualifiers) and not adds_another_thing(span.row.label):
            wholes.append(len(ranked) - 1)  # not "… and restricted cash": more than asked
    ranked = _largest_is_the_whole(ranked, wholes)
    ranked = _siblings_tell_apart(ranked, core)
    ranked = _total_where_no_row_is_named(ranked, core, frame)
    ranked = _whole_over_its_portion(ranked, frame)
    ranked.sort(key=lambda s: -s.score)
    return ranked


def _items_asked(question: str) -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    """The line items the question names (`named_items`), but cash named as what was spent
    ("how much cash did it spend on acquisitions?"): the outflow is asked, not the balance, and
    a sentence of cash paid for something else ("we paid cash tax of $4.8 billion") is none."""
    means = {m.start(): m.end() for m in _SPENT_AS_MEANS.finditer(question)}
    lowered = question.lower()
    return tuple((own, patterns) for own, patterns in named_items(question)
                 if (at := lowered.find(own.lower())) not in means
                 or at + len(own) > means[at])  # "cash paid for interest": an item of its own


def _modifiers(question: str, core: Sequence[str]) -> set[str]:
    """The question's terms that stand right before a line item it names ("unrecognized" of
    "unrecognized stock-based compensation cost")."""
    out = set()
    for _, patterns in _items_asked(question):
        for pattern in patterns:
            if (m := pattern.search(question)) is not None and (
                    before := letter_words(question[:m.start()])):
                out |= {t for t in core if term_in(t, stems_of(before[-1]))}
    return out


def _item_words(own: str) -> list[str]:
    """The question's words that name a line item asked, as it wrote it; a question form that
    names it by its verb ("how much did Amazon's segments sell") by the verb alone: the words
    between ("North America", "International") are the parts it asks of; the words before the
    auxiliary name the item with its verb, as one term ("income tax" of "how much income tax did
    it pay": a row of "cash flow hedges" that says "cash" and "income" is no tax paid)."""
    if (auxiliary := _AUXILIARY.search(own)) is not None and own.split():
        return list(dict.fromkeys(
            [*content_terms(own[:auxiliary.start()]), *content_terms(own.split()[-1])]))
    return content_terms(own)


def _a_change_row(span: Span) -> bool:
    """A row of the cash-flow statement only: a balance-sheet line's row there is its change."""
    return span.row is not None and StatementKind.CASH_FLOW in span.statements and \
        StatementKind.BALANCE not in span.statements


def _compares_items(frame: QuestionFrame) -> bool:
    """The question compares line items it names between periods: their figures are asked."""
    return frame.intent is Intent.COMPARISON and bool(frame.subjects)


def _nil_row(span: Span) -> bool:
    """Every figure of the row is nil: zeros or dashes."""
    figures = span.figures()
    return bool(figures) and all(f.none or not f.value for f in figures)


def _named_by_document(span: Span, core: Sequence[str]) -> set[str]:
    """The question's words that name the span's document's company ("Amazon" in
    "Amazon_10-K_FY2025.pdf"): said by every sentence of that document."""
    names = _stems_of_word(" ".join(letter_words(span.source.document)))
    return {t for t in core if t.isalpha() and term_in(t, names)}


def _question_pairs(question: str, core: Sequence[str]) -> list[tuple[str, str]]:
    """The question's terms that stand side by side in it: "credit ratings", "team members"."""
    found = [next((t for t in core if term_in(t, stems_of(w))), None)
             for w in _WORD.findall(question)]
    return [(a, b) for a, b in pairwise(found) if a and b and a != b]


def _phrase_share(pairs: list[tuple[str, str]], text: str) -> float:
    """The share of the question's side-by-side terms a span says side by side too."""
    if not pairs:
        return 0.0
    stems = [_stems_of_word(w.lower()) for w in _WORD.findall(text)]
    said = sum(1 for a, b in pairs if any(
        term_in(a, x) and term_in(b, y) for x, y in pairwise(stems)))
    return said / len(pairs)


def _names_inside(label: str, asked: tuple[str, ...]) -> bool:
    """The label names a line item asked only inside a longer label whose head is another
    thing ("Net operating loss carryforwards" for the operating loss, "Cash paid for
    interest")."""
    return any(_same_metric(s, asked) for s, _, _ in find_line_items(label))


def _cause_is_asked(text: str, core: Sequence[str], own: set[str],
                    items: set[str] | frozenset[str] = frozenset()) -> bool:
    """The cause a sentence gives is the change asked itself ("… primarily due to the automotive
    gross margin decrease discussed above", asked why the automotive gross margin declined):
    every word the question asks of, its change too, stands after the causal connective (the
    company's name aside, `own`: its filing speaks of it without naming it); or the words that
    name which of its line item `items` is asked stand there only, with a change ("Windows
    revenue decreased 13% driven by a decrease in Windows OEM", asked why Windows OEM revenue
    fell): a whole explained by the part asked."""
    cause = cause_after(text)
    asked = [t for t in core if t not in own]
    if cause is None or len(asked) < 2 or not states_change(text[cause.end():]):
        return False
    said = stems_of(text[cause.end():])
    if all(term_in(t, said) for t in asked):
        return True
    named = [t for t in asked if t not in items and not says_change(t)]
    head = stems_of(text[:cause.start()])
    return bool(named) and all(term_in(t, said) for t in named) and not all(
        term_in(t, head) for t in named)


def _changed_items(asked: tuple[str, ...]) -> tuple[str, ...]:
    """The line items asked, and the item whose change a rate asked is ("revenue growth" is the
    revenue's move: "net sales increased due to …" says why it grew); a measure of its own of
    the same family ("comparable sales") is not the item's change."""
    out = list(asked)
    for subject in asked:
        spec = metric_spec(subject)
        if spec is not None and spec.group != subject and spec.group not in out and any(
                says_change(t) for t in content_terms(subject)):
            out.append(spec.group)
    return tuple(out)


def _speaks_of(text: str, asked: tuple[str, ...]) -> bool:
    """The sentence names a line item asked, or a variant of one ("adjusted EBITDA" where
    EBITDA is asked); not only the family it belongs to ("net sales" where comparable sales
    are asked)."""
    for own, _, _ in find_line_items(text):
        spec = metric_spec(own)
        if own in asked or (spec is not None and spec.group in asked):
            return True
    return False


_LIST_JOINERS = frozenset(vocabulary().words("list_joiners"))  # "A, B and C"


_SUBJECT_REACH = 40  # how far into a sentence the line item it speaks of starts


_SUBJECT_WORDS = 3  # the words before it at most ("In fiscal 2025,", "The Company's")


def _sentence_subject(text: str) -> tuple[tuple[str, ...], int] | None:
    """The line items a sentence speaks of, and where they start: the first it names, as its
    subject, within its first few words ("Cost of revenue increased …", "In fiscal 2025,
    operating income rose …"; not "leverage" of "Our strategy continues to leverage stores"),
    with those listed after it ("Revenue, gross margin, and operating income included …")."""
    named = sorted(find_line_items(text[:_SUBJECT_REACH + 80]), key=lambda found: found[1])
    if not named or named[0][1] >= _SUBJECT_REACH or \
            len(text[:named[0][1]].split()) > _SUBJECT_WORDS:
        return None
    listed = [named[0]]
    for item in named[1:]:
        between = text[listed[-1][2]:item[1]].replace(",", " ").split()
        if item[1] < listed[-1][2] or not all(w.lower() in _LIST_JOINERS for w in between):
            break
        listed.append(item)
    return tuple(subject for subject, _, _ in listed), named[0][1]


def _part_named(text: str, asked: tuple[str, ...], terms: Sequence[str],
                scope: frozenset[str] | set[str]) -> int:
    """How many capitalised words, not the question's, stand right before a line item asked
    inside a sentence ("reduced North America net sales"): the name of a part of it (a segment,
    a region, a product), where the question asks the whole. 0 at the sentence's start."""
    for subject, start, _ in find_line_items(text):
        if not _same_metric(subject, asked):
            continue
        before = text[:start].split()
        name: list[str] = []
        while len(before) > 1 and before[-1][:1].isupper() and before[-1].isalpha():
            name.append(before.pop())
        return sum(1 for w in name if not any(term_in(t, stems_of(w)) for t in terms)
                   and w.lower() not in scope)
    return 0


def _same_metric(subject: str, asked: tuple[str, ...]) -> bool:
    """The row's metric is one asked, or of its family ("adjusted EBITDA" for EBITDA)."""
    spec = metric_spec(subject)
    groups = {spec.group if spec else subject}
    wanted = {(m.group if (m := metric_spec(a)) else a) for a in asked}
    return subject in asked or bool(groups & wanted)


def _latest_documents(evidence: Evidence) -> set[str]:
    """The newest document of the company asked about (the question's scope, else the room), by
    its own date (the period it reports): where a question that names no period is answered.
    Another company's filing is never the newest of this one's."""
    dated = [(d.doc_date, d.id) for d in evidence.documents.values()
             if d.doc_date and (evidence.scope is None or d.id in evidence.scope)]
    if not dated:
        return set()
    newest = max(d for d, _ in dated)
    return {i for d, i in dated if d == newest}


def _period_fit(span: Span, years: set[int], evidence: Evidence, latest: set[str],
                asked_parts: set[str], exact: set[str] = frozenset(),  # type: ignore[assignment]
                *, now: bool = False, forecast: bool = False) -> float:
    """How well the span's period fits the years and the quarters asked (`forecast`: a
    forecast is asked, and a forecast's period is not the one it is compared with)."""
    doc = evidence.documents.get(span.source.document_id)
    doc_year = doc.doc_date.year if doc is not None and doc.doc_date else None
    if not years:
        if span.source.document_id in latest:
            return OWN_YEAR + (PERIOD_FIT if now else 0.0)
        # "currently": an older filing of the company states how things stood then
        return -PERIOD_MISS if now and doc is not None and doc.doc_date else 0.0
    fit = 0.0
    if doc_year is not None and max(years) > doc_year + 1:
        fit -= OLD_DOCUMENT  # a filing of 2023 cannot state 2025
    if span.by_period and asked_parts and span.row is not None and not period_label(
            span.row.label):
        # a quarter asked, of a table whose rows are periods: its "Thereafter" or "Total" row
        # states what falls in other periods, or in all
        fit -= PERIOD_MISS
    # a record's dates are what it states ("Maturity Date: September 2045"), as a sentence's
    if span.row is not None and statement_row(span.row):
        stated = {fy for h in span.row.cells if (fy := _column_fiscal_year(h)) is not None}
        parts = label_periods(span.row)
        if stated and not stated & years:
            fit -= PERIOD_MISS
        elif stated & years:
            # a quarter asked: a column of its whole year states the year's figure, of which
            # the quarter's is only a part (a sentence of that quarter states it)
            fit += PERIOD_FIT / 2 if asked_parts and not parts else PERIOD_FIT
        if exact and any(parse_period(h) in exact for h in span.row.cells):
            fit += PERIOD_FIT  # a column of the very period asked: "Mar-25" for March 2025
        if asked_parts and parts:  # "Three Months Ended June 30" under "2024": Q2 2024
            fit += PERIOD_FIT if parts & asked_parts else -PERIOD_MISS
    else:
        text = _forecast_own(span.text) if forecast else span.text
        said = {int(m) for m in YEAR.findall(text)} or set(span.dated_by)
        # a quarter named without its year ("in the fourth quarter") is of the year the sentence
        # states, else of its document's
        own = said or ({fiscal_year_named(doc.doc_date)} if doc is not None and doc.doc_date
                       else set())
        # a line of a quarter's table is of the quarter its title names
        # a quarter named by its last day ("the three months ended September 27, 2025") is
        # numbered as its document's fiscal year numbers it
        fiscal = _fiscal_year_end(doc)
        dated = fiscal.quarter_ended if fiscal is not None else None
        own_year_end = f"Q4 {fiscal_year_named(doc.doc_date)}" if doc is not None \
            and doc.doc_date else None
        parts = quarters_in(text, own, dated) or quarters_in(span.titled, own, dated)
        if span.by_period and span.row is not None and asked_parts and quarters_in(
                span.row.label, own, dated) == asked_parts:
            fit += PERIOD_FIT  # a row headed by the very quarter asked, as a column of it is
        if asked_parts and parts and not parts & asked_parts:
            fit -= PERIOD_MISS  # "Q2 2024 revenue was …" for Q3 2024
        elif len(asked_parts) > 1 and parts - asked_parts:
            # Q4 2021 against Q4 2020 asked: "increasing compared to the three months ended
            # September 30, 2021" compares with another quarter than asked
            fit -= PERIOD_MISS
        elif said & years and (not asked_parts or parts & asked_parts):
            # a quarter asked: a sentence dated by its year ("For the year ended December 31,
            # 2025, we recorded …, of which … in the fourth quarter") states the year's first
            year_first = bool(asked_parts) and any(
                p.startswith("FY") for p, _, _ in find_periods(span.text))
            fit += PERIOD_FIT / 2 if year_first else PERIOD_FIT
        elif asked_parts & parts:
            fit += PERIOD_FIT  # the quarter asked, named without its year in that year's filing
        if exact and any(_month_of(day) in exact for day, _, _ in find_dates(span.text)):
            fit += PERIOD_FIT  # dated in the very month asked: "as of February 22, 2022"
        if asked_parts and fiscal is not None and any(
                fiscal.ends_quarter(day) and fiscal.quarter_ended(day) in asked_parts
                and fiscal.quarter_ended(day) != own_year_end
                for day in _days_stated(span.text)):
            # dated by the last day of the quarter asked, as its fiscal year numbers it: a
            # schedule's line "September 30, 2023 $19,673" of the quarters ending on each day.
            # The day its document's own year ends dates that year's balances, no quarter's
            # ("as of December 31, 2021" in a 2021 annual report, where Q4 2021 is asked)
            fit += PERIOD_FIT
        months = _months({p for p, _, _ in find_periods(span.text)})
        if months and _months(exact):
            # a month asked ("in October 2025"): a sentence of that month states it, one dated
            # in other months only ("In March 2025, we entered into …") another event
            fit += PERIOD_FIT if months & exact else -PERIOD_MISS
        elif months and asked_parts and not any(
                asked_parts & _quarters_of_month(m, doc) for m in months):
            # a quarter asked ("Q4 fiscal 2025"): a sentence dated in months of other quarters
            # only ("In May 2025, the Company announced …") is of another event
            fit -= PERIOD_MISS
    if doc_year is not None and doc is not None and doc.doc_date is not None and any(
            fiscal_year_named(doc.doc_date) == y or doc.doc_date.year == y for y in years):
        fit += OWN_YEAR  # one company's filings told apart by the year each reports
    return fit


def states_period_asked(span: Span, frame: QuestionFrame, evidence: Evidence) -> bool:
    """A line of a table by period (`Span.by_period`) of the very period asked: its row's label
    (or the period heading its line) ends the quarter asked, as its document's fiscal year
    numbers it, or names every day asked; its total line, the quarter its table's title
    names, or, a year asked, a period of that year."""
    if not span.by_period:
        return False
    doc = evidence.documents.get(span.source.document_id)
    fiscal = _fiscal_year_end(doc)
    dated = fiscal.quarter_ended if fiscal is not None else None
    text = span.row.label if span.row is not None else span.text
    years = {int(y) for y in YEAR.findall(text)} or set(span.dated_by) or (
        {fiscal_year_named(doc.doc_date)} if doc is not None and doc.doc_date else set())
    parts = set(frame.parts_of_year)
    if parts:
        return (quarters_in(text, years, dated) or quarters_in(span.titled, years, dated)) == parts
    days = {p for p in frame.periods if period_kind(p) == "as"}
    if days:
        return days <= {p for p, _, _ in find_periods(text)}
    # a year asked: the total line of a table of that year's periods (what remains at its end)
    return span.row is None and totals_row(text) and bool(years & set(frame.period_years))


def _forecast_own(text: str) -> str:
    """A forecast's own words, before the actual it is measured against ("Operating income is
    expected to be between $16.5 billion and $21.5 billion, compared with $18.4 billion in
    first quarter 2025": of the quarter its heading names, not of 2025's)."""
    if not states_forecast(main_clause(text)) or (base := _FORECAST_BASE.search(text)) is None:
        return text
    return text[:base.start()]


def _dated_later(span: Span, years: set[int], evidence: Evidence) -> bool:
    """A sentence of a filing of a later year than asked, every day it states after the years
    asked (by the calendar and by the fiscal year each ends): its figure is of its own period."""
    doc = evidence.documents.get(span.source.document_id)
    if doc is None or doc.doc_date is None or fiscal_year_named(doc.doc_date) in years or \
            doc.doc_date.year <= max(years):
        return False
    days = [day for day, _, _ in find_dates(span.text)]
    return bool(days) and all(day.year > max(years) and fiscal_year_named(day) > max(years)
                              for day in days)


def _months(periods: set[str]) -> set[str]:
    """The months among periods, as a month period is written ("Oct 2025")."""
    return {p for p in periods if len(p) == 8 and p[:3] in calendar.month_abbr[1:]
            and p[3] == " " and p[4:].isdigit()}


def _quarters_of_month(month: str, doc: Document | None) -> set[str]:  # "May 2025"
    """The quarters a month ("May 2025") falls in: its calendar quarter, and its quarter of the
    fiscal year its document's year end starts (May 2025 is Q3 of a year ending in September):
    a quarter asked by either reading holds it."""
    day = date(int(month[4:]), list(calendar.month_abbr).index(month[:3]), 1)
    out = {CALENDAR_YEAR.quarter_of(day)}
    if (fiscal := _fiscal_year_end(doc)) is not None:
        out.add(fiscal.quarter_of(day))
    return out


def _fiscal_year_end(doc: Document | None) -> FiscalYearEnd | None:
    """The fiscal year a document numbers its quarters by, where it states one."""
    if doc is None or not doc.fiscal_year_end:
        return None
    return FiscalYearEnd.from_iso(doc.fiscal_year_end)


def _days_stated(text: str) -> list[date]:
    """The days a text states on their own ("September 30, 2023", "as of March 31, 2024"),
    not those that end a period it names ("the year ended September 30, 2023")."""
    return [date.fromisoformat(p[6:]) for p, _, _ in find_periods(text) if p.startswith("as of ")]


def _month_of(day: date) -> str:
    """A date's month as a period is written ("Feb 2022")."""
    return f"{calendar.month_abbr[day.month]} {day.year}"


def _column_fiscal_year(header: str) -> int | None:
    day = column_date(header)
    if day is not None:
        return fiscal_year_named(day)
    return column_year(header)


def sibling_said(qualified: Sequence[Qualified], span: Span, where: str, stems: set[str]) -> bool:
    """The span (named by `where`) names what a qualifier asked qualifies by a sibling, or a row
    by no word of it; a row's column titles measure its figures ("Carrying Amount | Fair
    Value"), so a qualifier they say is the row's own, as is the segment it is read under
    ("Goodwill" of the International segment, where its international goodwill is asked)."""
    said = f"{where} {span.segment} {' '.join(span.row.cells)}" if span.row is not None \
        else where
    return contradicted(qualified, said, stems) is not None or (
        span.row is not None and unqualified(qualified, span.row.label, said))


def _only_included(text: str) -> bool:
    """The text names the current portion only as what a whole includes ("long-term debt,
    including the current portion")."""
    return _INCLUDED.found(text) and not _CURRENT.found(_INCLUDED.pattern.sub(" ", text))


def _portion_missed(span: Span, *, itself: bool) -> bool:
    """The span states the other of a balance's whole and its current portion than the one
    asked: where the portion is asked, a sentence or row that names it only as what the whole
    includes ("a face value of $68.8 billion, including the current portion"); where the whole
    is asked with its portion included, the portion's own row ("Current portion of long-term
    debt")."""
    text = span.row.label if span.row is not None else span.text
    if not _CURRENT.found(text):
        return False
    if itself:
        return _only_included(text)
    return span.row is not None and not _INCLUDED.found(text)
