"""A line item the question qualifies (issue 25, new topics): a growth "excluding foreign
exchange", a margin "in dollars", a share's part named apart from the word "share", a line of
revenue named in full. The figure that answers is the row that says the qualifier, never a
coarser or other figure. The passages are written for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import DOC
from test_spans import _evidence as _passages

from manda.agent.compose import compose, fact_lookup
from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.computed import part_terms, share_of_total
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.models import (
    Confidence,
    Finding,
    FindingKind,
    Location,
)

# a segment's sales, their growth, and their growth at constant exchange rates, in three blocks
GROWTH = "\n".join([
    "Net sales information is as follows (in millions):",
    "Net Sales:", "Year Ended December 31, | 2024 | 2025",
    "Overseas | 2024: $142,906 | 2025: $161,894",
    "Home market | 2024: $387,497 | 2025: $426,305",
    "Year-over-year Percentage Growth:", "Year Ended December 31, | 2024 | 2025",
    "Overseas | 2024: 9% | 2025: 13%",
    "Home market | 2024: 10 | 2025: 10",
    "Year-over-year Percentage Growth, excluding the effect of foreign exchange rates:",
    "Year Ended December 31, | 2024 | 2025",
    "Overseas | 2024: 10% | 2025: 8%",
    "Home market | 2024: 10 | 2025: 10"])
SHARE_SENTENCE = "During 2025, net sales from our Overseas segment accounted for 23% of our " \
    "consolidated revenues."


def _evidence(*texts: str, findings: tuple[Finding, ...] = ()) -> Evidence:
    evidence = _passages(*texts, doc=DOC)
    evidence.findings = {f.id: f for f in findings}
    return evidence


def _revenue(value: float, written: str) -> Finding:
    """The company's revenue, as extraction reads it from a sentence of the filing."""
    return Finding(id="f-rev", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="revenue", label="Revenue", value=value, value_text=written,
                   period="FY2025", excerpt=f"Net Sales were {written}, up from the prior year.",
                   location=Location.for_page(29), confidence=0.9,
                   confidence_level=Confidence.HIGH)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def test_a_growth_excluding_exchange_rates_is_its_own_blocks_row() -> None:
    """The block headed "… excluding the effect of foreign exchange rates:" (its heading longer
    than a line item's) answers a growth asked so, in per cent, never the growth computed from
    the sales rows (13.3%) nor the segment's share of sales."""
    evidence = _evidence(GROWTH, SHARE_SENTENCE, findings=(_revenue(568.2e9, "$568.2 billion"),))
    ask = _ask("Excluding foreign exchange, how fast did Overseas segment sales grow in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "excluding the effect of foreign exchange" in top.group
    assert [f.unit for f in top.figures()] == ["%", "%"]
    first = compose(ask, evidence).text.splitlines()[0]
    assert "8%" in first and "13.3%" not in first and "23%" not in first


def test_a_percentage_blocks_bare_figures_are_per_cents() -> None:
    """"Home market 10 10" under a percentage heading prints no "%": it is 10%, not $10 million."""
    evidence = _evidence(GROWTH)
    ask = _ask("How fast did Home market sales grow in 2025, excluding foreign exchange?")
    row = next(s for s in rank_spans(ask.frame, evidence)
               if s.row is not None and "Home market" in s.text and "excluding" in s.group)
    assert all(f.unit == "%" for f in row.figures())


def test_the_word_share_names_no_part_of_the_total() -> None:
    """"What share of merchandise sales was digitally originated?": "share" asks the share and
    "merchandise sales" is the whole: neither names the part ("Card profit sharing" and
    "Merchandise sales" are no part asked)."""
    evidence = _evidence("\n".join([
        "Net Sales (millions) | 2025 | 2024",
        "Merchandise sales | 2025: 102,717 | 2024: 104,820",
        "Card profit sharing | 2025: 522 | 2024: 576",
        "Net sales | 2025: $104,780 | 2024: $106,566"]),
        "\n".join(["Merchandise Sales by Channel | 2025 | 2024",
                   "Stores originated | 2025: 79.4% | 2024: 80.4%",
                   "Digitally originated | 2025: 20.6 | 2024: 19.6"]))
    ask = _ask("What share of merchandise sales was digitally originated in 2025?")
    # nor do the words naming the whole it is a share of ("merchandise sales")
    assert part_terms(ask, evidence) == ["digitall", "originat"]
    computed = share_of_total(ask, evidence)  # no row of the sales table is the part asked
    assert computed is None or not computed.text.startswith(("Card", "Merchandise"))


def test_a_line_of_revenue_named_in_full_is_not_the_companys_revenue() -> None:
    """"How did card profit sharing revenue change?": the row named so leads, not the
    company's revenue read as a finding."""
    revenue = _revenue(104.78e9, "$104.8 billion")
    evidence = _evidence("\n".join([
        "Net Sales (millions) | 2025 | 2024",
        "Apparel & accessories | 2025: 15,737 | 2024: 16,505",
        "Card profit sharing | 2025: 522 | 2024: 576",
        "Net sales | 2025: $104,780 | 2024: $106,566"]), findings=(revenue,))
    draft = fact_lookup.compose(_ask("How did card profit sharing revenue change in 2025?"),
                                evidence)
    first = draft.text.splitlines()[0]
    assert "522" in first and "104.8" not in first


def test_a_margin_asked_in_dollars_is_its_amount() -> None:
    """"How many dollars of gross margin": the gross margin's amount (gross profit), not its
    percentage, and no count of dollars."""
    frame = read_question("How many dollars of gross margin did the Services business generate "
                          "in 2025?")
    assert frame.subjects[:1] == ("gross profit",) and frame.derived is None
    assert frame.answer_kind == "figure" and not frame.counted
    rate = read_question("What was the Services gross margin percentage in 2025?")
    assert rate.derived is not None and rate.answer_kind == "rate"
    evidence = _evidence("\n".join([
        "Gross margin (dollars in millions):", "Gross margin:", "2025 | 2024",
        "Services | 2025: $82,314 | 2024: $71,050",
        "Gross margin percentage:", "2025 | 2024",
        "Services | 2025: 75.4% | 2024: 73.9%"]))
    ask = Ask.of(frame)
    assert "82,314" in rank_spans(ask.frame, evidence)[0].text


def test_a_share_of_the_totals_own_wording_is_a_part_of_it() -> None:
    """"Net service sales" over "Total net sales" is revenue's own part (its label says net
    sales), not another line item; and the row naming the part's words with none the question
    does not say ("Third-party seller services") is the part asked."""
    evidence = _evidence(
        "\n".join(["CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)", "2024 | 2025",
                   "Net product sales | 2024: $272,311 | 2025: $296,266",
                   "Net service sales | 2024: 365,648 | 2025: 420,658",
                   "Total net sales | 2024: 637,959 | 2025: 716,924"]),
        "\n".join(["Net sales by groups of similar products and services (in millions):",
                   "Net Sales:", "2024 | 2025",
                   "Online stores | 2024: $247,029 | 2025: $268,520",
                   "Third-party seller services | 2024: 156,146 | 2025: 172,162",
                   "Subscription services | 2024: 44,374 | 2025: 49,619",
                   "Consolidated | 2024: $637,959 | 2025: $716,924"]))
    ask = _ask("What share of total net sales in 2025 came from net service sales?")
    draft = share_of_total(ask, evidence)
    assert draft is not None and draft.text.startswith("Net service sales")
    assert "58.7%" in draft.text


def test_and_why_after_a_figure_asks_its_reason_too() -> None:
    """"How much did tablet sales grow, and why?": the one-word "why?" is a part of its own, a
    reason asked of the first part's line item, answered beside the figure."""
    frame = read_question("How much did tablet net sales grow in fiscal 2025, and why?")
    assert frame.parts[-1] == "why?"
    reason = frame.asked_parts()[-1]
    assert reason.answer_kind == "reason" and "tablet" in reason.text
    evidence = _evidence(
        "\n".join(["Net sales by category (dollars in millions):", "2025 | Change | 2024",
                   "Tablet | 2025: $28,023 | Change: 5% | 2024: $26,694",
                   "Laptop | 2025: $33,708 | Change: 12% | 2024: $29,984"]),
        "Tablet net sales increased during 2025 compared to 2024 primarily due to higher net "
        "sales of the entry model, partially offset by lower net sales of the premium model.")
    text = compose(Ask.of(frame), evidence).text
    assert "5%" in text and "entry model" in text


def test_a_figure_the_question_quotes_names_the_line_item_it_asks_of() -> None:
    """"What drove other income of $15.2 billion?": the sentences stating $15.2 billion speak of
    it; "Other operating expense (income), net was $4.6 billion", sharing its words, is of
    another line item and never leads."""
    evidence = _evidence(
        "Other operating expense (income), net was $763 million and $4.6 billion during 2024 and "
        "2025. The increase in 2025 was primarily related to the settlement of a lawsuit.",
        "Other income (expense), net was $(2.3) billion and $15.2 billion during 2024 and 2025. "
        "The net gain of $15.2 billion in 2025 is primarily from an upward adjustment in the "
        "value of our preferred stock in a private company.")
    ask = _ask("What drove other income (expense), net of $15.2 billion in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "$15.2 billion" in top.text and "$4.6 billion" not in top.text


def test_a_segments_growth_asked_with_why_keeps_its_reason() -> None:
    """A segment's growth computed from its own row, asked "and why?", carries the sentence
    stating why beside it."""
    evidence = _evidence(
        "\n".join(["Net sales by reportable segment (dollars in millions):",
                   "Net sales by reportable segment:", "2025 | Change | 2024",
                   "Northern region | 2025: $178,353 | Change: 7% | 2024: $167,045",
                   "Southern region | 2025: $111,032 | Change: 10% | 2024: $101,328",
                   "Total net sales | 2025: $289,385 | Change: 8% | 2024: $268,373"]),
        "Southern region net sales increased during 2025 compared to 2024 due primarily to "
        "higher net sales of subscriptions and the weaker currency of its largest market.")
    ask = _ask("How much did Southern region net sales grow in 2025, and why?")
    text = compose(ask, evidence).text
    assert "10" in text.splitlines()[0] and "subscriptions" in text
    # the growth computed from the row alone, as the segment's composer states it, gets it too
    computed = Draft(text="Southern region revenue rose 9.6% in 2025 (computed).")
    assert "subscriptions" in fact_lookup._with_reason(computed, ask, evidence).text
