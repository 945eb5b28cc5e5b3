"""How a review grid's cells are judged against a contract set's ground truth (evals/grid/*.yaml).

A cell is right when the grid states what the truth states, normalised as the truth's header
says: the same date, term, renewal, yes or no, notice, cap and law; a name written the same way
(punctuation and case aside); for a rule in words (assignment) the quote of the same clause. A
value the truth does not have (it says "not stated") is a false positive; a stated truth the grid
misses or gets wrong is a false negative (and a wrong value a false positive too). Per column:
precision, recall, and how many quotes stand verbatim in their documents.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from manda.grid.passages import normalised
from manda.models import CellStatus, GridCell

__all__ = ["ColumnScore", "Truth", "load_truth", "matches"]

NOT_STATED = "not stated"


@dataclass(frozen=True)
class Truth:
    """One contract set's ground truth: its rows by file (room path) and its columns."""

    path: Path
    deal: str
    target: str
    columns: list[str]
    rows: list[dict[str, Any]]

    def row_of(self, file: str) -> dict[str, Any] | None:
        return next((r for r in self.rows if r["file"] == file), None)


def load_truth(path: Path) -> Truth:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Truth(path=path, deal=data["deal"], target=data["target"], columns=data["columns"],
                 rows=list(data["contracts"]))


@dataclass
class ColumnScore:
    """One column's counts over a set."""

    column: str
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    true_negative: int = 0
    quotes: int = 0
    verbatim: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        said = self.true_positive + self.false_positive
        return self.true_positive / said if said else 1.0

    @property
    def recall(self) -> float:
        wanted = self.true_positive + self.false_negative
        return self.true_positive / wanted if wanted else 1.0


def _iso(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _iso(v) for k, v in value.items()}
    return value


def _name(text: str) -> str:
    return re.sub(r"[^\w]+", " ", str(text).lower()).strip()


def _duration(text: Any) -> tuple[int, str] | None:
    found = re.match(r"^\s*(\d+)\s*(day|week|month|year)s?\b", str(text or ""))
    if found is None:
        return None
    count, unit = int(found.group(1)), found.group(2)
    if unit == "year":
        return count * 12, "month"
    return count, unit


def _holder(option: Any) -> str:
    """Who holds a renewal option, as a truth may write it in words: "both parties by mutual
    written agreement" is the grid's `mutual` (no one party's choice), "either party" `either`."""
    text = _name(str(option or ""))
    if text in ("target", "counterparty", "either", "mutual"):
        return text
    if re.search(r"\b(?:mutual|both parties|agreement of the parties)\b", text):
        return "mutual"
    return "either" if re.search(r"\b(?:either|each) party\b", text) else text


def _cap_key(value: Mapping[str, Any]) -> tuple[float, str]:
    amount, unit = float(value.get("amount", 0)), str(value.get("unit", ""))
    if unit == "months of charges":
        return amount / 12 * 100, "% of annual charges"
    return amount, unit


def _quote_overlaps(truth: str, quote: str) -> bool:
    a, b = normalised(truth).lower(), normalised(quote).lower()
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    words_a, words_b = set(re.findall(r"\w+", a)), set(re.findall(r"\w+", b))
    return len(words_a & words_b) >= 0.6 * min(len(words_a), len(words_b))


def matches(column: str, truth: Mapping[str, Any], cell: GridCell) -> bool:
    """Whether a stated grid cell says what the truth's stated cell says."""
    want, got = _iso(truth["value"]), cell.value
    if column == "counterparty":
        a, b = _name(want), _name(str(got))
        return bool(a and b) and (a == b or a in b or b in a)
    if column == "date":
        return str(got) == str(want)
    if column == "term":
        if want == "indefinite" or got == "indefinite":
            return want == got
        if not isinstance(got, dict) or not isinstance(want, dict):
            return False
        if "until" in want:
            return str(got.get("until")) == str(want["until"])
        return got.get("months") is not None and int(got["months"]) == int(want["months"])
    if column == "renewal":
        if want is False or got is False:
            return want is False and got is False
        if not isinstance(got, dict) or not isinstance(want, dict):
            return False
        same = bool(got.get("automatic")) == bool(want.get("automatic")) and \
            int(got.get("period_months") or 0) == int(want.get("period_months") or 0)
        if "notice" in want:
            same = same and _duration(got.get("notice")) == _duration(want["notice"])
        if "option" in want:
            same = same and _holder(got.get("option")) == _holder(want["option"])
        return same
    if column == "termination_for_convenience":
        if want is False:
            return got is False
        if not isinstance(got, dict) or not got.get("terminable"):
            return False
        same = _duration(got.get("notice")) == _duration(truth.get("notice"))
        if truth.get("by") and got.get("by"):
            same = same and got["by"] == truth["by"]
        return same
    if column == "liability_cap":
        if not isinstance(got, dict) or not isinstance(want, dict):
            return False
        (a, unit_a), (b, unit_b) = _cap_key(got), _cap_key(want)
        return unit_a == unit_b and abs(a - b) <= 0.01 * max(abs(b), 1)
    if column == "governing_law":
        return _name(str(got)) == _name(str(want))
    if isinstance(want, bool):
        return got is want
    return _quote_overlaps(str(truth.get("quote", "")), cell.quote)


def score_cell(score: ColumnScore, column: str, truth: Mapping[str, Any], cell: GridCell | None,
               *, verbatim: bool, where: str) -> None:
    """Count one (truth, grid) pair into the column's score."""
    said = cell is not None and cell.status is CellStatus.STATED
    if said:
        score.quotes += 1
        score.verbatim += verbatim
    if truth["value"] == NOT_STATED:
        if said:
            score.false_positive += 1
            score.misses.append(f"{where}: stated {cell.shown!r} where the truth is silent"
                                if cell else where)
        else:
            score.true_negative += 1
        return
    if not said:
        score.false_negative += 1
        score.misses.append(f"{where}: missed {truth['value']!r}")
        return
    assert cell is not None
    if matches(column, truth, cell):
        score.true_positive += 1
    else:
        score.false_positive += 1
        score.false_negative += 1
        score.misses.append(f"{where}: {cell.value!r} where the truth says {truth['value']!r}")
