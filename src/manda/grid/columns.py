"""A grid's columns from a person's words: standard columns by any of their names (in any
language of the vocabulary), saved column sets by name, anything else a question of its own."""

from __future__ import annotations

import re
from collections.abc import Iterable

from manda.models import GridColumn, stable_id
from manda.vocabulary.grid import grid_vocabulary

__all__ = ["column_set", "parse_columns", "standard_column"]

_SPLIT = re.compile(r"\s*(?:[,;\n]|\s\|\s)\s*")
_AND = re.compile(r"\s+(?:and|&|und|et)\s+", re.IGNORECASE)


def standard_column(key: str) -> GridColumn:
    spec = grid_vocabulary().column(key)
    return GridColumn(key=spec.key, name=spec.label, type=spec.type, standard=True)


def column_set(name: str) -> list[GridColumn] | None:
    """A saved column set by its name ("contracts", "leases", "employment", "debt")."""
    keys = grid_vocabulary().column_sets.get(name.strip().lower())
    return [standard_column(k) for k in keys] if keys else None


def _named(words: str) -> GridColumn | None:
    for spec in grid_vocabulary().columns:
        if spec.names.fullmatch(words) or spec.label.lower() == words.lower():
            return standard_column(spec.key)
    return None


def _question(words: str) -> GridColumn:
    text = " ".join(words.split())
    key = stable_id("q", text.lower())
    return GridColumn(key=key, name=text, type="text", standard=False)


def parse_columns(text: str | Iterable[str]) -> list[GridColumn]:
    """The columns `text` asks for, in its order, each once: "counterparty, term, change of
    control" → three standard columns; "term and renewal" → two; "contracts" → the saved set;
    "Is the rent reviewed upwards only?" → a question of its own."""
    parts = _SPLIT.split(text) if isinstance(text, str) else [p for t in text for p in
                                                               _SPLIT.split(t)]
    out: dict[str, GridColumn] = {}
    for part in (p.strip(" .") for p in parts):
        if not part:
            continue
        saved = column_set(part)
        if saved is not None:
            out.update({c.key: c for c in saved})
            continue
        named = _named(part)
        if named is not None:
            out.setdefault(named.key, named)
            continue
        pieces = [_named(p) for p in _AND.split(part)]
        if len(pieces) > 1 and all(pieces):
            out.update({c.key: c for c in pieces if c is not None and c.key not in out})
            continue
        question = _question(part)
        out.setdefault(question.key, question)
    return list(out.values())
