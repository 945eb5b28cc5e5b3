"""A statement line named in quotes as the place another figure is carried ("… were $8.5
billion and are included in “Accrued expenses and other”") is no statement of that line: asked
for the line's figure, its own row leads. And a comparison of a line no vocabulary line item
names is searched by the question's words of that line too. Invented passages; no filing's
wording."""

from __future__ import annotations

from datetime import date

import pytest

from manda.agent.evidence import Evidence
from manda.agent.frame import compared_thing, read_question
from manda.agent.kinds import asks_contents, outside_containers
from manda.agent.spans import rank_spans
from manda.agent.unusual import pointing_parts
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="d1", deal_id="d", filename="Annual.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED,
               doc_date=date(2025, 12, 31))

CARRIED = ("As of December 31, 2024 and 2025, our total warranty reserves, which primarily relate "
           "to consumer electronics, were $1.2 billion and $1.6 billion and are included in "
           "“Accrued expenses and other” on our consolidated balance sheets.")
SHEET = "\n".join([
    "CONSOLIDATED BALANCE SHEETS",
    "(in millions, except per share data)",
    "December 31,",
    "2024 | 2025",
    "Current liabilities:",
    "Accounts payable | 2024: 9,120 | 2025: 9,804",
    "Accrued expenses and other | 2024: 40,215 | 2025: 44,380",
    "Unearned revenue | 2024: 3,010 | 2025: 3,377",
])
CLEAR_LEAD = 0.2  # the row's lead over the sentence: no near rival a nearer search could tip


def _evidence(*texts: str) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(20 + i), score=1.0)
            for i, text in enumerate(texts)]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


@pytest.mark.parametrize(("text", "left"), [
    (CARRIED, "were $1.2 billion and $1.6 billion and are"),
    ("Les provisions pour garantie de 3 M€ sont comptabilisées en « Autres charges » au bilan.",
     "Les provisions pour garantie de 3 M€ sont"),
    ("Die Rückstellungen von 2 Mio. € sind unter „Sonstige Verbindlichkeiten“ ausgewiesen.",
     "Die Rückstellungen von 2 Mio. €"),
    ("Las provisiones de 4 millones están incluidas en “Otros pasivos” del balance.",
     "Las provisiones de 4 millones están"),
])
def test_a_line_named_in_quotes_as_where_a_figure_is_carried_is_set_aside(
        text: str, left: str) -> None:
    rest = outside_containers(text)
    assert left in rest, rest
    assert "“" not in rest and "«" not in rest and "„" not in rest, rest


def test_a_line_named_without_quotes_or_as_the_subject_stays() -> None:
    said = "Accrued expenses and other were $44.4 billion, included in current liabilities."
    assert outside_containers(said) == said
    assert outside_containers("Revenue was $4.0 billion.") == "Revenue was $4.0 billion."


@pytest.mark.parametrize("question", [
    "What were Northwind's accrued expenses and other at December 31, 2025?",
    "How did Northwind's accrued expenses and other at December 31, 2025 compare with a "
     "year earlier?",
])
def test_the_lines_own_row_leads_over_a_sentence_that_names_it_as_a_place(question: str) -> None:
    ranked = rank_spans(read_question(question), _evidence(CARRIED, SHEET))
    top = ranked[0]
    assert top.row is not None and top.row.label == "Accrued expenses and other", top.text
    carried = next(s for s in ranked if s.row is None and "warranty" in s.text)
    assert top.score - carried.score > CLEAR_LEAD, (top.score, carried.score)


def test_what_a_line_carries_is_still_answered_by_the_sentence_that_says_it() -> None:
    question = "What is included in accrued expenses and other?"
    assert asks_contents(question)
    assert not asks_contents(
        "What were Northwind's accrued expenses and other at December 31, 2025?")


@pytest.mark.parametrize(("question", "thing"), [
    ("How did Northwind's accrued expenses and other at December 31, 2025 compare with a year "
     "earlier?", "accrued expenses other"),
    ("How did the company's deferred rent at June 30, 2023 compare with a year earlier?",
     "deferred rent"),
])
def test_a_comparison_names_the_line_it_compares_apart_from_its_periods(
        question: str, thing: str) -> None:
    assert compared_thing(read_question(question)) == thing


def test_a_sentence_pointing_back_states_its_own_figure_on_its_own() -> None:
    """"… net income was $9.10 million … This included a one-time gain of $2.40 million …":
    `sentences` keeps the two together; the part pointing back is also read alone, so a
    question asking its figure is led by it, not by the earlier figure."""
    text = ("In 2025, net income was $9.10 million, an increase of $1.30 million on the prior "
            "year. This included a one-time gain of $2.40 million on the sale of the Leeds "
            "depot.")
    assert pointing_parts(text) == [(
        "This included a one-time gain of $2.40 million on the sale of the Leeds depot.",
        "In 2025, net income was $9.10 million, an increase of $1.30 million on the prior "
        "year.")]
    top = rank_spans(read_question("How big was the one-time gain on the depot sale in 2025?"),
                     _evidence(text))[0]
    assert top.text.startswith("This included a one-time gain of $2.40 million"), top.text
    assert top.dated_by == frozenset({2025})


def test_a_figure_asked_of_a_metric_no_finding_holds_is_the_sentence_that_states_it() -> None:
    """"How big was the one-time tax benefit …?" names a metric (one-time items) and a topic
    (tax): where no finding holds the metric, the sentence stating the figure answers, not the
    tax topic's statements — as a figure asked of a topic alone is answered."""
    from manda.agent.compose.common import Ask
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence(
        "Tax audits: our income tax returns are subject to examination by the tax authorities, "
        "and an adverse outcome could increase our provision for income taxes.",
        "In 2025, net income was $9.10 million. This included a one-time non-cash tax benefit "
        "of $2.40 million for the release of a valuation allowance.")
    ask = Ask.of(read_question("How big was the one-time non-cash tax benefit the company booked "
                               "in 2025 for releasing its valuation allowance?"))
    first = compose(ask, evidence).text.splitlines()[0]
    assert "$2.40 million" in first, first
