"""Evaluate the simple formulas a workbook saved without results: `=SUM(B2:B4)`, `=B5-B6*2`.

Workbooks written by scripts (and some exporters) store formulas without cached values. Arithmetic
and SUM/MIN/MAX/AVERAGE over cells is common enough in financial sheets to be worth evaluating;
anything else raises FormulaError and the caller keeps the formula text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from openpyxl.utils.cell import column_index_from_string


class FormulaError(ValueError):
    """The formula uses something this evaluator does not handle, or a cell that is not a number."""


@dataclass(frozen=True)
class CellRange:
    sheet: str | None  # None: the formula's own sheet
    min_row: int
    min_col: int
    max_row: int
    max_col: int

    @property
    def single(self) -> bool:
        return self.min_row == self.max_row and self.min_col == self.max_col


# Values of the cells in a range, row by row (None for empty cells).
CellValues = Callable[[CellRange], list[object]]

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<func>[A-Za-z][A-Za-z0-9.]*)\s*\(
    | (?P<ref>(?:(?P<sheet>'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?
              \$?(?P<c1>[A-Za-z]{1,3})\$?(?P<r1>\d+)
              (?::\$?(?P<c2>[A-Za-z]{1,3})\$?(?P<r2>\d+))?)
    | (?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?%?|\.\d+%?)
    | (?P<op>[-+*/(),])
    )""",
    re.VERBOSE,
)
_FUNCTIONS = {"SUM", "MIN", "MAX", "AVERAGE"}


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    ref: CellRange | None = None


def _tokens(formula: str) -> Iterator[_Tok]:
    text = formula.strip().removeprefix("=")
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            return
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise FormulaError(f"cannot read {text[pos:pos + 12]!r}")
        pos = m.end()
        if m.group("func"):
            yield _Tok("func", m.group("func").upper())
        elif m.group("ref"):
            yield _Tok("ref", m.group("ref"), _to_range(m))
        elif m.group("num"):
            yield _Tok("num", m.group("num"))
        else:
            yield _Tok("op", m.group("op"))


def _to_range(m: re.Match[str]) -> CellRange:
    sheet = m.group("sheet")
    if sheet and sheet.startswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    r1, c1 = int(m.group("r1")), column_index_from_string(m.group("c1").upper())
    r2 = int(m.group("r2")) if m.group("r2") else r1
    c2 = column_index_from_string(m.group("c2").upper()) if m.group("c2") else c1
    return CellRange(sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


class _Parser:
    """Recursive descent over: expr := term (+|- term)*; term := factor (*|/ factor)*."""

    def __init__(self, formula: str, values: CellValues) -> None:
        self._toks = list(_tokens(formula))
        self._i = 0
        self._values = values

    def run(self) -> float:
        result = self._expr()
        if self._i != len(self._toks):
            raise FormulaError("unexpected trailing input")
        return result

    def _peek(self) -> _Tok | None:
        return self._toks[self._i] if self._i < len(self._toks) else None

    def _take(self) -> _Tok:
        tok = self._peek()
        if tok is None:
            raise FormulaError("formula ends early")
        self._i += 1
        return tok

    def _expect(self, op: str) -> None:
        tok = self._take()
        if tok.kind != "op" or tok.text != op:
            raise FormulaError(f"expected {op!r}")

    def _expr(self) -> float:
        value = self._term()
        while (tok := self._peek()) is not None and tok.kind == "op" and tok.text in "+-":
            self._i += 1
            rhs = self._term()
            value = value + rhs if tok.text == "+" else value - rhs
        return value

    def _term(self) -> float:
        value = self._factor()
        while (tok := self._peek()) is not None and tok.kind == "op" and tok.text in "*/":
            self._i += 1
            rhs = self._factor()
            if tok.text == "/" and rhs == 0:
                raise FormulaError("division by zero")
            value = value * rhs if tok.text == "*" else value / rhs
        return value

    def _factor(self) -> float:
        tok = self._take()
        if tok.kind == "op" and tok.text in "+-":
            value = self._factor()
            return -value if tok.text == "-" else value
        if tok.kind == "op" and tok.text == "(":
            value = self._expr()
            self._expect(")")
            return value
        if tok.kind == "num":
            if tok.text.endswith("%"):
                return float(tok.text[:-1]) / 100
            return float(tok.text)
        if tok.kind == "ref" and tok.ref is not None:
            if not tok.ref.single:
                raise FormulaError("a range outside a function")
            return _as_number(self._values(tok.ref)[0])
        if tok.kind == "func":
            return self._function(tok.text)
        raise FormulaError(f"unexpected {tok.text!r}")

    def _function(self, name: str) -> float:
        if name not in _FUNCTIONS:
            raise FormulaError(f"function {name} is not evaluated")
        numbers: list[float] = []
        while True:
            tok = self._peek()
            if tok is not None and tok.kind == "ref" and tok.ref is not None and self._arg_ends(1):
                self._i += 1
                numbers.extend(_numbers_in(self._values(tok.ref)))
            else:
                numbers.append(self._expr())
            sep = self._take()
            if sep.kind == "op" and sep.text == ")":
                break
            if not (sep.kind == "op" and sep.text == ","):
                raise FormulaError("expected ',' or ')'")
        return _apply(name, numbers)

    def _arg_ends(self, ahead: int) -> bool:
        j = self._i + ahead
        return j < len(self._toks) and self._toks[j].kind == "op" and self._toks[j].text in ",)"


def _numbers_in(values: list[object]) -> list[float]:
    """Like Excel's SUM over a range: numbers count, text, booleans and blanks are skipped."""
    return [float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)]


def _as_number(value: object) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    raise FormulaError(f"cell holds {type(value).__name__}, not a number")


def _apply(name: str, numbers: list[float]) -> float:
    if name == "SUM":
        return sum(numbers)
    if not numbers:
        if name == "AVERAGE":
            raise FormulaError("AVERAGE of nothing")
        return 0.0
    if name == "MIN":
        return min(numbers)
    if name == "MAX":
        return max(numbers)
    return sum(numbers) / len(numbers)


def evaluate(formula: str, values: CellValues) -> float:
    """The formula's value, reading cells through `values`; FormulaError if it cannot be done."""
    return _Parser(formula, values).run()
