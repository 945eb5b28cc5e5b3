"""Reads the vocabulary files once and checks they agree (every topic named, every word of a
language belonging to a known topic, line item or cue set)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml
from pydantic import ValidationError

from manda.models import DocumentRole
from manda.vocabulary.cues import Cues, check_phrase, cues
from manda.vocabulary.model import (
    EventKind,
    EventTable,
    LanguageFile,
    LineItem,
    LineItemTable,
    RoleSpec,
    RoleTable,
    RoleWords,
    Signal,
    StatementLineWords,
    Topic,
    TopicTable,
    TopicWords,
)
from manda.vocabulary.plurals import plural_phrase, with_plurals

__all__ = ["Vocabulary", "VocabularyError", "load"]

_PACKAGE = "manda.vocabulary"


_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, ten times faster


class _Loader(_BASE_LOADER):  # type: ignore[misc, valid-type]
    """YAML's safe loader, refusing a key written twice in one mapping: YAML keeps the last
    silently, so a second `year_end_lead:` would drop the first one's words."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Mark] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping", node.start_mark,
                    f"the key {key!r} is written twice (first at line "
                    f"{seen[key].line + 1}); merge the two into one", key_node.start_mark)
            seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


_LOADER = _Loader


class VocabularyError(ValueError):
    """A vocabulary file that does not read, or disagrees with the others."""


def _read(name: str) -> Any:
    path = resources.files(_PACKAGE).joinpath(name)
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise VocabularyError(f"manda/vocabulary/{name} is not valid YAML: {exc}") from exc


def _parse(model: type[Any], name: str) -> Any:
    try:
        return model.model_validate(_read(name))
    except ValidationError as exc:
        raise VocabularyError(f"manda/vocabulary/{name}: {exc}") from exc


@dataclass(frozen=True, eq=False)  # one a process: hashed by identity
class Vocabulary:
    """Everything the product knows of a deal's words: topics, line items, languages."""

    topics: tuple[Topic, ...]
    flag_kinds: dict[str, int]  # red flags that are no topic, by severity
    line_items: tuple[LineItem, ...]
    languages: dict[str, LanguageFile]
    role_specs: dict[DocumentRole, RoleSpec]  # roles.yaml's order
    events: tuple[EventKind, ...]  # events.yaml's order

    def role_spec(self, role: DocumentRole) -> RoleSpec:
        """What a document of the role is worth and how every language names it."""
        return self.role_specs[role]

    def topic(self, key: str) -> Topic:
        for topic in self.topics:
            if topic.key == key:
                return topic
        raise KeyError(f"no deal topic {key!r} in manda/vocabulary/topics.yaml")

    def cues(self, name: str) -> Cues:
        """A named cue set, in every language that gives it."""
        return _cue_set(self, name)

    def role_cues(self) -> tuple[tuple[DocumentRole, Cues], ...]:
        """How a question names where its answer lives, by document role (English's order)."""
        return _role_cues(self)

    def words(self, name: str) -> frozenset[str]:
        """A named word list (no cue syntax), in every language, lower-cased."""
        return frozenset(w.lower() for lang in self.languages.values()
                         for w in lang.cues.get(name, ()))

    def phrases(self, name: str) -> tuple[str, ...]:
        """A named cue set's phrases as written, in every language (case kept)."""
        _cue_set(self, name)  # a name English does not give is an error
        return tuple(dict.fromkeys(p for lang in self.languages.values()
                                   for p in lang.cues.get(name, ())))

    def language_of(self, text: str) -> str:
        """The language a question is written in: the one whose question and stop words it
        uses most ("Quel est le chiffre d'affaires ?" is French); English when none leads."""
        return _language_of(self, text)

    def number(self, word: str) -> int | None:
        """A number written as a word or in digits, in any language ("three", "drei", "3")."""
        word = word.strip().lower()
        if word.isdigit():
            return int(word)
        return next((lang.number_words[word] for lang in self.languages.values()
                     if word in lang.number_words), None)

    def asked_as(self) -> tuple[tuple[str, Cues], ...]:
        """A deal team's phrases read in a filing's words (`asked_as:` of every language): the
        filing's words, and the cues of how a question says them."""
        return _asked_as(self)

    def initials(self) -> tuple[tuple[str, Cues], ...]:
        """Names also written in their initials (`initials:` of every language): the name, and
        the cues of how it is written (in full and in its initials)."""
        return _initials(self)

    def month(self, word: str) -> int | None:
        """The month a word names, in any language ("Sept", "März", "juillet")."""
        return _month_words(self).get(word.strip(".").lower())

    def month_names(self) -> frozenset[str]:
        return frozenset(_month_words(self))

    def event_kinds(self) -> tuple[tuple[str, Cues], ...]:
        """The words that ask for events of each kind ("expire", "matur"), in every language."""
        return _event_kinds(self)

    def answer(self, key: str, language: str = "en", **values: object) -> str:
        """A composer's sentence in `language`, English where that language lacks it."""
        own = self.languages.get(language)
        template = own.answers.get(key) if own is not None else None
        if template is None:
            template = self.languages["en"].answers.get(key)
        if template is None:
            raise KeyError(f"no answer wording {key!r} in manda/vocabulary/languages/en.yaml "
                           "(answers:)")
        return template.format(**values) if values else template

    def statement_lines(self) -> dict[str, tuple[str, ...]]:
        """How statements label each line a computed metric reads, by the line's key, in every
        language (English's order, longest label of a language first read as written)."""
        return _statement_lines(self)

    def statement_words(self, kind: str) -> StatementCues:
        """How every language names a financial statement, the rows only it carries and what a
        question asks that it answers (`statements:`), by the statement's kind."""
        return _statement_words(self, kind)

    def line_name(self, key: str, language: str = "en") -> str:
        """A statement line's name in an answer ("capital expenditures", "Investitionen"), in
        `language` where its file gives one, else in English."""
        for code in (language, "en"):
            own = self.languages.get(code)
            words = own.statement_lines.get(key) if own is not None else None
            if words is not None and words.name:
                return words.name
        return key

    def role_label(self, role: DocumentRole, language: str = "en") -> str:
        """A document role as `language` names it ("comptes audités"); its English label
        ("audited statements") where the language gives none."""
        lang = self.languages.get(language)
        words = lang.document_roles.get(role) if lang is not None else None
        return words.label if words is not None and words.label else role.label

    def subject_name(self, subject: str, language: str = "en") -> str:
        """A subject (a topic's or line item's key) as `language` names it: its own wording
        (`answers: subject_<key>`), its statement line's name, the topic's label, else the line
        item's first wording in the language's file; the key itself in English or where the
        language gives no word."""
        if language == "en" or language not in self.languages:
            return subject
        named = self.languages[language].answers.get("subject_" + subject.replace(" ", "_"))
        if named:  # a subject no topic or line item names ("person")
            return named
        line = self.languages[language].statement_lines.get(subject)
        if line is not None and line.name:
            return line.name
        for topic in self.topics:
            if topic.key == subject and topic.key in self.languages[language].topics:
                return topic.label_in(language)
        own = self.languages[language].line_items.get(subject) or ()
        # a wording written plainly, not a cue ("recherche et développement !crédit|crédits")
        plain = next((w for w in own if not any(c in w for c in "!|[]*")), None)
        return plain or (_plainly(own[0]) if own else subject)

    def computed_asked(self, name: str) -> tuple[str, ...]:
        """How a question names a computed metric, in every language (`computed_asked:`)."""
        return tuple(dict.fromkeys(p.lower() for lang in self.languages.values()
                                   for p in lang.computed_asked.get(name, ())))

    def computed_name(self, name: str, language: str = "en") -> str:
        """A computed metric's name in an answer, in `language` where its file gives one."""
        own = self.languages.get(language)
        return (own.computed_metrics.get(name) if own is not None else None) or name

    def key_dates(self) -> tuple[tuple[str, Cues], ...]:
        """What a date in a legal text dates ("closing", "expiry" …) and the words before it
        that say so, in every language (`key_dates:`; English's order)."""
        return _key_dates(self)

    def search(self, name: str) -> str:
        """A named passage search, in English (`searches:` in en.yaml)."""
        return self.languages["en"].searches[name]

    def flag_lead(self, kind: str, language: str = "en") -> str:
        """How a red-flag lead names a kind of flag ("litigation", "conflicting figures"), in
        `language` where its file gives it, else in English."""
        for topic in self.topics:
            if topic.key == kind:
                return topic.lead_in(language)
        own = self.languages[language].red_flags if language in self.languages else {}
        return own.get(kind) or self.languages["en"].red_flags.get(kind, kind.replace("_", " "))

    def severity_order(self) -> tuple[str, ...]:
        """Every red-flag kind, most serious first (topics before other kinds of equal rank)."""
        ranked = [(t.severity, 0, n, t.key) for n, t in enumerate(self.topics)
                  if t.severity is not None]
        ranked += [(sev, 1, n, key) for n, (key, sev) in enumerate(self.flag_kinds.items())]
        return tuple(key for *_, key in sorted(ranked))


@cache
def _cue_set(vocabulary: Vocabulary, name: str) -> Cues:
    phrases = [p for lang in vocabulary.languages.values() for p in lang.cues.get(name, ())]
    if name not in vocabulary.languages["en"].cues:
        raise KeyError(f"no cue set {name!r} in manda/vocabulary/languages/en.yaml (cues:)")
    return cues(phrases)


@cache
def _asked_as(vocabulary: Vocabulary) -> tuple[tuple[str, Cues], ...]:
    return tuple((words, cues(phrases).accents_optional())
                 for lang in vocabulary.languages.values()
                 for words, phrases in lang.asked_as.items())


@cache
def _initials(vocabulary: Vocabulary) -> tuple[tuple[str, Cues], ...]:
    return tuple((name, cues(phrases))
                 for lang in vocabulary.languages.values()
                 for name, phrases in lang.initials.items())


@cache
def _statement_lines(vocabulary: Vocabulary) -> dict[str, tuple[str, ...]]:
    return {key: tuple(dict.fromkeys(
                row.lower() for lang in vocabulary.languages.values()
                for row in lang.statement_lines.get(key, StatementLineWords()).rows))
            for key in vocabulary.languages["en"].statement_lines}


@dataclass(frozen=True)
class StatementCues:
    """One financial statement's words in every language, compiled (`statements:`)."""

    names: Cues
    rows: tuple[Cues, ...]  # one per row the statement alone carries, with all its wordings
    asks: Cues


@cache
def _statement_words(vocabulary: Vocabulary, kind: str) -> StatementCues:
    if kind not in vocabulary.languages["en"].statements:
        raise KeyError(f"no statement {kind!r} in manda/vocabulary/languages/en.yaml "
                       "(statements:)")
    given = [lang.statements[kind] for lang in vocabulary.languages.values()
             if kind in lang.statements]
    return StatementCues(
        names=cues(p for words in given for p in words.names),
        rows=tuple(cues(row) for words in given for row in words.rows),
        asks=cues(p for words in given for p in words.asks))


@cache
def _key_dates(vocabulary: Vocabulary) -> tuple[tuple[str, Cues], ...]:
    return tuple((event, cues(p for lang in vocabulary.languages.values()
                              for p in lang.key_dates.get(event, ())))
                 for event in vocabulary.languages["en"].key_dates)


@cache
def _role_cues(vocabulary: Vocabulary) -> tuple[tuple[DocumentRole, Cues], ...]:
    roles = dict.fromkeys(r for lang in vocabulary.languages.values()
                          for r, words in lang.document_roles.items() if words.asked)
    return tuple(
        (role, cues(p for lang in vocabulary.languages.values()
                    for p in lang.document_roles.get(role, RoleWords()).asked))
        for role in roles)


# a word; a letter followed by a dot is an abbreviation's ("S.L.", "U.S."), no word of a language
_TOKEN = re.compile(r"[^\W\d_]{2,}|[^\W\d_](?!\.)")
# "R&D", "M&A", "P&L", "AT&T": an abbreviation joined by "&", whose letters are no words of a
# language (the "d" of "R&D" is not the French "d'")
_AMPERSAND_WORD = re.compile(r"[^\W_]+&[^\W_]+")


@cache
def _function_words(vocabulary: Vocabulary) -> dict[str, frozenset[str]]:
    return {code: frozenset(w.lower() for name in ("question_words", "stop_words")
                            for w in lang.cues.get(name, ()))
            for code, lang in vocabulary.languages.items()}


_OPTIONAL = re.compile(r"\s*\[[^\]]*\]")
_NEGATED = re.compile(r"\s*![^\s\]]+")


def _plainly(wording: str) -> str:
    """A cue written as words: its optional parts and negations left out, the first of each
    alternative kept ("efectivo e inversiones [a corto plazo|temporales]" → "efectivo e
    inversiones")."""
    text = _NEGATED.sub("", _OPTIONAL.sub("", wording))
    return " ".join(word.split("|")[0].rstrip("*") for word in text.split()) or wording


def _language_of(vocabulary: Vocabulary, text: str) -> str:
    tokens = _TOKEN.findall(_AMPERSAND_WORD.sub(" ", text.lower()))
    scores = {code: sum(1 for t in tokens if t in words)
              for code, words in _function_words(vocabulary).items()}
    best = max(scores.values(), default=0)
    if best == 0 or scores.get("en", 0) == best:
        return "en"
    return next(code for code, score in scores.items() if score == best)


@cache
def _month_words(vocabulary: Vocabulary) -> dict[str, int]:
    return {word.lower(): number for lang in vocabulary.languages.values()
            for number, words in lang.months.items() for word in words}


@cache
def _event_kinds(vocabulary: Vocabulary) -> tuple[tuple[str, Cues], ...]:
    kinds = dict.fromkeys(k for lang in vocabulary.languages.values() for k in lang.event_kinds)
    return tuple((kind, cues(p for lang in vocabulary.languages.values()
                             for p in lang.event_kinds.get(kind, ())))
                 for kind in kinds)


def _languages() -> dict[str, LanguageFile]:
    folder = resources.files(_PACKAGE).joinpath("languages")
    out: dict[str, LanguageFile] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            lang = _parse(LanguageFile, f"languages/{entry.name}")
            if entry.name != f"{lang.code}.yaml":
                raise VocabularyError(f"manda/vocabulary/languages/{entry.name} says code "
                                      f"{lang.code!r}: name the file {lang.code}.yaml")
            out[lang.code] = lang
    if "en" not in out:
        raise VocabularyError("manda/vocabulary/languages/en.yaml is missing: English is the "
                              "language every other one falls back to")
    # English first: a word missing elsewhere is read in English
    return {"en": out.pop("en"), **out}


def _phrases(lang: LanguageFile) -> Iterator[str]:
    """Every cue phrase of a language file (not its labels, queries or number words)."""
    for words in lang.topics.values():
        yield from (*words.asked, *words.terms, *words.stated, *words.prefer)
    for group in (lang.line_items, lang.cues, lang.events, lang.key_dates, lang.event_kinds,
                  lang.asked_as, lang.initials):
        for phrases in group.values():
            yield from phrases
    for statement in lang.statements.values():
        yield from (*statement.names, *statement.asks, *(p for row in statement.rows for p in row))
    for role in lang.document_roles.values():
        yield from (*role.asked, *role.names, *role.requested)
        for phrases in role.signals.values():
            yield from phrases


def _check(table: TopicTable, items: LineItemTable, languages: dict[str, LanguageFile]) -> None:
    keys = [t.key for t in table.topics]
    if len(set(keys)) != len(keys):
        raise VocabularyError("manda/vocabulary/topics.yaml names a topic twice")
    subjects = {i.subject for i in items.line_items}
    en = languages["en"]
    for key in keys:
        words = en.topics.get(key)
        if words is None or not (words.label and words.query and words.question):
            raise VocabularyError(f"languages/en.yaml: topic {key!r} needs a label, a query and "
                                  f"a question (topics.yaml names it)")
    for lang in languages.values():
        where = f"manda/vocabulary/languages/{lang.code}.yaml"
        if unknown := set(lang.topics) - set(keys):
            raise VocabularyError(f"{where}: {sorted(unknown)} are no topics of topics.yaml")
        if unknown := set(lang.line_items) - subjects:
            raise VocabularyError(f"{where}: {sorted(unknown)} are no line items of "
                                  f"line_items.yaml")
        if unknown := set(lang.cues) - set(en.cues):
            raise VocabularyError(f"{where}: cue sets {sorted(unknown)} are not in en.yaml")
        if unknown := set(lang.statement_lines) - set(en.statement_lines):
            raise VocabularyError(f"{where}: statement lines {sorted(unknown)} are not in "
                                  "en.yaml (statement_lines:)")
        if unknown := set(lang.statements) - set(en.statements):
            raise VocabularyError(f"{where}: statements {sorted(unknown)} are not in en.yaml "
                                  "(statements:)")
        if unknown := set(lang.computed_asked) - set(en.computed_asked):
            raise VocabularyError(f"{where}: computed metrics {sorted(unknown)} are not in "
                                  "en.yaml (computed_asked:)")
        if unknown := set(lang.answers) - set(en.answers):
            raise VocabularyError(f"{where}: answer wordings {sorted(unknown)} are not in en.yaml")
        if unknown := set(lang.event_kinds) - set(en.event_kinds):
            raise VocabularyError(f"{where}: event kinds {sorted(unknown)} are not in en.yaml")
        if bad := [m for m in lang.months if not 1 <= m <= 12]:
            raise VocabularyError(f"{where}: months {bad} are not 1 to 12")
        if unknown := set(lang.key_dates) - set(en.key_dates):
            raise VocabularyError(f"{where}: key dates {sorted(unknown)} are not in en.yaml")
        for phrase in _phrases(lang):
            try:
                check_phrase(phrase)
            except ValueError as exc:
                raise VocabularyError(f"{where}: {exc}") from None


def _check_roles(table: RoleTable, languages: dict[str, LanguageFile]) -> None:
    named = [row.role for row in table.roles]
    if missing := [r.value for r in DocumentRole if r not in named]:
        raise VocabularyError(f"manda/vocabulary/roles.yaml: roles {missing} have no row")
    if len(set(named)) != len(named):
        raise VocabularyError("manda/vocabulary/roles.yaml names a role twice")
    signals = {row.role: set(row.signals) for row in table.roles}
    for lang in languages.values():
        for role, words in lang.document_roles.items():
            if unknown := set(words.signals) - signals[role]:
                raise VocabularyError(
                    f"manda/vocabulary/languages/{lang.code}.yaml: document_roles.{role.value} "
                    f"gives words for signals {sorted(unknown)} that roles.yaml does not weigh")


def _role_specs(table: RoleTable, languages: dict[str, LanguageFile]
                    ) -> dict[DocumentRole, RoleSpec]:
    out: dict[DocumentRole, RoleSpec] = {}
    for row in table.roles:
        words = [lang.document_roles.get(row.role, RoleWords()) for lang in languages.values()]
        signals = tuple(
            Signal(key=key, where=signal.where, weight=signal.weight, cap=signal.cap,
                   cues=cues(p for w in words for p in w.signals.get(key, ())))
            for key, signal in row.signals.items())
        out[row.role] = RoleSpec(
            role=row.role, authority=row.authority, authoritative=row.authoritative,
            periodic=row.periodic, forecast=row.forecast, request_list=row.request_list,
            as_of=row.as_of, signals=tuple(s for s in signals if s.cues),
            names=cues(p for w in words for p in w.names),
            requested=cues(p for w in words for p in w.requested),
            asked=cues(p for w in words for p in w.asked))
    return out


def _events(table: EventTable, topics: tuple[Topic, ...], languages: dict[str, LanguageFile]
            ) -> tuple[EventKind, ...]:
    by_key = {t.key: t for t in topics}
    kinds = {row.kind for row in table.events}
    for lang in languages.values():
        if unknown := set(lang.events) - kinds:
            raise VocabularyError(f"manda/vocabulary/languages/{lang.code}.yaml: events "
                                  f"{sorted(unknown)} are no kinds of events.yaml")
    out: list[EventKind] = []
    for row in table.events:
        where = f"manda/vocabulary/events.yaml: {row.kind!r}"
        topic = by_key.get(row.topic) if row.topic else None
        if row.topic and topic is None:
            raise VocabularyError(f"{where} names topic {row.topic!r}, no row of topics.yaml")
        category = row.category or (topic.timeline[0] if topic and topic.timeline else None)
        if category is None:
            raise VocabularyError(f"{where} needs a category (its topic has no timeline one)")
        if unknown := [c for c in row.context if c not in languages["en"].cues]:
            raise VocabularyError(f"{where}: context {unknown} are no cue sets of en.yaml")
        words = cues(w for lang in languages.values() for w in lang.events.get(row.kind, ()))
        if not words:
            raise VocabularyError(f"{where} has no trigger words in languages/en.yaml (events:)")
        context = cues(p for lang in languages.values() for name in row.context
                       for p in lang.cues.get(name, ()))
        if topic is not None:
            context = getattr(topic, row.about) | context
        out.append(EventKind(
            kind=row.kind, label=row.label, category=category, words=words,
            context=None if row.anywhere else context, person=row.person, future=row.future,
            spans=row.spans))
    return tuple(out)


def _topic(row: Any, languages: dict[str, LanguageFile]) -> Topic:
    words = {code: lang.topics.get(row.key, TopicWords()) for code, lang in languages.items()}

    def joined(name: str) -> Cues:  # each term with its plural, by its language's rule
        return cues(with_plurals(p, languages[code].plural)
                    for code, w in words.items() for p in getattr(w, name))

    return Topic(
        key=row.key, roles=row.roles, subjects=row.subjects, category=row.qa_category,
        severity=row.severity, amount_leads=row.amount_leads, timeline=row.timeline,
        composer=row.composer, of_metrics=row.of_metrics, asked=joined("asked"),
        terms=joined("terms"), stated=joined("stated"), prefer=joined("prefer"),
        words={code: w for code, w in words.items() if w != TopicWords() or code == "en"},
    )


def _with_plural_wordings(subject: str, languages: dict[str, LanguageFile]) -> tuple[str, ...]:
    """A line item's wordings in every language, each followed by its plural by its language's
    rule ("dette financière", "dettes financières"): no file lists each plural by hand. The rows
    a statement labels the line item by (`statement_lines` of the same key: "Payments for
    acquisition of property, plant and equipment" is capex) are its wordings too, so a label is
    read one way by extraction and by the computed metrics, unless another line item has the
    row's words as its own."""
    others = {s.lower() for lang in languages.values()
              for item, words in lang.line_items.items() if item != subject for s in words}
    return tuple(dict.fromkeys(
        w for lang in languages.values()
        for s in (*lang.line_items.get(subject, ()),
                  *(r for r in lang.statement_lines.get(subject, StatementLineWords()).rows
                    if r.lower() not in others))  # "gross margin" stays the margin's
        for w in (s, plural_phrase(s, lang.plural)) if w))


@cache
def load() -> Vocabulary:
    """The vocabulary, read once a process."""
    table: TopicTable = _parse(TopicTable, "topics.yaml")
    items: LineItemTable = _parse(LineItemTable, "line_items.yaml")
    roles: RoleTable = _parse(RoleTable, "roles.yaml")
    events: EventTable = _parse(EventTable, "events.yaml")
    languages = _languages()
    _check(table, items, languages)
    _check_roles(roles, languages)
    line_items = tuple(
        LineItem(subject=row.subject, label=row.label, unit_kind=row.unit, family=row.family,
                 stock=row.stock, cost=row.cost, metric=row.metric, sheet=row.sheet,
                 adjective=row.adjective,
                 synonyms=_with_plural_wordings(row.subject, languages))
        for row in items.line_items)
    topics = tuple(_topic(row, languages) for row in table.topics)
    return Vocabulary(
        topics=topics,
        flag_kinds={row.key: row.severity for row in table.red_flag_kinds},
        line_items=line_items,
        languages=languages,
        role_specs=_role_specs(roles, languages),
        events=_events(events, topics, languages),
    )
