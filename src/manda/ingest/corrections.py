"""Corrections a document states in its own words: "This version corrects the FY2023 EBITDA stated
in the annual report of 12 March 2024", "Restated", "replaces the draft dated 3 May".

File names carry version markers only sometimes (`_v2`, `_CORRECTED`); when they do not, the text
still says which document it replaces. A statement keeps its sentence and location, so the
SUPERSEDES relation it creates can say why, with a citation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.finance.dates import find_date_mentions
from manda.ingest.extract.excerpts import sentence_spans
from manda.ingest.versions import version_info
from manda.models import CorrectionStatement, Document, Location, ParsedDocument

__all__ = ["find_correction_statements", "resolve_correction_target"]

_I = re.IGNORECASE
_VERB = re.compile(
    r"(?<![\w])(?:correct(?:s|ed|ing)?|correction\s+(?:of|to)|restat(?:es|ed|ing|ement\s+of)|"
    r"replac(?:es|ed|ing)|supersed(?:es|ed|ing)|amend(?:s|ed|ing)|revis(?:es|ed|ion\s+of|ing)|"
    r"updat(?:es|ed|ing)|berichtigt|ersetzt)(?![\w])", _I)
_DOCUMENT = re.compile(
    r"(?<![\w])(?:report|accounts|financial\s+statements|statements|version|draft|edition|"
    r"forecast|budget|plan|presentation|deck|memorandum|memo|document|schedule|model|"
    r"filing|release|letter|minutes|summary|cim|teaser|update|jahresabschluss|bericht|bwa|"
    r"auswertung|monatsbericht|quartalsbericht|hochrechnung|präsentation)s?(?![\w])",
    _I)
# German puts the verb last: "das in der BWA März 2025 ausgewiesene EBITDA … ist zu korrigieren",
# "der im Monatsbericht genannte Umsatz wird berichtigt": the document is named before the verb.
_VERB_LAST = re.compile(
    r"(?<![\w])(?:ist|sind|wird|werden|wurde|wurden)\s+(?:hiermit\s+|daher\s+|damit\s+)?"
    r"(?:zu\s+korrigieren|zu\s+berichtigen|korrigiert|berichtigt)(?![\w])", _I)
# "the Q4 trading update circulated on 12 April 2024 overstated revenue": the document that was
# wrong is named before the verb that says so.
_MISSTATED = re.compile(r"(?<![\w])(?:overstated|understated|misstated|(?:was|were)\s+"
                        r"(?:wrong|incorrect|in\s+error))(?![\w])", _I)
_OUTLOOK = re.compile(r"(?:forecast|budget|plan)", _I)
_NAMED = re.compile(r"(?<![\w])(?:the|our|its)\s+(?:[\w\-]+\s+){0,3}?$", _I)
_NOT_ABOUT_A_DOCUMENT = re.compile(
    r"(?<![\w])(?:system|software|policy|process|machine|equipment|roof|server|erp|platform|"
    r"customer|supplier|employee|manager)s?(?![\w])", _I)
_SELF = re.compile(r"(?<![\w])(?:this|the\s+present|the\s+attached|our)\s+(?:version|"
                   r"document|report|edition|deck|presentation|forecast)(?![\w])", _I)
_STOP = {"the", "of", "and", "in", "on", "for", "to", "a", "an", "dated", "this", "that", "as",
         "stated", "version", "document", "which", "was", "were", "is", "are", "previously",
         "by", "with", "from", "its", "our", "all", "at", "issued", "published"}
_WINDOW = 90
# "the corrected annual report": the participle names a document, it does not correct one; and a
# sentence that agrees with a document confirms it.
_ADJECTIVAL = re.compile(r"(?:^|\s)(?:the|a|an|its|our|their|that|this)\s+$", _I)
_AGREES = re.compile(r"(?<![\w])(?:agrees?|agreed|consistent|in line|matches|reconciles?|"
                     r"ties? (?:out|to|with)|stimmt)(?![\w])", _I)


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
            if _ADJECTIVAL.search(sentence[:verb.start()]) or _AGREES.search(
                    sentence[:verb.start()]):
                continue
            after = sentence[verb.end():verb.end() + _WINDOW]
            target = _DOCUMENT.search(after)
            if target is None or _NOT_ABOUT_A_DOCUMENT.search(after[:target.start()]):
                continue
            if _SELF.search(after[:target.end()]) and not _SELF.search(sentence[:verb.start()]):
                continue  # "restated in this report" points at itself, not at another document
            # The replaced document's own date: a day or month after the document word ("the
            # annual report of 12 March 2024"); a period ("FY2023") is what it was about.
            dates = [m for m in find_date_mentions(after, context_year=context_year)
                     if m.span.precision in ("day", "month") and m.start >= target.start()]
            words = [w for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}|\d{4}", after.lower())
                     if w not in _STOP]
            found.append(CorrectionStatement(
                sentence=sentence[:300], location=section.location,
                target_start=dates[0].span.start if dates else None,
                target_end=dates[0].span.end if dates else None,
                target_words=words[:12],
            ))
            break  # one statement per section is enough to name what it replaces
    return found


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
    if (not _NAMED.search(before[:target.start()]) or _NOT_ABOUT_A_DOCUMENT.search(
            before[target.end():]) or _SELF.search(before) or _OUTLOOK.match(target.group(0))):
        return None  # a budget that "overstated growth" was optimistic, not corrected
    dates = [m for m in find_date_mentions(before, context_year=context_year)
             if m.span.precision in ("day", "month") and m.start >= target.start()]
    if not dates:
        return None  # only a dated document is named precisely enough to be superseded
    words = [w for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}|\d{4}", before.lower())
             if w not in _STOP]
    return CorrectionStatement(
        sentence=sentence[:300], location=location,
        target_start=dates[0].span.start if dates else None,
        target_end=dates[0].span.end if dates else None, target_words=words[-12:])


def _verb_last(sentence: str, location: Location) -> CorrectionStatement | None:
    """"Das in der BWA März 2025 ausgewiesene EBITDA … ist zu korrigieren": a document named
    before a German verb that says its figure is corrected. Named by its words only: the month
    beside it ("BWA März 2025") is the period it reports, not the day it was issued."""
    verb = _VERB_LAST.search(sentence)
    if verb is None or len(sentence) > 400:
        return None
    before = sentence[max(0, verb.start() - 2 * _WINDOW):verb.start()]
    target = _DOCUMENT.search(before)
    if target is None or _SELF.search(before) or _OUTLOOK.match(target.group(0)):
        return None
    words = [w for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}|\d{4}", before[target.start():].lower())
             if w not in _STOP]
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
