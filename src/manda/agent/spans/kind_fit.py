"""How well a span has the kind of answer asked: a reason for "why", a figure for "how much",
a rate for "how fast", a date for "when", a name for "who"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from manda.agent.frame import QuestionFrame
from manda.agent.kinds import (
    defined_terms,
    names_counted,
    states_change,
    states_count,
    states_definition,
    states_means,
    states_place,
    states_reason,
)
from manda.agent.relevance import (
    content_terms,
    one_word,
    says_change,
    short_root,
    stems_of,
    term_in,
)
from manda.agent.spans.asked import (
    _asks_amount,
    _asks_balance,
    _asks_money,
    _asks_rate,
    _asks_share,
    _per_share_row,
    _stems_of_word,
    cause_words,
)
from manda.agent.spans.balances import _CHANGED_BY, _STATED_TOTAL, a_movement, totals_row
from manda.agent.spans.rows import statement_row
from manda.agent.spans.sentences import lists_things, names_company
from manda.agent.spans.span import (
    _AUXILIARY,
    _COUNT_ROW,
    _MONTH_NAMES,
    _PER_SHARE_ASKED,
    _PERCENT,
    _RECORDED,
    _WORD,
    KIND_FIT,
    KIND_MISS,
    ROW_FIGURE,
    Span,
    label_periods,
    percent_block,
)
from manda.finance.amounts import find_amounts, stated_amounts
from manda.finance.equivalents import named_groups
from manda.finance.figures import statement_scale
from manda.finance.label_heads import head_before, label_line_item
from manda.finance.periods import quarters_in
from manda.finance.vocabulary import find_line_items, item_spec
from manda.text import YEAR, letter_words, without_asides
from manda.vocabulary import vocabulary

_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+\b")


_RECORDING = vocabulary().cues("recording_stated")  # "we recorded $2.4 billion of …"
_RATE_COLUMN = vocabulary().cues("rate_column")  # "Interest Rate (Fixed)", "Yield", "%"
_METHOD = vocabulary().cues("method_stated")  # "computed using", "first-in, first-out"
_METHOD_BOUND = vocabulary().cues("method_bound")  # "the lower of cost or net realizable value"
_QUARTER_NAMED = vocabulary().cues("quarter_named")  # "the second and fourth quarters", "Q4"
# a change by an amount, the line item it changed after it: "a $6.3 billion decrease in …"
_CHANGE_OF_ITEM = vocabulary().cues("amount_change_of_item")
_COMPANY_ASKED = vocabulary().cues("answer_company")  # "which company", "welches Unternehmen"


def _kind_fit(span: Span, frame: QuestionFrame) -> float:
    kind = frame.answer_kind
    text = span.text
    if span.scale is not None and span.scale.shares_of_whole and not _asks_share(frame):
        return -KIND_MISS  # a line's percentage of revenue, for its amount or its growth
    if kind == "reason":
        if span.row is not None:
            return -KIND_MISS
        return KIND_FIT if states_reason(text) else 0.0
    if kind == "definition":  # "how does it define …": the sentence that defines the term
        if span.row is not None:
            return -KIND_MISS  # a figure of the term says nothing of what it is
        return KIND_FIT if states_definition(text, defined_terms(frame.ranking.terms,
                                                                 frame.entity)) else 0.0
    if kind == "means":  # the actions taken, by their means, not a risk factor's condition
        return KIND_FIT if span.row is None and states_means(text) else 0.0
    if kind in (None, "list") and _RECORDED.found(frame.text) and span.row is None:
        # "what charges did it record in Q4?": a thing recorded at an amount, the sentence that
        # states the amount (of the quarter asked, not another quarter's charge)
        if not any(a.currency for a in find_amounts(text)):
            return -KIND_MISS
        return 0.0 if _another_part(text, frame) else KIND_FIT
    if kind == "rate":
        if span.row is not None and not statement_row(span.row) and any(
                _RATE_COLUMN.found(h) for h, v in span.row.cells.items() if v.strip()):
            # a record's rate column ("Interest Rate (Fixed): 4.35"), its "%" printed on the
            # table's first row only
            return KIND_FIT + ROW_FIGURE
        if span.row is not None and _PERCENT.search(text):
            return KIND_FIT + ROW_FIGURE  # a line item's row with its change column
        if span.row is not None and percent_block(span.group):
            # a row of a block headed as percentages ("Year-over-year Percentage Growth:"), its
            # "%" printed on the block's first row only
            return KIND_FIT + ROW_FIGURE
        if not _PERCENT.search(text):
            return -KIND_MISS
        if frame.growth and not frame.share_of and span.row is None and not states_change(text):
            # a growth asked: "International accounted for 23% of revenues" states a share, no
            # rate it grew at
            return KIND_FIT / 2
        return KIND_FIT
    if kind == "figure" and frame.counted:  # "how many team members": a number of them
        if span.row is not None:  # a row of the things counted, its figures no money or rate
            counts = [f for f in span.figures() if not f.none and f.unit in (None, "shares")]
            money = statement_scale([span.row.label]).currency  # "Employee costs (£m)"
            # "Common stock ($0.01 par value; … shares outstanding)": an aside names no count;
            # a row of a table of counts ("Opened" under "Change in Number of Stores") counts
            # the things its caption names
            named = names_counted(f"{span.group} {without_asides(span.row.label)}",
                                  frame.counted) or (
                bool(_COUNT_ROW.search(span.caption)) and not find_line_items(span.row.label)
                and names_counted(span.caption, frame.counted[-1:]))
            return KIND_FIT + ROW_FIGURE if counts and not money and named else -KIND_MISS
        return KIND_FIT if states_count(text, frame.counted) else -KIND_MISS
    if kind == "figure" and frame.effect and span.row is not None and statement_row(span.row):
        return 0.0  # a line item's levels by year state no cause's effect on it
    if kind == "figure":
        if span.row is not None and any(not f.none for f in span.figures()):
            if _asks_amount(frame) and not _asks_share(frame) and all(
                    f.unit == "%" for f in span.figures() if not f.none):
                return -KIND_MISS  # the sales mix in percent for "what were the sales"
            if _PER_SHARE_ASKED.search(frame.text) and not _per_share_row(span):
                return -KIND_MISS  # the shares or the income an EPS divides, not the EPS
            return KIND_FIT + ROW_FIGURE  # a line item's own row states the figure
        if stated_amounts(text) and _asks_balance(frame) and a_movement(text):
            return -KIND_MISS  # "proceeds from long-term debt of $5.1 billion" for the debt
        # "approximately thirty percent of our sales" states a share in words
        amounts = stated_amounts(text)  # a footnote's "(2)" is no figure
        money = [a for a in amounts if a.currency]
        if money and all(_CHANGED_BY.ends(text[:a.start]) for a in money) and not any(
                says_change(t) for t in frame.ranking.terms) and not frame.effect:
            # "exchange rates increased fulfillment costs by $609 million": a change by an
            # amount, where the level is asked (where the effect of a cause on it is asked,
            # "what was the impact of exchange rates on costs?", the change is the answer)
            return -KIND_MISS
        if _only_its_change(text, frame) and not any(
                says_change(t) for t in frame.ranking.terms):
            # "a $6.3 billion decrease in repayments of debt": the change of the flow asked,
            # where its amount is asked (its row states it)
            return -KIND_MISS
        if not amounts and not _PERCENT.search(text):
            return -KIND_MISS
        if amounts and all(a.unit == "%" for a in amounts) and frame.effect and any(
                term_in(t, stems_of(text)) for t in cause_words(frame.text, frame.entity)):
            # what the cause asked did to the line item, in percent: "operating income
            # included an unfavorable foreign currency impact of 6%"
            return KIND_FIT / 2
        if frame.share_of and amounts and _states_share_of(text, frame):
            return KIND_FIT  # "how much of its bookings came from airports?": "11% of our …"
        if amounts and _asks_amount(frame) and all(a.unit == "%" for a in amounts):
            return -KIND_MISS  # "AWS sales increased 20%" for "how much revenue": its growth
        if _asks_money(frame) and not money and any(a.unit == "%" for a in amounts):
            # "on December 12 we acquired 100% of Halden" for "how much did it pay for
            # Halden?": the share bought, no price
            return -KIND_MISS
        if frame.ranking.wants_amount and not _asks_rate(frame) and all(
                a.unit == "%" for a in amounts):
            # "how much tax is still owed?": "8% due in each of the first five years" states
            # a rate of it, where a sentence may state the amount
            return KIND_FIT / 2
        return KIND_FIT
    if kind == "person":
        if not _NAME.search(text):
            return 0.0
        # "Who owns the Class B stock?": "All shares … are beneficially owned by Ann Lee" names
        # whoever does the very thing asked, where another sentence merely names people
        return KIND_FIT if _named_after_verb(text, _person_verb(frame)) else KIND_FIT / 2
    if kind == "date":
        if not YEAR.search(text):
            return 0.0
        # "When do the notes mature?": "The notes mature on May 15, 2027" dates the very event
        # asked, where "On or after February 15, 2027, the notes will be convertible …" another
        verb = _verb_of(frame.text, frame.ranking.terms)
        return KIND_FIT if _dated_by_verb(text, verb) else KIND_FIT / 2
    if kind == "place":
        return KIND_FIT / 2 if states_place(text) else 0.0
    if kind == "method":  # "how does it measure the cost of its inventory?": a method stated
        if span.row is not None:
            return -KIND_MISS
        # the method named ("standard cost … first-in, first-out") over the bound every policy
        # of the kind states ("stated at the lower of cost or net realizable value")
        return KIND_FIT if _METHOD.found(text) else KIND_FIT / 2 if _METHOD_BOUND.found(text) \
            else 0.0
    if kind == "quarter":  # "in which quarters is revenue highest?": a quarter named, no figure
        if span.row is not None:
            return -KIND_MISS
        # a quarter of a year ("in the first quarter of fiscal year 2023") is no season
        return KIND_FIT if _QUARTER_NAMED.found(text) and not YEAR.search(text) else 0.0
    if kind == "list" and span.row is None:
        # "The iPhone line includes iPhone 17 Pro, iPhone Air, …": the things listed (a run of
        # amounts "as follows" is a table's figures, not things)
        money = sum(1 for a in find_amounts(text) if a.currency is not None)
        thing = _thing_asked(frame.text, frame.ranking.terms)
        if thing and not money and _named_thing(text, thing, frame.entity):
            # "which model does it use to value its options?": "… using the Black-Scholes
            # option-pricing model" names one of the things asked, by its own name; where
            # several are asked ("which Gadget models …"), a sentence naming one ("… net
            # sales of Max models") fits for half, below the one that lists them
            return KIND_FIT if not _several_asked(frame.text, thing) or lists_things(text) \
                else KIND_FIT / 2
        if frame.ranking.wants_amount and not frame.counted:
            # "What premium did it pay?", "what charges did it record?": a thing known by its
            # amount, which a sentence states of that very thing ("for a premium of $271.5
            # million", not "the total impact … was $64.7 million"); a list with none is no answer
            said = not thing or any(term_in(t, stems_of(text)) for t in thing)
            return KIND_FIT if money and said else 0.0
        if _COMPANY_ASKED.found(frame.text):
            # "which company is it buying?": "an agreement to acquire Halden Group, Inc. for
            # $95.00 per share … valued at $6.8 billion" names it, its amounts notwithstanding;
            # a list that names no company ("competitors include: (1) retailers …") half fits
            if names_company(text, but=frame.entity):
                return KIND_FIT
            return KIND_FIT / 2 if lists_things(text) and money < 2 else 0.0
        return KIND_FIT if lists_things(text) and money < 2 else 0.0
    if kind == "list" and statement_row(span.row):
        return -KIND_MISS  # a line item's figures do not list what it is made of
    return 0.0


_RECORDED_WITHIN = 20  # how far after "recorded" its amount starts ("approximately $2.4 …")


_SHARE_OF = vocabulary().cues("share_of_stated")


def _states_share_of(text: str, frame: QuestionFrame) -> bool:
    """A percent stated as a share of the line item asked ("we generated 11% of our Mobility
    Gross Bookings from airport trips"), not its growth ("bookings rose 11%")."""
    said = {t for s in frame.subjects for t in content_terms(s)}
    return any(a.unit == "%" and _SHARE_OF.starts(text[a.end:])
               and any(term_in(t, stems_of(text[a.end:a.end + 80])) for t in said)
               for a in find_amounts(text))


def _states_recorded(text: str) -> bool:
    """The sentence states an amount recorded: a recording verb with an amount of money right
    after it ("we recorded approximately $2.4 billion of expense"; not "the amount recorded on
    the balance sheet for preferred stock was …")."""
    amounts = [a.start for a in find_amounts(text) if a.currency]
    return any(0 <= start - m.end() <= _RECORDED_WITHIN for m in _RECORDING.finditer(text)
               for start in amounts)


_DATED_WITHIN = 4  # how many words after the question's verb its date may stand


def _dated_by_verb(text: str, verb: str | None) -> bool:
    """The sentence says the question's verb and a year within a few words after it ("mature
    on May 15, 2027", "closed in March 2026")."""
    if verb is None:
        return False
    words = text.split()
    return any(term_in(verb, _stems_of_word(w.lower().strip(",.;:"))) and any(
        YEAR.search(after) for after in words[i + 1:i + 1 + _DATED_WITHIN])
        for i, w in enumerate(words))


_WHO = vocabulary().cues("answer_person_opening")  # "who"


def _person_verb(frame: QuestionFrame) -> str | None:
    """The verb of a "who …?" question, the term right after its opening word ("owns" of "Who
    owns the Class B stock?")."""
    opened = _WHO.starts(frame.text)
    if opened is None:
        return None
    words = _WORD.findall(frame.text.lstrip()[opened.end():])
    return next((t for t in frame.ranking.terms if words and term_in(t, stems_of(words[0]))),
                None)


def _named_after_verb(text: str, verb: str | None) -> bool:
    """A person's name within a few words after the question's verb ("owned by either Ann
    Lee", "led by Tom Ross")."""
    if verb is None:
        return False
    root = short_root(verb)  # "owns" of "owned", which the stems do not meet
    words = text.split()
    return any((term_in(verb, _stems_of_word(w.lower().strip(",.;:"))) or (
        len(root) >= 3 and w.lower().startswith(root))) and _NAME.search(
        " ".join(words[i + 1:i + 1 + _DATED_WITHIN + 2])) for i, w in enumerate(words))


def _another_part(text: str, frame: QuestionFrame) -> bool:
    """The text names a quarter or half, and not the one the question asks for."""
    asked = set(frame.parts_of_year)
    said = quarters_in(text, {int(y) for y in YEAR.findall(text)})
    return bool(asked and said and not said & asked)


def _names_item(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]]
                ) -> bool:
    """The span names a line item asked, in any of its wordings: a sentence anywhere in it, a
    row by its own label, or by its heading when the heading is that line item ("Net sales:")
    and the label is a short part of it that names no line item of its own ("iPhone")."""
    patterns = [p for _, ps in items for p in ps]
    if span.row is None:
        return any(p.search(span.text) for p in patterns)
    if any(p.search(span.row.label) for p in patterns):
        return not a_movement(span.row.label)  # "Repayments of long-term debt" is no debt
    heading = span.group.strip().rstrip(":").strip()
    if heading and label_periods(span.row):  # a metric's table by period: its caption names it
        return any(p.search(heading) for p in patterns)
    return bool(heading) and len(span.row.label.split()) <= 3 and any(
        p.fullmatch(heading) for p in patterns) and not (
        find_line_items(span.row.label) or named_groups(span.row.label))


def _of_subject(span: Span, frame: QuestionFrame) -> bool:
    """A row whose label is the line item asked in another of the deal vocabulary's wordings
    ("Net cash applied to operating activities" for the operating cash flow)."""
    if span.row is None or not frame.subjects:
        return False
    own = label_line_item(span.row.label)
    if a_movement(span.row.label):
        # "Repayments of debt" is no debt, but it is the debt repaid where that flow is asked: a
        # flow that is a statement line only (a deal metric's movement row, "Purchases of
        # property and equipment" for capex, is read by the metric's own readers, which also
        # weigh what the filing itself calls it)
        return own in frame.subjects and (spec := item_spec(own)) is not None and not (
            spec.stock or spec.sheet or spec.metric)
    return own in frame.subjects


def _names_aside(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]],
                 terms: Sequence[str]) -> bool:
    """A row whose label names a line item asked only in the complement of a head of its own,
    a head the question does not ask: "Payroll tax expense related to stock-based compensation"
    or "Tax benefit from stock-based compensation" where the stock-based compensation is asked
    states a figure of another thing. Asked by most of its head's words too ("the payroll tax
    on stock-based compensation"), the row is the one asked."""
    if span.row is None:
        return False
    label = span.row.label
    spots = [m for _, ps in items for p in ps for m in p.finditer(label)]
    if not spots:
        return False
    for m in spots:
        head = head_before(label, m.start(), m.end())
        if head is None:
            return False  # named in its own head
        own = content_terms(head)
        if 2 * sum(t in terms for t in own) >= len(own):
            return False  # the head is asked too, by most of its words
    return True


def _part_of_item(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]],
                  core: list[str]) -> bool:
    """A statement row of the part asked ("Services" for "services net sales"): its own label
    says the question's other words and names no line item of its own, its heading, its table's
    caption ("net sales by category") or its table's last row (what a reconciliation adds up
    to) names the line item. A row that is itself a line item asked is the part where its table
    is of another line item asked ("share-based payments" added back in the "reconciliation of
    operating profit to underlying EBITDA"): the question names the whole to place the part."""
    if span.row is None or not statement_row(span.row):
        return False
    own = {i for i, (_, ps) in enumerate(items) if any(p.search(span.row.label) for p in ps)}
    if own:
        return any(i not in own and _table_of(span, ps) for i, (_, ps) in enumerate(items))
    if find_line_items(span.row.label) or named_groups(span.row.label):
        return False
    wholes = [i for i, (_, ps) in enumerate(items) if _table_of(span, ps)]
    if not wholes or len(wholes) < len(items):
        # the table is of no line item asked, or the question names the part itself beside the
        # whole ("stock-based compensation" excluded from adjusted EBITDA): a row that names
        # neither is another part ("Interest expense")
        return False
    item_words = {t for own, _ in items for t in own}
    label = stems_of(span.row.label)
    # "total" of "total shareholders' equity" says the whole, no part of it
    return any(term_in(t, label) for t in core if t not in item_words and not totals_row(t))


def _a_part_row(span: Span, items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]]
                ) -> bool:
    """A statement row named as a line item asked by its heading only ("Net sales:"), its own
    label naming a part of it ("AWS", "North America"), or a row of a segment's block
    ("Operating income" under "AWS"); not a period of a metric's table."""
    if span.row is None or not statement_row(span.row) or label_periods(span.row):
        return False
    if span.segment:  # a row of a segment's block ("Operating income" under "AWS")
        return True
    if totals_row(span.row.label):
        return False
    return not any(p.search(span.row.label) for _, ps in items for p in ps)


def _table_of(span: Span, patterns: Sequence[re.Pattern[str]]) -> bool:
    """The row's heading, its table's caption or its table's last row names the line item."""
    return any(p.search(f"{span.group} {span.caption}") for p in patterns) or bool(
        span.result and not a_movement(span.result)
        and any(p.search(span.result) for p in patterns))


def _states_figure(span: Span) -> bool:
    """A row with a figure in it, or a sentence that states an amount."""
    if span.row is not None:
        return any(not f.none for f in span.figures())
    return bool(stated_amounts(span.text))


def _states_total(span: Span,
                  items: list[tuple[frozenset[str], tuple[re.Pattern[str], ...]]]) -> bool:
    """A sentence that states a line item asked as a whole, by the word before its name, and
    its amount after it ("our total unearned revenue as of December 31, 2025 was $25.0
    billion")."""
    if span.row is not None or not _states_figure(span):
        return False
    money = [a.start for a in stated_amounts(span.text) if a.currency]
    # the total's own amount follows its name ("10% or more of total trade receivables" is none)
    return any(_STATED_TOTAL.ends(span.text[:m.start()]) and any(at > m.end() for at in money)
               for _, patterns in items for p in patterns for m in p.finditer(span.text))


def _verb_of(question: str, core: Sequence[str]) -> str | None:
    """The question's own verb: its last word, where an auxiliary ("does", "did") stands
    before it ("What services does Amazon offer?")."""
    aux = _AUXILIARY.search(question)
    last = _WORD.findall(question[aux.end():]) if aux is not None else []
    if len(last) < 2:
        return None
    return next((t for t in core if term_in(t, stems_of(last[-1]))), None)


_LIST_OPENING = vocabulary().cues("answer_list_opening")  # "what", "which"


# the words that end the name of what a question asks for: "does", "are", "in"
_SMALL_WORDS = vocabulary().words("question_words") | vocabulary().words("stop_words")


@lru_cache(maxsize=256)
def _thing_asked(question: str, terms: tuple[str, ...]) -> frozenset[str]:
    """The term naming what a "what …" or "which …" question asks for, the head of the words
    after its opening word, up to its verb or next small word: "premium" of "What premium did
    Lyft pay …?", "models" of "Which iPhone models does Apple sell?", "products" of "What
    products are in …?"."""
    opening = _LIST_OPENING.starts(question)
    if opening is None:
        return frozenset()
    start = len(question) - len(question.lstrip()) + opening.end()
    head: list[str] = []
    for word in _WORD.findall(question[start:]):
        if word.lower() in _SMALL_WORDS:
            break
        head.append(word)
    if not head:
        return frozenset()
    return frozenset(t for t in terms if term_in(t, _stems_of_word(head[-1].lower())))


_NAME_INSIDE = vocabulary().words("list_joiners") | {"of", "&"}  # "Bank of Leith"


_DETERMINERS = vocabulary().words("determiners")  # "the" of "The Drizly Group"


_FIRM_WORDS = stems_of(" ".join(vocabulary().words("subject_nouns")))  # "company", "business"


_NAME_ENDS = ",;:.(“\""  # what ends the words after the verb that may name the thing


_NAME_REACH = 90  # characters after the verb a name may stand


def named_after(text: str, verb: str, own: set[str]) -> str | None:
    """The first name after the first word of the question's verb, in any of its forms ("the
    acquisition of Halden Group, …" for "acquire", "bought Ostra" for "buy"), before the verb is
    said again: capitalised words,
    not a month nor the company's own name (`own`, lower-cased)."""
    said = [m for m in _WORD.finditer(text) if one_word(verb, _stems_of_word(m.group(0).lower()))]
    if not said:
        return None
    at = said[0]
    # the verb said again ends what the first names ("the acquisition date fair values of the
    # assets acquired … for Postmates" names nothing acquired)
    end = said[1].start() if len(said) > 1 else len(text)
    tail = text[at.end():min(at.end() + _NAME_REACH, end)]
    tail = tail[:min((i for c in _NAME_ENDS if (i := tail.find(c)) >= 0), default=len(tail))]
    name: list[str] = []
    for word in tail.split():
        if word[:1].isupper() or (name and word.lower() in _NAME_INSIDE):
            name.append(word)
        elif name:
            break
    while name and name[-1].lower() in _NAME_INSIDE:
        name.pop()
    words = [w.lower() for w in name]
    if not words or words[0] in _MONTH_NAMES or set(words) <= own | _DETERMINERS or \
            not content_terms(" ".join(name)):
        return None
    return " ".join(name)


_NAMED_WITHIN = 2  # how many words before the thing asked its name may stand
# the endings a plural adds to the word for a thing ("models", "modèles", "Modelle", "companies")
_PLURAL_ENDINGS = ("s", "x", "e", "en", "n")


def _several_asked(question: str, thing: frozenset[str]) -> bool:
    """The question names the thing asked in the plural: its word is longer than its stem and
    ends as a plural does ("models" of "model"; "company" is one, "companies" several)."""
    for word in letter_words(question):
        lowered = word.lower()
        for stem in thing:
            if lowered != stem and lowered.startswith(stem) and lowered.endswith(_PLURAL_ENDINGS):
                return True
    return False



def _named_thing(text: str, thing: frozenset[str], entity: str | None) -> bool:
    """The sentence names a thing of the kind asked by its own name, a capitalised word right
    before the word for the thing, itself in lowercase ("the Black-Scholes option-pricing
    model"; a title's words, "Report of Independent Registered Public Accounting Firm", or
    "Shareholders' Investment" for "share", name none); not its first word, a month, a company
    word nor the company's own name."""
    words = [w.strip(_NAME_ENDS + "”)") for w in text.split()]
    own = {w.lower() for w in letter_words(entity or "")} | _MONTH_NAMES
    for at, word in enumerate(words):
        if not at or not word.islower() or not thing & _stems_of_word(word):
            continue
        before = words[max(1, at - _NAMED_WITHIN):at]
        if any(w[:1].isupper() and w.lower() not in own and not (
                _stems_of_word(w.lower()) & _FIRM_WORDS) for w in before):
            return True
    return False


def question_verb(frame: QuestionFrame) -> str | None:
    """The question's own verb, as one of its terms, where an auxiliary stands before it
    (`QuestionFrame.verb`: "acquire" of "Which businesses did Uber acquire in 2021?")."""
    return frame.verb


def fits_kind(span: Span, frame: QuestionFrame) -> bool:
    """The span is the kind of answer the question asks for (a figure, a rate, a name, a year)."""
    return _kind_fit(span, frame) > 0


def _only_its_change(text: str, frame: QuestionFrame) -> bool:
    """Every mention of the line item asked in the sentence follows a change by an amount ("a
    $3.93 billion increase in proceeds from issuances of debt"): it states how much the item
    changed, never how much it was."""
    named = [start for subject, start, _ in find_line_items(text) if subject in frame.subjects]
    return bool(named) and all(_CHANGE_OF_ITEM.ends(text[:start]) for start in named)
