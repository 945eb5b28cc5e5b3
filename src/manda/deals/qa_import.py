"""The Q&A round trip: the seller's answered Q&A file read back into the deal.

Each answer attaches to its question by id, else by its wording, and is left for a person to
place when the match is unsure. An answer is kept as a document of role `qa_response` ("Q&A #12",
cited "answered 3 Nov 2024 by the seller"), so it is searched and cited; its figures wait for
review and are compared with the room (a conflict names both sources). An answered question
closes; one put off ("will be provided in phase 2", "n/a") closes with a follow-up question in its
place. The same file read twice changes nothing.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING

from manda.checksums import file_sha256
from manda.deals.records import Change
from manda.errors import MandaError
from manda.hitl.qa import QAService, category_of
from manda.hitl.qa_log import QALog, QALogRow, read_qa_log
from manda.ingest.statements import Statement
from manda.kg.port import ReviewLog
from manda.models import AuditEntry, DocumentRole, IngestReport, QAItem, stable_id, utcnow
from manda.private import private_dir
from manda.vocabulary import vocabulary

if TYPE_CHECKING:
    from manda.ingest.service import IngestService

SURE = 0.82  # wording this close is the same question
UNSURE = 0.5  # below this it is another question; in between a person decides
SELLER = "the seller"
IMPORTED = "qa.imported"
MATCHED = "qa.matched"  # a person placed an unsure answer (detail: "row 7 → Q12" / "row 7 → new")
NEW = 0  # "a new question", as a person's choice for an unsure row
SPREADSHEETS = frozenset({".xlsx", ".xlsm", ".xls", ".csv"})
QA_FILE_MB = 20  # a Q&A log larger than this is a data-room spreadsheet, not looked at as one


class NotAQALogError(MandaError):
    """A file given to `qa import` that has no question and answer columns."""

    def __init__(self, filename: str) -> None:
        super().__init__(
            f"{filename} has no Q&A columns: I look for a header row with a question column "
            "(“Question”, “Frage”, “Question posée” …) and an answer column (“Answer”, "
            "“Response”, “Antwort”, “Réponse” …).",
            hint="Check the file is the answered Q&A list (XLSX or CSV) and that its header row "
            "names those columns; to add it to the data room instead, use `manda ingest`.",
        )


class UnknownImportError(MandaError):
    """An unsure answer confirmed for a file Manda no longer keeps."""

    def __init__(self, file_id: str) -> None:
        super().__init__(
            f"I no longer have the Q&A file {file_id} these answers came from.",
            hint="Import the answered Q&A file again (drop it in the channel or "
            "`manda qa import --deal D FILE`).",
        )


@dataclass(frozen=True)
class AnsweredQuestion:
    """A question of the list the file answers, and where its answer is now kept."""

    number: int
    question: str
    answer: str
    document: str | None  # "Q&A #12" (None: an answer that says nothing is not kept)
    place: str  # "answered 3 Nov 2024 by the seller"
    follow_up: int | None = None  # the follow-up question's number, when the answer puts it off
    why_follow_up: str = ""  # "puts it off (“will be provided in phase 2”)"
    changed: bool = True  # False: this file had already brought this answer

    @property
    def citation(self) -> str:
        return f"{self.document}, {self.place}" if self.document else self.place


@dataclass(frozen=True)
class UnsureMatch:
    """An answer whose question Manda could not place for sure: a person says which it is."""

    row: int
    question: str  # as the file asks it
    answer: str
    candidate: int  # the list's question it may be
    candidate_question: str

    def quoted_candidate(self) -> str:
        """The candidate question in quotes, ending the sentence that asks about it: one
        question mark, not "“…?”?"."""
        question = self.candidate_question.strip()
        return f"“{question}”" if question.endswith(("?", "!", ".")) else f"“{question}”?"


@dataclass
class QAImport:
    """What one answered Q&A file brought to the deal."""

    deal_id: str
    filename: str
    file_id: str
    columns: dict[str, str] = field(default_factory=dict)
    answered: list[AnsweredQuestion] = field(default_factory=list)
    added: list[QAItem] = field(default_factory=list)  # its questions the list did not have
    unsure: list[UnsureMatch] = field(default_factory=list)
    unanswered: int = 0  # its questions still without an answer
    report: IngestReport | None = None  # the answers kept as documents
    conflicts: dict[int, list[Change]] = field(default_factory=dict)  # number -> conflicts
    coverage: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))  # IRL before, after
    open_questions: tuple[int, int] = (0, 0)  # open on the list before, after

    @property
    def changed(self) -> list[AnsweredQuestion]:
        return [a for a in self.answered if a.changed]

    @property
    def follow_ups(self) -> list[AnsweredQuestion]:
        return [a for a in self.changed if a.follow_up is not None]

    @property
    def contradicted(self) -> list[str]:
        """The room's documents a new answer contradicts, named once each."""
        names: dict[str, None] = {}
        for changes in self.conflicts.values():
            for change in changes:
                names.setdefault(change.other_source.rsplit(", ", 1)[0])
        return list(names)

    def to_json(self) -> dict[str, object]:
        """The stable shape `manda qa import --json` prints."""
        return {
            "deal_id": self.deal_id, "file": self.filename, "file_id": self.file_id,
            "summary": self.headline(), "columns": self.columns,
            "answered": [{"number": a.number, "question": a.question, "answer": a.answer,
                          "source": a.citation, "follow_up": a.follow_up,
                          "why_follow_up": a.why_follow_up or None, "new": a.changed}
                         for a in self.answered],
            "added": [{"number": q.number, "question": q.question} for q in self.added],
            "unsure": [{"row": u.row, "question": u.question, "candidate": u.candidate,
                        "candidate_question": u.candidate_question} for u in self.unsure],
            "contradicts": [{"number": n, "label": c.label, "period": c.period,
                             "answer": c.here, "room": c.there, "source": c.other_source}
                            for n, changes in sorted(self.conflicts.items()) for c in changes],
            "unanswered": self.unanswered,
            "irl_coverage": {"before": list(self.coverage[0]), "after": list(self.coverage[1])},
            "open_questions": {"before": self.open_questions[0],
                               "after": self.open_questions[1]},
            "pending_review": self.report.pending_review if self.report else 0,
        }

    def headline(self) -> str:
        """"12 answered, 3 need a follow-up, 1 contradicts TargetCo_Q3_2024_Report.pdf"."""
        parts = [f"{len(self.changed)} answered"]
        if self.follow_ups:
            verb = "needs" if len(self.follow_ups) == 1 else "need"
            parts.append(f"{len(self.follow_ups)} {verb} a follow-up")
        if self.conflicts:
            named = self.contradicted
            others = (f" (and {len(named) - 1} other document{'s' if len(named) > 2 else ''})"
                      if len(named) > 1 else "")
            parts.append(f"{len(self.conflicts)} contradict"
                         f"{'s' if len(self.conflicts) == 1 else ''} {named[0]}{others}")
        if self.added:
            parts.append(f"{len(self.added)} new question{'s' if len(self.added) != 1 else ''}"
                         " added")
        if self.unsure:
            many = len(self.unsure) != 1
            parts.append(f"{len(self.unsure)} answer{'s' if many else ''} to place on "
                         f"{'their questions' if many else 'its question'}")
        unchanged = len(self.answered) - len(self.changed)
        if unchanged and not self.changed:
            return f"nothing new: the {unchanged} answer{'s' if unchanged != 1 else ''} of this "\
                   "file were imported before"
        return ", ".join(parts)


def wording(text: str) -> list[str]:
    """A question's words, for comparing two wordings of it."""
    return re.findall(r"\w{2,}", text.lower())


def similarity(a: str, b: str) -> float:
    """How alike two wordings of a question are (1.0: the same words)."""
    wa, wb = wording(a), wording(b)
    if not wa or not wb:
        return 0.0
    common = len(set(wa) & set(wb))
    dice = 2 * common / (len(set(wa)) + len(set(wb)))
    ratio = SequenceMatcher(None, " ".join(wa), " ".join(wb), autojunk=False).ratio()
    return max(dice, ratio)


def puts_off(row: QALogRow) -> str:
    """Why an answer needs a follow-up question ("" when it answers): partly answered, still
    marked open, put off to later, or an answer that says nothing."""
    words = vocabulary()
    answer = row.answer.strip()
    if row.status == "partial":
        return f"answered only in part (status “{row.status_text}”)"
    if found := words.cues("qa_deferral").search(answer):
        return f"puts it off (“{found.group(0)}”)"
    if words.cues("qa_non_answer").fullmatch(answer.strip(" .")):
        return f"says nothing (“{answer}”)"
    if row.status == "open":
        return f"is still marked “{row.status_text}”"
    return ""


def says_nothing(answer: str) -> bool:
    return vocabulary().cues("qa_non_answer").fullmatch(answer.strip(" ."))


def shown_date(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def place_of(row: QALogRow) -> str:
    """Where an answer comes from, as its citation says it."""
    who = row.answered_by or SELLER
    when = f" {shown_date(row.answered_on)}" if row.answered_on else ""
    return f"answered{when} by {who}"


def answer_statement(item: QAItem, row: QALogRow, filename: str) -> Statement:
    """The seller's answer as a statement kept like a document: what it says is the answer
    (quoted, read for figures); its question is searched with it, never quoted as its words."""
    name = f"Q&A #{item.number}"
    place = place_of(row)
    return Statement(
        name=name,
        text=row.answer.strip(),
        context=f"{item.category} question: {item.question}",
        role=DocumentRole.QA_RESPONSE,
        place=place,
        hold=f"{name} is the seller's answer ({filename}), not a document of the room: its "
             "figures wait for a person",
        dated=row.answered_on,
        metadata={"question": item.question, "qa_number": str(item.number),
                  "answered_by": row.answered_by or SELLER, "from_file": filename,
                  **({"file_row": str(row.row)} if row.row else {})},
    )


def follow_up_question(item: QAItem, row: QALogRow, why: str) -> str:
    said = " ".join(row.answer.split())
    said = said if len(said) <= 120 else said[:117] + "…"
    return (f"Follow-up to Q{item.number}: {item.question} — the answer {why}"
            f"{'' if said in why else f': “{said}”'}. Please answer in full or say when.")


@dataclass
class _Placing:
    items: list[QAItem]
    chosen: Mapping[int, int]  # file row -> the list's number a person chose (NEW: a new one)

    def by_number(self, number: int) -> QAItem | None:
        return next((i for i in self.items if i.number == number), None)

    def place(self, row: QALogRow) -> tuple[QAItem | None, UnsureMatch | None]:
        """The list's question the row answers, None for a new one, or an unsure match."""
        if row.row in self.chosen:
            return self.by_number(self.chosen[row.row]), None
        named = next((i for i in self.items if row.ref and i.id == row.ref), None)
        if named is None and row.number is not None:
            named = self.by_number(row.number)
        if named is not None:
            if similarity(row.question, named.question) >= UNSURE:
                return named, None
            return None, self._unsure(row, named)
        scored = sorted(((similarity(row.question, i.question), i.number, i)
                         for i in self.items), key=lambda s: (-s[0], s[1]))
        if not scored or scored[0][0] < UNSURE:
            return None, None
        score, _, best = scored[0]
        if score >= SURE:
            return best, None
        return None, self._unsure(row, best)

    @staticmethod
    def _unsure(row: QALogRow, candidate: QAItem) -> UnsureMatch:
        return UnsureMatch(row=row.row, question=row.question, answer=row.answer,
                           candidate=candidate.number, candidate_question=candidate.question)


class QAImporter:
    """Reads answered Q&A files into a deal (one per `DealService`)."""

    def __init__(self, *, qa: QAService, ingest: IngestService, graph: ReviewLog,
                 home: Path) -> None:
        self._qa = qa
        self._ingest = ingest
        self._graph = graph
        self._folder = home / "qa-imports"

    def kept(self, deal_id: str, file_id: str) -> Path:
        """The copy of an imported file, kept so an unsure answer can be placed later."""
        folder = self._folder / deal_id
        for path in sorted(folder.glob(f"{file_id}.*")) if folder.is_dir() else ():
            return path
        raise UnknownImportError(file_id)

    def _keep(self, deal_id: str, path: Path, file_id: str, name: str) -> Path:
        folder = private_dir(self._folder / deal_id)
        suffix = Path(name).suffix.lower() or path.suffix.lower()
        kept = folder / f"{file_id}{suffix}"
        if not kept.exists():
            shutil.copyfile(path, kept)
            kept.chmod(0o600)
            (folder / f"{file_id}.name").write_text(name, encoding="utf-8")
        return kept

    def name_of(self, deal_id: str, file_id: str) -> str:
        marker = self._folder / deal_id / f"{file_id}.name"
        return marker.read_text(encoding="utf-8") if marker.is_file() else file_id

    @staticmethod
    async def file_id(path: Path) -> str:
        """A file's id among imports: its content's hash (the same file is the same import)."""
        return (await _sha(path))[:16]

    async def read(self, path: Path, name: str) -> QALog | None:
        """The file's Q&A rows, read by the bounded reader; None when it is no Q&A file."""
        return read_qa_log(await self._ingest.parse(path, name))

    async def chosen(self, deal_id: str, file_id: str) -> dict[int, int]:
        """The rows of a file people placed by hand (the audit log keeps each choice)."""
        placed: dict[int, int] = {}
        for entry in await self._graph.list_audit(deal_id):
            if entry.action == MATCHED and entry.subject_id == file_id:
                row, _, number = entry.detail.partition(" → ")
                if row.startswith("row ") and row[4:].isdigit():
                    placed[int(row[4:])] = NEW if number == "new" else int(number.lstrip("Q"))
        return placed

    async def place(self, deal_id: str, file_id: str, row: int, number: int, *, by: str
                    ) -> None:
        """A person's choice for an unsure answer: question `number` of the list, or NEW."""
        target = "new" if number == NEW else f"Q{number}"
        await self._graph.append_audit(AuditEntry(
            id=stable_id("a", deal_id, MATCHED, file_id, row),
            deal_id=deal_id, action=MATCHED, subject_id=file_id, by=by, at=utcnow(),
            detail=f"row {row} → {target}",
        ))

    async def run(
        self, deal_id: str, path: Path, *, name: str, by: str, log: QALog | None = None
    ) -> tuple[QAImport, list[Statement]]:
        """Place every answer of the file and apply it to the Q&A list; the answers to keep
        as documents are returned for the caller to ingest (with the deal's relations)."""
        file_id = await self.file_id(path)
        log = log or await self.read(path, name)
        if log is None:
            raise NotAQALogError(name)
        self._keep(deal_id, path, file_id, name)
        result = QAImport(deal_id=deal_id, filename=name, file_id=file_id,
                          columns=dict(log.columns))
        placing = _Placing(await self._qa.items(deal_id), await self.chosen(deal_id, file_id))
        statements: list[Statement] = []
        for row in log.rows:
            item, unsure = placing.place(row)
            if unsure is not None:
                result.unsure.append(unsure)
                continue
            if item is None:
                item, created = await self._qa.add(
                    deal_id, row.question, by=by, category=category_of(row.category),
                    source=f"{name}, row {row.row}" if row.row else name)
                if created:
                    result.added.append(item)
                    placing.items.append(item)
            if not row.answer.strip():
                result.unanswered += 1
                continue
            answered, statement = await self._answer(deal_id, item, row, name, by)
            result.answered.append(answered)
            if statement is not None:
                statements.append(statement)
        return result, statements

    async def _answer(self, deal_id: str, item: QAItem, row: QALogRow, filename: str, by: str
                      ) -> tuple[AnsweredQuestion, Statement | None]:
        why = puts_off(row)
        statement = None if says_nothing(row.answer) else answer_statement(item, row, filename)
        place = place_of(row)
        _, changed = await self._qa.record_answer(
            deal_id, str(item.number), by=by, answer=row.answer, answered_by=row.answered_by
            or SELLER, answered_on=row.answered_on,
            document=statement.name if statement else None,
            status="closed" if why else "answered")
        follow_up = None
        if why:
            follow, _ = await self._qa.add(
                deal_id, follow_up_question(item, row, why), by=by, category=item.category,
                priority=item.priority, source=f"Q&A #{item.number}, {place}",
                follow_up_of=item.number)
            follow_up = follow.number
        return AnsweredQuestion(
            number=item.number, question=item.question, answer=row.answer,
            document=statement.name if statement else None, place=place,
            follow_up=follow_up, why_follow_up=why, changed=changed,
        ), statement


async def _sha(path: Path) -> str:
    return await asyncio.to_thread(file_sha256, path)


def may_be_qa_file(path: Path, name: str) -> bool:
    """A spreadsheet small enough to be a Q&A log (only those are read for Q&A columns)."""
    try:
        size = path.stat().st_size
    except OSError:
        return False
    return Path(name).suffix.lower() in SPREADSHEETS and size <= QA_FILE_MB * 1_000_000
