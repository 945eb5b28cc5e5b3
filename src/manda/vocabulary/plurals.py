"""A term's plural, written into its cue phrase by each language's rule: the head noun takes the
plural ("lignes de crédit", "contratos de trabajo", "credit lines", "Kreditlinien"), so no file
has to list each plural by hand."""

from __future__ import annotations

import re

from manda.vocabulary.model import PluralRule

__all__ = ["plural_form", "plural_phrase", "with_plurals"]

_PLAIN = re.compile(r"[^\W\d_][\w'’-]*")  # a word as written: no cue syntax, no number


def plural_form(word: str, rule: PluralRule) -> str | None:
    """The word's plural by the first of the language's forms that fits its ending ("ligne" →
    "lignes", "Linie" → "Linien", "facility" → "facilities"); None where it is the same word
    ("prix", "Darlehen")."""
    low = word.lower()
    for form in rule.forms:
        ending, _, plural = form.partition(">")
        if low.endswith(ending):
            out = word[:len(word) - len(ending)] + plural
            return out if out.lower() != low else None
    return None


def _is_link(token: str, rule: PluralRule) -> bool:
    links = {w.lower() for w in rule.links}
    return any(option.lower() in links or option.lower().startswith(("d'", "d’"))
               for option in token.split("|"))


def _places(tokens: list[str], rule: PluralRule) -> range:
    """Which words of a phrase take the plural: those before its first link word, all of them
    or the last one by the language's rule."""
    head = next((i for i, t in enumerate(tokens) if i and _is_link(t, rule)), len(tokens))
    if tokens[head - 1].startswith("!"):
        head -= 1
    return range(head) if rule.words == "all" else range(head - 1, head)


def plural_phrase(phrase: str, rule: PluralRule) -> str | None:
    """A plain wording's plural, written out ("dette financière" → "dettes financières",
    "term loan" → "term loans"); None where it is the same, or the wording is in cue syntax."""
    tokens = phrase.split()
    if not rule.forms or not tokens or not all(_PLAIN.fullmatch(t) for t in tokens):
        return None
    changed = list(tokens)
    for i in _places(tokens, rule):
        changed[i] = plural_form(tokens[i], rule) or tokens[i]
    return " ".join(changed) if changed != tokens else None


def with_plurals(phrase: str, rule: PluralRule) -> str:
    """The cue phrase with its head noun's plurals as alternatives: "ligne de crédit" is
    "ligne|lignes de crédit"; a phrase in cue syntax the rule cannot read stays as written."""
    if not rule.forms or phrase.strip().startswith("re:") or "[" in phrase:
        return phrase
    tokens = phrase.split()
    places = _places(tokens, rule)
    changed = list(tokens)
    for i in places:
        options = tokens[i].split("|")
        if not all(_PLAIN.fullmatch(o) for o in options):
            continue
        forms = [*options, *filter(None, (plural_form(o, rule) for o in options))]
        changed[i] = "|".join(dict.fromkeys(forms))
    return " ".join(changed)
