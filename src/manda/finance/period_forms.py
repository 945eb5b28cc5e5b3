"""How each language writes a period in words, compiled from the language files' `periods:`.

A form is written as the language writes it: words apart by spaces, `a|b` either word,
`[a|b c]` optional words, and placeholders for what the period is read from: `{n}` a quarter's
or half's number, `{nth}` an ordinal word of any language ("third", "troisième", "dritten"),
`{year}` a four-digit year, `{yy}` an apostrophe and a two-digit year ("fiscal '25"), `{date}` a
calendar date ("31 December 2023", "31. Dezember 2023", "31 de diciembre de 2023") and `{month}`
a month of a year ("March 2025", "Mar-25"). `manda.finance.periods` reads every language's forms
at once, so ingestion, questions and the answer gate read "T3 2024", "exercice clos le 30
septembre 2023" and "3. Quartal 2024" alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from manda.vocabulary import vocabulary

__all__ = ["ALONE_KINDS", "FORM_KINDS", "FormReader", "ordinals"]

# what a form of each `periods:` list says: the label it is read into
FORM_KINDS = ("quarters", "halves", "years", "year_ended", "quarter_ended", "half_ended",
              "trailing")
# a quarter named without its year ("the fourth quarter", "Q4", "three months ended December
# 31"): read apart, as a quarter of the year its text or document states
ALONE_KINDS = ("quarter_alone",)
_PLACEHOLDER = re.compile(
    r"(\{n\}|\{nth\}|\{year\}|\{yy\}|\{date\}|\{month\}|\{monthday\})")
_TOKEN = re.compile(r"\[[^\]]*\]|[^\s\[]+")


def ordinals() -> dict[str, int]:
    """Ordinal words of every language ("third": 3, "troisième": 3, "dritten": 3)."""
    return {word.lower(): n for lang in vocabulary().languages.values()
            for word, n in lang.periods.ordinals.items()}


def _words(alternatives: str) -> str:
    """`as of|at` → either phrase, its spaces any run of spaces."""
    return "|".join(r"\s+".join(re.escape(w) for w in a.split()) for a in alternatives.split("|"))


def _punctuation(text: str) -> bool:
    return not re.match(r"[\w{]", text)


@dataclass(frozen=True)
class FormReader:
    """Every language's forms as one pattern; `read` names the kind and the groups of a match."""

    pattern: re.Pattern[str]
    kinds: dict[str, str]  # the group of each form -> its kind

    def read(self, m: re.Match[str]) -> tuple[str, dict[str, str]]:
        """The kind of the form that matched and its placeholders' text, by name."""
        form = m.lastgroup or ""
        suffix = form[1:]
        values = {name.rsplit("_", 1)[0]: value for name, value in m.groupdict().items()
                  if value is not None and name.endswith(f"_{suffix}")}
        return self.kinds[form], values

    @classmethod
    def compile(cls, places: Mapping[str, str], kinds: tuple[str, ...] = FORM_KINDS
                ) -> FormReader:
        """Every language's forms of `kinds`, the longest first; `places` gives each
        placeholder's pattern (`{nth}` is built from the ordinals), with no groups of its own."""
        forms = [(kind, form) for lang in vocabulary().languages.values()
                 for kind in kinds for form in getattr(lang.periods, kind)]
        forms.sort(key=lambda kf: -len(_TOKEN.findall(kf[1])))  # a longer form is tried first
        nth = "|".join(re.escape(w) for w in sorted(ordinals(), key=len, reverse=True))
        places = {**places, "{nth}": nth or r"(?!x)x"}
        kinds, body = {}, []
        for index, (kind, form) in enumerate(forms):
            kinds[f"f{index}"] = kind
            body.append(f"(?P<f{index}>{_form(form, places, index)})")
        pattern = "|".join(body) or r"(?!x)x"
        return cls(re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE), kinds)


def _form(form: str, places: Mapping[str, str], index: int) -> str:
    """One form's pattern: each token after the joiner it needs (none before punctuation)."""
    out, joined = "", False  # `joined`: a mandatory piece is written, the next one needs a gap
    for token in _TOKEN.findall(form):
        if token.startswith("[") and token.endswith("]"):
            options = token[1:-1].split("|")
            alternatives = "|".join(
                (r"\s*" if _punctuation(o) else r"\s+") + _words(o) if joined
                else _words(o) + (r"\s*" if _punctuation(o) else r"\s+") for o in options)
            out += f"(?:{alternatives})?"
            continue
        gap = r"\s*" if _punctuation(token) or token.startswith("{yy}") else r"\s+"
        out += (gap if joined else "") + _piece(token, places, index)
        joined = True
    return out


def _piece(token: str, places: Mapping[str, str], index: int) -> str:
    out = ""
    for part in _PLACEHOLDER.split(token):
        if not part:
            continue
        if part in places:
            out += f"(?P<{part[1:-1]}_{index}>{places[part]})"
        elif "|" in part:
            out += f"(?:{_words(part)})"
        else:
            out += re.escape(part).replace(r"\-", r"[\s\-]*")
    return out
