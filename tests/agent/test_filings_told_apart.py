"""One company's filings told apart by their period (issue 25, item 5): a year asked is answered
from the filing whose own period it is, where a later filing's comparative column states it too;
a question with no year leads the latest filing's figure and says the earlier filing's. The
documents are written for the tests."""

from __future__ import annotations

from annual_reports import annual_reports

from manda.agent.compose import ranking
from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.filings import own_filings
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.models import Location, SearchHit

OLDER, LATER = annual_reports()


def _two_filings(later: str, later_page: int, older: str, older_page: int) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{doc.id}", document_id=doc.id, document=doc.filename,
                      text=text, location=Location.for_page(page), score=1.0)
            for doc, text, page in ((LATER, later, later_page), (OLDER, older, older_page))]
    return Evidence(documents={OLDER.id: OLDER, LATER.id: LATER}, hits=hits)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def test_a_filing_is_its_own_periods_only_where_the_company_has_several() -> None:
    evidence = _two_filings("Revenue was $5.0 billion.", 3, "Revenue was $4.0 billion.", 3)
    assert own_filings(evidence, {2023}) == {"d23"}
    assert own_filings(evidence, {2024}) == set()
    one = Evidence(documents={LATER.id: LATER}, hits=evidence.hits[:1])
    assert own_filings(one, {2025}) == set()


def test_a_later_filings_comparative_column_gives_way_to_the_years_own_filing() -> None:
    later = ("Note 3 — Earnings per share\n(in thousands)\n2023 | 2024 | 2025\n"
             "Weighted-average diluted shares | 2023: 15,812,547 | 2024: 15,408,095 | "
             "2025: 15,004,697")
    older = ("Shares outstanding\n2021 | 2022 | 2023\n"
             "Shares outstanding (diluted) | 2021: 16,864,919,000 | 2022: 16,325,819,000 | "
             "2023: 15,812,547,000")
    ask = _ask("What was the weighted-average diluted share count in fiscal 2023?")
    first = evidence_answer(ask, _two_filings(later, 38, older, 9)).text.splitlines()[0]
    assert "15.8 billion" in first, first
    assert first.index("Harrowgate_AR_2023.pdf") < first.find("Harrowgate_AR_2025.pdf"), first
    # the latest year is the later filing's own: it is not sent to the older one
    ask = _ask("What was the weighted-average diluted share count in fiscal 2025?")
    first = evidence_answer(ask, _two_filings(later, 38, older, 9)).text.splitlines()[0]
    assert "Harrowgate_AR_2023.pdf" not in first, first


def test_a_ranking_of_a_year_is_read_from_that_years_filing() -> None:
    later = ("Note 4 — Segment Information\nRevenue by segment (in millions):\n"
             "2023 | 2024 | 2025\n"
             "Cold chain revenue | 2023: 511 | 2024: 640 | 2025: 902\n"
             "Parcels revenue | 2023: 1,022 | 2024: 1,180 | 2025: 1,305\n"
             "Freight revenue | 2023: 301 | 2024: 280 | 2025: 266\n"
             "Total revenue | 2023: $1,834 | 2024: $2,100 | 2025: $2,473")
    older = ("Segment revenue (in millions):\n2021 | 2022 | 2023\n"
             "Cold chain | 2021: 402 | 2022: 455 | 2023: 511\n"
             "Parcels | 2021: 930 | 2022: 990 | 2023: 1,022\n"
             "Parcels | 2021: 930 | 2022: 990 | 2023: 1,022\n"
             "Freight | 2021: 260 | 2022: 288 | 2023: 301\n"
             "Total revenue | 2021: $1,592 | 2022: $1,733 | 2023: $1,834")
    draft = ranking.answer(_ask("Which segment had the lowest revenue in fiscal 2023?"),
                           _two_filings(later, 49, older, 3))
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert first.startswith("Freight") and "Harrowgate_AR_2023.pdf, p.3" in first, first
    assert "Harrowgate_AR_2025.pdf" not in first, first


def test_no_year_asked_leads_the_latest_filing_and_says_the_earlier_ones_figure() -> None:
    later = ("As of June 30, 2025, the Company had $8.0 billion of commercial paper "
             "outstanding, with maturities generally less than nine months.")
    older = ("As of June 30, 2023, the Company had $6.0 billion of commercial paper "
             "outstanding, all of which was payable within 12 months.")
    evidence = _two_filings(later, 27, older, 6)
    first = evidence_answer(_ask("How much commercial paper does the company have outstanding?"),
                            evidence).text.splitlines()[0]
    assert first.index("$8.0 billion") < first.index("$6.0 billion"), first
    assert "The earlier filing, Harrowgate_AR_2023.pdf, stated" in first, first
    # "currently" asks the latest filing's figure alone
    first = evidence_answer(_ask("How much commercial paper does the company currently have "
                                 "outstanding?"), evidence).text.splitlines()[0]
    assert "$8.0 billion" in first and "earlier filing" not in first, first
    # a year asked is answered from its own filing alone
    first = evidence_answer(_ask("How much commercial paper was outstanding at the end of "
                                 "fiscal 2025?"), evidence).text.splitlines()[0]
    assert "$8.0 billion" in first and "earlier filing" not in first, first


def test_a_years_figure_is_not_led_as_the_quarter_asked() -> None:
    from manda.agent.compose.lead_check import lead_miss
    from manda.agent.spans import rank_spans

    evidence = _two_filings(
        "During 2025, the Company repurchased 402 million shares of its common stock for "
        "$89.3 billion.", 46,
        "In the fourth quarter of 2023, the Company repurchased 90 million shares for "
        "$16.0 billion.", 21)
    ask = _ask("How much did the company spend on repurchases in the third quarter of 2025?")
    year = next(s for s in rank_spans(ask.frame, evidence) if "During 2025" in s.text)
    assert lead_miss(year, ask) == "figure_whole_year"
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "whole year 2025, not for Q3 2025" in first, first
    # the year asked, not a part of it: the year's figure answers
    assert lead_miss(year, _ask("How much did the company spend on repurchases in 2025?")) is None


def test_a_sentence_that_names_no_year_is_not_taken_for_a_years_figure() -> None:
    """"Of this total, $0.6 billion related to …" goes on from "During Q4 2025, we recorded
    $1.9 billion of charges …": it names no year, so it is no year's figure for the quarter
    asked."""
    from manda.agent.compose.lead_check import lead_miss
    from manda.agent.spans import rank_spans

    evidence = _two_filings(
        "During Q4 2025, we recorded $1.9 billion of charges related to settlements and "
        "severance. Of this total, $0.6 billion related to the settlement of customs disputes "
        "in Spain.", 41,
        "In fiscal 2023, the Company recorded no such charges.", 30)
    ask = _ask("How much of the Q4 2025 charges related to settling the Spanish customs "
               "disputes?")
    part = next(s for s in rank_spans(ask.frame, evidence) if s.text.startswith("Of this total"))
    assert lead_miss(part, ask) != "figure_whole_year"


def test_a_count_asked_of_a_quarter_is_not_led_by_the_years_count() -> None:
    """"How many shares … in the quarter ended …?" is a count, but of a period as a figure is:
    the year's count ("During 2025, … repurchased 402 million shares") is not stated as it."""
    from manda.agent.compose.lead_check import lead_miss
    from manda.agent.spans import rank_spans

    evidence = _two_filings(
        "During 2025, the Company repurchased 402 million shares of its common stock for "
        "$89.3 billion.", 46,
        "In fiscal 2023, the Company repurchased no shares.", 21)
    ask = _ask("How many shares did the company repurchase in the quarter ended June 28, 2025?")
    assert ask.frame.counted
    year = next(s for s in rank_spans(ask.frame, evidence) if "During 2025" in s.text)
    assert lead_miss(year, ask) == "figure_whole_year"
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "402 million" not in first, first
    # the year asked: the year's count answers
    assert lead_miss(year, _ask("How many shares did the company repurchase in 2025?")) is None


def test_a_sentence_of_a_month_outside_the_quarter_asked_does_not_lead() -> None:
    """"Shares repurchased in Q4 fiscal 2025?" of a filer whose year ends in June: "In January
    2025, the Company repurchased …" is of January, in neither the calendar's fourth quarter
    nor the fiscal one (April to June); "In May 2025, …" is of the fiscal quarter asked, and
    leads."""
    from manda.agent.spans import rank_spans

    evidence = _two_filings(
        "In January 2025, the Company repurchased 31 million shares of its common stock. "
        "In May 2025, the Company repurchased 27 million shares of its common stock.", 28,
        "In fiscal 2023, the Company repurchased no shares.", 21)
    ask = _ask("Company shares repurchased in Q4 fiscal 2025?")
    ranked = rank_spans(ask.frame, evidence)
    january = next(s for s in ranked if "January 2025" in s.text)
    may = next(s for s in ranked if "May 2025" in s.text)
    assert january.score < may.score - 0.2, (january.score, may.score)
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "27 million" in first and "31 million" not in first, first
