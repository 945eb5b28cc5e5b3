"""Cue phrases, as the vocabulary files write them, compiled once into one matcher per cue set.

A cue is a phrase matched as whole words, case-insensitively:

- words separated by spaces: ``change of control`` (a space also matches a dash or a run of
  spaces: "change-of-control");
- ``word*``: any ending ("litigat*" is litigation, litigated, litigating);
- ``a|b``: either word in that place ("claim|claims against");
- ``[word]``: an optional word ("[the] board of directors"), or words ("[at least] two");
- ``~``: any one to three words ("depend* on ~ customer*"); ``[~]``: none to three words;
- ``...``: any words of the same sentence, or none ("what did ... discuss*");
- ``#``: a number ("#% of revenue", "# % of revenue");
- a last word ``!a|b``: not followed by it ("management !accounts|report");
- ``re:…``: a regular expression, for the rare cue a phrase cannot say.

This is the only place where cue phrases become patterns: everything that reads topics,
intents, roles or line items asks a `Cues` object, never a regex of its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache, lru_cache

__all__ = ["Cues", "check_phrase", "compile_phrase", "cues"]

_GAP = r"[\s\-]+"
_NUMBER = r"\d+(?:[.,\s]\d{3})*(?:[.,]\d+)?"
_ANY_WORDS = r"(?:[^\s.?!;]+\s+){0,2}[^\s.?!;]+"
# words that bring their own gap after them (so that none at all leaves a single gap)
_SOME_WORDS = r"(?:[^\s.?!;]+[\s\-]+){0,3}"
_SENTENCE_WORDS = r"(?:[^.?!;]*?[\s\-'’])?"  # an elision ("l'EBITDA") ends one too


def _accent_optional(text: str) -> str:
    """Literal text whose accented letters may be typed without their accent ("quién" reads
    "quien" too, "société" "societe")."""
    out = []
    for char in text:
        base = unicodedata.normalize("NFD", char)[0]
        out.append(f"[{char}{base}]" if base != char and base.isascii() else char)
    return "".join(out)


def _word(token: str, loose: bool = False) -> str:
    """One word of a phrase: literal text, `*` for any ending, `a|b` for either; `loose`: its
    accents optional."""
    alternatives = []
    for option in token.split("|"):
        stem, star = (option[:-1], True) if option.endswith("*") and len(option) > 1 \
            else (option, False)
        text = re.sub(r"['’]", "['’]", re.escape(stem)).replace(r"\#", _NUMBER)
        text = _accent_optional(text) if loose else text
        alternatives.append(text + (r"\w*" if star else ""))
    return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"


def check_phrase(phrase: str) -> None:
    """Refuses a phrase the syntax cannot read: an optional `[…]` closes before the next one
    opens, and no bracket stands alone."""
    if phrase.strip().startswith("re:"):
        return
    for chunk in re.findall(r"\[[^\]]*\]?|[^\s\[]+", phrase):
        inside = chunk[1:-1] if chunk.startswith("[") else chunk
        if (chunk.startswith("[") and not chunk.endswith("]")) or "[" in inside or "]" in inside:
            raise ValueError(f"cue {phrase!r}: an optional word or words stand in one pair of "
                             f"brackets ('[the] board', '[at least] two'), not {chunk!r}")


def compile_phrase(phrase: str, loose: bool = False) -> str:
    """The pattern of one cue phrase: whole words where it begins and ends with a word (`loose`:
    an accented letter may be typed without its accent)."""
    phrase = phrase.strip()
    if phrase.startswith("re:"):  # its own boundaries, where it wants them
        return "(?:" + phrase[3:].strip() + ")"
    tokens = [t for chunk in re.findall(r"\[[^\]]*\]|[^\s\[]+", phrase)
              for t in ([chunk] if chunk.startswith("[") else re.split(r"(?<=\w)-(?=\w)", chunk))
              if t]
    negative = ""
    if tokens and tokens[-1].startswith("!") and len(tokens) > 1:
        negative = f"(?!{_GAP}(?:" + "|".join(
            _word(w, loose) for w in tokens.pop()[1:].split("|")) + r")(?![\w]))"
    pieces: list[tuple[str, str]] = []  # (pattern, "word" | "optional" | "span")
    for token in tokens:
        if token == "~":
            pieces.append((_ANY_WORDS, "word"))
        elif token in ("[~]", "..."):
            pieces.append((_SOME_WORDS if token == "[~]" else _SENTENCE_WORDS, "span"))
        elif token.startswith("[") and token.endswith("]") and len(token) > 2:
            words = token[1:-1].split()  # "[at least]": the words together, or none of them
            pieces.append((_GAP.join(_word(w, loose) for w in words), "optional"))
        else:
            pieces.append((_word(token, loose), "word"))
    out, gap_needed = "", False
    for pattern, kind in pieces:
        if kind == "span":  # its words bring their gaps: "did ... discuss" is "did discuss" too
            out += (_GAP if gap_needed else "") + pattern
            gap_needed = False
        elif kind == "optional" and not gap_needed:
            out += f"(?:{pattern}{_GAP})?"  # a leading optional word brings its own gap
        elif kind == "optional":
            out += f"(?:{_GAP}{pattern})?"
        else:
            out += (_GAP if gap_needed else "") + pattern
            gap_needed = True
    start = r"(?<![\w])" if re.match(r"[\w\[#~]", phrase) else ""
    end = r"(?![\w])" if re.search(r"[\w\]*#~]$", phrase.split(" !")[0]) else ""
    return start + out + negative + end


@dataclass(frozen=True)
class Cues:
    """A set of cue phrases and the one pattern they compile to."""

    phrases: tuple[str, ...]
    loose: bool = False  # an accented letter may be typed without its accent

    @property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on first use, once for the same phrases."""
        return _compiled(self.phrases, self.loose)

    def accents_optional(self) -> Cues:
        """The same cues read as people type a question: an accented letter may be typed
        without its accent ("quien dirige" for "quién dirige", "Qui dirige la societe")."""
        return replace(self, loose=True)

    def search(self, text: str) -> re.Match[str] | None:
        """The first cue in the text; the same text asked of the same cues again (a deal's
        sentences read for every red flag, every question) is answered from memory."""
        return _search(self.pattern, text) if self.phrases else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(text) if self.phrases else iter(())

    def findall(self, text: str) -> list[str]:
        return [m.group(0) for m in self.finditer(text)]

    def starts(self, text: str) -> re.Match[str] | None:
        """A cue that opens the text ("And EBITDA?", "What about last year?")."""
        stripped = text.lstrip()
        if not self.phrases:
            return None
        return self.pattern.match(stripped)

    def fullmatch(self, text: str) -> bool:
        return bool(self.phrases) and self.pattern.fullmatch(text.strip()) is not None

    def found(self, text: str) -> bool:
        return self.search(text) is not None

    def begins(self, text: str) -> bool:
        """The text starts with one of the cues: "Total revenue", "Other customers"."""
        start = len(text) - len(text.lstrip())
        return bool(self.phrases) and self.pattern.match(text, start) is not None

    def ends(self, text: str) -> bool:
        """The text ends with one of the cues: "Umsatz gesamt"."""
        end = len(text.rstrip())
        return any(m.end() == end for m in self.finditer(text))

    def count(self, text: str) -> int:
        return sum(1 for _ in self.finditer(text))

    def __bool__(self) -> bool:
        return bool(self.phrases)

    def __or__(self, other: Cues) -> Cues:
        return replace(cues((*self.phrases, *other.phrases)), loose=self.loose or other.loose)

    @property
    def slot(self) -> str:
        """The cue set as one slot of a grammar written around it ("(was) {drawn} under"): its
        pattern in a group, each phrase with its own word boundaries; the grammar compiles it
        case-insensitively."""
        return f"(?:{self.pattern.pattern})"

    def around(self, head: str = "", tail: str = "") -> re.Pattern[str]:
        """The cue words between structural patterns written as they must match (a capitalised
        name, a number, the end of the text): "against" + a name is a party, a name + "has
        filed" a claimant. The words read case-insensitively; compiled once for the same
        phrases and patterns."""
        return _around(self.phrases, head, tail)


@cache
def _compiled(phrases: tuple[str, ...], loose: bool = False) -> re.Pattern[str]:
    # longest first, so "net revenue retention" wins over "net revenue" at the same place (a
    # phrase's length is its words', not its "!not followed by" list's)
    ordered = sorted(set(phrases), key=lambda p: (-len(p.split(" !")[0]), p))
    body = "|".join(f"(?:{compile_phrase(p, loose)})" for p in ordered) or r"(?!x)x"
    return re.compile(body, re.IGNORECASE)


@lru_cache(maxsize=1 << 16)
def _search(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return pattern.search(text)


@cache
def _around(phrases: tuple[str, ...], head: str, tail: str) -> re.Pattern[str]:
    return re.compile(f"{head}(?i:{_compiled(phrases).pattern}){tail}")


def cues(phrases: Iterable[str]) -> Cues:
    """The cue set of these phrases (compiled once for the same phrases)."""
    unique = tuple(dict.fromkeys(p.strip() for p in phrases if p and p.strip()))
    return Cues(unique)
