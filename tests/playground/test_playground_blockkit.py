"""The page shows what an app posts as Slack would: every Block Kit block type, mrkdwn, escaped
text, a stream growing in place, the assistant status and ephemeral messages — rendered in a real
headless Chromium from the fake Slack's state (no bot here: the test posts via the Web API)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.fakeslack import Channel, FakeSlack, User
from bot.fakeslack.client import ClientApi
from bot.playground.server import page_routes


@pytest.fixture
async def local_page() -> AsyncIterator[tuple[FakeSlack, User, Channel]]:
    fake = FakeSlack()
    you = fake.workspace.add_user("you", real_name="You")
    deal = fake.workspace.add_channel("deal-x", members=[you.id])
    client = ClientApi(fake, you, commands=["/manda"], start_channel=deal.id)
    fake.mount([*client.routes(), *page_routes(client.guard)])
    async with fake:
        yield fake, you, deal


def text(value: str, kind: str = "mrkdwn") -> dict[str, Any]:
    return {"type": kind, "text": value}


def raw(value: str) -> dict[str, Any]:
    return {"type": "raw_text", "text": value}


def gallery(you: User, deal: Channel) -> list[dict[str, Any]]:
    button = {"type": "button", "text": text("Open", "plain_text"), "action_id": "a", "value": "1"}
    return [
        {"type": "header", "text": text("Q3 2024 at a glance", "plain_text")},
        {
            "type": "section",
            "text": text(
                f"*Revenue* was _€5.2M_, not ~€5.0M~ (`P&amp;L!I5`, <https://example.com|report>)"
                f" — <@{you.id}> in <#{deal.id}>\n> corrected in v2\n```Metric   Q3\nEBITDA  1.1```"
            ),
        },
        {
            "type": "section",
            "fields": [text("*Period*\nQ3 2024"), text("*Source*\nQ3_Report.pdf p.1")],
            "accessory": button,
        },
        {"type": "divider"},
        {
            "type": "context",
            "elements": [text("📄 Q3_Report.pdf · p.1"), text("plain", "plain_text")],
        },
        {
            "type": "rich_text",
            "elements": [
                {"type": "rich_text_section", "elements": [{"type": "text", "text": "Risks:"}]},
                {
                    "type": "rich_text_list",
                    "style": "bullet",
                    "elements": [
                        {
                            "type": "rich_text_section",
                            "elements": [{"type": "text", "text": "customer concentration"}],
                        }
                    ],
                },
            ],
        },
        {"type": "table", "rows": [[raw("Metric"), raw("Q3")], [raw("Revenue"), raw("€5.2M")]]},
        {"type": "markdown", "text": "## Trend\n| a | b |\n|---|---|\n| 1 | 2 |\n- **up** 4%"},
        {
            "type": "actions",
            "elements": [
                {**button, "text": text("Approve finding", "plain_text"), "style": "primary"},
                {
                    **button,
                    "action_id": "b",
                    "text": text("Reject", "plain_text"),
                    "style": "danger",
                },
            ],
        },
    ]


async def test_blocks_streams_and_ephemerals_render_like_slack(
    local_page: tuple[FakeSlack, User, Channel], browser: Any, artifacts: Path
) -> None:
    from playwright.async_api import expect

    fake, you, deal = local_page
    api = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)
    page = await browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(fake.base_url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")

    await api.chat_postMessage(channel=deal.id, text="gallery", blocks=gallery(you, deal))
    msg = page.locator("#messages .msg", has_text="Q3 2024 at a glance")
    await expect(msg.locator("[data-block-type=header]")).to_have_text("Q3 2024 at a glance")
    section = msg.locator("[data-block-type=section]").first
    await expect(section.locator("b").first).to_have_text("Revenue")
    await expect(section.locator("i").first).to_have_text("€5.2M")
    await expect(section.locator("s")).to_have_text("€5.0M")
    await expect(section.locator("code")).to_have_text("P&L!I5")
    link = section.locator("a[href='https://example.com']")
    await expect(link).to_have_text("report")
    await expect(link).to_have_attribute("target", "_blank")
    await expect(section.locator(".mention-me")).to_have_text("@You")
    await expect(section.locator(".channel-link")).to_have_text("#deal-x")
    await expect(section.locator("blockquote")).to_have_text("corrected in v2")
    await expect(section.locator("pre.code-block")).to_contain_text("EBITDA  1.1")
    await expect(msg.locator(".bk-field")).to_have_count(2)
    await expect(msg.locator(".bk-accessory button")).to_have_text("Open")
    await expect(msg.locator("[data-block-type=context]")).to_contain_text("Q3_Report.pdf · p.1")
    await expect(msg.locator(".bk-rich-text li")).to_have_text("customer concentration")
    await expect(msg.locator(".bk-table td").last).to_have_text("€5.2M")
    await expect(msg.locator(".bk-markdown td").last).to_have_text("2")
    await expect(msg.locator(".bk-markdown li b")).to_have_text("up")
    await expect(msg.locator(".bk-primary")).to_have_text("Approve finding")
    await expect(msg.locator(".bk-danger")).to_have_text("Reject")

    # Text from documents is data: shown as typed, never run or loaded.
    hostile = "<script>alert(1)</script> <img src=x onerror=alert(1)>"
    await api.chat_postMessage(channel=deal.id, text=hostile.replace("<", "&lt;"))
    shown = page.locator("#messages .msg", has_text="onerror")
    await expect(shown).to_contain_text(hostile)
    assert await page.locator("#messages img[src='x'], #messages script").count() == 0

    # A stream grows in place in its thread, with the assistant status shown meanwhile.
    question = await fake.say(you, deal, "What was Q3 revenue?")
    await page.locator("#messages .msg", has_text="What was Q3 revenue?").hover()
    await page.get_by_role("button", name="Reply in thread").click()
    await api.assistant_threads_setStatus(
        channel_id=deal.id, thread_ts=question.ts, status="is reading the deal's documents…"
    )
    await expect(page.locator("#thread-status")).to_contain_text(
        "Manda is reading the deal's documents…"
    )
    stream = await api.chat_startStream(
        channel=deal.id,
        thread_ts=question.ts,
        markdown_text="Revenue was",
        recipient_user_id=you.id,
        recipient_team_id=fake.workspace.team_id,
    )
    streaming = page.locator("#thread .msg.streaming")
    await expect(streaming).to_contain_text("Revenue was")
    await expect(streaming).to_contain_text("writing…")
    await api.chat_appendStream(channel=deal.id, ts=stream["ts"], markdown_text=" **€5.2M**")
    await expect(streaming.locator("b")).to_have_text("€5.2M")
    await api.chat_stopStream(channel=deal.id, ts=stream["ts"])
    await expect(page.locator("#thread-status")).to_be_hidden()  # a reply clears the status
    await expect(page.locator("#thread .msg.streaming")).to_have_count(0)
    await expect(page.locator("#thread")).to_contain_text("Revenue was €5.2M")

    await api.chat_postEphemeral(channel=deal.id, user=you.id, text="Only you see *this*.")
    note = page.locator("#messages .msg.ephemeral")
    await expect(note).to_contain_text("Only visible to you")
    await expect(note.locator("b")).to_have_text("this")

    await page.mouse.move(1, 1)
    await page.screenshot(path=str(artifacts / "10-block-kit.png"), full_page=True)
    assert errors == []
