"""Turns any question a person types into a safe Lucene query for Neo4j's full-text index.

Lucene's query parser has its own language (`+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /`, upper-case
`AND`/`OR`/`NOT`), so raw text raises parse errors or silently changes meaning. The question is cut
into words the way Lucene's standard tokenizer cuts text (letters and digits, joined by `.`, `,`
or `'` between them, so `5.2M` and `O'Neil` stay whole while `text:revenue` gives two words),
lower-cased (no operator word survives) and escaped; the words are OR-ed, so BM25 ranks passages
by how many of the rarer words they contain. The index's analyzer (see `schema.py`) then stems
them and drops stop words exactly as it did when the chunks were indexed. A word's other forms
(`manda.kg.word_families`: "acquire" also finds "acquisition") are added as their stems, boosted
a little less, as the embedded store's query adds them.
"""

from __future__ import annotations

import re

from manda.kg.word_families import SIBLING_BOOST, english_stems, stem_family

MAX_TERMS = 32  # far below Lucene's clause limit; more words add noise, not recall

_WORD = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*")
_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def escape(term: str) -> str:
    """Backslash every character Lucene's query parser would read as syntax."""
    return _SPECIAL.sub(r"\\\1", term)


def lucene_terms(text: str) -> list[str]:
    """The distinct escaped terms of `text`, in the order written (at most `MAX_TERMS`)."""
    terms = [escape(word) for word in _WORD.findall(text.lower())]
    return list(dict.fromkeys(terms))[:MAX_TERMS]


def lucene_query(text: str) -> str | None:
    """`what OR was OR q3 OR 2024 OR revenue` for "What was Q3 2024 revenue?"; None if no word.
    A word with other forms brings their stems, boosted less ("acquire": `acquisit^0.8`)."""
    terms = lucene_terms(text)
    if not terms:
        return None
    siblings = [f"{escape(other)}^{SIBLING_BOOST}" for term in terms
                for stem in english_stems(term.replace("\\", "")) for other in stem_family(stem)]
    return " OR ".join(dict.fromkeys([*terms, *siblings]))
