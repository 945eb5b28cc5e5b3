"""Words a PDF's text runs cut or glued, mended from the document's own vocabulary.

PDFs printed from HTML one text run per cell break lines where a run ended, not where a word did
("Long-term debt, net of cur\\nrent portion"), and run other words together ("equityAccounts",
"assets1,215", "overthe"). A cut word is joined where the joined word stands elsewhere in the
document and a half does not (or far more rarely); a glued one is parted where both parts stand
and the glued form does not. Only a document whose line ends cut words often (`cuts_words`) is
mended, so well-laid documents read exactly as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby, pairwise

__all__ = ["cuts_words", "document_words", "lone_letters", "mend_words", "parted_words", "pieces",
           "word_neighbours"]

GLUED = 20  # two words stand this many times more often apart than glued: a glued pair
RARER = 8  # a half standing this many times less often than the joined word does not count
KNOWN = 2  # a word stands in the document when it is read this often away from line ends
# a word glued after a capitalised one ("Companycompleted") or a one-letter word ("aproposed")
# is parted only where it stands this often, and the one-letter word stands GLUED * KNOWN times
GLUED_AFTER = 5
SHORT_PART = 2  # a part of a glued word this short may be an ending ("commonly"), not a word
GLUED_AFTER_LETTER = 6  # and is this long: a short one ends real words ("away", "alike")
# a document cuts words at line ends when this share of its lines ends in a cut word
CUT_SHARE = 0.01
MIN_CUTS = 10
_HEAD_JOINERS = "-'’"  # "f-use", "ckholders'": what keeps a head's letters together
_HEAD_CLOSERS = "),.;:"  # what follows a word's end without a space


def _letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _kind(char: str) -> str:
    return "a" if _letter(char) else "d" if char.isdigit() else char


def pieces(text: str) -> list[str]:
    """The text as runs of letters, runs of digits and runs of any one other character."""
    return ["".join(group) for _, group in groupby(text, key=_kind)]


def _word(piece: str) -> bool:
    return bool(piece) and _letter(piece[0])


def document_words(pages: Sequence[str]) -> Counter[str]:
    """How often each word (lower-cased letters) stands inside a line, away from its ends, where
    no printer cuts it."""
    counts: Counter[str] = Counter()
    for page in pages:
        for line in page.split("\n"):
            for word in [p for p in pieces(line) if _word(p)][1:-1]:
                counts[word.lower()] += 1
    return counts


def word_neighbours(pages: Sequence[str]) -> Counter[tuple[str, str]]:
    """How often two words (lower-cased letters) stand one after the other, a space apart,
    whatever signs are around them ("(in millions)": ("in", "millions"))."""
    counts: Counter[tuple[str, str]] = Counter()
    for page in pages:
        for line in page.split("\n"):
            parts = pieces(line)
            counts.update((a.lower(), c.lower()) for a, b, c in zip(parts, parts[1:], parts[2:],
                                                                   strict=False)
                          if b == " " and _word(a) and _word(c))
    return counts


def lone_letters(pages: Sequence[str]) -> Counter[str]:
    """How often each lower-case letter stands as a word of its own between spaces ("a"), not
    after an apostrophe or inside a figure."""
    counts: Counter[str] = Counter()
    for page in pages:
        for line in page.split("\n"):
            counts.update(w for w in line.split(" ") if len(w) == 1 and _lower(w))
    return counts


def _joins(before: str, after: str, words: Counter[str]) -> bool:
    """`before` ends and `after` starts one word cut in two ("ref" + "lected")."""
    joined = words[(before + after).lower()]
    if not joined:
        return False
    rarer = min(words[before.lower()], words[after.lower()])
    return rarer * RARER <= joined


def _cut_at(line: str, following: str, words: Counter[str]) -> int:
    """How much of `following` finishes the word `line` ends in (0 when they are two words):
    its lower-case letters and what stays with them ("f-use", "m)")."""
    tail = pieces(line[-60:])[-1:] if line else []
    head = pieces(following[:60])
    if not tail or not _word(tail[0]) or not head or not _word(head[0]):
        return 0
    lower = len(head[0]) - len(head[0].lstrip("abcdefghijklmnopqrstuvwxyz"))
    if not lower or not _joins(tail[0], head[0][:lower], words):
        return 0
    if lower < len(head[0]):
        return lower  # "esYear": the word ends where the capital starts
    size, k = lower, 1
    while k < len(head) and head[k] in _HEAD_JOINERS:  # "f-use", "ckholders'"
        size += len(head[k])
        k += 1
        if k < len(head) and _word(head[k]):
            size += len(head[k])
            k += 1
    while k < len(head) and all(c in _HEAD_CLOSERS for c in head[k]):
        size += len(head[k])
        k += 1
    return size


def cuts_words(pages: Sequence[str], words: Counter[str]) -> bool:
    """The document's line ends cut words often: it was printed in text runs, not lines."""
    cuts = lines = 0
    for page in pages:
        rows = page.split("\n")
        lines += len(rows)
        cuts += sum(1 for a, b in pairwise(rows) if _cut_at(a, b, words))
    return cuts >= MIN_CUTS and cuts >= CUT_SHARE * lines


def mend_words(text: str, words: Counter[str], pairs: Counter[tuple[str, str]] | None = None,
               letters: Counter[str] | None = None) -> str:
    """The page with each word cut at a line end made whole on the line it starts on, and the
    words of each line mended (`_mended_line`). `pairs` (`word_neighbours`) and `letters`
    (`lone_letters`), the document's, let a word glued after a capitalised or a one-letter word
    be parted too."""
    out: list[str] = []
    for line in text.split("\n"):
        if out and (size := _cut_at(out[-1], line, words)):
            out[-1] += line[:size]
            line = line[size:].lstrip()
            if not line:
                continue
        out.append(line)
    glued = _Glued(words, pairs or Counter(), letters or Counter())
    return "\n".join(_mended_line(line, glued) for line in out)


def _stands(word: str, words: Counter[str]) -> bool:
    return words[word.lower()] >= KNOWN


def _lower(text: str, size: int = 1) -> bool:
    return len(text) >= size and all(c.islower() and c.isascii() for c in text)


def _capitalised(piece: str) -> bool:
    """"Accounts": a capital and at least two lower-case letters."""
    return _word(piece) and piece[0].isupper() and _lower(piece[1:], 2)


def _opens_sentence(piece: str) -> bool:
    """"For", "PayPal": a capital and two lower-case letters start it."""
    return _word(piece) and piece[0].isupper() and _lower(piece[1:3], 2)


@dataclass(frozen=True)
class _Glued:
    """What the document says of its words: how often each stands (`document_words`), each two
    stand one after the other (`word_neighbours`), each letter stands alone (`lone_letters`)."""

    words: Counter[str]
    pairs: Counter[tuple[str, str]]
    letters: Counter[str]


def _mended_line(line: str, glued: _Glued) -> str:
    """A line with each word a text run cut within it joined ("int angible") and glued words
    parted where both parts stand as words and the glued form does not: a lower-to-upper join
    starts a new line ("equity\\nAccounts payable"), as does a capital after ")" ("(Note 15)
    \\nRedeemable"); two lower-case words get a space ("overthe"), and so do a sentence glued to
    the next ("any.For") and a word glued to a figure ("assets 1,215", "1,849,794 and")."""
    words = glued.words
    parts = _joined(pieces(line), words)
    out: list[str] = []
    for k, piece in enumerate(parts):
        before = parts[k - 1] if k else ""
        after = parts[k + 1] if k + 1 < len(parts) else ""
        if _word(piece):
            piece = _parted(piece, before, after, glued)
        elif piece == ")" and _opens_sentence(after):
            piece = ")\n"
        elif piece in ".;:" and _word(before) and _lower(before[-2:], 2) \
                and _opens_sentence(after):
            piece += " "
        out.append(piece)
    return "".join(out)


def parted_words(text: str, words: Counter[str], pairs: Counter[tuple[str, str]]) -> str:
    """The page with each lower-case word glued to the capitalised one after it parted by a
    space ("as ofJanuary 31", where the font changed): both parts stand as words in the document
    and the glued form does not, or less often than the two stand one after the other (`pairs`,
    lower-cased), so names written that way ("PayPal", "iPhone") stay whole. For documents whose
    line ends do not cut words (`mend_words` mends the others)."""
    out: list[str] = []
    for line in text.split("\n"):
        parts = pieces(line)
        for k, piece in enumerate(parts):
            before = parts[k - 1] if k else ""
            after = parts[k + 1] if k + 1 < len(parts) else ""
            if _word(piece) and not before[-1:].isdigit() and not after[:1].isdigit() \
                    and (left := _glued_left(piece, words, pairs)):
                piece = f"{piece[:left]} {piece[left:]}"
            parts[k] = piece
        out.append("".join(parts))
    return "\n".join(out)


def _glued_left(word: str, words: Counter[str],
                pairs: Counter[tuple[str, str]] | None = None) -> int:
    """Where a lower-case word ends that is glued to a capitalised one ("ofJanuary": 2), or 0:
    the glued form does not stand, or (given `pairs`) stands less often than the two words do
    one after the other."""
    cap = max((i for i, c in enumerate(word) if c.isupper()), default=0)
    left, right = word[:cap], word[cap:]
    if not (cap >= 2 and _lower(left[-2:], 2) and _capitalised(right) and _stands(left, words)
            and _stands(right, words)):
        return 0
    if not _stands(word, words):
        return cap
    apart = pairs[(left.lower(), right.lower())] if pairs is not None else 0
    return cap if apart >= max(KNOWN, words[word.lower()]) else 0


def _parted(word: str, before: str, after: str, glued: _Glued) -> str:
    """One run of letters with its glued words parted (see `_mended_line`, `_glued_after`)."""
    words = glued.words
    digits_around = before[:1].isdigit() or after[:1].isdigit()
    if not digits_around:
        if cap := _glued_left(word, words):
            return f"{word[:cap]}\n{word[cap:]}"
        if _lower(word, 5):
            splits = [(min(words[word[:i]], words[word[i:]]), i) for i in range(2, len(word) - 1)]
            best, at = max(splits, default=(0, 0))
            if best >= KNOWN and best >= GLUED * words[word] and _written_apart(word, at, glued):
                return f"{word[:at]} {word[at:]}"
        if at := _glued_after(word, glued):
            return f"{word[:at]} {word[at:]}"
        return word
    if before[:1].isdigit() and not after[:1].isdigit() and _lower(word, 3) \
            and _stands(word, words):
        return f" {word}"  # "1,849,794and"
    return word


def _written_apart(word: str, at: int, glued: _Glued) -> bool:
    """Two lower-case words read glued are two where the glued form stands at most once away
    from a line end and a part of one or two letters stands at least as often as the other (a
    word like "in", "or", not an ending like "ly"); else only where the document writes the two
    apart elsewhere ("another" stays whole, never "an other"; "commonly", never "common ly").
    Without the document's pairs, the counts alone decide."""
    words, left, right = glued.words, word[:at], word[at:]
    if not glued.pairs:
        return True
    short = (len(left) <= SHORT_PART and words[left] < words[right]) or (
        len(right) <= SHORT_PART and words[right] < words[left])
    return (words[word] < KNOWN and not short) or glued.pairs[(left, right)] > 0


def _glued_after(word: str, glued: _Glued) -> int:
    """Where a lower-case word starts that is glued after a capitalised one ("Companycompleted":
    7) or after a one-letter word ("aproposed": 1), or 0. The glued form never stands away from
    a line end, the word after stands `GLUED_AFTER` times; a capitalised word before it stands
    too and the document writes the two apart elsewhere ("the Company completed"), so words
    that only look made of two ("Moreover", "Nonvested", "Wayfair") stay whole; a one-letter
    word is one the document writes alone often ("a") and the word after it is long."""
    words, low = glued.words, word.lower()
    if words[low] or not _lower(word[1:]):
        return 0
    if word[0].islower():
        if len(word) <= GLUED_AFTER_LETTER or glued.letters[word[0]] < GLUED * KNOWN:
            return 0
        return 1 if words[low[1:]] >= GLUED_AFTER else 0
    splits = [(min(words[low[:i]], words[low[i:]]), i) for i in range(2, len(word) - 1)
              if words[low[i:]] >= GLUED_AFTER and glued.pairs[(low[:i], low[i:])]]
    best, at = max(splits, default=(0, 0))
    return at if best >= KNOWN else 0


def _joined(parts: list[str], words: Counter[str]) -> list[str]:
    """The pieces with each word a text run cut in two made whole ("int angible"), and a word
    glued to the figure after it parted ("assets1,215", "taxes$")."""
    out: list[str] = []
    i = 0
    while i < len(parts):
        piece = parts[i]
        while (i + 2 < len(parts) and _word(piece) and parts[i + 1] == " "
               and _lower(parts[i + 2][:1]) and _joins(piece, parts[i + 2], words)):
            piece += parts[i + 2]
            i += 2
        before = out[-1] if out else ""
        after = parts[i + 1] if i + 1 < len(parts) else ""
        beyond = parts[i + 2] if i + 2 < len(parts) else ""
        out.append(piece)
        if (_word(piece) and _lower(piece[-2:], 2) and not before[-1:].isdigit()
                and before[-1:] not in ("$", "_") and _stands(piece, words)
                and (after[:1].isdigit() or after == "$"
                     or (after == "(" and beyond[:1].isdigit()))):
            out.append(" ")  # "assets1,215", "taxes$"
        i += 1
    return out
