"""The deal timeline in the playground's browser: `/manda timeline` shows a compact dated list with
sources and upcoming events marked, and Show more continues it in the thread. The screenshot in
test-artifacts/playground/ is what a banker reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any


async def test_a_timeline_opens_in_the_browser(
    open_page: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    page, errors = await open_page(height=1000)

    await page.locator("#composer-text").fill("/manda timeline")
    await page.locator("#composer-text").press("Enter")
    timeline = page.locator("#messages .msg", has_text="Timeline of targetco")
    await expect(timeline).to_contain_text("events 1–20 of")
    await expect(timeline).to_contain_text("TargetCo_Legal_Summary.docx")
    await expect(timeline).to_contain_text("Coming up⏳ 2024-12-12 · Hearing — Vertex Distribution")
    await expect(timeline).to_contain_text("upcoming within 12 months of 15 Oct 2024")
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "timeline-01-first-page.png"))

    await timeline.get_by_role("button", name="Show more").click()
    await timeline.get_by_role("button", name="1 reply").click()
    more = page.locator("#thread .msg.from-bot", has_text="events 21–")
    await expect(more).to_contain_text("Loan matures — Isartal Bank AG")
    await expect(more).to_contain_text("Contract expires — Globex AG")
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "timeline-02-show-more.png"))
    assert errors == []
