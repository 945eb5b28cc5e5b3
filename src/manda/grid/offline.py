"""The offline grid reader: every column of one document from its own words, no model.

Each column is read the way topic answers read passages: the clauses that stand under a heading
naming it, that state it in its cue words, or that mean it (the embedder's similarity), ranked in
that order; then the column's type reads its value out of the best sentence that has one (a
date, a duration, a notice period, an amount, a party, a yes or a no) and that sentence is the
quote. A column no sentence answers is "not stated", saying what was searched. Every word read
is the vocabulary's (`grid:` in languages/*.yaml); the shapes of values are `manda.grid.values`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

import numpy as np

from manda.agent.relevance import content_terms, coverage
from manda.embed.port import Embedder
from manda.grid.parties import Party
from manda.grid.passages import DocumentText, Passage
from manda.grid.values import (
    Duration,
    cap_of,
    dates_in,
    durations_in,
    jurisdiction_of,
    money_in,
    notice_in,
    shown_of,
)
from manda.models import CellStatus, Document, GridCell, GridColumn
from manda.vocabulary.cues import Cues
from manda.vocabulary.grid import GridColumnSpec, GridVocabulary, grid_vocabulary

__all__ = ["READER", "Found", "OfflineReader", "Reading", "Sentence", "made_on"]

READER = "offline-8"  # bumped when reading changes: cells kept by an older reader are read again
MEANING_FLOOR = 0.35  # a passage this close in meaning to a column is read even without its words
QUESTION_FLOOR = 0.45  # a question in plain words is answered above this (meaning and words)
WORDS_FLOOR = 0.5  # ... by a sentence (with its heading) that has half its content words at least
DETAIL_CHARS = 160


@dataclass
class Reading:
    """What the readers know of one document: its passages, parties and target, its language."""

    deal_id: str
    document: Document
    text: DocumentText
    parties: list[Party]
    target: set[str]
    language: str = "en"
    meaning: dict[str, np.ndarray] = field(default_factory=dict)  # column wording -> per passage

    @property
    def counterparty(self) -> Party | None:
        others = [p for p in self.parties if p.key not in self.target]
        if not self.target:
            sides = grid_vocabulary()
            counter = [p for p in others if any(k.parties.fullmatch(p.term) for k in sides.kinds)]
            others = counter or others
        return others[0] if others else None

    def side_of(self, words: str) -> str | None:
        """"target", "counterparty" or "either" for the words naming who may do something."""
        g = grid_vocabulary()
        if g.words("either_party").found(words):
            return "either"
        lowered = words.lower()
        named: list[tuple[int, Party]] = []  # the party named first is the one who may
        for party in self.parties:
            names = (party.term.lower(), party.name.lower(), party.name.split()[0].lower())
            at = [i for name in names if name and (i := _word_at(name, lowered)) >= 0]
            if at:
                named.append((min(at), party))
        if not named:
            return None
        first = min(named, key=lambda n: n[0])[1]
        return "target" if first.key in self.target else "counterparty"


def _word_at(name: str, text: str) -> int:
    """Where `name` first stands as whole words in `text` (-1 when it does not)."""
    at = text.find(name)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(name)] if at + len(name) < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            return at
        at = text.find(name, at + 1)
    return -1


def _word_in(name: str, text: str) -> bool:
    return _word_at(name, text) >= 0


@dataclass(frozen=True)
class Sentence:
    """One sentence of a passage, as a candidate for a column."""

    passage: Passage
    text: str
    score: float


@dataclass(frozen=True)
class Found:
    """A column's value read from one sentence: normalised, shown, its detail and its quote."""

    value: str | bool | float | dict[str, str | float | bool]
    shown: str
    quote: str
    passage: Passage
    detail: str = ""


class OfflineReader:
    """Reads grid cells from a document's words (the default, with no model configured)."""

    name = READER
    concurrency = 2  # documents at once: the work is this machine's

    def __init__(self, *, embedder: Embedder | None = None) -> None:
        self._embedder = embedder

    async def read(self, reading: Reading, columns: Sequence[GridColumn]) -> list[GridCell]:
        if not reading.text:
            return [unreadable(reading, c, self.name, "no text could be read from it (a scan "
                               "with OCR turned off, or an empty file)") for c in columns]
        await self._meaning(reading, columns)
        return [self.cell(reading, column) for column in columns]

    def cell(self, reading: Reading, column: GridColumn) -> GridCell:
        g = grid_vocabulary()
        if column.standard:
            spec = g.column(column.key)
            found = READERS[spec.type](reading, spec, ranked(reading, spec, g))
            searched = _searched(spec.searched, reading)
        else:
            found = _question(reading, column)
            searched = _searched(f"passages about “{column.name}”", reading)
        if found is None:
            return GridCell(deal_id=reading.deal_id, document_id=reading.document.id,
                            column=column.key, wording=column.wording, reader=self.name,
                            status=CellStatus.NOT_STATED, searched=searched)
        return stated(reading, column, self.name, found)

    async def _meaning(self, reading: Reading, columns: Sequence[GridColumn]) -> None:
        """Each column's similarity to each passage (when an embedder is given)."""
        wanted = [c for c in columns if c.wording not in reading.meaning]
        if self._embedder is None or not wanted or not reading.text.passages:
            return
        g = grid_vocabulary()
        passages = await self._embedder.embed(
            [p.text for p in reading.text.passages], input_type="document")
        queries = [f"{g.column(c.key).label}: {g.column(c.key).describe}" if c.standard
                   else c.name for c in wanted]
        vectors = await self._embedder.embed(queries, input_type="query")
        for column, vector in zip(wanted, vectors, strict=True):
            reading.meaning[column.wording] = passages @ vector


def stated(reading: Reading, column: GridColumn, reader: str, found: Found) -> GridCell:
    g = grid_vocabulary()
    return GridCell(
        deal_id=reading.deal_id, document_id=reading.document.id, column=column.key,
        wording=column.wording, reader=reader, status=CellStatus.STATED, value=found.value,
        shown=found.shown, detail=found.detail, quote=found.quote.strip(),
        location=found.passage.location, clause=found.passage.clause,
        heading=found.passage.heading,
        amending=g.words("amending").found(found.passage.text),
    )


def unreadable(reading: Reading, column: GridColumn, reader: str, why: str) -> GridCell:
    return GridCell(deal_id=reading.deal_id, document_id=reading.document.id, column=column.key,
                    wording=column.wording, reader=reader, status=CellStatus.UNREADABLE,
                    reason=why)


def _searched(what: str, reading: Reading) -> str:
    count = len(reading.text.passages)
    return f"searched {count} passage{'s' if count != 1 else ''} for {what}"


# ---------------------------------------------------------------- ranking


def ranked(reading: Reading, spec: GridColumnSpec, g: GridVocabulary) -> list[Sentence]:
    """The sentences that may answer a column, best first: stated in its words (or denied),
    under a heading naming it, close to it in meaning."""
    meaning = reading.meaning.get(spec.key)
    out: list[Sentence] = []
    for passage in reading.text.passages:
        under = spec.headings.found(passage.heading) if passage.heading else False
        close = float(meaning[passage.index]) if meaning is not None else 0.0
        for sentence in passage.sentence_texts():
            said = spec.stated.found(sentence) or spec.negated.found(sentence)
            if not (said or under or close >= MEANING_FLOOR):
                continue
            score = 3.0 * said + 1.5 * under + 2.0 * close
            out.append(Sentence(passage, sentence, score))
    out.sort(key=lambda s: (-s.score, s.passage.index))
    return out


def _first(candidates: Sequence[Sentence],
           read: Callable[[Sentence], Found | None]) -> Found | None:
    for candidate in candidates:
        found = read(candidate)
        if found is not None:
            return found
    return None


_CLAUSE_NUMBER = re.compile(
    r"^(?:§\s*\d+\s*)?(?:\(\w{1,4}\)|\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.)\s+")


def _detail(sentence: str) -> str:
    """A sentence as a cell shows it: without its clause number, cut to a line or two."""
    text = _CLAUSE_NUMBER.sub("", " ".join(sentence.split()))
    return text if len(text) <= DETAIL_CHARS else text[: DETAIL_CHARS - 1].rsplit(" ", 1)[0] + "…"


# ---------------------------------------------------------------- the readers of each type


def _party(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    party = reading.counterparty
    if party is None:
        return None
    return Found(party.name, party.name, party.quote, party.passage, detail=party.term)


def made_on(text: DocumentText) -> date | None:
    """The date a document is made on, as its opening states it."""
    found = _opening_date(text)
    return found[0] if found else None


def _opening_date(text: DocumentText) -> tuple[date, Passage, int, int] | None:
    dated = grid_vocabulary().words("dated")
    opening = [p for p in text.passages if p.preamble] or text.passages[:2]
    first: tuple[date, Passage, int, int] | None = None
    for passage in opening:
        for when, start, end in dates_in(passage.text):
            cue = dated.search(passage.text[max(0, start - 40):start])
            if cue is not None:
                return when, passage, start, end
            first = first or (when, passage, start, end)
    return first


def _date(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    found = _opening_date(reading.text)
    if found is None:
        return None
    when, passage, start, end = found
    begin = max((s for s, e in passage.sentences if s <= start), default=0)
    if end - begin > 140:
        cue = grid_vocabulary().words("dated").pattern.search(passage.text, max(begin, start - 60),
                                                              start)
        begin = cue.start() if cue else max(begin, start - 40)
    return Found(when.isoformat(), shown_of("date", when.isoformat()), passage.text[begin:end],
                 passage)


def _date_after(cues: Cues, text: str, reach: int = 40) -> date | None:
    for cue in cues.finditer(text):
        for when, _, _ in dates_in(text[cue.end():cue.end() + reach]):
            return when
    return None


def _term(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    g = grid_vocabulary()
    renewal = g.column("renewal")
    made = made_on(reading.text)

    def read(s: Sentence) -> Found | None:
        if renewal.stated.found(s.text) and not g.words("until").found(s.text):
            return None
        start = _date_after(g.words("start"), s.text)
        value: dict[str, str | float | bool]
        if g.words("indefinite").found(s.text):
            return Found("indefinite", shown_of("term", "indefinite"), s.text, s.passage)
        until = _date_after(g.words("until"), s.text, 30)
        notice = notice_in(s.text)
        spans = [d for d in durations_in(s.text) if d.months and d != notice]
        dates = [d for d, _, _ in dates_in(s.text) if d not in (made, start)]
        if until is None and not spans and len(dates) == 1 and (
                spec.stated.found(s.text) or spec.headings.found(s.passage.heading)):
            until = dates[0]  # "repay the Loan in full on the Final Repayment Date, being …"
        if until is not None:
            value = {"until": until.isoformat()}
        elif spans:
            value = {"months": spans[0].months or 0}
        else:
            return None
        if start is not None and start != made:
            value["start"] = start.isoformat()
        return Found(value, shown_of("term", value), s.text, s.passage)

    return _first([c for c in candidates if not c.passage.preamble], read)


def _renewal(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    g = grid_vocabulary()

    def read(s: Sentence) -> Found | None:
        if spec.negated.found(s.text):
            return Found(False, shown_of("renewal", False), s.text, s.passage)
        if not spec.stated.found(s.text):
            return None
        notice = notice_in(s.text)
        periods = [d for d in durations_in(s.text) if d.months and d != notice]
        if not periods:
            return None
        if notice is None:  # "… (Option). Die Option ist spätestens sechs Monate vor Ablauf …"
            notice = next((n for other in s.passage.sentence_texts() if other != s.text
                           and (n := notice_in(other)) is not None), None)
        value: dict[str, str | float | bool] = {"automatic": True,
                                                "period_months": periods[0].months or 0}
        option = g.words("renewal_option").search(s.text)
        if g.words("mutual_agreement").found(s.text):  # only if both parties agree: no option
            value["automatic"] = False
            value["option"] = "mutual"
        elif option is not None:
            value["automatic"] = False
            who = reading.side_of(s.text[: option.start()])
            if who:
                value["option"] = who
        if notice is not None:
            value["notice"] = notice.normal
        return Found(value, shown_of("renewal", value), s.text, s.passage)

    return _first(candidates, read)


def _yes_no(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    def read(s: Sentence) -> Found | None:
        if spec.negated.found(s.text):
            return Found(False, "No", s.text, s.passage, detail=_detail(s.text))
        if spec.stated.found(s.text):
            return Found(True, "Yes", s.text, s.passage, detail=_detail(s.text))
        return None

    return _first(candidates, read)


def _termination(reading: Reading, spec: GridColumnSpec,
                 candidates: list[Sentence]) -> Found | None:
    g = grid_vocabulary()
    renewal = g.column("renewal")
    extra = [Sentence(p, text, 0.5) for p in reading.text.passages
             for text in p.sentence_texts()
             if g.words("terminate").found(text) and notice_in(text) is not None]
    seen = {c.text for c in candidates}
    pool = [*candidates, *(e for e in extra if e.text not in seen)]

    def read(s: Sentence) -> Found | None:
        if spec.negated.found(s.text):  # "Buyer may not terminate this Agreement for convenience"
            return Found(False, shown_of("termination", False), s.text, s.passage,
                         detail=_detail(s.text))
        explicit = spec.stated.found(s.text)
        verb = g.words("terminate").search(s.text)
        notice = notice_in(s.text)
        if renewal.stated.found(s.text) or verb is None:
            return None
        if _conditional(s.text) and not explicit:
            return None
        if not explicit and notice is None:
            return None
        who = reading.side_of(s.text[: verb.start()])
        value: dict[str, str | float | bool] = {"terminable": True}
        if who:
            value["by"] = who
        value["notice"] = notice.normal if notice is not None else "none"
        return Found(value, shown_of("termination", value), s.text, s.passage,
                     detail=_detail(s.text))

    return _first(pool, read)


def _conditional(sentence: str) -> bool:
    """Whether a right to end depends on an event ("if the other party commits a breach"): a
    condition that is only the giving of notice ("if it gives … five Business Days' notice")
    makes none."""
    condition = grid_vocabulary().words("condition")
    for cue in condition.finditer(sentence):
        clause = re.split(r"[,;:]", sentence[cue.start():], maxsplit=1)[0]
        if notice_in(clause) is None or condition.found(clause[cue.end() - cue.start():]):
            return True
    return False


def _rule(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    g = grid_vocabulary()
    said = [c for c in candidates if spec.stated.found(c.text)]
    if not said:
        return None
    best = said[0]
    same = [c for c in said if c.passage.heading == best.passage.heading
            and c.passage.location == best.passage.location]
    same.sort(key=lambda c: (c.passage.index, c.passage.text.find(c.text)))
    read = [(c, _assignment_rule(reading, c.text, g)) for c in same[:3]]
    rules = list(dict.fromkeys(rule for _, rule in read if rule))
    if not rules:
        return None
    # the quote is the operative rule: the first with a consent in it, else the first rule
    first = next((c for c, rule in read if "consent" in rule), next(c for c, r in read if r))
    return Found("; ".join(rules), "; ".join(rules), first.text, first.passage,
                 detail=_detail(" ".join(c.text for c in same[:3])))


def _assignment_rule(reading: Reading, sentence: str, g: GridVocabulary) -> str:
    verb = g.column("assignment").stated.search(sentence)
    who_words = sentence[: verb.start()] if verb else sentence[:60]
    who = _who_words(reading, who_words) or "each party"
    if g.words("group").found(sentence) and not g.words("prohibited").found(
            sentence[: verb.start()] if verb else ""):
        return f"{who}: free to its group"
    before = sentence[: verb.start()] if verb else ""
    if g.words("without_consent").found(sentence) and not g.words("prohibited").found(before):
        return f"{who}: free, without consent"  # "may assign … without the consent of …"
    if g.words("consent").found(sentence):
        rule = f"{who}: consent required"
        if g.words("successor").found(sentence):
            rule += ", except to a successor to the business"
        if g.words("unreasonably_withheld").found(sentence):
            rule += ", not to be unreasonably withheld"
        return rule
    if g.words("prohibited").found(sentence):
        return f"{who}: may not assign"
    if g.words("free").found(sentence):
        return f"{who}: may assign"
    return ""


def _who_words(reading: Reading, words: str) -> str | None:
    g = grid_vocabulary()
    lowered = words.lower()
    if g.words("either_party").found(words):
        return "either party"
    if "neither" in lowered or "aucune" in lowered or "keine" in lowered:
        return "neither party"
    for party in reading.parties:
        if _word_in(party.term.lower(), lowered) or _word_in(party.name.lower(), lowered):
            return party.term.lower() if party.term[0].isupper() and party.term.lower() != \
                party.name.lower() else party.name
    return None


def _cap(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    def read(s: Sentence) -> Found | None:
        if not spec.stated.found(s.text) and not spec.headings.found(s.passage.heading):
            return None
        cap = cap_of(s.text, language=reading.language)
        if cap is None:
            return None
        return Found(cap.value, cap.shown, s.text, s.passage)

    return _first(candidates, read)


def _amount(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    def read(s: Sentence) -> Found | None:
        money = money_in(s.text, language=reading.language)
        if not money:
            return None
        first = money[0]
        value = {"amount": first.value, "unit": first.currency or ""}
        return Found(value, shown_of("amount", value), s.text, s.passage)

    return _first(candidates, read)


def _duration(reading: Reading, spec: GridColumnSpec,
              candidates: list[Sentence]) -> Found | None:
    def read(s: Sentence) -> Found | None:
        found: list[Duration] = durations_in(s.text)
        if not found:
            return None
        return Found(found[0].normal, found[0].normal, s.text, s.passage)

    return _first(candidates, read)


def _jurisdiction(reading: Reading, spec: GridColumnSpec,
                  candidates: list[Sentence]) -> Found | None:
    def read(s: Sentence) -> Found | None:
        if not spec.stated.found(s.text):
            return None
        place = jurisdiction_of(s.text)
        return Found(place, place, s.text, s.passage) if place else None

    return _first(candidates, read)


def _text(reading: Reading, spec: GridColumnSpec, candidates: list[Sentence]) -> Found | None:
    for s in candidates:
        if spec.stated.found(s.text) or s.score >= 2 * MEANING_FLOOR + 1.5:
            return Found(_detail(s.text), _detail(s.text), s.text, s.passage)
    return None


def _question(reading: Reading, column: GridColumn) -> Found | None:
    """A question in plain words: the sentence closest to it in meaning and words."""
    terms = content_terms(column.name)
    meaning = reading.meaning.get(column.wording)
    best: tuple[float, Passage, str] | None = None
    for passage in reading.text.passages:
        close = float(meaning[passage.index]) if meaning is not None else 0.0
        headed = coverage(passage.heading, terms) if terms and passage.heading else 0.0
        for sentence in passage.sentence_texts():
            words = coverage(f"{passage.heading} {sentence}", terms) if terms else 0.0
            if terms and words < WORDS_FLOOR:
                continue  # meaning alone is no answer: a termination clause is near any clause
            # the clause headed by the question's words states it; one elsewhere may only
            # mention it ("terminate … if it fails to meet the minimum purchase commitment")
            score = (0.45 * close + 0.25 * words + 0.3 * headed if meaning is not None
                     else 0.6 * words + 0.4 * headed)
            if best is None or score > best[0]:
                best = (score, passage, sentence)
    if best is None or best[0] < QUESTION_FLOOR:
        return None
    _, passage, sentence = best
    return Found(_detail(sentence), _detail(sentence), sentence, passage)


READERS: dict[str, Callable[[Reading, GridColumnSpec, list[Sentence]], Found | None]] = {
    "party": _party, "date": _date, "term": _term, "renewal": _renewal, "yes_no": _yes_no,
    "termination": _termination, "rule": _rule, "cap": _cap, "amount": _amount,
    "duration": _duration, "jurisdiction": _jurisdiction, "text": _text,
}
