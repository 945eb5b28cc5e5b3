"""Whether a sentence states something of the kind of answer a question asks for.

The kind is read once from the question (`QuestionFrame.answer_kind`, and `counted` for "how
many"): a reason for "why" and "what drove" (a cause or a purpose), the means for "how is it
mitigating …", a count of the very things "how many" counts, a place for "where". A sentence
that repeats the question's words but states nothing of that kind does not answer it. The words
that carry each kind (causal and purpose connectives, the means of an action, the nouns people
are counted in, the words before a place, a change stated) are vocabulary, one list a language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.agent.relevance import content_terms, stems_of, term_in
from manda.finance.amounts import find_amounts
from manda.finance.periods import find_dates
from manda.text import letter_words
from manda.vocabulary import vocabulary

__all__ = ["asks_change", "asks_contents", "asks_definition_by", "cause_after", "counted_terms",
           "counts_people", "defined_terms", "names_counted", "names_own_figure",
           "outside_containers", "refers_to_change", "states_change", "states_count",
           "states_definition", "states_means", "states_place", "states_reason"]

_V = vocabulary()
_CAUSAL = _V.cues("causal_connective")  # "due to", "driven by", "reflecting", "en raison de"
_FORWARD = _V.cues("causal_forward")  # "accounted for", "contributed to", "a pesé sur"
_PURPOSE = _V.cues("purpose_connective")  # "in order to", "so that", "afin de", "um … zu"
_MEANS = _V.cues("means_stated")  # "by renegotiating", "through diversification", "mediante"
_HEDGED = _V.cues("hedged_statement")  # "if we need to", "could", "pourrait"
_REFERRED = _V.cues("change_referred")  # "The decrease was …", "Cette hausse …"
# a statement line named in quotes as where a figure is carried ("included in “Accrued expenses
# and other”", "comptabilisé en « Autres charges »"): the quoted caption is the place, not what
# the figure is of
_CONTAINER = _V.cues("container_reference")
_CONTAINED = _CONTAINER.around(
    tail=r"\s+(?:the\s+|our\s+|its\s+)?[“\"«„]\s*[^”\"»“]{1,80}?\s*[”\"»“]")
_CHANGE = _V.cues("change_said")  # "increased", "compressed", "jumped", "a reculé"
_PEOPLE = _V.cues("people_counted")  # "employees", "team members", "salariés", "Mitarbeiter"
_SHARES = _V.cues("shares_counted")  # "shares", "common stock", "ordinary shares", "actions"
_PLACE = _V.cues("place_lead").around(tail=r"\s+(?P<name>[A-ZÀ-Þ][a-zà-ÿ]+)")
_MONTHS = _V.month_names()
_COUNT_WORDS = _V.cues("count_words")  # a small count in words: "twelve", "douze", "zwölf"
_EMPLOYEE = stems_of("employee")  # the employee concept's noun: its group's words ("staff") match
# a small word ends the things a count counts ("14 trucks from its depots" counts no depots)
_ENDS = (_V.words("form_words") | _V.words("stop_words")) - _V.words("list_joiners")
_DATE_LEAD = _V.cues("count_date_lead")  # "as of", "at": the date a count is stated at
AFTER, BEFORE = 8, 10  # words about a count and the things it counts ("415,000 full-time, …")
_DEFINES = _V.cues("definition_stated")  # "we define … as", "classified … as", "définit … comme"
_COPULA = _V.cues("definition_copula")  # "are", "include", "consist of", "umfasst"
# the words a definition is asked by ("define", "count … as"), which name nothing defined
_ASKING_DEFINITION = stems_of(" ".join(_V.words("definition_asking")))
TERM_OPENS = 6  # the most words a term defined takes before its verb ("Cash equivalents are …")


def states_reason(text: str) -> bool:
    """The text gives a cause: after what it moved ("due primarily to", "driven by") or before
    it ("the weakness in foreign currencies accounted for the decrease"); or a purpose ("a
    week is added every few years to realign the quarters", "afin de", "um … zu")."""
    return _CAUSAL.search(text) is not None or _FORWARD.search(text) is not None or (
        _PURPOSE.search(text) is not None)


def states_means(text: str) -> bool:
    """The text states an action by its means ("we renegotiated supplier terms and shifted
    sourcing through diversification", "measures including …"), as a fact: a condition or a
    possibility ("If we need to seek other suppliers …", "could") states none taken."""
    return _MEANS.search(text) is not None and _HEDGED.search(text) is None


def cause_after(text: str) -> re.Match[str] | None:
    """The connective after which the text gives a cause ("Net sales decreased due to …"): what
    moved stands before it."""
    return _CAUSAL.search(text)


def names_own_figure(text: str, cause: re.Match[str], *, change_asked: bool) -> bool:
    """What follows the connective is said with a figure of its own: the connective names what
    an amount is of, no change standing before it ("$250 million of costs related to the
    business transformation"), or, where a change is asked, the cause states its own amount
    ("Cost of revenue increased $4.2 billion, mainly due to a $2.1 billion increase in Courier
    payments")."""
    return not states_change(text[:cause.start()]) or (change_asked and any(
        a.currency for a in find_amounts(text[cause.end():])))


def refers_to_change(text: str) -> bool:
    """The sentence opens by pointing back at a change the sentence before states ("The
    decrease was primarily due to …"): what changed is named there, not here."""
    return _REFERRED.begins(text)


def asks_contents(text: str) -> bool:
    """The question asks what a line carries ("What is included in accrued expenses?")."""
    return _CONTAINER.found(text)


def outside_containers(text: str) -> str:
    """The text without the statement lines it names in quotes only as where a figure is carried
    ("… were $8.5 billion and are included in “Accrued expenses and other” on our consolidated
    balance sheets"): what the sentence states a figure of is said outside them."""
    return _CONTAINED.sub(" ", text)


def states_change(text: str) -> bool:
    """The text states that something moved, in either direction ("decreased", "compressed")."""
    return _CHANGE.found(text)


def asks_change(word: str) -> bool:
    """A question's word says a change ("compress", "jump"): how a why-question asks about the
    change, which any change stated answers, whichever word it takes."""
    return _CHANGE.fullmatch(word)


def states_count(text: str, counted: Sequence[str]) -> bool:
    """A number of the very things counted (the question's words for them) stands in the text:
    "approximately 415,000 full-time and seasonal team members" for "how many team members",
    "sourcing offices in 27 countries" for "in how many countries"; people are counted in any
    of their words ("employees" for "how many people"). Money, rates and years are no counts."""
    if not counted:
        return False
    people = counts_people(counted)
    for amount in find_amounts(text):
        if amount.currency or amount.unit not in (None, "people") or amount.value < 1:
            continue
        if amount.unit == "people" and people:
            return True
        after = " ".join(_until_small_word(letter_words(text[amount.end:amount.end + 90])[:AFTER]))
        before = " ".join(letter_words(_clause(_undated(text[:amount.start])))[-BEFORE:])
        if names_counted(after, counted) or names_counted(before, counted) or (
                _SHARES.found(" ".join(counted)) and _SHARES.found(before)):
            return True  # "common stock outstanding … was 1,954,464,088" counts shares
    # "useful lives which range from two to twelve years": a small count in words
    return any(names_counted(" ".join(_until_small_word(
        letter_words(text[found.end():found.end() + 90])[:AFTER])), counted)
        for found in _COUNT_WORDS.finditer(text))


def _clause(text: str) -> str:
    """The end of a text from its last clause's start (a semicolon or a sentence's end)."""
    return text[max(text.rfind(";"), text.rfind(". ")) + 1:]


def _undated(text: str) -> str:
    """The text without the dates it states and the words that lead to them: "shares outstanding
    as of January 28, 2026" before a count is "shares outstanding", whose count it is."""
    for _, start, end in reversed(find_dates(text)):
        head = text[:start].rstrip()
        lead = next((m for m in _DATE_LEAD.finditer(head) if m.end() == len(head)), None)
        text = f"{head[:lead.start()] if lead else head} {text[end:]}"
    return text.rstrip(" ,")


def _until_small_word(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        if word.lower() in _ENDS:
            break
        out.append(word)
    return out


def counted_terms(terms: Sequence[str], counted: Sequence[str]) -> set[str]:
    """The question's terms a count of the things counted answers: those things, and where
    people are counted the question's other words for them ("How many associates does it
    employ?": "employ")."""
    own = set(content_terms(" ".join(counted)))
    people = counts_people(counted)
    return {t for t in terms if t in own or (people and term_in(t, _EMPLOYEE))}


def counts_people(counted: Sequence[str]) -> bool:
    """The things counted are people ("employees", "team members", "associates", "staff")."""
    words = " ".join(counted)
    return _PEOPLE.found(words) or any(term_in(t, _EMPLOYEE) for t in content_terms(words))


def names_counted(words: str, counted: Sequence[str]) -> bool:
    """The words name the things counted (people in any of their words: "team members" for
    "how many employees")."""
    stems = stems_of(words)
    own = content_terms(" ".join(counted))
    return bool(own) and (all(term_in(t, stems) for t in own) or (
        counts_people(counted) and _PEOPLE.found(words)))


def states_place(text: str) -> bool:
    """A place is named after a word that places something ("incorporated in Minnesota",
    "headquartered in Seattle"), not a month ("in January")."""
    return any(m.group("name").lower() not in _MONTHS for m in _PLACE.finditer(text))


def asks_definition_by(term: str) -> bool:
    """The question's term is a word that asks for a definition ("define", "count" of "count
    as"), how it asks, not what a passage must say."""
    return term_in(term, _ASKING_DEFINITION)


def defined_terms(terms: Sequence[str], entity: str | None) -> tuple[str, ...]:
    """The question's terms that name what a definition asked defines: "active", "rider" of "How
    does Lyft define an Active Rider?", not the words asking for it nor the company's name."""
    own = stems_of(entity or "")
    return tuple(t for t in terms if not asks_definition_by(t) and not term_in(t, own))


def states_definition(text: str, defined: Sequence[str]) -> bool:
    """The sentence defines the term asked, the term said in it: by a defining verb with what
    the term is after it ("We define Active Riders as all riders who take …", "We classify all
    … instruments with an original maturity of three months or less as cash equivalents"), or
    opening with the term and joined to what it is ("Cash equivalents include highly liquid
    investments …"). A sentence cut off after its verb ("We define Active Riders as") states
    none."""
    if not defined or not all(term_in(t, stems_of(text)) for t in defined):
        return False
    end = len(text.rstrip(" .:;"))
    if any(m.end() < end for m in _DEFINES.finditer(text)):
        return True
    return any(m.end() < end and len(text[:m.start()].split()) <= TERM_OPENS and _only_the_term(
        text[:m.start()], defined) for m in _COPULA.finditer(text))


def _only_the_term(opening: str, defined: Sequence[str]) -> bool:
    """The words before the verb are the term defined and nothing else: "Cash equivalents" of
    "Cash equivalents include …", not "Cash equivalents also" (more of them, the definition
    given before) nor "Contribution and Contribution Margin" (two things described)."""
    said = content_terms(opening)
    return all(term_in(t, stems_of(opening)) for t in defined) and all(
        any(term_in(t, {word}) for t in defined) for word in said)
