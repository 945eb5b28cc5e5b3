"""A message's words when it has none of its own: what its blocks say."""

from __future__ import annotations

from bot.blocks.kit import blocks_text, context, fallback, section


def test_blocks_say_their_headers_sections_markdown_and_context() -> None:
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Gaps in the data room"}},
        section("IRL coverage: 15/23"),
        {"type": "markdown", "text": "**Financial** 4/5 covered"},
        context(["asked by Ana"]),
        {"type": "actions", "elements": [{"type": "button", "text": {"type": "plain_text",
                                                                       "text": "Approve"}}]},
    ]
    assert blocks_text(blocks).splitlines() == [
        "Gaps in the data room", "IRL coverage: 15/23", "**Financial** 4/5 covered",
        "asked by Ana",
    ]


def test_blocks_without_words_still_give_slack_a_non_empty_fallback() -> None:
    assert blocks_text([{"type": "divider"}]) == ""
    assert fallback(blocks_text([{"type": "divider"}])) == " "
