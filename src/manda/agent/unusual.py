"""Unusual items a due-diligence review must surface: one-time charges, litigation, concentration,
change of control, covenants, and text in a document that tries to instruct an assistant.

Each item is one sentence as the document states it, with its exact place, chosen from what the
retrieval returned; nothing is inferred beyond what a document says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from manda.agent.evidence import Evidence, Source
from manda.finance.amounts import find_amounts
from manda.finance.covenants import CovenantLevel, levels_stated, stated_result
from manda.finance.figures import ends_in_figure, figure_row, joined_signs
from manda.injection import looks_like_instruction
from manda.vocabulary import Topic, topics, vocabulary

# Every topic a red flag can come from (`manda.vocabulary`: its `stated` and `prefer` words).
TOPICS: tuple[Topic, ...] = tuple(sorted((t for t in topics() if t.is_red_flag),
                                          key=lambda t: t.severity or 0))
_NEGATIVE = vocabulary().cues("negation")

# A day written with a dot ("bis 31. Dezember 2024", `day_dot_months`) ends no sentence.
# A page extracted from a PDF may lose the space after a full stop ("… term loan and notes.Other
# Information", "by the end of 2030.We believe"): a stop glued between a lowercase word or a
# number and a capitalised word ends a sentence too (an initialism's dots, "U.S.", and a file's
# name, "report.pdf", do not).
_SENTENCE = re.compile(rf"(?<=[.!?])(?!(?<=\d\.)\s+(?i:{vocabulary().cues('day_dot_months').slot}))"
                       r"\s+(?=[A-Z0-9\"“(])|(?<=[a-z0-9]{2}[.!?])(?=[A-Z][a-z])|\n+")
# "Mirasol, S.A. (22,4 %", "l'article L. 233-3": a dot after an abbreviation ends no sentence
_ABBREVIATIONS = vocabulary().words("abbreviations")
_MAX = 260
JOINED_QUOTE = 2 * _MAX  # sentences read as one are quoted whole, as `sentences` joins them
_CUT_WORDS = 4  # the most words a line broken off its sentence's start may hold
# a word no sentence ends on ("We define Active Riders as" / "all riders who …"): a line that
# ends on it runs on into the next, however short
_RUNS_ON = vocabulary().words("runs_on_words")


@dataclass(frozen=True)
class UnusualItem:
    topic: Topic
    statement: str
    source: Source


_PRONOUN_START = vocabulary().cues("points_back")  # "It was filed …", "Cette réclamation …"


_CHUNK_HEAD = re.compile(r"^\[[^\]\n]*\]\s*\n")


def body(text: str) -> str:
    """A passage without the `[file location]` line the chunker puts in front of it, its
    figures' currency signs joined to them ("$ (1,009,359)" reads as one figure)."""
    return joined_signs(_CHUNK_HEAD.sub("", text, count=1))


_LIST_START = re.compile(r"^\s*(?:[-•*#|]|\d+[.)]\s)")


def unwrap(text: str) -> str:
    """Join prose lines a text file wrapped mid-sentence; keep short lines (slides, lists) and a
    table's rows ("Money market funds $29,046 $— $29,046"), which no sentence runs through."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        prev = out[-1] if out else ""
        if ((len(prev) >= 50 or _cut_word(prev, line) or _runs_on(prev, line))
                and prev.rstrip()[-1:] not in ".!?:;|"
                and line.strip() and not _LIST_START.match(line) and "|" not in prev
                and not _table_break(prev, line)):
            out[-1] = f"{prev.rstrip()} {line.strip()}"
        else:
            out.append(line)
    return "\n".join(out)


def _cut_word(prev: str, line: str) -> bool:
    """A word or a few left alone on their line, the sentence going on in lowercase on the next
    ("Net" / "cash used in operating activities was …", "Other income, net" / "increased $92.3
    million …"), as a PDF's text layer may break a line: a subject is no heading where its verb
    follows in lowercase."""
    words = prev.split()
    return 0 < len(words) <= _CUT_WORDS and words[-1][-1:].isalpha() and \
        not any(c.isdigit() for c in prev) and line.strip()[:1].islower()


def _runs_on(prev: str, line: str) -> bool:
    """A line that ends on a word no sentence ends on ("as", "of", "the"), the next going on in
    lowercase: one sentence the text layer (or a passage's cut) broke."""
    words = prev.split()
    return bool(words) and words[-1].lower() in _RUNS_ON and line.strip()[:1].islower()


def _table_break(prev: str, line: str) -> bool:
    """A row of figures on either side, or a total's figure before a line that starts anew."""
    if figure_row(prev) or figure_row(line):
        return True
    return ends_in_figure(prev) and line.strip()[:1].isupper()


def _split(text: str) -> list[str]:
    """The text cut at each sentence break but one after an abbreviation on the same line."""
    parts: list[str] = []
    cut = 0
    for m in _SENTENCE.finditer(text):
        before = text[cut : m.start()].split()
        last = before[-1].lstrip("([\"“«'").lower() if before else ""
        if "\n" not in m.group(0) and last.endswith(".") and last[:-1] in _ABBREVIATIONS:
            continue
        parts.append(text[cut : m.start()])
        cut = m.end()
    return [*parts, text[cut:]]


def sentences(text: str) -> list[str]:
    """Sentences of a passage; one that starts with "It …" keeps the sentence it refers to."""
    out: list[str] = []
    for part in _split(unwrap(body(text))):
        part = part.strip(" -•*\t")
        if not part:
            continue
        if out and _PRONOUN_START.begins(part) and len(out[-1]) + len(part) < 2 * _MAX:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def joined_sentences(sentence: str) -> bool:
    """`sentence` is two or more that `sentences` read as one (the second points back)."""
    return len([p for p in _split(sentence) if p.strip()]) > 1


def first_sentence(sentence: str) -> str:
    """The first of the sentences `sentences` read as one: the one the others point back at,
    which states what the whole speaks of ("There was $4.1 billion of unrecognized cost." of
    "… This compensation is expected to be expensed …")."""
    return next((p for p in _split(sentence) if p.strip()), sentence)


def pointing_parts(sentence: str) -> list[tuple[str, str]]:
    """The parts of a sentence `sentences` kept with the one it points back at that state a
    figure of their own ("… net income was $15.00 billion. This included a one-time tax
    benefit of $5.93 billion …"), each with the text before it: a figure asked of the later
    part is stated there, the earlier part saying what it speaks of."""
    parts = [p.strip() for p in _split(sentence)]
    return [(part, " ".join(parts[:i])) for i, part in enumerate(parts)
            if i and _PRONOUN_START.begins(part) and find_amounts(part)]


def trim(sentence: str, limit: int = _MAX) -> str:
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0]
    for amount in find_amounts(sentence):
        if amount.start < len(cut) < amount.end:
            # "$1.4 …" would state another figure than "$1.4 billion": the cut keeps it whole
            cut = sentence[:amount.end]
    return cut.rstrip(",;:") + " …"


def _score(topic: Topic, sentence: str) -> int:
    score = 3 if topic.stated.search(sentence) else 0  # says it in the topic's own words
    if find_amounts(sentence):
        score += 2
    if topic.prefer.search(sentence):
        score += 1
    if "|" in sentence:  # a table row reads badly as a statement
        score -= 3
    if sentence[:1].islower() or len(sentence) < 30:  # a fragment
        score -= 2
    return score


EVERY_AT_MOST = 4  # statements of one topic a question about it is given


def scan(evidence: Evidence, *, about: str | None = None, every: bool = False
         ) -> list[UnusualItem]:
    """At most one item per topic, the best-stated one, from findings' excerpts and passages;
    with `about`, only statements that name it. With `every` (a question about the topic), each
    statement that says it in the topic's own words, best first: a change of control in a
    customer contract and another in the loan are two answers, not one."""
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
    meant = evidence.topics_by_meaning
    for topic in TOPICS:
        if about is None and topic.key == CONCENTRATION and (
                stated := _concentration(evidence)) is not None:
            items.append(UnusualItem(topic, *stated))
            continue
        if about is None and topic.key == COVENANTS and (
                stated := _covenant_headroom(evidence)) is not None:
            items.append(UnusualItem(topic, *stated))
            continue
        matching = [
            (s, src) for s, src in candidates
            if (topic.stated.search(s)
                or (under_topic(topic, src.heading_path)
                    and (topic.prefer.search(s) or (topic.amount_leads and find_amounts(s))))
                or (topic.key in meant.get(src.chunk_id or "", ()) and topic.prefer.search(s)))
            and not _NEGATIVE.search(s) and not looks_like_instruction(s)
            and not _heading(s) and (about is None or about in s.lower())
        ]
        if not matching:
            continue
        ranked = sorted(enumerate(matching), key=lambda item: (
            -_score(topic, item[1][0]), abs(len(item[1][0]) - 160), item[0]))
        sentence, source = ranked[0][1]
        items.append(UnusualItem(topic, trim(sentence), source))
        if every:
            items += _others(topic, [m for _, m in ranked[1:]], sentence)
    return items


def _others(topic: Topic, ranked: Sequence[tuple[str, Source]], first: str
            ) -> list[UnusualItem]:
    """The statements after the best one that also say the topic in its own words, each once."""
    seen = {" ".join(first.lower().split())}
    out: list[UnusualItem] = []
    for sentence, source in ranked:
        key = " ".join(sentence.lower().split())
        if key in seen or not topic.stated.search(sentence) or _score(topic, sentence) < 3:
            continue
        seen.add(key)
        out.append(UnusualItem(topic, trim(sentence), source))
        if len(out) + 1 >= EVERY_AT_MOST:
            break
    return out


def under_topic(topic: Topic, heading_path: Sequence[str]) -> bool:
    """A passage standing under a heading that names the topic ("Litigation", "Litiges",
    "Data protection"): what it says is about the topic, whatever its own words."""
    trail = " › ".join(heading_path)
    return bool(trail) and (topic.asked.found(trail) or topic.terms.found(trail))


def _heading(sentence: str) -> bool:
    """"Litigation" or "3. Litigation" alone is where an item is, not what it says."""
    return len(sentence) < 30 and not find_amounts(sentence) and not sentence.rstrip().endswith(".")


CONCENTRATION = "customer_concentration"  # its flag is the largest share among its findings


def led_by_findings() -> tuple[str, ...]:
    """The finding subjects a red flag is read from (the largest customer's share): the scan
    needs all of them, not only those the searches happened to bring."""
    return next((t.subjects for t in TOPICS if t.key == CONCENTRATION), ())


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


COVENANTS = "covenants"  # its flag is the covenant with the least headroom a test result shows


def _covenant_headroom(evidence: Evidence) -> tuple[str, Source] | None:
    """The tested covenant closest to its limit: the level in force (a stepped level's later
    one) against the latest stated result, with the headroom computed; None when no result is
    stated for a covenant the passages set."""
    said = [(s, evidence.hit_source(hit)) for hit in evidence.hits for s in sentences(hit.text)]
    levels: dict[str, tuple[CovenantLevel, Source]] = {}
    for sentence, source in said:
        if "|" not in sentence and not looks_like_instruction(sentence):
            for level in levels_stated(sentence):
                levels.setdefault(level.key, (level, source))
    closest: tuple[float, str, Source] | None = None
    for level, _ in levels.values():
        result = next(((v, src) for s, src in said
                       if (v := stated_result(s, level)) is not None), None)
        if result is None or not level.level:
            continue
        value, source = result
        room = value - level.level if level.minimum else level.level - value
        bound = "minimum" if level.minimum else "maximum"
        text = (f"{level.name}: {value:g}x against a {bound} of {level.level:g}x, headroom "
                f"{room:.2f}x ({abs(room) / level.level * 100:.0f}% of the limit, computed)")
        if closest is None or room / level.level < closest[0]:
            closest = (room / level.level, text, source)
    return (closest[1], closest[2]) if closest is not None else None


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
