"""An analyst's wording reaches a filing's words (issue 25): "each quarter" is quarterly, the size
of a programme is its authorization, the rating agencies' grade is a credit rating, a facility
entered into in a month is that month's, a figure and its reason lead with the figure, a metric
dated before its name is a figure. The passages are written for the tests; none is a filing's."""

from __future__ import annotations

import pytest
from test_filings_leads import _ask, _evidence

from manda.agent.compose.common import Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.leads import led_by_best_span
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.vocabulary import vocabulary

_YEAR_ROW = ("CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY\n(In millions, except per-share "
             "amounts)\n2025 | 2024\nDividends declared per share | 2025: $2.08 | 2024: $1.96")
_QUARTERLY = "As of December 31, 2025, the quarterly cash dividend was $0.52 per share."


def test_each_quarter_is_read_as_quarterly() -> None:
    evidence = _evidence(_YEAR_ROW, _QUARTERLY)
    for question in ("How much does the company pay per share each quarter in dividends?",
                     "What does Globex pay shareholders per share every quarter?"):
        ask = _ask(question)
        assert ask.frame.said_as == ("quarterl",)
        assert "$0.52" in rank_spans(ask.frame, evidence)[0].text, question


def test_a_cadence_in_another_language_is_read_in_its_filing_words() -> None:
    assert read_question("Combien la société verse-t-elle par action chaque trimestre ?"
                         ).said_as == ("trimestriel",)
    assert read_question("Wie viel Dividende zahlt die Gesellschaft pro Quartal?").said_as
    assert read_question("¿Cuánto paga la empresa por acción cada trimestre?").said_as
    assert not read_question("What was revenue in the fourth quarter?").said_as


def test_the_size_of_a_programme_is_its_authorization() -> None:
    evidence = _evidence(
        "As of December 31, 2025, we have $6.1 billion remaining under the repurchase program.",
        "In March 2022, the Board of Directors authorized a program to repurchase up to $10.0 "
        "billion of our common stock.")
    for question in ("What is the size of the company's stock repurchase program?",
                     "How big is the share buyback program?"):
        ask = _ask(question)
        assert ask.frame.capacity and not ask.frame.remaining
        assert "$10.0 billion" in rank_spans(ask.frame, evidence)[0].text, question
    left = _ask("How much is left under the stock repurchase program?")
    assert not left.frame.capacity
    assert "$6.1 billion" in rank_spans(left.frame, evidence)[0].text


def test_what_was_used_of_a_programme_is_its_use_not_its_size_nor_its_remainder() -> None:
    """"How much has it spent so far under the buyback authorization?": the sentence of what was
    repurchased under the programme answers, not the one authorizing it nor what remains; the
    part of the programme asked is read once, in every language."""
    evidence = _evidence(
        "On March 3, 2022, the Board of Directors of Globex authorized a $12 billion share "
        "repurchase program with no stated expiration.",
        "Under the program, Globex has repurchased 21.5 million shares of common stock for a "
        "total of $4.2 billion.",
        "As of December 31, 2025, $7.8 billion remained available under the program.")
    for question in ("How much has Globex spent so far under its buyback authorization?",
                     "How much of its repurchase program has Globex used to date?"):
        ask = _ask(question)
        assert ask.frame.programme_part == "used", question
        assert "$4.2 billion" in rank_spans(ask.frame, evidence)[0].text, question
    assert _ask("How much is left under Globex's repurchase program?").frame.remaining
    for question in ("What value of shares can Globex still buy back under its programs?",
                     "Combien Globex peut-elle encore racheter au titre du programme ?",
                     "Wie viel kann Globex im Rahmen des Programms noch zurückkaufen?",
                     "¿Cuánto puede Globex aún recomprar bajo el programa?"):
        assert read_question(question).programme_part == "remaining", question
    assert _ask("How big is Globex's repurchase program?").frame.capacity
    for question in ("Quelle part du programme de rachat a été utilisée à ce jour ?",
                     "Wie viel des Rückkaufprogramms wurde bisher genutzt?",
                     "¿Cuánto del programa de recompra se ha utilizado hasta la fecha?"):
        assert read_question(question).programme_part == "used", question
    assert read_question("How much did revenue grow so far this year?").programme_part == ""


def test_the_programme_used_in_a_quarter_is_the_one_named() -> None:
    """Two programmes in one note: the use of the one named, in the quarter asked, leads; the
    sentence announcing it (its size) does not, nor the statement's row of the year's buybacks,
    which names no programme."""
    evidence = _evidence(
        "CONSOLIDATED STATEMENTS OF CASH FLOWS\n(In millions)\n2025 | 2024\nRepurchases of "
        "common stock | 2025: (81,400) | 2024: (77,900)",
        "(1) On April 4, 2023, the Company announced a program to repurchase up to $60 billion "
        "of its common stock. During the fourth quarter of 2025, the Company utilized the final "
        "$7.5 billion under the April 2023 program. On April 2, 2025, the Company announced an "
        "additional program to repurchase up to $50 billion of its common stock. As of "
        "September 30, 2025, $640 million of the April 2025 program had been utilized.")
    ask = _ask("How much of its April 2023 repurchase program did Globex use in the fourth "
               "quarter of 2025?")
    assert ask.frame.programme_part == "used"
    assert "$7.5 billion" in rank_spans(ask.frame, evidence)[0].text
    later = _ask("How much of the April 2025 repurchase program had Globex used as of "
                 "September 30, 2025?")
    assert "$640 million" in rank_spans(later.frame, evidence)[0].text


def test_a_programme_sized_by_the_amount_before_its_name_is_its_authorization() -> None:
    """"Our $40 billion share repurchase program": the amount set before the programme's name
    is its size, though the sentence's first amount is what remains of it; an amount spent or
    left "under the program" sizes nothing."""
    evidence = _evidence(
        "During fiscal 2025 we repurchased 41 million shares for $12.6 billion under our share "
        "repurchase programs.",
        "As of March 31, 2025, $17.9 billion remained of our $40 billion share repurchase "
        "program.")
    ask = _ask("How big is Globex's share repurchase authorization?")
    assert ask.frame.capacity
    assert "$40 billion" in rank_spans(ask.frame, evidence)[0].text


@pytest.mark.parametrize(("sentence", "sized"), [
    ("Le conseil a approuvé un programme de rachat d'actions de 4 milliards d'euros.", True),
    ("Der Vorstand beschloss ein Aktienrückkaufprogramm über 2 Mrd. Euro.", True),
    ("El consejo aprobó un programa de recompra de acciones por 1.500 millones de euros.", True),
    ("A $750 million term loan facility matures in 2029.", True),
    ("We have $2.2 billion remaining under the program.", False),
    ("We repurchased $3.1 billion of our stock in 2025.", False),
])
def test_a_programme_s_size_is_read_in_each_language(sentence: str, sized: bool) -> None:
    assert vocabulary().cues("limit_stated").found(sentence) is sized


def test_the_rating_agencies_grade_is_a_credit_rating() -> None:
    ask = _ask("How do the rating agencies rate Globex's debt?")
    assert ask.frame.rated and ask.frame.subjects == ()
    assert ask.frame.answer_kind != "rate"
    evidence = _evidence(
        "Under our swap agreements, we pay a floating rate on our debt and receive a fixed rate "
        "of 2.8 percent.",
        "As of December 31, 2025, our credit ratings were as follows: Moody's S&P Fitch "
        "Long-term debt A2 A A Commercial paper P-1 A-1 F1")
    assert "A2" in evidence_answer(ask, evidence).text.splitlines()[0]


def test_a_facility_entered_into_in_a_month_is_that_months() -> None:
    evidence = _evidence(
        "In March 2025, we entered into settlement agreements to resolve credit card fee "
        "litigation matters.",
        "In October 2025, we obtained a new committed $1.0 billion 364-day unsecured revolving "
        "credit facility that will expire in October 2026.")
    ask = _ask("What revolving credit facility did the company enter into in October 2025?")
    assert ask.frame.transaction
    assert "364-day" in rank_spans(ask.frame, evidence)[0].text
    listing = Draft(text="The revolving credit facility: limit $3.0 billion as of 1 February "
                         "2025 (source: Annual.pdf, p.38).")
    led = led_by_best_span(listing, ask, evidence)
    assert "364-day" in led.text.splitlines()[0]


def test_a_figure_and_its_reason_lead_with_the_figure() -> None:
    evidence = _evidence(
        "Net interest expense was $445 million for 2025, compared with $411 million for 2024.",
        "The increase in net interest expense was primarily due to higher average debt levels.")
    ask = _ask("What was net interest expense in fiscal 2025, and why did it increase?")
    text = evidence_answer(ask, evidence).text
    assert "$445 million" in text.splitlines()[0]
    assert "average debt" in text


def test_a_metric_dated_before_its_name_is_a_figure() -> None:
    asked = read_question("What were the company's Q4 2021 active riders, and how did that "
                          "compare with Q4 2020?")
    assert asked.answer_kind == "figure"
    assert read_question("What were its 2025 bookings?").answer_kind == "figure"
    assert read_question("What products did the company launch in 2025?").answer_kind == "list"
