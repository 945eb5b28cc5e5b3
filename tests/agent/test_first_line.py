"""An answer's first line is the fact asked, never a heading, a bare table header or a caption
(issue 25): a topic's overview, the covenant template, a comparison table and a table's caption
each give way to the sentence or row that answers a question asking one thing; a question that
asks for the overview keeps it. The companies, passages and tables are written for the tests."""

from __future__ import annotations

import pytest
from test_filings_leads import DOC, _ask, _evidence

from manda.agent.compose import comparison, topics
from manda.agent.compose.common import Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.first_line import opens_with_heading
from manda.agent.compose.leads import led_by_best_span
from manda.agent.evidence import Evidence
from manda.agent.spans import best_spans, captions_table, rank_spans
from manda.models import (
    Confidence,
    Finding,
    FindingKind,
    Location,
    Nature,
)


def _first(text: str) -> str:
    return next(line for line in text.splitlines() if line.strip())


def test_a_heading_a_header_row_and_a_lead_in_open_no_answer() -> None:
    assert opens_with_heading("Environmental matters in the documents:\n- a statement")
    assert opens_with_heading("| Metric | FY2023 | FY2024 | Variance |\n|---|---|---|---|")
    assert opens_with_heading("\n**Facilities, lenders and maturities**\n- a facility")
    assert opens_with_heading("The documents mention the covenants without stating their "
                              "levels:\n\n- a sentence")
    assert not opens_with_heading("Revenue was €5.2M in Q3 2024 (source: Q3.pdf, p.1).")
    assert not opens_with_heading("The term loan: original principal £5.0m as of 14 June 2023")


# (the passages, the shape's heading-first draft, a question asking one thing, what its first
# line states, a question asking for the overview, which keeps it)
LED = [
    (("In 2024 Halvorsen agreed to pay a civil penalty of NOK 48 million to settle the emissions "
      "investigation opened by the environment agency in 2022.",
      "Our plants hold ISO 14001 certificates and report their emissions every quarter."),
     "Environmental matters in the documents:\n- Our plants hold ISO 14001 certificates "
     "(source: Annual.pdf, p.31)",
     "What penalty did Halvorsen pay to settle the emissions investigation?", "NOK 48 million",
     "What do the documents say about environmental matters?"),
    (("The revolving facility contains a minimum interest cover covenant and a maximum net "
      "leverage covenant, both tested at each half-year end.",
      "We were in compliance with all covenants throughout the year."),
     "The documents mention the covenants without stating their levels:\n\n**Compliance and "
     "headroom as stated**\n- “We were in compliance with all covenants throughout the year.” "
     "(source: Annual.pdf, p.31)",
     "Which covenants does the revolving facility carry?", "net leverage covenant",
     "What are the covenants?"),
    (("In March 2024 Brightwell signed a new €250 million five-year term loan with a group of "
      "four banks, maturing in March 2029.",
      "Net debt fell to €410 million at year end."),
     "Cash and debt, as the documents state it:\n\n| Line | 2024 | 2023 |\n|---|---|---|\n"
     "| Net debt | 410 | 455 |",
     "What new term loan did Brightwell sign in March 2024?", "€250 million",
     "Summarise the debt"),
    (("En 2024, Halvorsen a versé une amende de 3 millions d'euros pour clore l'enquête sur les "
      "émissions de son usine de Lyon.",
      "Nos usines publient leurs émissions chaque trimestre."),
     "Environnement dans les documents :\n- Nos usines publient leurs émissions (source: "
     "Annual.pdf, p.31)",
     "Quelle amende Halvorsen a-t-elle versée pour clore l'enquête sur les émissions ?",
     "3 millions", None),
]


@pytest.mark.parametrize(("passages", "heading_first", "question", "fact", "broad"), LED)
def test_a_heading_first_shape_gives_way_to_the_span_that_answers_one_thing(
        passages: tuple[str, ...], heading_first: str, question: str, fact: str,
        broad: str | None) -> None:
    evidence, overview = _evidence(*passages), Draft(text=heading_first)
    led = led_by_best_span(overview, _ask(question), evidence)
    assert fact in _first(led.text)
    assert led.text.endswith(overview.text)  # the overview follows under the fact
    if broad is not None:
        assert led_by_best_span(overview, _ask(broad), evidence) is overview


def _finding(subject: str, period: str, value: float, written: str) -> Finding:
    return Finding(id=f"f-{subject}-{period}", deal_id="d", document_id=DOC.id,
                   kind=FindingKind.METRIC, subject=subject, label=subject.title(),
                   value=value, value_text=written, unit="EUR", period=period,
                   excerpt=f"{subject.title()} was {written} in {period}.",
                   location=Location.for_page(12), confidence=0.9,
                   confidence_level=Confidence.HIGH)


def _with_revenue(evidence: Evidence) -> Evidence:
    evidence.findings = {f.id: f for f in (
        _finding("revenue", "FY2023", 812e6, "€812 million"),
        _finding("revenue", "FY2024", 861e6, "€861 million"))}
    return evidence


def test_a_comparison_of_nothing_the_room_measures_shows_no_default_table() -> None:
    evidence = _with_revenue(_evidence(
        "We compare our total shareholder return with the STOXX Europe 600 Industrials index "
        "and a peer group of eleven listed machinery makers.",
        "Revenue rose to €861 million."))
    ask = _ask("Which index does Halvorsen compare its total shareholder return against?")
    text = comparison.compose(ask, evidence).text
    assert "STOXX Europe 600" in _first(text)
    assert "| Metric |" not in text  # no revenue table for a question about no revenue


def test_a_comparison_table_is_led_by_the_change_it_shows() -> None:
    evidence = _with_revenue(_evidence("Revenue rose to €861 million."))
    text = comparison.compose(_ask("Compare revenue FY2023 vs FY2024"), evidence).text
    first = _first(text)
    assert not first.startswith("|")
    assert "€861" in first and "€812" in first and "FY2024" in first
    assert "| Metric |" in text  # the table follows
    periods_only = comparison.compose(_ask("How did FY2024 go against FY2023?"), evidence).text
    assert not _first(periods_only).startswith("|")  # the default metrics, led by a sentence


def test_a_tables_caption_is_no_quotable_span() -> None:
    caption = ("The following table shows net sales by product category for 2024 and 2023 (in "
               "thousands of euros): 2024 Change 2023")
    assert captions_table(caption)
    assert captions_table("Revenue by region was as follows (in millions):")
    assert captions_table("Umsatz nach Regionen (in Tausend Euro): 2024 Abweichung 2023")
    assert not captions_table("Garden tools include hedge trimmers, leaf blowers and "
                              "chainsaws sold under the Vireo brand.")
    assert not captions_table("Revenue was €861 million in 2024: up 6% on 2023.")
    evidence = _evidence(
        caption + "\nGarden tools | 2024: 41,220 | Change: 4% | 2023: 39,630",
        "Garden tools include hedge trimmers, leaf blowers and chainsaws.")
    ask = _ask("What products are in the garden tools category?")
    ranked = rank_spans(ask.frame, evidence)
    named = next(s for s in ranked if s.text == caption)
    assert named.score < named.words  # it names what follows it: marked down like a heading
    assert all(s.text != caption for s in best_spans([named, *ranked]))  # never quoted
    first = _first(evidence_answer(ask, evidence).text)
    assert "hedge trimmers" in first and "following table" not in first


def test_a_forecast_against_the_actual_is_led_by_the_sentence_of_it() -> None:
    plan = _finding("revenue", "FY2024", 840e6, "€840 million").model_copy(
        update={"id": "f-plan", "nature": Nature.FORECAST,
                "excerpt": "Budget 2024: revenue of €840 million."})
    evidence = _with_revenue(_evidence("Revenue rose to €861 million."))
    evidence.findings[plan.id] = plan
    text = comparison.compose(_ask("How did FY2024 revenue come in against the budget?"),
                              evidence).text
    first = _first(text)
    assert not first.startswith("|") and "€861" in first and "€840" in first
    assert "| Metric |" in text


def test_reported_against_adjusted_ebitda_is_led_by_the_latest_periods_two_figures() -> None:
    evidence = _evidence("Underlying EBITDA excludes restructuring costs of €8 million.")
    evidence.findings = {f.id: f for f in (
        _finding("ebitda", "FY2024", 50e6, "€50 million"),
        _finding("adjusted ebitda", "FY2024", 58e6, "€58 million"),
        _finding("ebitda", "FY2023", 44e6, "€44 million"),
        _finding("adjusted ebitda", "FY2023", 47e6, "€47 million"))}
    text = comparison.compose(_ask("How does adjusted EBITDA compare with reported EBITDA?"),
                              evidence).text
    first = _first(text)
    assert "€58 million" in first and "€50 million" in first and "FY2024" in first
    assert "| Reported EBITDA |" in text


def test_reported_against_adjusted_ebitda_never_leads_another_year_or_an_item_asked() -> None:
    """Only an earlier year states both EBITDAs: the pair does not answer the year asked, nor a
    question asking one item the adjusted figure adds back (its reconciliation's row does)."""
    evidence = _evidence("Underlying EBITDA excludes restructuring costs of €8 million.")
    evidence.findings = {f.id: f for f in (
        _finding("ebitda", "FY2023", 44e6, "€44 million"),
        _finding("adjusted ebitda", "FY2023", 47e6, "€47 million"),
        _finding("adjusted ebitda", "FY2024", 58e6, "€58 million"))}
    assert topics.reported_vs_adjusted(
        _ask("What were the EBITDA adjustments in FY2024?"), evidence) is None
    assert topics.reported_vs_adjusted(
        _ask("What did the group add back for restructuring costs in its FY2023 adjusted "
             "EBITDA?"), evidence) is None
    first = _first(topics.reported_vs_adjusted(
        _ask("What were the EBITDA adjustments in FY2023?"), evidence).text)
    assert "€47 million" in first and "€44 million" in first and "€58" not in first


def test_two_periods_a_thousand_times_apart_are_not_compared() -> None:
    """A debt of €2.41 billion against "€1,500" (a maturity row read without its table's "in
    millions") is a reading error, never a change of +160,666,567%: the statement row that
    states both periods at one scale leads instead (issue 25: a figure 1,000× off never stands)."""
    evidence = _evidence("\n".join([
        "CONSOLIDATED BALANCE SHEET", "(in millions of euros)", "2023 | 2024",
        "Cash and cash equivalents | 2023: 702 | 2024: 815",
        "Long-term debt | 2023: 2,380 | 2024: 2,410"]))
    evidence.findings = {f.id: f for f in (
        _finding("debt", "FY2023", 1500.0, "€1,500"),
        _finding("debt", "FY2024", 2.41e9, "€2.41 billion"))}
    ask = _ask("How did debt at the end of FY2024 compare with a year earlier?")
    first = _first(comparison.compose(ask, evidence).text)
    assert "%" not in first.split("(source")[0].replace("+1.3%", "")
    assert "2.41 billion" in first and "2.38 billion" in first and "1,500" not in first
    evidence.findings["f-debt-FY2023"] = _finding("debt", "FY2023", 2.38e9, "€2.38 billion")
    text = comparison.compose(ask, evidence).text
    assert "+1.3%" in text and "| Metric |" in text  # one scale: the table of findings stands
