"""The offline path: a deterministic tool plan per intent, and answers composed from findings.

No model is involved: the plan runs the same tools Claude may call, and the composer writes the
answer from extracted values and the exact sentences of retrieved passages. It is also what the
agent falls back to when Claude is unavailable or cannot pass the validation gate.
"""

from __future__ import annotations

from manda.agent.compose import Ask, Draft, compose, topic_shape
from manda.agent.compose.fact_lookup import EARNINGS
from manda.agent.compose.people import role_key
from manda.agent.evidence import Evidence
from manda.agent.frame import compared_thing
from manda.agent.topics import MANAGEMENT
from manda.answers import Intent
from manda.finance.derived import LINE_ITEMS
from manda.finance.periods import period_kind
from manda.finance.vocabulary import metric_spec
from manda.llm.port import ToolCall
from manda.vocabulary import topic, vocabulary

PROFILE_SUBJECTS = ("revenue, ebitda, gross margin, net income, arr, net revenue retention, cash, "
                    "debt, headcount, customer concentration")
_EARNINGS = {"ebitda", "adjusted ebitda", "ebit", "net income"}


def _call(n: int, name: str, **arguments: object) -> ToolCall:
    return ToolCall(id=f"plan_{n}", name=name,
                    arguments={k: v for k, v in arguments.items() if v not in (None, "")})


class OfflineComposer:
    """Plans tool calls for an intent and composes the answer; deterministic and model-free."""

    name = "offline"

    def plan(self, ask: Ask, *, max_calls: int) -> list[ToolCall]:
        frame = ask.frame
        subjects = ", ".join(frame.subjects) or ask.subject or ""
        calls: list[ToolCall]
        if frame.digest:  # what a meeting covered: every item of its minutes
            roles = ",".join(r.value for r in frame.roles) or "board_minutes"
            return [_call(1, "query_knowledge_base", query=frame.text, roles=roles, k=12),
                    _call(2, "query_knowledge_base", roles=roles, k=12,
                          query="minutes of the meeting items discussed decided approved")
                    ][:max_calls]
        if frame.adjustments:  # the QoE's bridge: both EBITDAs and the report
            return [
                _call(1, "query_knowledge_base", query=frame.text, roles="qoe_report",
                      subject="ebitda, adjusted ebitda, one-time charges", k=8),
                _call(2, "query_knowledge_base", roles="qoe_report", k=8,
                      query="adjusted EBITDA reported EBITDA adjustments normalisation bridge"),
                _call(3, "detect_contradictions", subject="ebitda"),
            ][:max_calls]
        shape = topic_shape(ask)
        if shape is not None:  # a topic question reads the documents of the roles that hold it
            roles = ",".join(r.value for r in shape.roles)
            calls = [
                _call(1, "query_knowledge_base", query=frame.text, roles=roles,
                      subject=", ".join(shape.subjects), k=8),
                _call(2, "query_knowledge_base", query=shape.query, roles=roles, k=8),
                _call(3, "detect_contradictions"),
            ]
            if frame.timeline:  # "when does the loan mature?": the dated events too
                calls = [*calls[: max_calls - 1], _call(0, "get_timeline")]
            return calls[:max_calls]
        match ask.intent:
            case Intent.GAP_IDENTIFICATION:
                calls = [_call(1, "find_gaps")]
            case Intent.DUE_DILIGENCE if frame.focus:
                calls = [_call(1, "query_knowledge_base", query=frame.text, k=10,
                               subject=subjects),
                         _call(2, "query_knowledge_base", query=" ".join(frame.focus), k=8),
                         _call(3, "detect_contradictions", subject=ask.subject)]
                calls += [_call(4 + n, "query_knowledge_base", query=t.query, k=6)
                          for n, t in enumerate(frame.flag_topics)]
            case Intent.DUE_DILIGENCE:
                calls = [_call(1, "detect_contradictions"), _call(2, "find_gaps"),
                         _call(3, "red_flags"), _call(9, "get_timeline", upcoming_only=True)]
            case Intent.SYNTHESIS:
                calls = [
                    _call(1, "query_knowledge_base", query=frame.text,
                          subject=subjects or PROFILE_SUBJECTS),
                    _call(2, "detect_contradictions"),
                    _call(3, "find_gaps"),
                    _call(4, "red_flags"),
                ]
            case Intent.EXPLORATION:
                calls = [
                    _call(1, "query_knowledge_base", query=frame.text,
                          subject="revenue, ebitda, headcount"),
                    _call(2, "detect_contradictions"),
                    _call(3, "red_flags"),
                ]
            case Intent.DEEP_DIVE:
                calls = [
                    _call(1, "query_knowledge_base", query=frame.text, subject=subjects,
                          k=10),
                    _call(2, "detect_contradictions", subject=ask.subject),
                ]
                if ask.subject in _EARNINGS:
                    calls.append(_call(3, "query_knowledge_base",
                                       query=topic("one_time_items").query))
            case Intent.COMPARISON if any(metric_spec(s) is None for s in frame.subjects) or (
                    not frame.subjects and any(period_kind(p) == "as" for p in frame.periods)):
                # a statement line compared ("total assets against a year earlier"), or a
                # balance no line item names at a date ("deferred compensation at January 31,
                # 2026, compared with a year earlier"): no finding holds it, its statement's
                # row does, searched for as a lookup searches
                calls = self._lookup_plan(ask, subjects)
                if frame.search.line_items and len(frame.periods) < 2:
                    # one year end named, the other said as "a year earlier": the question's
                    # words of comparing would bury the statement's row, so it is searched for
                    # by its own name too (two years named place both in the search already)
                    calls.insert(1, _call(10, "query_knowledge_base", k=8, query=" ".join(
                        [*frame.search.line_items[:2], ask.period or ""]).strip()))
                elif len(frame.periods) < 2 and (thing := compared_thing(frame)):
                    # the same for a line no line item of the vocabulary names ("accrued
                    # expenses and other"): by the question's own words of it
                    calls.insert(1, _call(10, "query_knowledge_base", k=8,
                                          query=" ".join([thing, ask.period or ""]).strip()))
            case Intent.COMPARISON:
                calls = [
                    _call(1, "query_knowledge_base", query=frame.text,
                          subject=subjects or "revenue, ebitda"),
                    _call(2, "detect_contradictions", subject=ask.subject),
                ]
            case Intent.CLARIFICATION:
                calls = []
            case _:
                calls = self._lookup_plan(ask, subjects)
        if frame.timeline and ask.intent is not Intent.DUE_DILIGENCE:
            # the usual searches keep their budget; the dated events come after them
            calls = [*calls[: max_calls - 1], _call(0, "get_timeline")]
        return calls[:max_calls]

    def _lookup_plan(self, ask: Ask, subjects: str) -> list[ToolCall]:
        frame = ask.frame
        query = " ".join(filter(None, [frame.text, ask.period or ""]))
        if ask.subject in EARNINGS:  # a one-time charge changes how earnings read
            subjects = f"{subjects}, one-time charges, adjusted ebitda"
        roles = ",".join(r.value for r in frame.roles)
        calls = [_call(1, "query_knowledge_base", query=query, subject=subjects, roles=roles)]
        if (metric := frame.derived) is not None:  # its statement lines too
            lines = [*metric.plus, *metric.minus, *([metric.over] if metric.over else [])]
            calls.append(_call(10, "query_knowledge_base", k=8, query=" ".join(
                [ask.period or "", *(LINE_ITEMS.get(i, (i,))[0] for i in lines)]).strip()))
        if frame.segments and (frame.answer_kind == "ranking" or frame.growth or frame.change
                               or frame.derived is not None or frame.share_of):
            # "which segment grew fastest": every segment's figures, where the question's own
            # search brings one segment's block only (the segment note, the MD&A's table)
            words = vocabulary()
            line = next((said for _, said in frame.named_as), "") or words.line_name(
                "revenue", frame.language)
            calls.append(_call(11, "query_knowledge_base", k=8, query=words.answer(
                "segment_search", frame.language, line=line, period=ask.period or "").strip()))
        role = frame.asked_role
        people_roles = ",".join(r.value for r in MANAGEMENT.roles)
        if role is not None:  # where people are named, and where the question's words say
            # the role's holder is ("who audits …?": the audited statements)
            calls.append(_call(2, "query_knowledge_base", query=f"{role} {role_key(role)}",
                               subject="person", roles=roles or people_roles, k=6))
        elif ask.entity and frame.pay:
            calls.append(_call(2, "query_knowledge_base", query=f"{ask.entity} salary pay",
                               roles=people_roles, k=6))
        elif ask.entity:
            calls.append(_call(2, "query_knowledge_base", query=ask.entity, k=6,
                               subject="person" if not ask.subject else ""))
        for n, item in enumerate(frame.flag_topics):
            calls.append(_call(3 + n, "query_knowledge_base", query=item.query, k=6))
        if frame.year_end:  # the sentences that state the year end
            calls.append(_call(8, "query_knowledge_base", k=6,
                               query="fiscal year ended year ending financial year to"))
        if ask.subject:
            calls.append(_call(9, "detect_contradictions", subject=ask.subject))
        return calls

    def compose(self, ask: Ask, evidence: Evidence) -> Draft:
        return compose(ask, evidence)
