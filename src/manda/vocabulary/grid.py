"""The review grid's vocabulary: its columns, saved column sets and document kinds (grid.yaml),
with their words in every language (`grid:` in languages/*.yaml), read once and checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from manda.models import DocumentRole
from manda.vocabulary.cues import Cues, cues
from manda.vocabulary.load import VocabularyError, _parse, load
from manda.vocabulary.model import DocumentKindWords, GridColumnWords, GridWords, _File

__all__ = ["DocumentKind", "GridColumnSpec", "GridVocabulary", "grid_vocabulary"]

ColumnType = Literal["party", "date", "term", "renewal", "yes_no", "termination", "rule", "cap",
                     "amount", "duration", "jurisdiction", "text"]
DURATION_UNITS = ("days", "weeks", "months", "years")


class _ColumnRow(_File):
    key: str
    type: ColumnType
    topic: str | None = None
    flag: Literal["yes"] | None = None
    summary: bool = False


class _SetRow(_File):
    key: str
    kind: str
    columns: tuple[str, ...]


class _KindRow(_File):
    key: str
    roles: tuple[DocumentRole, ...] = ()
    part_of: str | None = None
    side: Literal["buyer", "seller"] | None = None


class _GridTable(_File):
    columns: tuple[_ColumnRow, ...]
    column_sets: tuple[_SetRow, ...]
    document_kinds: tuple[_KindRow, ...]


@dataclass(frozen=True)
class GridColumnSpec:
    """A standard column: what its cells hold, its topic, and its words in every language."""

    key: str
    type: ColumnType
    topic: str | None
    flag: bool  # a red flag when a cell says yes
    summary: bool  # counted in the summary line when a cell says yes
    names: Cues  # how a person names it
    headings: Cues  # a heading over its clause
    stated: Cues  # a sentence that states it
    negated: Cues  # the clause says it does not apply
    words: dict[str, GridColumnWords] = field(compare=False, repr=False)

    def _word(self, name: str, language: str = "en") -> str:
        own = getattr(self.words.get(language), name, "") if language in self.words else ""
        return own or getattr(self.words["en"], name)

    def label_in(self, language: str = "en") -> str:
        return self._word("label", language)

    @property
    def label(self) -> str:
        return self._word("label")

    @property
    def describe(self) -> str:
        return self._word("describe")

    @property
    def searched(self) -> str:
        return self._word("searched")

    @property
    def summary_words(self) -> str:
        return self._word("summary") or f"with {self.label.lower()}"

    @property
    def flag_label(self) -> str:
        return self._word("flag") or self.label

    def question_for(self, document: str) -> str:
        return self._word("question").format(document=document)


@dataclass(frozen=True)
class DocumentKind:
    """A kind of document a grid is asked of (customer contracts, leases …)."""

    key: str
    roles: tuple[DocumentRole, ...]
    part_of: str | None
    side: Literal["buyer", "seller"] | None
    names: Cues
    titles: Cues
    parties: Cues  # the other party's defined terms in such a document
    folders: Cues
    words: dict[str, DocumentKindWords] = field(compare=False, repr=False)

    @property
    def label(self) -> str:
        return self.words["en"].label or self.key.replace("_", " ")

    @property
    def plural(self) -> str:
        return self.words["en"].plural or f"{self.label}s"


@dataclass(frozen=True, eq=False)
class GridVocabulary:
    """Everything the grid reads from the vocabulary, every language's words merged."""

    columns: tuple[GridColumnSpec, ...]
    column_sets: dict[str, tuple[str, ...]]
    set_kinds: dict[str, str]
    kinds: tuple[DocumentKind, ...]
    _words: dict[str, Cues]
    units: dict[str, Cues]  # days, weeks, months, years
    numbers: dict[str, int]  # a number written as a word, lower-cased -> its value
    multiples: dict[int, Cues]  # how many times -> the words saying it ("twice", "le double")
    jurisdictions: tuple[tuple[str, Cues], ...]  # a law's place and the words naming it
    languages: dict[str, Cues]  # every grid word of one language: which one a document is in
    decimal_comma: frozenset[str]  # the languages that write "1.234,5"

    def column(self, key: str) -> GridColumnSpec:
        for column in self.columns:
            if column.key == key:
                return column
        raise KeyError(f"no grid column {key!r} in manda/vocabulary/grid.yaml")

    def kind(self, key: str) -> DocumentKind:
        for kind in self.kinds:
            if kind.key == key:
                return kind
        raise KeyError(f"no document kind {key!r} in manda/vocabulary/grid.yaml")

    def language_of(self, text: str) -> str:
        """The language a document is written in, by which language's contract words it uses
        most (English when none stands out)."""
        counts = {code: words.count(text) for code, words in self.languages.items()}
        best = max(counts, key=lambda code: counts[code])
        return best if counts[best] > counts.get("en", 0) else "en"

    def words(self, name: str) -> Cues:
        """A named cue set of the cell readers (`grid.words` in the language files)."""
        try:
            return self._words[name]
        except KeyError:
            raise KeyError(f"no grid word set {name!r} in languages/en.yaml (grid.words)") from None


def _merged(languages: dict, pick) -> Cues:  # type: ignore[no-untyped-def]
    return cues(p for lang in languages.values() for p in pick(lang.grid))


@cache
def grid_vocabulary() -> GridVocabulary:
    """The grid's vocabulary, read once a process."""
    table: _GridTable = _parse(_GridTable, "grid.yaml")
    languages = load().languages
    _check(table, languages)
    columns = tuple(
        GridColumnSpec(
            key=row.key, type=row.type, topic=row.topic, flag=row.flag == "yes",
            summary=row.summary,
            **{name: _merged(languages, lambda g, n=name, k=row.key: getattr(
                g.columns.get(k, GridColumnWords()), n))
               for name in ("names", "headings", "stated", "negated")},
            words={code: lang.grid.columns[row.key] for code, lang in languages.items()
                   if row.key in lang.grid.columns},
        )
        for row in table.columns)
    kinds = tuple(
        DocumentKind(
            key=row.key, roles=row.roles, part_of=row.part_of, side=row.side,
            **{name: _merged(languages, lambda g, n=name, k=row.key: getattr(
                g.kinds.get(k, DocumentKindWords()), n))
               for name in ("names", "titles", "parties", "folders")},
            words={code: lang.grid.kinds[row.key] for code, lang in languages.items()
                   if row.key in lang.grid.kinds},
        )
        for row in table.document_kinds)
    word_names = {name for lang in languages.values() for name in lang.grid.words}
    return GridVocabulary(
        columns=columns,
        column_sets={row.key: row.columns for row in table.column_sets},
        set_kinds={row.key: row.kind for row in table.column_sets},
        kinds=kinds,
        _words={name: _merged(languages, lambda g, n=name: g.words.get(n, ()))
                for name in word_names},
        units={unit: _merged(languages, lambda g, u=unit: g.units.get(u, ()))
               for unit in DURATION_UNITS},
        numbers={word.lower(): value for lang in languages.values()
                 for value, words in lang.grid.numbers.items() for word in words},
        multiples={times: _merged(languages, lambda g, t=times: g.multiples.get(t, ()))
                   for times in sorted({t for lang in languages.values()
                                        for t in lang.grid.multiples})},
        jurisdictions=tuple(
            (place, _merged(languages, lambda g, p=place: g.jurisdictions.get(p, ())))
            for place in dict.fromkeys(p for lang in languages.values()
                                       for p in lang.grid.jurisdictions)),
        languages={code: cues(_all_words(lang.grid)) for code, lang in languages.items()},
        decimal_comma=frozenset(code for code, lang in languages.items()
                                if lang.numbers.decimal == ","),
    )


# word sets of short, common words ("the", "and", "als"): they would outweigh a document's
# contract words when telling its language
_SHARED = frozenset({"articles", "joining", "acting_as"})


def _all_words(grid: GridWords) -> list[str]:
    """A language's own grid words (names of columns and kinds aside: people type English)."""
    words = [w for c in grid.columns.values() for w in (*c.stated, *c.negated, *c.headings)]
    words += [w for name, ws in grid.words.items() if name not in _SHARED for w in ws]
    words += [w for ws in grid.units.values() for w in ws]
    return [w for w in words if not w.startswith("re:")]


def _check(table: _GridTable, languages: dict) -> None:  # type: ignore[type-arg]
    keys = [c.key for c in table.columns]
    topics = {t.key for t in load().topics}
    kinds = {k.key for k in table.document_kinds}
    en = languages["en"].grid
    for row in table.columns:
        words = en.columns.get(row.key)
        if words is None or not (words.label and words.names and words.describe
                                 and words.searched and words.question):
            raise VocabularyError(f"languages/en.yaml: grid column {row.key!r} needs a label, "
                                  "names, describe, searched and question (grid.yaml names it)")
        if row.topic is not None and row.topic not in topics:
            raise VocabularyError(f"grid.yaml: column {row.key!r} names topic {row.topic!r}, "
                                  "which topics.yaml does not have")
    for row in table.column_sets:
        if unknown := set(row.columns) - set(keys):
            raise VocabularyError(f"grid.yaml: column set {row.key!r} names {sorted(unknown)}, "
                                  "which are no columns")
        if row.kind not in kinds:
            raise VocabularyError(f"grid.yaml: column set {row.key!r} is for kind {row.kind!r}, "
                                  "which is no document kind")
    for code, lang in languages.items():
        where = f"manda/vocabulary/languages/{code}.yaml"
        if unknown := set(lang.grid.columns) - set(keys):
            raise VocabularyError(f"{where}: grid columns {sorted(unknown)} are not in grid.yaml")
        if unknown := set(lang.grid.kinds) - kinds:
            raise VocabularyError(f"{where}: grid kinds {sorted(unknown)} are not in grid.yaml")
        if unknown := set(lang.grid.words) - set(en.words):
            raise VocabularyError(f"{where}: grid word sets {sorted(unknown)} are not in en.yaml")
        if unknown := set(lang.grid.units) - set(DURATION_UNITS):
            raise VocabularyError(f"{where}: grid units {sorted(unknown)} are none of "
                                  f"{DURATION_UNITS}")
