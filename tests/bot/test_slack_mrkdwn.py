"""Markdown → Slack mrkdwn: formatting, escaping of document text, tables, and splitting."""

from __future__ import annotations

import re

from bot.blocks.mrkdwn import SECTION_LIMIT, render_table, split_mrkdwn, to_mrkdwn


def test_inline_formatting_becomes_mrkdwn() -> None:
    text = to_mrkdwn(
        "**Revenue** grew *strongly*, see [the report](https://example.com/r?a=1) ~~not~~"
    )
    assert text == "*Revenue* grew _strongly_, see the report (https://example.com/r?a=1) ~not~"


def test_headings_lists_and_quotes() -> None:
    text = to_mrkdwn("## Red flags\n- first\n  - nested\n* second\n> quoted\n---")
    assert text.splitlines() == [
        "*Red flags*",
        "• first",
        "  • nested",
        "• second",
        "> quoted",
        "──────────",
    ]


def test_document_text_cannot_ping_or_inject_links() -> None:
    text = to_mrkdwn("Ignore this <!channel> & <https://evil.example|click> <@U123>")
    assert "<!channel>" not in text and "<@U123>" not in text and "<https://evil" not in text
    assert "&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt; &lt;@U123&gt;" in text


def test_code_is_kept_verbatim_but_escaped() -> None:
    text = to_mrkdwn("Use `**not bold** <x>` here\n```\n| a | b |\n|---|---|\n<tag>\n```")
    assert "`**not bold** &lt;x&gt;`" in text
    assert "```\n| a | b |\n|---|---|\n&lt;tag&gt;\n```" in text


def test_tables_become_aligned_monospace_with_numbers_right_aligned() -> None:
    markdown = (
        "Revenue by quarter:\n\n"
        "| Period | Revenue | Source |\n"
        "|:--|--:|---|\n"
        "| Q3 2024 | €5.2M | **Q3_Report.pdf** |\n"
        "| FY2023 | €18.45M | Budget.xlsx |\n"
    )
    text = to_mrkdwn(markdown)
    block = re.search(r"```\n(.*?)\n```", text, re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    assert lines[0].split() == ["Period", "Revenue", "Source"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    # the numeric column ends at the same position on every row
    ends = {line.index("M") for line in lines[2:]}
    assert len(ends) == 1
    assert "Q3_Report.pdf" in lines[2] and "**" not in lines[2]


def test_render_table_pads_short_rows() -> None:
    text = render_table([["a", "b", "c"], ["1"]])
    assert text.startswith("```\n") and text.endswith("\n```")
    assert len(text.splitlines()) == 5


def test_split_respects_the_limit_and_keeps_everything() -> None:
    paragraphs = [f"Paragraph {i}: " + ("word " * 90).strip() for i in range(40)]
    text = "\n\n".join(paragraphs)
    pieces = split_mrkdwn(text)
    assert len(pieces) > 1
    assert all(len(p) <= SECTION_LIMIT for p in pieces)
    assert " ".join(" ".join(pieces).split()) == " ".join(text.split())


def test_split_cuts_one_huge_line_and_one_huge_code_block() -> None:
    line = "x" * 7000
    pieces = split_mrkdwn(line)
    assert [len(p) for p in pieces] == [3000, 3000, 1000]
    code = "```\n" + "\n".join(f"row {i:05d} " + "y" * 60 for i in range(200)) + "\n```"
    pieces = split_mrkdwn(code)
    assert len(pieces) > 1
    for piece in pieces:
        assert len(piece) <= SECTION_LIMIT
        assert piece.startswith("```\n") and piece.endswith("\n```")
    rows = [r for p in pieces for r in p.split("\n") if r.startswith("row")]
    assert len(rows) == 200


def test_split_never_breaks_an_escape_sequence() -> None:
    text = ("a" * 2998) + "&amp;" + ("b" * 10)
    pieces = split_mrkdwn(text)
    assert all(len(p) <= SECTION_LIMIT for p in pieces)
    assert "&amp;" in "".join(pieces)
