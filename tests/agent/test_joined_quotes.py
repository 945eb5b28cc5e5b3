"""Two sentences read as one, the second pointing back at the first ("… $4.2 billion of
unrecognized compensation cost … This cost is expected to be recognized … over a
weighted-average period of 2.3 years."), are quoted whole: the second half of what a question
asks is often in the second sentence, which a cut at one sentence's length would drop. The
passage is invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import evidence_first

UNRECOGNIZED = (
    "As of December 31, 2025, there was $4.2 billion of unrecognized compensation cost related "
    "to unvested restricted stock units granted under the Halvern Logistics equity incentive "
    "plans. This cost is expected to be recognized on a graded basis, with more than half of it "
    "expected to be expensed during the next twelve months, and has a remaining weighted-average "
    "recognition period of 2.3 years.")


def test_sentences_read_as_one_are_quoted_whole() -> None:
    evidence = _evidence(UNRECOGNIZED)
    ask = _ask("How much unrecognized compensation cost did the company have at the end of "
               "2025, and over what weighted-average period will it be recognized?")
    first = evidence_first.answer(ask, evidence).text.splitlines()[0]
    assert "$4.2 billion" in first and "2.3 years" in first, first
    assert "…" not in first, first
