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
from manda.agent.spans import Span, lists_things, named_after, question_verb
from manda.text import YEAR, letter_words
from manda.vocabulary import vocabulary

__all__ = ["named_things"]

_V = vocabulary()
_HEDGED = _V.cues("hedged_statement")
_DETERMINERS = _V.words("determiners")  # "The" of "The Drizly Group"
REACH, MARGIN = 10, 0.4  # sentences looked at, below the best


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
    years = {str(y) for y in frame.period_years}
    month = frame.month  # "in October 2021": a sentence of that month
    own = {w.lower() for w in letter_words(ranked[0].source.document)}  # the company's name
    found: list[tuple[str, Span]] = []
    for span in ranked[:REACH]:
        if span.row is not None or span.score < ranked[0].score - MARGIN or \
                _HEDGED.search(span.text) or (years and not years & set(YEAR.findall(span.text))) \
                or (month and month not in {_V.month(w) for w in letter_words(span.text)}):
            continue
        name = named_after(span.text, verb, own)
        if name and not any(_same_name(name, n) for n, _ in found):
            found.append((name, span))
    if len(found) < 2:
        return None
    items = "; ".join(f"{name} {cite([span.source])}" for name, span in found)
    return _V.answer("named_things", ask.language, items=items)


def _same_name(one: str, other: str) -> bool:
    """Two names of one thing: the same words, or one's words among the other's ("Drizly" and
    "The Drizly Group")."""
    a, b = ({w.lower() for w in letter_words(n)} - _DETERMINERS for n in (one, other))
    return bool(a and b) and (a <= b or b <= a)
