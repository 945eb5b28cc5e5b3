"""The CIM builder's tools, as the behaviour spec names them; each changes the project only.

`save_buyer_persona`, `create_outline`, `update_outline`, `generate_slide`, `update_slide`: the
offline router and Claude call the same functions, so both paths build the same deck.
"""

from __future__ import annotations

import re

from manda.agent.context import AgentContext
from manda.cim.drafting import ExtractiveDrafter, ground_slide
from manda.cim.model import BuyerKind, BuyerPersona, CimProject, SlideDraft
from manda.cim.outline import apply_edit, default_outline, parse_edit
from manda.cim.port import SlideDrafter

__all__ = [
    "TOOL_NAMES",
    "create_outline",
    "generate_slide",
    "parse_persona",
    "save_buyer_persona",
    "update_outline",
    "update_slide",
]

TOOL_NAMES = ("save_buyer_persona", "create_outline", "update_outline", "generate_slide",
              "update_slide")

_KIND = re.compile(r"\b(strategic|financial|private[- ]equity|pe|fund|sponsor|corporate|trade)\b",
                   re.I)
_SECTOR = re.compile(r"\b(?:sector|industry|in)\s*[:=]?\s+([A-Za-z][\w &/-]{2,40}?)"
                     r"(?=[,.;]|\s+(?:size|buyer|who|that|caring|cares)\b|$)", re.I)
_SIZE = re.compile(r"\b(?:size|ticket)\s*[:=]?\s*([\w€$£., -]{2,40}?)(?=[,.;]|$)|"
                   r"\b((?:large|mid|small)[- ]?(?:cap|market|sized))\b", re.I)
_CARES = re.compile(r"\b(?:cares?\s+about|caring\s+about|focus(?:es|ed)?\s+on|priorities?\s*[:=]?)"
                    r"\s+(.+)$", re.I)


def parse_persona(text: str) -> BuyerPersona | None:
    """A buyer persona from plain words ("financial buyer, mid-market, cares about cash")."""
    kind_m = _KIND.search(text)
    if kind_m is None:
        return None
    word = kind_m.group(1).lower()
    kind: BuyerKind = "strategic" if word in {"strategic", "corporate", "trade"} else "financial"
    sector = _SECTOR.search(text)
    size = _SIZE.search(text)
    cares = _CARES.search(text)
    priorities = [p.strip(" .") for p in re.split(r",|\band\b", cares.group(1))] if cares else []
    return BuyerPersona(
        kind=kind,
        sector=sector.group(1).strip() if sector and sector.group(1).lower() not in {
            "the", "a"} else None,
        size=(size.group(1) or size.group(2)).strip() if size else None,
        priorities=[p for p in priorities if p][:5],
    )


def save_buyer_persona(project: CimProject, persona: BuyerPersona) -> CimProject:
    return project.model_copy(update={"persona": persona, "phase": "outline"})


def create_outline(project: CimProject) -> CimProject:
    if project.persona is None:
        raise ValueError("Say who the buyer is first (strategic or financial).")
    return project.model_copy(update={"outline": default_outline(project.persona),
                                      "phase": "outline", "drafts": {}, "current": 0})


def update_outline(project: CimProject, instruction: str) -> CimProject:
    edit = parse_edit(instruction)
    if edit is None:
        raise ValueError("I can “drop 7”, “merge 3 and 4”, “add a section on IP”, “move 9 to 2” "
                         "or “rename 5 to …”.")
    outline = apply_edit(project.outline, edit)
    kept = {s.id for s in outline}
    drafts = {k: v for k, v in project.drafts.items() if k in kept}
    return project.model_copy(update={"outline": outline, "drafts": drafts})


async def generate_slide(ctx: AgentContext, project: CimProject, index: int,
                         drafter: SlideDrafter | None = None) -> CimProject:
    """Draft (or redraft) section number `index` (0-based) from the room, with `drafter`
    (extractive when none is given)."""
    if not 0 <= index < len(project.outline):
        raise ValueError(f"There is no section {index + 1}.")
    section = project.outline[index]
    drafter = drafter or ExtractiveDrafter()
    draft = await drafter.draft(ctx, project.deal_id, section, project.persona)
    drafts = {**project.drafts, section.id: draft}
    return project.model_copy(update={"drafts": drafts, "current": index, "phase": "sections"})


_DROP_BULLET = re.compile(r"^\s*(?:drop|remove|delete)\s+(?:bullet|point|line)\s+#?(\d+)\s*$",
                          re.I)
_TITLE = re.compile(r"^\s*(?:title|retitle|rename(?:\s+slide)?)\s*[:=]?\s*(?:to\s+)?(.+?)\s*$",
                    re.I)


def update_slide(project: CimProject, index: int, instruction: str) -> CimProject:
    """Approve, drop a bullet or retitle section `index`'s slide (the only edits that cannot add
    an unsourced claim)."""
    section = project.outline[index]
    draft = project.drafts.get(section.id)
    if draft is None:
        raise ValueError(f"Section {index + 1} has no draft yet.")
    text = instruction.strip()
    if re.fullmatch(r"(?:approve|approved|ok|looks good|lgtm)[.!]?", text, re.I):
        updated: SlideDraft = draft.model_copy(update={"status": "approved"})
    elif m := _DROP_BULLET.match(text):
        n = int(m.group(1))
        if not 1 <= n <= len(draft.bullets):
            raise ValueError(f"The slide has bullets 1–{len(draft.bullets)}.")
        bullets = [b for i, b in enumerate(draft.bullets, start=1) if i != n]
        updated = draft.model_copy(update={"bullets": bullets, "status": "draft",
                                           "edits": [*draft.edits, text]})
    elif m := _TITLE.match(text):
        updated = draft.model_copy(update={"title": m.group(1), "edits": [*draft.edits, text]})
    else:
        raise ValueError("On a slide I can “approve”, “drop bullet 3”, “title: …”, or "
                         "“regenerate”.")
    return project.model_copy(update={"drafts": {**project.drafts,
                                                 section.id: ground_slide(updated)}})
