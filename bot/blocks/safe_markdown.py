"""Markdown made safe for Slack's `markdown_text` and markdown blocks: no link survives.

Answer text quotes documents, and a document may hide a link under innocent words in any of the
forms CommonMark allows — a space after `(`, an `HTTPS://` or `slack://` scheme, a title, nested
brackets, a label broken over a line, `[x][r]` with its definition elsewhere, an image. Regular
expressions missed some of them; here the text is parsed with a CommonMark parser
(markdown-it-py, every destination accepted so none is mistaken for text), and every link or
image it finds is written out as text a person can read: `label (url)`. Blocks without one are
kept as written. The result is parsed again: if it still held a link, every bracket in its text
is escaped, which no link syntax survives. Slack's own `<…>` syntax, mentions and HTML are
escaped as everywhere (`escape`), and characters that draw nothing are shown.
"""

from __future__ import annotations

from collections.abc import Iterator

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from bot.blocks.mrkdwn import escape, shown_link

_LINKS = ("link", "image")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.validateLink = lambda url: True  # a `javascript:` link is still a link to neutralise
    return md


_MD = _parser()


def markdown_safe(markdown: str) -> str:
    """Markdown for `markdown_text` and markdown blocks: links and images shown as text,
    Slack's `<…>` escaped, hidden characters shown."""
    text = markdown.replace("\r\n", "\n")
    safe = _render(text, strict=False)
    if _has_links(safe):
        safe = _render(text, strict=True)
    if _has_links(safe):  # cannot happen with every bracket escaped; kept as the last word
        safe = safe.replace("[", "\\[").replace("]", "\\]")
    return safe


def _has_links(markdown: str) -> bool:
    env: dict[str, object] = {}
    tokens = _MD.parse(markdown, env)
    return any(t.type in ("link_open", "image") for t in _inline_tokens(tokens))


def _inline_tokens(tokens: list) -> Iterator:  # type: ignore[type-arg]
    for token in tokens:
        yield token
        if token.children:
            yield from _inline_tokens(token.children)


def _render(text: str, *, strict: bool) -> str:
    """Every top-level block kept as written unless it holds a link (or, `strict`, always
    rewritten), with the blank lines between blocks kept; reference definitions dropped."""
    lines = text.split("\n")
    tree = SyntaxTreeNode(_MD.parse(text))
    out: list[str] = []
    at = 0
    for block in tree.children:
        start, end = block.map or (at, at)
        out += [""] * (start - at)  # blank lines, and the definitions that were there
        if strict or _holds_link(block):
            out += _Renderer(strict).block(block).split("\n")
        else:
            out += [escape(line) for line in lines[start:end]]
        at = end
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def _holds_link(node: SyntaxTreeNode) -> bool:
    if node.type in _LINKS and node.markup != "autolink":
        return True
    return any(_holds_link(child) for child in node.children)


class _Renderer:
    """CommonMark blocks written back as Markdown, links and images as `label (url)`."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict

    def text(self, content: str) -> str:
        shown = escape(content)
        return shown.replace("[", "\\[").replace("]", "\\]") if self.strict else shown

    def block(self, node: SyntaxTreeNode) -> str:
        kind = node.type
        if kind == "paragraph":
            return self.inline(node.children[0]) if node.children else ""
        if kind == "heading":
            return f"{'#' * int(node.tag[1])} {self.inline(node.children[0])}"
        if kind == "blockquote":
            body = self.blocks(node.children, tight=False)
            mark = escape(">")  # as every `>` of the text is escaped for Slack
            return "\n".join(f"{mark} {line}" if line else mark for line in body.split("\n"))
        if kind in ("bullet_list", "ordered_list"):
            return self.list_(node)
        if kind == "fence":
            return f"{node.markup}{escape(node.info)}\n{escape(node.content)}{node.markup}"
        if kind == "code_block":
            code = node.content.rstrip("\n").split("\n")
            return "\n".join(f"    {escape(line)}" for line in code)
        if kind == "hr":
            return "***"
        if kind == "table":
            return self.table(node)
        return self.text(node.content.rstrip("\n"))  # html_block and anything unknown: text

    def blocks(self, nodes: list[SyntaxTreeNode], *, tight: bool) -> str:
        return ("\n" if tight else "\n\n").join(self.block(n) for n in nodes)

    def list_(self, node: SyntaxTreeNode) -> str:
        tight = all(p.hidden for item in node.children for p in item.children
                    if p.type == "paragraph")
        items = []
        for item in node.children:
            marker = f"{item.info}{item.markup}" if node.type == "ordered_list" else item.markup
            body = self.blocks(item.children, tight=tight).split("\n")
            pad = " " * (len(marker) + 1)
            items.append("\n".join([f"{marker} {body[0]}", *(pad + b if b else b
                                                              for b in body[1:])]))
        return ("\n" if tight else "\n\n").join(items)

    def table(self, node: SyntaxTreeNode) -> str:
        rows = [row for part in node.children for row in part.children]
        lines = []
        for i, row in enumerate(rows):
            cells = [self.inline(c.children[0]).replace("|", "\\|") if c.children else ""
                     for c in row.children]
            lines.append(f"| {' | '.join(cells)} |")
            if i == 0:
                lines.append("|" + "|".join(_rule(c) for c in row.children) + "|")
        return "\n".join(lines)

    def inline(self, node: SyntaxTreeNode) -> str:
        return "".join(self.span(child) for child in node.children)

    def span(self, node: SyntaxTreeNode) -> str:
        kind = node.type
        if kind in ("text", "html_inline"):
            return self.text(node.content)
        if kind == "softbreak":
            return "\n"
        if kind == "hardbreak":
            return "  \n"
        if kind == "code_inline":
            pad = " " if node.content.startswith("`") or node.content.endswith("`") else ""
            return f"{node.markup}{pad}{escape(node.content)}{pad}{node.markup}"
        if kind == "link" and node.markup == "autolink":
            return self.inline(node)  # written as the address itself: nothing hides
        if kind == "link":
            return self.text_link(self.inline(node), str(node.attrs.get("href", "")))
        if kind == "image":
            return self.text_link(self.inline(node) or "image", str(node.attrs.get("src", "")))
        if kind in ("em", "strong", "s"):
            return f"{node.markup}{self.inline(node)}{node.markup}"
        return self.text(node.content) if node.content else self.inline(node)

    def text_link(self, label: str, url: str) -> str:
        return shown_link(label, self.text(url))


def _rule(cell: SyntaxTreeNode) -> str:
    style = str(cell.attrs.get("style", ""))
    if "center" in style:
        return ":---:"
    if "right" in style:
        return "---:"
    if "left" in style:
        return ":---"
    return "---"
