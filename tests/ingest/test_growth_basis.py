"""Growth rates on different bases (year-on-year, period-over-period) are different facts."""

from __future__ import annotations

from pathlib import Path

import pytest

from manda.app import Manda
from manda.finance.growth import growth_basis
from manda.models import RelationType


@pytest.mark.parametrize(
    ("text", "period", "value", "basis"),
    [
        ("Revenue grew 18% year-on-year in Q4 2024.", "Q4 2024", "18%", "yoy"),
        ("Revenue growth of 4% QoQ.", "Q4 2024", "4%", "pop"),
        ("Revenue grew 4% vs Q3 2024.", "Q4 2024", "4%", "pop"),
        ("Revenue grew 18% compared with Q4 2023.", "Q4 2024", "18%", "yoy"),
        ("Revenue grew 4% sequentially and 18% year over year.", "Q4 2024", "4%", "pop"),
        ("Revenue grew 4% sequentially and 18% year over year.", "Q4 2024", "18%", "yoy"),
        ("Revenue growth was 12%.", "Q4 2024", "12%", ""),
    ],
)
def test_the_basis_is_read_beside_the_rate(text: str, period: str, value: str, basis: str) -> None:
    assert growth_basis(text, period, value) == basis


async def test_qoq_and_yoy_growth_are_not_a_conflict(app: Manda, tmp_path: Path) -> None:
    flash = tmp_path / "Flash_Q4_2024.md"
    flash.write_text("# Flash report\n\nRevenue grew 4% quarter-on-quarter in Q4 2024.\n")
    board = tmp_path / "Board_Pack_Q4_2024.md"
    board.write_text("# Board pack\n\nRevenue grew 18% year-on-year in Q4 2024.\n")
    await app.deals.ingest("growth", [flash, board])
    growth = [f for f in await app.deals.findings("growth") if f.subject == "revenue growth"]
    assert sorted(f.value or 0 for f in growth) == [4.0, 18.0]
    relations = await app.deals.relations("growth")
    assert not [r for r in relations if r.type is RelationType.CONTRADICTS]
