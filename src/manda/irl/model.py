"""The deal's information request list as the team builds it: items, why each is asked, status."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ItemStatus = Literal["open", "provided", "partial"]
Priority = Literal["high", "medium", "low"]

# Why a request matters, per workstream: what the seller reads next to each item.
PURPOSES: dict[str, str] = {
    "financial": "to test the quality and trend of earnings and the cash behind them",
    "tax": "to size tax exposures and the warranties and indemnities they need",
    "legal": "to find liabilities, change-of-control terms and litigation risk",
    "commercial": "to test how durable and concentrated revenue is",
    "hr": "to assess key people, pay and employment liabilities",
    "ip": "to confirm the company owns what drives its value",
    "it/cyber": "to assess security, resilience and data-protection exposure",
    "q&a": "raised by the deal team while reviewing the data room",
}
DEFAULT_PURPOSE = "to complete the due-diligence review"


def purpose_for(category: str) -> str:
    key = category.strip().lower()
    return next((p for k, p in PURPOSES.items() if key.startswith(k) or k.startswith(key)),
                DEFAULT_PURPOSE)


class IrlItem(BaseModel):
    """One request: reference, workstream, what is asked, why, how urgent, and what covers it."""

    model_config = ConfigDict(extra="forbid")

    ref: str
    category: str
    request: str
    priority: Priority = "medium"
    purpose: str = DEFAULT_PURPOSE
    status: ItemStatus = "open"
    covered_by: list[str] = Field(default_factory=list)  # "file, location" of what provides it
    qa_id: str | None = None  # the Q&A question this request came from


class IrlProject(BaseModel):
    """The IRL workflow's state: the list, and whether it is still being edited."""

    model_config = ConfigDict(extra="forbid")

    deal_id: str
    phase: Literal["editing", "exported", "cancelled"] = "editing"
    origin: Literal["irl", "default"] = "default"  # built from the room's IRL or the checklist
    items: list[IrlItem] = Field(default_factory=list)

    def open_items(self) -> list[IrlItem]:
        return [i for i in self.items if i.status != "provided"]
