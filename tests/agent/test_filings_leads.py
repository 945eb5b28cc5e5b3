"""How the best span leads on real-filing shapes (issue 25): a balance's movement is no level,
the cause's words count for half, a rate asked needs a rate, a cut-off caption's scale, a change
column named by two years, a close span below the bar, a person by surname. None of it knows a
company or a filing: the passages below are written for the tests."""

from __future__ import annotations

from datetime import date

import pytest
from test_spans import _evidence as _passages

from manda.agent.compose import fact_lookup
from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.fact_lookup import _matches
from manda.agent.compose.leads import a_change_column, led_by_best_span, row_lead
from manda.agent.compose.passages import a_change
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import a_movement, fits_kind, rank_spans
from manda.models import (
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    Location,
    SearchHit,
)

DOC = Document(id="d1", deal_id="d", filename="Annual.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED,
               doc_date=date(2025, 12, 31), fiscal_year_end="--12-31")


def _evidence(*texts: str) -> Evidence:
    return _passages(*texts, doc=DOC)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def _finding(subject: str, value: float, written: str, excerpt: str) -> Finding:
    return Finding(id=f"f-{subject}-{value}", deal_id="d", document_id=DOC.id,
                   kind=FindingKind.METRIC, subject=subject, label=subject.title(), value=value,
                   value_text=written, excerpt=excerpt, location=Location.for_page(10),
                   confidence=0.9, confidence_level=Confidence.HIGH)


def test_a_balances_movement_is_no_level_of_it() -> None:
    proceeds = _finding("debt", 5.1e9, "$5.1 billion",
                        "Cash inflows resulted from proceeds from long-term debt of $5.1 billion.")
    increase = _finding("debt", 3.93e9, "$3.93 billion",
                        "The change was due to a $3.93 billion increase in proceeds from debt.")
    level = _finding("debt", 65.6e9, "$65.6 billion",
                     "Our long-term debt was $65.6 billion as of December 31, 2025.")
    assert a_change(proceeds) and a_change(increase)
    assert not a_change(level)
    raised = _finding("ebit", 4.5e9, "$4.5 billion", "Operating income increased $4.5 billion.")
    assert a_change(raised)
    assert a_movement("repayments of notes") and not a_movement("long-term debt outstanding")


def test_the_level_leads_over_the_movement_for_a_balance_asked() -> None:
    evidence = _evidence(
        "Cash inflows from financing activities resulted from proceeds from long-term debt of "
        "$5.1 billion in 2025.",
        "Our long-term debt was $65.6 billion as of December 31, 2025.")
    ask = _ask("How much long-term debt did the company have at the end of 2025?")
    assert "$65.6 billion" in rank_spans(ask.frame, evidence)[0].text


def test_words_after_the_cause_count_for_half_when_a_rate_is_asked() -> None:
    evidence = _evidence(
        "Operating expenses increased $4.2 billion or 21% driven by investments in Azure.",
        "Azure revenue increased 29% driven by consumption-based services.")
    ask = _ask("How fast is Azure growing?")
    assert "29%" in rank_spans(ask.frame, evidence)[0].text


def test_a_row_of_percentages_is_no_amount() -> None:
    evidence = _evidence("\n".join([
        "Net Sales:", "Year Ended December 31, | 2024 | 2025",
        "North America | 2024: $387,497 | 2025: $426,305",
        "Net Sales Mix:", "Year Ended December 31, | 2024 | 2025",
        "North America | 2024: 61% | 2025: 59%"]))
    ask = _ask("What were North America segment sales in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "426,305" in top.text


def test_a_cut_off_caption_takes_the_documents_one_scale() -> None:
    evidence = _evidence(
        "CONSOLIDATED STATEMENTS OF OPERATIONS\n(millions)\n2025 | 2024\n"
        "Net sales | 2025: $104,780 | 2024: $106,566",
        "January 31, 2026 | February 1, 2025\n"
        "Long-term debt and other borrowings | January 31, 2026: $14,326 | "
        "February 1, 2025: 14,304")
    ask = _ask("What is the long-term debt?")
    top = next(s for s in rank_spans(ask.frame, evidence) if s.row is not None
               and "Long-term debt" in s.row.label)
    lines = row_lead(top, ask, evidence)
    assert lines is not None and "$14.3 billion" in lines[0]


def test_a_change_column_named_by_two_years_gives_the_rows_change() -> None:
    assert a_change_column("2025/2024") and a_change_column("% change")
    assert not a_change_column("2025")
    evidence = _evidence("CONSOLIDATED STATEMENTS OF OPERATIONS\n(millions)\n"
                         "2025 | 2024 | 2025/2024\n"
                         "Net sales | 2025: $104,780 | 2024: $106,566 | 2025/2024: (1.7)%")
    ask = _ask("What were net sales in 2025 and how did they change?")
    top = rank_spans(ask.frame, evidence)[0]
    lines = row_lead(top, ask, evidence)
    assert lines is not None and "$104.8 billion" in lines[0] and "-1.7%" in lines[0]


def test_a_listing_is_led_by_the_span_that_answers_one_figure() -> None:
    evidence = _evidence("\n".join([
        "Provision for income taxes, effective tax rate and statutory rate were as follows:",
        "2025 | 2024", "Effective tax rate | 2025: 15.6% | 2024: 24.1%"]))
    ask = _ask("What was the effective tax rate in 2025?")
    listing = Draft(text="Tax in the documents:\n- a passage (source: Annual.pdf, p.10)")
    led = led_by_best_span(listing, ask, evidence)
    assert "15.6%" in led.text.splitlines()[0]
    assert led.text.endswith(listing.text)
    broad = _ask("Tell me about tax")
    assert led_by_best_span(listing, broad, evidence) is listing


def test_a_close_span_of_the_kind_asked_leads_instead_of_not_found() -> None:
    evidence = _evidence("\n".join([
        "Revenues (in millions)", "Year Ended December 31, | 2023 | 2022",
        "Automotive sales | 2023: 78,509 | 2022: 67,210",
        "Automotive regulatory credits | 2023: 1,790 | 2022: 1,776"]))
    ask = _ask("How much did the company make from selling regulatory credits in 2023?")
    draft = evidence_answer(ask, evidence)
    assert "1.79 billion" in draft.text.splitlines()[0]
    assert "found nothing" not in draft.text and draft.offer_qa


def test_a_person_is_matched_by_surname_never_by_first_name_alone() -> None:
    cfo = _finding("person", 0.0, "", "Brian T. Olsavsky, Senior Vice President and CFO")
    cfo = cfo.model_copy(update={"entity": "Brian T. Olsavsky", "label": "Brian T. Olsavsky"})
    chair = cfo.model_copy(update={"entity": "Jeffrey P. Bezos", "label": "Jeffrey P. Bezos"})
    assert not _matches(cfo, "Brian Cornell")
    assert _matches(chair, "Jeff Bezos")


def test_growth_asked_of_any_flow_is_its_change_not_its_level() -> None:
    """"How much did bookings grow?": a flow the room states for one year only has no computed
    growth, and its level is no growth; the sentence that states the change answers."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence(
        "Gross Bookings increased by $32.5 billion in 2025, up 56%, compared to 2024.",
        "Our platform connects consumers with merchants in many cities.")
    level = _finding("bookings", 90.4e9, "$90.4 billion",
                     "Gross Bookings were $90.4 billion in 2025.")
    evidence.add_findings([level.model_copy(update={"period": "FY2025"})])
    first = compose(_ask("How much did the company's gross bookings grow in 2025?"),
                    evidence).text.splitlines()[0]
    assert "56%" in first and "$32.5 billion" in first, first


def test_a_sentence_about_another_line_item_is_no_answer_of_the_one_asked() -> None:
    """"Cost of revenue increased" names revenue only inside another line item: the sentence
    speaks of the cost, and "Revenue increased" answers."""
    evidence = _evidence(
        "Cost of revenue increased $3.2 billion or 5% driven by growth in cloud services.",
        "Revenue increased $13.6 billion or 7% driven by growth in cloud services.")
    top = rank_spans(_ask("How much did revenue increase in 2025?").frame, evidence)[0]
    assert top.text.startswith("Revenue increased"), top.text


def test_a_figure_asked_of_a_topic_is_the_sentence_that_states_it() -> None:
    """"How much has it paid to settle the claims?" asks a figure of litigation: the sentence
    stating the amount paid answers, not the litigation statements the topic lists."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence(
        "Plaintiffs have brought litigation asserting that couriers must be classified as "
        "employees, and these lawsuits could result in material damages.",
        "We have resolved the classification claims of most couriers under individual "
        "settlement agreements, pursuant to which we have paid approximately $372 million.")
    first = compose(_ask("How much has the company paid to settle couriers' classification "
                         "claims?"), evidence).text.splitlines()[0]
    assert "$372 million" in first, first


def test_a_defined_term_says_what_it_stands_for() -> None:
    """'… 1.50% convertible senior notes due 2030 (the "2030 Notes")': a later sentence about
    the "2030 Notes" speaks of the convertible senior notes, and "unless earlier converted"
    is a carve-out of a stated date, no hedge."""
    from manda.text import defined_terms

    defining = ("In March 2024, the Company issued $500.0 million aggregate principal amount of "
                "1.50% convertible senior notes due 2030 (the “2030 Notes”) under an indenture.")
    assert defined_terms(defining) == {
        "2030 Notes": "aggregate principal amount of 1.50% convertible senior notes due 2030"}
    evidence = _evidence("\n".join([
        defining,
        "The 2030 Notes mature on March 1, 2030, unless earlier converted or repurchased.",
        "Holders may convert their notes at their option before the maturity date."]))
    top = rank_spans(_ask("When do the company's convertible senior notes mature?").frame,
                     evidence)[0]
    assert "March 1, 2030" in top.text, top.text


def test_a_parts_sentence_is_no_answer_where_the_whole_is_asked() -> None:
    """"AWS sales increased 20%" names a part by the word before its line item: where the
    company's sales growth is asked, "Sales increased 12%" answers, and the part where named."""
    evidence = _evidence(
        "North America sales increased 10% in 2025, compared to the prior year.",
        "AWS sales increased 20% in 2025, compared to the prior year.",
        "Sales increased 12% in 2025, compared to the prior year.")
    top = rank_spans(_ask("How fast did the company's sales grow in 2025?").frame, evidence)[0]
    assert top.text.startswith("Sales increased 12%"), top.text
    top = rank_spans(_ask("How fast did AWS sales grow in 2025?").frame, evidence)[0]
    assert top.text.startswith("AWS sales"), top.text


def test_a_tables_column_heads_run_into_a_line_state_nothing() -> None:
    """"Interest Rate December 31, 2025 December 31, 2024 Senior notes" is a table's heads
    read as a line, not a sentence that answers when the notes mature."""
    evidence = _evidence(
        "Interest Rate December 31, 2025 December 31, 2024 Convertible senior notes",
        "The notes mature on May 15, 2028, unless earlier converted.")
    top = rank_spans(_ask("When do the company's convertible senior notes mature?").frame,
                     evidence)[0]
    assert "May 15, 2028" in top.text, top.text


def test_a_line_items_word_used_as_a_verb_is_no_subject_of_the_sentence() -> None:
    """"Our strategy continues to leverage stores …": "leverage" is a verb there, four words
    in, no line item the sentence speaks of; the sentence answers the share asked."""
    evidence = _evidence(
        "Our strategy continues to leverage stores as fulfillment hubs, with stores fulfilling "
        "more than 97 percent of total sales.",
        "Sales fulfilled by our stores fell 2 percent in 2025 as stores fulfilled fewer orders.")
    top = rank_spans(_ask("What percentage of sales do the company's stores fulfil?").frame,
                     evidence)[0]
    assert "97 percent" in top.text, top.text


def test_a_cause_that_is_the_change_asked_does_not_lead() -> None:
    # the segment's sentence names the line item asked as its cause and points elsewhere; the
    # sentence that states why leads
    evidence = _evidence(
        "Gross margin for total trucking & brokerage segment decreased from 29.4% to 21.7% in "
        "the year ended December 31, 2025 as compared to the year ended December 31, 2024, "
        "primarily due to the trucking gross margin decrease discussed above.",
        "Gross margin for total trucking decreased from 31.0% to 22.5% in the year ended "
        "December 31, 2025 as compared to the year ended December 31, 2024. The decrease was "
        "primarily due to lower fuel surcharges billed to shippers, as discussed above.")
    for question in ("What caused the trucking gross margin to decline in 2025?",
                     "Reason for the lower trucking gross margin in 2025?"):
        assert "fuel surcharges" in rank_spans(_ask(question).frame, evidence)[0].text, question


def test_a_whole_explained_by_the_part_asked_is_no_cause_of_the_part() -> None:
    """"Why did Halden Pro revenue fall?": "Product revenue decreased … driven by a decrease in
    Halden Pro" explains the whole by the part asked; the part's own sentence, whose cause
    follows "as" right after its change, says why it fell."""
    evidence = _evidence(
        "Product revenue decreased €3.2 million or 13% driven by a decrease in Halden Pro.",
        "Halden Pro revenue decreased 25% as distributors ran down their elevated inventories.")
    top = rank_spans(_ask("Why did Halden Pro revenue fall in 2025?").frame, evidence)[0]
    assert "distributors" in top.text, top.text


def test_a_pledge_asked_is_the_commitment_the_filing_states() -> None:
    # "pledged" is a word form of "committed": the commitment leads, not a sentence on the topic
    evidence = _evidence(
        "Zero-emission vehicles on our network completed about 12% of all rides in 2025, and "
        "riders can request zero-emission vehicles in most cities.",
        "We have made the commitment to reach zero-emission vehicles on our network by the end "
        "of 2035.")
    draft = evidence_answer(_ask("What has the company pledged on zero-emission vehicles?"),
                            evidence)
    assert "2035" in draft.text.splitlines()[0], draft.text


def test_a_caution_is_no_cause() -> None:
    # "… should not be considered indicative of our future performance" speaks of the growth
    # asked and says nothing of why it grew
    evidence = _evidence(
        "Accordingly, our recent revenue growth rate and financial performance, including prior "
        "to the effects of the port strike, the decline related to the strike and recent growth "
        "rates compared to periods in the midst of the strike, should not be considered "
        "indicative of our future performance.",
        "Revenue increased $84.2 million, or 12%, in 2025 as compared to the prior year, driven "
        "primarily by higher order volumes.")
    assert "order volumes" in rank_spans(
        _ask("What drove revenue growth in 2025?").frame, evidence)[0].text


def test_a_change_made_of_the_part_asked_is_no_cause_of_that_part() -> None:
    # "the net sales increase consisted of higher net sales of Widgets": Widgets are what the
    # company's change was made of; the sentence whose subject is Widgets' net sales says why,
    # even where the other reads a little closer in meaning
    made_of = ("The net sales increase consisted of higher net sales of Widgets and Services, "
               "partially offset by lower net sales of Gadgets.")
    why = ("Widgets net sales decreased 2% or $4.9 million during 2025 compared to 2024 due to "
           "lower net sales of entry models, partially offset by higher net sales of Pro models.")
    evidence = _evidence(made_of, why)
    evidence.meaning = {made_of: 0.75, why: 0.45}
    lead = rank_spans(_ask("Why did Widgets net sales fall in 2025?").frame, evidence)[0].text
    assert "entry models" in lead, lead


def test_why_a_line_item_moved_in_the_year_asked_not_in_another() -> None:
    other = ("Widgets net sales increased during 2025 compared to 2024 due to higher net sales of "
             "Pro models.")
    asked = ("Widgets net sales decreased 2% during 2023 compared to 2022 due to lower net sales "
             "of entry models.")
    evidence = _evidence(other, asked)
    evidence.meaning = {other: 0.75, asked: 0.45}
    lead = rank_spans(_ask("Why did Widgets net sales fall in 2023?").frame, evidence)[0].text
    assert "entry models" in lead, lead


def test_a_favorable_change_is_a_change_and_its_cause_is_read_with_it() -> None:
    evidence = _evidence(
        "Interest income increased $90 million, or 120%, in 2025 as compared to 2024. This "
        "increase was primarily due to higher interest earned on our cash and cash equivalents.",
        "Other income, net, changed favorably by $41 million in 2025 as compared to 2024. The "
        "favorable change was primarily due to fluctuations in foreign currency exchange rates on "
        "our intercompany balances.")
    lead = rank_spans(_ask("Why did other income improve in 2025?").frame, evidence)[0].text
    assert "foreign currency" in lead, lead


_COMMON_SIZE = "\n".join([
    "(in thousands)", "2025 | 2024",
    "Revenue | 2025: $5,120,400 | 2024: $4,310,900",
    "Costs and expenses", "2025 | 2024",
    "Selling expenses | 2025: 640,300 | 2024: 702,100",
    "The following table sets forth our results as a percentage of revenue:",
    "2025 | 2024",
    "Revenue | 2025: 100.0% | 2024: 100.0%",
    "Costs and expenses", "2025 | 2024",
    "Selling expenses | 2025: 12.5 | 2024: 16.3"])


def test_a_common_size_tables_rows_are_shares_not_amounts_at_the_pages_scale() -> None:
    evidence = _evidence(_COMMON_SIZE)
    ask = _ask("What were the company's selling expenses in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "640,300" in top.text
    lines = row_lead(top, ask, evidence)
    assert lines is not None and "$640.3 million" in lines[0]
    share = next(s for s in rank_spans(ask.frame, evidence) if "12.5" in s.text)
    assert [f.unit for f in share.figures()] == ["%", "%"]
    assert "$12,500" not in " ".join(row_lead(share, ask, evidence) or [])
    assert not fits_kind(share, ask.frame)
    proportion = _ask("What were selling expenses as a percentage of revenue in 2025?")
    assert fits_kind(share, proportion.frame)


def test_interest_income_asked_is_a_figure_its_row_states_not_its_change() -> None:
    evidence = _evidence("\n".join([
        "Interest Income", "(Dollars in millions)", "2025 | 2024 | change | change %",
        "Interest income | 2025: $2,140 | 2024: $610 | change: $1,530 | change %: 251%",
        "Interest income increased $1,530 million, or 251%, in 2025 as compared to 2024, "
        "primarily due to higher rates."]))
    for question in ("What was the company's interest income in 2025?", "Interest income 2025?"):
        ask = _ask(question)
        assert ask.frame.answer_kind == "figure", question
        top = rank_spans(ask.frame, evidence)[0]
        lines = row_lead(top, ask, evidence)
        assert lines is not None and "$2.14 billion" in lines[0], question


def test_the_overall_change_the_sentence_before_states_carries_its_cause() -> None:
    evidence = _evidence(
        "Engineering expenses increased $512 million, or 18%, in 2025 as compared to 2024. "
        "The overall increase was primarily driven by pre-production costs for the new "
        "tractor line.",
        "Engineering expenses consist primarily of personnel costs.")
    ask = _ask("What drove the increase in the company's engineering expenses in 2025?")
    assert "tractor line" in rank_spans(ask.frame, evidence)[0].text


def test_a_count_asked_of_a_topic_is_not_answered_by_its_charge() -> None:
    evidence = _evidence(
        "In the second quarter we recorded a restructuring charge of $640 million, which "
        "included severance and impairment charges.",
        "First, we reduced our overall workforce by approximately 4,000 jobs through the third "
        "quarter of fiscal year 2025 related to the charge.")
    draft = fact_lookup.compose(_ask("How many jobs did the company cut as part of its fiscal "
                                     "2025 restructuring?"), evidence)
    # the topic's charge states no number of jobs: it never answers how many were cut
    assert "$640 million" not in draft.text.splitlines()[0]
def test_a_line_item_named_in_a_reason_clause_is_the_cause_not_the_figure_asked() -> None:
    """"How much cash tax did it pay because R&D must be capitalized?" asks the cash tax: R&D,
    named in the because-clause, is its cause. The sentence that states the tax with that cause
    leads, never the R&D line item's own figure."""
    from dataclasses import replace

    from manda.agent.compose import compose

    question = ("How much cash tax did the company pay in 2025 because research and "
                "development must now be capitalized for tax?")
    frame = read_question(question)
    assert "research and development" not in frame.subjects and frame.effect
    assert "because" not in frame.ranking.terms
    # "due to" of a payment falling due gives no cause
    assert not read_question("How much long-term debt is due to be repaid in 2027?").effect
    assert read_question("How much cash tax did it pay due to the capitalization of R&D?").effect
    assert read_question("How much did research and development rise in 2025?").subjects
    rnd = _finding("research and development", 27.2e9, "$27.2 billion",
                   "Research and development expenses were $27.2 billion in 2025.")
    evidence = replace(_evidence(
        "Research and development expenses were $27.2 billion in 2025, up 10%.",
        "In 2025, we paid cash tax of $4.8 billion due to the mandatory capitalization for tax "
        "purposes of research and development expenditures."), findings={rnd.id: rnd})
    first = compose(_ask(question), evidence).text.splitlines()[0]
    assert "$4.8 billion" in first and "$27.2 billion" not in first, first


def test_a_notes_marker_is_no_figure_and_a_cut_quote_keeps_its_figure_whole() -> None:
    """"(1)Effective January 1, 2025, we changed the useful lives …" states no amount: for "how
    much extra depreciation …" the sentence that states the effect in money leads; and a long
    quote cut short never ends inside its figure ("$1.4 …" for "$1.4 billion")."""
    from manda.agent.unusual import trim

    evidence = _evidence(
        "(1)Effective January 1, 2025, we changed our estimate of the useful lives of our "
        "servers from six to five years.",
        "The effect of this change in estimate was an increase in depreciation expense of "
        "$1.4 billion in 2025.")
    top = rank_spans(_ask("How much extra depreciation did the company record in 2025 because "
                          "it shortened the useful lives of its servers?").frame, evidence)[0]
    assert "$1.4 billion" in top.text, top.text
    sentence = "The effect was an increase in depreciation expense of $1.4 billion in 2025."
    cut = sentence.index("$1.4") + 4
    assert "$1.4 billion" in trim(sentence, cut + 1), trim(sentence, cut + 1)


def _of_part(question: str, part: str) -> Ask:
    """The question as the graph scopes it to the company whose name opens `part`."""
    from dataclasses import replace

    return Ask.of(replace(read_question(question), entity=None, named_part=part))


def test_a_part_named_after_its_company_is_answered_by_its_own_figure() -> None:
    """"How big was Globex Cloud revenue?": Globex Cloud is a business of Globex, whose total
    revenue (a finding of the company) and whose "Intelligent Cloud" segment are other figures;
    the span naming the part answers, and a name of three words goes by its initials ("GWS")."""
    from dataclasses import replace

    from manda.agent.compose import compose
    from manda.agent.graph import company_words

    total = _finding("revenue", 211.9e9, "$211.9 billion",
                     "Total revenue was $211.9 billion in fiscal 2025.")
    evidence = replace(_evidence(
        "Total revenue was $211.9 billion in fiscal 2025, up 7%.",
        "Intelligent Cloud revenue increased 17% to $87.9 billion.",
        "Globex Cloud revenue increased 22% to $111.6 billion.",
        "Globex Cloud gross margin percentage increased 2 points to 72%.",
        "GWS sales increased 20% in 2025, compared to the prior year.",
        "GWS sales were $128.7 billion in 2025."), findings={total.id: total})
    first = compose(_of_part("How big was Globex Cloud revenue in fiscal 2025?", "Globex Cloud"),
                    evidence).text.splitlines()[0]
    assert "$111.6 billion" in first, first
    first = compose(_of_part("What was Globex Cloud's gross margin percentage in fiscal 2025?",
                             "Globex Cloud"), evidence).text.splitlines()[0]
    assert "72%" in first, first
    first = compose(_of_part("How much revenue did Globex Web Services generate in 2025?",
                             "Globex Web Services"), evidence).text.splitlines()[0]
    assert "$128.7 billion" in first, first
    doc = DOC.model_copy(update={"filename": "Globex_10-K_FY2025.pdf"})
    words = company_words("Globex Cloud", frozenset({doc.id}),
                           Evidence(documents={doc.id: doc}))
    assert words == {"globex"}
    from manda.agent.frame import company_word

    assert company_word("inc") and company_word("GmbH") and not company_word("cloud")


def test_a_part_of_the_total_is_no_answer_where_a_sentence_states_the_whole() -> None:
    """"How much of its reserve did it release?": "$5.9 billion of the total reserve release
    was related to future years" states a part of the release; "we released $6.5 billion of
    our reserve" states the release itself and leads. A part asked is still answered by it."""
    evidence = _evidence(
        "Approximately $5.9 billion of the total reserve release was related to assets to be "
        "realized in future years in 2025.",
        "As such, we released $6.5 billion of our reserve in 2025.")
    top = rank_spans(_ask("How much of its reserve did the company release in 2025?").frame,
                     evidence)[0]
    assert "$6.5 billion" in top.text, top.text
    top = rank_spans(_ask("How much of the reserve release in 2025 related to assets realized "
                          "in future years?").frame, evidence)[0]
    assert "$5.9 billion" in top.text, top.text


@pytest.mark.parametrize("question", [
    "What was the impact of foreign exchange rates on the company's net sales in 2025?",
    "What was the effect of interest rates on the company's net sales in 2025?",
])
def test_rates_named_as_what_moved_a_figure_ask_the_figure_not_a_rate(question: str) -> None:
    """"The impact of foreign exchange rates on net sales" asks an amount the rates moved: the
    sentence stating it leads, not the sales growth rate beside it."""
    evidence = _evidence(
        "Sales increased 12% in 2025, compared to the prior year. Changes in foreign exchange "
        "rates increased net sales by $4.4 billion in 2025. Changes in interest rates "
        "increased net sales by $4.4 billion in 2025.")
    frame = read_question(question)
    assert frame.answer_kind == "figure"
    assert "$4.4 billion" in rank_spans(frame, evidence)[0].text


def test_a_rate_asked_of_a_note_is_still_a_rate() -> None:
    """"What interest rate do the notes carry?" asks the rate itself."""
    assert read_question("What interest rate do the 2030 notes carry?").answer_kind == "rate"


def test_a_parts_figure_named_before_the_line_item_gives_way_to_the_wholes() -> None:
    """"… reduced North America net sales by $454 million" names a part of the net sales asked,
    by the capitalised name before them; the sentence of the whole leads."""
    evidence = _evidence(
        "Changes in foreign exchange rates reduced North America net sales by $454 million in "
        "2025. Changes in foreign exchange rates increased International net sales by $4.9 "
        "billion in 2025. Changes in foreign exchange rates increased net sales by $4.4 "
        "billion in 2025.")
    top = rank_spans(read_question("What was the impact of foreign exchange rates on the "
                                   "company's net sales in 2025?"), evidence)[0]
    assert "$4.4 billion" in top.text, top.text


def test_a_lead_in_giving_its_scale_before_column_heads_in_words_names_a_table() -> None:
    """"… is as follows (in millions): Year Ended December 31, 2025 As Reported Exchange Rate
    Effect (1)": a caption run into its column heads states nothing and never leads."""
    from manda.agent.spans.sentences import captions_table

    assert captions_table("The effect on our net sales from changes in foreign exchange rates is "
                          "as follows (in millions): Year Ended December 31, 2024 Year Ended "
                          "December 31, 2025 AsReported ExchangeRateEffect (1) At "
                          "PriorYearRates (2)")
    assert not captions_table("Net sales by segment were as follows (in millions): North "
                              "America $426,305 International $161,894")


def test_a_balance_compared_with_a_year_earlier_is_searched_for_by_its_own_name() -> None:
    """"How did inventories at the end of fiscal 2025 compare with a year earlier?": the words
    of comparing bury the balance sheet's row in the question's search; the line item is also
    searched for by its own name and period."""
    from manda.agent.planner import OfflineComposer

    ask = _ask("How did the company's inventories at the end of fiscal 2025 compare with a "
               "year earlier?")
    queries = [str(c.arguments.get("query", "")) for c in OfflineComposer().plan(ask, max_calls=6)]
    assert any(q.startswith("inventor") and "FY2025" in q and "compare" not in q
               for q in queries), queries


def test_a_balance_compared_between_two_named_years_keeps_the_questions_own_search() -> None:
    """"How did inventories change between the end of 2024 and the end of 2025?" names both
    year ends: its own search places the row, and no search by the line item's name alone is
    added (one by the first year's name had brought in other passages)."""
    from manda.agent.planner import OfflineComposer

    ask = _ask("How did the company's inventories change between the end of 2024 and the end "
               "of 2025?")
    queries = [str(c.arguments.get("query", "")) for c in OfflineComposer().plan(ask, max_calls=6)]
    assert not any(q.startswith("inventor") for q in queries), queries


def test_who_does_the_thing_asked_leads_over_a_sentence_that_merely_names_people() -> None:
    """"Who owns Halden's Class B stock?": the sentence naming who owns it ("beneficially owned
    by either Ann Ward or Tom Reid") leads over one about the stock that names other people or
    a market, ranked level before."""
    evidence = _evidence(
        "Our Class B common stock is neither listed nor traded, its board chair Mark Stone "
        "said of the Class B common stock.",
        "All shares of Class B common stock are beneficially owned by either Ann Ward or "
        "Tom Reid.")
    ranked = rank_spans(read_question("Who owns Halden's Class B common stock?"), evidence)
    assert ranked and "Ann Ward" in ranked[0].text, [s.text for s in ranked[:2]]


def test_how_a_line_item_is_measured_is_answered_by_a_sentence_naming_it() -> None:
    """"How does Halden measure the cost of its inventory?": a policy sentence about another
    cost ("… to measure the cost of employee services") shares the question's verb and noun
    but never names the inventory asked; the sentence that does leads."""
    evidence = _evidence(
        "We use the fair value method of accounting for our stock options to measure the cost "
        "of employee services received in exchange for the awards.",
        "Inventories are stated at the lower of cost or net realizable value, with cost "
        "computed on a first-in, first-out basis.")
    ranked = rank_spans(read_question("How does Halden measure the cost of its inventory?"),
                        evidence)
    assert ranked and "first-in, first-out" in ranked[0].text, [s.text for s in ranked[:2]]


def test_a_tables_group_heading_names_the_row_right_under_it() -> None:
    """"2025 issuance:" over "Senior notes 2030 – 2035 800 5.05% – 5.40%": the row is the
    2025 issue, though its own words never say so; the row under the other heading is not."""
    notes = "\n".join([
        "Notes Payable",
        "The following table summarizes the company's notes as of December 31, 2025 (in "
        "millions):",
        "Maturities Amount Effective Rate",
        "2015 – 2022 issuances:",
        "Senior notes 2026 – 2045 $6,200 2.10% – 4.60%",
        "2025 issuance:",
        "Senior notes 2030 – 2035 800 5.05% – 5.40%",
        "Total notes principal $7,000",
    ])
    ask = _ask("How much did the company raise in its 2025 notes issuance?")
    assert rank_spans(ask.frame, _evidence(notes))[0].text.startswith("Senior notes 2030")


def test_a_figure_led_by_a_span_that_covers_too_little_of_the_question_is_not_stated() -> None:
    """"How much of retail sales came from airport stores?": the retail sales row states a
    figure but says nothing of airport stores, while a sentence says more of the question: the
    answer says no passage states the figure before the closest passages, never the row's
    figure as the answer."""
    evidence = _evidence(
        "Retail sales\n2025 | 2024\nRetail sales | 2025: $4,200 | 2024: $3,900",
        "In 2025 more of our retail customers came through airport stores than ever before.")
    ask = _ask("How much of Halden's retail sales in 2025 came from airport stores?")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$4,200" not in first and "No passage" in first, first
    # a question the row covers is answered by it, and a row leads a question asking no part
    whole = evidence_answer(_ask("What were Halden's retail sales in 2025?"), evidence).text
    assert "$4,200" in whole.splitlines()[0]
    moved = evidence_answer(_ask("How did Halden's retail sales change between the end of 2024 "
                                 "and the end of 2025?"), evidence).text
    assert "No passage" not in moved.splitlines()[0], moved


def test_a_sentence_of_other_years_only_is_quoted_as_theirs_not_the_year_asked() -> None:
    """"The grant-date fair value of units granted in 2024 and 2023 was $41.10 and $36.20" where
    2025 is asked: the answer says the passages state those years only, before the quote; a
    sentence that names the year asked leads as it is."""
    evidence = _evidence(
        "The weighted-average grant-date fair value of units granted in 2024 and 2023 was "
        "$41.10 and $36.20, respectively.")
    ask = _ask("What was the weighted-average grant-date fair value per unit granted in "
               "fiscal 2025?")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert first.startswith("The passages read state it for 2024, 2023 only, not for 2025"), first
    evidence = _evidence(
        "The weighted-average grant-date fair value of units granted in 2025 and 2024 was "
        "$45.30 and $41.10, respectively.")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$45.30" in first, first


def test_a_balance_at_a_date_against_a_year_earlier_is_read_from_its_row() -> None:
    """"Inventories at December 31, 2025 compared with a year earlier?": no finding of the year
    before, but the balance sheet's row states both year ends; it leads with both, never a
    "found nothing"."""
    from manda.agent.compose import compose as dispatch
    from manda.answers import Intent

    evidence = _evidence("\n".join([
        "Consolidated Balance Sheets (in millions)",
        "December 31, 2025 | December 31, 2024",
        "Inventories | December 31, 2025: $4,120 | December 31, 2024: $3,870",
        "Total current assets | December 31, 2025: $9,800 | December 31, 2024: $9,100"]))
    ask = _ask("Inventories at December 31, 2025 compared with a year earlier?")
    assert ask.intent is Intent.COMPARISON
    first = dispatch(ask, evidence).text.splitlines()[0]
    assert "$4.12 billion" in first and "$3.87 billion" in first, first


# a cash-flow statement and an MD&A sentence written for the tests: the flows of a period
_CASH_FLOWS = "\n".join([
    "CONSOLIDATED STATEMENTS OF CASH FLOWS (in millions)",
    "Year Ended December 31, | 2025 | 2024 | 2023",
    "Financing activities:",
    "Proceeds from issuance of long-term debt | 2025: 4,200 | 2024: — | 2023: 1,500",
    "Repayments of long-term debt | 2025: (2,750) | 2024: (9,020) | 2023: (3,750)",
    "Dividends paid | 2025: (1,980) | 2024: (1,810) | 2023: (1,650)",
    "Net cash used in financing activities | 2025: (530) | 2024: (10,830) | 2023: (3,900)"])
_CASH_PROSE = ("Cash used in financing decreased $10.3 billion to $0.5 billion in 2025, mainly "
               "due to a $6.3 billion decrease in repayments of long-term debt and a $4.2 billion "
               "increase in proceeds from issuance of long-term debt.")
_DEBT_LEVEL = "Our long-term debt was $48.6 billion as of December 31, 2025."


@pytest.mark.parametrize("question", [
    "How much long-term debt did the company repay in 2025?",
    "How much term debt did the company pay down in 2025?",
    "What were the company's repayments of long-term debt in 2025?"])
def test_debt_repaid_is_the_cash_flow_row_not_its_change_or_the_balance(question: str) -> None:
    """A question that asks what was repaid names a flow of the period: its cash-flow row leads,
    never the debt outstanding nor the sentence that states by how much repayments changed."""
    evidence = _evidence(_CASH_PROSE, _DEBT_LEVEL, _CASH_FLOWS)
    ask = _ask(question)
    assert ask.frame.subjects == ("debt repaid",) and not ask.frame.schedule
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "2.75 billion" in first and "48.6" not in first and "6.3" not in first, first


def test_debt_raised_is_the_proceeds_row() -> None:
    evidence = _evidence(_CASH_PROSE, _DEBT_LEVEL, _CASH_FLOWS)
    ask = _ask("How much cash did the company raise from issuing debt in 2025?")
    assert ask.frame.subjects == ("debt issued",)
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "4.2 billion" in first and "48.6" not in first, first


def test_a_balance_is_still_its_level_and_a_schedule_still_falls_due() -> None:
    """The flows read above leave the balance and its schedule as they were."""
    evidence = _evidence(_CASH_PROSE, _DEBT_LEVEL, _CASH_FLOWS)
    level = _ask("How much long-term debt did the company have at the end of 2025?")
    assert "48.6 billion" in rank_spans(level.frame, evidence)[0].text
    due = _ask("How much debt principal does the company have to repay in 2027?")
    assert due.frame.subjects == ("debt",) and due.frame.schedule


@pytest.mark.parametrize(("question", "subject"), [
    # cash named as how it was paid is no balance, but "cash dividends" are the dividends
    ("Cash dividends paid in 2025?", "dividends paid"),
    ("Company cash taxes paid in 2025?", "income taxes paid"),
    # the debt the interest was paid on qualifies the flow: it is not asked
    ("How much cash did the company pay for interest on its debt in 2025?", "interest paid"),
    ("How much cash did the company pay for acquisitions, net of the cash it acquired?",
     "acquisitions paid"),
    ("What did the company pay to acquire property, plant and equipment in 2025?", "capex")])
def test_a_flow_paid_is_asked_not_the_balance_it_names(question: str, subject: str) -> None:
    assert read_question(question).subjects == (subject,)


def test_a_tables_line_is_of_the_one_period_its_title_names() -> None:
    """A table of a year's activity whose title names the year ("… option activity for 2025 is
    as follows:") and whose lines name none: "Options granted 1,240 $52.10" is 2025's, and
    leads over a sentence that states other years only."""
    evidence = _evidence("\n".join([
        "Stock Options",
        "A summary of the option activity for 2025 is as follows:",
        "Number of Options (in thousands) Weighted-Average Exercise Price Per Option",
        "Options granted 1,240 $52.10",
        "Options exercised (610) $31.75",
        "Options forfeited (95) $44.20",
        "The weighted-average exercise price of options granted in 2024 and 2023 was $47.90 "
        "and $40.15, respectively.",
        "The Company estimates the fair value of options with a lattice model."]))
    ask = _ask("What was the weighted-average exercise price per option granted in fiscal 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "$52.10" in top.text and top.dated_by == frozenset({2025}), top
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$52.10" in first, first


def test_a_title_cut_by_the_passage_is_read_with_its_page() -> None:
    """A passage that opens inside a table's title ("in thousands, and per-share amounts):")
    reads the title's start from another passage of its page: the quarter it names dates the
    table's lines."""
    caption = ("Unit sales during the three months ended June 28, 2025, were as follows (in "
               "millions, except units, which are reflected")
    texts = ["\n".join(["Item 5. Sales", caption, "in thousands, and per-unit amounts):",
                        "Direct channel 3,110 $52.40"]),
             "\n".join(["in thousands, and per-unit amounts):", "Direct channel 3,110 $52.40",
                        "Partner channel 2,905 $48.10", "Total units 6,015 $98,110"])]
    evidence = Evidence(documents={DOC.id: DOC}, hits=[  # two passages of one page
        SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                  location=Location.for_page(21), score=1.0) for i, text in enumerate(texts)])
    spans = rank_spans(_ask("How many units were sold in the quarter ended June 28, 2025?").frame,
                       evidence)
    total = next(s for s in spans if s.text.startswith("Total units 6,015"))
    assert total.dated_by == frozenset({2025}) and "three months ended" in total.titled, total


def test_a_balances_word_alone_names_no_line_item_asked() -> None:
    """"Goodwill balance at December 31, 2024?": the "Ending balance" row of a valuation
    allowance's roll-forward says "balance" only, which any line item's balance says: it is
    another line item, never led as the goodwill."""
    from manda.agent.compose.lead_check import lead_miss

    evidence = _evidence("\n".join([
        "A reconciliation of the valuation allowance is as follows (in thousands):",
        "Year Ended December 31, | 2025 | 2024",
        "Beginning balance | 2025: $2,144,548 | 2024: $1,751,118",
        "Net changes in deferred tax assets and liabilities | 2025: 252,401 | 2024: 393,430",
        "Ending balance | 2025: $2,396,949 | 2024: $2,144,548"]))
    ask = _ask("What was the company's goodwill balance at December 31, 2024?")
    ending = next(s for s in rank_spans(ask.frame, evidence)
                  if s.row is not None and s.row.label == "Ending balance")
    assert lead_miss(ending, ask) == "lead_other_item"
