"""How well a sentence or a table row answers a question, and how sure retrieval is that any does.

Passages are split into sentences and table rows (each row with its column headers); each is scored
by the share of the question's content words it covers, weighted by how rare each word is among
the passages retrieved (a BM25-like idf), with words matched on their stem ("insured" =
"insurance", "salaries" = "salary"). A question that asks for an amount ("how much", "price")
prefers sentences that state one. The best score is the retrieval confidence: "not found" is said
only below `NOT_FOUND_BELOW`, calibrated on a labelled dev set (`bench/not_found_calibration.py`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from manda.agent.evidence import Evidence, Source
from manda.agent.tables import read_tables
from manda.agent.unusual import sentences, trim
from manda.finance.amounts import find_amounts
from manda.finance.equivalents import named_groups
from manda.finance.periods import find_periods
from manda.injection import looks_like_instruction
from manda.text import without_possessive
from manda.vocabulary import vocabulary

# Calibrated by bench/not_found_calibration.py on its 28 labelled dev questions (answerable or
# not) over the sample room: accuracy peaks at 96% on the plateau 0.40-0.45 (0.50: 89%, 0.30:
# 89%); the upper end is kept so that a weak match is not passed off as an answer.
NOT_FOUND_BELOW = 0.45
# Below the bar, a span of the kind asked (a figure, a rate, a name) this close still leads, as
# the closest passage: chosen on the filings dev split against questions no 10-K answers
# (bench/not_found_calibration.py --filings: accuracy peaks at 0.35, 96% of answerable kept).
CLOSE_BELOW = 0.35
# a heading: capitalised words and the small words between them, no sentence
_TITLE_WORD = r"(?:[A-Z][\w&'’\-]*|of|and|the|for|in|on|to|a|—|-|–)"
_TITLE = re.compile(rf"^{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,8}}\s*:?$")
_TITLE_PENALTY = 0.2
_OFF_TOPIC = 0.5  # a passage that misses the question's vocabulary topic counts at most half

_WORD = re.compile(r"[a-zà-ÿ0-9][a-zà-ÿ0-9&\-']*", re.IGNORECASE)
_WORDS = vocabulary()
# an amount asked: "how much", "price", or a thing recorded at one ("what charges")
_AMOUNT_ASKED = _WORDS.cues("amount_asked") | _WORDS.cues("recorded_amount")
# Words that carry the question's form, not its topic, in every language.
_FORM = _WORDS.words("form_words")
# a word's endings, tried in order (`stem_suffixes` of every language file, the longest first)
_SUFFIXES = tuple(dict.fromkeys(
    s for lang in _WORDS.languages.values() for s in lang.stem_suffixes))
# what two forms of one word may end in after their shared root (`root_endings` and the stem
# endings): "employe" / "employment" are one word, "currenc" / "current" two
_ROOT_ENDINGS = frozenset(
    e for lang in _WORDS.languages.values() for e in (*lang.root_endings, *lang.stem_suffixes))


def _shared(one: str, other: str) -> int:
    """How many letters two words begin with alike."""
    return next((i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b),
                min(len(one), len(other)))


# the two endings of a word family (`stem_families`: "olv" / "olut") past the letters they share
_FAMILY_TAILS = tuple((a[_shared(a, b):], b[_shared(a, b):])
                      for lang in _WORDS.languages.values() for a, b in lang.stem_families)


@lru_cache(maxsize=65536)
def _stem(word: str, least: int = 4) -> str:
    """The word without its first ending that leaves `least` letters or more."""
    word = without_possessive(word.lower()).strip("-'")  # "Azure's" is Azure
    for suffix in _SUFFIXES:
        if len(word) - len(suffix) >= least and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def short_root(word: str) -> str:
    """A short word's root, which `_stem` leaves whole so that no two short words meet ("owns"
    is "own", the root of "owned"): for matching a word named in the question only."""
    return _stem(word, least=3)


# the stems of the words that say when, even with no year ("year", "quarter", "annual", "exercice")
PERIOD_FORMS = frozenset(_stem(w) for w in _WORDS.words("period_form_words"))
_FISCAL = frozenset(_stem(w) for w in _WORDS.words("fiscal_words"))  # "fiscal", "exercice"


_INITIALS = _WORDS.initials()
# a period named from another, to compare with: "a year earlier", "the prior quarter" (not
# "last year" alone, the period asked itself: "revenue last year" asks a full year's figure)
_RELATIVE_PERIODS = tuple(_WORDS.cues(f"relative_{name}") for name in (
    "same_period_last_year", "previous_period"))


@lru_cache(maxsize=8192)
def one_word_names(text: str) -> str:
    """The text with each name that has initials written as one word, however it was written
    ("U.S.", "US" and "United States" are all "usunitedstates"): two-letter pieces are no words,
    so the initials alone would be read as nothing. The word opens with the initials, so two
    such names never begin alike (words are matched by their first five letters)."""
    for name, written in _INITIALS:
        if written.found(text):
            word = "".join(w[0] for w in name.split()) + name.replace(" ", "")
            text = written.pattern.sub(word, text)
    return text


def _words(text: str) -> list[str]:
    """A text's words, an elided article or preposition left off ("l'exercice", "d'affaires"
    are "exercice", "affaires": the part before the apostrophe is a word of form), a name that
    has initials one word however it is written (`one_word_names`)."""
    out = []
    for word in _WORD.findall(one_word_names(text)):
        head, apostrophe, rest = word.partition("'")
        out.append(rest if apostrophe and rest and head.lower() in _FORM else word)
    return out


def content_terms(question: str) -> list[str]:
    """The question's topic words, stemmed, without the words of its form."""
    out: list[str] = []
    for word in _words(question):
        low = word.lower()
        if low in _FORM or len(low) < 3:
            continue
        stem = _stem(low)
        if stem not in out:
            out.append(stem)
    return out


# Words a deal team uses for the same thing, by concept (`concepts:` of every language file,
# English's order); a question word matches any of its group, the first word is the concept's noun.
_CONCEPTS: tuple[tuple[str, ...], ...] = tuple(
    tuple(dict.fromkeys((key, *(w for lang in _WORDS.languages.values()
                                for w in lang.concepts.get(key, ())))))
    for key in _WORDS.languages["en"].concepts)
_GROUP: dict[str, int] = {}
for _n, _group in enumerate(_CONCEPTS):
    for _word in _group:
        _GROUP.setdefault(" ".join(_word.split()) if " " in _word else _word.lower(), _n)


@lru_cache(maxsize=8192)
def _group_of(stem: str) -> int | None:
    """The concept a word is of: its own word's first ("investment" is an investment, though
    "investor" begins alike), else a word it begins alike (five letters)."""
    if (group := _GROUP.get(stem)) is not None:
        return group
    for word, group in _GROUP.items():
        if " " not in word and len(stem) >= 5 and len(word) >= 5 and stem[:5] == word[:5]:
            return group
    return None


# words read as one another's (`word_forms:` of every language file), by their stems
_FORM_OF: dict[str, str] = {
    _stem(form): _stem(word) for lang in _WORDS.languages.values()
    for word, forms in lang.word_forms.items() for form in (word, *forms)}


def _names_topic(stem: str) -> bool:
    """The question word is a group's own noun ("insurance", "litigation", "lease"), not one of
    its looser members ("own", "pay", "based")."""
    group = _group_of(stem)
    if group is None:
        return False
    noun = _CONCEPTS[group][0]
    return stem == noun or (len(stem) >= 5 and stem[:5] == noun[:5])


def coverage(text: str, terms: Sequence[str]) -> float:
    """The share of `terms` (stems from `content_terms`) a text says, in any of their wordings."""
    if not terms:
        return 1.0
    have = _stems(text)
    return sum(1 for t in terms if _matches(t, have)) / len(terms)


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in _words(text)}


def stems_of(text: str) -> set[str]:
    """The stems of a text's words, as question terms are matched against them."""
    return _stems(text)


def term_in(term: str, stems: set[str]) -> bool:
    """Whether a question term is among a text's stems (by stem, prefix or concept group)."""
    return _matches(term, stems)


OFF_TOPIC = _OFF_TOPIC
_CHANGE_GROUPS = {n for n, g in enumerate(_CONCEPTS) if g[0] in ("decline", "increase")}  # keys


def says_change(term: str) -> bool:
    """The term says a change ("grow", "shrink", "decline"), not what changed."""
    return _group_of(term) in _CHANGE_GROUPS


def names_topic(term: str) -> bool:
    """Whether a question term is a deal-vocabulary topic's own noun (insurance, litigation)."""
    return _names_topic(term)


def period_words(question: str) -> set[str]:
    """The stems of the words of a question that say when ("fiscal 2025", "Q1 2026")."""
    return _period_words(question)


def one_word(term: str, stems: set[str]) -> bool:
    """Whether a question term is among a text's stems as the same word, in any of its forms
    (by stem, prefix or `word_forms:`), not merely a word of its concept ("purchase" is a form
    of no "acquire", though a purchaser is an acquirer)."""
    return _matches(term, stems, concepts=False)


@lru_cache(maxsize=65536)
def same_root(one: str, other: str) -> bool:
    """Two stems of one word: they begin alike (five letters) and, past the root they share,
    one ends there or each ends in an ending of the language files ("compens" / "compensat",
    "employe" / "employment"); "currenc" and "current" only begin alike."""
    if len(one) < 5 or len(other) < 5 or one[:5] != other[:5]:
        return False
    shared = _shared(one, other)
    rest, other_rest = one[shared:], other[shared:]
    if not rest or not other_rest or (rest in _ROOT_ENDINGS and other_rest in _ROOT_ENDINGS):
        return True
    # a verb and its noun by a family's endings ("resolv" / "resolution": olv / olut, "acquir" /
    # "acquisition": ir / isit), each then ending as a word does
    ends = _ROOT_ENDINGS | {""}
    return any(a.startswith(x) and b.startswith(y) and a[len(x):] in ends and b[len(y):] in ends
               for x, y in _FAMILY_TAILS for a, b in ((rest, other_rest), (other_rest, rest)))


def _matches(term: str, stems: set[str], *, concepts: bool = True) -> bool:
    if term in stems:
        return True
    if len(term) >= 4 and term.endswith("e") and term[:-1] in stems:
        return True  # "share" and "shares" (stemmed "shar"): one word
    if len(term) >= 3 and f"{term}e" in stems:
        return True  # "stores" (stemmed "stor") and "store", "tax" and "taxes" ("taxe"): one word
    if len(term) >= 5 and any(same_root(term, s) for s in stems):
        return True
    if (form := _FORM_OF.get(term)) is not None and any(_FORM_OF.get(s) == form for s in stems):
        return True
    if not concepts:
        return False
    group = _group_of(term)
    return group is not None and any(_group_of(s) == group for s in stems)


@dataclass(frozen=True)
class Passage:
    """One sentence or table row (rendered with its headers) and where it was found."""

    text: str
    source: Source
    is_row: bool
    score: float  # the idf-weighted share of the question's words it covers
    order: float = 0.0  # score plus the preferences that rank equals (amounts, full sentences)


def candidates(evidence: Evidence) -> list[tuple[str, Source, bool]]:
    """Sentences and header-keyed table rows of every retrieved passage (never the IRL's)."""
    out: list[tuple[str, Source, bool]] = []
    for hit in evidence.hits:
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        source = evidence.hit_source(hit)
        tables = read_tables(hit.text)
        row_lines = {row.line for t in tables for row in t.rows}
        header_lines = {" | ".join(t.header) for t in tables}
        for t in tables:
            caption = next((c for c in t.caption if len(c) < 80), "")
            for row in t.rows:
                text = row.render()
                out.append((f"{text} ({caption})" if caption else text, source, True))
        for sentence in sentences(hit.text):
            if sentence in row_lines or sentence in header_lines or "|" in sentence:
                continue
            if len(sentence) < 20 or looks_like_instruction(sentence):
                continue
            out.append((sentence, source, False))
    return out


@dataclass(frozen=True)
class QuestionTerms:
    """What a passage must say to answer a question: its content words (stems), those that say
    when, whether it asks for an amount, and the line items it names in every wording."""

    terms: tuple[str, ...] = ()
    when: frozenset[str] = frozenset()
    wants_amount: bool = False
    said_otherwise: tuple[tuple[frozenset[str], tuple[re.Pattern[str], ...]], ...] = \
        field(default=(), compare=False)


def question_terms(question: str) -> QuestionTerms:
    """The question read for ranking passages (done once, by the question frame)."""
    terms = content_terms(question)
    return QuestionTerms(
        terms=tuple(terms),
        # when it happened ("in fiscal 2025", "Q1 2026") narrows which passage, it is not what
        # is asked: a passage need not repeat it to answer (the period is read apart)
        when=frozenset(t for t in terms if t in _period_words(question)),
        wants_amount=_AMOUNT_ASKED.found(question),
        # a passage in another wording of a line item the question names ("true and fair view"
        # for "audit opinion", "purchases of property and equipment" for "capex") covers them
        said_otherwise=tuple((frozenset(content_terms(own)) & frozenset(terms), patterns)
                             for own, patterns in named_groups(question)) + _costs(terms),
    )


_COST_SAID = _WORDS.cues("cost_said")


def _costs(terms: Sequence[str]) -> tuple[tuple[frozenset[str], tuple[re.Pattern[str], ...]], ...]:
    """"Costs" asked is said as "expenses" too, and "expenses" as "costs": the cost lines under
    "Operating expenses:" are the "fulfillment costs" asked."""
    own = frozenset(content_terms(" ".join(_COST_SAID.phrases))) & frozenset(terms)
    return ((own, (_COST_SAID.pattern,)),) if own else ()


def rank(evidence: Evidence, asked: QuestionTerms) -> list[Passage]:
    """Every sentence and row of the evidence, best answer to the question first."""
    # the company a scoped question names is where to look, not a word its documents repeat
    # (a filing says "the Company", not "Apple")
    terms = [t for t in asked.terms if re.sub(r"'s?$", "", t) not in evidence.scope_words]
    if not terms:
        return []
    when = {t for t in terms if t in asked.when}
    core = [t for t in terms if t not in when] or terms
    pool = candidates(evidence)
    if not pool:
        return []
    stems = [_stems(text) for text, _, _ in pool]
    n = len(pool)
    weight = {}
    for term in terms:
        df = sum(1 for s in stems if _matches(term, s))
        weight[term] = math.log(1 + n / (1 + df)) if df else math.log(1 + n)
    total = sum(weight[t] for t in core)
    wants_amount = asked.wants_amount
    # A question about a thing the deal vocabulary names (insurance, litigation, a lease) is
    # answered only by a passage about it: rare side words ("cover") do not make up for it.
    topics = [t for t in terms if _names_topic(t)]
    said_otherwise = [(own & set(terms), patterns) for own, patterns in asked.said_otherwise]
    ranked: list[Passage] = []
    for (text, source, is_row), have in zip(pool, stems, strict=True):
        matched = {t for t in terms if _matches(t, have)}
        for own, patterns in said_otherwise:
            if any(pattern.search(text) for pattern in patterns):
                matched |= own
        covered = sum(weight[t] for t in matched if t in core)
        if not covered:
            continue
        score = min(1.0, covered / total)
        if topics and not any(t in matched for t in topics):
            score *= _OFF_TOPIC
        order = score + min(len(text), 200) / 4000  # a full sentence over a fragment
        if not is_row and _TITLE.match(text):
            order -= _TITLE_PENALTY + score / 2  # a heading ("Stock Repurchase Activity") names
            # what follows it, it does not answer
        if when:
            order += 0.1 * len(when & matched) / len(when)
        if wants_amount:
            order += 0.1 if find_amounts(text) else -0.1
        ranked.append(Passage(trim(text, 320), source, is_row, round(score, 4),
                              round(order, 4)))
    ranked.sort(key=lambda p: (-p.order, p.is_row))
    return ranked


def _period_words(question: str) -> set[str]:
    """The stems of the words that say when: "fiscal 2025", "Q1 2026", "the first quarter",
    and a period named from another ("compared with a year earlier", "the prior year")."""
    words: set[str] = set()
    for _, start, end in find_periods(question, bare_years=True):
        words.update(content_terms(question[start:end]))
    for cue in _RELATIVE_PERIODS:
        for found in cue.finditer(question):
            words.update(content_terms(found.group(0)))
    if words:
        words.update(_FISCAL)
    return words


def confidence(ranked: Sequence[Passage]) -> float:
    """How sure retrieval is that something answers: the best coverage of the question's words
    by one sentence or row (0 when none); ranking preferences do not count here."""
    return max((p.score for p in ranked), default=0.0)


def best(ranked: Sequence[Passage], *, limit: int = 3, within: float = 0.8) -> list[Passage]:
    """The leading passages: the best, and the next ones that score close to it."""
    if not ranked:
        return []
    top = ranked[0].order
    out: list[Passage] = []
    for passage in ranked:
        if passage.order < top * within or len(out) >= limit:
            break
        if all(passage.text != p.text for p in out):
            out.append(passage)
    return out
