"""Unusual items a due-diligence review must surface: one-time charges, litigation, concentration,
change of control, covenants, and text in a document that tries to instruct an assistant.

Each item is one sentence as the document states it, with its exact place, chosen from what the
retrieval returned; nothing is inferred beyond what a document says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manda.agent.evidence import Evidence, Source
from manda.finance.amounts import find_amounts
from manda.injection import looks_like_instruction


@dataclass(frozen=True)
class Topic:
    key: str
    label: str
    cue: re.Pattern[str]
    prefer: re.Pattern[str]  # wording that makes a sentence the better statement of the item
    query: str  # what the due-diligence plan searches for
    category: str  # Q&A category
    question: str
    asked: re.Pattern[str]  # how a question names the topic


_F = re.IGNORECASE
TOPICS: tuple[Topic, ...] = (
    Topic("one_time", "One-time charge",
          re.compile(r"\bone[\s-]time\b|\bnon[\s-]recurring\b|\brestructuring charge\b|"
                     r"\bexceptional (?:item|cost|charge)s?\b", _F),
          re.compile(r"\bcharge of\b|\brestructuring\b", _F),
          "one-time non-recurring restructuring charge", "Financial",
          "Please detail all one-time and non-recurring items of the last three years.",
          re.compile(r"\bone[\s-]?(?:time|off)\b|\bnon[\s-]recurring\b|\brestructuring\b|"
                     r"\bexceptional\b|\bextraordinary\b", _F)),
    Topic("litigation", "Litigation",
          re.compile(r"\blitigation\b|\bclaim against\b|\bfiled a claim\b|\blawsuit\b|"
                     r"\bseeks damages\b|\bdamages of\b|\bcourt\b", _F),
          re.compile(r"\bdamages\b|\bclaim\b", _F),
          "pending litigation claim court damages", "Legal",
          "Please provide the status, amount claimed and provisioning of all pending litigation.",
          re.compile(r"\blitigation\b|\blawsuits?\b|\bclaims?\b|\bsued\b|\bcourt\b|"
                     r"\bdisputes?\b|\blegal proceedings\b", _F)),
    Topic("concentration", "Customer concentration",
          re.compile(r"\b\d+(?:\.\d+)?\s?%\s+of\s+(?:total\s+|group\s+)?revenue\b|"
                     r"\blargest customer\b|\bcustomer concentration\b|\baccounts for \d+", _F),
          re.compile(r"%", _F),
          "customer concentration largest customer share of revenue", "Commercial",
          "Please provide revenue by customer and the contract terms of the largest customers.",
          re.compile(r"\bconcentration\b|\b(?:largest|biggest|top|main|key) customers?\b|"
                     r"\bdependen\w*\b", _F)),
    Topic("change_of_control", "Change of control",
          re.compile(r"\bchange[\s-]of[\s-]control\b|\bkontrollwechsel\w*\b", _F),
          re.compile(r"\bmay terminate\b|\bterminat|\bkündig", _F),
          "change of control clause termination", "Legal",
          "Please list every contract with a change-of-control clause and its consequences.",
          re.compile(r"\bchange[\s-]of[\s-]control\b|\bcoc\b|\bkontrollwechsel\w*\b", _F)),
    Topic("covenant", "Covenant",
          re.compile(r"\bcovenants?\b", _F),
          re.compile(r"\bmust not exceed\b|\b\d+(?:\.\d+)?x\b", _F),
          "financial covenant leverage net debt EBITDA", "Financial",
          "Please provide the covenant compliance certificates for the last four test dates.",
          re.compile(r"\bcovenants?\b", _F)),
    Topic("key_person", "Key-person dependency",
          re.compile(r"\bkey[\s-](?:person|man|people|individuals?)\b|\bsuccession\b|"
                     r"\bsingle point of failure\b|\b(?:depend\w*|reliant|relies|reliance) "
                     r"(?:heavily |largely |entirely )?(?:up)?on (?:the |its |our |a few |one )?"
                     r"(?:founders?|ceo|chief \w+ officer|managing director|owners?|"
                     r"individuals?|personal relationships?|key (?:staff|employees|managers?))\b|"
                     r"\bpersonal relationships?\b", _F),
          re.compile(r"\bfounder\b|\bceo\b|\brelationships?\b|\bleav\w+|\bno (?:successor|"
                     r"deputy)\b", _F),
          "key person dependency founder relationships succession retention", "HR",
          "Which customer relationships and know-how depend on individual managers, and what "
          "succession, retention and non-compete arrangements exist?",
          re.compile(r"\bkey[\s-]?(?:person|man|people)\b|\bsuccession\b|\bdependen\w* on "
                     r"(?:the )?(?:founder|ceo|management|key|individuals?)\b|\bbus factor\b",
                     _F)),
)
_NEGATIVE = re.compile(r"\bcontains? no\b|\bno further\b|\bnone\b|^\s*no\b|\bnot expected\b", _F)
# A German day ends with a dot ("bis 31. Dezember 2024") and ends no sentence.
_SENTENCE = re.compile(
    r"(?<=[.!?])(?!(?<=\d\.)\s+(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|"
    r"September|Oktober|November|Dezember)\b)\s+(?=[A-Z0-9\"“(])|\n+")
_MAX = 260


@dataclass(frozen=True)
class UnusualItem:
    topic: Topic
    statement: str
    source: Source


_PRONOUN_START = re.compile(r"^(?:it|this|they|these|such|the claim|the agreement)\b",
                            re.IGNORECASE)


_CHUNK_HEAD = re.compile(r"^\[[^\]\n]*\]\s*\n")


def body(text: str) -> str:
    """A passage without the `[file location]` line the chunker puts in front of it."""
    return _CHUNK_HEAD.sub("", text, count=1)


_LIST_START = re.compile(r"^\s*(?:[-•*#|]|\d+[.)]\s)")


def unwrap(text: str) -> str:
    """Join prose lines a text file wrapped mid-sentence; keep short lines (slides, lists)."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        prev = out[-1] if out else ""
        if (len(prev) >= 50 and prev.rstrip()[-1:] not in ".!?:;|" and line.strip()
                and not _LIST_START.match(line) and "|" not in prev):
            out[-1] = f"{prev.rstrip()} {line.strip()}"
        else:
            out.append(line)
    return "\n".join(out)


def sentences(text: str) -> list[str]:
    """Sentences of a passage; one that starts with "It …" keeps the sentence it refers to."""
    out: list[str] = []
    for part in _SENTENCE.split(unwrap(body(text))):
        part = part.strip(" -•*\t")
        if not part:
            continue
        if out and _PRONOUN_START.match(part) and len(out[-1]) + len(part) < 2 * _MAX:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def trim(sentence: str, limit: int = _MAX) -> str:
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


def _score(topic: Topic, sentence: str) -> int:
    score = 0
    if find_amounts(sentence):
        score += 2
    if topic.prefer.search(sentence):
        score += 1
    if "|" in sentence:  # a table row reads badly as a statement
        score -= 3
    if sentence[:1].islower() or len(sentence) < 30:  # a fragment
        score -= 2
    return score


def scan(evidence: Evidence, *, about: str | None = None) -> list[UnusualItem]:
    """At most one item per topic, the best-stated one, from findings' excerpts and passages;
    with `about`, only statements that name it."""
    candidates: list[tuple[str, Source]] = []  # passages first: ties go to complete sentences
    for hit in evidence.hits:
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:  # a request is not evidence
            continue
        source = evidence.hit_source(hit)
        candidates += [(s, source) for s in sentences(hit.text)]
    for finding in evidence.usable_findings():  # excerpts can be windows: passages come first
        source = evidence.finding_source(finding)
        candidates += [(s, source) for s in sentences(finding.excerpt)]
    items: list[UnusualItem] = []
    for topic in TOPICS:
        if about is None and topic.key == "concentration" and (
                stated := _concentration(evidence)) is not None:
            items.append(UnusualItem(topic, *stated))
            continue
        matching = [
            (s, src) for s, src in candidates
            if topic.cue.search(s) and not _NEGATIVE.search(s) and not looks_like_instruction(s)
            and not _heading(s) and (about is None or about in s.lower())
        ]
        if not matching:
            continue
        ranked = sorted(enumerate(matching), key=lambda item: (
            -_score(topic, item[1][0]), abs(len(item[1][0]) - 160), item[0]))
        sentence, source = ranked[0][1]
        items.append(UnusualItem(topic, trim(sentence), source))
    return items


def _heading(sentence: str) -> bool:
    """"Litigation" or "3. Litigation" alone is where an item is, not what it says."""
    return len(sentence) < 30 and not find_amounts(sentence) and not sentence.rstrip().endswith(".")


def _concentration(evidence: Evidence) -> tuple[str, Source] | None:
    """The largest customer's share of revenue, from the extracted values."""
    from manda.agent.selection import best_of, findings_for, show

    shares = [f for f in findings_for(evidence, "customer concentration")
              if f.value is not None and f.unit == "%" and f.entity]
    if not shares:
        return None
    top = max(f.value or 0.0 for f in shares)
    largest = best_of([f for f in shares if f.value == top], evidence)
    return (f"{largest.entity} accounts for {show(largest)} of revenue, the largest customer",
            evidence.finding_source(largest))


@dataclass(frozen=True)
class InstructionFound:
    source: Source
    sentence: str


def instructions_in(evidence: Evidence) -> list[InstructionFound]:
    """Passages that address an assistant: reported as an oddity of the room, never followed."""
    found: list[InstructionFound] = []
    seen: set[tuple[str, str]] = set()
    for hit in evidence.hits:
        for sentence in sentences(hit.text):
            if looks_like_instruction(sentence):
                source = evidence.hit_source(hit)
                if source.key not in seen:
                    seen.add(source.key)
                    found.append(InstructionFound(source, trim(sentence, 160)))
    return found
