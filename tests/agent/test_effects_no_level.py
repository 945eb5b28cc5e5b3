"""An effect on a line item is no level of it (issue 25): "a decrease to net income and EPS of
$3.3 billion" and "a foreign currency impact of 4%" are read as changes, and a figure read from
prose does not stand against the statement's own row of the line item for the same year. The
passages are invented for the tests: no company or filing of the bench."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence, _finding

from manda.agent.compose.common import Draft
from manda.agent.compose.fact_lookup import compose
from manda.agent.compose.passages import a_change, stands
from manda.agent.spans import rank_spans

INCOME = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(In millions)",
    "Year Ended December 31, | 2025 | 2024",
    "Revenue | 2025: 8,420 | 2024: 7,915",
    "Cost of revenue | 2025: 5,102 | 2024: 4,877",
    "Gross profit | 2025: 3,318 | 2024: 3,038",
    "Operating income | 2025: 1,650 | 2024: 1,497",
    "Provision for income taxes | 2025: 352 | 2024: 321",
    "Net income | 2025: 1,204 | 2024: 1,110",
])


def test_an_effect_on_a_line_item_is_a_change_in_every_wording() -> None:
    hit = _finding("net income", 2.1e8, "$210 million",
                   "The restructuring resulted in a decrease to net income and diluted EPS of "
                   "$210 million and $0.31, respectively.")
    currency = _finding("gross margin", 3.0, "3%", "Revenue and gross margin included an "
                        "unfavorable foreign currency impact of 3% and 3%, respectively.")
    level = _finding("net income", 1.204e9, "$1,204 million",
                     "Net income of $1,204 million was the highest in our history.")
    assert a_change(hit) and a_change(currency)
    assert not a_change(level)


def test_a_prose_figure_does_not_stand_against_the_statements_own_row() -> None:
    evidence = _evidence(INCOME, "Restructuring charges in the second quarter cut net income by "
                         "an after-tax amount; the total effect for the year was $210 million.")
    effect = _finding("net income", 2.1e8, "$210 million", "the total effect on net income for "
                      "the year was $210 million.")
    effect.period = "FY2025"
    evidence.scope_words = frozenset({"harrowgate"})  # the company asked about (the graph)
    draft = Draft(text="Net income was $210 million in FY2025.", rests_on=[effect])
    assert not stands(draft, _ask("What was Harrowgate's net income in 2025?"), evidence)


def test_a_rate_asked_is_not_answered_by_a_change_in_it() -> None:
    currency = _finding("gross margin", 3.0, "3%", "Revenue and gross margin included an "
                        "unfavorable foreign currency impact of 3% and 3%, respectively.")
    evidence = _evidence("Gross margin increased $310 million or 9% driven by higher volumes.",
                         "Revenue and gross margin included an unfavorable foreign currency "
                         "impact of 3% and 3%, respectively.")
    evidence.scope_words = frozenset({"harrowgate"})
    draft = Draft(text="Gross margin was 3% in FY2025.", rests_on=[currency])
    assert not stands(draft, _ask("What was Harrowgate's gross margin in 2025?"), evidence)


def test_a_sentences_cash_figure_does_not_stand_against_the_rows_cash() -> None:
    cash_rows = "\n".join([
        "2025 | 2024",
        "Total cash, cash equivalents and restricted cash | 2025: $3,310 | 2024: $2,950",
        "Cash and cash equivalents | 2025: $2,875 | 2024: $2,640",
        "Restricted cash - current | 2025: 435 | 2024: 310",
    ])
    evidence = _evidence(cash_rows, "Restructuring charges included $61 million of cash "
                         "settled charges, primarily for severance.")
    evidence.scope_words = frozenset({"harrowgate"})
    ask = _ask("What was Harrowgate's cash and cash equivalents at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Cash and cash equivalents", top.text
    settled = _finding("cash", 6.1e7, "$61 million", "Restructuring charges included $61 million "
                       "of cash settled charges, primarily for severance.")
    settled.period = "FY2025"
    draft = Draft(text="Cash was $61 million at 31 December 2025.", rests_on=[settled])
    assert not stands(draft, ask, evidence)


def test_a_part_of_the_line_item_does_not_stand_for_the_whole() -> None:
    segments = "\n".join([
        "Net sales:", "2024 | 2025",
        "North Sea | 2024: 1,940 | 2025: 2,310",
        "Consolidated | 2024: $5,060 | 2025: $5,715"])
    evidence = _evidence(segments)
    evidence.scope_words = frozenset({"harrowgate"})
    ask = _ask("What was Harrowgate's revenue in 2025?")
    product = _finding("revenue", 3.2e9, "$3,200", "Net product sales | 2025: $3,200")
    product.attributes["row"] = "Net product sales"
    assert not stands(Draft(text="Revenue was $3.2 billion.", rests_on=[product]), ask, evidence)
    segment = _finding("gross margin", 61.0, "61%", "Harrow Cloud gross margin percentage "
                       "increased 3 points to 61%.")
    margin = _evidence("Gross margin increased $240 million or 9% driven by Harrow Cloud.")
    margin.scope_words = frozenset({"harrowgate"})
    assert not stands(Draft(text="Gross margin was 61%.", rests_on=[segment]),
                      _ask("What was Harrowgate's gross margin in 2025?"), margin)


def test_a_level_is_read_over_a_change_by_an_amount() -> None:
    from manda.agent.compose.fact_lookup import compose as lookup

    change = _finding("revenue", 4.4e8, "$440 million", "Changes in exchange rates increased "
                      "revenue by $440 million in 2025.")
    level = _finding("revenue", 5.715e9, "$5,715 million", "Revenue was $5,715 million in 2025.")
    for f in (change, level):
        f.period = "FY2025"
    evidence = _evidence("Le chiffre d'affaires n'est pas commenté ici.")
    evidence.findings = {f.id: f for f in (change, level)}
    draft = lookup(_ask("Quel était le chiffre d'affaires en 2025 ?"), evidence)
    assert "5.7" in draft.text.splitlines()[0] or "5,715" in draft.text.splitlines()[0], draft.text


def test_a_rows_parenthesised_gloss_names_no_part() -> None:
    from manda.agent.compose.passages import _names_a_part

    evidence = _evidence("Employee ID | Name | Site\nP0115 | A. Smith | Leeds",
                         "The group employs people at two sites in Leeds and Colne.")
    ask = _ask("How many people do they employ?")
    top = rank_spans(ask.frame, evidence)[0]
    glossed = _finding("headcount", 126.0, "126", "Headcount (number, month end) | 126")
    glossed.attributes["row"] = "Headcount (number, month end)"
    assert not _names_a_part(glossed, top, ask)


def test_why_a_margin_moved_is_the_sentence_stating_why_never_the_margin_computed() -> None:
    evidence = _evidence(INCOME, "Gross margin increased during 2025 compared to 2024 due "
                         "primarily to higher volumes in the parcel network, partially offset "
                         "by higher fuel costs.")
    draft = compose(_ask("Why did the company's gross margin percentage increase in 2025?"),
                    evidence)
    assert "parcel network" in draft.text.splitlines()[0], draft.text
