"""The analyst question bank itself and its checker (`question_bank.py`): sixty questions that
name no room, each with its document roles, and figures read as an analyst writes them. The
rooms' answers are checked in `test_question_bank_<room>.py`."""

from __future__ import annotations

from question_bank import QUESTIONS, figures, unsupported_figures

from manda.models import TOLD_ROLES, DocumentRole
from manda.sample import pennine_facts
from manda.sample.facts import DISTINCTIVE_TERMS


def test_the_bank_has_sixty_room_independent_questions_with_known_roles() -> None:
    assert len(QUESTIONS) >= 60
    assert len({q["id"] for q in QUESTIONS}) == len(QUESTIONS)
    assert len({q["ask"].casefold() for q in QUESTIONS}) == len(QUESTIONS)
    names = [t for terms in DISTINCTIVE_TERMS.values() for t in terms]
    names += list(pennine_facts.DISTINCTIVE_TERMS)
    for question in QUESTIONS:
        assert all(DocumentRole(r) is not DocumentRole.OTHER for r in question["roles"])
        assert not [n for n in names if n.casefold() in question["ask"].casefold()]
    covered = {DocumentRole(r) for q in QUESTIONS for r in q["roles"]}
    # the told roles (a seller's Q&A answer, a note from a thread) are never a room's file
    assert covered == set(DocumentRole) - {DocumentRole.OTHER} - TOLD_ROLES


def test_figures_leave_out_labels_dates_and_small_counts() -> None:
    text = ("Revenue was €5.2M in Q3 2024 (FY2023: EUR 18.4 million), 38% of it from one "
            "customer; headcount 156 on 30 September 2024, 15/23 requests, 3 sites, L-05, "
            "1.2.1, p.2, B15, ISO 13485, leverage 3.0x, net debt (£3,150k)")
    assert [f.text for f in figures(text)] == [
        "€5.2M", "EUR 18.4 million", "38%", "156", "3.0x", "£3,150k"]
    assert figures("€5.2M")[0].value == 5_200_000


def test_figures_are_found_in_passages_at_any_table_scale_or_derived() -> None:
    passages = ["Revenue | 5,200 | 4,700", "Gross margin 71%", "Net debt to EBITDA 1.18x"]
    assert unsupported_figures("Revenue was €5.2M (Q3 2023: €4.7M)", passages, []) == []
    assert unsupported_figures("Revenue was £3.73k", ["Revenue 3,730"], []) == []
    assert unsupported_figures("€5.2M against €4.7M: up €500k (+10.6%), margin 71%",
                               passages, []) == []
    assert unsupported_figures("Revenue was €6.1M", passages, []) == ["€6.1M"]
    assert unsupported_figures("Leverage 1.18x (source: a.pdf, p.1)", passages, []) == []
    assert unsupported_figures("limit 2.50x, latest 1.18x: headroom 1.32x (53% of the limit)",
                               ["not more than 2.50x", "leverage was 1.18x"], []) == []
    assert unsupported_figures("See 2.2.1 Accounts 2024.xlsx: €5.2M", passages,
                               ["2.2.1 Accounts 2024.xlsx"]) == []
