"""Which file is a newer version of which: `_CORRECTED`, `_v2`, `_FINAL`, `_updated`, `(2)`.

A data room rarely says "this replaces that" in metadata; the filename does. Two files belong to
one *version family* when their names match once the version markers are removed; within a family
the rank orders them (v1 < v2 < v3 < FINAL < updated < CORRECTED), so a later upload of an older
version never supersedes a newer one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

_SEP = r"[\s_\-.]*"
_MARKERS: list[tuple[re.Pattern[str], int]] = [
    # (pattern on the stem, base rank); numbered markers add their number
    (re.compile(rf"{_SEP}\((\d+)\)$"), 0),  # "report (2)" -> copy number 2
    (re.compile(r"[\s_\-.]+v(?:ersion)?[\s_\-.]*(\d{1,2})$", re.IGNORECASE), 0),
    (re.compile(r"[\s_\-.]+(?:rev|revision)[\s_\-.]*(\d{1,2})$", re.IGNORECASE), 0),
    (re.compile(rf"{_SEP}final$", re.IGNORECASE), 100),
    (re.compile(rf"{_SEP}(?:updated|update)$", re.IGNORECASE), 200),
    (re.compile(rf"{_SEP}(?:corrected|correction|restated|amended)$", re.IGNORECASE), 300),
    (re.compile(rf"{_SEP}(?:draft)$", re.IGNORECASE), -100),
]


@dataclass(frozen=True)
class VersionInfo:
    """A file's family (its name without version markers) and its rank inside the family."""

    family: str
    rank: int
    markers: tuple[str, ...]

    @property
    def is_draft(self) -> bool:
        return "draft" in self.markers


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
    changed = True
    while changed:
        changed = False
        for pattern, base in _MARKERS:
            match = pattern.search(stem)
            if not match or match.start() == 0:
                continue
            number = int(match.group(1)) if match.groups() else 0
            rank += base + number
            markers.append(match.group(0).strip(" _-.").lower())
            stem = stem[: match.start()]
            changed = True
            break
    family = re.sub(r"[\s_\-.]+", "_", stem).strip("_").lower()
    return VersionInfo(family=family, rank=rank, markers=tuple(markers))


def supersedes(newer: str, older: str) -> bool:
    """True when `newer` is a later version of the same document as `older`."""
    a, b = version_info(newer), version_info(older)
    return a.family == b.family and a.rank > b.rank
