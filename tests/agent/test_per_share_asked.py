"""A figure for one share where one is asked (issue 25): "What was diluted EPS?" is answered by
the per-share row, not by the weighted-average shares it is computed over nor by the income it
divides, and a per-share row is a figure over its period in the document's money wherever it is
printed (a page of tagged data with dated columns and no "$"). The tables are invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer

STATEMENT = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions, except per share data)",
    "2024 | 2025",
    "Net income | 2024: $2,410 | 2025: $3,015",
    "Basic earnings per share | 2024: $2.51 | 2025: $3.16",
    "Diluted earnings per share | 2024: $2.47 | 2025: $3.12",
    "Weighted-average shares used in computation of earnings per share:",
    "2024 | 2025",
    "Basic | 2024: 960 | 2025: 954",
    "Diluted | 2024: 976 | 2025: 966",
])

NUMERATOR = "\n".join([
    "Basic net loss per share:",
    "(in millions, except per share amounts)",
    "2024 | 2025",
    "Net loss attributable to common stockholders | 2024: $(1,240) | 2025: $(312)",
    "Basic net loss per share attributable to common stockholders | 2024: $(0.71) | "
    "2025: $(0.17)",
])

TAGGED = "\n".join([
    "Earnings Per Share",
    "2025-12-31 | 2024-12-31",
    "Earnings Per Share (Diluted) | 2025-12-31: 3.12 | 2024-12-31: 2.47",
])


def test_the_per_share_row_answers_eps_not_the_share_count() -> None:
    first = evidence_answer(_ask("What was the company's diluted EPS in 2025?"),
                            _evidence(STATEMENT)).text.splitlines()[0]
    assert "$3.12" in first and "shares" not in first.split("(source")[0], first


def test_the_income_an_eps_divides_is_no_eps() -> None:
    first = evidence_answer(_ask("What was the net loss per share in 2025?"),
                            _evidence(NUMERATOR)).text.splitlines()[0]
    assert "0.17" in first and "312" not in first, first


def test_a_per_share_row_is_over_its_period_in_the_documents_money() -> None:
    # the document's money, from its other pages
    evidence = _evidence(TAGGED, "Net sales were $41.3 billion in 2025, up 4% on 2024.")
    first = evidence_answer(_ask("What was diluted EPS in 2025?"), evidence).text.splitlines()[0]
    assert "$3.12" in first and "in 2025" in first and " at " not in first, first


# a statement's rows under a heading, and a note's rows that say the heading's words in full
UNDER_A_HEADING = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions, except per share data)",
    "2025 | 2024",
    "Net income | 2025: $3,015 | 2024: $2,410",
    "Earnings per share:",
    "Basic | 2025: $3.16 | 2024: $2.51",
    "Diluted | 2025: $3.12 | 2024: $2.47",
])
NOTE = "\n".join([
    "Note 4 – Earnings Per Share",
    "The following table shows the computation of basic and diluted earnings per share:",
    "2025 | 2024",
    "Basic earnings per share | 2025: $3.16 | 2024: $2.51",
    "Diluted earnings per share | 2025: $3.12 | 2024: $2.47",
])


def test_the_row_a_word_of_the_question_tells_apart_from_its_sibling() -> None:
    """"Basic" and "Diluted" both name earnings per share; "diluted" asked tells them apart,
    whether the label or its heading says the rest, and so does "basic"."""
    for text in (UNDER_A_HEADING, NOTE):
        diluted = evidence_answer(_ask("What were the company's diluted earnings per share in "
                                       "2025 and 2024?"), _evidence(text)).text.splitlines()[0]
        assert "$3.12" in diluted and "$3.16" not in diluted, diluted
        basic = evidence_answer(_ask("What were basic earnings per share in 2025?"),
                                _evidence(text)).text.splitlines()[0]
        assert "$3.16" in basic and "$3.12" not in basic, basic


def test_parts_asked_side_by_side_are_no_siblings_of_each_other() -> None:
    """"North America and International sales": each row says a word the other does not, so
    neither is the other's sibling; both lead before another table's "Americas"."""
    from manda.agent.spans import rank_spans

    segments = "\n".join([
        "Net sales:",
        "2025 | 2024",
        "North America | 2025: $426,305 | 2024: $387,497",
        "International | 2025: $161,894 | 2024: $142,906",
        "AWS | 2025: $128,725 | 2024: $107,556",
    ])
    regions = "\n".join([
        "Net sales by region:",
        "2025 | 2024",
        "Americas | 2025: $178,353 | 2024: $167,045",
        "Europe | 2025: $111,032 | 2024: $101,328",
    ])
    ranked = rank_spans(_ask("What were North America and International segment sales in "
                             "2025?").frame, _evidence(regions, segments))
    assert {s.row.label for s in ranked[:2] if s.row} == {"North America", "International"}
