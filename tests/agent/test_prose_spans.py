"""Passages read as prose (issue 25): a lead-in's bulleted reasons are one span with it, a
sentence a page break cut is read whole or not led with, and a quarter asked is one reading for
every reader, however the question or the passage names it. The passages are written for the
tests; none is a filing's."""

from __future__ import annotations

from datetime import date

from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.finance.periods import is_part_of_year, quarters_in
from manda.models import Document, DocumentStatus, Location, SearchHit
from manda.text import bullet_item

DOC = Document(id="d1", deal_id="d", filename="Annual.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED,
               doc_date=date(2025, 12, 31), fiscal_year_end="--12-31")

MARGIN = (
    "Widget Margin\n"
    "Our widget margin rate was 31.2 percent in 2025 and 33.0 percent in 2024. The decrease "
    "reflected the net impact of:\n"
    "•higher freight costs and clearance pricing on seasonal stock, partially offset by fewer "
    "returns from dealers and lower packaging waste across the network;\n"
    "•changes in product mix; and\n"
    "•lower supplier rebates on the volume programmes that ended during the second half of "
    "the year.\n"
    "Selling Expense Rate\n"
    "Our selling expense rate was 18.0 percent in 2025, consistent with 2024.")

PAGE_ENDS = (
    "For the year ended December 31, 2025, we recorded $1.9 billion of asset impairments, of "
    "which $410 million was recorded in the fourth quarter, primarily consisting of equipment "
    "and leases related to\n41")
PAGE_OPENS = (
    "Table of Contents\n"
    "closed warehouses. These fourth quarter charges were recorded in other operating expense "
    "and primarily impacted our Western segment.\n"
    "Supplemental Cash Flow Information")


def _evidence(*pages: tuple[int, str]) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{page}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(page), score=1.0) for page, text in pages]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def test_a_lead_in_is_read_with_all_its_bulleted_reasons() -> None:
    ask = _ask("Why did the widget margin rate decline in 2025?")
    top = rank_spans(ask.frame, _evidence((31, MARGIN)))[0]
    assert "reflected the net impact of" in top.text
    assert "higher freight costs" in top.text and "lower supplier rebates" in top.text
    first = evidence_answer(ask, _evidence((31, MARGIN))).text.splitlines()[0]
    assert "higher freight costs" in first and "lower supplier rebates" in first


def test_a_lists_items_are_known_by_their_semicolons_where_the_bullets_were_lost() -> None:
    plain = MARGIN.replace("•", "")  # a PDF's text layer that dropped the bullet glyphs
    ask = _ask("Why did the widget margin rate decline in 2025?")
    top = rank_spans(ask.frame, _evidence((31, plain)))[0]
    assert "higher freight costs" in top.text and "lower supplier rebates" in top.text
    assert "31.2 percent" in top.text  # read with the sentence before its lead-in


def test_a_bullet_is_a_list_items_mark_not_a_figures_sign() -> None:
    assert bullet_item("•changes in product mix; and") == "changes in product mix; and"
    assert bullet_item("- Drizly") == "Drizly"
    assert bullet_item("-5% against the prior year") is None
    assert bullet_item("Revenue grew") is None


def test_a_sentence_a_page_break_cut_is_read_whole() -> None:
    ask = _ask("What impairments did the company record in the fourth quarter of 2025, and on "
               "what?")
    ranked = rank_spans(ask.frame, _evidence((41, PAGE_ENDS), (42, PAGE_OPENS)))
    top = ranked[0]
    assert "$410 million" in top.text and "closed warehouses" in top.text
    assert not any(s.text.startswith("closed warehouses") for s in ranked)


def test_without_the_page_before_no_quote_opens_mid_sentence() -> None:
    ask = _ask("Where were the fourth quarter charges recorded?")
    ranked = rank_spans(ask.frame, _evidence((42, PAGE_OPENS)))
    assert ranked and all(not s.text[:1].islower() for s in ranked)
    assert ranked[0].text.startswith("These fourth quarter charges")
    # a page that opens with a name written in lowercase opens a sentence, no fragment
    named = rank_spans(_ask("Why did eWidget sales rise?").frame, _evidence(
        (42, "eWidget sales rose 12% during 2025. The increase was due to higher volumes.")))
    assert any(s.text.startswith("eWidget sales rose") for s in named)


def test_without_the_page_after_a_sentence_ends_where_its_page_does_not_on_its_number() -> None:
    ask = _ask("How much of the 2025 asset impairments was recorded in the fourth quarter?")
    ranked = rank_spans(ask.frame, _evidence((41, PAGE_ENDS)))
    top = next(s for s in ranked if "$410 million" in s.text)
    assert top.text.rstrip().endswith("leases related to")
    assert not any(s.text.rstrip().endswith(" 41") for s in ranked)


def test_a_quarter_is_one_reading_however_it_is_named() -> None:
    for question in ("What was revenue in Q4 2025?", "What was revenue in Q4 FY2025?",
                     "What was revenue in the fourth quarter of 2025?",
                     "What was revenue for the three months ended December 31, 2025?",
                     "Quel était le chiffre d'affaires du quatrième trimestre 2025 ?",
                     "Wie hoch war der Umsatz im vierten Quartal 2025?"):
        assert read_question(question).parts_of_year == ("Q4 2025",), question
    assert is_part_of_year("Q4 FY2025") and is_part_of_year("H1 2024")
    assert not is_part_of_year("FY2025")
    # a quarter named without its year is of the year the text (or its document) states
    said = "Of the $2.0 billion for 2025, $1.2 billion was in Q3 2025 and $0.5 billion in the " \
           "fourth quarter."
    assert quarters_in(said, {2025}) == {"Q3 2025", "Q4 2025"}
    assert quarters_in("revenue for the three months ended June 30 rose", {2024}) == {"Q2 2024"}
    assert quarters_in("au quatrième trimestre, les ventes", {2025}) == {"Q4 2025"}
    assert quarters_in("en el cuarto trimestre", {2025}) == {"Q4 2025"}
    assert quarters_in("in the fourth quarter of 2024", {2025}) == {"Q4 2024"}


def test_the_quarter_asked_leads_where_the_passage_names_it_without_its_year() -> None:
    evidence = _evidence((
        41, "For the year ended December 31, 2025, we recorded approximately $2.0 billion of "
            "severance costs, of which $1.2 billion was recorded in Q3 2025 and $530 million was "
            "recorded in the fourth quarter. In 2025 we also recorded $270 million of severance "
            "costs for the closure of two plants."))
    for question in ("How much severance did the company record in Q4 2025?",
                     "How much severance was recorded in the fourth quarter of 2025?"):
        top = rank_spans(read_question(question), evidence)[0]
        assert "$530 million" in top.text, question


def test_a_word_the_text_layer_left_alone_on_its_line_is_no_heading() -> None:
    text = ("Freight\n revenue increased primarily attributable to the acquisition of Haulwise "
            "in the fourth quarter of 2025.\nAdditionally, the increase in Freight revenue is "
            "also driven by growth in the number of shippers on the network.")
    ask = _ask("What drove the growth in the company's Freight revenue in 2025?")
    ranked = rank_spans(ask.frame, _evidence((61, text)))
    assert any(s.text.startswith("Freight revenue increased primarily") for s in ranked)
    assert not any(s.text.startswith("revenue increased") for s in ranked)


def test_a_list_inside_a_list_is_read_under_the_outer_lead_in() -> None:
    text = ("The company announces new offerings at various times during the year. Significant "
            "announcements during fiscal year 2025 included the following:\n"
            "First Quarter 2025:\nWidget Mini\nWidget Max\n"
            "Fourth Quarter 2025:\nWidget 9, Widget 9 Pro and Widget Air\nDock Station 3\n"
            "Fiscal Period\nThe fiscal year is the 52- or 53-week period that ends in September.")
    ask = _ask("What did the company announce in the fourth quarter of fiscal 2025?")
    top = rank_spans(ask.frame, _evidence((23, text)))[0]
    assert top.text.startswith("Significant announcements")
    assert "Widget 9" in top.text and "Dock Station 3" in top.text and "Widget Mini" not in top.text
