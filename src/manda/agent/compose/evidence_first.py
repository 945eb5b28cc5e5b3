"""Evidence-first answers: when no shape applies, lead with the passages that best answer it.

The sentences and table rows most relevant to the question are quoted with their sources (one to
three lines); "not found" is said only when retrieval confidence is below the calibrated
threshold, with what was searched and the offer to add the question to the Q&A list.
"""

from __future__ import annotations

from manda.agent.compose.common import Ask, Draft, no_data, with_assumption
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import NOT_FOUND_BELOW, best, confidence, rank

NOT_FOUND_WHY = "no passage retrieved speaks to it closely enough to answer."


def answer(ask: Ask, evidence: Evidence, *, category: str = "General",
           why: str = NOT_FOUND_WHY, must: str | None = None) -> Draft:
    """The best one to three passages, quoted and cited; "not found" below the threshold."""
    ranked = rank(evidence, ask.question)
    if must:  # a named entity: sentences of passages that name it (the next sentence may not)
        words = [w.lower() for w in must.split() if len(w) > 2]
        ranked = [p for p in ranked
                  if any(w in p.text.lower() or w in p.source.excerpt.lower() for w in words)]
    if confidence(ranked) < NOT_FOUND_BELOW:
        return no_data(ask, evidence, why=why, category=category)
    lead = best(ranked)
    first = lead[0]
    lines = [f"{first.source.document} states: “{first.text}” {cite([first.source])}"]
    lines += [f"- {p.source.document}: “{p.text}” {cite([p.source])}" for p in lead[1:]]
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)))
