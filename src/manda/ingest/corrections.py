"""Corrections a document states in its own words: "This version corrects the FY2023 EBITDA stated
in the annual report of 12 March 2024", "Restated", "replaces the draft dated 3 May".

File names carry version markers only sometimes (`_v2`, `_CORRECTED`); when they do not, the text
still says which document it replaces. A statement keeps its sentence and location, so the
SUPERSEDES relation it creates can say why, with a citation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.finance.dates import DateMention, find_date_mentions
from manda.ingest.extract.excerpts import sentence_spans
from manda.ingest.versions import version_info
from manda.models import CorrectionStatement, Document, Location, ParsedDocument
from manda.vocabulary import vocabulary

__all__ = ["find_correction_statements", "resolve_correction_target"]

_WORDS = vocabulary()
_VERB = _WORDS.cues("correction_verb")  # "corrects", "restated", "annule et remplace"
# A document named before the verb: "das in der BWA März 2025 ausgewiesene EBITDA … ist zu
# korrigieren", "l'EBE du reporting de mars est corrigé".
_VERB_LAST = _WORDS.cues("correction_verb_last")
# "the Q4 trading update circulated on 12 April 2024 overstated revenue": the document that was
# wrong is named before the verb that says so.
_MISSTATED = _WORDS.cues("misstated")
_DOCUMENT = _WORDS.cues("correction_document")
_OUTLOOK = _WORDS.cues("outlook_document")
_DEFINITE = _WORDS.cues("definite_article")
_NOT_ABOUT_A_DOCUMENT = _WORDS.cues("not_a_document")
_SELF = _WORDS.cues("self_reference")
_STOP = _WORDS.words("reference_stop_words")
_WINDOW = 90
# the wrong figure a correction replaces, named: "not the 79.0%", "instead of EUR 4.1m"
_WRONG_FIGURE = _WORDS.cues("superseded_before").around(tail=r"\s+[(]?[-−]?[$€£]?\s?\d")
_NAMED_WITHIN = 4  # "the Q4 trading update": a definite article at most three words before
# "the corrected annual report": the participle names a document, it does not correct one; and a
# sentence that agrees with a document confirms it.
_ARTICLE = _WORDS.cues("article")
_AGREES = _WORDS.cues("agrees")
_WORD = re.compile(r"[^\W\d_]{3,}|\d{4}")


def _target_words(text: str) -> list[str]:
    """The words that may name a document: a year, or a word of three letters or more."""
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


_ADJECTIVE_OF = 3  # "the corrected annual report": a document word within three words of the verb


def _adjectival(before: str, after: str) -> bool:
    """An article right before the verb and a document word right after it: "the corrected
    report" names a corrected document. "The corrected gross margin is 77.4%, not the 79.0% of
    the board deck" corrects a figure of another document."""
    words = before.split()
    if not (words and _ARTICLE.fullmatch(words[-1])):
        return False
    return _DOCUMENT.search(" ".join(after.split()[:_ADJECTIVE_OF])) is not None


def _named(before: str) -> bool:
    """A definite article among the last words before a document word: "the Q4 trading"."""
    return any(_DEFINITE.fullmatch(w) for w in before.split()[-_NAMED_WITHIN:])


def find_correction_statements(parsed: ParsedDocument) -> list[CorrectionStatement]:
    """Sentences in which a document says it corrects, restates or replaces another document."""
    found: list[CorrectionStatement] = []
    context_year = parsed.doc_date.year if parsed.doc_date else None
    for section in parsed.sections:
        text = section.text
        for s, e in sentence_spans(text):
            sentence = " ".join(text[s:e].split())
            verb = _VERB.search(sentence)
            if verb is None and (stated := _misstated(sentence, section.location,
                                                       context_year)) is not None:
                found.append(stated)
                break
            if verb is None and (stated := _verb_last(sentence, section.location)) is not None:
                found.append(stated)
                break
            if verb is None or len(sentence) > 400:
                continue
            if _adjectival(sentence[:verb.start()], sentence[verb.end():]) or _AGREES.search(
                    sentence[:verb.start()]):
                continue
            after = sentence[verb.end():verb.end() + _WINDOW]
            target = _DOCUMENT.search(after)
            if target is None and _WRONG_FIGURE.search(sentence[verb.end():]):
                # "… is 77.4% (gross profit of …), not the 79.0% shown in the board deck of 20
                # February": a sentence that names the wrong figure names its document after it
                after = sentence[verb.end():]
                target = _DOCUMENT.search(after)
            if target is None or _NOT_ABOUT_A_DOCUMENT.search(after[:target.start()]):
                continue
            if _SELF.search(after[:target.end()]) and not _SELF.search(sentence[:verb.start()]):
                continue  # "restated in this report" points at itself, not at another document
            # The replaced document's own date: a day or month after the document word ("the
            # annual report of 12 March 2024"); a period ("FY2023") is what it was about.
            dates = _own_dates(after, target.start(), context_year)
            words = _target_words(after)
            found.append(CorrectionStatement(
                sentence=sentence[:300], location=section.location,
                target_start=dates[0].span.start if dates else None,
                target_end=dates[0].span.end if dates else None,
                target_words=words[:12],
            ))
            break  # one statement per section is enough to name what it replaces
    return found


_YEAR = re.compile(r"\d{2,4}")


def _own_dates(text: str, start: int, context_year: int | None) -> list[DateMention]:
    """The dates after a document word that may be its own: a day first ("le reporting de mars
    2025 diffusé le 14/04/2025" was issued on the 14th, about March), else a month with its year
    (a month alone, "el informe mensual de diciembre", is the period it reports)."""
    dates = [m for m in find_date_mentions(text, context_year=context_year)
             if m.start >= start and (m.span.precision == "day" or (
                 m.span.precision == "month" and _YEAR.search(text, m.start, m.end)))]
    return sorted(dates, key=lambda m: m.span.precision != "day")


def _misstated(sentence: str, location: Location, context_year: int | None
               ) -> CorrectionStatement | None:
    """"The trading update of 12 April 2024 overstated revenue": a named earlier document said
    to be wrong, which makes the sentence's document its correction."""
    verb = _MISSTATED.search(sentence)
    if verb is None or len(sentence) > 400:
        return None
    before = sentence[max(0, verb.start() - _WINDOW):verb.start()]
    targets = list(_DOCUMENT.finditer(before))
    if not targets:
        return None
    target = targets[0]
    if (not _named(before[:target.start()]) or _NOT_ABOUT_A_DOCUMENT.search(
            before[target.end():]) or _SELF.search(before) or _OUTLOOK.fullmatch(target.group(0))):
        return None  # a budget that "overstated growth" was optimistic, not corrected
    dates = _own_dates(before, target.start(), context_year)
    if not dates:
        return None  # only a dated document is named precisely enough to be superseded
    words = _target_words(before)
    return CorrectionStatement(
        sentence=sentence[:300], location=location,
        target_start=dates[0].span.start if dates else None,
        target_end=dates[0].span.end if dates else None, target_words=words[-12:])


def _verb_last(sentence: str, location: Location) -> CorrectionStatement | None:
    """"Das in der BWA März 2025 ausgewiesene EBITDA … ist zu korrigieren": a document named
    before a verb that says its figure is corrected. Named by its words only: the month
    beside it ("BWA März 2025") is the period it reports, not the day it was issued."""
    verb = _VERB_LAST.search(sentence)
    if verb is None or len(sentence) > 400:
        return None
    before = sentence[max(0, verb.start() - 2 * _WINDOW):verb.start()]
    target = _DOCUMENT.search(before)
    if target is None or _SELF.search(before) or _OUTLOOK.fullmatch(target.group(0)):
        return None
    words = _target_words(before[target.start():])
    return CorrectionStatement(sentence=sentence[:300], location=location, target_start=None,
                               target_end=None, target_words=words[:12])


def _words(document: Document) -> set[str]:
    family = version_info(document.filename).family
    return {w for w in re.split(r"[_\W]+", family.lower()) if len(w) >= 3 or w.isdigit()}


def resolve_correction_target(
    statement: CorrectionStatement, document: Document, others: Sequence[Document]
) -> Document | None:
    """The one older document a statement refers to: by its date, else by its name, or None.

    A date in the statement must match the target's own date; without a date the words of the
    statement must name the target better than any other document. Ambiguity gives no target:
    a wrong SUPERSEDES would hide a real figure, which is worse than a missing one.
    """
    scored: list[tuple[float, Document]] = []
    for other in others:
        if other.id == document.id:
            continue
        if document.doc_date and other.doc_date and other.doc_date > document.doc_date:
            continue
        overlap = len(_words(other) & set(statement.target_words))
        score = float(overlap)
        if statement.target_start is not None:
            if other.doc_date is None or not (
                statement.target_start <= other.doc_date <= (statement.target_end
                                                              or statement.target_start)):
                continue
            score += 3.0
        elif overlap == 0:
            continue
        scored.append((score, other))
    if not scored:
        return None
    scored.sort(key=lambda pair: (-pair[0], pair[1].filename))
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]
