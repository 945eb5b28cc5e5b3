"""Slides as sections (`slide 4`), speaker notes as their own (`slide 4 notes`).

A slide's text is its title, then its shapes top-to-bottom, left-to-right: text frames, tables
(one line per row, cells paired with their column header) and chart data.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from pathlib import Path

from pptx import Presentation
from pptx.shapes.base import BaseShape
from pptx.shapes.group import GroupShape

from manda.ingest.parsers.base import (
    ParseLimits,
    clean_block,
    one_line,
    shaped_table,
    table_text,
)
from manda.ingest.parsers.numfmt import display_value
from manda.models import Location, ParsedDocument, Section

log = logging.getLogger(__name__)


def parse_pptx(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    del limits  # the container was size-checked in detect
    deck = Presentation(str(path))
    sections: list[Section] = []
    first_title: str | None = None
    slides = list(deck.slides)
    for number, slide in enumerate(slides, start=1):
        title_shape = slide.shapes.title
        title = one_line(title_shape.text_frame.text) if title_shape is not None else ""
        first_title = first_title or title or None
        lines = [title] if title else []
        for shape in _in_reading_order(slide.shapes):
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            lines.extend(_shape_lines(shape, filename, number))
        path = (title,) if title else ()  # the notes stand under their slide's title too
        sections.append(Section(text=clean_block("\n".join(lines)),
                                location=Location.for_slide(number), heading_path=path))
        notes = _notes(slide)
        if notes:
            sections.append(Section(text=notes, location=Location.for_slide(number, notes=True),
                                    heading_path=path))
    core_title = (deck.core_properties.title or "").strip()
    return ParsedDocument(
        filename=filename,
        file_type="pptx",
        sections=sections,
        units=len(slides),
        title=core_title or first_title,
    )


def _in_reading_order(shapes: Iterable[BaseShape]) -> Iterator[BaseShape]:
    """Top-to-bottom, then left-to-right; groups are opened in place."""
    def key(shape: BaseShape) -> tuple[int, int]:
        return (shape.top if shape.top is not None else 10**12,
                shape.left if shape.left is not None else 10**12)

    for shape in sorted(shapes, key=key):
        if isinstance(shape, GroupShape):
            yield from _in_reading_order(shape.shapes)
        else:
            yield shape


def _shape_lines(shape: BaseShape, filename: str, slide: int) -> list[str]:
    if getattr(shape, "has_table", False):
        rows = [[one_line(cell.text) for cell in row.cells] for row in shape.table.rows]  # type: ignore[attr-defined]
        rows = [r for r in rows if any(r)]
        if not rows:
            return []
        notes, table = shaped_table(rows)
        return table_text(table, notes).split("\n")
    if getattr(shape, "has_chart", False):
        try:
            return _chart_lines(shape.chart)  # type: ignore[attr-defined]
        except Exception as exc:  # chart XML varies a lot; its data is a bonus, not the slide
            log.warning("%s: chart on slide %d could not be read: %s", filename, slide, exc)
            return []
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:  # type: ignore[attr-defined]
        text = shape.text_frame.text.replace("\v", "\n")  # type: ignore[attr-defined]
        return [line.strip() for line in text.split("\n") if line.strip()]
    return []


def _chart_lines(chart: object) -> list[str]:
    """`Revenue (chart): 2022: 10.1 | 2023: 12.4` per series."""
    name = "Chart"
    if chart.has_title and chart.chart_title.has_text_frame:  # type: ignore[attr-defined]
        name = one_line(chart.chart_title.text_frame.text) or name  # type: ignore[attr-defined]
    lines = [f"{name} (chart)"]
    for plot in chart.plots:  # type: ignore[attr-defined]
        categories = [display_value(c) for c in plot.categories]
        for series in plot.series:
            pairs = [
                f"{categories[i]}: {display_value(v)}" if i < len(categories) else display_value(v)
                for i, v in enumerate(series.values)
                if v is not None
            ]
            lines.append(f"{series.name}: " + " | ".join(pairs))
    return lines


def _notes(slide: object) -> str:
    if not slide.has_notes_slide:  # type: ignore[attr-defined]
        return ""
    frame = slide.notes_slide.notes_text_frame  # type: ignore[attr-defined]
    return clean_block(frame.text.replace("\v", "\n")) if frame is not None else ""
