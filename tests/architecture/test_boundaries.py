"""The domain never knows Slack: `src/manda` imports neither slack_bolt nor slack_sdk."""

from __future__ import annotations

import ast
from pathlib import Path

import manda

FORBIDDEN = ("slack_bolt", "slack_sdk", "bot")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_domain_package_never_imports_slack() -> None:
    root = Path(manda.__file__).parent
    offenders = {
        str(path.relative_to(root)): sorted(_imports(path) & set(FORBIDDEN))
        for path in root.rglob("*.py")
        if _imports(path) & set(FORBIDDEN)
    }
    assert list(root.rglob("*.py")), "the domain package has modules to check"
    assert offenders == {}


def _manda_imports(path: Path) -> set[str]:
    """The `manda.*` modules a file imports, at any depth (function-level imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("manda."))
        elif (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
              and node.module.startswith("manda.")):
            names.add(node.module)
    return names


def _offenders(package: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    root = Path(manda.__file__).parent / package
    files = list(root.rglob("*.py"))
    assert files, f"manda.{package} has modules to check"
    found: dict[str, list[str]] = {}
    for path in files:
        bad = sorted(m for m in _manda_imports(path) if m.startswith(forbidden))
        if bad:
            found[str(path.relative_to(root.parent))] = bad
    return found


def test_model_adapters_do_not_import_the_agent() -> None:
    """`manda.llm` holds model adapters only; the per-intent plan lives in the agent."""
    assert _offenders("llm", ("manda.agent", "manda.ingest", "manda.retrieval")) == {}


def test_deal_vocabulary_sits_below_ingestion_retrieval_and_agent() -> None:
    """Amounts, periods and metric names are shared: `manda.finance` imports none of their users."""
    users = ("manda.ingest", "manda.retrieval", "manda.agent", "manda.kg", "manda.llm")
    assert _offenders("finance", users) == {}
