"""A word's other forms in keyword search: "acquire" finds "acquisition", "reduce" "reduction",
"buy" "bought" and "acquired" (the vocabulary's `word_forms`).

English (Snowball) stems of a verb and its noun often differ ("acquir" / "acquisit"): the
vocabulary's `stem_families` gives the endings one family's stems take, and a question's stem is
also searched by its family's other stems, weighed a little less. Both keyword engines read it:
the embedded store's tantivy query and the Neo4j adapter's Lucene query.
"""

from __future__ import annotations

from functools import cache

import tantivy

from manda.vocabulary import vocabulary

__all__ = ["SIBLING_BOOST", "english_stems", "stem_family"]

SIBLING_BOOST = 0.8  # a word's other form ("acquisition" for "acquire") weighs a little less
MAX_TOKEN_CHARS = 40  # longer "words" (hashes, base64) are dropped, as tantivy's en_stem does


@cache
def english_analyzer() -> tantivy.TextAnalyzer:
    """Letters-and-digits words, lower-cased, accents folded, English stems (for text and query)."""
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(MAX_TOKEN_CHARS))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def english_stems(text: str) -> list[str]:
    """The English stems of the words of `text`, in order."""
    return list(english_analyzer().analyze(text))


def stem_family(stem: str) -> list[str]:
    """The stems of a word's other forms, verb and noun ("acquir": "acquisit"; "reduct":
    "reduc"), by the endings `stem_families` gives (at least three letters before one)."""
    out: list[str] = []
    for pair in _families():
        for own, other in (pair, pair[::-1]):
            if stem.endswith(own) and len(stem) - len(own) >= 3:
                out.append(stem[: -len(own)] + other)
    out += [s for group in _forms() if stem in group for s in group]
    return [s for s in dict.fromkeys(out) if s != stem]


@cache
def _forms() -> tuple[frozenset[str], ...]:
    """The stems of the words read as one another's (`word_forms:`): "buy" finds "bought" and
    "acquired", a verb's irregular forms and a filing's word for a deal team's."""
    return tuple(frozenset(s for w in (word, *forms) for s in english_stems(w))
                 for lang in vocabulary().languages.values()
                 for word, forms in lang.word_forms.items())


@cache
def _families() -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for lang in vocabulary().languages.values() for a, b in lang.stem_families)
