"""The CIM as a PowerPoint deck: a title slide, one slide per approved section, sources in notes."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from pptx import Presentation
from pptx.util import Inches, Pt

from manda.cim.model import CimProject, SlideDraft

__all__ = ["export_pptx"]

_TITLE_ONLY, _TITLE_AND_CONTENT = 0, 1


def _notes_text(draft: SlideDraft) -> str:
    lines = list(draft.notes)
    lines.append("Sources:")
    for n, c in enumerate(draft.sources(), start=1):
        lines.append(f"[{n}] {c.document}, {c.location}: “{' '.join(c.excerpt.split())[:220]}”")
    return "\n".join(lines)


def _add_section(prs: Presentation, draft: SlideDraft) -> None:
    slide = prs.slides.add_slide(prs.slide_layouts[_TITLE_AND_CONTENT])
    slide.shapes.title.text = draft.title
    body = slide.placeholders[1].text_frame
    body.clear()
    sources = {(c.document, c.location): n for n, c in enumerate(draft.sources(), start=1)}
    for i, bullet in enumerate(draft.bullets):
        marks = "".join(f"[{n}]" for n in dict.fromkeys(
            sources[(c.document, c.location)] for c in bullet.citations))
        para = body.paragraphs[0] if i == 0 else body.add_paragraph()
        para.text = f"{bullet.text} {marks}"
        para.font.size = Pt(16 if draft.figures else 18)
    if draft.figures:
        periods = list(dict.fromkeys(p for row in draft.figures for p in row.values))
        rows, cols = len(draft.figures) + 1, len(periods) + 1
        top = Inches(4.6) if draft.bullets else Inches(1.6)
        table = slide.shapes.add_table(rows, cols, Inches(0.5), top, Inches(9),
                                       Inches(0.3 * rows)).table
        table.cell(0, 0).text = ""
        for j, period in enumerate(periods, start=1):
            table.cell(0, j).text = period
        for i, row in enumerate(draft.figures, start=1):
            table.cell(i, 0).text = row.label
            for j, period in enumerate(periods, start=1):
                table.cell(i, j).text = row.values.get(period, "—")
    slide.notes_slide.notes_text_frame.text = _notes_text(draft)


def export_pptx(project: CimProject, out: Path, *, company: str | None = None) -> Path:
    """Write the deck of the approved sections to `out`; `ValueError` when none is approved."""
    approved = project.approved()
    if not approved:
        raise ValueError("No section of this CIM is approved yet: approve at least one section "
                         "before exporting.")
    prs = Presentation()
    title = prs.slides.add_slide(prs.slide_layouts[_TITLE_ONLY])
    title.shapes.title.text = f"{company or project.deal_id} — Confidential Information Memorandum"
    subtitle = title.placeholders[1]
    who = project.persona.describe() if project.persona else "prospective buyers"
    subtitle.text = (f"Prepared for {who} · draft of {date.today():%-d %B %Y} · "
                     "strictly confidential")
    for draft in approved:
        _add_section(prs, draft)
    out.parent.mkdir(parents=True, exist_ok=True)
    prs.save(str(out))
    return out
