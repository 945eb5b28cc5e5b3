"""What a document is worth: its role (the one classification, `manda.ingest.roles`) and what
its own words say of its status (a draft, or audited, signed or final).

An audited annual report outranks a management presentation, which outranks meeting minutes
(`manda/vocabulary/roles.yaml` gives each role its authority); a draft is worth less than a final
version, and the IRL (information request list) is the checklist the gaps command measures
coverage against rather than a source of facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from manda.ingest.roles import classify_role
from manda.models import DocumentRole, ParsedDocument
from manda.text import name_words
from manda.vocabulary import vocabulary
from manda.vocabulary.model import RoleSpec

__all__ = ["DocumentProfile", "classify_document"]

_WORDS = vocabulary()
_DRAFT_MARK = _WORDS.cues("draft_mark")  # in a file name or title
_DRAFT_STAMP = _WORDS.cues("draft_stamp")  # on the opening
_CERTIFIED = _WORDS.cues("certified")  # the opening says it is audited, signed or final


@dataclass(frozen=True)
class DocumentProfile:
    """How the ingest pipeline should treat a document: its role and its own status."""

    role: DocumentRole = DocumentRole.OTHER
    draft: bool = False
    certified: bool = False  # its opening says it is audited, signed or final

    @property
    def spec(self) -> RoleSpec:
        """What the role makes it worth (roles.yaml)."""
        return _WORDS.role_spec(self.role)

    @property
    def authoritative(self) -> bool:
        return self.spec.authoritative and not self.draft

    @property
    def is_irl(self) -> bool:
        return self.spec.request_list

    @property
    def is_forecast(self) -> bool:
        return self.spec.forecast


def _opening(parsed: ParsedDocument, limit: int = 1500) -> str:
    text = "\n".join(s.text for s in parsed.sections[:2])
    return text[:limit]


def classify_document(filename: str, parsed: ParsedDocument) -> DocumentProfile:
    """The role read from the content, and whether the name, title or opening says draft, or
    audited, signed or final."""
    name = name_words(PurePath(filename).stem)
    opening = _opening(parsed)
    draft = bool(_DRAFT_MARK.search(name) or _DRAFT_STAMP.search(opening)
                 or (parsed.title and _DRAFT_MARK.search(parsed.title)))
    return DocumentProfile(
        role=classify_role(filename, parsed).role,
        draft=draft,
        certified=_CERTIFIED.found(opening) and not draft,
    )
