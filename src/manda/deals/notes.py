"""Facts told in a thread ("@Manda note: management said Q4 revenue will land at €5.5M"), kept
as findings whose source is the conversation: who told it, when, and a link to the message.

A note is a statement of role `thread_note` named "told by Ana on 3 Nov 2024", its place "not in a
document": searched and cited like a document, after the documents (`manda.agent`), its figures
waiting for a person however sure they are, compared with the room like any figure, and rejected
or undone like any finding. Its text is data: a note that addresses an assistant states nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from manda.ingest.statements import Statement
from manda.models import DocumentRole, Finding
from manda.vocabulary import vocabulary

NOT_IN_A_DOCUMENT = "not in a document"
NOTED = "knowledge.noted"
NOTE_CHARS = 4_000  # a note is a sentence or two; a longer one is cut


@dataclass(frozen=True)
class Teller:
    """Who told Manda something, when, and where it can be read again."""

    user: str  # their id where they told it (a Slack user id, a terminal name)
    name: str  # how the team calls them ("Ana")
    at: datetime
    link: str | None = None  # the message's permalink
    where: str | None = None  # the conversation it was told in


@dataclass(frozen=True)
class NoteResult:
    """What a note became: its source's name, its figures (waiting for review), and the
    figures of the room it agrees or disagrees with."""

    name: str  # "told by Ana on 3 Nov 2024"
    text: str
    findings: list[Finding] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)  # "Revenue Q3 2024 is €5.2M in X, p.1"
    unchanged: bool = False  # told before: nothing new was kept

    @property
    def citation(self) -> str:
        return f"{self.name}, {NOT_IN_A_DOCUMENT}"


def note_text(message: str) -> str | None:
    """The fact of a message that tells Manda something ("note: …", "FYI …", "zur Info: …"),
    without its cue; None when the message does not start with one."""
    text = message.strip()
    found = vocabulary().cues("note_cue").search(text)
    if found is None or text[: found.start()].strip(" @*_>•-"):
        return None
    told = text[found.end():].strip(" :,-–—")
    return told or None


def told_name(teller: Teller, taken: set[str]) -> str:
    """"told by Ana on 3 Nov 2024" (with the time when Ana told another thing that day)."""
    day = teller.at
    name = f"told by {teller.name} on {day.day} {day:%b %Y}"
    if name in taken:
        name += f" at {day:%H:%M}"
    return name


def note_statement(text: str, teller: Teller, name: str) -> Statement:
    told = " ".join(text.split())[:NOTE_CHARS]
    return Statement(
        name=name,
        text=told,
        role=DocumentRole.THREAD_NOTE,
        place=NOT_IN_A_DOCUMENT,
        hold=f"{name} ({NOT_IN_A_DOCUMENT}): something told in a thread always waits for a "
             "person",
        dated=teller.at.date(),
        metadata={"told_by": teller.name, "user": teller.user, "at": teller.at.isoformat(),
                  **({"link": teller.link} if teller.link else {}),
                  **({"conversation": teller.where} if teller.where else {})},
    )
