"""A page's printed number (its folio) glued onto its last sentence, put on a line of its own.

Some PDFs print the folio at the foot of the page with no space before it, so the text layer
runs it into the page's last word or figure ("… ended December 31, 2021, 2020 and 2019.93",
"the total payment to $9.1538", "additional amortization56"): the page number then reads as part
of a year, an amount or a sentence that goes on over the page. A folio is known by its place and
its sequence, never by its value alone: it ends the page's last line, and the number it ends
with minus the page's place in the document is the same (the folio's offset) on neighbouring
pages too, whichever way they print theirs (alone on a line, after a space, glued). Only a glued
folio is moved; the page's text is otherwise left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["folios_apart"]

MAX_DIGITS = 3  # a folio has at most this many digits
REACH = 3  # neighbouring pages within this many pages either side vouch for a page's offset
VOUCHING = 2  # how many neighbouring pages must print their folio with the same offset


def folios_apart(pages: Sequence[str]) -> list[str]:
    """The pages, each with a folio glued onto its last line put on a line of its own."""
    offsets = [_offsets(page, number) for number, page in enumerate(pages, start=1)]
    out: list[str] = []
    for k, page in enumerate(pages):
        near = [offsets[j] for j in range(max(0, k - REACH), min(len(pages), k + REACH + 1))
                if j != k]
        vouched = max(((sum(o in other for other in near), o) for o in offsets[k]), default=None)
        if vouched is None or vouched[0] < VOUCHING:
            out.append(page)
        else:
            out.append(_apart(page, str(k + 1 + vouched[1])))
    return out


def _last_line(page: str) -> tuple[int, str]:
    """Where the page's last line with text starts, and that line."""
    text = page.rstrip()
    start = text.rfind("\n") + 1
    return start, text[start:]


def _digits_at_end(line: str) -> str:
    size = len(line) - len(line.rstrip("0123456789"))
    return line[len(line) - size:]


def _offsets(page: str, number: int) -> set[int]:
    """The offsets (folio minus page number) the page's last line could end with a folio at:
    one for each run of its last digits, up to `MAX_DIGITS`, that does not start with a 0."""
    digits = _digits_at_end(_last_line(page)[1])
    return {int(digits[-size:]) - number for size in range(1, min(len(digits), MAX_DIGITS) + 1)
            if digits[-size] != "0"}


def _apart(page: str, folio: str) -> str:
    """The page with `folio` put on a line of its own, where it is glued to its last line."""
    start, line = _last_line(page)
    if not line.endswith(folio) or len(line) == len(folio) or line[-len(folio) - 1].isspace():
        return page  # not this folio, alone on its line, or written apart already
    end = start + len(line)
    return f"{page[:end - len(folio)].rstrip()}\n{folio}{page[end:]}"
