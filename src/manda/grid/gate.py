"""The grid's gate: a cell never carries a value its quote does not support.

Every stated cell, offline or from Claude, passes here before it is kept: its quote must stand in
the document verbatim (spacing and quote marks aside), and its value must be read from that quote
(the date in it, the duration, the amount, the law's place, the party's name, the words of the
column for a yes or no). What fails is kept as "unsupported" with the reason, never as a value.
The place (page, clause, heading) is taken from where the quote stands, not from the reader.
"""

from __future__ import annotations

import re

from manda.finance.amounts import find_amounts, same_amount
from manda.grid.passages import DocumentText
from manda.grid.values import (
    dates_in,
    durations_in,
    jurisdiction_words,
    money_in,
    multiple_in,
)
from manda.models import CellStatus, GridCell, GridColumn
from manda.vocabulary.grid import GridColumnSpec, grid_vocabulary

__all__ = ["ground"]


def ground(cell: GridCell, column: GridColumn, text: DocumentText, *,
           language: str = "en") -> GridCell:
    """The cell with its place found in the document, or "unsupported" with why."""
    if cell.status is not CellStatus.STATED:
        return cell
    passage = text.find(cell.quote) if cell.quote.strip() else None
    if passage is None:
        return _refused(cell, "its quote does not stand in the document")
    problem = None
    if column.standard:
        spec = grid_vocabulary().column(column.key)
        problem = _problem(cell, spec, f"{passage.heading} ", language)
    if problem is not None:
        return _refused(cell, problem)
    g = grid_vocabulary()
    return cell.model_copy(update={
        "location": passage.location, "clause": passage.clause, "heading": passage.heading,
        "amending": cell.amending or g.words("amending").found(passage.text)})


def _refused(cell: GridCell, why: str) -> GridCell:
    return cell.model_copy(update={"status": CellStatus.UNSUPPORTED, "reason": why})


def _about(spec: GridColumnSpec, quote: str, heading: str) -> bool:
    return any(cues.found(quote) for cues in (spec.stated, spec.negated, spec.names)) or (
        bool(heading.strip()) and spec.headings.found(heading))


def _months_in(quote: str) -> set[int]:
    return {d.months for d in durations_in(quote) if d.months}


def _problem(cell: GridCell, spec: GridColumnSpec, heading: str, language: str) -> str | None:
    quote, value = cell.quote, cell.value
    kind = spec.type
    if kind == "party":
        words = set(re.findall(r"\w+", str(value).lower()))
        have = set(re.findall(r"\w+", quote.lower()))
        return None if words and words <= have else f"“{value}” is not named in its quote"
    if kind == "date":
        found = {d.isoformat() for d, _, _ in dates_in(quote)}
        return None if str(value) in found else f"the date {value} is not in its quote"
    if kind == "term":
        if value == "indefinite":
            return None if grid_vocabulary().words("indefinite").found(quote) or _about(
                spec, quote, heading) else "its quote does not say the term is open-ended"
        if isinstance(value, dict) and "until" in value:
            found = {d.isoformat() for d, _, _ in dates_in(quote)}
            return None if value["until"] in found else "its end date is not in its quote"
        if isinstance(value, dict) and "months" in value:
            return None if int(float(value["months"])) in _months_in(quote) else \
                "its duration is not in its quote"
        return "its term is in no form the grid knows"
    if kind == "renewal":
        if value is False:
            return None if spec.negated.found(quote) or _about(spec, quote, heading) else \
                "its quote does not exclude renewal"
        if not isinstance(value, dict):
            return "its renewal is in no form the grid knows"
        period = int(float(value.get("period_months") or 0))
        return None if period in _months_in(quote) else "its renewal period is not in its quote"
    if kind == "termination":
        notice = value.get("notice") if isinstance(value, dict) else None
        if notice and notice != "none":
            count = int(str(notice).split()[0])
            if not any(d.count == count or d.months == count for d in durations_in(quote)):
                return "its notice period is not in its quote"
        return None if grid_vocabulary().words("terminate").found(quote) or _about(
            spec, quote, heading) else "its quote says nothing of ending the document"
    if kind in ("cap", "amount"):
        if not isinstance(value, dict):
            return "its amount is in no form the grid knows"
        amount = float(value.get("amount") or 0)
        said = [a.value for a in money_in(quote, language=language)]
        said += [a.value for a in find_amounts(quote) if a.unit == "%"]
        said += [float(m) for m in _months_in(quote)]
        if times := multiple_in(quote):  # "twice the Charges": 200% of them
            said.append(100.0 * times)
        if value.get("unit") == "% of annual charges" and amount == 100:
            return None  # "limited to the fees paid in that year": all of a year's charges
        return None if any(same_amount(amount, s) for s in said) else \
            "its amount is not in its quote"
    if kind == "jurisdiction":
        words = jurisdiction_words(str(value))
        found = words.found(quote) if words is not None else str(value).lower() in quote.lower()
        return None if found else f"“{value}” is not named in its quote"
    if kind in ("yes_no", "rule", "duration"):
        return None if _about(spec, quote, heading) else \
            f"its quote says nothing of {spec.label.lower()}"
    return None
