"""A table flattened into text is never quoted as the sentence that states a figure (issue 25):
a "sentence" that is column heads, row labels and figures run together ("Tier 1 Tier 2 Total
Widgets $1,200 $— $1,200 Gadgets — 340 340 …") leads only where its first row is the one
asked; otherwise the answer says so without a figure and the passages follow. Passages invented
for the tests; none knows a company or a filing."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.lead_check import lead_miss, states_figure
from manda.agent.spans import rank_spans
from manda.agent.spans.sentences import table_run
from manda.finance.amounts import find_amounts

_RUN = ("Tier 1 Tier 2 Total Tier 1 Tier 2 Total Stored Goods Widgets $1,200 $— $1,200 $— $— $— "
        "Gadgets — 340 340 — — — Sprockets — — 2,150 2,150 — — — —")
_TAIL = ("415 Total harbour charges by region 120 Inland depots and Rail yards 35 Total harbour "
         "charges $570 Includes harbour charges for the closure of the northern quay.")


def _first(text: str) -> str:
    return next(line for line in text.splitlines() if line.strip())


def test_a_run_of_rows_is_read_by_the_row_its_figures_open_with() -> None:
    assert table_run(_RUN) == "Total Stored Goods Widgets"
    assert table_run(_TAIL) == ""  # a row's tail, its label cut off before it


def test_a_sentence_or_a_single_row_is_no_table_run() -> None:
    assert table_run("As of March 31, 2025, April 1, 2024, and April 2, 2023, accrued fees "
                     "were $32 million, $21 million, and $14 million, respectively.") is None
    assert table_run("Warehouse leases, including current portion $4,398 $3,732 $3,904 "
                     "$2,953") is None
    assert table_run("March 2, 2025 to April 5, 2025: Open market purchases 7,247 $38.56 "
                     "7,247") is None
    assert table_run("Freight revenue was $1.2 billion, $1.0 billion and $0.9 billion in "
                     "2025, 2024 and 2023.") is None


def test_a_run_whose_first_row_is_another_does_not_lead_with_its_figures() -> None:
    evidence = _evidence(_RUN)
    ask = _ask("What was the Tier 2 balance of the company's sprockets as of December 31, 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_table_run"
    first = _first(evidence_answer(ask, evidence).text)
    assert "2,150" not in first and "1,200" not in first
    assert not any(states_figure(a.text) for a in find_amounts(first))


def test_a_rows_tail_does_not_lead() -> None:
    evidence = _evidence(_TAIL)
    ask = _ask("What was the balance of the company's harbour charges accrual at the end of "
               "2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_table_run"
    assert "$570" not in _first(evidence_answer(ask, evidence).text)


def test_a_run_whose_first_row_is_the_one_asked_still_leads() -> None:
    evidence = _evidence("Obligations The following table summarizes our obligations as of "
                         "December 31, 2025 (in millions): Total Within a year Thereafter "
                         "Warehouse lease commitments $417.8 $57.6 $360.2 Vehicle lease "
                         "commitments 18.7 4.0 14.7")
    ask = _ask("What were the company's warehouse lease commitments at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert table_run(top.text) is not None and lead_miss(top, ask) is None
    assert "417.8" in _first(evidence_answer(ask, evidence).text)
