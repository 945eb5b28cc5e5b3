"""A figure of another measure, or of another part, is never stated as the one asked (issue
25): an area asked ("retail square feet") is not answered by money nor by a count of stores in a
size band, a place or a segment the question names is not answered by a passage that names
none of it, and money spent is not answered by a share owned. The passages are invented for
the tests; none knows a company or a filing."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence
from test_lead_check import _first, _no_figure_in

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.lead_check import asks_figure, lead_miss
from manda.agent.spans import rank_spans


def test_an_area_asked_is_a_figure_of_its_measure() -> None:
    for question in ("How many retail square feet were in Oregon?",
                     "How many square feet is the head office?",
                     "Quelle superficie louée le groupe a-t-il en 2025 ?"):
        ask = _ask(question)
        assert ask.frame.measure == "area" and asks_figure(ask), question
    assert _ask("How many retail square feet were in Oregon?").frame.place == "Oregon"
    assert _ask("How much did the company spend on rent in 2025?").frame.measure == ""


def test_money_is_no_area_asked() -> None:
    evidence = _evidence("Rent on the Northern segment's leased square footage was $4.9 "
                         "billion in 2025 and $4.5 billion in 2024.")
    ask = _ask("How much leased square footage did the Northern segment have at the end of "
               "2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    text = evidence_answer(ask, evidence).text
    assert _no_figure_in(_first(text)) and "$4.9 billion" in text  # quoted below, not led


def test_a_count_of_stores_in_a_size_band_is_no_area() -> None:
    evidence = _evidence("\n".join([
        "Number of stores by size", "2025 | 2024",
        "Retail stores of 50,000 to 99,999 sq. ft. | 2025: 1,210 | 2024: 1,190"]))
    ask = _ask("How much retail square footage did the company have at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and lead_miss(top, ask) == "figure_not_stated"


def test_the_area_asked_still_leads() -> None:
    evidence = _evidence("As of December 31, 2025, the company leased offices totaling 3.4 "
                         "million square feet.")
    ask = _ask("What was the company's total office square footage at the end of 2025?")
    assert "3.4 million" in _first(evidence_answer(ask, evidence).text)


def test_a_place_asked_is_not_answered_by_a_passage_that_names_none_of_it() -> None:
    ask = _ask("How many retail square feet were in Oregon?")
    evidence = _evidence("Distribution facilities, which hold no retail space, total 12.4 "
                         "million square feet.")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    text = evidence_answer(ask, evidence).text
    assert _no_figure_in(_first(text)) and "12.4 million" in text
    named = _evidence("Stores in Oregon covered 2.1 million retail square feet at year end.")
    assert lead_miss(rank_spans(ask.frame, named)[0], ask) is None


def test_a_share_owned_is_no_amount_spent() -> None:
    evidence = _evidence("On March 3, 2025, we completed the acquisition of 100% ownership "
                         "interest in Acme Logistics, a freight broker in North America.")
    ask = _ask("How much did the company spend to buy Acme Logistics?")
    first = _first(evidence_answer(ask, evidence).text)
    assert _no_figure_in(first) and "100%" not in first


def test_an_area_is_no_number_of_stores_asked() -> None:
    evidence = _evidence("Most of our stores larger than 170,000 square feet offer groceries "
                         "and general merchandise.")
    ask = _ask("How many of the company's stores were leased at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    counted = _evidence("At the end of 2025, 1,288 of our stores were leased.")
    assert lead_miss(rank_spans(ask.frame, counted)[0], ask) is None


def test_a_rows_measure_is_said_by_its_columns() -> None:
    """"Nevada 159 21,875" names no area, but its column does ("Retail Square Feet (in
    thousands)"): the area asked of the place is that cell, and a band of the measure in a
    row's label still counts stores."""
    evidence = _evidence("\n".join([
        "Item 2. Properties",
        "Outlets | Retail Square Feet (in thousands)",
        "Oregon | Outlets: 40 | Retail Square Feet (in thousands): 5,150",
        "Nevada | Outlets: 159 | Retail Square Feet (in thousands): 21,875",
        "Total | Outlets: 1,995 | Retail Square Feet (in thousands): 250,518"]))
    ask = _ask("Retail square feet in Nevada?")
    first = _first(evidence_answer(ask, evidence).text)
    assert "Nevada" in first and "21,875" in first, first  # the row, quoted with its columns


def test_a_place_named_after_in_is_the_place_of_the_area_asked() -> None:
    """"… its head offices in the Harbour District?": the place is the name after "in", not
    only an entity; a passage on an office that names no such place states another's area."""
    ask = _ask("How many square feet of the group's offices are its head offices in the "
               "Harbour District?")
    assert ask.frame.place == "Harbour District"
    assert _ask("What retail square footage did the group have in Fiscal 2025?").frame.place == ""
    other = _evidence("The new head office consists of two buildings totalling approximately "
                      "423,000 rentable square feet.")
    assert lead_miss(rank_spans(ask.frame, other)[0], ask) == "figure_not_stated"


def test_an_area_asked_in_other_words_is_read_in_a_column_title() -> None:
    """"Square footage" asked is the column "Selling Square Feet" of a table's total row: the
    measure's other wording speaks as its own words do."""
    evidence = _evidence("\n".join([
        "Stores and selling space by size band",
        "Band | Number of Stores March 31, 2025 | Selling Square Feet (a) March 31, 2025",
        "20,000 to 39,999 sq. ft. | Number of Stores March 31, 2025: 41 | "
        "Selling Square Feet (a) March 31, 2025: 1,230",
        "40,000 sq. ft. or more | Number of Stores March 31, 2025: 12 | "
        "Selling Square Feet (a) March 31, 2025: 610",
        "Total | Number of Stores March 31, 2025: 53 | "
        "Selling Square Feet (a) March 31, 2025: 1,840",
        "(a) In thousands."]))
    ask = _ask("How much selling square footage was there at March 31, 2025?")
    first = _first(evidence_answer(ask, evidence).text)
    assert "1,840" in first and "found nothing" not in first



def test_how_much_of_a_line_item_is_answered_by_its_share_stated() -> None:
    """"How much of its bookings came from station trips?" asks a part of a line item: the
    sentence stating that part as a share of it ("14% of our Rides Gross Bookings") answers,
    not the line item's row in money."""
    evidence = _evidence(
        "Gross Bookings by offering (in millions)\n2025 | 2024\n"
        "Rides Gross Bookings | 2025: $5,245 | 2024: $4,870\n"
        "Delivery Gross Bookings | 2025: $3,845 | 2024: $3,610",
        "If our ability to serve stations is affected, our results would suffer. In 2025, we "
        "generated 14% of our Rides Gross Bookings from trips that either started or were "
        "completed at a station. As a result of this concentration, our results depend on rail "
        "travel.")
    ask = _ask("How much of the company's Rides Gross Bookings in 2025 came from station trips?")
    assert ask.frame.share_of
    first = _first(evidence_answer(ask, evidence).text)
    assert "14%" in first and "$5,245" not in first, first
    grown = _evidence("Gross Bookings by offering (in millions)\n2025 | 2024\n"
                      "Rides Gross Bookings | 2025: $5,245 | 2024: $4,870",
                      "Rides Gross Bookings grew 8% in 2025.")
    assert "$5.25 billion" in _first(evidence_answer(_ask(
        "How much were the company's Rides Gross Bookings in 2025?"), grown).text)
