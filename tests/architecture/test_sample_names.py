"""Product code knows no sample room: no deal id or company name of `manda.sample` in its strings.

A rule that only holds because it names the room it was tuned on is a defect, so every string
literal of `src/manda` (outside the sample rooms themselves and the test doubles) is read with
`ast` — comments and docstrings may name a room as an example, code may not. What product code
needs of a room (the demo's deal, the eval dataset's default) it imports from `manda.sample`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import manda
from manda.sample.generate import COMPANIES, EVAL_ONLY_DEALS, SAMPLE_DEALS

ROOT = Path(manda.__file__).parent
ALLOWED = ("sample", "testing")  # the rooms and their ground truth; the local fakes


def _room_names() -> set[str]:
    """Each room's deal id, its company's name and that name's first word ("Halyard")."""
    names = {*SAMPLE_DEALS, *EVAL_ONLY_DEALS}
    for company in COMPANIES.values():
        names |= {company, company.split()[0].strip(",")}
    return names


NAMES = _room_names()
_NAMED = re.compile(r"(?<![\w])(?:" + "|".join(
    re.escape(n) for n in sorted(NAMES, key=len, reverse=True)) + r")(?![\w])", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def names_in(source: str) -> list[tuple[int, str]]:
    """(line, name) of each room name a string literal of `source` holds (f-strings included,
    docstrings and comments not)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return sorted((node.lineno, m.group(0)) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip for m in _NAMED.finditer(node.value))


def test_the_names_come_from_every_room() -> None:
    assert {"targetco", "northwind", "pennine", "halyard", "TargetCo GmbH"} <= NAMES
    assert len(COMPANIES) == len(SAMPLE_DEALS) + len(EVAL_ONLY_DEALS)


def test_the_scan_reads_strings_not_comments_or_docstrings() -> None:
    source = ('"""About TargetCo."""\n# Halyard, say\n'
              'def f(deal):\n    """For northwind."""\n'
              '    return f"deal-{deal}" if deal else "Pennine Precision Engineering Ltd"\n'
              'DEFAULT = "targetco"\nOK = "a segurança"\n')
    assert names_in(source) == [(5, "Pennine Precision Engineering Ltd"), (6, "targetco")]


def test_product_code_names_no_sample_room() -> None:
    files = [p for p in ROOT.rglob("*.py") if p.relative_to(ROOT).parts[0] not in ALLOWED]
    assert len(files) > 100, "the product code has modules to check"
    found = {f"{path.relative_to(ROOT)}:{line}": name for path in files
             for line, name in names_in(path.read_text(encoding="utf-8"))}
    assert found == {}, ("product code names a sample room; take what it needs from "
                         "manda.sample, or make the rule hold for any room")
