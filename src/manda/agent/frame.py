"""The question frame: everything a question asks, read once from its words.

Its intent (and why), topic, subjects, periods, roles, entity, constraints and language, and one
field for each thing a composer or the planner needs to know of it ("asks for the QoE
adjustments", "asks when something expires"). The words are data, one file a language
(`manda/vocabulary/languages/*.yaml`); this is the only module that reads a question's text.
Retrieval, the planner and every composer take the frame (a test holds them to it).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from itertools import takewhile
from typing import Literal

from manda.agent.awards import AwardAsked, award_asked
from manda.agent.constraints import ConstraintKind, Constraints, parse_constraints
from manda.agent.facets import facets_in
from manda.agent.intents import cued_intent
from manda.agent.measures import measure_asked
from manda.agent.qualifiers import Qualified, qualified_in
from manda.agent.relevance import (
    QuestionTerms,
    content_terms,
    question_terms,
    says_change,
    stems_of,
    term_in,
)
from manda.agent.topics import OVERVIEW, PAY, ROLE_WORDS, asked_role, roles_asked, shape_for
from manda.agent.unusual import TOPICS
from manda.answers import Intent
from manda.finance.derived import (
    Derived,
    asked_derived,
    named_formula,
    named_ratio,
    spent_ratio,
)
from manda.finance.equivalents import named_groups, named_in_other_languages, named_items
from manda.finance.facilities import facility_name
from manda.finance.fiscal import FiscalYearEnd, fiscal_year_named
from manda.finance.periods import find_dates, find_periods, is_part_of_year, period_kind, year_of
from manda.finance.vocabulary import (
    asked_items,
    find_line_items,
    find_subjects,
    item_spec,
    metric_spec,
)
from manda.models import DocumentRole
from manda.retrieval.query import SearchQuery, read_query
from manda.text import letter_words, without_possessive
from manda.vocabulary import Cues, Topic, vocabulary

__all__ = ["AnswerKind", "QuestionFrame", "Relative", "company_like", "read_question", "years_back"]

Relative = Literal["last_year", "previous_period", "same_period_last_year"]
AnswerKind = Literal["reason", "means", "method", "quarter", "ranking", "rate", "figure", "person",
                     "date", "place", "list", "definition"]
LineItemGroup = tuple[str, tuple[re.Pattern[str], ...]]
MEASURE_KINDS = ("figure", "rate")  # the answers a qualifier of a measure can qualify
SaidOtherwise = tuple[frozenset[str], tuple[re.Pattern[str], ...]]  # words, said as these

_V = vocabulary()


def _cues(name: str) -> Cues:
    """A named cue set as a question is typed: an accent may be left out ("Quien dirige …")."""
    return _V.cues(name).accents_optional()


_QUESTION_WORDS = _V.words("question_words")
_STOP = _QUESTION_WORDS | _V.words("stop_words")
# the words joining a flow to the balance it was paid on ("interest on its debt")
_FLOW_OF = _V.words("flow_of")
_RELATIVE: tuple[tuple[Relative, Cues], ...] = tuple(
    (name, _cues(f"relative_{name}"))
    for name in ("same_period_last_year", "previous_period", "last_year"))


@dataclass(frozen=True)
class QuestionFrame:
    """What a question asks for, read without looking at any data."""

    text: str  # the question as read: without its instructions ("in a table")
    intent: Intent
    explicit_intent: bool  # a cue named the intent; False when fact_lookup is the default
    intent_reason: str = ""  # why, in words, for the answer's trace
    language: str = "en"  # the language it is written in (an answer's wording follows it)
    topic: Topic | None = None  # the deal topic answered in a shape of its own
    subjects: tuple[str, ...] = ()
    # each line item as the question writes it ("operating income" for `ebit`), first wording
    named_as: tuple[tuple[str, str], ...] = ()
    periods: tuple[str, ...] = ()
    # each quarter asked by its last day ("the quarter ended September 27, 2025"), as the
    # calendar numbers it ("Q3 2025"), with that day: the room's fiscal year numbers it again
    # (`in_fiscal_year`)
    quarters_dated: tuple[tuple[str, date], ...] = ()
    partial_period: str | None = None  # "Q3" with no year: the data decides which year
    relative: Relative | None = None
    years_back: tuple[int, ...] = ()  # full years counted back from the room's latest one
    entity: str | None = None
    # a capitalised possessive that opens the question ("Target's fiscal 2025 operating
    # income?"): its capital is the sentence's, so it names a company only where the room
    # holds that company's documents (a common word's "Company's revenue?" names none)
    opening_name: str | None = None
    terms: tuple[str, ...] = ()  # content words, for topics that are not metrics
    roles: tuple[DocumentRole, ...] = ()  # the document roles its answer lives in
    asked_role: str | None = None  # "who is the CFO?": the role asked
    flag_topics: tuple[Topic, ...] = ()  # red-flag topics whose own words it uses
    line_items: tuple[LineItemGroup, ...] = ()  # each line item named: its words, every wording
    derived: Derived | None = None  # a metric a deal team computes (free cash flow, a margin)
    ranking: QuestionTerms = field(default_factory=QuestionTerms)  # how passages answer it
    answer_kind: AnswerKind | None = None  # a reason, a ranking, a rate, a figure, …
    counted: tuple[str, ...] = ()  # what "how many" counts, as asked: ("team", "members")
    # the measure its figure is of, where not money nor a count ("area" of "retail square feet
    # in Texas?"): a figure led must be of it; "" for none
    measure: str = ""
    # the place a question puts its figure in ("Texas" of "retail square feet in Texas?"): a
    # part of the company, not its filer; "" for none
    place: str = ""
    # the question's own verb, as one of its ranking terms, where an auxiliary stands before it
    # ("operate" of "How many stores did Target operate?"): how it asks, never a line item's word
    verb: str | None = None
    # what a schedule by year is asked of ("How much of the term debt is due in 2027?": "term",
    # "debt"), its words without how it asks ("due", "repay"); empty when none is asked
    schedule: tuple[str, ...] = ()
    schedule_after: bool = False  # "due after 2030": the years after the last one listed
    rank_by: Literal["growth", "size"] = "growth"  # what a ranking question ranks by
    top_first: bool = True  # the top of a ranking leads ("the worst": the bottom)
    # how a search for it reads it (line items in every wording, statements, sub-searches): the
    # search run with its text takes this same reading (`manda.retrieval.query`)
    search: SearchQuery | None = field(default=None, compare=False, repr=False)
    constraints: Constraints = field(default_factory=Constraints)  # its instructions
    drops_constraints: bool = False  # "ignore the earlier instructions"
    only_instructions: bool = False  # "Now in a table.": nothing asked but the instructions
    followup: bool = False  # phrased as a continuation: "And EBITDA?", "What about last year?"
    refers_back: bool = False  # a pronoun and no subject of its own: "Why did it drop?"
    wants_forecast: bool = False
    wants_actual: bool = False
    # "how much did X spend on acquisitions?": an outflow is answered as the amount spent
    spending: bool = False
    # "which segment grew most", "by region": the segments' blocks are what is ranked or asked
    segments: bool = False
    # the segment a question names in capitals before its segment word ("More Personal
    # Computing" of "Microsoft's More Personal Computing segment"); "" for none
    segment_named: str = ""
    # a business named after its company ("Microsoft Cloud" of the room's Microsoft filings),
    # set where the question's name is scoped to that company's documents; "" for none
    named_part: str = ""
    # what it asks of a balance or an equity award (its kind, its measure), read once
    award: AwardAsked = field(default_factory=AwardAsked)
    full_year_reply: bool = False
    same_quarter_reply: bool = False
    words: int = 0
    # what a composer or the planner asks of it, one field a question
    adjustments: bool = False  # the QoE's bridge from reported to adjusted EBITDA
    bridge: bool = False  # a metric's movement from opening to closing ("the ARR bridge")
    digest: bool = False  # what a meeting covered, with no topic of its own
    month: int | None = None  # the month it names (a meeting's)
    decisions: bool = False  # what was decided
    timeline: bool = False  # dates of events: "when … expire", "coming up", "the timeline"
    ahead: bool = False  # what is coming up
    horizon_days: float | None = None  # "in the next 6 months"
    years: tuple[int, ...] = ()  # calendar years it names
    event_kinds: tuple[str, ...] = ()  # the kinds of event asked ("expire", "matur")
    event_words: tuple[str, ...] = ()  # words that may name an event's party ("Globex")
    pay: bool = False  # a named person's pay
    person_role: bool = False  # a named person's role
    runs_company: bool = False  # "who runs Globex?": the chief executive leads the team
    year_end: bool = False  # when the fiscal year ends ("at fiscal year end 2025" is a period)
    # the company as it stands ("currently", "today", "the latest"), no period named: its
    # latest document answers
    now: bool = False
    share_of: bool = False  # a proportion of the metric ("what share of sales …")
    # the words asking it ("share") and naming the whole ("of merchandise sales"): no part's
    share_words: tuple[str, ...] = ()
    # an item the metric leaves out, asked ("what charge did they exclude from adjusted
    # EBITDA?"): its reconciliation's row answers, never the metric's own figure
    excluded: bool = False
    # a portion itself asked, or a line item named by one ("the current portion of the debt",
    # "long-term debt"): a portion's row answers it, where the whole asked is not answered by one
    portion: bool = False
    one_figure: bool = False  # one figure asked outright ("How much cash …?")
    # what a cause it names did to its line item ("How much did the new depreciation lives
    # boost operating income?"): the effect a sentence states with its cause, not the level
    effect: bool = False
    share_class: str | None = None  # the share class named ("B Ordinary")
    class_rights: bool = False  # liquidation preferences, issue prices …
    growth: bool = False
    change: bool = False  # "how did it change", "how did it evolve": a level against another
    change_words: tuple[str, ...] = ()  # the words asking it ("change"), which name no line item
    whole_sheet: bool = False  # the balance sheet, not the debt alone
    facility_terms: bool = False  # a facility's terms: maturity, pricing, security …
    drawing: bool = False  # how much of a facility is drawn or left
    # the part of an authorized amount asked (a buyback programme, a credit facility, a shelf),
    # read once from the question's cues: "size" ("what is the size of the repurchase
    # program?": the amount authorized or committed answers, not what is left of it), "used"
    # ("how much has it spent so far under the program?", "how much of the May program did it
    # use in the quarter?": what was used of it, in the period asked or to date, not its size
    # nor its remainder), "remaining" ("how much is left under the buyback program?", also what
    # is still owed: a sentence stating the remainder answers, not one of what was used); ""
    # for none
    programme_part: Literal["", "size", "used", "remaining"] = ""
    # a credit rating asked ("how do the rating agencies rate the debt?"): the line item named
    # is what is rated, no figure of it is asked
    rated: bool = False
    # a transaction asked ("what facility did it enter into in October 2025?"): the sentence of
    # the transaction answers one thing, not a listing of the line item's balances
    transaction: bool = False
    # the words a filing says for a phrase the question says its own way (`asked_as:`: "each
    # quarter" is "quarterly"), as ranking terms: what the question asks in particular, a span
    # that says none of them answers something else (a fiscal year's dividends per share)
    said_as: tuple[str, ...] = ()
    # the qualifiers it puts on its line item ("grant-date" fair value, "federal" taxes paid),
    # each with the siblings that name another measure of it (manda.agent.qualifiers)
    qualified: tuple[Qualified, ...] = ()
    # the movements and statuses of its line item it names ("additions", "cash payments",
    # "proposed"), each by its first wording (manda.agent.facets)
    facets: tuple[str, ...] = ()
    working_capital: bool = False
    facility: str | None = None  # the facility it names ("the revolver")
    reported: bool = False  # the reported figure, against the adjusted one
    versions: bool = False  # versions of a forecast, not results
    against_results: bool = False  # a forecast against what came in
    focus: tuple[str, ...] = ()  # what a risk question is about beyond risk in general
    focus_ranking: QuestionTerms = field(default_factory=QuestionTerms)
    # the questions it joins ("How much cash …, and how much of it sits abroad?"), each as
    # written; one part, or none, for a question that asks one thing
    parts: tuple[str, ...] = ()

    @property
    def subject(self) -> str | None:
        return self.subjects[0] if self.subjects else None

    @property
    def period(self) -> str | None:
        return self.periods[0] if self.periods else None

    @property
    def period_years(self) -> frozenset[int]:
        """The years the periods asked name ("FY2023", "Q4 2025", "Dec 2024"): one reading for
        every composer that picks a figure's column or a filing by its year."""
        return frozenset(y for p in self.periods if (y := year_of(p)) is not None)

    @property
    def parts_of_year(self) -> tuple[str, ...]:
        """The quarters and halves asked ("Q4 2025", "Q4 FY2025", "H1 2024"): one reading for
        every reader of the question (ranking, leads)."""
        return tuple(p for p in self.periods if is_part_of_year(p))

    @property
    def remaining(self) -> bool:
        """What is left of an authorization or a commitment is asked (or what is still owed)."""
        return self.programme_part == "remaining"

    @property
    def capacity(self) -> bool:
        """A programme's or a facility's size is asked: the amount authorized or committed."""
        return self.programme_part == "size"

    @property
    def qa_question(self) -> str:
        """The question as a Q&A request: as asked, ending in a question mark."""
        q = self.text.strip()
        return q if q.endswith("?") else q.rstrip(".") + "?"

    def says(self, phrase: str, *, whole: bool = True) -> bool:
        """Whether the question uses `phrase` (a phrase the room brings, such as an IRL
        category), as whole words or (`whole=False`) anywhere; a stop word ("it") says nothing."""
        phrase = phrase.strip()
        if not phrase or phrase.lower() in _STOP:
            return False
        if not whole:
            return phrase.lower() in self.text.lower()
        return re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", self.text, re.I) is not None

    def is_itself(self, search: str) -> bool:
        """Whether a search run is this question's own text (not to be listed as a search)."""
        return " ".join(search.strip('"“”').lower().split()) == " ".join(self.text.lower().split())

    def about(self, part: str) -> QuestionFrame:
        """The question narrowed to a part it asks ("Who is the auditor?", "audit opinion"),
        read as a question of its own in the same language."""
        return replace(read_question(part), language=self.language)

    def asked_parts(self) -> tuple[QuestionFrame, ...]:
        """Each question it joins, read on its own; a part that points back to the first
        ("how did that compare …") is read with the first part's words."""
        if len(self.parts) < 2:
            return ()
        first = self.about(self.parts[0])
        out = [first]
        for part in self.parts[1:]:
            own = self.about(part)
            if own.refers_back or not own.terms:
                own = self.about(f"{part} {' '.join((*first.terms, *first.periods))}")
            out.append(own)
        return tuple(out)

    def in_fiscal_year(self, year_end: FiscalYearEnd | None) -> QuestionFrame:
        """The question with each quarter it names by its last day numbered as the fiscal
        year of the documents asked about numbers it: with a 30 June year end, "the quarter
        ending September 30, 2023" is Q1 2024 (the calendar's Q3 2023); with a year that ends
        on the last Saturday of September, "the quarter ended September 27, 2025" is Q4 2025."""
        if year_end is None or not self.quarters_dated:
            return self
        fiscal = {p: year_end.quarter_ended(day) for p, day in self.quarters_dated}
        return replace(self, periods=tuple(fiscal.get(p, p) for p in self.periods),
                       quarters_dated=())

    def with_instructions_of(self, other: QuestionFrame) -> QuestionFrame:
        """This question read with another one's instructions ("Now in a table." after it)."""
        return replace(self, constraints=other.constraints,
                       drops_constraints=other.drops_constraints)


def read_question(question: str) -> QuestionFrame:
    """Everything the agent reads from the question text alone."""
    asked = " ".join(question.split())
    cleaned, constraints, reset = parse_constraints(asked)
    text = " ".join(cleaned.split())
    asking = _without_periods(text)  # what it asks, its period phrases read apart
    rated = _cues("rating_asked").found(text)
    # "how do the agencies rate the debt?": the debt is what is rated, not a figure asked
    asked_part = _before_reason(text)  # "… because R&D must be capitalized": R&D is the cause
    subjects = () if rated else _own_margin(asked_part, _own_metrics(asked_part))
    in_money = _in_money(text)
    if in_money is not None:
        subjects = (in_money.plus[0], *(s for s in subjects if s != in_money.name))
    periods = _periods(text) or _dated_by(constraints)
    entity = _entity(text)
    intent, explicit, why = _intent(text, subjects, periods, entity)
    partial = None
    if (ltm := _cues("ltm").search(text)) and not any(p.startswith("LTM ") for p in periods):
        # "LTM EBITDA as of March?": the twelve months to the latest March the data has
        month = _ltm_month(text, ltm.end())
        if any(_M_PERIOD.match(p) for p in periods):  # "as of March 2025": LTM Mar 2025
            periods = tuple(f"LTM {p}" if _M_PERIOD.match(p) else p for p in periods)
        elif not periods:
            partial = f"LTM {calendar.month_abbr[month]}" if month else "LTM"
    elif not periods and (m := _PARTIAL_PERIOD.search(text)):
        partial = m.group(1).upper()
    relative = next((name for name, cue in _RELATIVE if cue.found(text)), None)
    counted = years_back(text) if not periods and partial is None \
        and relative != "same_period_last_year" else ()
    words = len(re.findall(r"[\w€£$%.]+", text))
    opener = text.split()[0].lower().strip("?,.!") if text.split() else ""
    short = 0 < words <= 3 and not explicit and opener not in _QUESTION_WORDS
    topic = shape_for(text)
    focus = _focus(text)
    ahead = _cues("ahead_asked").found(text)
    event_kinds = tuple(kind for kind, cue in _V.event_kinds() if cue.found(text))
    line_items = tuple(named_groups(text))
    # "each quarter" ranks passages by "quarterly"; "because" is no word a passage answers by
    ranking = _ranking(_in_filing_words(_without_reason_word(text)))
    # "how much of its tax contingencies would lower its effective tax rate?": the metric a
    # part would move is not what is asked, the part is
    asking, moved = _without_affected(asking), _without_affected(text)
    kind = _answer_kind(_in_filing_words(asking), subjects, bool(
        (subjects or named_items(text)) and not rated) or _cues("per_unit").found(text)
        or _dated_thing(text) or _terse_dated(text, periods),
        at_a_date=_cues("closing_year_lead").found(text)
        or _cues("period_phrase").found(text)
        # "what were its gross unrecognized tax benefits as of February 1, 2025?": a balance
        or any(period_kind(p) == "as" for p in periods),
        amount_of_period=_cues("answer_amount_of_period").found(text))
    if in_money is not None and kind in (None, "rate"):
        kind = "figure"  # the margin's amount, in money, not its rate
    if kind in _POLICY_KINDS and intent is Intent.DUE_DILIGENCE:
        # "when does it record a liability for a legal proceeding?": the rule it records by, a
        # fact of its accounting policies, not a review of its liabilities
        intent, why = Intent.FACT_LOOKUP, f"a {kind} asked: the company's own rule, looked up"
    verb = _verb(text, ranking, entity)
    # a flow of a period asked ("how much debt did it repay?") is its cash-flow row, no schedule
    # of what falls due: a schedule is of a balance
    flows_only = bool(subjects) and not any(_a_balance(s) for s in subjects)
    schedule = () if flows_only else _schedule(asking, kind, verb, len(periods) == 1)
    spent = spent_ratio(asking, _cues("share_spent"), _cues("spent_on"))
    measure = measure_asked(text)
    return QuestionFrame(
        text=text,
        intent=intent,
        explicit_intent=explicit,
        intent_reason=why,
        language=_V.language_of(text),
        topic=topic,
        subjects=subjects,
        named_as=_named_as(text),
        periods=periods,
        quarters_dated=_quarters_dated(text, periods),
        partial_period=partial,
        relative=relative,
        years_back=counted,
        entity=entity,
        opening_name=_opening_name(text) if entity is None else None,
        terms=_terms(text),
        roles=roles_asked(_blanked(text, _cues("named_plans"))),  # an ESPP is no census
        asked_role=asked_role(text),
        flag_topics=tuple(t for t in TOPICS if t.terms.found(_without_line_items(text))),
        line_items=line_items,
        derived=None if in_money is not None else asked_derived(moved)
        or named_formula(text, _V.words("formula_less"))
        or named_ratio(text, _cues("formula_over")) or spent,
        ranking=ranking,
        answer_kind=kind,
        counted=() if in_money is not None else _counted(text, entity),  # dollars are no count
        measure=measure,
        place=_placed(text, entity) or (_place_named(text) if measure else ""),
        verb=verb,
        schedule=schedule,
        schedule_after=bool(schedule) and _cues("schedule_after").found(text),
        rank_by="size" if _cues("rank_by_size").found(text)
        and not _cues("rank_by_growth").found(text) else "growth",
        top_first=not _cues("rank_from_bottom").found(text),
        search=read_query(text),
        constraints=constraints,
        drops_constraints=reset,
        only_instructions=bool(constraints) and not _asks_anything(text, asked),
        followup=_cues("followup").starts(text) is not None or short,
        refers_back=not subjects and _cues("refers_back").found(text),
        wants_forecast=_cues("forecast_asked").found(text),
        wants_actual=_cues("actual_asked").found(text),
        spending=_cues("spending_asked").found(text),
        segments=_cues("segment_words").found(text),
        segment_named=_segment_named(text),
        award=award_asked(text),
        full_year_reply=_cues("full_year_reply").found(text),
        same_quarter_reply=_cues("same_quarter_reply").found(text),
        words=words,
        adjustments=_cues("adjustments_asked").found(text),
        bridge=_cues("bridge_asked").found(text),
        digest=_cues("digest_asked").found(text) and not _topic_words(text),
        month=_month(text),
        decisions=_cues("decisions_asked").found(text),
        # "how much of the debt is due in 2027?" asks a schedule's amount, not dated events
        timeline=not schedule and ((ahead and _cues("dated_events").found(text))
                                   or _cues("when_asked").found(text)
                                   or _cues("history_asked").found(text)),
        ahead=ahead,
        horizon_days=_horizon_days(text),
        years=tuple(int(y) for y in _YEAR.findall(text)),
        event_kinds=event_kinds,
        event_words=_event_words(text),
        # "what margin did AWS earn?": a metric earned is no one's pay
        pay=PAY.found(text) and not asked_derived(text),
        person_role=_cues("person_role_asked").found(text),
        runs_company=_cues("runs_company").found(text),
        year_end=_cues("year_end_asked").found(asking),
        now=_cues("now_asked").found(asking) and not periods,
        # "what share of net sales did it spend on R&D?" is R&D over net sales, not a part's
        share_of=_cues("share_asked").found(text) and spent is None,
        share_words=tuple(content_terms(" ".join(
            m.group(0) for m in _cues("share_asked").finditer(text)))) + _share_whole(text),
        excluded=_cues("excluded_asked").found(text),
        portion=_cues("portion_asked").found(text),
        one_figure=_one_figure(text),
        # "how much cash tax did it pay because …": the effect a sentence states with its cause
        effect=_asks_effect(text, subjects) or (asked_part != text and kind == "figure"),
        share_class=_share_class(text),
        class_rights=_cues("class_rights_asked").found(text),
        growth=_cues("growth_asked").found(text),
        change=_cues("change_asked").found(text),
        change_words=tuple(content_terms(" ".join(
            m.group(0) for m in _cues("change_asked").finditer(text)))),
        whole_sheet=_cues("sheet_asked").found(text),
        facility_terms=_cues("facility_terms_asked").found(text),
        drawing=_cues("drawing_asked").found(text),
        programme_part=_programme_part(text),
        rated=rated,
        transaction=_cues("transaction_asked").found(text),
        said_as=_said_as(text),
        # a measure's qualifier qualifies an amount or a rate asked: "state" of "in what state
        # was it incorporated" is a place, not state taxes
        qualified=qualified_in(text, subjects,
                               now=_cues("now_asked").found(asking) and not periods)
        if kind in MEASURE_KINDS else (),
        facets=facets_in(text),
        working_capital=_cues("working_capital_asked").found(text),
        facility=facility_name(text),
        reported=_cues("reported_asked").found(text),
        versions=_cues("versions_asked").found(text),
        against_results=_cues("results_asked").found(text),
        focus=focus,
        focus_ranking=question_terms(" ".join(focus)),
        parts=_parts(text),
    )


# ---------------------------------------------------------------- intent


def _share_whole(text: str) -> tuple[str, ...]:
    """The words naming the whole a share is asked of, up to the verb or preposition after it
    ("what share of Target's merchandise sales was …": merchandise sales)."""
    m = _cues("share_asked").search(text)
    if m is None:
        return ()
    words: list[str] = []
    for word in text[m.end():].split():
        bare = word.strip("?,.;:!").lower()
        if not bare or bare in _STOP:
            break
        words.append(bare)
        if word[-1:] in "?,.;:!":
            break
    return tuple(content_terms(" ".join(words)))


def _in_money(text: str) -> Derived | None:
    """A margin asked in money ("how many dollars of gross margin did Services generate?"):
    the rate's amount, its one line item (gross profit), not the rate; None otherwise."""
    derived = asked_derived(text)
    if derived is None or derived.unit != "percent" or len(derived.plus) != 1 or derived.minus \
            or not _cues("money_of_rate_asked").found(text):
        return None
    return derived


def _own_metrics(text: str) -> tuple[str, ...]:
    """The line items it names, each once: every metric, and every statement line named by
    itself ("total assets", "inventories", "goodwill": `asked_items`); a line item inside a
    metric per unit of something is not asked ("revenue per active rider", "EBITDA per
    employee": neither revenue, nor EBITDA, nor the headcount)."""
    per = [(m.start(), m.end()) for m in _cues("per_unit").finditer(text)]
    # a word of a longer line item's name in another language ("efectivo" in "tipo impositivo
    # efectivo", the tax rate) is not the line item its word alone names (cash)
    longer = [(a, b, key) for key, a, b in named_in_other_languages(text)]
    # cash named as what was spent ("how much cash did it spend on acquisitions?") is no balance
    # asked: the outflow is what it was spent on
    # ("cash paid for interest" is a line item of its own: it goes on past the words of spending)
    # (only a balance is the means: "cash dividends paid in 2025" asks the dividends)
    means = [(m.start(), m.end()) for m in _cues("spent_as_means").finditer(text)]
    found = [(s, start, end) for s, start, end in asked_items(text)
             if not _in_named_plan(text, start, end)
             and not any(_beside(text, end, a) or _beside(text, b, start) for a, b in per)
             and not (_a_balance(s) and any(start == a and end <= b for a, b in means))
             and not any(a <= start and end <= b and (b - a) > (end - start) and key != s
                         for a, b, key in longer)]
    # a balance named as what a flow asked was paid on ("cash paid for interest on its debt")
    # is no line item asked: the flow is
    flows = [end for s, _, end in found if not _a_balance(s)]
    return _unique(s for s, start, _ in found
                   if not (_a_balance(s) and any(_flow_of(text[end:start]) for end in flows)))


def _a_balance(subject: str) -> bool:
    """The line item is a balance at a date (cash, debt), not a flow over a period."""
    spec = item_spec(subject)
    return spec is not None and (spec.stock or spec.sheet)


def _flow_of(between: str) -> bool:
    """The words between a flow and a balance after it join the balance to the flow as what it
    was paid on ("on its", "of the"): a word or three, the first a word of that joining."""
    words = between.split()
    return 0 < len(words) <= 3 and words[0].lower() in _FLOW_OF and not any(
        c in between for c in ",;?")


def _beside(text: str, left: int, right: int) -> bool:
    """Only a space, or a word or two ("per active rider", "per average user"), between."""
    between = text[left:right]
    return right >= left and len(between.split()) <= 2 and not any(c in between for c in ",;?")


def _period_phrases(text: str) -> list[tuple[int, int]]:
    """Where it names its period in words ("at fiscal year end 2025", "as of year-end", "a year
    earlier"), beside the periods the period reader finds."""
    spans = [(a, b) for _, a, b in _led_years(text)]
    for cue in (_cues("period_phrase"), *(c for _, c in _RELATIVE)):
        spans += [(m.start(), m.end()) for m in cue.finditer(text)]
    return spans


def _without_periods(text: str) -> str:
    """The question with its periods blanked: a period is read apart, never as what is asked
    nor as the kind of answer ("at fiscal year end" asks no year end). Positions stay."""
    spans = [(a, b) for _, a, b in find_periods(text, bare_years=True)] + _period_phrases(text)
    out = list(text)
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)


def compared_thing(frame: QuestionFrame) -> str:
    """The question's own words of what a comparison asks of, without its periods, its company
    and its words of comparing ("accrued expenses and other" of "How did Amazon's accrued
    expenses and other at December 31, 2025 compare with a year earlier?"); empty when none."""
    own = stems_of(frame.entity or "")
    kept = [t for t in frame.ranking.terms if t not in frame.ranking.when and not term_in(t, own)
            and not says_change(t) and not _cues("change_asked").fullmatch(t)]
    words = (w.strip("?!.,;:()") for w in _without_periods(frame.text).split())
    return " ".join(w for w in words if not w.isdigit()
                    and any(term_in(t, stems_of(w)) for t in kept))


def _without_line_items(text: str) -> str:
    """The question with the amounts of money it names blanked: "income tax expense" asks a
    figure, no red-flag topic its words touch (tax exposures). A line item that measures a risk
    ("customer concentration", a share) still names its topic. Positions stay."""
    out = list(text)
    for subject, a, b in find_line_items(text):
        if (spec := item_spec(subject)) is not None and spec.unit_kind == "currency":
            out[a:b] = " " * (b - a)
    return "".join(out)


def _ranking(text: str) -> QuestionTerms:
    """How passages answer it: the words of its period phrases ("at the end of 2025", "as of
    year-end") say when, like its periods; a passage need not repeat them. (A relative period's
    words, "last year", stay: the answer says whether the room states that year.)"""
    asked = question_terms(text)
    spans = [(a, b) for _, a, b in _led_years(text)] + [
        (m.start(), m.end()) for cue in ("period_phrase", "horizon_phrase")
        for m in _cues(cue).finditer(text)]
    said = set(content_terms(" ".join(text[a:b] for a, b in spans)))
    # "what drove", "what caused": how it asks for a reason, not what the reason is about (the
    # reason's sentence says "driven by", "due to"; a span's kind says it gives a reason)
    asking = set(content_terms(" ".join(m.group(0) for m in _cues("answer_reason").finditer(text))))
    if _cues("answer_method").found(text) and not _cues("method_amount").found(text):
        # "how does it measure …": how it asks for a method, which a sentence states in its own
        # verb ("computed using standard cost")
        asking |= set(content_terms(" ".join(
            m.group(0) for m in _cues("answer_method_verb").finditer(text))))
    return replace(asked, terms=tuple(t for t in asked.terms if t not in asking) or asked.terms,
                   when=asked.when | frozenset(t for t in asked.terms if t in said),
                   said_otherwise=asked.said_otherwise + _quarter_ranked_by(text, asked.terms))


def _quarter_ranked_by(text: str, terms: tuple[str, ...]) -> tuple[SaidOtherwise, ...]:
    """"Target's biggest sales quarter?": the word a quarter asked is ranked by ("biggest") is
    said by a filing's comparison ("a larger share of sales … during the fourth quarter",
    "generally higher in the second and fourth quarters", "seasonality")."""
    if not _cues("answer_quarter").found(text):
        return ()
    own = frozenset(content_terms(" ".join(
        m.group(0) for m in _cues("size_superlative").finditer(text)))) & frozenset(terms)
    return ((own, (_cues("size_compared").pattern,)),) if own else ()


def _in_filing_words(text: str) -> str:
    """The question with a deal team's phrases put in a filing's words (`asked_as:` of every
    language): "How much does it pay per share each quarter?" reads "… per share quarterly?",
    "How do the rating agencies rate the debt?" "How do the credit ratings the debt?"."""
    for words, said in _V.asked_as():
        text = said.pattern.sub(lambda _, w=words: w, text)
    return text


def _said_as(text: str) -> tuple[str, ...]:
    """The stems of a filing's words for the phrases the question says its own way."""
    return _unique(t for words, said in _V.asked_as() if said.found(text)
                   for t in content_terms(words))


_TERSE_WORDS = 5  # "Uber trips in 2020?": a few words, no question word, a period


def _terse_dated(text: str, periods: tuple[str, ...]) -> bool:
    """A thing asked tersely with its period after it ("Uber trips in 2020?", "Lyft riders
    Q2 2021?"): it opens with no question word, a few words, a period named; its figure of that
    period is asked, as "its 2020 trips" would ask it."""
    words = letter_words(text)
    return bool(periods) and 0 < len(words) <= _TERSE_WORDS and \
        words[0].lower() not in _QUESTION_WORDS


def _dated_thing(text: str) -> bool:
    """The thing asked is dated by a period written right before its words ("What were Lyft's
    Q4 2021 active riders?", "its 2025 net sales"): a figure of that period is asked, not the
    things of a kind listed."""
    for _, _, end in find_periods(text, bare_years=True):
        following = letter_words(text[end:end + 40])
        if following and text[end:end + 1].isspace() and following[0].lower() not in _STOP \
                and text[end:].lstrip()[:1].isalpha():
            return True
    return False


def _named_as(text: str) -> tuple[tuple[str, str], ...]:
    """(subject, its wording as written) for each line item the question names, first one."""
    found: dict[str, str] = {}
    for subject, start, end in sorted(find_line_items(text), key=lambda t: t[1]):
        # "cash did its operations generate": the question's form names no line
        if not _AUXILIARY.found(text[start:end]) and not _in_named_plan(text, start, end):
            found.setdefault(subject, text[start:end])
    return tuple(found.items())


def _in_named_plan(text: str, start: int, end: int) -> bool:
    """The words at start:end are part of a plan's name ("employee" and "stock" of "employee
    stock purchase plan"): they name neither the headcount nor the inventory."""
    return any(m.start() <= start and end <= m.end() and (m.end() - m.start()) > (end - start)
               for m in _cues("named_plans").finditer(text))


def _own_margin(text: str, subjects: tuple[str, ...]) -> tuple[str, ...]:
    """"EBITDA and its margin": the margin of the metric named before it, when it has one."""
    if not subjects or not _cues("own_margin").found(text):
        return subjects
    margin = f"{subjects[0]} margin"
    if margin in subjects or metric_spec(margin) is None:
        return subjects
    return (*subjects, margin)


def _intent(text: str, subjects: tuple[str, ...], periods: tuple[str, ...],
            entity: str | None) -> tuple[Intent, bool, str]:
    """The intent, whether a cue named it (else the default lookup), and why in words. A
    statement line's own name cues nothing ("total liabilities" asks no risk)."""
    scanned = _without_statement_lines(text)
    if periods:  # a balance asked at a period ("… liability at January 31, 2026"): its figure
        scanned = _blanked(scanned, _cues("intent_balance_named"))
    cued = cued_intent(scanned, periods=_period_count(text))
    if cued is not None:
        intent, cue = cued
        return intent, True, f'the question says "{cue}"'
    if (profile := _profile(text)) and company_like(entity) and not subjects:
        # "Tell me about Globex": all the room says of it
        return Intent.SYNTHESIS, True, f'a profile of a name is asked for ("{profile}")'
    if found := OVERVIEW.asked.search(text):  # "Tell me about the company": to explore
        return Intent.EXPLORATION, True, f'an overview is asked for ("{found.group(0)}")'
    if len(periods) >= 2 and subjects and _cues("period_joiners").found(text):
        return Intent.COMPARISON, True, f"two periods ({', '.join(periods[:2])}) of one subject"
    if not periods and subjects and len(years_back(text)) >= 2:
        return Intent.COMPARISON, True, "two or more full years counted back from the latest"
    return Intent.FACT_LOOKUP, False, "no cue for another intent: a fact lookup by default"


def _without_statement_lines(text: str) -> str:
    """The question with the statement lines it names blanked (no metric's name): positions
    stay."""
    out = text
    for subject, start, end in asked_items(text):
        if metric_spec(subject) is None:
            out = out[:start] + " " * (end - start) + out[end:]
    return out


# "in which quarters is revenue highest?" asks a part of the year, before any ranking
# "how does it define …" asks what a term means, before anything it is defined by
_ANSWER_KINDS: tuple[AnswerKind, ...] = ("definition", "means", "reason", "method", "quarter",
                                         "ranking", "rate", "person", "date", "place", "figure")
_POLICY_KINDS: tuple[AnswerKind, ...] = ("definition", "method")  # the company's own rule
_OPENED: tuple[AnswerKind, ...] = ("reason", "person", "date", "place")  # "Why …?", "Who …?"


def _answer_kind(text: str, subjects: tuple[str, ...], names_a_figure: bool,
                 at_a_date: bool = False, amount_of_period: bool = False) -> AnswerKind | None:
    """The kind of answer the question's form asks for, the first kind whose cue it uses; a
    metric or line item asked with "what was", or in a yes/no question ("Was it profitable on
    an adjusted EBITDA basis?"), is a figure; "which iPhone models", "what advertising
    services" (no metric, no condition) the things of a kind, listed; "how is it mitigating
    tariffs?" the means, the actions taken; what things were at a date (`at_a_date`, "at the
    end of 2021") their balance, a figure."""
    for kind in _ANSWER_KINDS:
        # "the impact of foreign exchange rates on net sales": the rates moved the figure asked
        asked = _blanked(text, _cues("rate_as_driver")) if kind == "rate" else text
        if kind == "method" and _cues("method_amount").found(text):
            continue  # "how much revenue does it recognize over time?" asks a figure
        if _cues(f"answer_{kind}").found(asked) or (
                kind in _OPENED and _cues(f"answer_{kind}_opening").starts(asked) is not None):
            return kind
    if names_a_figure and (_cues("answer_figure_what").found(text) or not any(
            w.lower() in _QUESTION_WORDS for w in letter_words(text))):
        return "figure"  # "Uber 2021 Adjusted EBITDA?": a line item asked without a question
    if subjects and _cues("answer_yes_no_opening").starts(text) is not None and not (
            _cues("answer_correction").found(text) or _cues("answer_conflict").found(text)):
        return "figure"  # "Was it corrected?" asks about the correction, not the figure
    if at_a_date and _cues("answer_figure_what").found(text):
        return "figure"  # "what were its insurance reserves at the end of 2021?": a balance
    if amount_of_period and _cues("answer_figure_what").found(text):
        return "figure"  # "what were its shipping costs in 2025?": an amount, not things listed
    if not subjects and not _cues("hedged_statement").found(text) and \
            _cues("answer_list_opening").starts(text) is not None:
        return "list"
    if subjects and names_a_figure and all(
            (spec := metric_spec(s)) is not None and spec.unit_kind == "percent"
            for s in subjects):
        return "rate"  # "LinkedIn revenue growth in FY2023?": a rate asked tersely
    return None


def _without_affected(text: str) -> str:
    """A question that asks how much of a thing would move a metric ("How much of its tax
    contingencies would lower its effective tax rate?"), with that metric blanked: it is what
    the part would move, not what is asked."""
    if not _cues("part_of_asked").starts(text):
        return text
    return _blanked(text, _cues("metric_affected"))


def _blanked(text: str, cues: Cues) -> str:
    """The text with what the cues find blanked, positions kept."""
    for found in cues.finditer(text):
        text = text[:found.start()] + " " * (found.end() - found.start()) + text[found.end():]
    return text


def _parts(text: str) -> tuple[str, ...]:
    """The questions a question joins: "How much cash did it hold, and how much of it sat
    abroad?" is two; each part asks something of its own (three words at least before it)."""
    out: list[str] = []
    rest = text
    while (m := _cues("second_question").search(rest)) is not None:
        head = rest[:m.start()].strip(" ,;")
        if len(head.split()) < 3:
            break
        out.append(head)
        rest = rest[m.start():]
        joiner = rest.split(maxsplit=1)
        rest = joiner[1] if len(joiner) > 1 else ""
    if not out:
        return ()
    # "…, and why?": the reason asked of the first part is a part of its own, though one word
    return (*out, rest.strip()) if len(rest.split()) >= 3 or _cues(
        "answer_reason_opening").starts(rest) is not None else ()


def _placed(text: str, entity: str | None) -> str:
    """The entity, where the word before it places something in it ("in Texas", "en France"):
    a place the figure is of; "" where it is not so written."""
    if not entity or (at := text.find(entity)) <= 0:
        return ""
    before = text[:at].split()
    after = text[at:].replace("?", " ").split()[:len(entity.split()) + 1]
    if find_periods(" ".join(after)):
        return ""  # "in Fiscal 2025": a period, read as a name
    return entity if before and before[-1].lower() in _PLACE_LEAD else ""


_PLACE_LEAD = _V.words("figure_place_lead")
_PLACE_ARTICLES = _V.words("role_articles")


def _place_named(text: str) -> str:
    """The place a measure is asked in, written as a name after a place word ("square feet …
    in the San Francisco Bay Area?": "San Francisco Bay Area"); "" where none is. Read where an
    area is asked only: a name after "in" of another figure is as often a segment's or a
    product's."""
    words = text.replace("?", " ").replace(",", " , ").split()
    for at, word in enumerate(words[:-1]):
        if word.lower() not in _PLACE_LEAD:
            continue
        rest = words[at + 1:]
        if rest and rest[0].lower() in _PLACE_ARTICLES:
            rest = rest[1:]
        name = list(takewhile(lambda w: w[:1].isupper() and not any(c.isdigit() for c in w)
                              and w.lower() not in _MONTH_NAMES and not find_periods(w), rest))
        if name and not find_periods(" ".join(rest[:len(name) + 1])):  # "in Fiscal 2025"
            return " ".join(name)
    return ""


def _counted(text: str, entity: str | None = None) -> tuple[str, ...]:
    """What "how many" counts: the content words right after it, up to the question's verb or
    next small word ("How many team members does …" counts team members; "How many Amazon
    shares …" counts shares, of the company it names)."""
    asked = _cues("answer_count").search(text)
    if asked is None:
        return ()
    named = {w.lower() for w in letter_words(entity or "")}
    words: list[str] = []
    for word in letter_words(text[asked.end():]):
        if word.lower() in named and not words:
            continue
        if word.lower() in _STOP or len(words) == 3:
            break
        words.append(word.lower())
    return tuple(words)


def _verb(text: str, ranking: QuestionTerms, entity: str | None) -> str | None:
    """The question's own verb, as one of its ranking terms, where an auxiliary stands before it:
    the last of the first run of its terms after the auxiliary and the name it asks about
    ("acquire" of "Which businesses did Uber acquire in 2021?", "operate" of "How many stores did
    the company operate?"); none where a word of form stands there ("does Apple have")."""
    aux = _AUXILIARY.search(text)
    if aux is None:
        return None
    run: list[str] = []
    named = {w.lower() for w in letter_words(entity or "")}
    for word in letter_words(text[aux.end():]):
        if not run and (word.lower() in named or word.lower() in _DETERMINERS
                        or word.lower() in _SUBJECT_NOUNS):
            continue  # the auxiliary's subject ("Amazon", "the company") is whom it asks about
        if not run and word.lower() in _STOP:
            return None  # "… does Apple have at the end of 2025": its verb is a word of form
        stems = stems_of(word)  # its own stem first: "employ" is no "people", its concept's
        term = next((t for t in ranking.terms if t in stems), None) or next(
            (t for t in ranking.terms if term_in(t, stems)), None)
        if term is None and run:
            break
        if term is not None:
            run.append(term)
    return run[-1] if run else None


def _schedule(asking: str, kind: AnswerKind | None, verb: str | None,
              one_period: bool = False) -> tuple[str, ...]:
    """What a schedule by year is asked of: a figure asked with a schedule's words ("due",
    "matures", "future payments", "thereafter"), read without how it asks and its periods."""
    # "What are the total future lease payments?", "What lease payments does it owe in 2028?"
    # (one year's line of the schedule, asked how it falls due) ask a figure too
    one_line = one_period and _cues("schedule_manner").found(asking)
    if not _cues("schedule_asked").found(asking) or not (kind == "figure" or (
            kind in (None, "list") and (one_line or _cues("schedule_whole_asked").found(asking)))):
        return ()
    out = list(asking)
    for cue in (_cues("schedule_manner"), _cues("schedule_whole_asked")):
        for m in cue.finditer(asking):
            out[m.start():m.end()] = " " * (m.end() - m.start())
    return tuple(t for t in content_terms("".join(out)) if t != verb and not t.isdigit())


def _period_count(text: str) -> int:
    """"Q3 against Q3 last year", "FY2024 against FY2023": how many periods it names."""
    named = len(find_periods(text, bare_years=True))
    partial = len(re.findall(r"(?<![\w])[QH][1-4](?![\w])", text, re.I))
    return named + partial + any(cue.found(text) for _, cue in _RELATIVE)


def _profile(text: str) -> str | None:
    """"Tell me about …", "background on …"; "who is …" of a company ("… GmbH")."""
    if found := _cues("profile").search(text):
        return found.group(0)
    who = _cues("profile_who").search(text)
    if who is not None and any(w.strip(".,?!") in _LEGAL_FORMS for w in text[who.end():].split()):
        return who.group(0)
    return None


_LEGAL_FORMS = frozenset(_V.phrases("legal_forms"))
_COMPANY_WORDS = _LEGAL_FORMS | frozenset(_V.phrases("company_words"))
_COMPANY_WORDS_LOWER = frozenset(w.strip(".,").lower() for w in _COMPANY_WORDS)


def company_word(word: str) -> bool:
    """A word that says a name is a company's ("Inc", "GmbH", "Holdings"), in any case."""
    return word.strip(".,").lower() in _COMPANY_WORDS_LOWER


def company_like(name: str | None) -> bool:
    """A company ("Globex", "Vertex Distribution GmbH"), not a person's name ("Anna Schmidt",
    whose question goes to the person: role, background, stake)."""
    if not name:
        return False
    words = name.split()
    return len(words) == 1 or any(w.strip(".,") in _COMPANY_WORDS for w in words)


# ---------------------------------------------------------------- periods


_PARTIAL_PERIOD = re.compile(r"(?<![\w])([QH][1-4])(?![\w'’])(?!\s*[-/']?\s*\d)", re.I)
_M_PERIOD = re.compile(r"^[A-Z][a-z]{2} \d{4}$")  # a month period as Manda writes it
_YEAR = re.compile(r"\b(19\d{2}|20\d{2})\b")


def _periods(text: str) -> tuple[str, ...]:
    """The periods it names; a bare year counts after the words that make it one ("in 2023",
    "en 2023", "at the end of 2021", "at fiscal year end 2025")."""
    periods = [(_named_year(p, text[start:end]), start, end)
               for p, start, end in find_periods(text, bare_years=True)]
    found = [(p, start) for p, start, _ in periods]
    found += [(p, end - 4) for p, _, end in _led_years(text)]  # placed by its year
    found += [(p, at) for p, at in _years_before_line_items(text)  # not a quarter's year
              if not any(start <= at < end for _, start, end in periods)]
    return _unique(p for p, _ in sorted(found, key=lambda t: t[1]))


def _dated_by(constraints: Constraints) -> tuple[str, ...]:
    """The day an "as of" instruction names, as the period asked where the question names none:
    "What were the gross unrecognized tax benefits as of February 1, 2025?" asks the balance on
    that day (the column dated it, or the fiscal year ending it), as "at February 1, 2025" does;
    the instruction still keeps out what is later."""
    as_of = constraints.get(ConstraintKind.AS_OF)
    return _periods(as_of.phrase) if as_of is not None else ()


def _quarters_dated(text: str, periods: tuple[str, ...]) -> tuple[tuple[str, date], ...]:
    """The quarters asked by their last day ("the three months ended December 31, 2022",
    "le trimestre clos le 30 septembre 2023"): each as read, with that day."""
    return tuple((p, days[-1][0]) for p, start, end in find_periods(text, bare_years=True)
                 if p in periods and p.startswith("Q") and (days := find_dates(text[start:end])))


def _named_year(period: str, phrase: str) -> str:
    """A fiscal year asked by its last day is the year that day names: "the year ended January
    31, 2026" ends a retail calendar's fiscal 2025, as the statements' columns are read."""
    if not period.startswith("FY") or not (dates := find_dates(phrase)):
        return period
    day = dates[-1][0]
    return f"FY{fiscal_year_named(day)}" if period == f"FY{day.year}" else period


def _years_before_line_items(text: str) -> list[tuple[str, int]]:
    """A bare year written just before the line item it dates ("Uber 2021 Adjusted EBITDA?",
    "its 2023 revenue"), or just after it in a terse question ("Amazon capex 2025?"): that
    fiscal year, placed by its year."""
    out = []
    for _, start, end in find_line_items(text):
        before = text[:start].rstrip()
        year = before[-4:]
        if (len(before) < start and year.isdigit() and year[:2] in ("19", "20")
                and (len(before) == 4 or not before[-5].isalnum())
                and not _ends_a_wide_span(before[:-4], int(year))):
            out.append((f"FY{year}", len(before) - 4))
        after = text[end:]
        if (m := _YEAR.match(after.lstrip())) is not None and len(after) > len(after.lstrip()) \
                and not after.lstrip()[m.end():m.end() + 1].isalnum() \
                and after.lstrip()[m.end():m.end() + 1] not in "/-–" \
                and not _starts_a_wide_span(after.lstrip()[m.end():], int(m.group(1))):
            out.append((f"FY{m.group(1)}", end + len(after) - len(after.lstrip())))
    return out


def _ends_a_wide_span(head: str, year: int) -> bool:
    """The year ends a span of years wider than a filing's columns reach, written before what
    it names ("its 2013 to 2023 debt issuances", "2013–2023 notes"): it says which of the thing
    (their vintage, their maturities), not the years asked; "2022 to 2023 revenue" asks both."""
    head = head.rstrip()
    joiner = next((m for m in _cues("year_span_joiner").finditer(head)
                   if m.end() == len(head)), None)
    if joiner is None:
        return False
    first = head[:joiner.start()].rstrip()[-4:]
    return first.isdigit() and year - int(first) > _COLUMN_YEARS


def _starts_a_wide_span(tail: str, year: int) -> bool:
    """The year starts such a span ("les emprunts 2012 à 2020"): `_ends_a_wide_span` read
    from its first year."""
    tail = tail.lstrip()
    joiner = _cues("year_span_joiner").starts(tail)
    last = tail[joiner.end():].lstrip()[:4] if joiner else ""
    return last.isdigit() and int(last) - year > _COLUMN_YEARS


_COLUMN_YEARS = 2  # a filing's statements show three years at most: the year and two before it


def _led_years(text: str) -> list[tuple[str, int, int]]:
    """A bare year after the words that make it a fiscal year ("in 2023"), or that year's end
    ("at fiscal year end 2025", "fin 2024"): FY and the year, with the span of both."""
    out = []
    for cue in (_cues("year_lead"), _cues("closing_year_lead")):
        for lead in cue.finditer(text):
            m = _LED_YEAR.match(text[lead.end():])
            if m:
                out.append((f"FY{m.group(1)}", lead.start(), lead.end() + m.end(1)))
                # "from 2024 to 2025", "between 2024 and 2025": the year joined to it too
                after = lead.end() + m.end(1)
                joined = _cues("year_joiner").starts(text[after:])
                if joined and (m2 := _LED_YEAR.match(text[after:].lstrip()[joined.end():])):
                    at = len(text) - len(text[after:].lstrip()) + joined.end()
                    out.append((f"FY{m2.group(1)}", at, at + m2.end(1)))
    return out


_LED_YEAR = re.compile(r"\s+((?:19|20)\d{2})(?![\w/\-–])")  # the year a lead word leads


def years_back(text: str) -> tuple[int, ...]:
    """Full years a question counts back from the room's latest one: "last year" (1), "the
    year before" (2 beside "last year", else 1), "the past three years" (1, 2, 3)."""
    found: set[int] = set()
    if m := _cues("years_counted").search(text):
        count = next((n for w in m.group(0).split() if (n := _V.number(w))), 0)
        found.update(range(1, count + 1))
    if _cues("year_before_last").found(text):
        found.add(2)
    last = _cues("last_year").found(text)
    if last:
        found.add(1)
    if _cues("prior_year").found(text):
        found.add(2 if last else 1)
    return tuple(sorted(found))


def _ltm_month(text: str, start: int) -> int | None:
    """The month the twelve months run to: "LTM EBITDA as of March" (within a few words)."""
    window = re.split(r"[?.]", text[start:], maxsplit=1)[0][:60]
    for to in _cues("ltm_to").finditer(window):
        if to.start() > 40:
            break
        following = window[to.end():].split()
        if following and (month := _V.month(following[0].strip(",;:"))):
            return month
    return None


def _month(text: str) -> int | None:
    """The month it names ("in September", "im März"), if any."""
    return next((m for w in letter_words(text) if (m := _V.month(w))), None)


def _horizon_days(text: str) -> float | None:
    """How far ahead "the next 6 months" looks, in days; None when it names no span."""
    for name, days in (("horizon_months", 30.5), ("horizon_quarters", 91.5),
                       ("horizon_years", 365.25)):
        if m := _cues(name).search(text):
            count = next((n for w in m.group(0).split() if (n := _V.number(w))), 1)
            return days * count
    return None


# ---------------------------------------------------------------- names and words


_TOPIC_WORDS = re.compile(r"[A-Za-zÀ-ÿ][\w\-]+")
_MONTH_NAMES = _V.month_names()
_DEAL_SHORTHAND = _V.words("deal_shorthand")
_DETERMINERS = _V.words("determiners")
_OWNER_BEFORE = _V.words("owner_before_name")
_SUBJECT_NOUNS = _V.words("subject_nouns")  # "company", "group": the subject, named in general
_COUNT_ASKED = _cues("answer_count")  # "how many": what follows it is counted
_AUXILIARY = _cues("question_auxiliary")  # "does", "did": the name asked stands after it


@cache
def _name_pattern() -> re.Pattern[str]:
    forms = "|".join(re.escape(f) for f in sorted(_LEGAL_FORMS, key=len, reverse=True))
    return re.compile(rf"(?<![\w])([A-ZÀ-Þ][\w&.\-]*(?:\s+(?:[A-ZÀ-Þ][\w&.\-]*|{forms}))*)")


def _entity(text: str) -> str | None:
    """A proper name in the question ("Globex", "Markus Weber"), if any."""
    # German capitalises nouns: one inside a line item's name ("effektiver Steuersatz") is none
    items = [(a, b) for _, a, b in named_in_other_languages(text)]
    # "Net sales 2025?": a capital that opens a line item's name is no name ("How much did
    # Apple sell" is a line item's form whose subject is a name)
    opening = {a for _, a, _ in find_line_items(text)}
    for m in _name_pattern().finditer(text):
        if any(a <= m.start(1) and m.end(1) <= b for a, b in items) or m.start(1) in opening:
            continue
        name = m.group(1).strip(" .?!,")
        first = without_possessive(name.split()[0].lower())
        before = text[:m.start()].split()
        if _COUNT_ASKED.ends(text[:m.start(1)]) and _AUXILIARY.fullmatch(
                (text[m.end(1):].split() or [""])[0]):
            continue  # "How many Active Riders did Lyft have?": the thing counted, named as
            # the filing capitalises it, is not whom the question is about
        if (first in _STOP and first not in _QUESTION_WORDS and m.start() > 0
                and " " not in name and text[m.end():m.end() + 2] in ("'s", "’s")
                and not (before and before[-1].lower() in _DETERMINERS)):
            return name  # "Target's sales" (not "the Company's"): a capitalised possessive
            # in mid-question is a name, even one that is also a common word
        if (first in _STOP and first not in _QUESTION_WORDS and " " not in name and before
                and before[-1].lower().replace("’", "'").split("'")[0] in _OWNER_BEFORE):
            return name  # "le résultat net de Target", "the net income of Target"
        if (" " not in name and before and _AUXILIARY.fullmatch(before[-1])
                and first not in _QUESTION_WORDS and _a_name(name)):
            return without_possessive(name)  # "What did Target earn?", "How did AWS grow?":
            # the auxiliary's subject is whom the question is about, a common word or capitals
        if first in _STOP:
            rest = name.split()[1:]
            if not rest:
                continue
            name = " ".join(rest)
        if name.isupper() and len(name) <= 6:  # EBITDA, ARR, IRL, CEO
            continue
        if ROLE_WORDS.fullmatch(name):  # "Geschäftsführer": German capitalises every noun
            continue
        if name.lower() in _DEAL_SHORTHAND:  # QoE, CapEx, PnL: shorthand, not a name
            continue
        if find_subjects(name) or find_periods(name) or name.lower() in _MONTH_NAMES:
            continue  # "February" alone is a month the period reading handles, not a name
        return without_possessive(name)
    return None


def _opening_name(text: str) -> str | None:
    """The word a question opens with, where it is a capitalised possessive ("Target's …") or
    where the line item asked follows it, a year at most between ("Target capex?", "Target
    2025 capex?"): whom a terse question is about (the room says whether it names a company)."""
    first = text.split()[0] if text.split() else ""
    name = without_possessive(first)
    if len(name) < 2 or not name[0].isupper() or not name.isalpha():
        return None
    if name.lower() in _DETERMINERS or name.lower() in _QUESTION_WORDS:
        return None
    if name != first:
        return name
    if any(start == 0 for _, start, _ in find_line_items(text)):
        return None  # "Net sales 2025?": the word opens the line item's own name
    rest = text[len(first):].lstrip()
    if (year := _YEAR.match(rest)) is not None:
        rest = rest[year.end():].lstrip()
    items = find_line_items(rest)
    return name if items and items[0][1] == 0 else None


def _a_name(word: str) -> bool:
    """A capitalised word that names no metric, period, month, role or deal shorthand."""
    return len(word) > 1 and not (
        word.lower() in _DEAL_SHORTHAND or word.lower() in _MONTH_NAMES
        or _PARTIAL_PERIOD.fullmatch(word) or ROLE_WORDS.fullmatch(word)
        or find_subjects(word) or find_periods(word))


def _terms(text: str) -> tuple[str, ...]:
    words = [w.lower().strip("-") for w in _TOPIC_WORDS.findall(text)]
    return _unique(w for w in words if w not in _STOP and len(w) > 2)


def _asks_anything(cleaned: str, asked: str) -> bool:
    """Whether anything is left of the question once its instructions are taken out
    (`parse_constraints` hands back the whole question when nothing is)."""
    if cleaned == asked:
        return False
    filler = _V.words("instruction_filler")
    return any(w not in filler for w in re.findall(r"[^\W_]+|[€£$]", cleaned.lower()))


def _topic_words(text: str) -> list[str]:
    """The words of a question about a meeting that name a topic in it, not the meeting."""
    meeting = _V.words("meeting_words")
    return [t for t in content_terms(text)
            if not any(t.startswith(w) or w.startswith(t) for w in meeting)
            and not any(m.startswith(t) for m in _MONTH_NAMES if len(t) >= 3)
            and not t.isdigit()]


def _focus(text: str) -> tuple[str, ...]:
    """What a risk question is about beyond risk in general ("cyber insurance", "Globex")."""
    generic = _cues("risk_words")
    return tuple(w for w in re.findall(r"[A-Za-zÀ-ÿ0-9][\w&\-]+", text)
                 if content_terms(w) and not generic.fullmatch(w))


def _event_words(text: str) -> tuple[str, ...]:
    """Words that may name an event's party or thing ("Globex", "Vertex", a lender)."""
    own = _V.words("timeline_words")
    return tuple(w for w in re.findall(r"[A-Za-zÀ-ÿ][\w&.-]{2,}", text)
                 if w.lower() not in _STOP and w.lower() not in own)


def _before_reason(text: str) -> str:
    """What a question asks before a reason clause it gives ("How much cash tax did it pay
    because R&D must be capitalized?" asks the cash tax); the whole text when it has none, or
    when the clause opens it."""
    m = _cues("reason_clause").search(text)
    if m is None or not text[:m.start()].strip():
        return text
    return text[:m.start()].rstrip(" ,;")


def _without_reason_word(text: str) -> str:
    """The question with its reason clause's connective blanked ("because", "due to"): the
    cause's own words rank passages, the connective does not."""
    m = _cues("reason_clause").search(text)
    if m is None or not text[:m.start()].strip():
        return text
    return f"{text[:m.start()]} {text[m.end():]}"


def _asks_effect(text: str, subjects: tuple[str, ...]) -> bool:
    """A verb or noun of effect with the line item asked named after it, never before it ("How
    much did revenue increase?" asks the line item's own change)."""
    if not subjects:
        return False
    for m in _cues("effect_asked").finditer(text):
        before = {s for s, _, _ in find_line_items(text[:m.start()])}
        after = {s for s, _, _ in find_line_items(text[m.end():])}
        if subjects[0] in after and subjects[0] not in before:
            return True
    for m in _cues("effect_of_cause").finditer(text):
        # "the operating income impact of extending …": the line item right before the noun
        if any(s == subjects[0] and not text[end:m.start()].strip()
               for s, _, end in find_line_items(text[:m.start()])):
            return True
    return False


def _programme_part(text: str) -> Literal["", "size", "used", "remaining"]:
    """The part of an authorized amount a question asks: what remains of it ("how much is left
    under the program?"), what was used of it ("how much has it spent so far under its buyback
    authorization?", "how much of the program did it use in the quarter?": a programme or a
    facility named, and its use asked), or its size ("how big is the authorization?")."""
    if _cues("remaining_asked").found(text):
        return "remaining"
    if _cues("programme_named").found(text) and _cues("programme_use_asked").found(text):
        return "used"
    return "size" if _cues("capacity_asked").found(text) else ""


def _one_figure(text: str) -> bool:
    """"How much cash is there?", "What is the revenue?": a figure asked outright, its metric
    named right after the asking words ("what are the terms of the term loan?" is not)."""
    cue = _cues("one_figure_asked").starts(text)
    if cue is None:
        return False
    start = len(text) - len(text.lstrip()) + cue.end()
    for _, begin, end in find_subjects(text):
        if text[start:begin].strip() == "":
            return _cues("looks_asked").starts(text[end:]) is None
    return False


def _share_class(text: str) -> str | None:
    """The share class a question names ("Who holds the B Ordinary shares?"), if any."""
    m = _cues("share_class_asked").search(text)
    if m is None:
        return None
    shares = _V.words("share_words")
    return " ".join(w for w in m.group(0).split() if w.lower() not in shares).strip() or None


def _unique(items: object) -> tuple[str, ...]:
    seen: list[str] = []
    for item in items:  # type: ignore[attr-defined]
        if item not in seen:
            seen.append(item)
    return tuple(seen)


_NAME_JOINS = frozenset({"and", "&"})  # "Energy Generation and Storage"


def _segment_named(text: str) -> str:
    """The name a question writes in capitals right before its segment word, after any
    company's possessive ("Apple's Greater China segment" names "Greater China"); "" where it
    names none ("Which segment", "the reportable segments", "the energy segment")."""
    tokens = text.split()
    segment_words = _cues("segment_words")
    for i, token in enumerate(tokens):
        if not segment_words.fullmatch(without_possessive(token.strip("?,.;:!"))):
            continue
        name: list[str] = []
        for word in reversed(tokens[1:i]):  # the question's first word is capitalised anyway
            plain = word.strip("\"“”(),")
            if plain != without_possessive(plain) or not plain:
                break  # "Apple's": the company's, not the segment's
            if plain[:1].isupper() or (plain in _NAME_JOINS and name):
                name.insert(0, plain)
                continue
            break
        while name and name[0] in _NAME_JOINS:
            name.pop(0)
        if name:
            return " ".join(name)
    return ""
