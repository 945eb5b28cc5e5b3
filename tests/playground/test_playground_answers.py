"""A banker reads Manda's answers in the playground, in a real headless Chromium: a question with
`&` shown once and unescaped, its Q&A item stored as typed; red flags most serious first, the
lead line first, footnoted sources, and "Show more" opening the rest in place. Screenshots go to
test-artifacts/playground/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.playground import Playground


async def test_a_question_with_an_ampersand_is_shown_and_stored_as_typed(
    playground: Playground, open_page: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    page, errors = await open_page()
    channel, thread = page.locator("#messages"), page.locator("#thread")

    typed = "Which R&D tax credits has TargetCo claimed?"
    await page.locator("#composer-text").fill(f"@Manda {typed}")
    await page.locator("#composer-text").press("Enter")
    question = channel.locator(".msg", has_text=typed)
    await expect(question).to_have_count(1)
    await question.get_by_role("button", name="1 reply").click()
    answer = thread.locator(".msg.from-bot:not(.streaming)")
    await expect(answer).to_contain_text("R&D")
    await expect(answer.get_by_role("button", name="Add to Q&A")).to_be_visible()
    for shown in (await page.locator("#messages").inner_text(),
                  await thread.inner_text()):
        assert "&amp;" not in shown and "&lt;" not in shown
    assert (await thread.inner_text()).count(typed) <= 2  # the parent and at most one quote
    await expect(answer.locator(".dim", has_text="(edited)")).to_have_count(0)
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "30-ampersand-question.png"))

    await answer.get_by_role("button", name="Add to Q&A…").click()
    dialog = page.get_by_role("dialog", name="Add to Q&A")
    await expect(dialog.locator("textarea")).to_have_value(typed)  # as typed, no entities
    await dialog.get_by_role("button", name="Add to Q&A").click()
    await expect(thread).to_contain_text("added 1 question to the Q&A list")
    await page.locator("#composer-text").fill("/manda qa")
    await page.locator("#composer-text").press("Enter")
    qa_list = channel.locator(".msg.ephemeral", has_text="Q&A list of targetco")
    await expect(qa_list).to_contain_text(typed)
    assert "&amp;" not in await qa_list.inner_text()
    items = await playground.manda.deals.questions("targetco")  # type: ignore[union-attr]
    assert [i.question for i in items] == [typed]
    await qa_list.evaluate("node => node.scrollIntoView({block: 'end'})")
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "31-ampersand-in-qa-list.png"))
    assert errors == []


async def test_red_flags_most_serious_first_with_show_more(
    open_page: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    page, errors = await open_page()
    channel, thread = page.locator("#messages"), page.locator("#thread")

    await page.locator("#composer-text").fill("@Manda What are the red flags?")
    await page.locator("#composer-text").press("Enter")
    await channel.locator(".msg", has_text="What are the red flags?").get_by_role(
        "button", name="1 reply").click()
    answer = thread.locator(".msg.from-bot:not(.streaming)", has_text="most serious first")
    body = answer.locator(".bk-markdown").first
    # The lead is the answer: how many flags and the worst ones, before anything else.
    await expect(body.locator("p").first).to_contain_text(
        "red flags, most serious first: litigation (EUR 1.2 million), a change-of-control "
        "clause and customer concentration (38%).")
    items = await body.locator("li").all_inner_texts()
    assert items[0].startswith("Litigation:") and items[1].startswith("Change of control:")
    assert items[2].startswith("Customer concentration:") and items[3].startswith("Covenant:")
    assert all("(source" not in item for item in items)
    assert all("[" in item for item in items)  # every flag carries its footnote
    sources = answer.locator(".bk-context", has_text="Sources")
    await expect(sources.first).to_contain_text("[1] TargetCo_Legal_Summary.docx · Litigation")
    await expect(answer).not_to_contain_text("Forecast revised")
    await expect(answer.locator(".dim", has_text="(edited)")).to_have_count(0)
    await answer.evaluate("node => node.scrollIntoView({block: 'start'})")
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "32-red-flags-first-screen.png"))

    await answer.get_by_role("button", name="Show more").click()
    await expect(answer).to_contain_text("Forecast revised, Revenue FY2025")
    await expect(answer.get_by_role("button", name="Show more")).to_have_count(0)
    text = await answer.inner_text()
    assert text.index("Litigation") < text.index("One-time charge") < text.index(
        "Forecast revised") < text.index("Gaps")
    await expect(answer).to_contain_text(  # its footnote listed once the rest is shown
        re.compile(r"\[\d+\] TargetCo_Forecast_2025_v2\.xlsx · Forecast 2025!F7"))
    await answer.evaluate("node => node.scrollIntoView({block: 'start'})")
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "33-red-flags-show-more.png"))
    assert errors == []


async def test_a_constraint_note_is_a_caution_under_the_answer(
    open_page: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    page, errors = await open_page()
    channel, thread = page.locator("#messages"), page.locator("#thread")
    question = "What was Q3 2024 revenue, only from final documents?"
    await page.locator("#composer-text").fill(f"@Manda {question}")
    await page.locator("#composer-text").press("Enter")
    await channel.locator(".msg", has_text=question).get_by_role("button", name="1 reply").click()
    answer = thread.locator(".msg.from-bot:not(.streaming)", has_text="Revenue was")
    caution = answer.locator(".bk-context", has_text="⚠️ Left out under")
    await expect(caution).to_contain_text(
        "Left out under “only audited or final documents”: TargetCo_Management_Presentation.pptx")
    await expect(answer.locator(".bk-markdown").first).not_to_contain_text("Left out under")
    text = await answer.inner_text()
    assert text.index("Revenue was") < text.index("⚠️ Left out under") < text.index("Sources")
    await expect(answer.locator(".dim", has_text="(edited)")).to_have_count(0)
    await answer.evaluate("node => node.scrollIntoView({block: 'start'})")
    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "34-constraint-caution.png"))
    assert errors == []
