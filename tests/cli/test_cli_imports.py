"""The command line starts fast: importing it loads no model SDK, agent framework or ONNX runtime.

`manda --help` and `manda search` must not pay for anthropic, langgraph or onnxruntime at import
(issue 16: ~6 s before); those load only inside the commands that use them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("anthropic", "langgraph", "onnxruntime", "pypdf", "openpyxl", "docx", "pptx", "reportlab")


def _modules_after(statement: str) -> set[str]:
    probe = f"import sys\n{statement}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True, timeout=120
    )
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("module", ["manda.cli", "bot.cli", "manda.app"])
def test_importing_the_cli_loads_no_heavy_library(module: str) -> None:
    loaded = _modules_after(f"import {module}")
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert not heavy, f"`import {module}` loaded {heavy[:8]}"


def test_building_the_help_loads_no_heavy_library() -> None:
    loaded = _modules_after(
        "import bot.cli, contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    bot.cli.main(['--help'])"
    )
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert not heavy, f"`manda --help` loaded {heavy[:8]}"
