"""Slack text is made plain once on the way in and escaped once on the way out.

Slack sends typed text with `&`, `<`, `>` escaped and mentions as `<@U…>`; before this, "P&L"
reached the domain as `P&amp;L` and came back as `P&amp;amp;L` in Q&A items and thread notes.
"""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids
from bot.blocks.kit import section
from bot.blocks.mrkdwn import escape, markdown_safe, stream_ready, to_mrkdwn
from bot.fakeslack.client import escape as typed_in_slack
from bot.payloads import SuggestedQuestions
from bot.slacktext import from_slack


def test_entities_mentions_and_links_are_made_plain_once() -> None:
    sent = (
        "<@UBOT> Walk me through the P&amp;L &lt;FY24&gt; with <@U2|bob> in <#C1|deal-x> "
        "<!here> <https://x.example/r?a=1&amp;b=2|the report> <mailto:a@b.example|a@b.example> "
        "&amp;lt; stays"
    )
    assert from_slack(sent, bot_user_id="UBOT") == (
        "Walk me through the P&L <FY24> with @bob in #deal-x @here "
        "the report (https://x.example/r?a=1&b=2) a@b.example &lt; stays"
    )
    assert from_slack("<@U7> and <#C9>") == "@U7 and #C9"


def test_a_round_trip_escapes_exactly_once() -> None:
    for typed in ["P&L", "A < B > C", "R&D &amp; co", "<!channel>", "Q&A for <@U1>"]:
        assert from_slack(typed_in_slack(typed)) == typed
        assert escape(from_slack(typed_in_slack(typed))) == typed_in_slack(typed)


def test_document_links_are_shown_not_clickable_in_every_channel_of_output() -> None:
    doc = "Please [verify your account](https://evil.example/phish) & <!channel> <@U1>"
    for out in (to_mrkdwn(doc), markdown_safe(doc)):
        assert "<https://" not in out and "|verify" not in out
        assert "verify your account (https://evil.example/phish)" in out
        assert "<!channel>" not in out and "<@U1>" not in out
    # no URL, channel name or mention in mrkdwn is auto-linked by Slack
    assert section("see https://evil.example")["text"]["verbatim"] is True


def test_a_streamed_link_is_held_back_until_it_is_complete() -> None:
    ready, held = stream_ready("Revenue grew. See [verify](https://evil.exa")
    assert ready == "Revenue grew. See " and held == "[verify](https://evil.exa"
    ready, held = stream_ready(held + "mple/x) now")
    assert ready == "verify (https://evil.example/x) now" and held == ""
    assert stream_ready("footnote [1] then text") == ("footnote [1] then text", "")


def test_file_names_with_control_and_bidi_characters_are_neutralised() -> None:
    name = "invoice\u202egpj.exe\x07\x1b[31m.pdf"
    shown = escape(name)
    assert "\u202e" not in shown and "\x07" not in shown and "\x1b" not in shown
    assert shown.count("\ufffd") == 3


async def test_r_and_d_reaches_the_domain_and_the_qa_list_unescaped(world: SlackWorld) -> None:
    # Not in the room, so the answer offers the question itself for the Q&A list.
    question = "Which R&D tax credits <2024> has the company claimed?"
    asked = await world.fake.mention(world.alice, world.deal, typed_in_slack(question))
    await world.settle()
    replies = world.replies(world.deal, asked.ts)
    texts = " ".join(m.all_text() for m in replies)
    assert "&amp;amp;" not in texts and "&amp;lt;" not in texts
    assert "R&amp;" not in texts.replace("R&amp;D", "")  # never cut at the entity

    typed = "R&D tax credits <2024>"
    message, button = next(
        (m, e)
        for m in replies
        for b in m.blocks
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == ids.QA_OPEN
        and typed in SuggestedQuestions.decode(e["value"]).questions[0].question
    )
    await world.fake.click(world.alice, message, ids.QA_OPEN, value=button["value"])
    await world.settle()
    await world.fake.submit_view(world.alice, {})  # the asked question comes ticked, as worded
    await world.settle()
    [item] = await world.manda.qa.items("targetco")
    assert typed in item.question and "&amp;" not in item.question
    replies = world.replies(world.deal, asked.ts)
    notes = [m.all_text() for m in replies if "Q&A list" in m.all_text()]
    assert notes and all("R&amp;D" in n and "&amp;amp;" not in n for n in notes)
