"""Slack text coming in, made plain once: entities unescaped, mentions and links resolved.

Slack sends message and command text with `&`, `<` and `>` escaped and with mentions, channels,
broadcasts and links as `<…>` sequences. Everything the domain sees (questions, Q&A items, thread
notes) is the plain text a person typed; the way out (`bot.blocks.mrkdwn.escape`) escapes it again,
exactly once. https://docs.slack.dev/messaging/formatting-message-text#escaping
"""

from __future__ import annotations

import re

# <@U123>, <@U123|alice>, <#C123|deal-x>, <!here>, <!subteam^S1|@team>, <https://x|label>
_ENTITY = re.compile(r"<([@#!]?)([^<>|]*)(?:\|([^<>]*))?>")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
_ESCAPED = re.compile(r"&(?:lt|gt|amp);")


def unescape(text: str) -> str:
    """`&lt;`, `&gt;`, `&amp;` back to `<`, `>`, `&` in one pass (so `&amp;lt;` stays `&lt;`)."""
    return _ESCAPED.sub(lambda m: _ENTITIES[m.group(0)], text)


def from_slack(text: str, *, bot_user_id: str | None = None) -> str:
    """The plain text of a Slack message: what a person reads, without Slack's markup."""

    def entity(match: re.Match[str]) -> str:
        sigil, target, label = match.group(1), match.group(2), match.group(3)
        if sigil == "@":
            if bot_user_id and target == bot_user_id:
                return " "
            return f"@{label or target}"
        if sigil == "#":
            return f"#{label or target}"
        if sigil == "!":
            if target.startswith(("subteam^", "date^")):
                return label or ""
            return f"@{target}" if target in ("here", "channel", "everyone") else (label or "")
        if label and label != target and label not in target:
            return f"{label} ({target})"
        return target.removeprefix("mailto:")

    return " ".join(unescape(_ENTITY.sub(entity, text)).split())


def from_input(text: str) -> str:
    """What a person typed into a modal's text input: Slack sends it as typed, with no entities
    or `<…>` markup to undo (unlike message text), so it is only trimmed — never unescaped a
    second time, which would turn a typed `&amp;` into `&`."""
    return text.strip()
