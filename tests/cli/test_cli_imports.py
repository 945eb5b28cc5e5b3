"""The command line starts fast: importing it loads no model SDK, agent framework or ONNX runtime.

`manda --help` and `manda search` must not pay for anthropic, langgraph or onnxruntime at import
(issue 16: ~6 s before); those load only inside the commands that use them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_a_search_loads_no_model_sdk_nor_agent_framework(tmp_path: Path) -> None:
    """`manda search` runs the embedder (onnxruntime) but never the agent or Claude's SDK."""
    loaded = _modules_after(
        "import asyncio, contextlib, io, os\n"
        f"os.environ['MANDA_HOME'] = {str(tmp_path)!r}\n"
        "from manda.app import Manda\n"
        "from manda.config import Settings\n"
        "from manda.models import Deal\n"
        "async def deal():\n"
        "    async with Manda(Settings(), workflows=False) as app:\n"
        "        await app.graph.upsert_deal(Deal(id='falcon', name='falcon'))\n"
        "asyncio.run(deal())\n"
        "import bot.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert bot.cli.main(['search', '--deal', 'falcon', 'Q3 revenue']) == 0"
    )
    agent = ("anthropic", "langgraph", "langchain_core")
    heavy = sorted(m for m in loaded if m.split(".")[0] in agent)
    assert not heavy, f"`manda search` loaded {heavy[:8]}"
