"""The Claude grid reader: one request per document with every column, answered by one
`record_cells` tool call, each cell a value and a verbatim quote.

The system prompt and the tool (built from the columns) are the same for every document of a run,
so they are the prompt cache's prefix and only the document is new in each request. Cells the
gate refuses (a quote not in the document, a value its quote does not state) are sent back once
with the reasons, as the call's error result; what still fails is kept "unsupported". A reply
without the call is asked once more for it; a reply cut off by `max_tokens` is asked again with
twice the cap. Requests run several at once (`concurrency`) and no faster than
`requests_per_minute`, the account's rate budget; the SDK waits out a 429 as the API asks.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from manda.errors import MandaError
from manda.finance.periods import find_dates
from manda.grid.gate import ground
from manda.grid.offline import Reading, unreadable
from manda.grid.prompts import RECORD_CELLS, SYSTEM, document_message, record_cells_tool, send_back
from manda.grid.values import shown_of
from manda.llm.port import ChatMessage, ChatModel, TokenUsage, ToolResult
from manda.models import CellStatus, GridCell, GridColumn

__all__ = ["ClaudeGridReader", "parse_value"]

TOKENS_PER_COLUMN = 260
MIN_TOKENS = 1_024
MAX_TOKENS = 16_000


class RequestPace:
    """At most `per_minute` requests a minute from this reader (None: no pacing)."""

    def __init__(self, per_minute: int | None) -> None:
        self._gap = 60.0 / per_minute if per_minute else 0.0
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        if not self._gap:
            return
        async with self._lock:
            now = time.monotonic()
            if self._next > now:
                await asyncio.sleep(self._next - now)
            self._next = max(now, self._next) + self._gap


class ClaudeGridReader:
    """Reads a document's grid cells with Claude (through the model port)."""

    def __init__(self, *, model: ChatModel, concurrency: int = 4,
                 requests_per_minute: int | None = None) -> None:
        self._model = model
        self.name = model.name
        self.concurrency = concurrency
        self._pace = RequestPace(requests_per_minute)

    async def read(self, reading: Reading, columns: Sequence[GridColumn]) -> list[GridCell]:
        if not reading.text:
            return [unreadable(reading, c, self.name, "no text could be read from it (a scan "
                               "with OCR turned off, or an empty file)") for c in columns]
        tool = record_cells_tool(columns)
        target = next((p.name for p in reading.parties if p.key in reading.target), None)
        messages = [ChatMessage(role="user", text=document_message(
            reading.document.path or reading.document.filename, reading.text, target))]
        usage = TokenUsage()
        limit = min(MAX_TOKENS, max(MIN_TOKENS, TOKENS_PER_COLUMN * len(columns)))
        kept: dict[str, GridCell] = {}
        asked_again = sent_back = False
        by_key = {c.key: c for c in columns}
        for _ in range(4):
            await self._pace.wait()
            turn = await self._model.respond(SYSTEM, messages, [tool], max_tokens=limit)
            usage.add(turn.usage)
            if turn.truncated and limit < MAX_TOKENS:
                limit = min(MAX_TOKENS, limit * 2)
                continue
            call = next((c for c in turn.tool_calls if c.name == RECORD_CELLS), None)
            if call is None:
                if asked_again:
                    break
                asked_again = True
                messages += [turn.as_message(), ChatMessage(
                    role="user", text="Call record_cells now, with one entry for every column.")]
                continue
            cells = _cells(reading, columns, call.arguments, self.name)
            grounded = {c.column: ground(c, by_key[c.column], reading.text,
                                         language=reading.language) for c in cells}
            for key, cell in grounded.items():
                if cell.status is not CellStatus.UNSUPPORTED or key not in kept:
                    kept[key] = cell
            refused = [f"{by_key[k].name}: {c.reason} (quote: “{c.quote[:200]}”)"
                       for k, c in grounded.items() if c.status is CellStatus.UNSUPPORTED]
            if not refused or sent_back:
                break
            sent_back = True
            messages += [turn.as_message(), ChatMessage(role="user", tool_results=[
                ToolResult(call.id, send_back(refused), is_error=True)])]
        if not kept:
            raise MandaError(f"Claude gave no grid row for {reading.document.filename}.",
                             hint="Try again; if it keeps failing, run the grid offline.")
        out = [kept.get(c.key) or _not_stated(reading, c, self.name) for c in columns]
        out[0] = out[0].model_copy(update={"usage": {
            "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens,
            "cache_read_tokens": usage.cache_read_tokens,
            "cache_write_tokens": usage.cache_write_tokens}})
        return out


def _not_stated(reading: Reading, column: GridColumn, reader: str) -> GridCell:
    return GridCell(deal_id=reading.deal_id, document_id=reading.document.id,
                    column=column.key, wording=column.wording, reader=reader,
                    status=CellStatus.NOT_STATED,
                    searched=f"Claude read the whole document ({len(reading.text.passages)} "
                             f"passages) for {column.name.lower()}")


def _cells(reading: Reading, columns: Sequence[GridColumn], arguments: Mapping[str, Any],
           reader: str) -> list[GridCell]:
    given = arguments.get("cells") if isinstance(arguments.get("cells"), dict) else {}
    out: list[GridCell] = []
    for column in columns:
        entry = given.get(column.key) if isinstance(given, dict) else None
        if not isinstance(entry, dict) or not entry.get("stated"):
            out.append(_not_stated(reading, column, reader))
            continue
        raw, quote = str(entry.get("value") or ""), str(entry.get("quote") or "")
        value = parse_value(column.type, raw)
        if value is None or not quote.strip():
            out.append(GridCell(
                deal_id=reading.deal_id, document_id=reading.document.id, column=column.key,
                wording=column.wording, reader=reader, status=CellStatus.UNSUPPORTED,
                quote=quote, reason=f"its value “{raw[:80]}” is in no form the grid reads"))
            continue
        out.append(GridCell(
            deal_id=reading.deal_id, document_id=reading.document.id, column=column.key,
            wording=column.wording, reader=reader, status=CellStatus.STATED, value=value,
            shown=shown_of(column.type, value), detail=str(entry.get("detail") or "")[:300],
            quote=quote, clause=str(entry.get("clause") or "") or None))
    return out


_DURATION = re.compile(r"(\d+)\s*(business\s+day|day|week|month|year)s?", re.IGNORECASE)
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_AMOUNT = re.compile(r"([\d.,]+)\s*([A-Z]{3})\b")


def _iso(text: str) -> str | None:
    found = _ISO.search(text)
    if found:
        try:
            return date.fromisoformat(found.group(0)).isoformat()
        except ValueError:
            return None
    dates = find_dates(text)
    return dates[0][0].isoformat() if dates else None


def _notice(text: str) -> str | None:
    after = text.lower().split("notice", 1)[1] if "notice" in text.lower() else ""
    if "none" in after:
        return "none"
    found = _DURATION.search(after)
    if found is None:
        return None
    count, unit = int(found.group(1)), " ".join(found.group(2).lower().split())
    if unit == "year":
        count, unit = count * 12, "month"
    return f"{count} {unit}{'s' if count != 1 else ''}"


def _months(text: str) -> int | None:
    found = _DURATION.search(text)
    if found is None:
        return None
    count, unit = int(found.group(1)), found.group(2).lower()
    return count * 12 if unit == "year" else count if unit == "month" else None


def parse_value(kind: str, raw: str) -> Any:
    """Claude's written value as the grid's normalised value; None when it cannot be read."""
    text = raw.strip()
    low = text.lower()
    if kind == "yes_no":
        return True if low.startswith("yes") else False if low.startswith("no") else None
    if kind == "date":
        return _iso(text)
    if kind == "term":
        if "indefinite" in low:
            return "indefinite"
        value: dict[str, Any] = {}
        if low.startswith("until"):
            until = _iso(text)
            if until is None:
                return None
            value["until"] = until
        elif (months := _months(low)) is not None:
            value["months"] = months
        else:
            return None
        if "from" in low and (start := _iso(low.split("from", 1)[1])):
            value["start"] = start
        return value
    if kind == "renewal":
        if low.startswith(("excluded", "no")):
            return False
        months = _months(low.split("notice")[0])
        if months is None:
            return None
        renewal: dict[str, Any] = {"automatic": not low.startswith("option"),
                                   "period_months": months}
        who = re.search(r"option\s*\((target|counterparty|either|mutual)\)", low)
        if who:
            renewal["option"] = who.group(1)
        if (notice := _notice(low)) is not None:
            renewal["notice"] = notice
        return renewal
    if kind == "termination":
        if low.startswith("no"):
            return False
        if not low.startswith("yes"):
            return None
        out: dict[str, Any] = {"terminable": True}
        by = re.search(r"by\s+(target|counterparty|either)", low)
        if by:
            out["by"] = by.group(1)
        out["notice"] = _notice(low) or "none"
        return out
    if kind in ("cap", "amount"):
        per = "claim" if "per claim" in low else "year" if "per year" in low or \
            "per contract year" in low else None
        found = _AMOUNT.search(text.replace(" 000", "000"))
        if found:
            number = float(found.group(1).replace(",", ""))
            cap: dict[str, Any] = {"amount": number, "unit": found.group(2)}
        elif (pct := re.search(r"([\d.]+)\s*%", low)) and kind == "cap":
            cap = {"amount": float(pct.group(1)), "unit": "% of annual charges"}
        elif (months := _months(low)) is not None and kind == "cap":
            cap = {"amount": float(months), "unit": "months of charges"}
        else:
            return None
        if per:
            cap["per"] = per
        return cap
    if kind == "duration":
        found = _DURATION.search(low)
        return f"{found.group(1)} {found.group(2)}s" if found else None
    return text or None
