"""A paginated document's page furniture taken out of its text, and sentences cut by page breaks
read whole.

A printed page ends with its number (its folio), alone ("18"), at the end of a running footer
("ACME CORP 2025 Annual Report 23") or glued to the page's last words by the text layer
("obtained related to facts and60", "total payment to $9.1538" where 38 is the folio). A folio
is never a figure of the page: read as one it leads answers ("58", "$9.1538 million"). The
document's numberings are learnt from its pages (offsets many pages' last numbers agree on, as
page 17 printing "15"; an exhibit may number from 1 again), then each page's own number is taken
off its last line (a running footer's words stay: they name the company).

A sentence a page break cuts ("... primarily consisting of property and equipment related to"
/ "physical stores. These charges ...") is then read whole on the page where it starts: the
next page's opening words up to the sentence's end move onto the page before (a page's
running header above them stays where it is). Only pages whose last line stops mid-sentence and
whose next page's text opens in lower case are joined.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["folio_offsets", "page_breaks_mended", "without_folios"]

MIN_NUMBERED = 3  # pages agreeing on one numbering before it counts as one
MIN_SHARE = 0.1  # the numbered pages' share before a document counts as numbered
FURNITURE_SHARE = 0.3  # a first line this share of the pages print is a running header
MAX_FOLIO_DIGITS = 4
MAX_CARRIED_CHARS = 600  # a sentence's end carried back over a page break is at most this long
_SENTENCE_ENDS = ".!?:;"
_CLOSERS = "”\"’')"
_DIGITS = "0123456789"


@dataclass(frozen=True)
class _Last:
    """A page's last non-blank line: its index in the page's lines and its text."""

    index: int
    text: str


def _last(page: str) -> _Last | None:
    lines = page.split("\n")
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip():
            return _Last(index, lines[index].strip())
    return None


def _trailing_number(line: str) -> str:
    """The number a line ends in, when it stands apart ("... 10-K 23", "| 44", "58"): digits
    after a space, a bar or nothing."""
    digits = line[len(line.rstrip(_DIGITS)):]
    before = line[: len(line) - len(digits)]
    if not digits or len(digits) > MAX_FOLIO_DIGITS or digits.startswith("0"):
        return ""
    return digits if not before or before[-1] in " |" else ""


def folio_offsets(pages: Sequence[str]) -> list[int | None]:
    """Each page's numbering: how far its printed number runs behind its place in the file
    (page 17 printing "15": 2), or None where no numbering is learnt. A numbering is an offset
    that at least MIN_NUMBERED pages' last lines agree on; a document may hold several (an
    exhibit numbered from 1 again), and a page takes those of the numbered pages nearest it."""
    voted: dict[int, int] = {}
    for place, page in enumerate(pages, start=1):
        last = _last(page)
        number = _trailing_number(last.text) if last else ""
        if number:
            voted[place] = place - int(number)
    counts = Counter(voted.values())
    numbered = sorted((place, offset) for place, offset in voted.items()
                      if counts[offset] >= MIN_NUMBERED)
    if sum(counts[offset] for offset in {o for _, o in numbered}) < MIN_SHARE * len(pages):
        return [None] * len(pages)
    out: list[int | None] = []
    k = 0  # the first numbered page at or after the place
    for place in range(1, len(pages) + 1):
        while k < len(numbered) and numbered[k][0] < place:
            k += 1
        near = [numbered[i] for i in (k - 1, k) if 0 <= i < len(numbered)]
        out.append(min(near, key=lambda n: abs(n[0] - place))[1] if near else None)
    return out


def _masked(line: str) -> str:
    """A line with its digits left out: a running footer's years and numbers vary."""
    return " ".join("".join(c for c in line if not c.isdigit()).replace("|", " ").split())


def without_folios(pages: Sequence[str]) -> list[str]:
    """The pages with each one's own printed number taken off its last line, and that line
    dropped where nothing stays of it. The running footer's words stay: they name the document's
    company ("ACME Corp | 2025 Annual Report"). A document whose pages are not numbered is
    returned as it is."""
    found: list[tuple[_Last, str] | None] = []
    for place, (page, offset) in enumerate(zip(pages, folio_offsets(pages), strict=True), 1):
        last = _last(page)
        number = str(place - offset) if offset is not None else ""
        if last is None or offset is None or place - offset < 1 or not last.text.endswith(number):
            found.append(None)
            continue
        found.append((last, last.text[: len(last.text) - len(number)].rstrip(" |")))
    out: list[str] = []
    for page, item in zip(pages, found, strict=True):
        if item is None:
            out.append(page)
            continue
        last, rest = item
        lines = page.split("\n")
        if not rest:
            del lines[last.index]
        else:
            lines[last.index] = rest
        out.append("\n".join(lines).rstrip())
    return out


def _headers(pages: Sequence[str]) -> set[str]:
    """The lines (digits left out) many pages open with: running headers."""
    counts: Counter[str] = Counter()
    for page in pages:
        firsts = [line.strip() for line in page.split("\n") if line.strip()][:3]
        counts.update({_masked(line) for line in firsts})
    floor = max(MIN_NUMBERED, FURNITURE_SHARE * len(pages))
    return {line for line, n in counts.items() if n >= floor and line}


def _stops_mid_sentence(line: str) -> bool:
    """A prose line that does not end its sentence (no table row, no heading in capitals)."""
    text = line.rstrip().rstrip(_CLOSERS)
    return (bool(text) and text[-1] not in _SENTENCE_ENDS and " | " not in line
            and any(c.islower() for c in text) and (text[-1].isalnum() or text[-1] in ",$-"))


def _sentence_end(text: str) -> int:
    """Where the first sentence of `text` ends (after its stop), or -1 within the limit."""
    for at, char in enumerate(text[:MAX_CARRIED_CHARS]):
        if char not in ".!?":
            continue
        after = text[at + 1: at + 2]
        if after and not after.isspace() and after not in _CLOSERS:
            continue
        before = text[:at].rstrip(_CLOSERS)
        if before and (before[-1].islower() or before[-1].isdigit() or before[-1] == ")"):
            while at + 1 < len(text) and text[at + 1] in _CLOSERS:
                at += 1
            return at + 1
    return -1


def page_breaks_mended(pages: Sequence[str]) -> list[str]:
    """The pages with each sentence a page break cuts read whole on the page it starts on: the
    next page's opening words, up to the sentence's stop, move up (its running header stays)."""
    headers = _headers(pages)
    out = list(pages)
    for place in range(len(out) - 1):
        last = _last(out[place])
        if last is None or not _stops_mid_sentence(last.text):
            continue
        lines = out[place + 1].split("\n")
        first = next((i for i, line in enumerate(lines)
                      if line.strip() and _masked(line.strip()) not in headers), None)
        if first is None or not lines[first].strip()[:1].islower():
            continue
        rest = "\n".join(lines[first:])
        end = _sentence_end(rest)
        if end == -1:
            continue
        carried = " ".join(rest[:end].split())
        page_lines = out[place].split("\n")
        line = page_lines[last.index].rstrip()
        page_lines[last.index] = line + carried if line.endswith("-") else f"{line} {carried}"
        out[place] = "\n".join(page_lines)
        out[place + 1] = "\n".join([*lines[:first], rest[end:].lstrip(" \n")]).strip("\n")
    return out
