"""The offline path: a deterministic tool plan per intent, and answers composed from findings.

No model is involved: the plan runs the same tools Claude may call, and the composer writes the
answer from extracted values and the exact sentences of retrieved passages. It is also what the
agent falls back to when Claude is unavailable or cannot pass the validation gate.
"""

from __future__ import annotations

from manda.agent.compose import Ask, Draft, asks_adjustments, compose, topic_shape
from manda.agent.compose.digest import asks_digest
from manda.agent.compose.due_diligence import focus_words
from manda.agent.compose.fact_lookup import ASKS_YEAR_END, EARNINGS
from manda.agent.compose.people import role_key
from manda.agent.compose.timeline import asks_timeline
from manda.agent.compose.topics import asks_pay
from manda.agent.evidence import Evidence
from manda.agent.topics import MANAGEMENT, asked_role, roles_asked
from manda.agent.unusual import TOPICS
from manda.answers import Intent
from manda.finance.derived import LINE_ITEMS, asked_derived
from manda.llm.port import ToolCall
from manda.vocabulary import topic

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
        subjects = ", ".join(ask.frame.subjects) or ask.subject or ""
        calls: list[ToolCall]
        if asks_digest(ask.question):  # what a meeting covered: every item of its minutes
            roles = ",".join(r.value for r in roles_asked(ask.question)) or "board_minutes"
            return [_call(1, "query_knowledge_base", query=ask.question, roles=roles, k=12),
                    _call(2, "query_knowledge_base", roles=roles, k=12,
                          query="minutes of the meeting items discussed decided approved")
                    ][:max_calls]
        if asks_adjustments(ask.question):  # the QoE's bridge: both EBITDAs and the report
            return [
                _call(1, "query_knowledge_base", query=ask.question, roles="qoe_report",
                      subject="ebitda, adjusted ebitda, one-time charges", k=8),
                _call(2, "query_knowledge_base", roles="qoe_report", k=8,
                      query="adjusted EBITDA reported EBITDA adjustments normalisation bridge"),
                _call(3, "detect_contradictions", subject="ebitda"),
            ][:max_calls]
        shape = topic_shape(ask)
        if shape is not None:  # a topic question reads the documents of the roles that hold it
            roles = ",".join(r.value for r in shape.roles)
            calls = [
                _call(1, "query_knowledge_base", query=ask.question, roles=roles,
                      subject=", ".join(shape.subjects), k=8),
                _call(2, "query_knowledge_base", query=shape.query, roles=roles, k=8),
                _call(3, "detect_contradictions"),
            ]
            if asks_timeline(ask.question):  # "when does the loan mature?": the dated events too
                calls = [*calls[: max_calls - 1], _call(0, "get_timeline")]
            return calls[:max_calls]
        match ask.intent:
            case Intent.GAP_IDENTIFICATION:
                calls = [_call(1, "find_gaps")]
            case Intent.DUE_DILIGENCE if focus_words(ask.question):
                about = " ".join(focus_words(ask.question))
                calls = [_call(1, "query_knowledge_base", query=ask.question, k=10,
                               subject=subjects),
                         _call(2, "query_knowledge_base", query=about, k=8),
                         _call(3, "detect_contradictions", subject=ask.subject)]
                calls += [_call(4 + n, "query_knowledge_base", query=t.query, k=6)
                          for n, t in enumerate(x for x in TOPICS if x.terms.search(ask.question))]
            case Intent.DUE_DILIGENCE:
                calls = [_call(1, "detect_contradictions"), _call(2, "find_gaps"),
                         _call(3, "red_flags"), _call(9, "get_timeline", upcoming_only=True)]
            case Intent.SYNTHESIS:
                calls = [
                    _call(1, "query_knowledge_base", query=ask.question,
                          subject=subjects or PROFILE_SUBJECTS),
                    _call(2, "detect_contradictions"),
                    _call(3, "find_gaps"),
                    _call(4, "red_flags"),
                ]
            case Intent.EXPLORATION:
                calls = [
                    _call(1, "query_knowledge_base", query=ask.question,
                          subject="revenue, ebitda, headcount"),
                    _call(2, "detect_contradictions"),
                    _call(3, "red_flags"),
                ]
            case Intent.DEEP_DIVE:
                calls = [
                    _call(1, "query_knowledge_base", query=ask.question, subject=subjects,
                          k=10),
                    _call(2, "detect_contradictions", subject=ask.subject),
                ]
                if ask.subject in _EARNINGS:
                    calls.append(_call(3, "query_knowledge_base",
                                       query=topic("one_time_items").query))
            case Intent.COMPARISON:
                calls = [
                    _call(1, "query_knowledge_base", query=ask.question,
                          subject=subjects or "revenue, ebitda"),
                    _call(2, "detect_contradictions", subject=ask.subject),
                ]
            case Intent.CLARIFICATION:
                calls = []
            case _:
                calls = self._lookup_plan(ask, subjects)
        if asks_timeline(ask.question) and ask.intent is not Intent.DUE_DILIGENCE:
            # the usual searches keep their budget; the dated events come after them
            calls = [*calls[: max_calls - 1], _call(0, "get_timeline")]
        return calls[:max_calls]

    def _lookup_plan(self, ask: Ask, subjects: str) -> list[ToolCall]:
        query = " ".join(filter(None, [ask.question, ask.period or ""]))
        if ask.subject in EARNINGS:  # a one-time charge changes how earnings read
            subjects = f"{subjects}, one-time charges, adjusted ebitda"
        roles = ",".join(r.value for r in roles_asked(ask.question))
        calls = [_call(1, "query_knowledge_base", query=query, subject=subjects, roles=roles)]
        if (metric := asked_derived(ask.question)) is not None:  # its statement lines too
            lines = [*metric.plus, *metric.minus, *([metric.over] if metric.over else [])]
            calls.append(_call(10, "query_knowledge_base", k=8, query=" ".join(
                [ask.period or "", *(LINE_ITEMS[i][0] for i in lines)]).strip()))
        role = asked_role(ask.question)
        people_roles = ",".join(r.value for r in MANAGEMENT.roles)
        if role is not None:
            calls.append(_call(2, "query_knowledge_base", query=f"{role} {role_key(role)}",
                               subject="person", roles=people_roles, k=6))
        elif ask.entity and asks_pay(ask.question):
            calls.append(_call(2, "query_knowledge_base", query=f"{ask.entity} salary pay",
                               roles=people_roles, k=6))
        elif ask.entity:
            calls.append(_call(2, "query_knowledge_base", query=ask.entity, k=6,
                               subject="person" if not ask.subject else ""))
        for n, item in enumerate(t for t in TOPICS if t.terms.search(ask.question)):
            calls.append(_call(3 + n, "query_knowledge_base", query=item.query, k=6))
        if ASKS_YEAR_END.search(ask.question):  # the sentences that state the year end
            calls.append(_call(8, "query_knowledge_base", k=6,
                               query="fiscal year ended year ending financial year to"))
        if ask.subject:
            calls.append(_call(9, "detect_contradictions", subject=ask.subject))
        return calls

    def compose(self, ask: Ask, evidence: Evidence) -> Draft:
        return compose(ask, evidence)
