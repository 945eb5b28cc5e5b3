"""Markdown and plain text as sections under their heading path, or as `lines 12-30` groups.

Markdown headings are ATX (`## Litigation`) or setext (underlined); fenced code is never a
heading. In plain text, a short ALL-CAPS line or a numbered title (`1. ATTENDEES`,
`2.1 Revenue Recognition`) after a blank line and followed by text counts as a heading; a file
without any is split into groups of blank-line separated paragraphs.
"""

from __future__ import annotations

import re
from pathlib import Path

from manda.ingest.parsers.base import (
    Outline,
    ParseLimits,
    clean_block,
    decode_text,
    first_title_line,
    normalise_newlines,
)
from manda.ingest.parsers.headings import is_caps, is_title_case
from manda.models import Location, LocationKind, ParsedDocument, Section

GROUP_CHARS = 1_000  # paragraphs are grouped up to about this size when there are no headings

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)[.)]?[ \t]+(\S.*)$")


def parse_markdown(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    del limits
    lines = normalise_newlines(decode_text(path.read_bytes())).split("\n")
    front_title, lines = _front_matter(lines)
    outline = Outline()
    first_h1: str | None = None
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
            outline.line(line)
        elif in_fence:
            outline.line(line)
        elif match := _ATX.match(line):
            level, text = len(match.group(1)), match.group(2).strip()
            first_h1 = first_h1 or (text if level == 1 else None)
            outline.heading(level, text)
        elif (line.strip() and i + 1 < len(lines) and _SETEXT.match(lines[i + 1])
              and not line.lstrip().startswith(("|", "-", "*", ">"))):
            level = 1 if lines[i + 1].strip().startswith("=") else 2
            first_h1 = first_h1 or (line.strip() if level == 1 else None)
            outline.heading(level, line.strip())
            i += 1
        else:
            outline.line(line)
        i += 1
    sections = outline.sections()
    first = sections[0].text if sections else ""
    return ParsedDocument(
        filename=filename,
        file_type="md",
        sections=sections,
        units=len(sections),
        title=front_title or first_h1 or first_title_line(first),
    )


def _front_matter(lines: list[str]) -> tuple[str | None, list[str]]:
    """YAML front matter (`---` ... `---`) is metadata: take its title, drop the rest."""
    if not lines or lines[0].strip() != "---":
        return None, lines
    for end in range(1, min(len(lines), 200)):
        if lines[end].strip() in ("---", "..."):
            title = None
            for meta in lines[1:end]:
                key, _, value = meta.partition(":")
                if key.strip().lower() == "title" and value.strip():
                    title = value.strip().strip("\"'")
            return title, [""] * (end + 1) + lines[end + 1 :]
    return None, lines


def parse_text(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    del limits
    lines = normalise_newlines(decode_text(path.read_bytes())).split("\n")
    levels = _text_headings(lines)
    sections = _by_headings(lines, levels) if levels else _by_paragraphs(lines)
    first_line = next((line.strip() for line in lines if line.strip()), "")
    return ParsedDocument(
        filename=filename,
        file_type="txt",
        sections=sections,
        units=len(sections),
        title=first_title_line(first_line),
    )


def _text_headings(lines: list[str]) -> dict[int, int]:
    """Line index -> heading level, for candidate lines that stand apart and lead into text."""
    candidates = {
        i: level
        for i, line in enumerate(lines)
        if (i == 0 or not lines[i - 1].strip()) and (level := _heading_level(line))
    }
    headings: dict[int, int] = {}
    for i, level in candidates.items():
        following = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)
        if following is not None and following not in candidates:
            headings[i] = level
    return headings


def _heading_level(line: str) -> int | None:
    text = line.strip()
    if not text or len(text) > 80 or text.endswith((".", ",", ";")) or len(text.split()) > 10:
        return None
    numbered = _NUMBERED.match(text)
    if numbered:
        title = numbered.group(2)
        if is_caps(title) or is_title_case(title):
            return numbered.group(1).count(".") + 1
        return None
    return 1 if is_caps(text) else None


def _by_headings(lines: list[str], levels: dict[int, int]) -> list[Section]:
    outline = Outline()
    for i, line in enumerate(lines):
        if i in levels:
            outline.heading(levels[i], line.strip().rstrip(":"))
        else:
            outline.line(line)
    return outline.sections()


def _by_paragraphs(lines: list[str]) -> list[Section]:
    """Paragraphs grouped up to GROUP_CHARS, each group located by its 1-based line range."""
    paragraphs: list[tuple[int, int, str]] = []  # first line, last line, text
    start: int | None = None
    for i, line in enumerate([*lines, ""]):
        if line.strip() and start is None:
            start = i
        elif not line.strip() and start is not None:
            paragraphs.append((start + 1, i, "\n".join(lines[start:i])))
            start = None
    sections: list[Section] = []
    group: list[tuple[int, int, str]] = []
    for paragraph in paragraphs:
        if group and sum(len(p[2]) for p in group) + len(paragraph[2]) > GROUP_CHARS:
            sections.append(_group_section(group))
            group = []
        group.append(paragraph)
    if group:
        sections.append(_group_section(group))
    return sections


def _group_section(group: list[tuple[int, int, str]]) -> Section:
    first, last = group[0][0], group[-1][1]
    label = f"line {first}" if first == last else f"lines {first}-{last}"
    text = clean_block("\n\n".join(p[2] for p in group))
    return Section(text=text, location=Location(kind=LocationKind.SECTION, label=label))
