"""Claude's side of the review grid, for the local Messages API: a careful reader that fills
`record_cells` from a contract set's ground truth (evals/grid/*.yaml), so the real SDK path —
the request, the tool, caching, the gate, the send-back — runs with no network.

    server = FakeAnthropicServer(api_key="k", handler=GridClaude(load_truth(path)))

It answers each document's request with every column: the truth's value written as the system
prompt asks, its verbatim quote, or "not stated". `misquote` names columns it first quotes in its
own words (the gate refuses them, and a careful model corrects them when sent back); `lazy`
makes its first reply text only, without the call. Tokens are counted by the server as for any
request, so a benchmark of tokens per document measures the real prompt.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from manda.evals.grid_truth import NOT_STATED, Truth
from manda.testing.anthropic_server import RecordedRequest, Reply, text_reply, tool_reply

__all__ = ["GridClaude", "as_claude_value"]

_NAME = re.compile(r'<document name="([^"]+)">')


def _iso(value: Any) -> str:
    return value.isoformat() if isinstance(value, date) else str(value)


def _notice(value: Any) -> str:
    return f"notice {value}" if value else ""


def as_claude_value(column: str, cell: Mapping[str, Any]) -> str:
    """The truth's value of one cell, written as the grid's system prompt asks Claude to."""
    value = cell["value"]
    if column in ("counterparty", "assignment", "governing_law"):
        return str(value)
    if column == "date":
        return _iso(value)
    if column == "term":
        if value == "indefinite":
            return "indefinite"
        text = f"until {_iso(value['until'])}" if "until" in value else f"{value['months']} months"
        return text + (f" from {_iso(value['start'])}" if "start" in value else "")
    if column == "renewal":
        if value is False:
            return "excluded"
        kind = "automatic" if value.get("automatic") else f"option ({value.get('option')})"
        return ", ".join(p for p in (kind, f"{value['period_months']} months",
                                     _notice(value.get("notice"))) if p)
    if column == "termination_for_convenience":
        if value is False:
            return "no"
        return ", ".join(p for p in ("yes", f"by {cell['by']}" if cell.get("by") else "",
                                     _notice(cell.get("notice"))) if p)
    if column == "liability_cap":
        amount, unit = value["amount"], value["unit"]
        text = f"{amount:g}{unit}" if unit.startswith("%") else \
            f"{amount:g} {unit}" if " " in unit else f"{int(amount)} {unit}"
        per = value.get("per")
        return text + (f", per {'claim' if per == 'claim' else 'year'}" if per else "")
    return "yes" if value is True else "no" if value is False else str(value)


class GridClaude:
    """A handler for `FakeAnthropicServer` that plays Claude reading one grid row a request."""

    def __init__(self, truth: Truth, *, misquote: frozenset[str] = frozenset(),
                 lazy: bool = False) -> None:
        self._rows = {row["file"]: row for row in truth.rows}
        self._misquote = misquote
        self._lazy = lazy
        self.documents: list[str] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        messages = request.body.get("messages") or []
        first = messages[0]["content"] if messages else ""
        text = first if isinstance(first, str) else " ".join(
            b.get("text", "") for b in first if isinstance(b, dict))
        found = _NAME.search(text)
        row = self._rows.get(found.group(1)) if found else None
        tool = next((t for t in request.tools if t["name"] == "record_cells"), None)
        if row is None or tool is None:
            return text_reply("I can only fill grid rows of documents I know.")
        if len(messages) == 1:
            self.documents.append(row["file"])
            if self._lazy:
                return text_reply("Here is the row.")
        columns = list(tool["input_schema"]["properties"]["cells"]["properties"])
        sent_back = _sent_back(messages)
        cells: dict[str, Any] = {}
        for column in columns:
            truth = row["cells"].get(column)
            if truth is None or truth["value"] == NOT_STATED:
                cells[column] = {"stated": False}
                continue
            quote = truth["quote"]
            if column in self._misquote and not sent_back:
                quote = f"In short, {quote.lower()}"
            cells[column] = {"stated": True, "value": as_claude_value(column, truth),
                             "quote": quote, "clause": str(truth.get("clause") or ""),
                             "detail": str(truth.get("consequence") or truth.get("scope") or "")}
        return tool_reply("record_cells", {"cells": cells})


def _sent_back(messages: list[Any]) -> bool:
    last = messages[-1]["content"] if messages else []
    return isinstance(last, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" and b.get("is_error")
        for b in last)


def reply_size(reply: Reply) -> int:
    """Characters of a reply's tool input (for a benchmark's sanity check)."""
    return sum(len(json.dumps(b.get("input", {}))) for b in reply.content)
