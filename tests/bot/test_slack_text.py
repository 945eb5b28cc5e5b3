"""Slack text is made plain once on the way in and escaped once on the way out.

Slack sends typed text with `&`, `<`, `>` escaped and mentions as `<@U…>`; before this, "P&L"
reached the domain as `P&amp;L` and came back as `P&amp;amp;L` in Q&A items and thread notes.
"""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids
from bot.blocks.kit import section
from bot.blocks.mrkdwn import escape, plain, to_mrkdwn
from bot.blocks.safe_markdown import markdown_safe
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


# Issue 26, item 11: forms of a link that the regex let through into `markdown_text`.
LINK_VARIANTS = {
    "a space after (": "[verify]( https://evil.example/a)",
    "an upper-case scheme": "[verify](HTTPS://evil.example/b)",
    "a title": '[verify](https://evil.example/c "Your bank")',
    "nested brackets": "[verify [now]](https://evil.example/d)",
    "a label over two lines": "[verify\nyour account](https://evil.example/e)",
    "a reference link": "[verify][r]\n\n[r]: https://evil.example/f",
    "a collapsed reference": "[verify][]\n\n[verify]: https://evil.example/g",
    "a shortcut reference": "[verify]\n\n[verify]: https://evil.example/h",
    "mailto": "[write to us](mailto:phish@evil.example)",
    "slack://": "[open](slack://open?team=T1)",
    "javascript:": "[run](javascript:alert(1))",
    "an image": "![logo](https://evil.example/i.png)",
    "angle brackets": "[verify](<https://evil.example/j k>)",
    "a definition in a quote": "[verify][q]\n\n> [q]: https://evil.example/k",
    "a link in a list": "- [verify](https://evil.example/l)\n- two",
    "a link in a table": "| a | b |\n|---|---|\n| [verify](https://evil.example/m) | 2 |",
    "an autolink": "<https://evil.example/n>",
    "raw HTML": '<a href="https://evil.example/o">verify</a>',
}


def test_no_form_of_a_link_survives_in_markdown_text() -> None:
    from markdown_it import MarkdownIt

    commonmark = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    commonmark.validateLink = lambda url: True
    for form, doc in LINK_VARIANTS.items():
        safe = markdown_safe(f"Revenue was EUR 5.2M [1].\n\n{doc}\n\nEBITDA was EUR 1.1M [2].")
        tokens = commonmark.parse(safe)
        found = [t.type for b in tokens for t in (b.children or []) if t.type in (
            "link_open", "image")] + [t.type for t in tokens if t.type == "html_block"]
        assert found == [], (form, safe)
        assert "Revenue was EUR 5.2M [1]." in safe and "EBITDA was EUR 1.1M [2]." in safe


def test_a_link_is_shown_as_its_label_and_address() -> None:
    assert markdown_safe("See [the report](HTTPS://evil.example/x \"t\") now") == (
        "See the report (HTTPS://evil.example/x) now")
    assert markdown_safe("Mail [us](mailto:a@b.example)") == "Mail us (mailto:a@b.example)"
    # text without links is kept as written (escaped for Slack)
    kept = "## Revenue\n\n| Q | EUR |\n|---|---|\n| Q3 | 5.2 |\n\n* P&L [1]"
    assert markdown_safe(kept) == kept.replace("&", "&amp;")


def test_file_names_with_control_and_bidi_characters_are_neutralised() -> None:
    name = "invoice\u202egpj.exe\x07\x1b[31m.pdf"
    shown = escape(name)
    assert "\u202e" not in shown and "\x07" not in shown and "\x1b" not in shown
    assert shown.count("\ufffd") == 3


# Issue 26, item 13: characters that draw nothing made two file names look alike.
INVISIBLE = {
    "zero-width space": "\u200b", "zero-width non-joiner": "\u200c", "zero-width joiner": "\u200d",
    "word joiner": "\u2060", "byte-order mark": "\ufeff", "soft hyphen": "\u00ad",
    "tag letter A": "\U000e0041", "cancel tag": "\U000e007f", "invisible times": "\u2062",
    "Hangul filler": "\u3164", "combining grapheme joiner": "\u034f",
}


def test_invisible_characters_are_shown_in_names_and_text() -> None:
    real = "TargetCo_Q3_Report.pdf"
    for what, hidden in INVISIBLE.items():
        twin = real.replace("Q3", f"Q{hidden}3")
        for shown in (escape(twin), plain(twin, 100), markdown_safe(twin)):
            assert shown != real and hidden not in shown, what
            assert "\ufffd" in shown, what


def test_every_format_character_of_this_python_is_shown() -> None:
    import unicodedata

    from manda.text_forms import show_invisible

    missing = [hex(c) for c in range(0x110000)
               if unicodedata.category(chr(c)) == "Cf" and show_invisible(chr(c)) == chr(c)]
    assert missing == [], "update manda.text_forms.FORMAT_RANGES for this Unicode version"


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
