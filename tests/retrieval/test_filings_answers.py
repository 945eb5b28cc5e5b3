"""The filings answer key: every key fact is on its evidence page, and the checker reads figures.

The key (evals/retrieval/filings_answers.json) was written from the evidence snippets and pages
before any answer was run; bench/filings_answers.py asks every question and scores the answers
with the checker tested here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from manda.answers import Answer, Citation, Intent

REPO = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    """bench/ is a folder of scripts, not a package: load its helpers by path."""
    module_name = f"manda_bench_{name.strip('_')}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


probe = _load("_probe")
key = _load("_answer_key")


def test_every_question_has_a_key_and_every_fact_is_on_its_evidence_pages() -> None:
    keys = key.load_key()
    questions = probe.filing_questions()
    assert {q["id"] for q in questions} == set(keys)
    pages = {r["filename"]: r["pages"] for r in probe.load_filings()}
    missing = []
    for q in questions:
        entry = keys[q["id"]]
        assert entry.document == q["document"] and list(entry.pages) == q["pages"]
        assert entry.facts, q["id"]
        text = "\n".join(pages[q["document"]][p - 1] for p in q["pages"])
        stated = entry.facts[1:] if entry.computed else entry.facts
        assert len(stated) >= (2 if entry.computed else 1), q["id"]  # a result has its inputs
        missing += [(q["id"], alts) for alts in stated if not key.states_fact(text, alts)]
    assert not missing


@pytest.mark.parametrize(("text", "alternative"), [
    ("Revenue was $416,161M in FY2025.", "$416.2 billion"),
    ("Revenue was $416.16bn.", "$416.2 billion"),
    ("Total net sales 416,161 391,035", "416,161"),
    ("grew 22.0% to $111.6bn", "22%"),
    ("Greater China 64,377 (4)% 66,952", "(4)%"),
    ("capex of 28107000000.0", "$28.1 billion"),
    ("1,808,581 vehicles", "1.81 million"),
    ("audited by Ernst & Young LLP", "Ernst & Young"),
    ("uses LIFO.", "lifo"),
])
def test_a_figure_or_words_the_key_accepts(text: str, alternative: str) -> None:
    assert key.states(text, alternative)


@pytest.mark.parametrize(("text", "alternative"), [
    ("Total assets $352,755M", "$352.6 billion"),  # the other year's column
    ("margin was 2.2%", "22%"),
    ("EPS $19.81", "9.81"),
    ("$129 million", "129,000"),
    ("Revenue was 416,161 thousand", "$416.2 billion"),
    ("a 22% stake worth $22", "$22 billion"),
    ("the keys", "EY"),
])
def test_a_figure_or_words_the_key_refuses(text: str, alternative: str) -> None:
    assert not key.states(text, alternative)


def _answer(text: str, *citations: tuple[str, int | None]) -> Answer:
    return Answer(answer=text, intent=Intent.FACT_LOOKUP, conversation_id="c",
                  citations=[Citation(document=d, location=f"p.{p}", page=p, excerpt="")
                             for d, p in citations])


def test_an_answer_is_right_when_its_first_line_states_the_fact_and_it_cites_the_page() -> None:
    entry = key.Key("q", "Apple.pdf", (24, 25), (("$416.2 billion",), ("6%",)))
    right = key.score(entry, "dev", _answer(
        "Total net sales were $416,161M in FY2025, up 6% (source: Apple.pdf, p.24).",
        ("Apple.pdf", 24)))
    assert right.right and not right.not_found
    elsewhere = key.score(entry, "dev", _answer(
        "Net sales grew.\nTotal net sales were $416.2bn, up 6%.", ("Apple.pdf", 3)))
    assert elsewhere.in_answer and not elsewhere.in_first_line
    assert elsewhere.cites_document and not elsewhere.cites_page and not elsewhere.right
    missing = key.score(entry, "dev", _answer(
        "I searched the 6 documents and found nothing that answers this.", ("Other.pdf", 24)))
    assert missing.not_found and not missing.cites_document and not missing.in_answer


def test_a_lead_stating_another_figure_for_the_metric_is_counted_wrong() -> None:
    answer_key = _load("_answer_key")
    key = answer_key.Key("q", "Filing.pdf", (24,), (("128,725", "$128.7 billion"),))
    wrong = answer_key.states_wrong_figure
    assert wrong("Revenue was $4.4 billion in FY2025 (source: Filing.pdf, p.24).", key)
    assert not wrong("AWS was $128.73 billion in 2025, against $107.56 billion in 2024.", key)
    assert not wrong("Filing.pdf states: “AWS sales grew in 2025.” (source: Filing.pdf, p.24)",
                     key)  # no figure stated: not a wrong one
    words = answer_key.Key("w", "Filing.pdf", (3,), (("channel inventory",),))
    assert not wrong("Revenue fell 25% in FY2023.", words)  # the answer asked is no figure
