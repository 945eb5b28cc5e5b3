"""Names the deal team said are one entity ("Globex AG is the same company as Globex Holding"):
a question naming one of them searches for all of them."""

from __future__ import annotations

import re
from collections.abc import Sequence


def names_in(text: str, name: str) -> bool:
    """Whether `text` names `name` (whole words, any case)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def with_aliases(query: str, groups: Sequence[Sequence[str]]) -> str:
    """The query with the other names of every entity it names added at its end."""
    extra: list[str] = []
    for group in groups:
        if any(names_in(query, name) for name in group):
            extra += [n for n in group if not names_in(query, n) and n not in extra]
    return query if not extra else f"{query} ({' / '.join(extra)})"
