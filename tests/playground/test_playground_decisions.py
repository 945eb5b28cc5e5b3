"""Decisions as a deal team reads them, in a real headless Chromium: a rejected figure's conflict
leaves the next answer at once and comes back when the rejection is undone; a decision carried to
a new version of its document is listed in the ingestion summary with Undo, and the summary's
Review count follows the Undo and the decision after it. Screenshots go to
test-artifacts/playground/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.playground import Playground
from manda.models import FindingStatus, ReviewDecisionKind

FLASH = ("# Board Flash Q3 2024\n\nRevenue for Q3 2024 was €5.6M. "
         "EBITDA for Q3 2024 was €1.3M.\n").encode()
FLASH_V2 = FLASH.replace(b"5.6M", b"5.2M")  # the revenue corrected, EBITDA restated unchanged


async def test_a_rejected_conflict_and_an_undone_carried_decision(
    playground: Playground, browser: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    expect.set_options(timeout=20_000)
    page = await browser.new_page(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    manda = playground.manda
    assert manda is not None

    async def shot(name: str, node: Any) -> None:
        await node.evaluate("node => node.scrollIntoView({block: 'start'})")
        await page.mouse.move(1, 1)
        await page.screenshot(path=str(artifacts / f"{name}.png"))

    async def ask(question: str) -> Any:
        await page.locator("#composer-text").fill(f"@Manda {question}")
        await page.locator("#composer-text").press("Enter")
        await channel.locator(".msg", has_text=question).last.get_by_role(
            "button", name="1 reply").click()
        return thread.locator(".msg.from-bot:not(.streaming)").last

    channel, thread = page.locator("#messages"), page.locator("#thread")
    dialog = page.get_by_role("dialog")
    await page.goto(playground.url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")

    # The deck's €5.0M conflicts with the report's €5.2M until someone rejects it.
    first = await ask("What was Q3 2024 revenue?")
    await expect(first).to_contain_text("€5.0M")
    await first.get_by_role("button", name="Reject…").click()
    await dialog.locator("textarea").fill("Preliminary estimate; the Q3 report is final")
    await dialog.get_by_role("button", name="Reject", exact=True).click()
    await expect(dialog).to_be_hidden()
    await expect(first).to_contain_text("Rejected by @You")
    await expect(first.get_by_role("button", name="Undo")).to_be_visible()
    await shot("45-rejected-with-undo", first)

    # the deck states it again on another slide: that statement is offered for review too
    await page.locator("#thread-close").click()
    again = await ask("Q3 2024 revenue, please?")
    await expect(again).to_contain_text("slide 6")
    await again.get_by_role("button", name="Reject…").click()
    await dialog.locator("textarea").fill("The same preliminary estimate")
    await dialog.get_by_role("button", name="Reject", exact=True).click()
    await expect(again).to_contain_text("Rejected by @You")
    await page.locator("#thread-close").click()
    settled = await ask("So what was Q3 2024 revenue?")
    await expect(settled).to_contain_text("€5.2M")
    await expect(settled).not_to_contain_text("conflict")  # no ingestion in between
    await expect(settled).not_to_contain_text("Management_Presentation")
    await shot("46-conflict-gone-at-once", settled)

    await page.locator("#thread-close").click()
    await channel.locator(".msg", has_text="What was Q3 2024 revenue?").first.get_by_role(
        "button", name="1 reply").click()
    await first.get_by_role("button", name="Undo").click()
    await expect(first).to_contain_text("Rejection undone by @You")
    await expect(first.get_by_role("button", name="Reject…")).to_be_visible()
    await shot("47-rejection-undone", first)
    await page.locator("#thread-close").click()
    back = await ask("And Q3 2024 revenue once more?")
    await expect(back).to_contain_text("conflict")
    await expect(back).to_contain_text("slide 2")

    # A flash report's EBITDA is rejected; its corrected version restates it unchanged.
    await page.locator("#thread-close").click()
    await page.locator("#file-input").set_input_files(
        files=[{"name": "Board_Flash.md", "mimeType": "text/markdown", "buffer": FLASH}])
    await expect(channel.locator(".msg", has_text="Board_Flash.md").first).to_be_visible()
    flash = await _wait_for_document(manda, "Board_Flash.md")
    [ebitda] = [f for f in await manda.graph.list_findings("targetco", document_id=flash)
                if f.subject == "ebitda"]
    await manda.graph.set_finding_status("targetco", ebitda.id, FindingStatus.PENDING)
    await manda.deals.decide("targetco", ebitda.id, ReviewDecisionKind.REJECT, by="U0ALICE",
                             reason="a flash figure, not the board's")
    await page.locator("#file-input").set_input_files(
        files=[{"name": "Board_Flash_v2.md", "mimeType": "text/markdown", "buffer": FLASH_V2}])
    dropped = channel.locator(".msg", has_text="Board_Flash_v2.md").first
    await dropped.get_by_role("button", name="1 reply").click()
    summary = thread.locator(".msg", has_text="carried over").last
    await expect(summary).to_contain_text("1 decision carried over")
    await expect(summary).to_contain_text("EBITDA Q3 2024: €1.3M in Board_Flash_v2.md")
    await shot("48-carried-over-decision", summary)
    reviews = summary.get_by_role("button", name=re.compile(r"^Review \d+ findings?$"))
    waiting = int((await reviews.inner_text()).split()[1]) if await reviews.count() else 0
    await summary.get_by_role("button", name="Undo").click()
    await expect(summary).to_contain_text("Rejection undone by @You")
    await expect(summary.locator("s", has_text="EBITDA Q3 2024: €1.3M")).to_be_visible()
    await expect(summary.get_by_role("button", name="Approve finding")).to_be_visible()
    # the finding waits again: the summary's Review button counts it
    await expect(reviews).to_have_text(f"Review {waiting + 1} finding{'s' if waiting else ''}")
    await shot("49-carried-over-decision-undone", summary)
    await summary.get_by_role("button", name="Approve finding").click()
    await expect(summary).to_contain_text("Approved by @You")
    if waiting:
        await expect(reviews).to_have_text(f"Review {waiting} finding{'s' if waiting > 1 else ''}")
    else:
        await expect(reviews).to_have_count(0)
    audit = [e for e in await manda.graph.list_audit("targetco") if e.action == "finding.undone"]
    assert len(audit) == 2 and "carried over" in audit[1].detail
    assert errors == []


async def _wait_for_document(manda: Any, name: str) -> str:
    """The id of the document once its ingestion completed (the upload runs as a job)."""
    import asyncio

    for _ in range(200):
        for d in await manda.graph.list_documents("targetco"):
            if d.filename == name and d.status.value == "completed":
                return str(d.id)
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name} was not ingested")
