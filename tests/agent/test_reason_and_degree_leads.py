"""Why a line item grew, a reserve's balance beside its roll-forward, a degree asked (issue 25):
the cause of the line item's own move leads, never its growth computed from two years nor the
cause given of another line item; a roll-forward's movements are no balance at the year's end;
"how concentrated" asks the share the documents state. The passages are written for the tests."""

from __future__ import annotations

import pytest
from test_filings_leads import _ask, _evidence

from manda.agent.compose import segment_figures
from manda.agent.compose.common import Draft
from manda.agent.compose.fact_lookup import compose
from manda.agent.spans import a_movement, rank_spans

_MARGIN_WHY = ("Subscriptions gross margin increased during 2025 compared to 2024 primarily due "
               "to higher Subscriptions net sales and a different mix of subscriptions.")
_SALES_WHY = ("Subscriptions net sales increased during 2025 compared to 2024 primarily due to "
              "higher net sales from advertising and licensing.")


def test_why_a_line_item_grew_is_its_own_cause_not_another_items() -> None:
    # the margin's cause names the net sales: it says why the margin rose, not the sales
    evidence = _evidence(_MARGIN_WHY, _SALES_WHY)
    evidence.meaning = {_MARGIN_WHY: 0.8, _SALES_WHY: 0.6}
    for question in ("What drove the company's Subscriptions revenue growth in 2025?",
                     "What drove Subscriptions net sales growth in 2025?"):
        lead = rank_spans(_ask(question).frame, evidence)[0].text
        assert "advertising" in lead, (question, lead)


def test_why_a_line_item_grew_is_answered_by_the_cause_not_the_growth_computed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a segment's row of two years would compute the growth; the question asks what drove it
    computed = Draft(text="Subscriptions revenue rose 14.0% in 2025 (computed).")
    monkeypatch.setattr(segment_figures, "change", lambda ask, evidence: computed)
    evidence = _evidence(_SALES_WHY)
    draft = compose(_ask("What drove the company's Subscriptions revenue growth in 2025?"),
                    evidence)
    assert "advertising" in draft.text.splitlines()[0], draft.text
    # the growth itself asked is still the segment's computed change
    assert compose(_ask("How fast did the company's Subscriptions revenue grow in 2025?"),
                   evidence) is computed


def test_a_roll_forwards_movements_are_no_balance_at_the_years_end() -> None:
    assert a_movement("Increases related to tax positions taken during the current year")
    assert a_movement("Decreases related to settlements with taxing authorities")
    assert a_movement("Decreases related to expiration of the statute of limitations")
    assert not a_movement("Ending balances") and not a_movement("Unrecognized tax benefits")
    evidence = _evidence(
        "The aggregate change in the balance of gross unrecognized tax benefits is as follows "
        "(in millions):\n2025 2024\nBeginning balances $1,200 $1,100\n"
        "Increases related to tax positions taken during the current year 310 250\n"
        "Decreases related to settlements with taxing authorities (90) (150)\n"
        "Ending balances $1,420 $1,200",
        "As of December 31, 2025, the total amount of gross unrecognized tax benefits was $1.4 "
        "billion, of which $0.6 billion, if recognized, would impact the effective tax rate.")
    top = rank_spans(_ask("What were the company's gross unrecognized tax benefits at the end "
                          "of 2025?").frame, evidence)[0]
    said = top.row.label if top.row is not None else top.text
    assert "Increases" not in said and "Decreases" not in said, said


def test_how_concentrated_asks_the_share_stated() -> None:
    hedged = ("A substantial majority of the company's outstanding trade receivables are not "
              "covered by collateral, and a significant portion of its trade receivables can be "
              "concentrated within distributors.")
    stated = ("The company's distributors accounted for 41% and 44% of total trade receivables "
              "as of December 31, 2025 and 2024, respectively.")
    evidence = _evidence(hedged, stated)
    ask = _ask("How concentrated are the company's trade receivables with distributors?")
    assert ask.frame.answer_kind == "rate"
    assert "41%" in rank_spans(ask.frame, evidence)[0].text


def test_a_change_column_is_no_share_stated() -> None:
    # the MD&A row's change column (14%) is the line item's growth: the share of sales asked is
    # the line item's row over the total's, computed, never the line item's level led
    mdna = "\n".join([
        "Operating expenses and their percentage of total net sales for 2025 and 2024 were as "
        "follows (dollars in millions):",
        "2025 | Change | 2024",
        "Research and development | 2025: $2,990 | Change: 14% | 2024: $2,625",
        "Selling, general and administrative | 2025: $2,493 | Change: (1)% | 2024: $2,509"])
    statement = "\n".join([
        "CONSOLIDATED STATEMENTS OF OPERATIONS", "(In millions)", "Years ended",
        "December 31,2025 | December 31,2024",
        "Total net sales | December 31,2025: 38,328 | December 31,2024: 39,432",
        "Research and development | December 31,2025: 2,990 | December 31,2024: 2,625",
        "Selling, general and administrative | December 31,2025: 2,493 | "
        "December 31,2024: 2,509"])
    draft = compose(_ask("What share of net sales did the company spend on R&D in 2025?"),
                    _evidence(mdna, statement))
    first = draft.text.splitlines()[0]
    assert "7.8%" in first, draft.text


def test_a_roll_forwards_closing_row_is_the_balance_its_caption_names() -> None:
    # "Balance at end of period" names no line item; the caption it stands under does
    evidence = _evidence("\n".join([
        "Reconciliation of Gross Unrecognized Tax Benefits (millions)",
        "2025 | 2024",
        "Balance at beginning of period | 2025: $433 | 2024: $352",
        "Additions based on tax positions related to the current year | 2025: 36 | 2024: 118",
        "Reductions for tax positions of prior years | 2025: (36) | 2024: (36)",
        "Balance at end of period | 2025: $436 | 2024: $433"]),
        "Interest and penalties associated with unrecognized tax benefits are recorded within "
        "income tax expense.")
    top = rank_spans(_ask("The company's gross unrecognized tax benefits at year end 2025?"
                          ).frame, evidence)[0]
    assert top.row is not None and top.row.label == "Balance at end of period", top.text


@pytest.mark.parametrize(("question", "kind"), [
    ("What was behind the company's Widgets revenue growth in 2025?", "reason"),
    ("Qu'est-ce qui se cache derrière la hausse du chiffre d'affaires en 2025 ?", "reason"),
    ("Was steckt hinter dem Umsatzanstieg 2025?", "reason"),
    ("¿Qué hay detrás del aumento de los ingresos en 2025?", "reason"),
    ("How concentrated are the company's trade receivables?", "rate"),
    ("À quel point les créances sont-elles concentrées ?", "rate"),
    ("Wie abhängig ist das Unternehmen von seinem größten Kunden?", "rate"),
    ("¿Qué tan concentrados están los ingresos?", "rate"),
])
def test_what_was_behind_asks_a_reason_and_how_concentrated_a_share(
        question: str, kind: str) -> None:
    """The forms are vocabulary data in the four languages, not English words in code."""
    from manda.agent.frame import read_question

    assert read_question(question).answer_kind == kind, question


def test_the_line_items_change_named_again_is_read_with_the_sentence_before() -> None:
    # "The sales growth primarily reflects …" points back at the segment whose sales grew
    evidence = _evidence(
        "Gadgets sales increased 10% in 2025, compared to the prior year. The sales growth "
        "primarily reflects increased unit sales and advertising sales.",
        "Widgets sales increased 20% in 2025, compared to the prior year. The sales growth "
        "primarily reflects increased customer usage, partially offset by pricing changes.")
    lead = rank_spans(_ask("What drove Widgets sales growth in 2025?").frame, evidence)[0].text
    assert "Widgets" in lead and "customer usage" in lead, lead
