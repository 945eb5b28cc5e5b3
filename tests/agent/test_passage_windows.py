"""A passage too long for one excerpt shows the lines the search was for, under its first line."""

from __future__ import annotations

from manda.agent.windows import GAP, passage_window, search_words

CAPTION = "Kestrel Foods plc — Consolidated cash flow statement (£ in millions)"
PROSE = [f"Our network of {n} regional bakeries served customers across the country in the "
         f"period, with deliveries made from {n + 3} depots." for n in range(12)]
TABLE = ["Cash generated from operations | 2024: 188.4 | 2023: 171.0",
         "Payments to acquire property, plant and equipment | 2024: (62.7) | 2023: (55.1)",
         "Acquisition of subsidiaries, net of cash | 2024: (18.0) | 2023: —"]
PAGE = "\n".join([CAPTION, *PROSE, *TABLE])


def test_a_long_page_shows_the_rows_asked_about_under_its_caption() -> None:
    shown = passage_window(PAGE, search_words(["How much did Kestrel spend on capex?"]), 900)
    lines = shown.split("\n")
    assert lines[0] == CAPTION and lines[1] == GAP
    assert TABLE[1] in lines  # "capex" is "payments to acquire property, plant and equipment"
    assert len(shown) <= 900


def test_words_match_by_their_stem() -> None:
    shown = passage_window(PAGE, search_words(["Which businesses did Kestrel acquire?"]), 700)
    assert TABLE[2] in shown


def test_a_passage_that_fits_or_whose_head_answers_is_left_as_it_is() -> None:
    assert passage_window(PAGE, search_words(["capex"]), len(PAGE)) == PAGE
    asked = search_words(["How many regional bakeries and depots are there?"])
    assert passage_window(PAGE, asked, 900) == PAGE  # the head holds the most: cut as before


def test_question_words_are_not_searched_for() -> None:
    assert search_words(["What was the total?"]) == {"total"}
