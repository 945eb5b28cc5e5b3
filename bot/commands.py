"""The one table of Manda's slash commands. The router (`bot.listeners.commands`) runs a handler
per row, `/manda help` is rendered from it, the playground's hints come from it, and a test holds
manifest.yml's slash commands and usage hint to it: adding a command is a row, a handler and a
renderer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.slacktext import from_slack

SLASH = "/manda"
NEW_DEAL = "new"  # `/manda deal new <id>`: the one way Slack creates a deal
SLASH_DESCRIPTION = "Ask Manda, or see gaps, red flags, the Q&A list, the review queue, documents"

# Where a command's result goes: the channel (the team shares it) or only the person who asked.
Audience = Literal["channel", "person"]


@dataclass(frozen=True)
class Subcommand:
    """One `/manda <name> <args>` command: how it is typed, what it does, who sees the result."""

    name: str
    args: str  # "<required>" / "[optional]" words, as shown in help and the manifest's hint
    help: str  # one line for `/manda help`
    audience: Audience = "channel"
    aliases: tuple[str, ...] = ()
    shortcut: str | None = None  # its own slash command ("/gaps"), registered in manifest.yml
    shortcut_description: str = ""  # the manifest's description of that shortcut

    @property
    def needs_args(self) -> bool:
        return self.args.startswith("<")

    @property
    def usage(self) -> str:
        """`/manda ask <question>`, as typed."""
        return f"`{' '.join(p for p in (SLASH, self.name, self.args) if p)}`"

    @property
    def hint(self) -> str:
        return f"{self.name} {self.args}".strip()


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand("ask", "<question>", "the same, from the message box"),
    Subcommand(
        "gaps",
        "",
        "what the data room is missing against the request list",
        aliases=("gap",),
        shortcut="/gaps",
        shortcut_description="What the data room is missing against the request list",
    ),
    Subcommand(
        "redflags",
        "",
        "contradictions, gaps and unusual items",
        aliases=("red-flags", "red_flags"),
        shortcut="/redflags",
        shortcut_description="Contradictions, corrections, gaps and unusual items in the deal",
    ),
    Subcommand("review", "", "findings waiting for a human, with Approve / Reject"),
    Subcommand(
        "qa",
        "[export, answered N, edit N, remove N]",
        "the deal's Q&A list; `export` shares it as Excel, the others change question N",
        audience="person",
        aliases=("q&a",),
    ),
    Subcommand(
        "timeline",
        "[from] [to] [category]",
        "the deal's dated events (dates as 2024-06-30, 2024-06 or 2024), upcoming ones marked",
        aliases=("events", "dates"),
    ),
    Subcommand(
        "grid",
        "",
        "a review grid: the same questions across every contract of a kind, cited cell by "
        "cell, as a table and an Excel file",
        aliases=("matrix",),
    ),
    Subcommand(
        "changes",
        "[since]",
        "what changed since a date (2024-11-01) or since you last asked, most serious first",
        audience="person",
        aliases=("what-changed", "news"),
    ),
    Subcommand(
        "digest",
        "[on HH:MM|off]",
        "post what changed here every day at that time (only when something did)",
    ),
    Subcommand(
        "link",
        "<name> = <name>",
        "tell Manda two names are one entity (Globex AG = Globex Holding)",
        aliases=("same",),
    ),
    Subcommand(
        "analyse",
        "[document]",
        "read a document again, or check the corrections and conflicts again",
        aliases=("analyze", "recheck"),
    ),
    Subcommand(
        "cim",
        "[strategic|financial]",
        "build a CIM with me in a new thread: persona, outline, slides, then a PPTX",
    ),
    Subcommand(
        "irl",
        "",
        "build the information request list in a new thread, then an Excel file",
        aliases=("request-list",),
    ),
    Subcommand(
        "status",
        "[thread link]",
        "where the CIM or IRL of this thread stands (reply `status` in the thread itself)",
        audience="person",
    ),
    Subcommand(
        "docs",
        "",
        "the indexed documents and their status",
        audience="person",
        aliases=("documents",),
    ),
    Subcommand(
        "deal",
        "[id | new id]",
        "link this channel to a deal, or create a new one with `new` (without an id: which deal "
        "it is linked to)",
        aliases=("bind", "link"),
    ),
    Subcommand("unlink", "", "unlink this channel from its deal", aliases=("unbind",)),
    Subcommand("help", "", "this list", audience="person"),
)

BY_NAME = {c.name: c for c in SUBCOMMANDS}
ALIASES = {alias: c.name for c in SUBCOMMANDS for alias in c.aliases}
SHORTCUTS = {c.shortcut: c for c in SUBCOMMANDS if c.shortcut}


def parse(text: str) -> tuple[str, str]:
    """(subcommand, rest) of `/manda` text as Slack sends it (made plain once, by
    `bot.slacktext`); an empty text is `help`; aliases are resolved."""
    sub, _, rest = from_slack(text).partition(" ")
    sub = sub.lower()
    return ALIASES.get(sub, sub) or "help", rest.strip()


def usage_hint() -> str:
    """The manifest's usage hint of `/manda`: every subcommand with its arguments."""
    return " | ".join(c.hint for c in SUBCOMMANDS)


def help_lines() -> list[str]:
    """One line per command for `/manda help` (shortcuts named beside their subcommand)."""
    lines = ["`@Manda <question>` — answered in a thread; reply in that thread to follow up."]
    for command in SUBCOMMANDS:
        typed = command.usage + (f" or `{command.shortcut}`" if command.shortcut else "")
        lines.append(f"{typed} — {command.help}.")
    return lines


def slash_commands() -> dict[str, str]:
    """Every slash command Slack must deliver, with its hint or description."""
    return {
        SLASH: usage_hint(),
        **{c.shortcut: c.shortcut_description for c in SUBCOMMANDS if c.shortcut},
    }
