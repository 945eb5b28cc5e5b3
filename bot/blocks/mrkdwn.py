"""Markdown from the domain turned into Slack mrkdwn, and cut to fit Slack's per-block limits.

Answer text is built from document content, so it is escaped (`&`, `<`, `>`) before any Slack
syntax is added, and Markdown links are shown as `label (url)`: a document cannot ping
`<!channel>`, mention anyone or put a clickable link under innocent words (mrkdwn links need `<`,
which is always escaped; Markdown for `markdown_text` is made safe by a CommonMark parser in
`bot.blocks.safe_markdown`). This is the one place Slack text is escaped on the way out;
`bot.slacktext` is the one place it is unescaped on the way in. GitHub-style tables become
aligned monospace text, since mrkdwn has no tables.
"""

from __future__ import annotations

import re
import unicodedata

from manda.text_forms import show_invisible

SECTION_LIMIT = 3000  # characters of text in one section block
CONTEXT_LIMIT = 2000  # characters we allow in one context element (Slack's hard limit is 3000)

_FENCE = "```"
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^\s)]+)\)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")


def neutralise(text: str) -> str:
    """Text with every character that draws nothing or reorders text shown as a visible mark:
    controls, bidi overrides (`exe.pdf` of `\u202efdp.exe`), zero-width characters, soft
    hyphens, tag characters (`manda.text_forms`), so a renamed file cannot hide."""
    return show_invisible(text)


def escape(text: str) -> str:
    """Escape the three characters Slack treats as control sequences; neutralise hidden ones."""
    return neutralise(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def shown_link(label: str, url: str) -> str:
    """A Markdown link as text a person can read: the URL stays visible, nothing is clickable."""
    label = label.strip()
    return url if label in (url, url.split("://", 1)[-1]) else f"{label} ({url})"


def plain(text: str, limit: int) -> str:
    """Plain text shortened to `limit` characters with an ellipsis (button labels, fallbacks)."""
    text = " ".join(neutralise(text).split())
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def to_mrkdwn(markdown: str) -> str:
    """Convert CommonMark/GFM as the agent writes it to Slack mrkdwn."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith(_FENCE):
            block, i = _take_fenced(lines, i)
            out.append(block)
            continue
        if _is_table_start(lines, i):
            rows, i = _take_table(lines, i)
            out.append(render_table(rows))
            continue
        out.append(_convert_line(line))
        i += 1
    return "\n".join(out).strip("\n")


def _take_fenced(lines: list[str], start: int) -> tuple[str, int]:
    body: list[str] = []
    i = start + 1
    while i < len(lines) and not lines[i].strip().startswith(_FENCE):
        body.append(escape(lines[i]))
        i += 1
    return f"{_FENCE}\n" + "\n".join(body) + f"\n{_FENCE}", min(i + 1, len(lines))


def _is_table_start(lines: list[str], i: int) -> bool:
    return (
        "|" in lines[i]
        and i + 1 < len(lines)
        and bool(_TABLE_SEPARATOR.match(lines[i + 1]))
        and "-" in lines[i + 1]
    )


def _split_row(line: str) -> list[str]:
    cells = line.strip()
    if cells.startswith("|"):
        cells = cells[1:]
    if cells.endswith("|"):
        cells = cells[:-1]
    return [_strip_inline(c.strip()) for c in cells.split("|")]


def _take_table(lines: list[str], start: int) -> tuple[list[list[str]], int]:
    rows = [_split_row(lines[start])]
    i = start + 2
    while i < len(lines) and "|" in lines[i] and lines[i].strip():
        rows.append(_split_row(lines[i]))
        i += 1
    return rows, i


def _strip_inline(cell: str) -> str:
    cell = _BOLD.sub(r"\2", cell)
    cell = _ITALIC_STAR.sub(r"\1", cell)
    cell = _CODE_SPAN.sub(r"\2", cell)
    return _LINK.sub(r"\1", cell)


def _width(text: str) -> int:
    """Display width in a monospace font: wide (CJK) characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _looks_numeric(cell: str) -> bool:
    return bool(re.fullmatch(r"[-+(]?[€$£¥]?\s?[\d.,]+\s?[%kKmMbBx)]*[A-Z]{0,3}", cell.strip()))


def render_table(rows: list[list[str]]) -> str:
    """Rows of cells as a monospace block with aligned columns (numbers right-aligned)."""
    columns = max(len(r) for r in rows)
    rows = [r + [""] * (columns - len(r)) for r in rows]
    widths = [max(_width(r[c]) for r in rows) for c in range(columns)]
    numeric = [
        all(_looks_numeric(r[c]) or not r[c] for r in rows[1:]) and len(rows) > 1
        for c in range(columns)
    ]

    def fmt(row: list[str]) -> str:
        cells = []
        for c, cell in enumerate(row):
            pad = " " * (widths[c] - _width(cell))
            cells.append(pad + cell if numeric[c] else cell + pad)
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * w for w in widths)
    body = [fmt(rows[0]), rule, *(fmt(r) for r in rows[1:])]
    return f"{_FENCE}\n" + escape("\n".join(body)) + f"\n{_FENCE}"


def _convert_line(line: str) -> str:
    if _RULE.match(line):
        return "──────────"
    heading = _HEADING.match(line)
    if heading:
        return f"*{_inline(heading.group(2))}*"
    bullet = _BULLET.match(line)
    if bullet:
        indent = " " * (len(bullet.group(1).expandtabs(4)) // 2 * 2)
        return f"{indent}• {_inline(bullet.group(2))}"
    quote = re.match(r"^\s*>\s?(.*)$", line)
    if quote:
        return f"> {_inline(quote.group(1))}"
    return _inline(line)


def _inline(text: str) -> str:
    """Inline markdown to mrkdwn; code spans are kept verbatim (escaped only)."""
    parts = _CODE_SPAN.split(text)
    # split() with one capturing group of backticks and one of content: [text, ticks, code, ...]
    out: list[str] = []
    i = 0
    while i < len(parts):
        out.append(_inline_text(parts[i]))
        if i + 2 < len(parts):
            out.append("`" + escape(parts[i + 2]) + "`")
        i += 3
    return "".join(out)


def _inline_text(text: str) -> str:
    links: list[str] = []

    def keep_link(match: re.Match[str]) -> str:
        # Answer text quotes documents: a link is shown, never made clickable under a label.
        links.append(escape(shown_link(match.group(1), match.group(2))))
        return f"\ue000{len(links) - 1}\ue000"

    text = _LINK.sub(keep_link, text)
    text = escape(text)
    text = _BOLD.sub(lambda m: f"\x01{m.group(2)}\x01", text)
    text = _ITALIC_STAR.sub(r"_\1_", text)
    text = _STRIKE.sub(r"~\1~", text)
    text = text.replace("\x01", "*")
    return re.sub(r"\ue000(\d+)\ue000", lambda m: links[int(m.group(1))], text)


# ---------------------------------------------------------------- splitting


def split_mrkdwn(text: str, limit: int = SECTION_LIMIT) -> list[str]:
    """Cut mrkdwn into pieces of at most `limit` characters: at paragraph breaks, else at line
    breaks, else at spaces; a code block cut in two is closed and reopened so both render."""
    if limit < 20:
        raise ValueError("limit must leave room for code fences")
    pieces: list[str] = []
    current = ""
    for unit in _units(text, limit):
        candidate = f"{current}\n\n{unit}" if current else unit
        if len(candidate) <= limit:
            current = candidate
        else:
            if current:
                pieces.append(current)
            current = unit
    if current:
        pieces.append(current)
    return pieces or [""]


def _units(text: str, limit: int) -> list[str]:
    """Paragraphs and code blocks, each no longer than `limit`."""
    units: list[str] = []
    for block in _paragraphs(text):
        if len(block) <= limit:
            units.append(block)
        elif block.startswith(_FENCE):
            units.extend(_split_code(block, limit))
        else:
            units.extend(_split_lines(block, limit))
    return units


def _paragraphs(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    in_code = False
    for line in text.split("\n"):
        if line.strip().startswith(_FENCE):
            if not in_code and current:
                blocks.append("\n".join(current))
                current = []
            current.append(line)
            in_code = not in_code
            if not in_code:
                blocks.append("\n".join(current))
                current = []
            continue
        if not in_code and not line.strip():
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _split_code(block: str, limit: int) -> list[str]:
    inner = block.split("\n")[1:-1]
    room = limit - 2 * (len(_FENCE) + 1)
    pieces: list[str] = []
    for chunk in _split_lines("\n".join(inner), room):
        pieces.append(f"{_FENCE}\n{chunk}\n{_FENCE}")
    return pieces


def _split_lines(block: str, limit: int) -> list[str]:
    pieces: list[str] = []
    current = ""
    for line in block.split("\n"):
        for part in _split_words(line, limit):
            candidate = f"{current}\n{part}" if current else part
            if len(candidate) <= limit:
                current = candidate
            else:
                pieces.append(current)
                current = part
    if current:
        pieces.append(current)
    return pieces


def _split_words(line: str, limit: int) -> list[str]:
    if len(line) <= limit:
        return [line]
    pieces: list[str] = []
    while len(line) > limit:
        cut = line.rfind(" ", 0, limit)
        if cut <= limit // 2:
            cut = limit
        # never cut an escape sequence such as &amp; in half
        amp = line.rfind("&", max(0, cut - 5), cut)
        if amp > 0 and ";" not in line[amp:cut]:
            cut = amp
        pieces.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    if line:
        pieces.append(line)
    return pieces
