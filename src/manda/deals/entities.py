"""Entities the team names as one ("Globex AG is the same company as Globex Holding"): kept on the
deal as groups of names, so a question naming one searches for all (`manda.retrieval.aliases`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manda.deals.notes import note_text
from manda.errors import MandaError
from manda.vocabulary import vocabulary

LINKED = "entity.linked"
UNLINKED = "entity.unlinked"
_QUOTES = " \t\"'“”‘’«»`*_.,;:!?()[]"


class EntityLinkError(MandaError):
    """A link request that does not name two entities."""

    def __init__(self, text: str) -> None:
        super().__init__(
            f"I could not read two names in “{text[:120]}”.",
            hint="Say it as “Globex AG is the same company as Globex Holding” (or give the two "
            "names: `manda link --deal D \"Globex AG\" \"Globex Holding\"`).",
        )


@dataclass(frozen=True)
class EntityLink:
    """The names that are now one entity, and whether anything changed."""

    names: list[str]
    changed: bool


def linked_names(text: str) -> list[str]:
    """The two names a sentence says are one entity; [] when it says no such thing."""
    found = vocabulary().cues("same_entity").search(text)
    if found is None:
        return []
    left = _name(text[: found.start()])
    right = _name(text[found.end():])
    return [left, right] if left and right and left.lower() != right.lower() else []


def _name(part: str) -> str:
    words = " ".join(part.split()).strip(_QUOTES)
    words = note_text(words) or words  # "FYI Globex AG = …": the cue is no part of the name
    return words.strip(_QUOTES)


def merged(groups: Sequence[Sequence[str]], names: Sequence[str]) -> list[list[str]]:
    """`groups` with `names` joined into one group (with every group sharing a name)."""
    wanted = {n.lower() for n in names}
    joined: list[str] = list(dict.fromkeys(names))
    rest: list[list[str]] = []
    for group in groups:
        if wanted & {n.lower() for n in group}:
            joined += [n for n in group if n.lower() not in {j.lower() for j in joined}]
        else:
            rest.append(list(group))
    return [*rest, joined]


def without(groups: Sequence[Sequence[str]], name: str) -> list[list[str]]:
    """`groups` with `name` taken out of its group (a group of one is no link)."""
    out = []
    for group in groups:
        kept = [n for n in group if n.lower() != name.lower()]
        if len(kept) > 1:
            out.append(kept)
    return out
