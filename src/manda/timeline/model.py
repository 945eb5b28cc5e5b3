"""The deal timeline as data: dated events, each with forensic citations (the stable JSON shape)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict

from manda.finance.dates import Precision

# how precisely the room dates it: a day, month, quarter, half, calendar year, or the company's
# fiscal year (from `date` to `end_date`, whatever its year end)
EventPrecision = Precision | Literal["fiscal_year"]

CATEGORIES = (
    "incorporation", "acquisition", "disposal", "financing", "contract", "litigation",
    "management", "board", "lease", "report", "forecast", "document",
)


class EventCitation(BaseModel):
    """Where an event is stated: document, location, and the verbatim words (50–200 characters)."""

    model_config = ConfigDict(extra="forbid")

    document: str
    location: str
    page: int | None = None
    heading_path: list[str] = []  # the headings the passage stands under, outermost first
    excerpt: str
    chunk_id: str | None = None


class TimelineEvent(BaseModel):
    """One dated event of the room: what happened (or will), when, who, and where it is said."""

    model_config = ConfigDict(extra="forbid")

    label: str  # as a deal team writes it: `2024-06-14`, `2024-06`, `2024-Q3`, `2024-H1`, `FY2024`
    date: date  # the first day it can mean (ISO 8601 in JSON): events sort by it
    end_date: date  # the last day it can mean
    precision: EventPrecision
    category: str
    kind: str  # "claim filed", "contract expires", "loan matures", …
    title: str
    actors: list[str] = []
    citations: list[EventCitation]
    conflict: bool = False
    conflict_note: str | None = None
    upcoming: bool = False
    change_of_control: bool = False


class Timeline(BaseModel):
    """A deal's events sorted by date, and the as-of date that "upcoming" is measured from."""

    model_config = ConfigDict(extra="forbid")

    deal_id: str
    as_of: date | None = None
    events: list[TimelineEvent]

    def json_shape(self) -> dict[str, object]:
        """The public `manda timeline --json` shape."""
        return {
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "events": [
                e.model_dump(mode="json", exclude={"citations": {"__all__": {"chunk_id"}}})
                for e in self.events
            ],
        }
