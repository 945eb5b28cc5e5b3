"""A sentence a page break cuts, read on as a reader does: a page whose text ends mid-sentence
("… We negotiated the total payment to $9.15") is continued, for chunking, by the next page's
first words up to that sentence's end ("million ($150,000 as a fine and $9 million to fund safety
initiatives), which was approved … in December 2021."), so the whole sentence is one passage's,
found and quoted whole, and cited at the page it starts on. The next page keeps its own text.

What stands between the halves never enters the sentence: the running heads and footers the
document repeats on many pages (`headings.running_lines`), the running heads of one of its
sections (the same line at the top of a few pages: "RISK FACTORS Table of Contents"), a line
that is only a page number ("38", "-5-"), and a page number the text layer glued to the last
word ("$9.1538" on the page printed 38: the number a neighbouring page's last line counts on
from, else the document's fixed offset from its page count). A page that ends in a table row,
a heading or a finished sentence, a next page that opens with a capital (a heading, a new
sentence) or a table, and a sentence that does not end within MOST_CARRIED characters are left
as they are. Only pages are read on:
sheets, slides and a word processor's sections (DOCX has no pages) are never cut by a page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from manda.finance.figures import figure_row
from manda.ingest.parsers.headings import (
    FURNITURE_PAGES,
    MAX_TITLE_CHARS,
    furniture_key,
    running_lines,
)
from manda.models import LocationKind, Section

MOST_CARRIED = 400  # the longest continuation read on into the next page, in characters
MOST_PAGE_DIGITS = 4  # a printed page number has at most this many digits
MOST_UNDATED = 999  # a larger number ending a page is a year ("… in 2021"), unless pages run on
LEAST_NUMBERED = 3  # pages whose last line ends in their printed number, for the offset to hold
TOP_HEADS = 3  # running heads of a page's own section read past at its top, at most
SHORT_MARK = 8  # a line of no letters this short is a page mark ("38", "-5-", "ii"), not text
_TABLE_CELL = " | "
_SENTENCE_STOPS = ".!?"
_OPEN_ENDS = ".!?:;|"


def read_on(sections: Sequence[Section]) -> list[Section]:
    """The sections, each page that ends mid-sentence with its sentence completed from the next
    page (a copy; the others as they are)."""
    pages = [s for s in sections if s.location.kind == LocationKind.PAGE]
    if len(pages) < 2:
        return list(sections)
    furniture = running_lines([s.text for s in pages])
    heads = _section_heads(pages)
    offset = printed_offset(pages)
    ends = [_last_line(s.text) for s in sections]
    out = list(sections)
    for i, (section, following) in enumerate(pairwise(sections)):
        if not _consecutive(section, following):
            continue
        printed = _printed_number(sections, ends, i, offset)
        joined = _read_on(section, following, furniture | heads, printed)
        if joined is not None:
            out[i] = section.model_copy(update={"text": joined})
    return out


def _section_heads(pages: Sequence[Section]) -> set[str]:
    """Running heads of a section of the document ("RISK FACTORS Table of Contents"): lines of
    two words or more, no sentence, among the first lines of at least FURNITURE_PAGES pages
    (fewer than `running_lines` asks of a head the whole document repeats); by furniture_key."""
    counts: Counter[str] = Counter()
    for section in pages:
        top = [line.strip() for line in section.text.split("\n") if line.strip()][:TOP_HEADS]
        counts.update({furniture_key(line) for line in top
                       if len(line.split()) >= 2 and _head_shaped(line)})
    return {key for key, n in counts.items() if n >= FURNITURE_PAGES and key}


def printed_offset(pages: Sequence[Section]) -> int | None:
    """How far the document's printed page numbers run from its page count (p.40 printed "38":
    -2), read from the numbers its pages' last lines end in; None when too few do."""
    votes: Counter[int] = Counter()
    for section in pages:
        last = _last_line(section.text)
        digits = _trailing_digits(last)
        if section.location.page is None or not digits:
            continue
        votes.update({int(digits[-k:]) - section.location.page for k in range(1, len(digits) + 1)})
    if not votes:
        return None
    offset, count = votes.most_common(1)[0]
    return offset if count >= max(LEAST_NUMBERED, len(pages) / 4) else None


def _printed_number(sections: Sequence[Section], ends: Sequence[str], i: int,
                    offset: int | None) -> str | None:
    """The number printed at the foot of page `i`: the one its last line ends in when a
    neighbouring page's ends in the number before or after it (an exhibit numbered on its own:
    "… be disclosed 4" between pages ending "3" and "5"; no year: at most MOST_UNDATED, or
    the pages the document has), else the document's offset from its
    page count."""
    digits = _trailing_digits(ends[i])
    before = _trailing_digits(ends[i - 1]) if i > 0 else ""
    after = _trailing_digits(ends[i + 1]) if i + 1 < len(ends) else ""
    for k in range(len(digits), 0, -1):
        n = int(digits[-k:])
        if 0 < n <= max(len(sections), MOST_UNDATED) and (
                (before and before.endswith(str(n - 1))) or (after and after.endswith(str(n + 1)))):
            return str(n)
    page = sections[i].location.page
    return None if offset is None or page is None else str(page + offset)


def _consecutive(section: Section, following: Section) -> bool:
    a, b = section.location, following.location
    return (a.kind == b.kind == LocationKind.PAGE and a.page is not None and b.page is not None
            and b.page == a.page + 1)


def _read_on(section: Section, following: Section, furniture: set[str], printed: str | None
             ) -> str | None:
    """The page's text with its last sentence read on into the next page; None when the page
    does not end mid-sentence or the next does not go on with it."""
    lines = section.text.split("\n")
    end = len(lines) - 1
    while end >= 0 and _furniture(lines[end], furniture):
        end -= 1
    if end < 0:
        return None
    last = lines[end].rstrip()
    if printed and last.endswith(printed) and not any(
            line.strip().endswith(printed) for line in lines[end + 1:]):
        last = last[: -len(printed)].rstrip()  # the page's number, glued to its last word
    if not _open_prose(last, lines[end - 1] if end else ""):
        return None
    carried = _continuation(following.text.split("\n"), furniture, last)
    if carried is None:
        return None
    # a word the break hyphenated is one word again ("forward-" / "looking statements")
    lines[end] = f"{last}{carried}" if last.endswith("-") else f"{last} {carried}"
    return "\n".join(lines)


def _open_prose(line: str, above: str) -> bool:
    """A line a sentence runs on from: prose (a lowercase word on it or, for a word the break
    hyphenated, on the line above) that ends in no stop, no table row or heading."""
    words = f"{above} {line}".split() if line.endswith("-") else line.split()
    return bool(line) and line[-1:] not in _OPEN_ENDS and _TABLE_CELL not in line and \
        not figure_row(line) and any(w.isalpha() and w.islower() for w in words)


def _continuation(lines: Sequence[str], furniture: set[str], before: str) -> str | None:
    """The next page's words up to the end of the sentence the page before left open: its first
    text line (running heads and page marks aside) opens in lowercase, or with a figure after
    a lowercase word ("… totaling" / "$1.3 billion …"); None when the sentence does not end
    within MOST_CARRIED characters or a table comes first."""
    start = 0
    while start < len(lines) and _furniture(lines[start], furniture):
        start += 1
    if start == len(lines):
        return None
    first = lines[start].split()[0]
    figure = first[:1] in "$(" or first[:1].isdigit()
    if not _opens_lowercase(lines[start]) and not (
            figure and before.split()[-1].isalpha() and before.split()[-1].islower()):
        return None
    text = ""
    for line in lines[start:]:
        if _TABLE_CELL in line or figure_row(line):
            return None
        text = f"{text} {line.strip()}".strip()
        stop = _sentence_end(text)
        if stop is not None:
            return text[:stop]
        if len(text) > MOST_CARRIED:
            return None
    return None


def _opens_lowercase(line: str) -> bool:
    """The line opens with a word all in lowercase letters ("million ($150,000 …", "term
    liabilities."): a sentence going on, not a name ("iPhone") nor a new sentence."""
    words = line.split()
    return bool(words) and words[0][:1].isalpha() and words[0] == words[0].lower()


def _head_shaped(line: str) -> bool:
    """A short line of words that is no sentence and no table: a page's running head."""
    stripped = line.strip()
    return 0 < len(stripped) <= MAX_TITLE_CHARS and stripped[-1:] not in _OPEN_ENDS and \
        _TABLE_CELL not in stripped and any(c.isalpha() for c in stripped) and \
        not figure_row(stripped) and not _opens_lowercase(stripped)


def _sentence_end(text: str) -> int | None:
    """Where the first sentence of `text` ends (the index after its stop), within MOST_CARRIED:
    a stop before a space, the end, or a capitalised word the text layer glued to it
    ("million.As a result"); not a decimal point, nor an initial's ("U.S. dollars")."""
    for i, ch in enumerate(text[:MOST_CARRIED]):
        if ch not in _SENTENCE_STOPS:
            continue
        after = text[i + 1: i + 3]
        word = text[:i].rsplit(" ", 1)[-1]
        if len(word.rsplit(".", 1)[-1]) <= 1 and ch == ".":
            continue  # an initial or an abbreviation's letter ("U.S.", "Inc. v. …")
        if not after or after[0].isspace() or (
                after[0].isupper() and after[1:2].islower()):
            return i + 1
    return None


def _furniture(line: str, furniture: set[str]) -> bool:
    """A line of page furniture: blank, a running head or footer, a page mark."""
    stripped = line.strip()
    if not stripped:
        return True
    if len(stripped) <= SHORT_MARK and not any(c.isalpha() for c in stripped):
        return True
    return furniture_key(stripped) in furniture and _TABLE_CELL not in stripped


def _last_line(text: str) -> str:
    return next((line.strip() for line in reversed(text.split("\n")) if line.strip()), "")


def _trailing_digits(line: str) -> str:
    n = 0
    while n < len(line) and line[len(line) - 1 - n].isdigit():
        n += 1
    return line[len(line) - n:][-MOST_PAGE_DIGITS:] if n else ""
