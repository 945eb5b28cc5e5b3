"""The seller's answered Q&A log dropped in the deal channel and `/manda changes`, in a real
headless Chromium: the import's one summary in the file's thread (answered, follow-ups, the
contradiction with both sources, the unsure answer's buttons) and what changed since, most serious
first. Screenshots go to test-artifacts/playground/changes-*.png."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fixtures.qa_answers import ANSWERS, QUESTIONS

from bot.playground import Playground


async def test_the_import_summary_and_what_changed_in_the_browser(
    playground: Playground, open_page: Callable[..., Awaitable[tuple[Any, list[str]]]],
    artifacts: Path,
) -> None:
    from playwright.async_api import expect

    manda = playground.manda
    assert manda is not None
    for text, category in QUESTIONS:
        await manda.deals.add_question("targetco", text, by="U_ANALYST", category=category)

    page, errors = await open_page(height=1000)

    async def shot(name: str) -> None:
        await page.mouse.move(1, 1)
        await page.screenshot(path=str(artifacts / f"changes-{name}.png"))

    channel = page.locator("#messages")
    thread = page.locator("#thread")

    upload = {"name": "Falcon_QA_log.csv", "mimeType": "text/csv", "buffer": ANSWERS}
    await page.locator("#file-input").set_input_files(files=[upload])
    shared = channel.locator(".msg", has_text="Falcon_QA_log.csv")
    await shared.get_by_role("button", name="1 reply").click()
    summary = thread.locator(".msg.from-bot", has_text="the Q&A answers of")
    await expect(summary).to_contain_text(
        "3 answered, 1 needs a follow-up, 1 contradicts TargetCo_Q3_2024_Report.pdf")
    await expect(summary).to_contain_text("Q&A #1, answered 4 Nov 2024 by CFO")
    await expect(summary).to_contain_text(
        "is €5.6M in the answer, €5.2M in TargetCo_Q3_2024_Report.pdf, p.2")
    await expect(summary).to_contain_text("follow-up Q4 added")
    await expect(summary.get_by_role("button", name="Yes, it answers Q1")).to_be_visible()
    await shot("01-qa-import-summary")
    await summary.get_by_role("button", name="No, a new question").click()
    await expect(summary).to_contain_text("1 new question added")
    await shot("02-unsure-answer-placed")

    await page.locator("#thread-close").click()
    await page.locator("#composer-text").fill("/manda changes")
    await page.locator("#composer-text").press("Enter")
    changes = channel.locator(".msg.ephemeral", has_text="What changed in targetco")
    await expect(changes).to_contain_text("Only visible to you")
    await expect(changes).to_contain_text("New conflict")
    await expect(changes).to_contain_text("Q&A answered")
    await expect(changes).to_contain_text("answered 4 Nov 2024 by CFO")
    await changes.evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("03-manda-changes")

    assert errors == []
    assert all(d.status == 200 for d in playground.fake.deliveries)
