"""A PDF page's text as pypdf's layout mode writes it, and in the same pass each line's font.

pypdf lays a page out from the text operations it reads (`extract_text(extraction_mode=
"layout")`) but returns only the text. The same steps are run here through its layout module so
the drawn lines keep their font's height and weight (a heading is set larger or bolder), without
reading the page's content a second time. That module is pypdf's own, not its public API: where
a pypdf release no longer offers it, `drawn_page` returns None and the caller reads the page the
public way (headings are then found by their numbering and capitals alone).
"""

from __future__ import annotations

import logging
from typing import Any

from manda.ingest.parsers.headings import DrawnLine, PageFonts, page_fonts

log = logging.getLogger(__name__)

_BOLD = ("bold", "black", "heavy", "demi", "semibd")  # in a font's name or weight
_FORCE_BOLD = 1 << 18  # FontDescriptor /Flags, PDF 32000-1 table 123
SCALE_WEIGHT = 1.25  # pypdf's defaults for layout mode
FONT_HEIGHT_WEIGHT = 1

try:
    from pypdf._text_extraction._layout_mode import _fixed_width_page as _layout
    from pypdf._text_extraction._layout_mode._text_state_manager import TextStateManager
    from pypdf.generic import ArrayObject, ContentStream, StreamObject

    _STEPS = (_layout.recurse_to_target_op, _layout.set_font_operation,
              _layout.y_coordinate_groups, _layout.fixed_char_width, _layout.fixed_width_page)
    AVAILABLE = True
except (ImportError, AttributeError):  # another pypdf: the public layout text, fonts unknown
    AVAILABLE = False


def drawn_page(page: Any) -> tuple[str, PageFonts] | None:
    """(the page's layout text, its fonts), or None when pypdf's layout module is not the one
    this reads. Raises what `extract_text` raises on a damaged page."""
    if not AVAILABLE:
        return None
    fonts = page._layout_mode_fonts()
    contents = page.get("/Contents")
    if contents is not None:
        contents = contents.get_object()
    if not isinstance(contents, ArrayObject | StreamObject):
        return "", PageFonts(0.0, False, ())
    groups = _text_groups(iter(ContentStream(contents, page.pdf, "bytes").operations), fonts)
    if not groups:
        return "", PageFonts(0.0, False, ())
    lines = _layout.y_coordinate_groups(groups)
    width = _layout.fixed_char_width(groups, SCALE_WEIGHT)
    text = _layout.fixed_width_page(lines, width, True, FONT_HEIGHT_WEIGHT)
    drawn = [
        DrawnLine(
            text=_layout.fixed_width_page({y: line}, width, False, FONT_HEIGHT_WEIGHT).strip(),
            height=max(g["font_height"] for g in line),
            bold=all(g.get("bold", False) for g in line if g["text"].strip()),
        )
        for y, line in lines.items()
    ]
    return text, page_fonts([d for d in drawn if d.text])


def _text_groups(ops: Any, fonts: dict[str, Any]) -> list[dict[str, Any]]:
    """pypdf's `text_show_operations`, each group also told whether its font is bold."""
    state = TextStateManager()
    groups: list[dict[str, Any]] = []
    for operands, op in ops:
        if op in (b"BT", b"q"):
            found, shown = _layout.recurse_to_target_op(
                ops, state, b"ET" if op == b"BT" else b"Q", fonts, True)
            bold = {(tj.tx, tj.ty): _is_bold(tj.font) for tj in shown}
            groups += [dict(g, bold=bold.get((g["tx"], g["ty"]), False)) for g in found]
        elif op == b"Tf":
            _layout.set_font_operation(state, fonts, operands)
        else:
            state.set_state_param(op, operands)
    left = min((g["tx"] for g in groups), default=0.0)
    return [
        dict(g, tx=g["tx"] - left, displaced_tx=g["displaced_tx"] - left)
        for g in sorted(groups, key=lambda g: (g["ty"] * g["flip_sort"], -g["tx"]), reverse=True)
    ]


def _is_bold(font: Any) -> bool:
    descriptor = getattr(font, "font_descriptor", None)
    weight = str(getattr(descriptor, "weight", "") or "")
    flags = int(getattr(descriptor, "flags", 0) or 0)
    named = f"{getattr(font, 'name', '') or ''} {weight}".lower()
    return bool(any(word in named for word in _BOLD)
                or (weight.isdigit() and int(weight) >= 600) or flags & _FORCE_BOLD)
