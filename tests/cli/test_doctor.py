"""`manda doctor` names each port's adapter and says what is wrong and how to fix it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from manda.cli.doctor import run_checks
from manda.config import Settings


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_embedded_defaults_are_all_healthy(tmp_path: Path) -> None:
    checks = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path))}
    assert {"graph", "memory", "embeddings", "jobs", "model", "extraction", "slack"} <= set(checks)
    assert all(checks[p].ok for p in ("graph", "memory", "embeddings", "jobs", "model"))
    assert checks["graph"].adapter == "embedded" and checks["model"].adapter == "offline"
    assert checks["cim"].ok and checks["cim"].adapter == "extractive"
    assert not checks["slack"].ok and "SLACK_BOT_TOKEN" in checks["slack"].problem
    assert checks["access"].ok and "MANDA_DEAL_ADMINS" in checks["access"].warning


async def test_deal_admins_silence_the_access_warning(tmp_path: Path) -> None:
    settings = Settings(MANDA_HOME=tmp_path, MANDA_DEAL_ADMINS="U01ABC, U02DEF")
    checks = {c.port: c for c in await run_checks(settings)}
    assert settings.deal_admins == {"U01ABC", "U02DEF"}
    assert checks["access"].adapter == "deal admins" and not checks["access"].warning


async def test_doctor_names_the_ocr_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    checks = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path))}
    if shutil.which("tesseract"):
        assert checks["ocr"].ok and checks["ocr"].adapter.startswith("tesseract (tesseract 5")
    off = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path, MANDA_OCR="off"))}
    assert off["ocr"].adapter == "off" and off["ocr"].ok

    monkeypatch.setattr(shutil, "which", lambda name: None)  # no tesseract on this machine
    missing = {
        c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path, MANDA_OCR="tesseract"))
    }
    assert missing["ocr"].adapter == "none" and not missing["ocr"].ok
    assert "apt-get install tesseract-ocr" in missing["ocr"].problem


async def test_doctor_names_the_dense_engine_and_its_crossover(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from manda.errors import MandaError
    from manda.kg.embedded import ivf

    checks = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path))}
    assert checks["dense"].ok and checks["dense"].adapter.startswith("numpy exact + faiss 1.")
    assert "below 50,000 vectors a deal" in checks["dense"].detail
    exact = Settings(MANDA_HOME=tmp_path, MANDA_DENSE_ENGINE="exact")
    assert {c.port: c for c in await run_checks(exact)}["dense"].adapter == "numpy exact"

    def missing() -> None:
        raise MandaError("faiss is not installed")

    monkeypatch.setattr(ivf, "faiss_module", missing)  # a broken install is never silent
    dense = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path))}["dense"]
    assert not dense.ok and "pip install faiss-cpu" in dense.problem


async def test_an_unreachable_redis_is_reported_with_the_fix(tmp_path: Path) -> None:
    settings = Settings(MANDA_HOME=tmp_path, REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0")
    checks = {c.port: c for c in await run_checks(settings)}
    for port in ("memory", "jobs"):
        assert checks[port].adapter == "redis"
        assert not checks[port].ok
        assert "REDIS_URL" in checks[port].problem


@pytest.mark.parametrize("argv", [["doctor"]])
def test_doctor_exit_code(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from manda.cli import main

    monkeypatch.setenv("MANDA_HOME", str(tmp_path))
    assert main(argv) == 0
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{closed_port()}/0")
    assert main(argv) == 1


async def test_doctor_says_where_the_keyword_indexes_are_saved_and_their_state(
    tmp_path: Path,
) -> None:
    from manda.kg.embedded import EmbeddedKnowledgeGraph
    from manda.models import Chunk, Deal, Location

    graph = EmbeddedKnowledgeGraph(tmp_path / "manda.db")  # the home's store, in another process
    await graph.start()
    try:
        await graph.upsert_deal(Deal(id="falcon"))
        await graph.add_chunks("falcon", [Chunk(id="c1", deal_id="falcon", document_id="d",
                                                ordinal=0, text="revenue",
                                                location=Location.for_page(1))])
        check = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path))}["keyword"]
        assert check.ok and check.adapter.startswith("tantivy ")
        assert f"saved in {tmp_path / 'keyword-index'}" in check.detail
        assert "falcon not saved yet" in check.detail
        await graph.fulltext_search("falcon", "revenue", 5)  # built and saved
        check = {c.port: c for c in await run_checks(Settings(MANDA_HOME=tmp_path))}["keyword"]
        assert "falcon up to date" in check.detail
    finally:
        await graph.aclose()


def test_doctor_wraps_what_matters_instead_of_cutting_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Piped (as here) or in an 80-column terminal, a model id, a path and a hint are printed
    whole, wrapped between words; `--json` gives the same checks to scripts."""
    import json

    from manda.cli import main

    home = tmp_path / "a-deal-team-home-folder-whose-name-is-longer-than-any-table-cell-allows"
    model = "claude-nonexistent-model-id-for-the-doctor-test"
    monkeypatch.setenv("MANDA_HOME", str(home))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("MANDA_CLAUDE_MODEL", model)
    monkeypatch.setenv("MANDA_MODEL_MAX_RETRIES", "0")
    assert main(["doctor"]) == 1  # the model cannot be reached
    printed = capsys.readouterr().out
    assert "…" not in printed
    assert model in printed and str(home) in printed  # whole, each on one line
    assert "check ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and MANDA_CLAUDE_MODEL" in " ".join(
        printed.split())

    assert main(["doctor", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["home"] == str(home) and report["ok"] is False
    checks = {c["port"]: c for c in report["checks"]}
    assert checks["model"]["detail"] == model and not checks["model"]["ok"]
    assert set(checks["graph"]) == {"port", "adapter", "detail", "ok", "problem", "warning"}
