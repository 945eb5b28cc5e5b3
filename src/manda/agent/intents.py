"""Deterministic reading of a question: its intent, metric, period, entity and follow-up cues.

Intents are inferred, never asked for. The same reading drives the offline tool plan and is given
to Claude as a hint, so both paths agree on the answer's shape.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from typing import Literal

from manda.agent.topics import OVERVIEW, ROLE_WORDS
from manda.answers import Intent
from manda.finance.equivalents import named_groups
from manda.finance.periods import LTM_WORDS, find_periods
from manda.finance.vocabulary import find_subjects

Relative = Literal["last_year", "previous_period", "same_period_last_year"]
AnswerKind = Literal["reason", "ranking", "rate", "figure", "person", "date"]

_F = re.IGNORECASE

# Ordered: the first intent whose cue matches wins ("summarise the red flags" is due diligence).
_CUES: list[tuple[Intent, re.Pattern[str]]] = [
    (Intent.GAP_IDENTIFICATION, re.compile(
        r"\b(?:gaps?|what(?:'s| is| are)? (?:still )?missing|missing (?:documents?|items?|"
        r"information|info)|irl|information request|request list|(?:irl |checklist )?coverage|"
        r"outstanding (?:items?|requests?|documents?)|not (?:yet )?(?:been )?(?:provided|"
        r"received|covered)|haven'?t (?:we )?(?:received|got(?:ten)?)|still need|checklist|"
        r"(?:requests?|items?) (?:are |is )?still open|anforderungsliste\w*|fehlende unterlagen)\b",
        _F)),
    (Intent.DUE_DILIGENCE, re.compile(
        r"\b(?:red[\s-]?flags?|risks?|risky|concerns?|issues?|problems?|worr(?:y|ies|ied)|"
        r"watch[\s-]?outs?|due diligence|diligence|unusual|anomal\w*|inconsisten\w*|"
        r"contradict\w*|conflict\w*|discrepanc\w*|deal[\s-]?breakers?|corrections?|restat\w*|"
        r"exposures?|liabilit(?:y|ies)|what should (?:we|i) (?:worry|know|look)|look out for)\b",
        _F)),
    (Intent.COMPARISON, re.compile(
        r"\b(?:compare[sd]?|comparison|comparing|versus|vs\.?|difference between|differ(?:s|ed)? "
        r"from|side[\s-]by[\s-]side|variance|relative to|against)\b", _F)),
    (Intent.SYNTHESIS, re.compile(
        r"\b(?:summari[sz]e|summary|summari[sz]ing|overall|big picture|key takeaways?|"
        r"takeaways?|pull together|what do we know about|financial profile|in a nutshell|"
        r"tl;?dr|recap|investment thesis|financial health|state of (?:the )?(?:business|company)|"
        r"how (?:is|are) (?:the company|the business|they) doing)\b", _F)),
    (Intent.DEEP_DIVE, re.compile(
        r"\b(?:walk (?:me|us) through|break(?:\s|-)?down|deep[\s-]?dive|in detail|detailed|"
        r"drill (?:into|down)|tell me more|analy[sz]e|analysis|trends?|trending|drivers?|"
        r"explain|development of|over time|evolution|evolved|developed|quarter by quarter|"
        r"by quarter|by department|by customer|composition)\b", _F)),
    (Intent.EXPLORATION, re.compile(
        r"\b(?:overview|what(?:'s| is) in (?:the|this) data[\s-]?room|(?:which|what) "
        r"(?:documents|files)|what do we have|where (?:should|do|can) (?:i|we) start|explore|"
        r"show me around|what can you tell me|what(?:'s| is) available|data[\s-]?room|"
        r"getting started|orient me|high[\s-]level)\b", _F)),
]

_FOLLOWUP = re.compile(
    r"^\s*(?:and|and what about|what about|how about|same for|also|what of|and for|and in|"
    r"and the|then|ok(?:ay)?,? (?:and|what about))\b", _F)
_PRONOUN = re.compile(r"\b(?:it|that|this|those|these|them)\b", _F)
_RELATIVE: list[tuple[Relative, re.Pattern[str]]] = [
    ("same_period_last_year", re.compile(
        r"\b(?:same (?:quarter|period|half) (?:of |in )?(?:last|the previous|the prior|a) year|"
        r"year[\s-](?:on|over)[\s-]year|yoy|a year (?:earlier|before|ago))\b", _F)),
    ("previous_period", re.compile(
        r"\b(?:(?:last|previous|prior|preceding) (?:quarter|half)|quarter before|"
        r"the period before|previous period|prior period)\b", _F)),
    ("last_year", re.compile(
        r"\b(?:last year|previous year|prior year|the year before|preceding year)\b", _F)),
]
# Full years named relative to the room's latest one, in a question of its own ("revenue last
# year vs the year before", "EBITDA for the past three years"): 1 = the latest full year.
_YEARS_COUNTED = re.compile(
    r"\b(?:last|past|previous|prior|latest|most recent) (two|three|2|3) (?:full |fiscal |"
    r"financial |reported )?years\b", _F)
_YEAR_BEFORE_LAST = re.compile(r"\b(?:the )?year before last\b", _F)
_LAST_YEAR = re.compile(
    r"\b(?:last|latest|most recent|last completed|last full|last reported) (?:full |fiscal |"
    r"financial |reported |completed )?year\b(?! before)", _F)
_PRIOR_YEAR = re.compile(
    r"\b(?:(?:the )?(?:previous|prior|preceding) (?:full |fiscal |financial )?year|"
    r"the year before(?: that)?)\b(?! last)", _F)
_COUNTS = {"two": 2, "2": 2, "three": 3, "3": 3}


def years_back(text: str) -> tuple[int, ...]:
    """Full years a question counts back from the room's latest one: "last year" (1), "the
    year before" (2 beside "last year", else 1), "the past three years" (1, 2, 3)."""
    found: set[int] = set()
    if m := _YEARS_COUNTED.search(text):
        found.update(range(1, _COUNTS[m.group(1).lower()] + 1))
    if _YEAR_BEFORE_LAST.search(text):
        found.add(2)
    last = bool(_LAST_YEAR.search(text))
    if last:
        found.add(1)
    if _PRIOR_YEAR.search(text):
        found.add(2 if last else 1)
    return tuple(sorted(found))


_PARTIAL_PERIOD = re.compile(r"(?<![\w])([QH][1-4])(?![\w'’])(?!\s*[-/']?\s*\d)", _F)
_LTM_ASKED = re.compile(
    rf"\b{LTM_WORDS}\b(?:[^?.]{{0,40}}?\b(?:as (?:of|at)|to|ending|ended|through|at|in)\s+"
    r"(?P<m>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b)?", _F)
_M_PERIOD = re.compile(r"^[A-Z][a-z]{2} \d{4}$")
_FULL_YEAR_REPLY = re.compile(r"\b(?:full[\s-]?year|whole year|the year|annual|fy)\b", _F)
_SAME_QUARTER_REPLY = re.compile(r"\b(?:same quarter|the quarter|quarter|same half|same period)\b",
                                 _F)
_FORECAST = re.compile(r"\b(?:forecasts?|projected|projections?|budget(?:ed)?|plan(?:ned)?|"
                       r"outlook|guidance|expected|expect)\b", _F)
_ACTUAL = re.compile(r"\b(?:actuals?|achieved|realised|realized|reported|audited)\b", _F)
# What kind of answer the question's form asks for, first match wins: a reason ("why", "what
# drove"), a ranking ("which segment grew most"), a rate ("how fast", "what margin"), a figure
# ("how much", "what was <a metric>"), a person ("who"), a date ("when", "since when").
_ANSWER_KINDS: tuple[tuple[AnswerKind, re.Pattern[str]], ...] = (
    ("reason", re.compile(
        r"^\s*why\b|\bwhat (?:drove|drives|caused|causes|explains|is driving|were the drivers|"
        r"are the drivers)\b|\breasons? (?:for|behind)\b|"
        r"\bhow (?:is|are|does|do|did) [\w'’ ]{1,40}?\b(?:mitigat\w*|respond\w*|address\w*|"
        r"offset\w*|manag\w*)\b", _F)),
    ("ranking", re.compile(
        r"\bwhich\b[^?]{0,80}?\b(?:best|worst|most|least|largest|biggest|smallest|highest|"
        r"lowest|fastest|slowest|strongest|weakest)\b|\brank(?:ed|ing)?\b", _F)),
    ("rate", re.compile(
        r"\bhow fast\b|\bgrowth rate\b|\bwhat (?:percentage|percent)\b|\b(?:margin|rate)s?\b(?!\s+"
        r"(?:of|on) (?:the )?(?:debt|notes))|\bhow (?:did|does|has) [\w'’ ]{1,40}?\b(?:grow|grew|"
        r"decline|change|develop)\w*", _F)),
    ("person", re.compile(r"^\s*who\b|\bwho (?:is|are|was|runs|leads|heads)\b", _F)),
    ("date", re.compile(r"^\s*when\b|\bsince when\b", _F)),
    ("figure", re.compile(r"\bhow (?:much|many|big|large)\b|\bwhat (?:amount|size)\b", _F)),
)


# How a ranking question ranks: by growth ("grew most", "performed best") or by size ("largest"),
# and which end leads ("worst", "declined most", "smallest": the bottom).
_RANK_BY_SIZE = re.compile(r"\b(?:largest|biggest|smallest|highest|lowest|most revenue|"
                           r"most sales|most profitable|most of)\b", _F)
_RANK_FROM_BOTTOM = re.compile(r"\b(?:worst|weakest|least|smallest|lowest|slowest|declined? "
                               r"(?:the )?most|fell (?:the )?most|shr[ai]nk\w* (?:the )?most)\b",
                               _F)


def ranking_of(text: str) -> tuple[Literal["growth", "size"], bool]:
    """By what a ranking question ranks, and whether the top (True) or the bottom leads."""
    by: Literal["growth", "size"] = "size" if _RANK_BY_SIZE.search(text) and not re.search(
        r"\bgr[eo]w\w*|\bincreas\w*|\bdeclin\w*|\bperform\w*", text, _F) else "growth"
    return by, not _RANK_FROM_BOTTOM.search(text)


def answer_kind(text: str, subjects: tuple[str, ...], line_items: tuple[str, ...] = ()
                ) -> AnswerKind | None:
    """The kind of answer the question's form asks for; a metric or line item asked with
    "what was" is a figure."""
    for kind, pattern in _ANSWER_KINDS:
        if pattern.search(text):
            return kind
    if (subjects or line_items) and re.search(r"\bwhat(?:'s| (?:was|were|is|are))\b", text, _F):
        return "figure"
    return None


_QUESTION_WORDS = {
    "what", "who", "how", "when", "where", "which", "why", "is", "are", "was", "were", "do",
    "does", "did", "can", "could", "should", "and", "tell", "give", "show", "list", "compare",
    "summarise", "summarize", "walk", "any", "has", "have", "the", "a", "an", "for", "in", "of",
    "vs", "about", "please", "ok", "okay", "also",
    # asked in German: "Wer sind die Geschäftsführer?", "Wie hoch war der Umsatz?"
    "wer", "wie", "welche", "welcher", "welches", "wann", "wo", "warum", "ist", "sind",
    "war", "waren", "gibt", "gab", "der", "die", "das", "den", "dem", "des", "ein", "eine",
    "einen", "im", "zum", "zur", "und", "hoch", "viel", "es", "uns", "mir", "bitte",
}
_NAME = re.compile(r"(?<![\w])([A-Z][\w&.\-]*(?:\s+(?:[A-Z][\w&.\-]*|AG|GmbH|SE|KG|Ltd|plc))*)")
_TOPIC_WORDS = re.compile(r"[A-Za-zÀ-ÿ][\w\-]+")
_STOP = _QUESTION_WORDS | {
    "there", "their", "they", "them", "its", "it", "this", "that", "those", "these", "our", "we",
    "i", "me", "you", "your", "to", "on", "at", "by", "with", "from", "be", "been", "much", "many",
    "did", "know", "about", "tell", "us", "current", "currently", "latest", "company",
    "target", "deal", "data", "room", "please", "than", "into", "or", "not", "no",
    "yes", "so", "if", "all", "some", "up", "out", "who's", "what's", "whats", "q1", "q2", "q3",
    "q4", "h1", "h2", "fy", "year", "quarter", "last", "previous", "prior", "through", "big",
    "get", "got", "see", "more", "most", "any", "anything", "something", "thing", "things",
}


@dataclass(frozen=True)
class QuestionFrame:
    """What a question asks for, read without looking at any data."""

    text: str
    intent: Intent
    explicit_intent: bool  # a cue named the intent; False when fact_lookup is the default
    subjects: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()
    partial_period: str | None = None  # "Q3" with no year: the data decides which year
    relative: Relative | None = None
    years_back: tuple[int, ...] = ()  # full years counted back from the room's latest one
    entity: str | None = None
    terms: tuple[str, ...] = ()  # content words, for topics that are not metrics
    followup: bool = False  # phrased as a continuation: "And EBITDA?", "What about last year?"
    refers_back: bool = False  # a pronoun and no subject of its own: "Why did it drop?"
    wants_forecast: bool = False
    wants_actual: bool = False
    full_year_reply: bool = False
    same_quarter_reply: bool = False
    words: int = field(default=0)
    answer_kind: AnswerKind | None = None  # a reason, a ranking, a rate, a figure, …
    # the statement line items it names, in its own words ("diluted EPS", "capex"), as
    # `manda.finance.equivalents` lists them
    line_items: tuple[str, ...] = ()

    @property
    def subject(self) -> str | None:
        return self.subjects[0] if self.subjects else None

    @property
    def period(self) -> str | None:
        return self.periods[0] if self.periods else None


def detect_intent(question: str) -> tuple[Intent, bool]:
    """The intent a question asks for, and whether a cue named it (else the default lookup)."""
    intent, explicit, _ = intent_with_reason(question)
    return intent, explicit


def intent_with_reason(question: str) -> tuple[Intent, bool, str]:
    """`detect_intent`, with why in words (the cue it read), for the answer's trace."""
    for intent, cue in _CUES:
        if found := cue.search(question):
            if intent is Intent.COMPARISON and _only_against_word(question) \
                    and not _two_periods(question):
                continue
            return intent, True, f'the question says "{found.group(0)}"'
    if (found := _PROFILE.search(question)) and company_like(_entity(question)) \
            and not find_subjects(question):  # "Tell me about Globex": all the room says of it
        return Intent.SYNTHESIS, True, f'a profile of a name is asked for ("{found.group(0)}")'
    if found := OVERVIEW.asked.search(question):  # "Tell me about the company": to explore
        return Intent.EXPLORATION, True, f'an overview is asked for ("{found.group(0)}")'
    subjects = _unique(s for s, _, _ in find_subjects(question))
    periods = _unique(p for p, _, _ in find_periods(question, bare_years=True))
    if len(periods) >= 2 and subjects and re.search(r"\b(?:and|to|with)\b", question, _F):
        return Intent.COMPARISON, True, f"two periods ({', '.join(periods[:2])}) of one subject"
    if not periods and subjects and len(years_back(question)) >= 2:
        return Intent.COMPARISON, True, "two or more full years counted back from the latest"
    return Intent.FACT_LOOKUP, False, "no cue for another intent: a fact lookup by default"


_PROFILE = re.compile(r"\btell (?:me|us) (?:more )?about\b|\bwhat(?:'s| is) the (?:deal|story|"
                      r"situation|background) (?:with|on|of)\b|\b(?:background|rundown|"
                      r"anything) on\b|\bwho (?:is|are)\b(?=.*\b(?:AG|GmbH|Ltd|plc|Inc|LLC|LLP|"
                      r"SE|KG)\b)", _F)


_COMPANY = re.compile(r"\b(?:AG|GmbH|Ltd|plc|Inc|LLC|LLP|SE|KG|Corp|Co|SA|NV|BV|Holdings?|"
                      r"Group|Partners|Capital|Bank)\b\.?")


def company_like(name: str | None) -> bool:
    """A company ("Globex", "Vertex Distribution GmbH"), not a person's name ("Anna Schmidt",
    whose question goes to the person: role, background, stake)."""
    if not name:
        return False
    words = name.split()
    return bool(_COMPANY.search(name)) or len(words) == 1


def _two_periods(question: str) -> bool:
    """"Q3 against Q3 last year", "FY2024 against FY2023": periods on both sides of it."""
    named = len(find_periods(question, bare_years=True))
    partial = len(re.findall(r"(?<![\w])[QH][1-4](?![\w])", question, _F))
    relative = any(pattern.search(question) for _, pattern in _RELATIVE)
    return named + partial + relative >= 2


def _only_against_word(question: str) -> bool:
    """"against" alone ("claims against the company") is no comparison."""
    cue = _CUES[2][1]
    words = {m.group(0).lower() for m in cue.finditer(question)}
    return words == {"against"} and not re.search(r"\bcompared?\b", question, _F)


def read_question(question: str) -> QuestionFrame:
    """Everything the agent reads from the question text alone."""
    text = " ".join(question.split())
    intent, explicit = detect_intent(text)
    subjects = _unique(s for s, _, _ in find_subjects(text))
    periods = _unique(p for p, _, _ in find_periods(text, bare_years=True))
    partial = None
    if (ltm := _LTM_ASKED.search(text)) and not any(p.startswith("LTM ") for p in periods):
        # "LTM EBITDA as of March?": the twelve months to the latest March the data has
        month = ltm.group("m")
        if any(_M_PERIOD.match(p) for p in periods):  # "as of March 2025": LTM Mar 2025
            periods = tuple(f"LTM {p}" if _M_PERIOD.match(p) else p for p in periods)
        elif not periods:
            partial = f"LTM {month[:3].title()}" if month else "LTM"
    elif not periods and (m := _PARTIAL_PERIOD.search(text)):
        partial = m.group(1).upper()
    relative = next((name for name, pattern in _RELATIVE if pattern.search(text)), None)
    counted = years_back(text) if not periods and partial is None \
        and relative != "same_period_last_year" else ()
    words = len(re.findall(r"[\w€£$%.]+", text))
    items = tuple(own for own, _ in named_groups(text))
    opener = text.split()[0].lower().strip("?,.!") if text.split() else ""
    short = 0 < words <= 3 and not explicit and opener not in _QUESTION_WORDS - {"and", "also"}
    followup = bool(_FOLLOWUP.search(text)) or short
    refers_back = not subjects and bool(_PRONOUN.search(text))
    return QuestionFrame(
        text=text,
        intent=intent,
        explicit_intent=explicit,
        subjects=subjects,
        periods=periods,
        partial_period=partial,
        relative=relative,
        years_back=counted,
        entity=_entity(text),
        terms=_terms(text),
        followup=followup,
        refers_back=refers_back,
        wants_forecast=bool(_FORECAST.search(text)),
        wants_actual=bool(_ACTUAL.search(text)),
        full_year_reply=bool(_FULL_YEAR_REPLY.search(text)),
        same_quarter_reply=bool(_SAME_QUARTER_REPLY.search(text)),
        words=words,
        answer_kind=answer_kind(text, subjects, items),
        line_items=items,
    )


def _unique(items: object) -> tuple[str, ...]:
    seen: list[str] = []
    for item in items:  # type: ignore[attr-defined]
        if item not in seen:
            seen.append(item)
    return tuple(seen)


_MONTH_NAMES = frozenset(
    name.lower() for name in (*calendar.month_name[1:], *calendar.month_abbr[1:]))
# Deal-team shorthand written with capitals that names no company or person (a firm such as
# "PwC" stays a name).
_DEAL_TERMS = {"qoe", "capex", "opex", "pnl", "ltm", "ttm", "ytd", "esop", "vdr", "spa", "loi",
               "nda", "cim", "irl", "sha", "tsa", "ebitda", "arr", "mrr", "kpi", "kpis", "rcf"}


def _entity(text: str) -> str | None:
    """A proper name in the question ("Globex", "Markus Weber"), if any."""
    for m in _NAME.finditer(text):
        name = m.group(1).strip(" .?!,")
        first = re.sub(r"['’]s$", "", name.split()[0].lower())
        if (first in _STOP and first not in _QUESTION_WORDS and m.start() > 0
                and " " not in name and text[m.end():m.end() + 2] in ("'s", "’s")
                and not re.search(r"\b(?:the|a|an|this|our|your)\s+$", text[:m.start()], _F)):
            return name  # "Target's sales" (not "the Company's"): a capitalised possessive
            # in mid-question is a name, even one that is also a common word
        if first in _QUESTION_WORDS or first in _STOP:
            rest = name.split()[1:]
            if not rest:
                continue
            name = " ".join(rest)
        if name.isupper() and len(name) <= 6:  # EBITDA, ARR, IRL, CEO
            continue
        if ROLE_WORDS.fullmatch(name):  # "Geschäftsführer": German capitalises every noun
            continue
        if name.lower() in _DEAL_TERMS:  # QoE, CapEx, PnL: shorthand, not a name
            continue
        if find_subjects(name) or find_periods(name) or name.lower() in _MONTH_NAMES:
            continue  # "February" alone is a month the period reading handles, not a name
        return re.sub(r"['’]s$", "", name)
    return None


def _terms(text: str) -> tuple[str, ...]:
    words = [w.lower().strip("-") for w in _TOPIC_WORDS.findall(text)]
    return _unique(w for w in words if w not in _STOP and len(w) > 2)
