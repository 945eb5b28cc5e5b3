"""The deal timeline: every dated event of the room, cited, de-duplicated, checked for sense."""

from manda.timeline.build import TimelineFilter, build_timeline, position_at, timeline_for_deal
from manda.timeline.model import CATEGORIES, EventCitation, Timeline, TimelineEvent

__all__ = [
    "CATEGORIES",
    "EventCitation",
    "Timeline",
    "TimelineEvent",
    "TimelineFilter",
    "build_timeline",
    "position_at",
    "timeline_for_deal",
]
