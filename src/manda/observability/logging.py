"""Structured logs: one JSON object a line, carrying the conversation, deal and event in context.

`configure_logging()` is called once by the composition root. `log_context(...)` adds fields to
every record logged inside it, across awaits and into tasks started inside it. `log_answer()`
writes the one record per answer that an operator reads to follow usage and cost; prices live
in `PRICES`, the only place they are written down.
"""

from __future__ import annotations

import json as jsonlib
import logging
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, TextIO

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_context: ContextVar[Mapping[str, Any]] = ContextVar("manda_log_context", default=_EMPTY)

#: LogRecord attributes that are the record itself, not fields a caller added with `extra=`.
_RECORD_ATTRIBUTES = frozenset(
    {
        *logging.LogRecord("", 0, "", 0, "", (), None).__dict__,
        "message",
        "asctime",
        "taskName",
        "context",
    }
)
_HANDLER_MARK = "_manda_handler"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


# --- context ---------------------------------------------------------------------------------


@contextmanager
def log_context(**fields: Any) -> Iterator[Mapping[str, Any]]:
    """Add `fields` (None values left out) to every record logged inside; nests, outer kept."""
    merged = {**_context.get(), **{k: v for k, v in fields.items() if v is not None}}
    token = _context.set(MappingProxyType(merged))
    try:
        yield _context.get()
    finally:
        _context.reset(token)


def current_log_context() -> Mapping[str, Any]:
    return _context.get()


class ContextFilter(logging.Filter):
    """Copies the context onto each record when it is logged (not when a queue formats it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "context"):
            record.context = dict(_context.get())
        return True


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    """Context fields, then `extra=` fields (which win on a clash)."""
    fields = dict(getattr(record, "context", None) or _context.get())
    for key, value in record.__dict__.items():
        if key not in _RECORD_ATTRIBUTES and not key.startswith("_"):
            fields[key] = value
    return fields


# --- formatters ------------------------------------------------------------------------------


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "message", ...context and extra fields, "exc"?}`, one a line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in _fields(record).items():
            out.setdefault(key, value)  # the four fields above cannot be overwritten
        if record.exc_info:
            out.setdefault("exc", self.formatException(record.exc_info))
        if record.stack_info:
            out.setdefault("stack", self.formatStack(record.stack_info))
        return jsonlib.dumps(out, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """For a terminal: the usual line, then the context and extra fields as key=value."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = " ".join(f"{k}={v}" for k, v in _fields(record).items())
        if not fields:
            return line
        head, sep, tail = line.partition("\n")  # keep a traceback below the fields
        return f"{head} {fields}{sep}{tail}"


def configure_logging(
    level: str | int = "INFO", *, json: bool = True, stream: TextIO | None = None
) -> logging.Handler:
    """Send every log record to `stream` (stderr) as JSON lines, or as text for a terminal.

    Calling it again replaces the handler it installed before; other handlers are left alone.
    """
    numeric = _level(level)
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _HANDLER_MARK, False):
            root.removeHandler(handler)
            handler.close()
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    setattr(handler, _HANDLER_MARK, True)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if json else TextFormatter())
    root.addHandler(handler)
    root.setLevel(numeric)
    return handler


def _level(level: str | int) -> int:
    if isinstance(level, int):
        return level
    name = level.strip().upper()
    if name not in LEVELS:
        raise ValueError(
            f"MANDA_LOG_LEVEL={level!r} is not a log level; use one of {', '.join(LEVELS)}."
        )
    return logging.getLevelNamesMapping()[name]


# --- cost ------------------------------------------------------------------------------------


# Prompt cache rates relative to the input price: a 5-minute cache write costs 1.25x, a read 0.1x
# (https://platform.claude.com/docs/en/build-with-claude/prompt-caching#pricing).
CACHE_WRITE_RATE = 1.25
CACHE_READ_RATE = 0.1


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input_per_mtok: float
    output_per_mtok: float = 0.0


PRICES: Mapping[str, Price] = MappingProxyType(
    {
        "claude-sonnet-5-5": Price(2.0, 10.0),  # list prices per million tokens
        "claude-sonnet-5": Price(2.0, 10.0),
        "claude-sonnet-4-6": Price(3.0, 15.0),
        "claude-sonnet-4-5": Price(3.0, 15.0),
        "claude-haiku-4-5": Price(1.0, 5.0),
        "claude-opus-4-1": Price(15.0, 75.0),
        "offline": Price(0.0, 0.0),
        "voyage-3.5": Price(0.06),  # embeddings: input tokens only
        "multilingual-e5-small-q8": Price(0.0),  # the offline embedder (default model)
        "multilingual-e5-small-fp32": Price(0.0),
        "minilm-l6-v2-q8": Price(0.0),  # the offline English-only model
        "minilm-l6-v2-int8": Price(0.0),  # the offline English-only model, fp32 products
    }
)


def price_of(model: str) -> Price | None:
    """The price of `model`, also under a dated or suffixed id (`claude-sonnet-4-5-20250929`)."""
    if model in PRICES:
        return PRICES[model]
    candidates = [name for name in PRICES if model.startswith(name) and model[len(name)] in "-@:"]
    return PRICES[max(candidates, key=len)] if candidates else None


def estimate_cost(model: str, input_tokens: int, output_tokens: int = 0, *,
                  cache_read_tokens: int = 0, cache_write_tokens: int = 0) -> float:
    """Estimated US dollars for one call; `ValueError` for a model `PRICES` does not list.

    `input_tokens` are the uncached ones; cache reads and writes are priced at their rates."""
    price = price_of(model)
    if price is None:
        raise ValueError(
            f"No price is known for model {model!r}; add it to PRICES in "
            "manda/observability/logging.py."
        )
    cached = (cache_read_tokens * CACHE_READ_RATE + cache_write_tokens * CACHE_WRITE_RATE)
    cost = ((input_tokens + cached) * price.input_per_mtok
            + output_tokens * price.output_per_mtok)
    return cost / 1_000_000


# --- per answer ------------------------------------------------------------------------------

answer_log = logging.getLogger("manda.answers")


def log_answer(
    *,
    intent: str,
    model: str,
    tool_calls: Sequence[str],
    input_tokens: int,
    output_tokens: int,
    latency_ms: float,
    grounded: bool,
    logger: logging.Logger | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """Log the record of one answer (the conversation id comes from `log_context`); returns it.

    `estimated_cost_usd` is null for a model without a price, never a made-up zero.
    """
    cache = {k: int(fields.get(k) or 0) for k in ("cache_read_tokens", "cache_write_tokens")}
    try:
        cost: float | None = round(estimate_cost(model, input_tokens, output_tokens, **cache), 6)
    except ValueError:
        cost = None
    record: dict[str, Any] = {
        "event": "answer",
        "intent": str(intent),
        "model": model,
        "tool_calls": list(tool_calls),
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "estimated_cost_usd": cost,
        "latency_ms": round(latency_ms, 1),
        "grounded": grounded,
        **fields,
    }
    (logger or answer_log).info(
        "answered %s with %s in %.0f ms", record["intent"], model, latency_ms, extra=record
    )
    return record
