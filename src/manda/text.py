"""The shapes of plain text every reader shares: words, years, and the lines of an answer.

One definition each, imported by the question reader, the composers, the checks of an answer and
ingestion alike, so that "a word" or "a year" means the same thing everywhere. Words of a
language are not here (they live in `manda.vocabulary`), only shapes no language owns.
"""

from __future__ import annotations

import re

__all__ = ["HEADING_LINE", "NOTE_LINE", "POSSESSIVE", "SOURCE_NOTE", "TABLE_LINE", "YEAR",
           "bullet_item", "count_of", "defined_terms", "is_heading_line", "is_table_rule",
           "letter_words", "name_words", "without_asides", "without_possessive", "words"]

_WORD = re.compile(r"[^\W_]+")  # letters and digits: "EBITDA", "2024", "Q3"
_LETTERS = re.compile(r"[^\W\d_]+")  # letters only: "Sept" of "Sept2024"

# a year of this century or the last, not part of a longer number: "2024", "FY2024"
YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
# "Kessler's", "the company’s": the ending of a name that owns something
POSSESSIVE = re.compile(r"['’]s$")

# The lines of a Markdown answer: a table row, a note in italics, a heading ("**Debt**:", "# Debt"),
# and the source marker written after a statement ("(source: …)", "(see: …)").
TABLE_LINE = re.compile(r"^\s*\|.+\|\s*$")
NOTE_LINE = re.compile(r"^_.+_$")
HEADING_LINE = re.compile(r"\*\*[^*]+\*\*:?|#+ .*")
SOURCE_NOTE = re.compile(r"\((?:sources?|see)\s*:[^)]*\)", re.IGNORECASE)
# a list item's bullet at the start of its line ("• lower inventory shrink;", "– Drizly")
_BULLET = re.compile(r"^\s*[•●▪◦‣∙*–\-]\s*(?=\S)")
_RULE_CELL = re.compile(r":?-+:?")
_ASIDE = re.compile(r"\([^)]*\)")  # "(dollars in millions)", "(i)"
_NAME_BREAK = re.compile(r"[_\-.]+")  # what a file name writes between its words


def without_asides(text: str) -> str:
    """The text without what it puts in brackets ("(dollars in millions)", "(i)")."""
    return _ASIDE.sub("", text)


# a term a document defines in brackets: '(the "2025 Notes")', '(ci-après la « Société »)'
_DEFINED = re.compile(r"\((?:[^\W\d_][\w'’-]*\s+){0,3}[\"“«„]\s*"
                      r"(?P<term>[^\"”»“()]{2,60}?)\s*[\"”»“]\)")
_DEFINIENDUM_WORDS = 10  # how many words before the bracket say what the term stands for


def defined_terms(text: str) -> dict[str, str]:
    """The terms a text defines, each with the words it stands for: "1.50% convertible senior
    notes due 2025 (the "2025 Notes")" makes "2025 Notes" say "convertible senior notes due
    2025" wherever the text uses it."""
    out: dict[str, str] = {}
    for m in _DEFINED.finditer(text):
        before = text[max(0, m.start() - 200):m.start()]
        clause = before.replace("\n", " ").rsplit(". ", 1)[-1].rsplit(")", 1)[-1]
        said = " ".join(clause.split()[-_DEFINIENDUM_WORDS:])
        if said:
            out.setdefault(m.group("term"), said)
    return out


def words(text: str) -> list[str]:
    """The words of a text, letters and digits, as written."""
    return _WORD.findall(text)


def said_in(phrase: str, text: str) -> bool:
    """`phrase` is in `text` as whole words ("aws" in "the aws segment", not in "laws")."""
    at = text.find(phrase)
    while at >= 0:
        end = at + len(phrase)
        if (at == 0 or not text[at - 1].isalnum()) and (end == len(text)
                                                        or not text[end].isalnum()):
            return True
        at = text.find(phrase, end)
    return False


def letter_words(text: str) -> list[str]:
    """The runs of letters of a text, as written (digits and signs split them)."""
    return _LETTERS.findall(text)


def is_heading_line(line: str) -> bool:
    """A whole line that is a heading of an answer: "**Covenants**:", "## Debt"."""
    return HEADING_LINE.fullmatch(line) is not None


def bullet_item(line: str) -> str | None:
    """The text of a line that is a bulleted list item, without its bullet; None for any other
    line (a dash before a figure, "-5%", is no bullet)."""
    m = _BULLET.match(line)
    if m is None or (m.group(0).strip() in "-–" and line[m.end():][:1].isdigit()):
        return None
    return line[m.end():].strip()


def is_table_rule(cells: list[str]) -> bool:
    """The cells of a Markdown table's rule line (`|---|:--:|`)."""
    return all(_RULE_CELL.fullmatch(c) for c in cells if c)


def name_words(name: str) -> str:
    """A file name or title with its separators read as spaces: "Mgmt_Accounts-Q3" → "Mgmt
    Accounts Q3"."""
    return _NAME_BREAK.sub(" ", name)


def without_possessive(name: str) -> str:
    """A name without its possessive ending: "Kessler's" → "Kessler"."""
    return POSSESSIVE.sub("", name)


def count_of(count: int, one: str, many: str | None = None) -> str:
    """`1 document`, `8 documents`: a count with its noun in the number it takes (`many` where
    the plural is not the noun and an s: `1 entry`, `2 entries`)."""
    return f"{count} {one if count == 1 else many or one + 's'}"
