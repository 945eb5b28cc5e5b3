"""What a term means, asked (issue 25): "how does it define …", "what does it count as …" ask
for the sentence that defines the term, not its figure nor a sentence that only names it; a
definition's rule ("when does it record a liability?") is a fact of the company's policies,
not a review of its liabilities; and a sentence a line break cut after "as" is read whole. The
passages and questions are invented; the cue words are read in each language."""

from __future__ import annotations

from test_kinds_lead import _evidence, _lead

from manda.agent.frame import read_question
from manda.agent.kinds import defined_terms, states_definition
from manda.agent.spans import rank_spans
from manda.agent.unusual import sentences
from manda.answers import Intent


def test_a_definition_is_asked_in_each_language() -> None:
    for question in ("How does Calder Mills define an Active Weaver?",
                     "What does Calder Mills count as cash equivalents?",
                     "How is Adjusted Margin defined?",
                     "Comment Calder Mills définit-il un tisserand actif ?",
                     "Wie definiert Calder Mills einen aktiven Weber?",
                     "¿Cómo define Calder Mills a un tejedor activo?"):
        assert read_question(question).answer_kind == "definition", question
    assert read_question("How many Active Weavers did Calder Mills have?").answer_kind != \
        "definition"


def test_a_sentence_defines_the_term_by_its_verb_or_by_opening_with_it() -> None:
    frame = read_question("What does Calder Mills count as cash equivalents?")
    defined = defined_terms(frame.ranking.terms, frame.entity)
    assert set(defined) == {"cash", "equivalent"}
    for text in ("We classify all deposits with an original term of ninety days or less as cash "
                 "equivalents.",
                 "Cash equivalents include money market funds and deposits maturing within "
                 "ninety days.",
                 "Cash equivalents are short-term deposits that mature within ninety days."):
        assert states_definition(text, defined), text
    for text in ("Cash and cash equivalents were £41 million at 31 December 2024.",
                 "We hold most of our cash and cash equivalents in pounds sterling.",
                 "Cash equivalents also include card receipts in transit.",  # more of them
                 "Cash and Cash Margin are measures our managers use.",  # two things described
                 "We define cash equivalents as"):  # cut off before what they are
        assert not states_definition(text, defined), text


def test_the_defining_sentence_leads_not_the_terms_figure_nor_its_mention() -> None:
    lead = _lead("How does Calder Mills define an Active Weaver?",
                 "Calder Mills updated the definition of Active Weavers in 2024 to include "
                 "contract weavers, which added 120 Active Weavers.",
                 "Active Weavers grew 8% in 2024 to 14,200.",
                 "We define Active Weavers as\nall weavers who complete at least one order "
                 "during a quarter.")
    assert "at least one order" in lead, lead


def test_a_line_that_ends_on_a_word_no_sentence_ends_on_runs_on() -> None:
    said = sentences("Quarter ended December 31 | 2024: £51.79\nWe define Active Weavers as\n"
                     "all weavers who complete at least one order during a quarter. Each weaver "
                     "is known by a unique number.")
    assert "We define Active Weavers as all weavers who complete at least one order during a " \
           "quarter." in said, said
    # a short line that ends on a word a phrase may end on stays apart
    assert "Revenue by region and by product line" in sentences(
        "Revenue by region and by product line\nsales rose in every region.")


def test_a_policy_asked_about_a_liability_is_a_fact_lookup() -> None:
    frame = read_question("When does Calder Mills record a liability for a legal proceeding?")
    assert frame.answer_kind == "method" and frame.intent is Intent.FACT_LOOKUP
    evidence = _evidence("Calder Mills is party to several legal proceedings in the ordinary "
                         "course of business. Calder Mills records a liability when it is "
                         "probable that a loss has been incurred and the amount can be "
                         "reasonably estimated.")
    top = rank_spans(frame, evidence)[0]
    assert "probable" in top.text, top.text


# ---------------------------------------------------------------- which <thing>: a name of it


def test_which_thing_asked_is_answered_by_the_sentence_naming_one_by_its_own_name() -> None:
    frame = read_question("Which model does Calder Mills use to value its share options?")
    evidence = _evidence("We use the fair value method of accounting for our share options "
                         "granted to employees to measure the cost of employee services "
                         "received in exchange for the awards.",
                         "The fair value of share options is estimated on the grant date using "
                         "the Monte Carlo simulation model.")
    assert "Monte Carlo" in rank_spans(frame, evidence)[0].text


def test_which_company_asked_with_a_word_before_it_is_a_company_named() -> None:
    frame = read_question("Which textile company did Calder Mills acquire, and when?")
    evidence = _evidence("Our current and potential competitors include: (1) textile mills and "
                         "weavers; (2) online retailers of fabric.",
                         "On March 3, 2024, we acquired Brora Weaving Ltd. for cash "
                         "consideration of £35 million.")
    assert "Brora Weaving" in rank_spans(frame, evidence)[0].text


def test_the_rule_a_week_year_ends_by_leads_when_its_end_is_asked() -> None:
    from manda.agent.compose import compose
    from manda.agent.compose.common import Ask

    ask = Ask.of(read_question("When does Calder Mills' fiscal year end?"))
    assert ask.frame.year_end
    evidence = _evidence("Fiscal year: Calder Mills' fiscal year ends on the Sunday nearest "
                         "March 31. Fiscal 2024 ended March 31, 2024 and consisted of 52 weeks.",
                         "The fiscal year ended March 31, 2024.")
    lead = compose(ask, evidence).text.splitlines()[0]
    assert "Sunday nearest March 31" in lead, lead


def test_a_rule_asked_is_led_by_the_sentence_stating_it_not_a_risk_echoing_the_words() -> None:
    frame = read_question("When does Calder Mills record a liability for a legal proceeding?")
    evidence = _evidence("Any failure by Calder Mills to comply with privacy laws could result "
                         "in legal proceedings and a liability for penalties.",
                         "Calder Mills is party to several legal proceedings in the ordinary "
                         "course of business. Calder Mills records a liability when it is "
                         "probable that a loss has been incurred and the amount can be "
                         "reasonably estimated.")
    assert "probable" in rank_spans(frame, evidence)[0].text


def test_a_title_or_a_longer_word_names_no_thing_asked() -> None:
    from manda.agent.spans import Span, fits_kind

    frame = read_question("Which firm is Calder Mills' independent auditor, and since when?")
    source = rank_spans(frame, _evidence("We have served as the auditor since 2009."))[0].source
    assert not fits_kind(Span("Report of Independent Registered Public Accounting Firm", source),
                         frame)
    frame = read_question("What dividends per share did Calder Mills declare in 2024?")
    assert not fits_kind(Span("Dividends declared per share are disclosed in our Consolidated "
                              "Statements of Shareholders' Investment.", source), frame)
    frame = read_question("Which model does Calder Mills use to value its share options?")
    assert fits_kind(Span("Their fair value is estimated using the Monte Carlo simulation model.",
                          source), frame)


def test_the_word_asking_for_a_definition_is_how_it_asks() -> None:
    frame = read_question("How does Calder Mills define cash equivalents?")
    evidence = _evidence("Cash and cash equivalents consisted of money market funds and "
                         "deposits with an original maturity of ninety days or less.",
                         "Calder Mills defined its strategy for the coming year.")
    top = rank_spans(frame, evidence)[0]
    assert "ninety days" in top.text and top.words >= 0.45, (top.text, top.words)
