"""A segment's row is a part of its line item, and a change is no level (issue 25): the company's
revenue is its total row, not the row of a segment named by a short acronym under the "Net sales"
heading; a figure read for the plain line item does not answer a question about one of its
segments when a row names that segment; a prose input stated as "decreased by $X to $Y" is $Y.
The passages are invented for the tests: no company or filing of the bench."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence, _finding

from manda.agent.compose.common import Draft
from manda.agent.compose.passages import stands
from manda.agent.compose.prose_inputs import stated_inputs
from manda.agent.spans import rank_spans

SEGMENTS = "\n".join([
    "Segment Information",
    "Information on reportable segments is as follows (in millions):",
    "Net sales:",
    "2024 | 2025",
    "HCS | 2024: 1,940 | 2025: 2,310",
    "EMEA | 2024: 3,120 | 2025: 3,405",
    "Consolidated | 2024: $5,060 | 2025: $5,715",
])


def test_the_companys_revenue_is_its_total_row_not_a_segments() -> None:
    evidence = _evidence(SEGMENTS)
    segment = next(s for s in rank_spans(_ask("What were HCS net sales?").frame, evidence)
                   if s.row is not None and s.row.label == "HCS")
    evidence.meaning[segment.text] = 0.05  # the segment's row reads a little closer in meaning
    top = rank_spans(_ask("What was Harrowgate's revenue in 2025?").frame, evidence)[0]
    assert top.row is not None and top.row.label == "Consolidated", top.text
    asked = rank_spans(_ask("What were HCS net sales in 2025?").frame, evidence)[0]
    assert asked.row is not None and asked.row.label == "HCS", asked.text


def test_the_total_read_as_revenue_does_not_stand_for_a_segments_revenue() -> None:
    evidence = _evidence(
        "The following table shows net sales by brand for 2025 and 2024 (dollars in millions):\n"
        "2025 | 2024\nBrightline | 2025: 955 | 2024: 812\nHarbour | 2025: 431 | 2024: 407",
        "Total net sales were $1,386 million in 2025.")
    total = _finding("revenue", 1.386e9, "$1,386 million",
                     "Total net sales were $1,386 million in 2025.")
    draft = Draft(text="Revenue was $1.39 billion in FY2025.", rests_on=[total])
    assert not stands(draft, _ask("What was Kestrel's Brightline revenue in 2025?"), evidence)
    assert stands(draft, _ask("What was Kestrel's revenue in 2025?"), evidence)


def test_an_amount_a_line_item_changed_by_is_not_its_level() -> None:
    evidence = _evidence(
        "Net cash provided by operating activities decreased by $0.42 billion to $3.15 billion "
        "during the year ended December 31, 2025.",
        "Capital expenditures were $1.05 billion in 2025.")
    inputs = stated_inputs(evidence, ("operating cash flow", "capex"), {2025})
    assert inputs is not None
    assert inputs["operating cash flow"][1].value == 3.15e9
    alone = _evidence("Net cash provided by operating activities increased by $0.42 billion "
                      "in 2025.", "Capital expenditures were $1.05 billion in 2025.")
    assert stated_inputs(alone, ("operating cash flow", "capex"), {2025}) is None


def test_a_segment_named_like_a_company_is_still_a_part_asked() -> None:
    """"North Sea" reads as a proper name, as a company would: the filer is known by its
    document's name, so the segment's words still ask for a part."""
    evidence = _evidence("Net sales:\n2024 | 2025\nNorth Sea | 2024: 1,940 | 2025: 2,310\n"
                         "Consolidated | 2024: $5,060 | 2025: $5,715")
    total = _finding("revenue", 5.715e9, "$5,715", "Total net sales | 2025: $5,715")
    total.attributes["row"] = "Total net sales"
    draft = Draft(text="Sales were $5.7 billion in FY2025.", rests_on=[total])
    assert not stands(draft, _ask("What were North Sea segment sales in 2025?"), evidence)
