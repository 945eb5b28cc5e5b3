"""Real 10-K pages: the evidence page of an analyst's question is in the top 5 for at least 80%.

The probe (evals/retrieval/) holds SEC 10-K text stored page by page and 40 questions whose
evidence snippet is checked here against the stored page. The slow test renders the filings to
PDFs, ingests them with the embedded defaults and asks every question, through the search the app
wires (default FusionWeights, graph expansion on) and through the fusion alone.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from manda.app import Manda
from manda.config import Settings
from manda.retrieval.hybrid import FusionWeights, HybridSearch

REPO = Path(__file__).resolve().parents[2]
TARGET = 0.8


def _load_probe() -> ModuleType:
    """bench/ is a folder of scripts, not a package: load its shared helpers by path."""
    name = "manda_bench_probe"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / "_probe.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


probe = _load_probe()


def _normalise(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split())


def test_the_probe_ships_real_filings_with_their_provenance() -> None:
    records = probe.load_filings()
    assert len(records) >= 2
    for record in records:
        source = record["source"]
        assert source["package"] and source["version"] and source["path"].endswith(".pdf")
        assert len(source["sha256"]) == 64 and "public" in record["license"]
        assert record["filing"]["form"] in {"10-K", "10-Q"} and record["filing"]["accession"]
        assert len(record["pages"]) >= 10 and all(isinstance(p, str) for p in record["pages"])
    provenance = (probe.EVALS / "PROVENANCE.md").read_text(encoding="utf-8")
    for record in records:
        assert record["source"]["sha256"] in provenance


def test_every_question_has_its_evidence_on_the_page_it_names() -> None:
    pages = {r["filename"]: r["pages"] for r in probe.load_filings()}
    questions = probe.filing_questions()
    assert 25 <= len(questions) <= 40
    assert len({q["id"] for q in questions}) == len(questions)
    for q in questions:
        document = pages[q["document"]]
        assert all(1 <= page <= len(document) for page in q["pages"]), q["id"]
        first = _normalise(document[q["pages"][0] - 1])
        assert _normalise(q["evidence"]) in first, q["id"]


def test_rendering_keeps_one_pdf_page_per_stored_page(tmp_path: Path) -> None:
    from pypdf import PdfReader

    record = probe.load_filings()[0]
    pdf = probe.render_filing(record, tmp_path)
    assert len(PdfReader(pdf).pages) == len(record["pages"])
    assert probe.render_filing(record, tmp_path).read_bytes() == pdf.read_bytes()


@pytest.mark.slow
async def test_the_evidence_page_is_in_the_top_five_for_most_questions(tmp_path: Path) -> None:
    filings = probe.filings_probe(tmp_path / "filings")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        assert await probe.ingest_probe(app, filings) == []
        fused_only = HybridSearch(
            graph=app.graph, embedder=app.embedder, weights=FusionWeights(), expand_graph=False
        )
        as_wired = await probe.measure(app.search, filings, k=5)
        fusion = await probe.measure(fused_only, filings, k=5)
    assert fusion.at(5) >= TARGET, f"fusion alone missed: {fusion.misses(5)}"
    assert as_wired.at(5) >= TARGET, f"app search missed: {as_wired.misses(5)}"
