"""The deal timeline as data: dated events, each with forensic citations (the stable JSON shape)."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict

from manda.finance.dates import Precision

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

    date: str  # `2024-06-14`, `2024-06`, `2024-Q3`, `2024-H1`, `2024` or `FY2024`
    start_date: date
    end_date: date
    precision: Precision
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
