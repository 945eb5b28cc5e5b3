"""Which file is a newer version of which: `_CORRECTED`, `_v2`, `_FINAL`, `_updated`, `(2)`.

A data room rarely says "this replaces that" in metadata; the filename does. Two files belong to
one *version family* when their names match once the version markers are removed; within a family
the rank orders them (v1 < v2 < v3 < FINAL < updated < CORRECTED), so a later upload of an older
version never supersedes a newer one. The markers' words, in every language, are cue sets of the
vocabulary (`version_final`, `version_corrected` …); their order is here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from manda.vocabulary import Cues, vocabulary

_WORDS = vocabulary()
_COPY = re.compile(r"[\s_\-.]*\((\d+)\)$")  # "report (2)": a copy's number
_NUMBER = re.compile(r"(?<![\d.,])\d{1,2}$")
# (marker words, base rank): a numbered marker adds its number
_MARKERS: tuple[tuple[Cues, int], ...] = (
    (_WORDS.cues("version_number"), 0),
    (_WORDS.cues("version_final"), 100),
    (_WORDS.cues("version_updated"), 200),
    (_WORDS.cues("version_corrected"), 300),
    (_WORDS.cues("version_draft"), -100),
)
_DRAFT = _WORDS.cues("version_draft")
_CORRECTED = _WORDS.cues("version_corrected")


@dataclass(frozen=True)
class VersionInfo:
    """A file's family (its name without version markers) and its rank inside the family."""

    family: str
    rank: int
    markers: tuple[str, ...]

    @property
    def is_draft(self) -> bool:
        return any(_DRAFT.fullmatch(m) for m in self.markers)

    @property
    def is_correction(self) -> bool:
        """Its name says it corrects the family's earlier versions (`_CORRECTED`, `_restated`)."""
        return any(_CORRECTED.fullmatch(m) for m in self.markers)


def _last_marker(stem: str) -> tuple[re.Match[str], int] | None:
    """The version marker that ends the name, if any, with its rank."""
    copy = _COPY.search(stem)
    if copy is not None:
        return copy, int(copy.group(1))
    spaced = stem.replace("_", " ")  # "x_final": the underscore separates words
    for words, base in _MARKERS:
        found = [m for m in words.finditer(spaced) if not spaced[m.end():].strip(" -.")]
        if not found:
            continue
        m = found[-1]
        number = _NUMBER.search(m.group(0))
        if base == 0 and number is None:
            continue  # "v1.2.3", "version 2024": not a version number of ours
        return m, base + (int(number.group(0)) if base == 0 and number else 0)
    return None


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}")


def _stem(filename: str) -> str:
    """The name without its extension; a name without one ("Q&A #2.3.1", a statement Manda was
    told) keeps its dots, so "2.3.1" and "2.3.2" stay two documents."""
    path = PurePath(filename)
    return path.stem if _EXTENSION.fullmatch(path.suffix) else path.name


def version_info(filename: str) -> VersionInfo:
    """Strip version markers from the end of the stem, repeatedly: `x_v2_FINAL` -> `x`."""
    stem = _stem(filename)
    rank = 0
    markers: list[str] = []
    while (found := _last_marker(stem)) is not None:
        match, points = found
        start = match.start()
        while start > 0 and stem[start - 1] in " _-.":
            start -= 1
        if start == 0:
            break  # the marker is the whole name
        rank += points
        markers.append(match.group(0).strip(" _-.()").lower())
        stem = stem[:start]
    family = re.sub(r"[\s_\-.]+", "_", stem).strip("_").lower()
    return VersionInfo(family=family, rank=rank, markers=tuple(markers))


def supersedes(newer: str, older: str) -> bool:
    """True when `newer` is a later version of the same document as `older`."""
    a, b = version_info(newer), version_info(older)
    return a.family == b.family and a.rank > b.rank
