"""The offline composer: one module per answer shape, chosen by the question's intent.

A topic question (ownership, management team, P&L, balance sheet and debt, covenants, customer
concentration, key people, litigation, contracts, business overview) is
answered in its topic shape first, whatever words carried the intent; the intent's own shape
answers everything else.
"""

from __future__ import annotations

from manda.agent.compose import (
    bridge,
    comparison,
    deep_dive,
    digest,
    due_diligence,
    exploration,
    fact_lookup,
    gap_identification,
    schedules,
    synthesis,
    timeline,
    topics,
)
from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.corroborate import corroborated
from manda.agent.compose.discrepant import with_other_figure
from manda.agent.compose.leads import led_by_best_span
from manda.agent.evidence import Evidence
from manda.agent.frame import company_like
from manda.agent.topics import COVENANTS, LITIGATION, MANAGEMENT, OVERVIEW, Shape
from manda.answers import Intent

__all__ = ["Ask", "Draft", "compose", "topic_shape"]

_SHAPED = (Intent.FACT_LOOKUP, Intent.DEEP_DIVE, Intent.SYNTHESIS, Intent.EXPLORATION)
# A risk question about one of these ("any covenant issues?", "litigation risks?") is answered
# by the topic's shape, which states the levels, headroom and status a risk reading needs.
_RISK_SHAPES = (COVENANTS.key, LITIGATION.key)


def topic_shape(ask: Ask) -> Shape | None:
    """The topic shape that answers `ask`, if the question is a topic question."""
    shape = ask.frame.topic
    if shape is None:
        return None
    if ask.intent not in _SHAPED and not (ask.intent is Intent.DUE_DILIGENCE
                                          and shape.key in _RISK_SHAPES) and not (
            # "leverage against the covenant": a ratio compared with its level, which the
            # covenant shape states with the headroom, not two periods of one figure
            ask.intent is Intent.COMPARISON and shape.key == COVENANTS.key
            and len(ask.frame.periods) < 2):
        return None
    if ask.frame.subjects and not shape.of_metrics:
        return None  # "management's EBITDA estimate" is an EBITDA question
    if ask.frame.derived is not None and not shape.of_metrics and ask.frame.answer_kind not in (
            "reason", "means"):
        return None  # "what was its effective tax rate?": a metric of two lines, not the topic
    if ask.frame.effect and ask.frame.answer_kind == "figure":
        return None  # "how much cash tax did it pay because …": the sentence with its cause
    if ask.frame.answer_kind == "method":
        return None  # "when does it record a liability for a lawsuit?": the policy's sentence
    if ask.intent is Intent.EXPLORATION and shape is not OVERVIEW:
        return None  # "overview of the data room" is about the room
    if shape is MANAGEMENT and ask.entity and not company_like(ask.entity):
        return None  # a named person's question goes to the person ("who runs Kessler GmbH?"
        # names the company whose team it asks for)
    return shape


def compose(ask: Ask, evidence: Evidence) -> Draft:
    """The answer in the shape the intent calls for, from extracted values and passages only,
    its lead figure cited also where its document states it on other pages
    (`compose.corroborate`), and the figure another place states for the same measure, where
    one states a different one (`compose.discrepant`)."""
    return with_other_figure(corroborated(_composed(ask, evidence), ask, evidence), ask,
                             evidence)


def _composed(ask: Ask, evidence: Evidence) -> Draft:
    if evidence.timeline is not None and ask.frame.timeline:
        dated = timeline.compose(ask, evidence)
        if dated is not None:
            return led_by_best_span(dated, ask, evidence)
    if ask.frame.schedule and (due := schedules.answer(ask, evidence)) is not None:
        return due  # "how much of the debt is due in 2027?": the schedule by year states it
    listed = digest.answer(ask, evidence)  # "what did the board discuss in September?"
    if listed is not None:
        return listed
    if ask.frame.adjustments:  # the QoE's bridge from reported to adjusted
        draft = topics.reported_vs_adjusted(ask, evidence)
        if draft is not None:
            return draft
    if ask.frame.bridge and (moved := bridge.answer(ask, evidence)) is not None:
        return moved  # "walk me through the ARR bridge": the table that moves it, as stated
    shape = topic_shape(ask)
    if shape is not None:
        draft = topics.compose(ask, evidence, shape)
        if draft is not None:
            return led_by_best_span(draft, ask, evidence)
    match ask.intent:
        case Intent.DEEP_DIVE:
            return deep_dive.compose(ask, evidence)
        case Intent.DUE_DILIGENCE:
            return led_by_best_span(due_diligence.compose(ask, evidence), ask, evidence)
        case Intent.COMPARISON:
            return comparison.compose(ask, evidence)
        case Intent.SYNTHESIS:
            return synthesis.compose(ask, evidence)
        case Intent.GAP_IDENTIFICATION:
            return gap_identification.compose(ask, evidence)
        case Intent.EXPLORATION:
            return exploration.compose(ask, evidence)
        case _:  # whatever shape it took, a heading never stands first for one thing asked
            return led_by_best_span(fact_lookup.compose(ask, evidence), ask, evidence,
                                    listing=False)
