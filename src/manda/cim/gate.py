"""The grounding gate for a slide a model drafted: the answer gate's number check, line by line.

Each bullet, figure row and speaker note names the evidence it rests on. A line is checked the way
an answer is (`agent.validate.check_numbers` over the line with its sources as a citation marker):
every number must be in an excerpt it cites, or a change, difference or margin between cited
numbers. A slide has no arithmetic of its own, so small counts ("14 countries") must be in the
sources too, and a figure that was later corrected never stands on a slide even when an old
passage still states it. Problems are written as instructions: they go back to the model once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.selection import show
from manda.agent.validate import check_numbers, is_claim, without_file_names
from manda.cim.drafting import cite_source, grounded_line
from manda.finance.amounts import find_amounts, same_amount
from manda.models import Finding, FindingStatus

__all__ = ["Line", "LineKind", "line_problems", "superseded_values"]

LineKind = Literal["title", "bullet", "figure", "note"]


@dataclass
class Line:
    """One line of a drafted slide with the evidence it names."""

    kind: LineKind
    number: int  # 1-based within its kind
    text: str
    sources: list[Source] = field(default_factory=list)
    unknown_ids: list[str] = field(default_factory=list)  # ids the evidence does not hold
    label: str = ""  # a figure row's metric

    @property
    def name(self) -> str:
        short = self.text if len(self.text) <= 90 else self.text[:87] + "…"
        return f"{self.kind} {self.number} (“{short}”)" if self.kind != "title" else "the title"


def superseded_values(evidence: Evidence) -> list[tuple[Finding, Finding]]:
    """(old, newest) for every figure a later document corrected to a different value."""
    out: list[tuple[Finding, Finding]] = []
    for finding in evidence.findings.values():
        if finding.value is None:
            continue
        newest = evidence.latest(finding)
        if newest.id != finding.id and newest.value is not None and not same_amount(
                newest.value, finding.value):
            out.append((finding, newest))
        elif finding.status is FindingStatus.SUPERSEDED and newest.id == finding.id:
            out.append((finding, finding))
    return out


def _live_values(evidence: Evidence) -> list[float]:
    return [f.value for f in evidence.usable_findings()
            if f.value is not None and f.status is not FindingStatus.SUPERSEDED
            and evidence.successor(f.id) is None]


def line_problems(line: Line, evidence: Evidence,
                  corrected: Sequence[tuple[Finding, Finding]] = ()) -> list[str]:
    """What is wrong with `line`, as instructions to its writer; empty when it may stand."""
    problems: list[str] = []
    if line.unknown_ids:
        problems.append(f"It cites {', '.join(line.unknown_ids)}, which the evidence does not "
                        "hold: cite only the ids given.")
    if line.kind in ("bullet", "figure") and not line.sources:
        problems.append("It cites no evidence: every bullet and figure row must name the "
                        "evidence ids it rests on.")
    body = without_file_names(line.text, evidence)
    stated = find_amounts(body)
    if not stated:
        return problems
    if line.kind == "title":
        if any(is_claim(a) for a in stated):
            problems.append("A title cannot cite evidence: keep numbers in the bullets.")
        return problems
    if line.sources:
        answer_gate = check_numbers(f"{body} {cite(line.sources)}", evidence)
        problems += answer_gate
        citations = [cite_source(s, evidence, focus=line.text) for s in line.sources]
        if not answer_gate and not grounded_line(body, citations):
            problems.append("A number in it is not written in the evidence it cites: a slide "
                            "states figures as the sources write them (or a % change between "
                            "two cited figures), never a computed total, margin or count.")
    elif any(is_claim(a) for a in stated):
        problems.append("It states numbers but cites no evidence.")
    if line.kind == "note":  # notes are where a correction is told, old figure and all
        return list(dict.fromkeys(problems))
    live = _live_values(evidence)
    for amount in stated:
        for old, newest in corrected:
            if (old.value is not None and same_amount(amount.value, old.value)
                    and not any(same_amount(amount.value, v) for v in live)):
                where = evidence.filename(newest.document_id)
                problems.append(
                    f"{amount.text} ({old.label} {old.period or ''}) was corrected"
                    + (f" to {show(newest)} in {where}" if newest.id != old.id else "")
                    + ": use the corrected figure, never the earlier one.")
                break
    return list(dict.fromkeys(problems))
