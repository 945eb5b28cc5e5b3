"""Phrases that name the same line item, so a question in a deal team's words finds a filing's.

An analyst asks for "capex"; the cash flow statement says "purchases of property and equipment".
`EQUIVALENTS` are the groups of en.yaml's `equivalents:`: each is one line item as analysts and
filings write it, its key first; the other language files add their wordings under the same
keys. `expand_query` adds to a question the other phrases of every group it mentions; keyword
search and the findings channel both use the expansion (`manda.retrieval.hybrid`).
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["EQUIVALENTS", "asked_line_items", "expand_query", "expansions", "group_key",
           "group_patterns", "named_groups", "named_in_other_languages", "named_items"]

def _groups() -> tuple[tuple[str, ...], ...]:
    """Each line item's English wordings, its key first (en.yaml's `equivalents:`)."""
    from manda.vocabulary import vocabulary

    english = vocabulary().languages["en"].equivalents
    return tuple((key, *(p for p in phrases if p != key)) for key, phrases in english.items())


EQUIVALENTS: tuple[tuple[str, ...], ...] = _groups()


# German declines nouns and adjectives: "des Abschlussprüfers", "einen uneingeschränkten
# Bestätigungsvermerk" are the listed "abschlussprüfer", "uneingeschränkter bestätigungsvermerk".
_GERMAN = re.compile(r"[äöüß]")
_GERMAN_ENDING = r"(?:e|em|en|er|es|n|s)?"


def _pattern(phrase: str) -> re.Pattern[str]:
    words = [w for w in re.split(r"[\s\-]+", phrase.replace("’", "'")) if w]
    if _GERMAN.search(phrase):  # a German phrase: its words in any case ending
        words = [f"(?:{re.escape(w)}|{re.escape(re.sub(r'(?:em|en|er|es|e)$', '', w))})"
                 f"{_GERMAN_ENDING}" for w in words]
    else:
        words = [re.escape(w) for w in words]
    return re.compile(r"(?<![\w&])" + r"[\s\-]+".join(words) + r"(?![\w&])", re.I)


@cache
def _compiled() -> tuple[tuple[tuple[str, re.Pattern[str]], ...], ...]:
    return tuple(tuple((p, _pattern(p)) for p in group) for group in EQUIVALENTS)


def expansions(question: str) -> list[str]:
    """The equivalent phrases of every line item the question names, not already in it; a line
    item named in another language than English brings its wordings in every language (a
    French question on an English filing searches "net sales" too)."""
    text = question.replace("’", "'")
    out: list[str] = []
    for group in _compiled():
        if any(pattern.search(text) for _, pattern in group):
            out += [phrase for phrase, pattern in group
                    if not pattern.search(text) and phrase not in out]
    out += [p for p in _other_language_wordings(text) if p not in out]
    return out


def _other_language_wordings(text: str) -> list[str]:
    """Every plain wording (no cue syntax), in every language, of each line item the text names
    in a wording of another language than English, not already in it."""
    out: list[str] = []
    for key, start, end in named_in_other_languages(text):
        said = text[start:end].lower()
        out += [p for _, p in _wordings()[key]
                if p != said and not re.search(r"[|\[\]!~*]", p) and p not in out]
    return out


def group_patterns(phrase: str) -> tuple[re.Pattern[str], ...]:
    """The patterns of every wording, in every language, of the line item `phrase` names
    ("auditor" finds "Abschlussprüfers"), or of the phrase alone when no group lists it."""
    for n, group in enumerate(_compiled()):
        if any(pattern.search(phrase) for _, pattern in group):
            return tuple(pattern for _, pattern in group) + _elsewhere(n, english=False)
    if other := named_in_other_languages(phrase):  # "abschlussprüfer": the auditor's
        return _everywhere()[other[0][0]]
    return (_pattern(phrase),)


def group_key(phrase: str) -> str | None:
    """The key of the English group one of whose wordings is the whole `phrase` ("auditor" of
    "independent registered public accounting firm"), if any."""
    for group in _compiled():
        if any(pattern.fullmatch(phrase.strip()) for _, pattern in group):
            return group[0][0]
    return None


def named_groups(question: str) -> list[tuple[str, tuple[re.Pattern[str], ...]]]:
    """For every line item the question names, in any language the vocabulary reads: its words
    in the question ("audit opinion", "chiffre d'affaires") and the patterns of all its wordings
    in every language ("true and fair view", "unqualified opinion"; "net sales", "Umsatzerlöse"),
    so that the question's language does not decide which passage says it."""
    text = question.replace("’", "'")
    out: list[tuple[str, tuple[re.Pattern[str], ...]]] = []
    taken: list[tuple[int, int]] = []
    for n, group in enumerate(_compiled()):
        found = [m for _, pattern in group if (m := pattern.search(text))]
        if found:
            own = max(found, key=lambda m: len(m.group(0)))
            # the group's phrases, then the other languages' wordings of the same line item
            out.append((own.group(0), tuple(pattern for _, pattern in group)
                        + _elsewhere(n, english=False)))
            taken += [m.span() for m in found]
    for key, start, end in named_in_other_languages(text):
        if any(a <= start and end <= b for a, b in taken):
            continue  # an English group above already reads it
        out.append((text[start:end], _everywhere()[key]))
        taken.append((start, end))
    return out


# ---------------------------------------------------------------- every language's wordings
# A line item is one key across three data places: a group of `EQUIVALENTS` (its first phrase),
# a line item of the deal vocabulary (its subject, with its wordings in every language file) and
# a statement line computed metrics read (`statement_lines:`, its row labels in every language).
# They meet where one's key names another ("operating income" is the vocabulary's `ebit`).


def _subject_named(phrase: str) -> str | None:
    """The vocabulary line item a whole phrase names ("operating income" → ebit), if any."""
    from manda.finance.vocabulary import find_line_items

    return next((s for s, start, end in find_line_items(phrase)
                 if start == 0 and end == len(phrase)), None)


@cache
def _wordings() -> dict[str, tuple[tuple[str, str], ...]]:
    """Every wording of each line item, by its key: (language, wording), English first. The
    key is the vocabulary's subject where one names it, else the group's or line's own."""
    from manda.vocabulary import VocabularyError, vocabulary

    words = vocabulary()
    out: dict[str, list[tuple[str, str]]] = {}

    def add(key: str, language: str, phrases: tuple[str, ...] | list[str]) -> None:
        own = out.setdefault(_subject_named(key) or key, [])
        own += [(language, p) for p in phrases if (language, p) not in own]

    for group in EQUIVALENTS:
        add(group[0], "en", group)
    keys = {group[0] for group in EQUIVALENTS}
    for code, lang in words.languages.items():
        if unknown := set(lang.equivalents) - keys:
            raise VocabularyError(f"manda/vocabulary/languages/{code}.yaml: equivalents "
                                  f"{sorted(unknown)} name no group of manda.finance."
                                  "equivalents.EQUIVALENTS")
        for key, phrases in lang.equivalents.items():
            add(key, code, phrases)
        for subject, phrases in lang.line_items.items():
            add(subject, code, phrases)
        for key, line in lang.statement_lines.items():
            add(key, code, [*line.rows, *([line.name.lower()] if line.name else [])])
    return {key: tuple(phrases) for key, phrases in out.items()}


def _wording_pattern(phrase: str) -> re.Pattern[str]:
    """A wording as written in a language file (its cue syntax: "stock|stocks !option",
    "[net] cash provided|used by|in …") or as a plain phrase of a group here."""
    from manda.vocabulary import cues

    if re.search(r"[|\[\]!~*]", phrase):
        return cues([phrase]).pattern
    return _pattern(phrase)


@cache
def _everywhere() -> dict[str, tuple[re.Pattern[str], ...]]:
    """Every wording of each line item in every language, compiled, by key."""
    return {key: tuple(_wording_pattern(p) for _, p in phrases)
            for key, phrases in _wordings().items()}


@cache
def _elsewhere(group: int, *, english: bool) -> tuple[re.Pattern[str], ...]:
    """The wordings of group `group`'s line item this module's group does not list: the other
    languages' (and English's own vocabulary wordings too, with `english`)."""
    key = _subject_named(EQUIVALENTS[group][0]) or EQUIVALENTS[group][0]
    listed = set(EQUIVALENTS[group])
    return tuple(_wording_pattern(p) for language, p in _wordings().get(key, ())
                 if p not in listed and (english or language != "en"))


@cache
def _other_language_matcher() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """For each line item: one pattern of its wordings outside English, longest first."""
    from manda.vocabulary import cues

    return tuple((key, cues([p for lang, p in phrases if lang != "en"]).pattern)
                 for key, phrases in _wordings().items()
                 if any(lang != "en" for lang, _ in phrases))


def named_in_other_languages(text: str) -> list[tuple[str, int, int]]:
    """Every line item a text names in a wording of another language than English: (key,
    start, end), the longest wording first where two overlap."""
    found = [(key, m.start(), m.end()) for key, pattern in _other_language_matcher()
             for m in pattern.finditer(text)]
    found.sort(key=lambda t: (-(t[2] - t[1]), t[1]))
    out: list[tuple[str, int, int]] = []
    for key, start, end in found:
        if not any(a < end and start < b for _, a, b in out):
            out.append((key, start, end))
    return sorted(out, key=lambda t: t[1])


def asked_line_items(question: str) -> list[str]:
    """Every phrase of every line item the question names, its own words first."""
    text = question.replace("’", "'")
    named: list[str] = []
    others: list[str] = []
    for group in _compiled():
        if any(pattern.search(text) for _, pattern in group):
            for phrase, pattern in group:
                bucket = named if pattern.search(text) else others
                if phrase not in bucket:
                    bucket.append(phrase)
    named += [text[start:end].lower() for _, start, end in named_in_other_languages(text)
              if text[start:end].lower() not in named]
    others += _other_language_wordings(text)
    return named + list(dict.fromkeys(p for p in others if p not in named))


def expand_query(question: str) -> str:
    """The question followed by the equivalents of what it names ("capex" → "… purchases of …")."""
    extra = expansions(question)
    return f"{question} {' '.join(extra)}" if extra else question


@cache
def named_items(question: str) -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    """Every line item the question names, as `named_groups` gives them, and besides them each
    statement line of the deal vocabulary (line_items.yaml: "total assets", "trade payables")
    no group here covers: its words in the question and the patterns of all its wordings."""
    from manda.finance.vocabulary import LINE_ITEMS, find_line_items, names_alone
    from manda.vocabulary import cues

    groups = named_groups(question)
    text = question.replace("’", "'")
    taken = [m.span() for _, patterns in groups for p in patterns for m in p.finditer(text)]
    by_subject = {item.subject: item for item in LINE_ITEMS}
    for subject, start, end in find_line_items(question):
        own, item = question[start:end], by_subject[subject]
        if any(a <= start and end <= b for a, b in taken) or item.unit_kind != "currency":
            continue  # "cash flow" in "cash flow from financing activities" is no item of its own
        if not names_alone(own, subject):
            continue  # "stock" may be inventory or shares: only "inventory" names it alone
        # its wordings as the vocabulary writes them: cue phrases ("cash, cash equivalents and
        # [short-term] investments")
        patterns = (cues(by_subject[subject].synonyms).pattern,)
        groups.append((own, patterns))
        taken.append((start, end))
    # "cash" inside "operating cash flow" is no line item of its own
    return tuple((own, patterns) for own, patterns in groups
                 if not any(own.lower() in other.lower() and own != other for other, _ in groups))
