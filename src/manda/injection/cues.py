"""The words a prompt injection is written with, per language, as data: each language file's
`injection:` section (`manda/vocabulary/languages/<code>.yaml`). The detector (`manda.injection`)
builds its patterns from them; a new language is one more file.

The detector reads in two rounds, both from these words: a first look (a wide override, role
labels and tags, an addressee followed by a command or a figure to change), and then what is
shared by every language: who an injection speaks to, how it overrides earlier instructions,
what it tells the reader to output or hide, and the condition it waits for.
"""

from __future__ import annotations

from manda.vocabulary import vocabulary
from manda.vocabulary.model import InjectionWords

__all__ = ["LANGUAGES"]

# every language that says how an injection is written in it, English first (regular-expression
# fragments, matched case-insensitively on the text of `manda.text_forms.matching_form`)
LANGUAGES: tuple[InjectionWords, ...] = tuple(
    lang.injection for lang in vocabulary().languages.values()
    if lang.injection != InjectionWords())
