"""A deal team's first session in the playground, in a real headless Chromium: ask with a mention,
read the cited answer in its thread, follow up, add an open question to the Q&A list, approve a
finding, run /manda gaps, drop a file and open Manda's Home. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.playground import Playground

UPLOAD = b"""# TargetCo customer update, November 2024

## Customers
TargetCo signed 12 new customers in October 2024.
Customer churn in Q3 2024 was 2.1%.
"""


async def test_a_deal_team_session_in_the_browser(
    playground: Playground, browser: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    expect.set_options(timeout=20_000)
    page = await browser.new_page(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    async def shot(name: str) -> None:
        await page.mouse.move(1, 1)  # no hover menu over the messages
        await page.screenshot(path=str(artifacts / f"{name}.png"))

    async def type_in(composer: str, text: str) -> None:
        await page.locator(composer).fill(text)
        await page.locator(composer).press("Enter")

    channel = page.locator("#messages")
    thread = page.locator("#thread")

    await page.goto(playground.url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    await expect(page.get_by_role("banner")).to_contain_text(
        "Local playground — no Slack account involved; everything runs on this machine"
    )
    await expect(page.locator("#main-header")).to_contain_text("deal-targetco")
    await expect(channel).to_contain_text("linked this channel to deal targetco")
    await shot("01-deal-channel")

    # A question with a mention: the cited answer arrives in the question's thread.
    await type_in("#composer-text", "@Manda What was Q3 2024 revenue?")
    question = channel.locator(".msg", has_text="What was Q3 2024 revenue?")
    await question.get_by_role("button", name="1 reply").click()
    answer = thread.locator(".msg.from-bot:not(.streaming)", has_text="Revenue was")
    await expect(answer).to_contain_text("€5.2M")
    await expect(answer).to_contain_text("Sources")
    await expect(answer).to_contain_text("TargetCo_Q3_2024_Report.pdf · p.1")
    await shot("02-cited-answer-in-thread")

    # A follow-up in the thread, without a mention: the period carries over.
    await type_in("#thread-text", "And EBITDA?")
    follow_up = thread.locator(".msg.from-bot:not(.streaming)", has_text="EBITDA")
    await expect(follow_up).to_contain_text("For Q3 2024")
    await shot("03-follow-up")

    # The Q&A list starts empty; Add to Q&A under an answer puts the question on it.
    await type_in("#composer-text", "/manda qa")
    await expect(channel.locator(".msg.ephemeral", has_text="is empty")).to_contain_text(
        "Only visible to you"
    )
    await type_in("#composer-text", "@Manda What are the pension obligations?")
    pension = channel.locator(".msg", has_text="What are the pension obligations?")
    await pension.get_by_role("button", name="1 reply").click()
    await thread.get_by_role("button", name="Add to Q&A…").click()
    dialog = page.get_by_role("dialog", name="Add to Q&A")
    await expect(dialog).to_contain_text("What are the pension obligations?")
    await dialog.get_by_role("button", name="Add to Q&A").click()  # the asked question, ticked
    await expect(thread).to_contain_text("@You added 1 question to the Q&A list of targetco")
    await type_in("#composer-text", "/manda qa")
    qa_list = channel.locator(".msg.ephemeral", has_text="Q&A list of targetco —")
    await expect(qa_list).to_contain_text("1 question")
    await expect(qa_list).to_contain_text("What are the pension obligations?")
    await shot("04-added-to-qa")

    # The review queue, and one finding approved from it.
    await page.locator("#thread-close").click()
    await expect(thread).to_be_hidden()
    await page.locator("#composer-text").fill("/man")
    await expect(page.locator("#popup")).to_contain_text("ask <question> | gaps")
    await shot("05a-command-menu")
    await type_in("#composer-text", "/manda review")
    queue = channel.locator(".msg", has_text="waiting for review")
    await queue.get_by_role("button", name="Approve finding").first.click()
    await expect(queue).to_contain_text("✅ Approved by @You")
    await queue.evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("05b-finding-approved")

    # /manda gaps: only who asked sees that Manda is reading; the coverage is posted once, so
    # it never shows "(edited)".
    await type_in("#composer-text", "/manda gaps")
    reading = channel.locator(".msg.ephemeral", has_text="reading the documents")
    await expect(reading).to_contain_text("Only visible to you")
    gaps = channel.locator(".msg:not(.ephemeral)", has_text="Gaps in the data room of targetco")
    await expect(gaps).to_contain_text("IRL coverage")
    await expect(gaps).not_to_contain_text("(edited)")
    await gaps.evaluate("node => node.scrollIntoView({block: 'start'})")
    await shot("06-gaps")

    # A file dropped in the channel is downloaded by the bot, ingested and summarised.
    upload = {"name": "TargetCo_Customer_Update.md", "mimeType": "text/markdown", "buffer": UPLOAD}
    await page.locator("#file-input").set_input_files(files=[upload])
    shared = channel.locator(".msg", has_text="TargetCo_Customer_Update.md")
    await expect(shared.locator(".file-card")).to_contain_text("TargetCo_Customer_Update.md")
    await shared.get_by_role("button", name="1 reply").click()
    await expect(thread).to_contain_text("targetco: 1 document ingested")
    await shot("07-upload-ingested")

    # Manda's Home: the deals, their review queue and the Q&A list with the new question.
    await page.locator("#open-manda").click()
    home = page.locator("#home")
    await expect(home).to_contain_text("Deal targetco")
    await expect(home).to_contain_text("What are the pension obligations?")
    await shot("08-app-home")

    # What it all went through: signed requests to the app, and its Web API calls back.
    await page.locator("#traffic-toggle").click()
    traffic = page.locator("#traffic-list")
    await expect(traffic).to_contain_text("command /manda gaps")
    await expect(traffic).to_contain_text("block_actions manda.finding.approve")
    await expect(traffic).to_contain_text("views.publish")
    await shot("09-slack-traffic")

    assert errors == []
    kinds = {d.kind for d in playground.fake.deliveries}
    assert kinds == {"events_api", "slash_commands", "interactive"}
    assert all(d.via == "http" and d.status == 200 for d in playground.fake.deliveries)
    documents = await playground.manda.graph.list_documents("targetco")  # type: ignore[union-attr]
    assert "TargetCo_Customer_Update.md" in {d.filename for d in documents}
