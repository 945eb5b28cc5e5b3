"""Actions that ask first, clicked in a real headless Chromium: Add to Q&A… opens a modal and
adds three of the suggested questions (one reworded); Reject asks why; 👎 asks what was wrong; an
unlinked channel learns how to link itself but not which deals exist; with deal admins set,
anyone else is refused when linking. Screenshots go to test-artifacts/playground/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot import ids
from bot.conversations import channel_key
from bot.playground import Playground
from manda.deals import AccessRules
from manda.models import FindingStatus

DEALS = ("targetco", "northwind", "pennine")


async def test_actions_that_ask_first(
    playground: Playground, browser: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    expect.set_options(timeout=20_000)
    page = await browser.new_page(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    async def shot(name: str) -> None:
        await page.mouse.move(1, 1)
        await page.screenshot(path=str(artifacts / f"{name}.png"))

    async def type_in(composer: str, text: str) -> None:
        await page.locator(composer).fill(text)
        await page.locator(composer).press("Enter")

    channel, thread = page.locator("#messages"), page.locator("#thread")
    dialog = page.get_by_role("dialog")
    await page.goto(playground.url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")

    # Add to Q&A…: one button, a modal with the suggested questions; three of them are added.
    await type_in("#composer-text", "@Manda Any red flags?")
    await channel.locator(".msg", has_text="Any red flags?").get_by_role(
        "button", name="1 reply").click()
    answer = thread.locator(".msg.from-bot:not(.streaming)", has_text="Add to Q&A…")
    await answer.get_by_role("button", name="Add to Q&A…").click()
    await expect(dialog).to_contain_text("Tick the ones to add")
    # Every suggestion is offered: more than a checkbox group's 10 options come in more groups.
    picks = dialog.locator(f'[data-block-id^="{ids.QA_PICK}"]')
    offered = await picks.locator("input").count() - 1  # and "All"
    assert offered >= 10 and await picks.count() == 1 + offered // 10
    await dialog.get_by_role("button", name="Add to Q&A").click()
    await expect(dialog).to_contain_text("Tick the questions to add (or All).")
    for number in ("1", "2", str(offered)):  # the last one is in the second group
        await picks.locator(f'input[value="{number}"]').check()
    reworded = "Please list every change-of-control clause & its notice period"
    await dialog.locator(f'[data-block-id="{ids.qa_field("text", 2)}"] textarea').fill(reworded)
    await dialog.locator(f'[data-block-id="{ids.qa_field("category", 2)}"] select').select_option(
        "Legal")
    await dialog.locator(f'[data-block-id="{ids.qa_field("priority", 2)}"] select').select_option(
        "high")
    await picks.first.evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("40-add-to-qa-modal")
    await picks.nth(1).evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("40b-add-to-qa-second-group")
    await dialog.get_by_role("button", name="Add to Q&A").click()
    await expect(dialog).to_be_hidden()
    await expect(thread).to_contain_text("added 3 questions to the Q&A list of targetco")
    await expect(thread).to_contain_text(f"“{reworded}” (Legal, high priority)")
    await expect(thread).to_contain_text("added 3 questions to the Q&A list (Q1, Q2, Q3)")
    await shot("41-three-questions-added")
    items = await playground.manda.deals.questions("targetco")  # type: ignore[union-attr]
    assert len(items) == 3 and reworded in {i.question for i in items}

    # Reject asks why; the reason is kept with the decision and in the audit log.
    await page.locator("#thread-close").click()
    await type_in("#composer-text", "@Manda What was Q3 2024 revenue?")
    await channel.locator(".msg", has_text="What was Q3 2024 revenue?").get_by_role(
        "button", name="1 reply").click()
    revenue = thread.locator(".msg.from-bot:not(.streaming)", has_text="Revenue was")
    await expect(revenue).to_contain_text("Approve = you checked the figure")
    await revenue.get_by_role("button", name="Reject…").click()
    await expect(dialog).to_contain_text("Why reject it?")
    await expect(dialog).to_contain_text("€5.0M")
    reason = "Preliminary estimate; the Q3 report is final"
    await dialog.locator("textarea").fill(reason)
    await shot("42-reject-reason")
    await dialog.get_by_role("button", name="Reject", exact=True).click()
    await expect(dialog).to_be_hidden()
    await expect(revenue).to_contain_text("Rejected by @You")

    # 👎 asks what was wrong.
    await revenue.get_by_role("button", name="👎").click()
    await expect(dialog).to_contain_text("What was wrong?")
    await dialog.locator("textarea").fill("Lead with the audited figure")
    await shot("43-thumbs-down-reason")
    await dialog.get_by_role("button", name="Send 👎").click()
    await expect(revenue).to_contain_text("your feedback was recorded: “Lead with the audited")
    await shot("44-rejected-and-feedback")
    manda = playground.manda  # type: ignore[union-attr]
    audit = await manda.graph.list_audit("targetco")
    rejected = [e for e in audit if e.action == "finding.rejected"]
    assert [e.detail for e in rejected] == [reason]
    finding = await manda.graph.get_finding("targetco", rejected[0].subject_id)
    assert finding is not None and finding.status is FindingStatus.REJECTED
    assert any(e.detail == "not helpful: Lead with the audited figure" for e in audit)

    # An unlinked channel learns how to link itself, never which deals exist.
    await page.locator("#thread-close").click()
    await page.locator(".nav-item", has_text="general").click()
    await expect(page.locator("#main-header")).to_contain_text("general")
    await type_in("#composer-text", "@Manda What was Q3 2024 revenue?")
    await channel.locator(".msg", has_text="What was Q3 2024 revenue?").get_by_role(
        "button", name="1 reply").click()
    how = thread.locator(".msg.from-bot", has_text="not linked to a deal yet")
    await expect(how).to_contain_text("/manda deal <id>")
    await type_in("#composer-text", "/manda deal")
    current = channel.locator(".msg.ephemeral", has_text="This channel is not linked to a deal")
    await expect(current).to_contain_text("Link it with /manda deal <id>")
    for text in [await how.inner_text(), await current.inner_text()]:
        assert not any(deal in text.lower() for deal in DEALS), text
    await shot("45-unlinked-channel")

    # With deal admins set, anyone else is refused when linking, and nothing is linked.
    priya = next(u for u in playground.fake.workspace.users.values() if u.name == "priya")
    manda.deals.rules = AccessRules(deal_admins=frozenset({priya.id}))
    await type_in("#composer-text", "/manda deal northwind")
    refusal = channel.locator(".msg.ephemeral", has_text="Only the deal admins")
    await expect(refusal).to_contain_text("Only visible to you")
    await shot("46-non-admin-refused")
    general = next(c for c in playground.fake.workspace.channels.values() if c.name == "general")
    assert await manda.deals.deal_of(channel_key(playground.fake.workspace.team_id, general.id)) \
        is None
    assert errors == []
