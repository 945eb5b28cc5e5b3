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


BOT = Path(manda.__file__).parents[2] / "bot"
# The stores and the services over them: the Slack adapter reaches them through `manda.deals`.
STORE_MODULES = ("manda.kg", "manda.memory", "manda.hitl", "manda.jobs.")
STORE_ATTRIBUTES = {"graph", "memory", "review", "qa", "ingest", "jobs", "job_queue"}


def _store_reaches(path: Path) -> list[str]:
    """`manda.graph`-like attribute chains: a listener using a store behind the deal service."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute) or node.attr not in STORE_ATTRIBUTES:
            continue
        owner = node.value
        name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
        if name == "manda":
            found.append(f"line {node.lineno}: manda.{node.attr}")
    return found


def test_the_slack_adapter_imports_no_store_internals() -> None:
    """`bot/` calls named deal operations (`manda.deals`), never the graph, memory or queue."""
    files = list(BOT.rglob("*.py"))
    assert len(files) > 20, "the Slack adapter has modules to check"
    offenders = {
        str(path.relative_to(BOT)): bad
        for path in files
        if (bad := sorted(m for m in _manda_imports(path) if m.startswith(STORE_MODULES)))
    }
    assert offenders == {}


def test_the_slack_adapter_never_reaches_a_store_through_the_app() -> None:
    offenders = {
        str(path.relative_to(BOT)): found
        for path in BOT.rglob("*.py")
        if (found := _store_reaches(path))
    }
    assert offenders == {}


# Still typed on the whole port, to be narrowed to roles when their owners next touch them.
WHOLE_PORT_ALLOWED = {
    "app.py",
    "agent/context.py",
    "agent/gaps.py",
    "ingest/service.py",
    "irl/service.py",
}


def test_consumers_are_typed_on_the_store_roles_they_use() -> None:
    """`KnowledgeGraph` (every role at once) is for adapters and the composition root; services
    name the roles they read (`Corpus`, `Search`, `Findings`, `ReviewLog`, `QAList`, ...)."""
    root = Path(manda.__file__).parent
    whole = {
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.relative_to(root).parts[0] != "kg"
        and any(
            isinstance(node, ast.ImportFrom)
            and node.module == "manda.kg.port"
            and any(alias.name == "KnowledgeGraph" for alias in node.names)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    }
    assert whole <= WHOLE_PORT_ALLOWED, whole - WHOLE_PORT_ALLOWED
    assert {"hitl/qa.py", "hitl/review.py", "deals/service.py", "retrieval/hybrid.py"}.isdisjoint(
        whole
    )
