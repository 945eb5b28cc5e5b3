"""A number of shares is no amount of money: "we repurchased 40 million shares and 52 million
shares of our common stock for $9.6 billion and $11.0 billion" states the buyback's cost in its
dollar amounts, never "$40M". The passage is invented."""

from __future__ import annotations

from fixtures.extraction import page_findings

PAGE = "\n".join([
    "Share Repurchases",
    "During fiscal years 2025 and 2024, we repurchased 40 million shares and 52 million shares of "
    "our common stock for $9.6 billion and $11.0 billion, respectively, through our share "
    "repurchase programs.",
])


def test_a_count_of_shares_is_never_the_buybacks_amount() -> None:
    values = {f.value for f in page_findings(PAGE, page=14) if f.subject == "share repurchases"}
    assert 40_000_000 not in values and 52_000_000 not in values, values
    assert 9_600_000_000 in values, values
