"""A which-list answered across passages: the things each sentence names, collected and cited.

"Which businesses did it acquire in 2021?" is often answered by one sentence per thing ("we
completed the acquisition of Halden …", "we acquired Ostra Foods …"), each in its own note. When
the best span lists nothing itself, the things named right after the question's own verb (or a
word of it: "acquisition" for "acquire") in the top sentences of the period asked lead, each
with its place; a condition ("if we acquire …") names nothing done.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.agent.compose.common import Ask
from manda.agent.grounding import cite
from manda.agent.relevance import content_terms
from manda.agent.spans import Span, lists_things, question_verb
from manda.finance.periods import year_of
from manda.text import YEAR, letter_words
from manda.vocabulary import vocabulary

__all__ = ["named_things"]

_V = vocabulary()
_HEDGED = _V.cues("hedged_statement")
_MONTHS = _V.month_names()
_INSIDE = _V.words("list_joiners") | {"of", "&"}  # small words inside a name ("Bank of Leith")
_ENDS = ",;:.(“\""  # what ends the words after the verb that may name the thing
REACH, MARGIN, AFTER = 10, 0.4, 90  # sentences looked at, below the best, characters after


def named_things(ranked: Sequence[Span], ask: Ask) -> str | None:
    """The lead line naming what two or more top sentences name after the question's verb, each
    cited; None when the best span lists the things itself or fewer than two are named."""
    frame = ask.frame
    if frame.answer_kind != "list" or not ranked or ranked[0].row is not None or \
            lists_things(ranked[0].text):
        return None
    verb = question_verb(frame)
    if verb is None:
        return None
    years = {str(y) for p in frame.periods if (y := year_of(p)) is not None}
    own = {w.lower() for w in letter_words(ranked[0].source.document)}  # the company's name
    found: list[tuple[str, Span]] = []
    for span in ranked[:REACH]:
        if span.row is not None or span.score < ranked[0].score - MARGIN or \
                _HEDGED.search(span.text) or (years and not years & set(YEAR.findall(span.text))):
            continue
        name = _named_after(span.text, verb[:5], own)
        if name and all(name.lower() != n.lower() for n, _ in found):
            found.append((name, span))
    if len(found) < 2:
        return None
    items = "; ".join(f"{name} {cite([span.source])}" for name, span in found)
    return _V.answer("named_things", ask.language, items=items)


def _named_after(text: str, stem: str, own: set[str]) -> str | None:
    """The first name after the first word that starts with the verb's stem ("the acquisition
    of Halden Group, …"): capitalised words, not a month nor the company's own name."""
    lowered, at = text.lower(), -1
    while (at := lowered.find(stem, at + 1)) > 0 and text[at - 1].isalnum():
        continue
    if at < 0:
        return None
    while at < len(text) and text[at].isalnum():
        at += 1
    tail = text[at:at + AFTER]
    tail = tail[:min((i for c in _ENDS if (i := tail.find(c)) >= 0), default=len(tail))]
    name: list[str] = []
    for word in tail.split():
        if word[:1].isupper() or (name and word.lower() in _INSIDE):
            name.append(word)
        elif name:
            break
    while name and name[-1].lower() in _INSIDE:
        name.pop()
    words = [w.lower() for w in name]
    if not words or words[0] in _MONTHS or set(words) <= own | {"the"} or \
            not content_terms(" ".join(name)):
        return None
    return " ".join(name)
