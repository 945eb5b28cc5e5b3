"""The whole of a line item asked, where one passage names it on several rows (issue 25): a
data-tag dump prints "Automotive revenues", "Energy revenues" and the total under one heading,
and the row of the largest figure is the whole the question asks for. Invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer

DUMP = "\n".join([
    "Revenues",
    "2025-12-31 | 2024-12-31",
    "Automotive Revenues | 2025-12-31: 6638900000.0 | 2024-12-31: 5110800000.0",
    "Energy Revenues | 2025-12-31: 551500000.0 | 2024-12-31: 337600000.0",
    "Contract Revenue | 2025-12-31: 9677300000.0 | 2024-12-31: 8146200000.0",
    "Services Revenues | 2025-12-31: 831900000.0 | 2024-12-31: 609100000.0",
])


def test_the_largest_row_of_the_line_item_is_its_whole() -> None:
    first = evidence_answer(_ask("What was the company's revenue in 2025?"),
                            _evidence(DUMP, "Revenue grew in 2025; see the table, in $.")
                            ).text.splitlines()[0]
    assert first.startswith("Contract Revenue was") and "9.68 billion" in first, first


def test_a_part_asked_is_still_its_own_row() -> None:
    first = evidence_answer(_ask("What were energy revenues in 2025?"),
                            _evidence(DUMP, "Revenue grew in 2025; see the table, in $.")
                            ).text.splitlines()[0]
    assert first.startswith("Energy Revenues was") and "551.5 million" in first, first
