"""An answer laid out for a deal team at a glance: the first screen, footnoted sources, the rest.

The answer's source markers become footnote numbers (`[1]`), each file and location listed once
under the text (linked to the file in Slack when it was shared there); what does not fit the first
screen waits behind "Show more". What the answer says of its question's constraints is not part
of its text (`Answer.cautions`, rendered by `bot.blocks.answer`). The layout is a pure function of
the answer's text, so the
streamed first screen, the finished message and a later "Show more" (even after a restart, from
the stored answer) always agree.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.blocks.mrkdwn import escape
from bot.blocks.safe_markdown import markdown_safe
from manda.agent.grounding import footnoted

FIRST_SCREEN_CHARS = 1000  # about what a thread pane shows without scrolling
FIRST_SCREEN_LINES = 14  # non-empty lines
MARKDOWN_LIMIT = 12_000  # characters of markdown blocks in one message (Slack's limit)

_FENCE = "```"
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+.*|\*\*[^*]+\*\*:?)\s*$")


@dataclass(frozen=True)
class Footnote:
    number: int
    document: str
    location: str
    link: str | None = None  # the file in Slack, when the document was shared there

    def mrkdwn(self) -> str:
        name = escape(self.document)
        shown = f"<{self.link}|{name}>" if self.link else name
        return f"[{self.number}] {shown} · {escape(self.location)}"


@dataclass(frozen=True)
class Layout:
    """`shown` and `more` are markdown, safe for a markdown block; `notes` cover both."""

    shown: str
    more: str
    notes: tuple[Footnote, ...]

    def notes_for(self, text: str) -> list[Footnote]:
        """The footnotes `text` refers to (numbers are in order of first use, so a prefix)."""
        used = {int(n) for n in re.findall(r"\\?\[(\d+)\\?\]", text)}  # escaped or not
        return [n for n in self.notes if n.number in used]


def digest(answer_text: str) -> str:
    """What a "Show more" button names its answer by (the stored text is found by it)."""
    return hashlib.sha256(answer_text.encode()).hexdigest()[:16]


def lay_out(
    answer_text: str,
    *,
    known_files: Sequence[str] = (),
    links: Mapping[str, str] | None = None,
) -> Layout:
    """The answer's first screen, the rest and its footnotes (file → Slack link in `links`)."""
    text, places = footnoted(answer_text.strip(), known_files)
    notes = tuple(
        Footnote(i, doc, loc, (links or {}).get(doc)) for i, (doc, loc) in enumerate(places, 1)
    )
    shown, more = first_screen(text)
    return Layout(shown=markdown_safe(shown), more=markdown_safe(more), notes=notes)


def first_screen(text: str) -> tuple[str, str]:
    """(the lead and what else fits one screen, the rest): cut between lines, never inside a
    code block or table, never right after a heading, and always keeping the first line."""
    lines = text.split("\n")
    cut, _ = _cut(lines)
    return "\n".join(lines[:cut]).strip("\n"), "\n".join(lines[cut:]).strip("\n")


def settled_screen(partial: str) -> str:
    """Of the first screen of a text still being written (complete lines only), the part no
    later line can change: what may be streamed now."""
    text, _ = footnoted(partial)
    lines = text.split("\n")
    cut, overflowed = _cut(lines)
    if not overflowed:
        cut = _last_cut(lines)
    return markdown_safe("\n".join(lines[:cut]).strip("\n"))


def _cut(lines: list[str]) -> tuple[int, bool]:
    """Where the first screen ends, and whether the text goes on past it."""
    chars = shown = 0
    in_fence = False
    allowed: int | None = None
    for i, line in enumerate(lines):
        if i > 0 and not in_fence and _can_cut(lines, i):
            allowed = i
        chars += len(line) + 1
        shown += bool(line.strip())
        if i > 0 and (chars > FIRST_SCREEN_CHARS or shown > FIRST_SCREEN_LINES):
            return (allowed, True) if allowed is not None else (len(lines), False)
        if line.strip().startswith(_FENCE):
            in_fence = not in_fence
    return len(lines), False


def _last_cut(lines: list[str]) -> int:
    in_fence = False
    last = 0
    for i, line in enumerate(lines):
        if i > 0 and not in_fence and _can_cut(lines, i):
            last = i
        if line.strip().startswith(_FENCE):
            in_fence = not in_fence
    return last


def _can_cut(lines: list[str], i: int) -> bool:
    """A cut before line `i` leaves no table split, and no heading without its content."""
    before = [line for line in lines[:i] if line.strip()]
    if not before:
        return False
    if "|" in lines[i] and "|" in lines[i - 1]:
        return False
    return not _HEADING.match(before[-1])


def rest_pieces(layout: Layout, limit: int = MARKDOWN_LIMIT) -> list[str]:
    """`more` in pieces that fit beside the first screen (the first) or a message of their own."""
    room = max(1000, limit - len(layout.shown) - 200)
    pieces: list[str] = []
    current = ""
    for line in layout.more.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > room and current:
            pieces.append(current)
            current, room = line, limit - 200
        else:
            current = candidate
    if current.strip():
        pieces.append(current)
    return pieces
