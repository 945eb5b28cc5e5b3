"""A banker works through the deal's lists in the playground, in a real headless Chromium: the
Q&A list (mark answered, export to Excel, download and open it), the review queue page by page,
and a dropped flash report whose summary names the conflict it created. Screenshots go to
test-artifacts/playground/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import load_workbook

from bot.playground import Playground
from manda.exports.qa import HEADERS

FLASH = b"# TargetCo flash report Q3 2024\n\nRevenue for Q3 2024 was EUR 5.6 million.\n"


async def test_a_banker_works_through_the_lists(
    playground: Playground, browser: Any, artifacts: Path, tmp_path: Path
) -> None:
    from playwright.async_api import expect

    expect.set_options(timeout=20_000)
    page = await browser.new_page(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    async def shot(name: str) -> None:
        await page.mouse.move(1, 1)
        await page.screenshot(path=str(artifacts / f"{name}.png"))

    async def type_in(composer: str, text: str) -> None:
        await page.locator(composer).fill(text)
        await page.locator(composer).press("Enter")

    deals = playground.manda.deals  # type: ignore[union-attr]
    for question, category in (
        ("Please reconcile Q3 2024 revenue between the flash and the Q3 report", "Financial"),
        ("Provide all change-of-control clauses in customer contracts", "Legal"),
        ("Confirm the status of the pending litigation", "Legal"),
    ):
        await deals.add_question("targetco", question, by="Uyou", category=category)

    channel, thread = page.locator("#messages"), page.locator("#thread")
    await page.goto(playground.url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")

    # The Q&A list: numbered; one question marked answered in place; the list exported.
    await type_in("#composer-text", "/manda qa")
    qa_list = channel.locator(".msg.ephemeral", has_text="Q&A list of targetco")
    await expect(qa_list).to_contain_text("3 questions, 0 answered")
    await expect(qa_list).to_contain_text("Q1 Please reconcile Q3 2024 revenue")
    await qa_list.get_by_role("button", name="Mark answered").first.click()
    await expect(qa_list).to_contain_text("Q1 marked answered by")
    await expect(qa_list).to_contain_text("3 questions, 1 answered")
    await shot("20-qa-list-answered")
    await qa_list.get_by_role("button", name="Export to Excel").click()
    shared = channel.locator(".msg", has_text="Q&A list of targetco: 3 questions")
    card = shared.locator(".file-card")
    await expect(card).to_contain_text("targetco-qa-list.xlsx")
    await shared.evaluate("node => node.scrollIntoView({block: 'end'})")
    await shot("21-qa-list-exported")
    async with page.expect_download() as downloading:
        await card.click()
    download = await downloading.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    rows = list(load_workbook(saved).active.iter_rows(min_row=3, values_only=True))
    assert rows[0] == HEADERS
    assert [(r[0], r[2], r[4]) for r in rows[1:]] == [
        (1, "Financial", "answered"),
        (2, "Legal", "draft"),
        (3, "Legal", "draft"),
    ]

    # The review queue, most urgent first, paged in place.
    await type_in("#composer-text", "/manda review")
    queue = channel.locator(".msg", has_text="waiting for review")
    await expect(queue).to_contain_text("1–10, most urgent first")
    await expect(queue).to_contain_text("By priority (rubric and materiality)")
    await queue.get_by_role("button", name="Next 10 →").click()
    await expect(queue).to_contain_text("11–20, most urgent first")
    await expect(queue.get_by_role("button", name="← Previous")).to_be_visible()
    await queue.evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("22-review-queue-page-2")

    # A dropped, unaudited flash report: the summary names the conflict and what waits.
    upload = {"name": "TargetCo_Flash_Q3_2024.md", "mimeType": "text/markdown", "buffer": FLASH}
    await page.locator("#file-input").set_input_files(files=[upload])
    dropped = channel.locator(".msg", has_text="TargetCo_Flash_Q3_2024.md")
    await dropped.get_by_role("button", name="1 reply").click()
    await expect(thread).to_contain_text("Conflict: Revenue Q3 2024 is €5.6M here, €5.2M in")
    await expect(thread).to_contain_text("waits for review")
    await shot("23-upload-conflict")

    assert errors == []
