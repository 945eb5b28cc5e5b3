"""The offline composer: one module per answer shape, chosen by the question's intent."""

from __future__ import annotations

from manda.agent.compose import (
    comparison,
    deep_dive,
    due_diligence,
    exploration,
    fact_lookup,
    gap_identification,
    synthesis,
    timeline,
)
from manda.agent.compose.common import Ask, Draft
from manda.agent.evidence import Evidence
from manda.answers import Intent

__all__ = ["Ask", "Draft", "compose"]


def compose(ask: Ask, evidence: Evidence) -> Draft:
    """The answer in the shape the intent calls for, from extracted values and passages only."""
    if evidence.timeline is not None and timeline.asks_timeline(ask.question):
        dated = timeline.compose(ask, evidence)
        if dated is not None:
            return dated
    match ask.intent:
        case Intent.DEEP_DIVE:
            return deep_dive.compose(ask, evidence)
        case Intent.DUE_DILIGENCE:
            return due_diligence.compose(ask, evidence)
        case Intent.COMPARISON:
            return comparison.compose(ask, evidence)
        case Intent.SYNTHESIS:
            return synthesis.compose(ask, evidence)
        case Intent.GAP_IDENTIFICATION:
            return gap_identification.compose(ask, evidence)
        case Intent.EXPLORATION:
            return exploration.compose(ask, evidence)
        case _:
            return fact_lookup.compose(ask, evidence)
