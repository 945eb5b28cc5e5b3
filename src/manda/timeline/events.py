"""Dated events read from passages: a date, the words that tie it to something that happened
(or will), the category, the actors, and the verbatim excerpt that says so.

Deterministic and model-free: a date becomes an event only when a trigger ("filed", "maturing
on", "joined", "until") stands next to it in the same sentence and the sentence is about the
trigger's subject (a claim, a loan, an agreement). No trigger, no event: nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from manda.finance.dates import DateMention, DateSpan, find_date_mentions
from manda.ingest.extract.dedupe import is_placeholder
from manda.ingest.extract.excerpts import excerpt_span, sentence_spans
from manda.ingest.extract.names import NAME, find_courts, find_orgs, find_roles, is_person_name
from manda.vocabulary import Cues, cues, topic, vocabulary
from manda.vocabulary.model import Precision

__all__ = [
    "CORRECTION_ISSUED", "DOCUMENT_DATED", "TRIGGERS", "EventCandidate", "Trigger",
    "events_in_text",
]

_WORDS = vocabulary()
_ALL_SPANS: tuple[Precision, ...] = ("day", "month", "quarter", "half", "year")


@dataclass(frozen=True)
class Trigger:
    """Words that make a nearby date an event of one kind, and what the sentence must be about
    (`manda/vocabulary/events.yaml`, its words in every language file)."""

    kind: str
    category: str
    label: str
    words: Cues
    context: Cues | None = None  # None: any sentence
    person: bool = False  # a person's name also says what the sentence is about
    future: bool = False  # the event may lie ahead (an expiry, a maturity, a hearing)
    spans: tuple[Precision, ...] = _ALL_SPANS

    def about(self, text: str, before: str = "") -> bool:
        """Whether the sentence (with its heading) is about this kind's subject; a person may be
        named in the sentence before ("Rhys Morgan — Engineering Director. Joined in 2012")."""
        if self.context is None:
            return True
        named = self.person and re.search(NAME, f"{before}\n{text}") is not None
        return self.context.found(text) or named


TRIGGERS: tuple[Trigger, ...] = tuple(
    Trigger(kind=e.kind, category=e.category, label=e.label, words=e.words, context=e.context,
            person=e.person, future=e.future, spans=e.spans)
    for e in _WORDS.events)

DOCUMENT_DATED = Trigger("document dated", "document", "Document dated", cues(()))
"""A document's own date (from its metadata or first page), not found by scanning sentences."""
CORRECTION_ISSUED = Trigger("correction", "report", "Correction issued", cues(()))
"""A newer version or a stated correction replacing another document (from SUPERSEDES)."""

_NAMED = r"[A-Z][\w&'’.\-]*(?:\s+(?:[A-Z][\w&'’.\-]*|&|of|and))*"
_PARTY = _WORDS.cues("party_preposition").around(tail=rf"\s+(?P<n>{_NAMED})")
_BEFORE_PAREN = re.compile(rf"(?P<n>{_NAMED})\s*\((?:[^)]*?)$")
_OBJECTS = _WORDS.cues("event_objects")
_WORDS_BEFORE = re.compile(r"(?:[\w\-]+\s){0,3}$")  # an object's qualifiers: "master services"
_NOT_ACTORS = _WORDS.words("not_actors")
_COC = topic("change_of_control").terms
_DENIES = _WORDS.cues("denies")
_ANSWERS_NO = _WORDS.cues("answers_no")
_DATE_PREPOSITIONS = _WORDS.words("date_prepositions")
_DENIAL_REACH = 45  # "contains no change-of-control clause", "without any change of control"


def _no_coc(sentence: str) -> bool:
    """The sentence denies a change-of-control clause ("no change of control", "Change of
    control: n/a")."""
    for m in _COC.finditer(sentence):
        if _DENIES.search(sentence[max(0, m.start() - _DENIAL_REACH):m.start()]):
            return True
        answer = sentence[m.end():].lstrip()
        if answer.startswith(":") and (word := answer[1:].split(maxsplit=1)) \
                and _ANSWERS_NO.fullmatch(word[0].strip(".,;")):
            return True
    return False


def _objects(text: str) -> list[str]:
    """What the events of a passage are about, with up to three words before the noun."""
    found, previous = [], 0
    for m in _OBJECTS.finditer(text):
        before = _WORDS_BEFORE.search(text, previous, m.start())
        found.append((before.group(0) if before else "") + m.group(0))
        previous = m.end()
    return found


_CARRIES_ACTORS = {"litigation", "contract", "financing", "lease", "management"}


@dataclass
class EventCandidate:
    """An event found in one passage, before events of several passages are merged."""

    span: DateSpan
    trigger: Trigger
    title: str
    actors: list[str]
    excerpt: str
    change_of_control: bool = False
    object_phrase: str = ""
    notes: list[str] = field(default_factory=list)


def _clean_actor(name: str) -> str | None:
    name = name.strip(" ,.;:()'\"")
    words = name.split()
    while words and words[-1].lower() in {"and", "of", "&"}:
        words.pop()
    name = " ".join(words)
    if not name or is_placeholder(name) or name.lower() in _NOT_ACTORS:
        return None
    if words[0].lower() in _NOT_ACTORS or any(ch.isdigit() for ch in name):
        return None
    return name if len(name) >= 3 else None


def _actors(window: str, sentence: str) -> list[str]:
    """People, organisations and courts named near the date (else in the whole sentence)."""

    def collect(text: str) -> list[str]:
        found: list[str] = []
        for name, _, _ in find_orgs(text):
            found.append(name)
        found.extend(court for court, _, _ in find_courts(text))
        for m in re.finditer(NAME, text):
            if is_person_name(m.group(0)):
                found.append(m.group(0))
        for pattern in (_PARTY, _BEFORE_PAREN):
            for m in pattern.finditer(text):
                found.append(m.group("n"))
        if " | " in text:  # a table row: its first cell names what the row is about
            found.append(text.split(" | ", 1)[0])
        out: list[str] = []
        for name in found:
            cleaned = _clean_actor(name)
            if cleaned and not any(cleaned in o or o in cleaned for o in out):
                out.append(cleaned)
        return out

    return collect(window) or collect(sentence)


def _pick_trigger(
    sentence: str, offset: int, mention: DateMention, previous_end: int, context: str,
    before: str = "",
) -> tuple[Trigger, int, int] | None:
    """The trigger nearest the date: before it in its clause, or just after a leading date."""
    local_start, local_end = mention.start - offset, mention.end - offset
    best: tuple[int, int, Trigger, int, int] | None = None
    for order, trigger in enumerate(TRIGGERS):
        if mention.span.precision not in trigger.spans:
            continue
        if not trigger.about(context, before):
            continue
        for m in trigger.words.finditer(sentence):
            if m.end() <= local_start and m.start() >= previous_end - offset:
                distance = local_start - m.end()
                limit = 70
            elif m.start() >= local_end and local_start <= 12:
                distance = m.start() - local_end + 10  # "On 14 May 2024, X filed …"
                limit = 60
            else:
                continue
            if distance <= limit and (best is None or (distance, order) < best[:2]):
                best = (distance, order, trigger, m.start() + offset, m.end() + offset)
    return (best[2], best[3], best[4]) if best else None


def _what(sentence: str, t_end: int, date_start: int) -> str:
    """What a decision was about: the words after its verb ("the opening of a data room")."""
    tail = sentence[t_end:date_start] if date_start > t_end else sentence[t_end:]
    words = tail.strip(" ,.;:").split()
    if date_start > t_end and words and words[-1].lower() in _DATE_PREPOSITIONS:
        words.pop()  # "… the opening of a data room on" 3 May
    return " ".join(words[:9]) + ("…" if len(words) > 9 else "")


def _title(trigger: Trigger, actors: list[str], obj: str, roles: list[str]) -> str:
    who = ", ".join(actors[:3])
    if trigger.category == "management" and roles:
        who = f"{who} ({roles[0]})" if who else roles[0]
    if trigger.category == "board" and obj:
        return f"{trigger.label} — {obj}"
    if not who and obj:
        who = obj
    elif obj and trigger.category in {"contract", "financing", "lease"}:
        who = f"{who} ({obj})"
    return f"{trigger.label} — {who}" if who else trigger.label


READ_PASSAGES_KEPT = 8192
"""Passages whose events are kept read (`_read_events`): a deal's timeline is built for each
question that asks for it, from the same passages until a document is ingested."""


def events_in_text(
    text: str, *, context_year: int | None = None, year_end: tuple[int, int] = (12, 31),
    heading: str = "",
) -> list[EventCandidate]:
    """Every dated event stated in `text` (one passage), in reading order.

    A passage is read once for the same words, year and heading (the key is the text itself,
    so a passage ingested or changed since is read anew); each call gets its own copies, which
    the timeline merges into."""
    return [replace(c, actors=list(c.actors), notes=list(c.notes))
            for c in _read_events(text, context_year, year_end, heading)]


@lru_cache(maxsize=READ_PASSAGES_KEPT)
def _read_events(text: str, context_year: int | None, year_end: tuple[int, int],
                 heading: str) -> tuple[EventCandidate, ...]:
    out: list[EventCandidate] = []
    sentences = sentence_spans(text)
    for index, (s, e) in enumerate(sentences):
        sentence = text[s:e]
        mentions = find_date_mentions(sentence, context_year=context_year, year_end=year_end)
        if not mentions:
            continue
        context = f"{heading}\n{sentence}"
        previous_end = s
        earlier = " ".join(text[ps:pe] for ps, pe in sentences[max(0, index - 2):index])
        for mention in mentions:
            absolute = DateMention(mention.span, mention.start + s, mention.end + s)
            picked = _pick_trigger(sentence, s, absolute, previous_end, context,
                                   text[sentences[index - 1][0]:s] if index else "")
            window = text[previous_end:absolute.end]
            previous_end = absolute.end
            if picked is None:
                continue
            trigger, t_start, t_end = picked
            actors = _actors(window, sentence)
            if trigger.category == "litigation":
                actors += [c for c, _, _ in find_courts(sentence) if c not in actors]
            if not actors and trigger.category in _CARRIES_ACTORS:
                actors = _actors(earlier, earlier) if earlier else []  # "The hearing is …"
            objects = _objects(window) or _objects(sentence)
            obj = " ".join(max(objects, key=lambda o: len(o.split())).split()).lower() \
                if objects else ""
            if trigger.category == "board":
                obj = _what(sentence, t_end - s, absolute.start - s)
            roles = [r for r, _, _ in find_roles(window or sentence)]
            following = " ".join(text[fs:fe] for fs, fe in sentences[index:index + 3])
            coc = (trigger.category in {"contract", "financing", "lease"}
                   and _COC.found(following) and not _no_coc(sentence))
            xs, xe = excerpt_span(text, absolute.start, absolute.end, bounds=(s, e),
                                  anchor=(min(t_start, absolute.start), max(t_end, absolute.end)))
            title = _title(trigger, actors, obj, roles)
            if coc:
                title += " — change-of-control clause"
            out.append(EventCandidate(
                span=mention.span, trigger=trigger, title=title, actors=actors,
                excerpt=" ".join(text[xs:xe].split()), change_of_control=coc,
                object_phrase=obj,
            ))
    return tuple(out)
