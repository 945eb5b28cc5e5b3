"""Dated events read from passages: a date, the words that tie it to something that happened
(or will), the category, the actors, and the verbatim excerpt that says so.

Deterministic and model-free: a date becomes an event only when a trigger ("filed", "maturing
on", "joined", "until") stands next to it in the same sentence and the sentence is about the
trigger's subject (a claim, a loan, an agreement). No trigger, no event: nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from manda.finance.dates import DateMention, DateSpan, find_date_mentions
from manda.ingest.extract.dedupe import is_placeholder
from manda.ingest.extract.excerpts import excerpt_span, sentence_spans
from manda.ingest.extract.names import NAME, find_orgs, find_roles, is_person_name

__all__ = [
    "CORRECTION_ISSUED", "DOCUMENT_DATED", "TRIGGERS", "EventCandidate", "Trigger",
    "events_in_text",
]

_I = re.IGNORECASE


@dataclass(frozen=True)
class Trigger:
    """Words that make a nearby date an event of one kind, and what the sentence must be about."""

    kind: str
    category: str
    label: str
    words: re.Pattern[str]
    context: re.Pattern[str] | None = None
    future: bool = False  # the event may lie ahead (an expiry, a maturity, a hearing)
    spans: tuple[str, ...] = ("day", "month", "quarter", "half", "year")


def _w(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w])(?:{pattern})(?![\w])", _I)


_LEASE = _w(r"lease[sd]?|leasehold|landlord|tenan(?:t|cy)|premises|rental agreement|sublease")
_LOAN = _w(r"loans?|facilit(?:y|ies)|credit line|revolv\w*|bonds?|notes|debentures?|"
           r"borrowings?|financing|debt|mortgage|RCF|term loan")
_AGREEMENT = _w(r"agreements?|contracts?|licen[cs]es?|subscriptions?|MSA|framework|deals?|"
                r"partnership|supply|distribution|arrangement|order")
_LITIGATION = _w(r"claims?|lawsuits?|suits?|courts?|proceedings?|litigation|arbitration|"
                 r"tribunal|action|dispute|plaintiff|claimant|defendant|Landgericht|"
                 r"Amtsgericht|injunction")
_PEOPLE = re.compile(
    rf"{NAME}|(?<![\w])(?:CEO|CFO|COO|CTO|chief|director|officer|head of|manager|"
    r"founder|chair\w*|president|partner|counsel|secretary)(?![\w])", _I)
_BOARD = _w(r"board|supervisory board|shareholders?['’]? meeting|general meeting|AGM|EGM|"
            r"shareholders|directors|Aufsichtsrat|Beirat|Gesellschafterversammlung")
_COMPANY = _w(r"company|business|group|GmbH|AG|Ltd|Limited|Inc|LLC|plc|entity|subsidiary|"
              r"firm|TargetCo|startup")
_DEAL = _w(r"acqui\w*|purchase[ds]?|bought|merg\w*|stake|shares|subsidiary|business|division|"
           r"company|entity|unit|assets")
_REPORT = _w(r"accounts|financial statements|statements|report|audit\w*|review|results")

TRIGGERS: tuple[Trigger, ...] = (
    Trigger("founded", "incorporation", "Founded",
            _w(r"founded|incorporated|established|registered|formed|gegründet|set up"),
            None),
    Trigger("acquired", "acquisition", "Acquisition",
            _w(r"acquired|acquisition of|bought|purchased|merged with|took over"), _DEAL),
    Trigger("disposed", "disposal", "Disposal",
            _w(r"sold|divested|disposed of|disposal of|carved out|spun off"), _DEAL),
    Trigger("lease starts", "lease", "Lease starts",
            _w(r"commenc\w*|starting|starts?|began|begins|from|signed|entered into"), _LEASE),
    Trigger("lease expires", "lease", "Lease expires",
            _w(r"expir\w*|until|ends?|ending|runs? (?:to|until)|running (?:to|until)|"
               r"terminates?|break (?:date|option)|term ends"), _LEASE, future=True),
    Trigger("loan drawn", "financing", "Loan drawn",
            _w(r"drawn(?: down)?|borrowed|raised|issued|funded|entered into|signed|"
               r"arranged|granted|obtained"), _LOAN),
    Trigger("loan matures", "financing", "Loan matures",
            _w(r"matur\w*|repayable|due|until|expir\w*|runs? until|running until|"
               r"final repayment|bullet"), _LOAN, future=True),
    Trigger("covenant test", "financing", "Covenant test",
            _w(r"test(?:ed|ing)?(?: date)?|covenant (?:test|compliance) (?:date|on)"),
            _w(r"covenants?"), future=True),
    Trigger("claim filed", "litigation", "Claim filed",
            _w(r"filed|brought|commenced|lodged|served|initiated|issued|raised|submitted"),
            _LITIGATION),
    Trigger("hearing", "litigation", "Hearing",
            _w(r"(?:oral |court |first |final |main )?hearings?|trial|oral proceedings|"
               r"mündliche verhandlung"), None, future=True),
    Trigger("judgment", "litigation", "Judgment or settlement",
            _w(r"judgment|judgement|ruled|ruling|decided|dismissed|awarded|settled|"
               r"settlement"), _LITIGATION),
    Trigger("contract signed", "contract", "Contract signed",
            _w(r"signed|entered into|concluded|executed|dated|awarded|started|commenced"),
            _AGREEMENT),
    Trigger("contract renewed", "contract", "Contract renewed",
            _w(r"renewed|extended|prolonged|amended"), _AGREEMENT),
    Trigger("contract expires", "contract", "Contract expires",
            _w(r"expir\w*|until|ends?|ending|runs? (?:to|until)|running (?:to|until)|"
               r"valid (?:to|until)|term ends|renewal date|terminable"),
            _AGREEMENT, future=True),
    Trigger("contract terminated", "contract", "Contract terminated",
            _w(r"terminated|cancelled|canceled|rescinded"), _AGREEMENT),
    Trigger("joined", "management", "Joined",
            _w(r"joined|hired|recruited|started (?:at|with)|eingetreten"), _PEOPLE),
    Trigger("appointed", "management", "Appointed",
            _w(r"appointed|became|promoted|named|elected|took over as|assumed the role"),
            _PEOPLE),
    Trigger("left", "management", "Left",
            _w(r"left|resigned|departed|stepped down|retired|retires|will leave|"
               r"leaving|dismissed|notice"), _PEOPLE, future=True),
    Trigger("board decision", "board", "Board decision",
            _w(r"approved|resolved|decided|agreed|adopted|ratified"), _BOARD),
    Trigger("audit opinion", "report", "Audit opinion issued",
            _w(r"opinion|audit report|auditor['’]s report|signed|issued"),
            _w(r"audit\w*|opinion|Wirtschaftsprüfer|accountants")),
    Trigger("period ended", "report", "Reporting period ended",
            _w(r"(?:quarter|year|period|half[- ]year|six months|nine months|three months|"
               r"twelve months|financial year|fiscal year)\s+end(?:ed|ing)"), None,
            spans=("day", "month")),
    Trigger("forecast period", "forecast", "Forecast covers",
            _w(r"forecast|budget|plan|projections?|outlook|targets?"), None,
            spans=("half", "year")),
)

DOCUMENT_DATED = Trigger("document dated", "document", "Document dated", _w(r"dated?"))
"""A document's own date (from its metadata or first page), not found by scanning sentences."""
CORRECTION_ISSUED = Trigger("correction", "report", "Correction issued", _w(r"correct\w*"))
"""A newer version or a stated correction replacing another document (from SUPERSEDES)."""

_COURT = re.compile(
    r"(?:(?:Higher\s+)?(?:Regional|District|High|Supreme|Federal|Labour|Labor|Commercial|"
    r"County|Crown|Appeals?|Circuit)\s+Court(?:\s+of(?:\s+Justice)?)?(?:\s+(?:of\s+)?"
    r"[A-Z][\w\-]+){0,2}|Court\s+of\s+[A-Z][\w\-]+(?:\s+[A-Z][\w\-]+)?|"
    r"(?:Landgericht|Amtsgericht|Oberlandesgericht|Arbeitsgericht)\s+[A-ZÄÖÜ][\wäöüß\-]+"
    r"(?:\s+[IVX]+)?|ICC|LCIA|DIS)")
_NAMED = r"[A-Z][\w&'’.\-]*(?:\s+(?:[A-Z][\w&'’.\-]*|&|of|and))*"
_PARTY = re.compile(rf"(?<![\w])(?:with|from|against|by|to|between)\s+(?P<n>{_NAMED})")
_BEFORE_PAREN = re.compile(rf"(?P<n>{_NAMED})\s*\((?:[^)]*?)$")
_OBJECT = re.compile(
    r"((?:[\w\-]+\s){0,3}?(?:agreements?|contracts?|lease|loan|facility|licen[cs]e|bond|notes|"
    r"claim|lawsuit|arbitration|budget|forecast|opinion|minutes))(?![\w])", _I)
_NOT_ACTORS = {
    "the", "this", "that", "term", "contract", "agreement", "date", "status", "role", "joined",
    "change", "control", "financial", "covenant", "note", "notes", "board", "quarter", "revenue",
    "q1", "q2", "q3", "q4", "fy", "eur", "usd", "gbp", "chf", "total", "yes", "no", "n/a",
    "interest", "euribor", "sonia", "sofr", "libor", "subscription", "master",
}
_COC = re.compile(r"change[\s-]+(?:of|in)[\s-]+control|Kontrollwechsel", _I)
_NO_COC = re.compile(r"(?<![\w])(?:no|without|not?\s+contain\w*|none)\b[^.]{0,40}"
                     r"(?:change[\s-]+(?:of|in)[\s-]+control)|"
                     r"change[\s-]+of[\s-]+control:\s*(?:no|n/?a|none|-)(?![\w])",
                     _I)


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
        for m in _COURT.finditer(text):
            found.append(m.group(0))
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
    sentence: str, offset: int, mention: DateMention, previous_end: int, context: str
) -> tuple[Trigger, int, int] | None:
    """The trigger nearest the date: before it in its clause, or just after a leading date."""
    local_start, local_end = mention.start - offset, mention.end - offset
    best: tuple[int, int, Trigger, int, int] | None = None
    for order, trigger in enumerate(TRIGGERS):
        if mention.span.precision not in trigger.spans:
            continue
        if trigger.context is not None and not trigger.context.search(context):
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
    tail = sentence[t_end:]
    stop = re.search(r"\s+(?:in|on|at|for|by|of)\s*$", sentence[t_end:date_start])
    if date_start > t_end:
        tail = sentence[t_end:date_start - (len(stop.group(0)) if stop else 0)]
    words = tail.strip(" ,.;:").split()
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


def events_in_text(
    text: str, *, context_year: int | None = None, year_end: tuple[int, int] = (12, 31),
    heading: str = "",
) -> list[EventCandidate]:
    """Every dated event stated in `text` (one passage), in reading order."""
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
            picked = _pick_trigger(sentence, s, absolute, previous_end, context)
            window = text[previous_end:absolute.end]
            previous_end = absolute.end
            if picked is None:
                continue
            trigger, t_start, t_end = picked
            actors = _actors(window, sentence)
            if trigger.category == "litigation":
                actors += [c.group(0) for c in _COURT.finditer(sentence)
                           if c.group(0) not in actors]
            if not actors and trigger.category in _CARRIES_ACTORS:
                actors = _actors(earlier, earlier) if earlier else []  # "The hearing is …"
            objects = [m.group(1) for m in _OBJECT.finditer(window)] or [
                m.group(1) for m in _OBJECT.finditer(sentence)]
            obj = " ".join(max(objects, key=lambda o: len(o.split())).split()).lower() \
                if objects else ""
            if trigger.category == "board":
                obj = _what(sentence, t_end - s, absolute.start - s)
            roles = [r for r, _, _ in find_roles(window or sentence)]
            following = " ".join(text[fs:fe] for fs, fe in sentences[index:index + 3])
            coc = (trigger.category in {"contract", "financing", "lease"}
                   and bool(_COC.search(following)) and not _NO_COC.search(sentence))
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
    return out
