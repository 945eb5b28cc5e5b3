"""The CIM outline: the standard sections, adapted to the buyer, edited in plain words.

"drop 7", "merge 3 and 4", "add a section on IP", "move 9 to 2", "rename 5 to Our people": the
team edits the numbered list in the thread; each edit is one pure function of the outline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manda.cim.model import BuyerPersona, OutlineSection

__all__ = ["OutlineEdit", "apply_edit", "default_outline", "parse_edit", "render_outline"]

_STANDARD: tuple[tuple[str, str, str, str], ...] = (
    ("executive_summary", "Executive summary", "summary",
     "company overview revenue EBITDA growth customers employees"),
    ("investment_highlights", "Investment highlights", "highlights",
     "growth margin recurring revenue retention market position"),
    ("company_overview", "Company overview and history", "overview",
     "company founded history headquarters business overview"),
    ("products_services", "Products and services", "products",
     "products services platform solution offering modules"),
    ("customers_markets", "Customers and markets", "customers",
     "customers market segments concentration largest customer retention"),
    ("operations", "Operations", "operations",
     "operations employees headcount locations offices support delivery"),
    ("management", "Management and organisation", "management",
     "management team chief executive officer chief financial officer biography"),
    ("financial_overview", "Financial overview: historicals and forecast", "financials",
     "revenue gross profit EBITDA net income forecast budget"),
    ("growth_opportunities", "Growth opportunities", "growth",
     "growth opportunities pipeline expansion new markets outlook"),
    ("key_risks", "Key risks and mitigants", "risks",
     "risks litigation claim change of control concentration covenant"),
)
_FINANCIAL_EXTRA = ("capital_structure", "Capital structure and debt", "debt",
                    "debt loan facility covenant net debt cash maturity")
_STRATEGIC_EXTRA = ("technology_ip", "Technology and intellectual property", "technology",
                    "technology platform intellectual property trademark patents source code")


def _section(spec: tuple[str, str, str, str]) -> OutlineSection:
    return OutlineSection(id=spec[0], title=spec[1], topic=spec[2], query=spec[3])


def default_outline(persona: BuyerPersona) -> list[OutlineSection]:
    """The standard sections in the order this buyer reads them."""
    sections = [_section(s) for s in _STANDARD]
    ids = [s.id for s in sections]
    if persona.kind == "financial":
        # A fund reads the numbers, the cash and the people first, then the story.
        sections.insert(ids.index("financial_overview") + 1, _section(_FINANCIAL_EXTRA))
        order = ["executive_summary", "investment_highlights", "financial_overview",
                 "capital_structure", "management", "customers_markets", "growth_opportunities"]
    else:
        # A strategic buyer reads product, customers and fit first.
        sections.insert(ids.index("products_services") + 1, _section(_STRATEGIC_EXTRA))
        order = ["executive_summary", "investment_highlights", "products_services",
                 "technology_ip", "customers_markets", "company_overview"]
    first = {sid: n for n, sid in enumerate(order)}
    rest = {s.id: n for n, s in enumerate(sections)}
    sections.sort(key=lambda s: (first.get(s.id, len(order)), rest[s.id]))
    for priority in persona.priorities:
        words = priority.lower()
        if not any(words in s.title.lower() or words in s.query for s in sections):
            sections.insert(2, custom_section(priority, sections))
    return sections


def custom_section(topic: str, existing: list[OutlineSection]) -> OutlineSection:
    base = re.sub(r"[^a-z0-9]+", "_", topic.lower()).strip("_")[:30] or "section"
    sid, n = base, 2
    while any(s.id == sid for s in existing):
        sid, n = f"{base}_{n}", n + 1
    title = topic.strip()
    title = title[0].upper() + title[1:] if title else "Section"
    return OutlineSection(id=sid, title=title, topic="custom", query=topic)


@dataclass(frozen=True)
class OutlineEdit:
    """One edit of the outline as the team said it."""

    action: str  # drop | merge | add | move | rename
    numbers: tuple[int, ...] = ()
    text: str = ""


_DROP = re.compile(r"^\s*(?:drop|remove|delete|cut)\s+(?:section\s+)?#?(\d+)\s*$", re.I)
_MERGE = re.compile(r"^\s*(?:merge|combine)\s+(?:sections\s+)?#?(\d+)\s+(?:and|with|&|\+|,)\s+"
                    r"#?(\d+)\s*$", re.I)
_ADD = re.compile(r"^\s*add\s+(?:a\s+|an\s+)?(?:new\s+)?(?:section|slide)\s+(?:on|about|for|"
                  r"covering)\s+(.+?)\s*$", re.I)
_MOVE = re.compile(r"^\s*move\s+(?:section\s+)?#?(\d+)\s+(?:to|before|up to)\s+(?:position\s+)?"
                   r"#?(\d+)\s*$", re.I)
_RENAME = re.compile(r"^\s*rename\s+(?:section\s+)?#?(\d+)\s+(?:to|as)\s+(.+?)\s*$", re.I)


def parse_edit(text: str) -> OutlineEdit | None:
    """An outline edit in the team's words, or None when the text is not one."""
    text = text.strip().rstrip(".!")
    if m := _DROP.match(text):
        return OutlineEdit("drop", (int(m.group(1)),))
    if m := _MERGE.match(text):
        return OutlineEdit("merge", (int(m.group(1)), int(m.group(2))))
    if m := _ADD.match(text):
        return OutlineEdit("add", text=m.group(1).strip(" \"'“”"))
    if m := _MOVE.match(text):
        return OutlineEdit("move", (int(m.group(1)), int(m.group(2))))
    if m := _RENAME.match(text):
        return OutlineEdit("rename", (int(m.group(1)),), text=m.group(2).strip(" \"'“”"))
    return None


def apply_edit(outline: list[OutlineSection], edit: OutlineEdit) -> list[OutlineSection]:
    """The outline after `edit`; `ValueError` (said for a person) when a number is not in it."""
    sections = list(outline)
    for n in edit.numbers:
        if not 1 <= n <= len(sections):
            raise ValueError(f"There is no section {n}; the outline has 1–{len(sections)}.")
    if edit.action == "drop":
        del sections[edit.numbers[0] - 1]
    elif edit.action == "merge":
        a, b = sorted(edit.numbers)
        if a == b:
            raise ValueError("Merge needs two different sections.")
        first, second = sections[a - 1], sections[b - 1]
        sections[a - 1] = first.model_copy(update={
            "title": f"{first.title} and {second.title[0].lower()}{second.title[1:]}",
            "query": f"{first.query} {second.query}",
            "topic": first.topic if first.topic == second.topic else "custom",
        })
        del sections[b - 1]
    elif edit.action == "add":
        sections.append(custom_section(edit.text, sections))
    elif edit.action == "move":
        src, dst = edit.numbers
        section = sections.pop(src - 1)
        sections.insert(dst - 1, section)
    elif edit.action == "rename":
        n = edit.numbers[0]
        sections[n - 1] = sections[n - 1].model_copy(update={"title": edit.text})
    return sections


def render_outline(outline: list[OutlineSection]) -> str:
    return "\n".join(f"{n}. {s.title}" for n, s in enumerate(outline, start=1))
