"""A deterministic "Claude" that drafts CIM slides, for the fake Messages API (tests, benchmarks).

It reads the numbered evidence of a `write_slide` request as the real model would see it and
answers with a tool call: a bullet per finding (corrected figures first, as a careful writer
would), a key-figures row per metric stated for several periods, and a passage sentence. With
`invent=True` its first attempt at each slide also states a number no source holds, so the
gate's send-back runs; when sent back it drops every line the check named, as asked.

    writer = SlideWriter(invent=True)
    async with FakeAnthropicServer(handler=writer) as server: ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from manda.testing.anthropic_server import RecordedRequest, Reply, tool_reply

__all__ = ["SlideWriter", "evidence_lines"]

_FINDING = re.compile(
    r"^\[(?P<id>F\d+)\] (?P<head>.*?)(?: = (?P<value>.*?))? \((?P<nature>actual|forecast); "
    r"(?P<status>\w+); (?P<rest>.*)$")
_PERIOD = re.compile(r"\s((?:FY|Q[1-4] |H[12] )\d{4}|[A-Z][a-z]{2} \d{4})$")
_EXCERPT = re.compile(r'<excerpt id="(?P<id>P\d+)"[^>]*>\n(?P<text>.*?)\n</excerpt>', re.S)
INVENTED = "€987.6M"


def _first_user_text(request: RecordedRequest) -> str:
    content = request.body["messages"][0]["content"]
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if b.get("type") == "text")


def _tool_result_text(request: RecordedRequest) -> str:
    last = request.body["messages"][-1]["content"]
    if isinstance(last, str):
        return last
    parts = []
    for block in last:
        if block.get("type") == "tool_result":
            content = block.get("content")
            parts.append(content if isinstance(content, str) else str(content))
        elif block.get("type") == "text":
            parts.append(block.get("text", ""))
    return "\n".join(parts)


def evidence_lines(request: RecordedRequest) -> list[dict[str, str]]:
    """The findings of a `write_slide` request, in the order given: id, head, value, status."""
    out = []
    for line in _first_user_text(request).splitlines():
        if m := _FINDING.match(line.strip()):
            out.append({k: v or "" for k, v in m.groupdict().items()})
    return out


@dataclass
class SlideWriter:
    """The handler of `FakeAnthropicServer` that writes slides; `requests` counts them."""

    invent: bool = False
    bullets: int = 5
    requests: int = 0
    sent_back: list[str] = field(default_factory=list)  # the problems it was told

    def __call__(self, request: RecordedRequest) -> Reply:
        self.requests += 1
        retry = len(request.body["messages"]) > 1
        problems = _tool_result_text(request) if retry else ""
        if retry:
            self.sent_back.append(problems)
        slide = self.slide(request, invent=self.invent and not retry)
        if retry:  # leave out every line the check named
            slide["bullets"] = [b for b in slide["bullets"] if b["text"][:60] not in problems]
            slide["figures"] = [f for f in slide["figures"] if f["label"] + ":" not in problems]
        return tool_reply("write_slide", slide)

    def slide(self, request: RecordedRequest, *, invent: bool) -> dict[str, Any]:
        findings = evidence_lines(request)
        findings.sort(key=lambda f: "corrects an earlier figure" not in f["rest"])
        bullets: list[dict[str, Any]] = []
        for f in findings[: self.bullets]:
            kind = " forecast" if f["nature"] == "forecast" else ""
            text = f"{f['head']}{kind}: {f['value']}" if f["value"] else f["head"]
            bullets.append({"text": text, "evidence": [f["id"]]})
        passage = self._passage_sentence(_first_user_text(request))
        if passage is not None:
            bullets.append(passage)
        if invent and findings:
            bullets.insert(0, {"text": f"Revenue is set to reach {INVENTED} within three years",
                               "evidence": [findings[0]["id"]]})
        rows: dict[str, dict[str, Any]] = {}
        for f in findings:
            m = _PERIOD.search(f["head"])
            if not f["value"] or m is None or f["nature"] != "actual":
                continue
            row = rows.setdefault(f["head"][: m.start()], {"values": {}, "evidence": []})
            if m.group(1) not in row["values"]:
                row["values"][m.group(1)] = f["value"]
                row["evidence"].append(f["id"])
        figures = [{"label": label, "values": [{"period": p, "value": v}
                                               for p, v in row["values"].items()],
                    "evidence": row["evidence"]}
                   for label, row in rows.items() if len(row["values"]) >= 2][:2]
        notes = [{"text": "Check the latest trading update with the seller before sending.",
                  "evidence": []}]
        return {"title": "", "bullets": bullets[:6], "figures": figures, "notes": notes}

    @staticmethod
    def _passage_sentence(prompt: str) -> dict[str, Any] | None:
        for m in _EXCERPT.finditer(prompt):
            if "contains_instruction" in m.group(0).split(">", 1)[0]:
                continue
            for sentence in re.split(r"(?<=\.)\s+", m.group("text")):
                words = sentence.split()
                if 8 <= len(words) <= 30 and sentence.endswith(".") and "|" not in sentence:
                    return {"text": sentence.rstrip("."), "evidence": [m.group("id")]}
        return None
