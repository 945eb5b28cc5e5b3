"""/manda grid in the playground, in a real headless Chromium: the modal's two steps (documents
and a saved column set, then the columns ticked and a question of one's own), the grid's message
filling in, its table read as a banker reads it, every row shown, and a column reviewed from its
menu. Screenshots go to test-artifacts/playground/grid-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fixtures.grid_room import dev_rows, saying_yes

from bot.blocks.grid import FIRST_SCREEN_ROWS
from bot.playground import Playground


async def test_a_review_grid_in_the_browser(playground: Playground, browser: Any,
                                            artifacts: Path) -> None:
    from playwright.async_api import expect

    expect.set_options(timeout=60_000)
    page = await browser.new_page(viewport={"width": 1600, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    async def shot(name: str) -> None:
        await page.mouse.move(1, 1)
        await page.screenshot(path=str(artifacts / f"grid-{name}.png"))

    await page.goto(playground.url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    await page.locator("#channel-list a", has_text="deal-fernhill").click()
    await expect(page.locator("#main-header")).to_contain_text("deal-fernhill")

    await page.locator("#composer-text").fill("/manda grid")
    await page.locator("#composer-text").press("Enter")
    first = page.get_by_role("dialog", name="Review grid")
    await expect(first).to_contain_text("Deal fernhill")
    await first.locator("select").first.select_option("kind:customer_contract")
    await shot("01-documents-and-set")
    await first.get_by_role("button", name="Next").click()

    second = page.get_by_role("dialog", name="Review grid")
    await expect(second).to_contain_text("Columns for customer contracts")
    await expect(second.get_by_label("Change of control")).to_be_checked()
    await expect(second.get_by_label("Rent")).not_to_be_checked()
    await second.locator("textarea").fill("Is there a minimum purchase commitment?")
    await shot("02-columns")
    await second.get_by_role("button", name="Build grid").click()

    channel = page.locator("#messages")
    customer = dev_rows("customer_contract")  # the sample's contracts are the dev set's
    grid = channel.locator(".msg", has_text=f"{len(customer)} customer contracts:")
    await expect(grid).to_contain_text(
        f"{len(saying_yes(customer, 'change_of_control'))} with change of control")
    table = grid.locator(".bk-table table")
    await expect(table.locator("tbody tr")).to_have_count(min(len(customer),
                                                               FIRST_SCREEN_ROWS))
    await expect(table.locator("thead")).to_contain_text("Termination for convenience")
    cordova = table.locator("tr", has_text="Cordova Irrigation Inc.docx")
    await expect(cordova).to_contain_text("Yes, the counterparty, 90 days notice")
    await expect(cordova).to_contain_text("USD 5,000,000")
    await expect(table.locator("tr", has_text="(amended)")).to_contain_text("↳ amended")
    await expect(grid).to_contain_text("is amended by Deed of Variation")
    await grid.evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("03-grid")

    await grid.get_by_role("button", name="More actions").click()
    await grid.get_by_role("menuitem", name="Review cells…").click()
    review = page.get_by_role("dialog", name="Review cells")
    await review.locator("select").first.select_option("change_of_control")
    await review.get_by_role("button", name="Decide").click()
    await expect(table.locator("td", has_text="✓ Yes").first).to_be_visible()
    await shot("04-reviewed")

    assert errors == []
    assert all(d.status == 200 for d in playground.fake.deliveries)
