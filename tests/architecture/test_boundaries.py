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
