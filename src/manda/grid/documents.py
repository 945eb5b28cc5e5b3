"""Which documents a grid is asked of, and what each is: a kind of contract (customer, supplier,
lease, employment, loan) read from its title, its parties' defined terms and its folder in the
room; and which document amends which (a deed of variation names the agreement it varies)."""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePosixPath

from manda.errors import MandaError
from manda.grid.parties import Party
from manda.grid.passages import DocumentText
from manda.grid.values import dates_in
from manda.models import Document, DocumentRole, DocumentStatus, GridSelection
from manda.vocabulary.grid import DocumentKind, grid_vocabulary

__all__ = ["Profile", "amendments", "kind_of", "matches_selection", "profile", "title_of"]

CONTRACT = "contract"


@dataclass(frozen=True)
class Profile:
    """What the grid knows of one document before reading its cells."""

    document: Document
    text: DocumentText
    parties: list[Party]
    kind: str | None = None

    @property
    def title(self) -> str:
        return title_of(self.document, self.text)


def title_of(document: Document, text: DocumentText) -> str:
    """The words that say what a document is: its file name and the start of its opening."""
    stem = PurePosixPath(document.filename).stem
    opening = " ".join(p.text for p in text.passages[:2])[:400]
    return f"{stem} {document.metadata.get('title', '')} {opening}"


def profile(document: Document, text: DocumentText, parties: list[Party]) -> Profile:
    return Profile(document, text, parties)


def _kinds() -> dict[str, DocumentKind]:
    return {k.key: k for k in grid_vocabulary().kinds}


def kind_of(p: Profile, target: set[str]) -> str | None:
    """The kind of contract a document is, or None when it is no contract at all."""
    kinds = _kinds()
    title = p.title
    if not p.text:  # not read (a scan with OCR off): its name and folder may still say
        return next((k.key for k in kinds.values() if k.titles.found(title) or (
            k.folders and k.folders.search(str(PurePosixPath(p.document.path or "").parent)))),
            CONTRACT)
    others = [party.term for party in p.parties if party.key not in target]
    ours = [party.term for party in p.parties if party.key in target]
    for key in ("lease", "employment", "loan"):
        kind = kinds[key]
        if kind.titles.found(title) or any(kind.parties.fullmatch(t) for t in others):
            return key
    sides = [k for k in kinds.values() if k.side is not None]
    for kind in sides:
        if any(kind.parties.fullmatch(t) for t in others):
            return kind.key
    for kind in sides:  # the target's own term names the other side: "Customer" → a supplier's
        if any(kind.parties.fullmatch(t) for t in ours):
            return next(k.key for k in sides if k.key != kind.key)
    folder = str(PurePosixPath(p.document.path or p.document.filename).parent)
    for kind in kinds.values():
        if kind.folders and folder != "." and kind.folders.search(folder):
            return kind.key
    if p.document.role in (DocumentRole.CONTRACT, DocumentRole.LEASE_SCHEDULE) or p.parties:
        return CONTRACT
    return None


def in_kind(kind: str | None, wanted: str) -> bool:
    """Whether a document of `kind` answers a grid asked of `wanted` (a contract is every kind)."""
    if kind is None:
        return False
    if kind == wanted:
        return True
    parent = _kinds().get(kind)
    return parent is not None and parent.part_of == wanted


def known_selection(selection: GridSelection) -> None:
    """Refuse a kind the grid does not know, saying which it knows."""
    wanted = selection.kind
    if wanted is None or wanted in _kinds() or wanted in {r.value for r in DocumentRole}:
        return
    names = ", ".join([*_kinds(), *(r.value for r in DocumentRole if r is not DocumentRole.OTHER)])
    raise MandaError(f"“{wanted}” is no kind of document the grid knows.",
                     hint=f"Use one of: {names}.")


def matches_selection(document: Document, selection: GridSelection,
                      kind: str | None) -> bool:
    """Whether a document is in the selection (kind or role, folder, name pattern): one read,
    or one that could not be read (the grid names it with the reason)."""
    if document.status not in (DocumentStatus.COMPLETED, DocumentStatus.FAILED):
        return False
    place = document.path or document.filename
    if selection.folder:
        folder = selection.folder.strip("/ ")
        if not (place == folder or place.startswith(folder + "/")):
            return False
    if selection.pattern and not (fnmatch.fnmatch(place, selection.pattern)
                                  or fnmatch.fnmatch(document.filename, selection.pattern)):
        return False
    wanted = selection.kind
    if wanted is None:
        return kind is not None
    if wanted in {r.value for r in DocumentRole}:
        return document.role.value == wanted or in_kind(kind, wanted)
    return in_kind(kind, wanted)


def amendments(profiles: Sequence[Profile], target: set[str],
               dated: Mapping[str, date | None]) -> dict[str, str]:
    """Amendment's document id → the id of the document it amends: a document whose title says
    it amends (a deed of variation, an Amendment No 1, a Nachtrag, an avenant) varies the other
    document with the same counterparty that it names by date (else the latest one before it)."""
    words = grid_vocabulary().words("amendment_titles")
    out: dict[str, str] = {}
    for p in profiles:
        if not words.found(PurePosixPath(p.document.filename).stem + " " + " ".join(
                x.text for x in p.text.passages[:2])[:300]):
            continue
        theirs = {party.key for party in p.parties if party.key not in target}
        own_date = dated.get(p.document.id)
        named = {d for d, _, _ in dates_in(" ".join(x.text for x in p.text.passages[:3]))}
        candidates = [
            q for q in profiles if q is not p and theirs & {x.key for x in q.parties}
            and not words.found(PurePosixPath(q.document.filename).stem)
            and (own_date is None or (dated.get(q.document.id) or date.min) <= own_date)]
        if not candidates:
            continue
        by_date = [q for q in candidates if dated.get(q.document.id) in named]
        chosen = by_date or sorted(candidates, key=lambda q: dated.get(q.document.id) or date.min)
        out[p.document.id] = chosen[-1].document.id if not by_date else by_date[0].document.id
    return out
