"""Two year ends of one balance compared (issue 25): both figures are read from one row that
states both, the line item's own row before one that adds another thing ("… and restricted
cash"), never one year from a row and the other from a sentence that counts more ("cash, cash
equivalents and investments"). The findings are invented."""

from __future__ import annotations

from test_filings_leads import DOC, _ask, _evidence

from manda.agent.compose import compose
from manda.models import Confidence, Finding, FindingKind, Location


def _cash(ident: str, period: str, value: float, row: str | None, excerpt: str) -> Finding:
    return Finding(id=ident, deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="cash", label="Cash", period=period, value=value, unit="USD",
                   value_text=f"{value:,.0f}", excerpt=excerpt, chunk_id="c-bs" if row else "c1",
                   location=Location.for_page(41 if row else 3), confidence=0.9,
                   confidence_level=Confidence.HIGH, attributes={"row": row} if row else {})


def test_both_year_ends_come_from_the_line_items_own_row() -> None:
    own, more = "Cash and cash equivalents", "Cash, cash equivalents and restricted cash"
    findings = [
        _cash("a", "as of 2025-12-31", 457_300_000, own, f"{own} | 2025: 457.3 | 2024: 319.7"),
        _cash("b", "as of 2024-12-31", 319_700_000, own, f"{own} | 2025: 457.3 | 2024: 319.7"),
        _cash("c", "as of 2025-12-31", 531_200_000, more, f"{more} | 2025: 531.2 | 2024: 438.5"),
        _cash("d", "as of 2024-12-31", 438_500_000, more, f"{more} | 2025: 531.2 | 2024: 438.5"),
        _cash("e", "as of 2025-12-31", 2_300_000_000, None,
              "At December 31, 2025 we had $2.3 billion of cash, cash equivalents and "
              "investments."),
    ]
    evidence = _evidence("Cash and cash equivalents were $457.3 million at year end.")
    evidence.findings = {f.id: f for f in findings}
    first = compose(_ask("What was cash at the end of 2025 compared with the end of 2024?"),
                    evidence).text.splitlines()[0]
    assert "$457.3M at 31 December 2025" in first and "$319.7M at 31 December 2024" in first, \
        first
