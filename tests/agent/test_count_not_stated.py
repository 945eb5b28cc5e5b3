"""A count asked that no passage read states (issue 25): "how many employees?" over passages
that speak of employee costs says no passage states a number of employees, then quotes the
closest; a passage that states the count leads as before. The passages are invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer

COSTS = ("Selling, general and administrative expenses increased $212 million in 2025, driven "
         "by a $140 million increase in employee and labor costs from increased headcount.")
COUNT = "As of December 31, 2025, we employed approximately 12,400 full-time employees."


def test_a_count_no_passage_states_is_said_to_be_unstated() -> None:
    lines = evidence_answer(_ask("How many employees did the company have at the end of 2025?"),
                            _evidence(COSTS)).text.splitlines()
    assert lines[0] == ("No passage read states a number of employees; the closest passages "
                        "follow."), lines
    assert lines[1].startswith("- "), lines


def test_a_passage_that_states_the_count_leads() -> None:
    first = evidence_answer(_ask("How many employees did the company have at the end of 2025?"),
                            _evidence(COSTS, COUNT)).text.splitlines()[0]
    assert "12,400" in first, first
