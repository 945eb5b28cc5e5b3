"""What may stand on an answer's first line: a fact, never a heading, a bare table header or a
lead-in to the list below it, unless the question asks for the overview itself.

A composer's shape opens with its heading ("Insurance in the documents:", a table's header row,
"**Facilities**"); read here by its form, in any language. A question asks for the overview when
it names nothing beyond its topic and the aspects any topic has ("What do the documents say about
insurance?", "Summarise the debt", "What are the covenants?"); one that names more ("What premium
did it pay to reinsure its auto liabilities?") asks one thing, which leads.
"""

from __future__ import annotations

import re
from functools import lru_cache

from manda.agent.compose.common import Ask
from manda.agent.relevance import content_terms
from manda.agent.topics import Shape
from manda.answers import Intent
from manda.vocabulary import vocabulary

__all__ = ["asks_overview", "beyond_topic", "opens_with_heading", "own_words"]

# intents whose answer is the overview itself: a summary, the room, a deep dive, what is missing
_OVERVIEW_INTENTS = (Intent.SYNTHESIS, Intent.EXPLORATION, Intent.DEEP_DIVE,
                     Intent.GAP_IDENTIFICATION)
_PHRASE_WORD = re.compile(r"[^\W\d_][\w'’&-]*")


def opens_with_heading(text: str) -> bool:
    """The first line that says anything is a heading, not a fact: a table row ("| Metric |
    …"), a bold title alone ("**Facilities**"), or a lead-in that ends in a colon ("Insurance in
    the documents:", "Cash and debt, as the documents state it (…):")."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not first:
        return False
    bold_only = first.startswith("**") and first.rstrip(":").endswith("**") \
        and first.count("**") == 2
    return first.startswith("|") or bold_only or first.endswith(":")


@lru_cache(maxsize=64)
def own_words(shape: Shape) -> frozenset[str]:
    """Every word of a topic's cues, in every language: what a question about it may say
    without asking for anything more specific."""
    phrases = (*shape.asked.phrases, *shape.terms.phrases, *shape.stated.phrases,
               *shape.prefer.phrases)
    words = " ".join(p for p in phrases if not p.startswith("re:")).replace("|", " ")
    return frozenset(content_terms(" ".join(_PHRASE_WORD.findall(words.replace("*", "")))))


def beyond_topic(terms: tuple[str, ...] | list[str], shape: Shape | None,
                 entity: str | None) -> list[str]:
    """The question's words that ask for more than its topic: not the topic's own words, not
    the company named, not an aspect any topic has ("terms", "status", "matters")."""
    own = own_words(shape) if shape is not None else frozenset()
    named = set(content_terms(" ".join([entity or "", *vocabulary().words("aspects")])))
    return [t for t in terms
            if t not in named and t not in own
            and not any(t[:5] == w[:5] for w in own if len(w) >= 4)]


def asks_overview(ask: Ask) -> bool:
    """The question asks for its topic's overview, or a summary, not one thing in it; the words
    that ask for risks ("any red flags in the contracts?", "liabilities") ask for no one thing."""
    if ask.intent in _OVERVIEW_INTENTS or ask.frame.intent in _OVERVIEW_INTENTS:
        return True
    # a risk question's words beyond risk in general (its focus), else all the question's words
    asked = ask.frame.focus_ranking if ask.frame.focus else ask.frame.ranking
    terms = [t.rstrip("'’") for t in asked.terms if t not in asked.when]
    return not beyond_topic(terms, ask.frame.topic, ask.entity)
