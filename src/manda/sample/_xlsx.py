"""Saves workbooks whose formula cells also carry their computed (cached) values.

openpyxl writes formulas with an empty cached value, so any reader that opens the file with
`data_only=True` (as an ingestion pipeline does) sees `None` where Excel would show a total.
We evaluate the small formula language the sample uses (cell references, `SUM(range)`, + - * /)
and write each result into the sheet XML, as Excel does when it saves.
"""

from __future__ import annotations

import ast
import operator
import re
import zipfile
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from xml.etree import ElementTree

from openpyxl import Workbook
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample._package import rewrite_package

_SUM = re.compile(r"SUM\((\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+)\)")
_FUNCTION = re.compile(r"([A-Z][A-Z0-9.]*)\(")
_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)")
_OPS: dict[type, Callable[..., float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.USub: operator.neg, ast.UAdd: operator.pos,
}
_NS = {
    "m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}


def save_workbook(workbook: Workbook, path: Path, *, issued: date, author: str) -> None:
    """Save with cached formula values and pinned dates, so the bytes are reproducible."""
    stamp = datetime(issued.year, issued.month, issued.day, 9, 0, 0)
    workbook.properties.creator = author
    workbook.properties.lastModifiedBy = author
    workbook.properties.created = stamp
    workbook.properties.modified = stamp
    values = {ws.title: formula_values(ws) for ws in workbook.worksheets}
    workbook.save(path)
    with zipfile.ZipFile(path) as package:
        parts = _sheet_parts(package)
    transforms = {
        parts[title]: _cache_injector(title, cells) for title, cells in values.items() if cells
    }
    rewrite_package(path, issued, transforms)


def formula_values(ws: Worksheet) -> dict[str, float]:
    """Evaluate every formula cell of `ws`; raise on a formula outside the supported subset."""
    cache: dict[str, float] = {}

    def value(ref: str, trail: tuple[str, ...]) -> float:
        if ref in cache:
            return cache[ref]
        if ref in trail:
            raise ValueError(f"{ws.title}!{ref}: circular reference via {' -> '.join(trail)}")
        raw = ws[ref].value
        if isinstance(raw, str) and raw.startswith("="):
            result = _evaluate(raw, lambda r: value(r, (*trail, ref)), f"{ws.title}!{ref}")
            cache[ref] = result
            return result
        if raw is None:
            return 0.0
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise ValueError(f"{ws.title}!{ref}: a formula refers to non-numeric {raw!r}")
        return float(raw)

    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                value(cell.coordinate, ())
    return cache


def _evaluate(formula: str, value: Callable[[str], float], where: str) -> float:
    expr = formula[1:]
    if "!" in expr:
        raise ValueError(f"{where}: cross-sheet formulas are not supported: {formula}")

    def sum_range(match: re.Match[str]) -> str:
        min_col, min_row, max_col, max_row = range_boundaries(match.group(1).replace("$", ""))
        refs = [
            f"{_column(col)}{row}"
            for row in range(min_row, max_row + 1)  # type: ignore[operator]
            for col in range(min_col, max_col + 1)  # type: ignore[operator]
        ]
        return "(" + "+".join(f"({value(r)!r})" for r in refs) + ")"

    functions = set(_FUNCTION.findall(expr)) - {"SUM"}
    if functions:
        raise ValueError(f"{where}: unsupported function(s) {sorted(functions)} in {formula}")
    expr = _SUM.sub(sum_range, expr)
    expr = _REF.sub(lambda m: f"({value(m.group(1) + m.group(2))!r})", expr)
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{where}: cannot evaluate {formula}") from exc
    return round(_arithmetic(tree.body, where), 10)


def _arithmetic(node: ast.AST, where: str) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_arithmetic(node.left, where), _arithmetic(node.right, where))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_arithmetic(node.operand, where))
    raise ValueError(f"{where}: unsupported formula element {ast.dump(node)}")


def _column(index: int) -> str:
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _sheet_parts(package: zipfile.ZipFile) -> dict[str, str]:
    """Map sheet titles to their part names via workbook.xml and its relationships."""
    workbook = ElementTree.fromstring(package.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(package.read("xl/_rels/workbook.xml.rels"))
    targets = {
        rel.get("Id"): rel.get("Target", "") for rel in rels.findall("rel:Relationship", _NS)
    }
    parts: dict[str, str] = {}
    for sheet in workbook.findall("m:sheets/m:sheet", _NS):
        target = targets[sheet.get(f"{{{_NS['r']}}}id")].lstrip("/")
        parts[sheet.get("name", "")] = target if target.startswith("xl/") else f"xl/{target}"
    return parts


def _cache_injector(title: str, cells: dict[str, float]) -> Callable[[bytes], bytes]:
    def inject(xml: bytes) -> bytes:
        for ref, result in cells.items():
            pattern = re.compile(
                rb'(<c r="' + ref.encode() + rb'"(?: [^>]*)?>)(<f>[^<]*</f>)<v\s*(?:/>|>\s*</v>)'
            )
            number = int(result) if float(result).is_integer() else result
            xml, count = pattern.subn(
                lambda m, n=number: m.group(1) + m.group(2) + f"<v>{n!r}</v>".encode(), xml
            )
            if count != 1:
                raise ValueError(f"{title}!{ref}: expected one formula cell to fill, found {count}")
        return xml

    return inject

