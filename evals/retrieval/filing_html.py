"""Text of an EDGAR HTML filing, page by page, as a reader sees it (tables one row per line).

EDGAR's inline-XBRL documents mark the filing's own page breaks with `page-break-before/after`
styles; the hidden XBRL header (`display:none`) is not text a reader sees. Standard library only,
so `extract_filings.py` needs nothing beyond Manda's own dependencies.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_VOID = {"br", "hr", "img", "meta", "input", "link", "col", "area", "base", "wbr"}
_BLOCK = {"p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "br", "hr",
          "section", "article", "ul", "ol", "dt", "dd", "title"}
_BREAK = re.compile(r"page-break-(?:before|after)\s*:\s*always|break-(?:before|after)\s*:\s*page",
                    re.I)
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)


class _Pages(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pages: list[list[str]] = [[]]
        self._line: list[str] = []
        self._cell: list[str] = []
        self._row: list[str] | None = None
        self._hidden: list[str] = []  # tags opened while hidden (their own stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = dict(attrs).get("style") or ""
        if self._hidden:
            if tag not in _VOID:
                self._hidden.append(tag)
            return
        if _HIDDEN.search(style) and tag not in _VOID:
            self._hidden.append(tag)
            return
        if _BREAK.search(style):
            self._page_break()
        if tag == "tr":
            self._end_line()
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        elif tag in _BLOCK:
            self._end_line()

    def handle_endtag(self, tag: str) -> None:
        if self._hidden:
            if self._hidden[-1] == tag:
                self._hidden.pop()
            elif tag in self._hidden:
                while self._hidden and self._hidden.pop() != tag:
                    pass
            return
        if tag in ("td", "th") and self._row is not None:
            cell = " ".join("".join(self._cell).split())
            if cell:
                self._row.append(cell)
            self._cell = []
        elif tag == "tr" and self._row is not None:
            line = _join_cells(self._row)
            if line:
                self.pages[-1].append(line)
            self._row = None
        elif tag in _BLOCK:
            self._end_line()

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if self._row is not None:
            self._cell.append(data)
        else:
            self._line.append(data)

    def _end_line(self) -> None:
        line = " ".join("".join(self._line).split())
        if line:
            self.pages[-1].append(line)
        self._line = []

    def _page_break(self) -> None:
        self._end_line()
        if self.pages[-1]:
            self.pages.append([])


def _join_cells(cells: list[str]) -> str:
    """Cells of one row; `$` and `%` cells and `(`/`)` stick to their number, as printed."""
    out: list[str] = []
    for cell in cells:
        if out and (out[-1] in ("$", "(") or cell in ("%", ")", ")%")):
            out[-1] = out[-1] + cell if out[-1] != "$" else f"${cell}"
        else:
            out.append(cell)
    return " ".join(out)


def html_pages(html: str) -> list[str]:
    """The filing's pages as text, in order; empty pages dropped."""
    parser = _Pages()
    parser.feed(html)
    parser.close()
    parser._end_line()
    return ["\n".join(lines) for lines in parser.pages if lines]
