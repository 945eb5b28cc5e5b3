""""What are the liquidation preferences?" is answered with the table of each class's rights."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook

from manda.app import Manda
from manda.config import Settings


async def test_the_preference_table_answers_the_liquidation_preferences(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Cap Table"
    ws.append(["Capitalisation table as at 31 March 2025"])
    ws.append(["Shareholder", "Ordinary", "Series A Preferred", "Fully diluted %"])
    ws.append(["Founder", 4_200_000, None, 0.6])
    ws.append(["Fund I", None, 2_800_000, 0.4])
    ws.append([])
    ws.append(["Liquidation preferences"])
    ws.append(["Class", "Shares", "Original issue price", "Participation", "Preference amount"])
    ws.append(["Series A Preferred", 2_800_000, 1.5, "Non-participating", 4_200_000])
    room = tmp_path / "room"
    room.mkdir()
    wb.save(room / "Cap Table.xlsx")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("deal", [room])
        answer = (await app.answers.ask("deal", "What are the liquidation preferences?")).answer
    assert answer.startswith("Liquidation preferences, from Cap Table.xlsx"), answer
    assert "| Series A Preferred | 2800000 | 1.5 | Non-participating | 4200000 |" in answer, \
        answer
