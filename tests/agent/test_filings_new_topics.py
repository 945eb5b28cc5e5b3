"""New topics asked of real-filing shapes (issue 25, twelfth round): a footnote's number is no
figure, a note's stated total over a balance sheet's current row. None of it knows a company or
a filing: the passages below are written for the tests."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.spans import rank_spans
from manda.finance.amounts import stated_amounts


def test_a_footnotes_number_is_no_amount() -> None:
    assert stated_amounts("(4)Includes commitments to license software.") == []
    assert [a.text for a in stated_amounts("Commitments (4)Excluding leases were $1,250.")] == \
        ["$1,250"]
    assert [a.text for a in stated_amounts("Losses were (12) in 2024 and (9) in 2025.")] == \
        ["12", "9"]


def test_a_commitments_row_leads_over_its_footnote() -> None:
    evidence = _evidence(
        "Unconditional purchase obligations (4) 3,120 1,705 2,210 7,035",
        "(4)Includes unconditional purchase obligations related to long-term agreements to "
        "license content and procure energy that are not reflected on the balance sheets.")
    ask = _ask("What were the company's total unconditional purchase obligations at the end "
               "of 2025?")
    assert "7,035" in rank_spans(ask.frame, evidence)[0].text
