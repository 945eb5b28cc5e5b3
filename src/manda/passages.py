"""A passage's sentences with the heading path they stand under, read one way by every consumer.

Red flags, the timeline and topic answers read sentences; a sentence such as "The claim was filed
in June 2024 and is pending." says what it is about only with its heading ("Litigation"). A
chunk never crosses a heading (chunking cuts there), so its sentences share its path; the heading
lines themselves are where the sentences stand, not sentences of their own, and are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from manda.ingest.chunking import shown_text
from manda.ingest.extract.excerpts import sentence_spans
from manda.models import Chunk, Finding, HeadingPath, SearchHit, heading_trail

__all__ = ["HeadedSentence", "headed_sentences", "sentences_of"]


@dataclass(frozen=True)
class HeadedSentence:
    """One sentence (or bullet, or table line) of a passage, where it is in the passage's text,
    and the headings it stands under."""

    text: str
    heading_path: HeadingPath
    start: int
    end: int

    @property
    def under(self) -> str:
        """`Legal summary › Litigation`."""
        return heading_trail(self.heading_path)


class Excerpted(Protocol):
    """A cited place with its words (`manda.agent.evidence.Source`, a timeline citation)."""

    @property
    def excerpt(self) -> str: ...
    @property
    def heading_path(self) -> Sequence[str]: ...


def headed_sentences(text: str, heading_path: Sequence[str]) -> list[HeadedSentence]:
    """The sentences of `text`, each with `heading_path`; lines that are the headings of the
    path are not sentences."""
    path = tuple(heading_path)
    titles = {_plain(title) for title in path}
    return [HeadedSentence(text[s:e], path, s, e) for s, e in sentence_spans(text)
            if _plain(text[s:e]) not in titles]


def sentences_of(passage: Chunk | SearchHit | Finding | Excerpted) -> list[HeadedSentence]:
    """A chunk's (without its indexed context line), a search hit's, a finding's excerpt's or a
    citation's sentences, with the headings they stand under."""
    if isinstance(passage, Chunk):
        text = shown_text(passage)
    elif isinstance(passage, SearchHit):
        text = passage.text
    else:
        text = passage.excerpt
    return headed_sentences(text, passage.heading_path)


def _plain(text: str) -> str:
    return " ".join(text.replace(" | ", " ").split()).lower()
