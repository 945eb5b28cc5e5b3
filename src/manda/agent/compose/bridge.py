"""A metric's bridge ("walk me through the ARR bridge"): the table that moves it from its opening
to its closing figure, each line as the document states it, in the column of the period asked."""

from __future__ import annotations

import re

from manda.agent.compose.common import Ask, Draft, role_hits, whole_tables
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.tables import Table
from manda.agent.topics import PNL
from manda.finance.equivalents import group_patterns
from manda.finance.periods import parse_period
from manda.vocabulary import vocabulary

_V = vocabulary()
_BRIDGE = _V.cues("bridge_asked")
_ENDS = _V.cues("bridge_rows")


def answer(ask: Ask, evidence: Evidence) -> Draft | None:
    """The bridge of the metric asked, or None when no retrieved table is one."""
    if ask.subject is None:
        return None
    names = group_patterns(ask.subject)
    for table, hit, pieces in whole_tables(role_hits(evidence, PNL.roles)):
        heading = " ".join([*hit.heading_path, *table.caption])
        if not _is_bridge(table, heading, names):
            continue
        columns = _columns(table, ask.period)
        rows = [r for r in table.rows if r.cells and any(r.cells.get(c, "").strip()
                                                          for c in columns)]
        if len(rows) < 3:
            continue
        first = table.header[0] or ""
        lines = ["| " + " | ".join([first, *columns]) + " |", "|---|" + "---|" * len(columns),
                 *("| " + " | ".join([r.label, *(r.cells.get(c, "").strip() or "—"
                                                 for c in columns)]) + " |" for r in rows)]
        sources = [evidence.hit_source(h) for h in pieces]
        title = " — ".join(dict.fromkeys(p for p in hit.heading_path[1:] if p)) or heading
        text = "\n".join([f"{title}, from {sources[0].document} {cite(sources)}:", "", *lines])
        return Draft(text=text)
    return None


def _is_bridge(table: Table, heading: str, names: tuple[re.Pattern[str], ...]) -> bool:
    """A table of the metric (its heading or rows name it) that moves it from an opening to a
    closing figure (its heading says bridge, or its rows open and close)."""
    rows = " ".join(r.label for r in table.rows)
    of_metric = any(p.search(heading) or p.search(rows) for p in names)
    moves = _BRIDGE.found(heading) or len(set(m.lower() for m in _ENDS.findall(rows))) >= 2
    return of_metric and moves


def _columns(table: Table, period: str | None) -> list[str]:
    """The column of the period asked (the FY25 column of a bridge by quarter), else all."""
    headers = [h for h in table.header[1:] if h]
    if period is not None:
        asked = [h for h in headers if parse_period(h) == period]
        if asked:
            return asked
    return headers
