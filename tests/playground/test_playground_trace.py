""""How I answered" in the playground's browser: an answer's ⋯ menu opens the modal with the
answer's trace, as Slack would show it. The screenshots in test-artifacts/playground/ show it."""

from __future__ import annotations

from pathlib import Path
from typing import Any


async def test_how_i_answered_opens_from_the_answer_menu(
    open_page: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    page, errors = await open_page(height=1000)

    await page.locator("#composer-text").fill("@Manda What was Q3 2024 revenue?")
    await page.locator("#composer-text").press("Enter")
    question = page.locator("#messages .msg", has_text="What was Q3 2024 revenue?")
    await question.get_by_role("button", name="1 reply").click()
    thread = page.locator("#thread")
    answer = thread.locator(".msg.from-bot:not(.streaming)", has_text="Revenue was")
    await expect(answer).to_contain_text("€5.2M")

    await answer.get_by_role("button", name="More actions").click()
    item = answer.get_by_role("menuitem", name="How I answered")
    await expect(item).to_be_visible()
    await page.screenshot(path=str(artifacts / "trace-01-answer-menu.png"))
    await item.click()

    modal = page.get_by_role("dialog", name="How I answered")
    await expect(modal).to_be_visible()
    for part in ("What was Q3 2024 revenue?", "Intent", "fact_lookup", "Fresh question",
                 "Plan", "offline plan: query_knowledge_base(", "Tool calls", "Passages",
                 "✓ cited TargetCo_Q3_2024_Report.pdf, p.1", "via vector + bm25", "Validation",
                 "passed: validation gate 1", "Grounding",
                 "€5.2M → TargetCo_Q3_2024_Report.pdf, p.2", "Steps, tokens and cost",
                 "answered by offline"):
        await expect(modal).to_contain_text(part)
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "trace-02-how-i-answered.png"))

    await modal.get_by_role("button", name="Close").last.click()
    await expect(modal).to_be_hidden()
    assert not errors, errors
