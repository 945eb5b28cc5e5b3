"""No "found nothing" while the evidence is in hand (issue 25): a sentence a PDF's text layer
glued to the next one is read as a sentence of its own, a question that asks two things answers
each, and a comparison that has nothing to set side by side falls back to the passages that state
what is asked, quoted with their place; free cash flow is computed from the inputs the prose
states, or from the formula the question names; a list question is led by the things listed.
"Found nothing" stays for a question no passage is close to. The passages are invented for the
tests: no company or filing of the bench."""

from __future__ import annotations

from test_answer_kinds import _ask, _evidence

from manda.agent.compose import compose
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.agent.unusual import sentences
from manda.answers import Intent


def test_a_stop_glued_to_the_next_word_ends_a_sentence() -> None:
    text = ("Borrowings fell by £3.1 million over the year.Treasury Matters\nAt\n"
            "the balance sheet date, £0.8 million of the group's £5.6 million of cash sat in "
            "its Irish branch. Details are in report.pdf on the U.S.Treasury page.")
    said = sentences(text)
    assert said[0] == "Borrowings fell by £3.1 million over the year."
    # a word left alone on its line goes on with the next one, which starts in lowercase
    assert said[1].startswith("Treasury Matters At the balance sheet date, £0.8 million")
    assert said[2] == "Details are in report.pdf on the U.S.Treasury page."


def test_a_question_that_asks_two_things_is_read_as_two_parts() -> None:
    frame = read_question("How many depots did Kestrel run at the end of 2024, and how many of "
                          "them were leased?")
    first, second = frame.asked_parts()
    assert first.text == "How many depots did Kestrel run at the end of 2024"
    assert "depots" in second.text  # "them": read with the first part's words
    assert read_question("What were depots and leases in 2024?").asked_parts() == ()
    assert len(read_question("Quel est le chiffre d'affaires 2024 et combien de dette "
                             "reste-t-il ?").parts) == 2


def test_each_part_of_a_two_part_question_is_answered_by_its_own_passage() -> None:
    evidence = _evidence(
        "Kestrel ran 214 depots across the region at the end of 2024, up from 198 a year "
        "before. Our fleet grew to 1,250 vans.",
        "Of the depots, 61 were leased under agreements expiring between 2026 and 2031.",
        "The board met eleven times during the year.")
    draft = evidence_answer(_ask("How many depots did Kestrel run at the end of 2024, and how "
                                 "many of them were leased?"), evidence)
    lines = draft.text.splitlines()
    assert "214 depots" in lines[0] and "(source: Northgate_Annual_Report.pdf, p.30)" in lines[0]
    assert "61 were leased" in lines[1] and "p.31" in lines[1]
    assert "found nothing" not in draft.text


def test_a_comparison_with_one_period_stated_leads_with_what_is_asked() -> None:
    evidence = _evidence(
        "Paying members reached 2.4 million in the second quarter of 2024, 18% more than in "
        "the second quarter of 2023, as the loyalty scheme widened.",
        "Staff turnover fell in the year.")
    ask = _ask("How many paying members did Kestrel have in Q2 2024, and how did that compare "
               "with a year earlier?")
    assert ask.intent is Intent.COMPARISON
    draft = compose(ask, evidence)
    first = draft.text.splitlines()[0]
    assert "2.4 million" in first and "18% more" in first and "p.30" in first
    assert "found nothing" not in draft.text


def test_found_nothing_stays_where_no_passage_is_close() -> None:
    evidence = _evidence("The board met eleven times during the year.",
                         "Kestrel ran 214 depots across the region at the end of 2024.")
    ask = _ask("What earn-out does the share purchase agreement provide, and who is the escrow "
               "agent?")
    draft = evidence_answer(ask, evidence)
    assert "found nothing" in draft.text and "214" not in draft.text


def test_free_cash_flow_is_computed_from_the_inputs_its_prose_states() -> None:
    evidence = _evidence(
        "Cash Flows\nNet cash used in operating activities was $120 million for the year ended "
        "June 30, 2024, mainly reflecting the loss of the year. Net cash used in operating "
        "activities was $64 million for the year ended June 30, 2023.",
        "Investing activities used $80 million in fiscal 2024, of which $35 million in "
        "purchases of property and equipment and $45 million for the Larkfield acquisition.")
    draft = compose(_ask("What was the company's free cash flow in 2024, i.e. operating cash flow "
                         "less capex?"), evidence)
    first, working = draft.text.splitlines()[:2]
    assert first.startswith("Free cash flow was -$155.0 million")
    assert "-$120.0 million (source: Northgate_Annual_Report.pdf, p.30)" in first
    assert "$35.0 million (source: Northgate_Annual_Report.pdf, p.31)" in first
    assert "−120 million − 35 million" in working


def test_an_input_stated_for_another_year_only_is_not_used() -> None:
    evidence = _evidence(
        "Net cash provided by operating activities was €42.0 million in 2023.",
        "Capital expenditures were €9.5 million in 2023, mostly on the new depot.")
    assert "32.5" in compose(_ask("What was free cash flow in 2023?"), evidence).text
    assert "32.5" not in compose(_ask("What was free cash flow in 2024?"), evidence).text


def test_a_stop_glued_after_a_year_ends_a_sentence_too() -> None:
    said = sentences("We aim to run an all-electric fleet by the end of 2028.We believe drivers "
                     "value it.")
    assert said == ["We aim to run an all-electric fleet by the end of 2028.",
                    "We believe drivers value it."]


def test_things_listed_lead_over_a_run_of_amounts_for_a_list_question() -> None:
    evidence = _evidence(
        "the brands launched in 2024 were valued as follows (in thousands): (i) $1,200 for "
        "Alder, (ii) $800 for Birch, (iii) $300 for Cedar.",
        "In 2024, the brands we launched include Alder, Birch and Cedar, sold in all stores.")
    ask = _ask("Which brands did Kestrel launch in 2024?")
    assert ask.frame.answer_kind == "list"
    assert rank_spans(ask.frame, evidence)[0].text.startswith("In 2024, the brands we launched")


def test_a_question_that_names_its_own_formula_computes_it() -> None:
    netted = read_question("What were current assets minus current liabilities at year end?")
    assert netted.derived is not None and netted.derived.name == "working capital"
    own = read_question("What was net income less revenue?").derived
    assert own is not None and (own.plus, own.minus) == (("net income",), ("revenue",))
    assert read_question("Is the company less profitable than last year?").derived is None
    evidence = _evidence(
        "Net cash provided by operating activities was €42.0 million in 2023.",
        "Capital expenditures were €9.5 million in 2023, mostly on the new depot.")
    draft = compose(_ask("What was operating cash flow less capital expenditures in 2023?"),
                    evidence)
    assert draft.text.startswith("Free cash flow was EUR 32.5 million in 2023")
