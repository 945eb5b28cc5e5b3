"""A financial covenant in one sentence: the ratio it tests, its limit and direction, a result.

"Leverage must not exceed 3.0x", "interest cover of at least 4.0x", "the Borrower shall not
permit the Total Net Leverage Ratio … to exceed 3.50:1.00 for fiscal quarters ending on or before
…, and 3.00:1.00 for each fiscal quarter ending thereafter" (a level that steps down: the one in
force is the last), "Nettoverschuldungsgrad: … darf … 2,75 : 1,00 nicht überschreiten" (German
puts the verb last). Read beside facilities (`manda.finance.facilities`); the answer that lays
covenants out with their sources is the agent's (`manda.agent.compose.balance`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manda.vocabulary import vocabulary

__all__ = ["COMPLIANCE", "CovenantLevel", "levels_stated", "names_a_covenant",
           "speaks_of_tests", "stated_result", "when_tested"]

_F = re.IGNORECASE

_V = vocabulary()
# How every language states a covenant's level (cue sets of the language files): the words
# before the number that make it a ceiling or a floor ("must not exceed", "no superior a",
# "höchstens"), the verbs after it where a language puts them last ("nicht überschreiten"), the
# ratios a covenant tests, the words of a covenant test and of meeting one.
_CEILING = _V.cues("covenant_ceiling")
_FLOOR = _V.cues("covenant_floor")
_CEILING_AFTER = _V.cues("covenant_ceiling_after")
_FLOOR_AFTER = _V.cues("covenant_floor_after")
_RATIO = _V.cues("covenant_ratios").pattern
_TEST_WORDS = _V.cues("covenant_tests").pattern
COMPLIANCE = _V.cues("covenant_compliance").pattern
_LEVEL = r"(?P<value>\d+(?:[.,]\d+)?)"
_LIMIT = re.compile(
    rf"(?P<dir>{(_CEILING | _FLOOR).pattern.pattern})\s*{_LEVEL}"
    r"\s?(?P<unit>x|times|%|:\s?1(?:\.0+)?)", _F)
# US credit agreements: "the Borrower shall not permit the Total Net Leverage Ratio, as of the
# last day of any fiscal quarter, to exceed 3.50:1.00" says "the ratio shall not exceed 3.50:1.00".
_PERMIT_CEILING = _V.cues("covenant_permit_ceiling")
_PERMIT_FLOOR = _V.cues("covenant_permit_floor")
_PERMIT = re.compile(rf"^.*?{_V.cues('covenant_permit').slot}\s+(?P<name>[^,;]+?)\s*"
                     rf"(?:,[^,;]*,)?\s*(?P<verb>{(_PERMIT_CEILING | _PERMIT_FLOOR).slot})", _F)
# "3.50:1.00 for fiscal quarters ending on or before December 31, 2024, and 3.00:1.00 for each
# fiscal quarter ending thereafter": a level that steps down; the one now in force is the last.
_STEP = re.compile(rf"(?P<value>\d+(?:[.,]\d+)?)\s?(?::\s?1(?:\.0+)?|x|times)\s+"
                   rf"{_V.cues('covenant_step_for').slot}\s+(?:{_V.cues('covenant_step_each').slot})?"
                   rf"\s*[^.;]{{0,60}}?{_V.cues('covenant_step_later').slot}", _F)
# A language that puts the verb last: "darf … 2,75 : 1,00 nicht überschreiten" (a maximum),
# "… 1,5 : 1 nicht unterschreiten" (a minimum); a level that steps down names the later one last.
_LIMIT_AFTER = re.compile(
    rf"{_LEVEL}\s?(?P<unit>x|%|:\s?1(?:[.,]0+)?)\s+"
    rf"(?P<dir>{(_CEILING_AFTER | _FLOOR_AFTER).pattern.pattern})", _F)
_TESTED = re.compile(rf"{_V.cues('covenant_tested').slot}\s+(?:"
                     rf"{_V.cues('covenant_test_frequency').slot}|"
                     rf"{_V.cues('covenant_tested_on').slot}\s+[^,.;]{{3,60}})", _F)
_RESULT = re.compile(r"(?P<value>\d+(?:[.,]\d+)?)\s?(?:x\b|:\s?1(?:\.0+)?(?![\d.]))", _F)
_LEAD_IN = re.compile(rf"^.*?{_V.cues('covenant_name_lead').slot}:?\s*"
                      rf"(?:{_V.cues('covenant_name_article').slot}\s+){{0,2}}", _F)
# lower-case only: "The Borrower" stays a name's first word
_NAME_ARTICLES = re.compile(rf"^\W*(?:{_V.cues('covenant_name_article').slot}\s+)*")
_NAME_TAIL = re.compile(rf"\s+{_V.cues('covenant_name_tail').slot}$")
_COVENANT = _V.words("covenant_word")  # inside any word: "Covenant_Certificate.md"


@dataclass(frozen=True)
class CovenantLevel:
    """One covenant as a sentence states its limit."""

    key: str  # the ratio it tests, one per covenant of a room: "leverage", "interest cover"
    name: str  # as the document names it: "Total net leverage ratio"
    minimum: bool  # a floor (interest cover of at least 4.0x), else a ceiling
    level: float  # the limit in force
    stated: str  # the words that state it: "not more than 2.50x"


def _is_floor(words: str) -> bool:
    """The words that state a level make it a floor ("at least", "no inferior a")."""
    return _FLOOR.fullmatch(words) or _FLOOR_AFTER.fullmatch(words)


def names_a_covenant(sentence: str) -> bool:
    """The sentence names a covenant ratio or a covenant."""
    lower = sentence.lower()
    return bool(_RATIO.search(sentence)) or any(w in lower for w in _COVENANT)


def speaks_of_tests(sentence: str) -> bool:
    """The sentence is about a covenant test (what a compliance statement must be about)."""
    return _TEST_WORDS.search(sentence) is not None


def when_tested(sentence: str) -> str | None:
    """When the covenants are tested, as the sentence says it ("tested quarterly")."""
    m = _TESTED.search(sentence)
    return m.group(0) if m else None


def levels_stated(sentence: str) -> list[CovenantLevel]:
    """Each covenant the sentence states with its limit, in the order it states them."""
    if not names_a_covenant(sentence):
        return []
    if (after := _limit_stated_after(sentence)) is not None:
        name, level, minimum, stated = after
        ratio = _RATIO.search(name)
        key = (ratio.group(0).lower() if ratio else name.lower()).replace("net debt", "leverage")
        return [CovenantLevel(key, _capitalised(name), minimum, level, stated)]
    found: list[CovenantLevel] = []
    for clause in re.split(r";|\.\s", sentence):
        clause = _as_limit(clause)
        start = 0
        for m in _LIMIT.finditer(clause):
            before, start = clause[start:m.start()], m.end()
            name = _covenant_name(before)
            ratio = _RATIO.search(name)
            if ratio is None:
                continue
            key = ratio.group(0).lower().replace("gearing", "leverage").replace("net debt",
                                                                                "leverage")
            level, stated = _number(m.group("value")), m.group(0)
            if (step := _STEP.search(clause, m.end())) is not None:
                level = _number(step.group("value"))
                stated = f"{step.group(0)} (earlier {m.group('value')})"
            found.append(CovenantLevel(key, _capitalised(name), _is_floor(m.group("dir")), level,
                                       stated))
    return found


def stated_result(sentence: str, covenant: CovenantLevel) -> float | None:
    """A test result the sentence states for the covenant's ratio ("leverage … was 1.18x at 31
    March 2024"; a compliance certificate's row "Leverage | not more than 3.00:1.00 |
    2.91:1.00"), never its limit."""
    word = _RATIO.search(covenant.name)
    if word is None or word.group(0).lower() not in sentence.lower():
        return None
    if _limit_stated_after(sentence) is not None:
        return None  # "… 3,00 : 1,00 und … 2,75 : 1,00 nicht überschreiten": levels only
    sentence = _as_limit(sentence)
    limits = {m.start("value") for m in (*_LIMIT.finditer(sentence), *_STEP.finditer(sentence))}
    for m in _RESULT.finditer(sentence):
        value = _number(m.group("value"))
        if m.start("value") in limits or abs(value - covenant.level) < 1e-9:
            continue
        return value
    return None


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _capitalised(name: str) -> str:
    return name[:1].upper() + name[1:]


def _as_limit(clause: str) -> str:
    """"The Borrower shall not permit the ratio … to exceed 3.50:1.00" → "the ratio shall not
    exceed 3.50:1.00"."""
    return _PERMIT.sub(lambda p: f"{p['name']} " + _V.phrases(
        "covenant_restated_floor" if _PERMIT_FLOOR.fullmatch(p["verb"])
        else "covenant_restated_ceiling")[0], clause)


def _limit_stated_after(sentence: str) -> tuple[str, float, bool, str] | None:
    """"(1) Nettoverschuldungsgrad: Das Verhältnis … darf zu Stichtagen bis 31. Dezember 2024
    3,00 : 1,00 und zu jedem späteren Stichtag 2,75 : 1,00 nicht überschreiten": the covenant
    (named before the colon, else by its ratio word), the level in force (stated last before the
    verb), whether it is a minimum, and the words that state it."""
    m = _LIMIT_AFTER.search(sentence)
    if m is None:
        return None
    head = re.match(r"^\s*(?:\(?\d+\)\s*)?(?P<name>[^:]{3,60}):", sentence)
    name = head.group("name").strip() if head and _RATIO.search(head.group("name")) else None
    ratio = _RATIO.search(sentence[:m.start()])
    if name is None and ratio is None:
        return None
    earlier = list(re.finditer(r"\d+(?:[.,]\d+)?\s?:\s?1(?:[.,]0+)?", sentence[:m.start()]))
    stated = m.group(0)
    if earlier:
        stated = f"{stated} (earlier {earlier[-1].group(0)})"
    return (name or ratio.group(0), _number(m.group("value")),  # type: ignore[union-attr]
            _is_floor(m.group("dir")), stated)


def _covenant_name(before: str) -> str:
    """"The credit agreement requires a total net leverage ratio of" → "total net leverage
    ratio"; "Financial covenants, tested quarterly: leverage (net debt to EBITDA)" → "leverage
    (net debt to EBITDA)"."""
    name = before.split(":")[-1].split(",")[-1]
    while (cut := _LEAD_IN.sub("", name, count=1)) != name and _RATIO.search(cut):
        name = cut
    name = _NAME_ARTICLES.sub("", name)
    return _NAME_TAIL.sub("", name.strip()).strip(" -–")
