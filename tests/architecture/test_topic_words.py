"""The deal topics' words live in the vocabulary: no regex literal in product code spells a
topic's cue (issue 24: "the table is the only place topic knowledge lives").

A ratchet that reached empty: no regex literal outside the vocabulary holds a topic word. A new
one anywhere fails; list it here only as a known debt, with the words it spells."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import manda
from manda.vocabulary import vocabulary

# Modules left holding topic words in a regex, each a known debt with the words it spells.
STILL_IN_CODE: dict[str, set[str]] = {}
# where words are data or sample rooms' text, not rules
NOT_RULES = ("vocabulary/", "sample/", "testing/")
_REGEX_SYNTAX = re.compile(r"\\s[+*]?|\[\\s-\]\??|\\-|\(\?:|\)|\\b|\?|\(")
_CALLS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "split"}


def _topic_words() -> set[str]:
    """Every topic's plain cue phrases (asked, terms, stated) of every language: phrases of two
    words or more, or single words of eight letters or more."""
    words: set[str] = set()
    for language in vocabulary().languages.values():
        for spoken in language.topics.values():
            for phrase in (*spoken.asked, *spoken.terms, *spoken.stated):
                phrase = phrase.lower()
                if not re.search(r"[\[\]~*#!|]", phrase) and (
                        len(phrase.split()) >= 2 or len(phrase) >= 8):
                    words.add(phrase)
    return words


def _regex_literals(tree: ast.AST) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _CALLS and node.args):
            out += [c.value for c in ast.walk(node.args[0])
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return out


def test_topic_words_are_spelled_only_in_the_vocabulary() -> None:
    words = _topic_words()
    assert len(words) > 100  # the scan reads the vocabulary, not an empty table
    root = Path(manda.__file__).parent
    found: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        module = str(path.relative_to(root))
        if module.startswith(NOT_RULES):
            continue
        for literal in _regex_literals(ast.parse(path.read_text(encoding="utf-8"))):
            text = " ".join(_REGEX_SYNTAX.sub(" ", literal.lower()).split())
            spelled = {w for w in words
                       if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text)}
            if spelled:
                found.setdefault(module, set()).update(spelled)
    assert found == STILL_IN_CODE
