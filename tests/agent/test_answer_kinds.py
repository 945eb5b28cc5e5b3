"""A lead carries the kind of answer asked (issue 25): a cause for "why" and "what drove", a count
of the very things "how many" counts, a figure for "how much". A sentence that repeats the
question's words but states nothing of that kind does not lead over one that does. Every
passage below is invented for the tests (no filing's wording); each kind in more than one
wording and language where the vocabulary has it."""

from __future__ import annotations

from datetime import date

from test_spans import _evidence as _passages

from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.passages import stands
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.kinds import (
    cause_after,
    refers_to_change,
    states_count,
    states_place,
    states_reason,
)
from manda.agent.spans import fits_kind, rank_spans, statement_rows
from manda.models import Document, DocumentStatus

DOC = Document(id="d1", deal_id="d", filename="Northgate_Annual_Report.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2024, 12, 31),
               fiscal_year_end="--12-31")


def _evidence(*texts: str) -> Evidence:
    return _passages(*texts, doc=DOC)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def _lead(question: str, *texts: str) -> str:
    return evidence_answer(_ask(question), _evidence(*texts)).text.splitlines()[0]


# ---------------------------------------------------------------- the frame reads the kind


def test_the_frame_reads_what_how_many_counts_and_the_kinds_of_answer() -> None:
    assert read_question("How many associates does the retailer employ?").counted == (
        "associates",)
    assert read_question("In how many countries does it have depots?").counted == ("countries",)
    staff = read_question("How many team members does the group have?")
    assert (staff.answer_kind, staff.counted) == ("figure", ("team", "members"))
    assert read_question("How much cash does it hold?").counted == ()
    assert read_question("Where is the company headquartered?").answer_kind == "place"
    assert read_question("Which brands does the company sell?").answer_kind == "list"
    assert read_question("Did the strong euro hurt export sales?").answer_kind == "reason"
    assert read_question("What drove the rise in freight costs?").answer_kind == "reason"
    assert read_question("¿Cuántos empleados tiene la empresa?").counted == ("empleados",)


# ---------------------------------------------------------------- what carries each kind


def test_a_cause_is_said_in_many_wordings_and_languages() -> None:
    for text in ("Volumes fell, primarily as a result of the loss of a major contract.",
                 "Margins narrowed, reflecting higher diesel prices.",
                 "The rise was attributable to the new Leeds depot.",
                 "Le chiffre d'affaires a baissé en raison de la fermeture de deux sites.",
                 "Der Umsatz sank aufgrund geringerer Mengen.",
                 "Las ventas cayeron debido a la menor demanda.",
                 "Weaker sterling accounted for most of the decline in export sales."):
        assert states_reason(text), text
    assert not states_reason("Freight revenue was £412 million in 2024.")
    # "as" right after a change and its figure gives its cause; "as of", "as a percentage" none
    assert states_reason("Devices revenue decreased $1.8 billion or 24% as channel inventory "
                         "levels stayed elevated.")
    for text in ("Revenue increased 5% as compared to the prior year.",
                 "Cash grew to $4.2 billion as of June 30, 2025.",
                 "Research costs rose 2 points as a percentage of revenue."):
        assert not states_reason(text), text
    # the subject of an effect-first cause stands before the connective, of a cause-first one
    # after it
    assert cause_after("Sales fell due to lower volumes.") is not None
    assert cause_after("Weaker sterling accounted for the decline in sales.") is None


def test_a_sentence_that_points_back_at_a_change_is_told_apart() -> None:
    assert refers_to_change("The decline reflected lower fuel surcharges.")
    assert refers_to_change("This increase was driven by new routes.")
    assert refers_to_change("Cette baisse s'explique par la fermeture de deux sites.")
    assert not refers_to_change("The company operates 14 depots.")


def test_a_count_is_a_number_of_the_very_things_counted() -> None:
    people = ("employees",)
    assert states_count("At year end we had about 23,400 associates, most of them part time.",
                        people)
    assert states_count("The group employed 1,850 full-time equivalent staff.", people)
    assert states_count("Headcount reached 3,120 at 30 June 2024.", people)
    assert states_count("Its patents run from two to twelve years.", ("years",))
    assert not states_count("Its patents run for several years.", ("years",))
    assert states_count("Nous employons 640 salariés en France.", people)
    assert not states_count("Our team members earn a starting wage of $17 per hour.", people)
    assert not states_count("Our people are at the heart of everything we do in 2024.", people)
    depots = read_question("How many depots does the company operate?").counted
    assert states_count("The company operates 14 depots across the north of England.", depots)
    assert not states_count("The company operates 14 trucks from its depots.", depots)


def test_a_place_is_a_name_after_a_word_that_places_it() -> None:
    assert states_place("Northgate was incorporated in Delaware in 1998.")
    assert states_place("The group is headquartered in Leeds.")
    assert not states_place("In March we opened a depot.")


# ---------------------------------------------------------------- the lead carries it


def test_a_cause_question_leads_with_the_reason_not_its_echo() -> None:
    lead = _lead(
        "Why did Northgate's freight revenue fall in 2024?",
        "Freight revenue fell in 2024 compared with 2023, as discussed in the segment review.",
        "Passenger revenue increased in 2024 due to higher ridership on the coastal routes.",
        "Freight revenue decreased 8% to £412 million in 2024. The decline reflected lower fuel "
        "surcharges and softer intermodal volumes.")
    assert "fuel surcharges" in lead and "Freight revenue decreased 8%" in lead, lead


def test_the_cause_of_the_subject_asked_leads_not_a_cause_it_drives() -> None:
    lead = _lead(
        "Why did rail revenue shrink in 2024?",
        "Group revenue declined 3% in 2024 due to lower rail revenue and the sale of the bus "
        "division.",
        "Rail revenue declined 11% in 2024 due primarily to the loss of the Humber contract.")
    assert "Humber" in lead, lead


def test_a_cause_question_in_the_words_of_a_change_it_does_not_repeat() -> None:
    # "compress" is how the question asks about the change; "narrowed" states it
    lead = _lead(
        "Why did haulage margins compress in 2024?",
        "Haulage margin narrowed from 9.1% to 6.4% in 2024. The decrease was mainly due to "
        "driver wage inflation, partly offset by lower tyre costs.",
        "Haulage margin is defined as operating profit over haulage revenue.")
    assert "driver wage inflation" in lead, lead


def test_an_effect_question_is_answered_by_the_sentence_that_gives_the_cause() -> None:
    ask = _ask("Did the strong euro hurt export sales in 2024?")
    evidence = _evidence(
        "Export sales were £96 million in 2024.",
        "The strength of the euro against sterling weighed on export sales, which fell 6% in "
        "2024.")
    lead = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "weighed on export sales" in lead, lead
    from manda.agent.compose.common import Draft
    from manda.agent.compose.fact_lookup import compose

    figure = Draft(text="Export sales were £96 million in 2024 (source: report, p.12).")
    assert not stands(figure, ask, evidence)  # a level is no cause while a span gives one
    assert "weighed on" in compose(ask, evidence).text.splitlines()[0]


def test_a_headcount_question_leads_with_the_number_of_people() -> None:
    texts = ("Our people are our greatest strength, and we invest in our associates' "
             "development and wellbeing.",
             "Associates in our distribution centres are paid at least £12.60 an hour.",
             "As of 28 December 2024, we had approximately 23,400 associates, of whom 61% worked "
             "part time.")
    for question in ("How many employees does Northgate have?",
                     "How many associates does Northgate employ?",
                     "How many people work at Northgate?"):
        lead = _lead(question, *texts)
        assert "23,400" in lead, (question, lead)


def test_a_headcount_row_is_a_count_of_people() -> None:
    table = "\n".join(["Workforce", "2024 | 2023",
                       "Average number of employees | 2024: 1,240 | 2023: 1,180",
                       "Employee costs (£m) | 2024: 61.2 | 2023: 57.9"])
    top = rank_spans(read_question("How many employees did the group have in 2024?"),
                     _evidence(table))[0]
    assert top.row is not None and top.row.label.startswith("Average number of employees")
    frame = read_question("How many employees did the group have in 2024?")
    rows = {s.row.label: s for s in statement_rows(_evidence(table)) if s.row is not None}
    assert fits_kind(rows["Average number of employees"], frame)
    assert not fits_kind(rows["Employee costs (£m)"], frame)  # money, not people


def test_a_count_of_other_things_leads_with_that_count() -> None:
    lead = _lead("In how many countries does Northgate have sourcing offices?",
                 "Our sourcing offices support suppliers and quality teams across Asia.",
                 "We operate sourcing offices in 9 countries, employing 310 people.")
    assert "9 countries" in lead, lead


def test_a_figure_question_is_not_led_by_an_echo_without_a_figure() -> None:
    lead = _lead("How much debt does Northgate have outstanding?",
                 "Debt outstanding and our ability to refinance it on acceptable terms depend on "
                 "conditions in the debt markets.",
                 "At 31 December 2024, borrowings under the term loan were £145 million.")
    assert "£145 million" in lead, lead


def test_a_share_written_in_words_is_a_figure() -> None:
    lead = _lead("How much of Northgate's revenue comes from its own brands?",
                 "Own brands are an important part of our revenue strategy.",
                 "Roughly forty percent of our revenue comes from own-brand products.")
    assert "forty percent" in lead, lead


# ---------------------------------------------------------------- not found only when none is close


def test_not_found_only_when_no_passage_is_close() -> None:
    draft = evidence_answer(_ask("Why did Northgate's pension deficit widen in 2024?"),
                            _evidence("The company operates 14 depots in the north of England.",
                                      "Freight revenue was £412 million in 2024."))
    assert draft.offer_qa and "found nothing" in draft.text, draft.text
    near = evidence_answer(
        _ask("Why did Northgate's pension deficit widen in 2024?"),
        _evidence("The pension deficit increased to £38 million in 2024. The increase was "
                  "primarily due to a lower discount rate."))
    assert "lower discount rate" in near.text.splitlines()[0], near.text


def test_a_list_asked_is_answered_by_the_things_listed_not_by_a_rows_figures() -> None:
    """"What products are in …": the sentence that lists them ("A, B and C"), not the
    segment's row of net sales, which names the segment and lists nothing."""
    evidence = _evidence(
        "Segment Results\n(in millions)\n2025 | 2024\n"
        "Outdoor Living | 2025: 4,120 | 2024: 3,870\nWorkwear | 2025: 2,310 | 2024: 2,455",
        "Outdoor Living\nOutdoor Living includes tents, backpacks and climbing gear sold under "
        "the Ridgeline brand.")
    top = rank_spans(read_question("What products are in the Outdoor Living segment?"),
                     evidence)[0]
    assert top.row is None and "tents, backpacks and climbing gear" in top.text, top.text


def test_what_lists_things_is_three_named_things_or_what_follows_a_colon() -> None:
    frame = read_question("What are the company's credit ratings?")
    listing = {
        "Our ratings were as follows: Moody's Baa1, S&P BBB+": True,
        "Ratings inputs include leverage, coverage and scale.": True,
        "Ratings inputs include leverage, coverage, scale, diversity.": True,
        "The following table shows ratings by agency for 2025, 2024 and 2023 (in notches):": False,
        "Ratings include outlooks.": False,
    }
    for text, lists in listing.items():
        span = next(s for s in rank_spans(frame, _evidence(text)) if s.text.startswith(text[:20]))
        assert fits_kind(span, frame) is lists, text


def test_a_line_item_asked_with_the_verb_that_books_it_is_a_figure_whoever_booked_it() -> None:
    for question in ("What revenue did the group's Marine Systems segment report in 2025?",
                     "What revenue did the company report in 2025?",
                     "¿Qué ventas registró el segmento Marine Systems de la empresa en 2025?"):
        assert read_question(question).answer_kind == "figure", question


def test_what_offset_a_change_asks_for_its_cause() -> None:
    for question in ("What partly offset the growth in the group's services revenue in 2024?",
                     "What offset the decline in gross margin?",
                     "Was hat den Anstieg des Umsatzes teilweise ausgeglichen?",
                     "¿Qué compensó en parte el crecimiento de las ventas en 2024?"):
        assert read_question(question).answer_kind == "reason", question
    # an amount set off against another is a figure, not a cause
    assert read_question("What amount was offset against the receivable in 2024?"
                         ).answer_kind != "reason"
