"""Domain models to Neo4j node properties and back, losslessly.

Neo4j properties hold scalars, temporal values and flat lists only, so:
- enums are stored as their values, dates and datetimes as native Neo4j temporal values (they
  sort correctly in `ORDER BY`), and `None` is simply absent (`SET n += {k: null}` removes `k`);
- nested fields (`location`, `attributes`, `metadata`) are stored as JSON strings and parsed back;
  a flat tuple of strings (`heading_path`) is a native list property, so Cypher can match in it;
- on the way back, the driver's `neo4j.time` values become `datetime`/`date` again, and keys
  that are not fields of the model (such as the store's own markers) are ignored.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# Fields that hold a nested structure, stored as JSON text.
JSON_FIELDS = frozenset({"location", "attributes", "corrections", "metadata", "entity_links"})


def to_props(model: BaseModel, *, exclude: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Every field of `model` as a Neo4j property value (`None` kept, so `+=` clears it)."""
    props: dict[str, Any] = {}
    as_json = model.model_dump(mode="json", include=set(JSON_FIELDS))
    for name in type(model).model_fields:
        if name in exclude:
            continue
        value = getattr(model, name)
        if name in JSON_FIELDS:
            props[name] = json.dumps(as_json[name], sort_keys=True, ensure_ascii=False)
        elif isinstance(value, Enum):
            props[name] = value.value
        elif isinstance(value, tuple):
            props[name] = list(value)
        else:
            props[name] = value
    return props


def from_props(model_type: type[M], props: dict[str, Any]) -> M:
    """Rebuild a model from node properties written by `to_props`."""
    fields = model_type.model_fields
    data: dict[str, Any] = {}
    for name, value in props.items():
        if name not in fields or value is None:
            continue
        if name in JSON_FIELDS and isinstance(value, str):
            data[name] = json.loads(value)
        else:
            data[name] = _native(value)
    return model_type.model_validate(data)


def _native(value: Any) -> Any:
    """`neo4j.time.DateTime`/`Date` (and anything else offering `to_native`) as Python values."""
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value
