"""Named checks an eval case lists for each answer, each scored pass/fail with a reason.

A case says *what* must hold (`intent`, `contains`, `cites`, `offers_qa`, …), never how the answer
is worded beyond that, so the same dataset scores the offline composer and Claude.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from manda.answers import Answer, Intent, caution

_CONFIDENCE = re.compile(
    r"\bconfiden(?:ce|t)\b|\bcertainty\b|\bprobability\b|\b(?:HIGH|MEDIUM|LOW)\b(?=[\s)]*$)"
    r"|\bscore[sd]?\b\s*[:=]?\s*0?\.\d|\(\s*0\.\d+\s*\)",
    re.IGNORECASE | re.MULTILINE,
)
_QA_OFFER = re.compile(r"\bQ&A\b", re.IGNORECASE)
_TABLE = re.compile(r"^\|.+\|\s*$\n^\|(?:\s*:?-+:?\s*\|)+\s*$", re.MULTILINE)
_HEADING = re.compile(r"^(?:#{1,4} .+|\*\*[^*\n]+\*\*)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    detail: str = ""


def _texts(value: Any) -> tuple[str, list[str]]:
    """`contains` accepts a string, a list (all of), or {any: [...]} / {all: [...]}."""
    if isinstance(value, str):
        return "all", [value]
    if isinstance(value, list):
        return "all", [str(v) for v in value]
    if isinstance(value, dict) and len(value) == 1:
        mode, items = next(iter(value.items()))
        if mode in {"any", "all"}:
            return mode, [str(v) for v in (items if isinstance(items, list) else [items])]
    raise ValueError(f"contains/not_contains takes a string, a list or {{any|all: [...]}}, "
                     f"not {value!r}")


def check_intent(answer: Answer, expected: Any) -> CheckResult:
    wanted = Intent(str(expected))
    return CheckResult("intent", answer.intent is wanted,
                       f"expected {wanted.value}, got {answer.intent.value}")


def read_as_shown(answer: Answer) -> str:
    """What a reader sees: the answer's text and, under it, its cautions."""
    return "\n".join([answer.answer, *(c.text for c in answer.cautions)])


def check_contains(answer: Answer, expected: Any) -> CheckResult:
    mode, items = _texts(expected)
    text = read_as_shown(answer).lower()
    found = [i for i in items if i.lower() in text]
    passed = bool(found) if mode == "any" else len(found) == len(items)
    missing = [i for i in items if i not in found]
    return CheckResult("contains", passed, "" if passed else f"missing {missing} ({mode})")


def check_mentions(answer: Answer, expected: Any) -> CheckResult:
    """Every item must appear; an item given as a list is met by any one of its wordings."""
    if not isinstance(expected, list) or not expected:
        raise ValueError(f"mentions takes a list of strings or lists of wordings, not {expected!r}")
    text = read_as_shown(answer).lower()
    groups = [[str(v) for v in item] if isinstance(item, list) else [str(item)]
              for item in expected]
    missing = [g for g in groups if not any(w.lower() in text for w in g)]
    return CheckResult("mentions", not missing,
                       f"none of the wordings of {missing}" if missing else "")


def check_not_contains(answer: Answer, expected: Any) -> CheckResult:
    _, items = _texts(expected)
    text = read_as_shown(answer).lower()
    present = [i for i in items if i.lower() in text]
    return CheckResult("not_contains", not present, f"present: {present}" if present else "")


def check_cites(answer: Answer, expected: Any) -> CheckResult:
    wanted = expected if isinstance(expected, list) else [expected]
    missing = []
    for item in wanted:
        spec = {"file": item} if isinstance(item, str) else dict(item)
        file, location = str(spec["file"]).lower(), spec.get("location")
        if not any(file in c.document.lower()
                   and (location is None or str(location).lower() == c.location.lower())
                   for c in answer.citations):
            missing.append(spec)
    cited = [f"{c.document} {c.location}" for c in answer.citations]
    return CheckResult("cites", not missing,
                       f"not cited: {missing}; cited: {cited}" if missing else "")


def check_offers_qa(answer: Answer, expected: Any) -> CheckResult:
    offered = bool(_QA_OFFER.search(answer.answer))
    proposed = [a for a in answer.suggested_actions
                if a.type == "add_to_qa" and a.question and a.category]
    passed = (offered and bool(proposed)) == bool(expected)
    return CheckResult("offers_qa", passed,
                       f"offer in text: {offered}; add_to_qa actions: {len(proposed)}")


def check_no_confidence(answer: Answer, expected: Any) -> CheckResult:
    hit = _CONFIDENCE.search(answer.answer)
    passed = (hit is None) == bool(expected)
    return CheckResult("no_confidence_scores", passed, f"found {hit.group(0)!r}" if hit else "")


def check_structured(answer: Answer, expected: Any) -> CheckResult:
    kinds = expected if isinstance(expected, list) else [expected]
    failures = []
    for kind in kinds:
        if kind == "table" and not _TABLE.search(answer.answer):
            failures.append("no markdown table")
        elif kind == "headings" and len(_HEADING.findall(answer.answer)) < 2:
            failures.append("fewer than two headings")
        elif kind == "checklist" and not ("✅" in answer.answer or "❌" in answer.answer):
            failures.append("no ✅/❌ items")
        elif kind not in {"table", "headings", "checklist"}:
            raise ValueError(f"structured takes table, headings or checklist, not {kind!r}")
    return CheckResult("structured", not failures, "; ".join(failures))


def check_asks_clarification(answer: Answer, expected: Any) -> CheckResult:
    asks = answer.intent is Intent.CLARIFICATION and answer.answer.rstrip().endswith("?")
    return CheckResult("asks_clarification", asks == bool(expected),
                       f"intent {answer.intent.value}")


def check_grounded(answer: Answer, expected: Any) -> CheckResult:
    return CheckResult("grounded", answer.grounded == bool(expected),
                       f"grounded={answer.grounded}")


def check_starts_with(answer: Answer, expected: Any) -> CheckResult:
    passed = answer.answer.startswith(str(expected))
    return CheckResult("starts_with", passed, "" if passed else f"starts {answer.answer[:60]!r}")


def check_short(answer: Answer, expected: Any) -> CheckResult:
    """A fact lookup stays short: at most `expected` lines."""
    lines = [line for line in answer.answer.splitlines() if line.strip()]
    return CheckResult("max_lines", len(lines) <= int(expected), f"{len(lines)} lines")


def check_constraints(answer: Answer, expected: Any) -> CheckResult:
    """`{one_sentence: met, min_sources: not_met}`: each constraint met (and no caution says
    otherwise), or not met and said so by the answer (which one and why)."""
    if not isinstance(expected, dict):
        raise ValueError(f"constraints takes {{kind: met | not_met}}, not {expected!r}")
    got = {c["kind"]: c for c in answer.constraint_checks}
    unmet = [c.text for c in answer.cautions if c.kind == "not_met"]
    wrong = []
    for kind, want in expected.items():
        check = got.get(str(kind))
        if check is None:
            wrong.append(f"{kind}: not read from the question")
        elif want == "met" and not check["met"]:
            wrong.append(f"{kind}: not met ({check['reason']})")
        elif want == "met" and any(t.startswith(caution("not_met", check["constraint"]).text)
                                   for t in unmet):
            wrong.append(f"{kind}: met, yet a caution says it is not")
        elif want == "not_met" and (check["met"] or not check["disclosed"]):
            wrong.append(f"{kind}: " + ("met" if check["met"] else "not said in the answer"))
    return CheckResult("constraints", not wrong, "; ".join(wrong))


CHECKS: dict[str, Callable[[Answer, Any], CheckResult]] = {
    "intent": check_intent,
    "contains": check_contains,
    "not_contains": check_not_contains,
    "mentions": check_mentions,
    "cites": check_cites,
    "offers_qa": check_offers_qa,
    "no_confidence_scores": check_no_confidence,
    "structured": check_structured,
    "asks_clarification": check_asks_clarification,
    "grounded": check_grounded,
    "starts_with": check_starts_with,
    "max_lines": check_short,
    "constraints": check_constraints,
}


def run_checks(answer: Answer, checks: dict[str, Any]) -> list[CheckResult]:
    unknown = sorted(set(checks) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown check(s) {unknown}; known: {sorted(CHECKS)}")
    return [CHECKS[name](answer, expected) for name, expected in checks.items()]
