"""The sentence that leads is of the kind of question asked (issue 25): a purpose answers "why",
the actions taken answer "how is it mitigating …", a list sentence is quoted whole, a thing
recorded at an amount leads with its amount, a yes/no question about a metric with its figure.
Every passage and question below is invented for the tests (no filing's wording); the cue words
are read in each language the vocabulary gives them."""

from __future__ import annotations

from datetime import date

from test_spans import _evidence as _passages

from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.passages import stands
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.kinds import states_means, states_reason
from manda.agent.spans import named_after, rank_spans
from manda.models import Document, DocumentStatus

DOC = Document(id="d1", deal_id="d", filename="Calder_Mills_Annual_Report.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2024, 12, 31),
               fiscal_year_end="--12-31")


def _evidence(*texts: str) -> Evidence:
    return _passages(*texts, doc=DOC)


def _lead(question: str, *texts: str) -> str:
    return evidence_answer(Ask.of(read_question(question)), _evidence(*texts)).text.splitlines()[0]


# ---------------------------------------------------------------- why: a purpose is a reason


def test_a_purpose_is_a_reason_in_each_language() -> None:
    for text in ("A fifty-third week is added to the calendar every few years to keep the year "
                 "end on the last Saturday of March.",
                 "The group sold two warehouses in order to reduce its leverage.",
                 "Prices were lowered so that the stores could win back volume.",
                 "La société a cédé deux entrepôts afin de réduire son endettement.",
                 "Le groupe a émis des obligations pour refinancer sa dette bancaire.",
                 "Die Gruppe verkaufte zwei Lager, um die Verschuldung zu senken.",
                 "La empresa vendió dos almacenes para reducir su deuda."):
        assert states_reason(text), text
    for text in ("Revenue was reduced in 2024 to approximately £5 million.",
                 "The bonds were transferred in March to Level 3.",
                 "Pour notre part, le chiffre d'affaires est stable.",
                 "Der Umsatz stieg um 5 % im Vergleich zum Vorjahr.",
                 "Para el ejercicio 2024, las ventas fueron de 5 millones."):
        assert not states_reason(text), text


def test_a_why_question_leads_with_the_purpose_not_the_fact_restated() -> None:
    lead = _lead("Why did Calder Mills' fiscal 2024 have 53 weeks?",
                 "Calder Mills' fiscal 2024 comprised 53 weeks, against 52 weeks in fiscal 2023.",
                 "An extra week is added to the fiscal calendar every five or six years to keep "
                 "the year end on the Saturday nearest 31 December.")
    assert "extra week" in lead, lead


# ---------------------------------------------------------------- how: the actions taken


def test_a_how_question_about_an_action_asks_for_its_means_in_each_language() -> None:
    for question in ("How is Calder Mills mitigating higher cotton prices?",
                     "How was the Brora acquisition funded?",
                     "Comment le groupe atténue-t-il la hausse du coton ?",
                     "Comment la société fait-elle face aux droits de douane ?",
                     "Wie begegnet die Gruppe den höheren Baumwollpreisen?",
                     "¿Cómo mitiga la empresa la subida del algodón?"):
        assert read_question(question).answer_kind == "means", question
    # what moved a figure is still asked as its cause
    assert read_question("How did the strike affect volumes in 2024?").answer_kind == "reason"


def test_the_means_of_an_action_is_stated_as_a_fact_not_a_condition() -> None:
    for text in ("We offset higher duties by renegotiating terms with our mills.",
                 "Cotton price risk is managed through forward purchase contracts.",
                 "Nous compensons la hausse en renégociant nos contrats d'achat.",
                 "Die Gruppe begegnet den Zöllen durch eine Verlagerung der Beschaffung.",
                 "La empresa mitiga los aranceles mediante la diversificación de proveedores."):
        assert states_means(text), text
    assert not states_means("If cotton prices rise further, we may have to seek other mills, "
                            "including in Turkey.")
    assert not states_means("Revenue was £212 million in 2024.")


def test_a_how_question_leads_with_what_the_company_does_not_a_risk_factor() -> None:
    question = "How is Calder Mills managing higher cotton prices?"
    texts = ("If cotton prices keep rising, we may not be able to pass the increases on to "
             "customers, including through price rises, and our margins could be managed "
             "down.",
             "We manage cotton price risk through forward purchase contracts covering nine "
             "months of expected usage.")
    lead = _lead(question, *texts)
    assert "forward purchase contracts" in lead, lead
    ask = Ask.of(read_question(question))
    figure = Draft(text="Cost of sales was £141 million in 2024 (source: report, p.12).")
    assert not stands(figure, ask, _evidence(*texts))  # a level is no action taken


# ---------------------------------------------------------------- which / what: a list whole


def test_a_sentence_that_lists_things_is_quoted_whole() -> None:
    lead = _lead("What are Calder Mills' capital allocation priorities?",
                 "Our approach to capital allocation rests on the following priorities, in order "
                 "of importance: first, we invest in the mills and the people who run them so "
                 "that the business can grow profitably and keep its existing assets in good "
                 "repair; second, we keep our net debt below one and a half times EBITDA through "
                 "the cycle; third, we pay a progressive ordinary dividend covered at least twice "
                 "by earnings; and finally, we return surplus cash through special dividends.",
                 "Capital expenditure was £18 million in 2024.")
    assert "special dividends" in lead and "…" not in lead, lead


# ---------------------------------------------------------------- what charges: the amount


def test_a_thing_recorded_at_an_amount_is_asked_for_its_amount_in_each_language() -> None:
    for question in ("What charges did Calder Mills record in Q2 2024?",
                     "What impairments were booked in 2024?",
                     "Quelles dépréciations le groupe a-t-il comptabilisées en 2024 ?",
                     "Welche Wertminderungen wurden 2024 erfasst?",
                     "¿Qué deterioros registró la empresa en 2024?"):
        assert read_question(question).ranking.wants_amount, question


def test_a_charges_question_leads_with_the_amount_of_the_quarter_asked() -> None:
    lead = _lead("What charges did Calder Mills record in Q2 2024?",
                 "These second quarter charges were recorded within cost of sales and mostly "
                 "affected the knitwear segment.",
                 "In Q1 2024, we recorded £3 million of charges for a closed dye house.",
                 "In Q2 2024, we recorded £14 million of charges for the closure of two mills "
                 "and related severance.")
    assert "£14 million" in lead, lead


# ---------------------------------------------------------------- yes/no: the metric's figure


def test_a_yes_no_question_about_a_metric_asks_for_its_figure_in_each_language() -> None:
    for question in ("Was Calder Mills profitable on an EBITDA basis in 2024?",
                     "Did Calder Mills generate positive free cash flow in 2024?",
                     "War die Gruppe 2024 auf EBITDA-Basis profitabel?",
                     "Est-ce que l'EBITDA était positif en 2024 ?"):
        assert read_question(question).answer_kind == "figure", question
    # whether a thing exists, or whether a figure was corrected, is no figure asked
    for question in ("Is there a change of control clause?",
                     "Are there any one-off items in the EBITDA?",
                     "Was the EBITDA for 2024 corrected?"):
        assert read_question(question).answer_kind != "figure", question
    # a contract's provisions are its clauses, not a charge recorded at an amount
    assert not read_question("Any change-of-control provisions?").ranking.wants_amount


def test_a_yes_no_question_about_a_metric_leads_with_the_figure_not_a_risk_factor() -> None:
    lead = _lead("Was Calder Mills profitable on an EBITDA basis in 2024?",
                 "Although we achieved positive EBITDA in each of the last two quarters, we may "
                 "not be able to sustain EBITDA profitability in future periods.",
                 "EBITDA was £4.2 million in 2024, against a loss of £1.1 million in 2023.")
    assert "£4.2 million" in lead, lead


# ---------------------------------------------------------------- which: named across passages


def test_a_which_list_collects_the_things_named_in_each_sentence_of_the_period() -> None:
    answer = evidence_answer(Ask.of(read_question("Which businesses did Calder acquire in 2023?")),
                             _evidence(
        "On 3 March 2023, we completed the acquisition of Ostra Foods, a maker of chilled "
        "soups, for £12 million.",
        "If we acquire further businesses, we may not be able to integrate them successfully.",
        "On 9 October 2023, we completed the acquisition of Brae Dairies in an all-share "
        "transaction.",
        "In 2021, we completed the acquisition of Lomond Bakeries.")).text
    first = answer.splitlines()[0]
    assert "Ostra Foods" in first and "Brae Dairies" in first, answer
    assert "Lomond" not in first and "(source: " in first, answer  # 2021 is not the year asked


def test_a_thing_acquired_is_named_though_its_sentence_never_says_business() -> None:
    evidence = _evidence(
        "On 9 October 2023, we completed the acquisition of Brae Dairies, allowing us to expand "
        "our chilled business in Scotland.",
        "On 12 November 2023, we completed the acquisition of Ostra Foods in an all-cash "
        "transaction, growing our soups business.",
        "In August 2023, we completed the acquisition of the remaining 45% ownership interest in "
        "Lomond Bakeries in an all-stock transaction.",
        "We may acquire complementary businesses, which could disrupt our business.",
        "The process of integrating an acquired business is subject to various risks.")
    asked = Ask.of(read_question("Which businesses did the company acquire in 2023?"))
    answer = evidence_answer(asked, evidence).text
    first = answer.splitlines()[0]
    assert all(name in first for name in ("Brae Dairies", "Ostra Foods", "Lomond Bakeries")), answer
    # "buy" is a word form of "acquire"; a month asked is one the sentence states
    bought = evidence_answer(Ask.of(read_question("What did the company buy in October 2023?")),
                             evidence).text.splitlines()[0]
    assert "Brae Dairies" in bought and "Ostra" not in bought, bought


def test_a_purchase_agreement_names_no_thing_acquired() -> None:
    assert named_after("On 21 July 2023, we entered into a Share Purchase Agreement to acquire "
                       "all of Ostra Foods.", "acquire", {"calder"}) == "Ostra Foods"
    assert named_after("We completed the acquisition of The Brae Group, Inc.", "buy",
                       set()) == "The Brae Group"
    assert named_after("During the fourth quarter of 2023, we finalized our estimate of the "
                       "acquisition date fair values of the assets acquired and the liabilities "
                       "assumed for Ostra Foods.", "acquire", set()) is None


def test_one_thing_named_is_quoted_as_its_sentence() -> None:
    answer = evidence_answer(Ask.of(read_question("Which businesses did Calder acquire in 2023?")),
                             _evidence(
        "On 3 March 2023, we completed the acquisition of Ostra Foods, a maker of chilled "
        "soups, for £12 million.",
        "Acquired businesses are integrated into the knitwear segment.")).text
    assert "Named in the passages" not in answer and "Ostra Foods" in answer, answer


def test_during_says_when_never_what() -> None:
    # "during 2023" dates the question: sentences that happen to say "during" do not answer it
    terms = read_question("What companies did Calder buy during 2023?").ranking.terms
    assert "during" not in terms and "buy" in terms, terms


def test_a_name_after_the_verb_is_a_thing_done_only_where_a_firm_is_asked() -> None:
    # "what accounting does it use": "the use of Halden chips" names no accounting
    arrangement = ("We also have a commercial arrangement for the provision of cloud services, "
                   "which includes the use of Halden chips.")
    notes = ("Our investments in Halden convertible notes are classified as available-for-sale "
             "and accounted for at fair value.")
    evidence = _evidence(arrangement, notes)
    evidence.meaning = {arrangement: 0.5, notes: 0.5}
    ranked = rank_spans(read_question("What accounting does Calder use for its Halden stake?"),
                        evidence)
    assert "available-for-sale" in ranked[0].text, ranked[0].text
