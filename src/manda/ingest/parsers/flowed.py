"""Statements a PDF prints as flowing text, put back into rows.

Some PDFs (filings printed from HTML by a generator that writes one text run per cell) keep no
table layout at all: each row's label stands on one line and its figures start the next, which
then runs on into the next row's label ("Goodwill\\n6,109 8,420 Other assets\\n124 397 Total
assets"). Every extraction mode reads them the same way, because that is how the page places
them. The same printers cut and glue words (`manda.ingest.parsers.textruns` mends them first).

`flowed_rows` finds runs of the page where a label is followed by N figures (N the same over
  the run, at least 2) and then by the next label, and writes them as labelled rows under the
  column periods of the header above (`Goodwill | December 31, 2020: 6,109 | December 31, 2021:
  8,420`): the shape `base.spaced_statement_rows` writes, so statement readers, the unit caption
  and the columns work unchanged downstream. Columns the header names as changes ("2020 to 2021
  % Change") are written as change columns, never as a period's figure. Only a document that
flows many rows in whole tables (`flowing_rows`) is rewritten, so laid-out documents read as
before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from manda.finance.amounts import unit_line_scale
from manda.finance.figures import lone_cell
from manda.finance.periods import find_dates
from manda.ingest.parsers.base import row_line
from manda.ingest.parsers.textruns import (
    KNOWN,
    cuts_words,
    document_words,
    lone_letters,
    mend_words,
    parted_words,
    pieces,
    word_neighbours,
)
from manda.text import YEAR, letter_words
from manda.vocabulary import vocabulary

__all__ = ["flowed_pages", "flowed_rows", "flowing_rows", "word_pairs"]

# ---------------------------------------------------------------- rows


_DASHES = "—–"
MAX_LABEL_WORDS = 40
MIN_ROWS = 2  # a flowed table of one row is read only where its row stands alone (`_alone`)
MIN_TABLE_ROWS = 3
MIN_FLOWING_ROWS = 20  # a document flows its tables when this many rows flow in whole tables


@dataclass
class _Token:
    text: str
    line: int
    start: int  # offset in the page text
    end: int
    cell: bool = False


def _year(text: str) -> bool:
    return YEAR.fullmatch(text) is not None


def _cell(text: str) -> bool:
    """A figure cell of a flowed row; an en dash alone is prose ("Note 1 – Description")."""
    return text != "$" and text.strip("$%") != "–" and lone_cell(text)


def _cuts(word: str) -> list[int]:
    """Where a word glued to a figure parts: "taxes$", "Inc.$", "securities4", "15)Redeemable",
    "—Total"."""
    out = []
    for i in range(1, len(word)):
        a, b, c = word[i - 1], word[i], word[i + 1 : i + 2]
        letter_a = a.isascii() and a.isalpha()
        if ((letter_a or a == ")") and (b.isdigit() or (b in "$(" and c.isdigit()))) \
                or (letter_a and b in _DASHES) or (b == "$" and a != "$") \
                or ((a in _DASHES or a.isdigit() or a == ")") and b.isascii() and b.isupper()):
            out.append(i)
    return out


def _tokens(text: str) -> list[_Token]:
    """The page's words and figure cells in order: "$ 5,647" and "(31.5) %" are one cell each,
    and a figure glued to a word ("taxes$ (192)", "securities4") stands apart."""
    raw: list[_Token] = []
    offset = 0
    for number, line in enumerate(text.split("\n")):
        at = 0
        for word in line.split(" "):
            if word:
                start = offset + at
                cut = [0, *_cuts(word), len(word)]
                raw += [_Token(word[a:b], number, start + a, start + b)
                        for a, b in pairwise(cut)]
            at += len(word) + 1
        offset += len(line) + 1
    tokens: list[_Token] = []
    for token in raw:
        last = tokens[-1] if tokens else None
        if (last is not None and last.line == token.line and last.text == "$"
                and _cell("$" + token.text)):
            last.text, last.end = "$" + token.text, token.end
        elif (last is not None and last.line == token.line and token.text == "%" and last.cell
              and not last.text.endswith("%")):
            last.text, last.end = last.text + "%", token.end
        else:
            tokens.append(token)
        tokens[-1].cell = _cell(tokens[-1].text)
    return tokens


@dataclass
class _Run:
    first: int  # token indexes
    last: int

    def cells(self, tokens: list[_Token]) -> list[str]:
        return [_written(t.text) for t in tokens[self.first : self.last + 1]]


def _written(cell: str) -> str:
    """A cell as statements write it: "$—" is a dash (none), "$ (192)" is "$(192)"."""
    return cell.replace("$", "") if any(c in _DASHES for c in cell) else cell


def _runs(tokens: list[_Token]) -> list[_Run]:
    """Each line's runs of two or more figure cells that are not a row of years (a header); a
    year that ends a run with words after it on its line starts the next label ("48.0 % 2021
    Compared to 2020")."""
    runs: list[_Run] = []
    i = 0
    while i < len(tokens):
        if not tokens[i].cell:
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and tokens[j + 1].cell and tokens[j + 1].line == tokens[i].line:
            j += 1
        end = j
        if (_year(tokens[j].text) and j + 1 < len(tokens)
                and tokens[j + 1].line == tokens[j].line):
            end = j - 1
        if end > i and not all(_year(t.text) for t in tokens[i : end + 1]):
            runs.append(_Run(i, end))
        i = j + 1
    if len(runs) >= 2 and _page_number(runs[-1], runs[-2], tokens):
        runs[-1] = _Run(runs[-1].first, runs[-1].last - 1)
    return runs


def _page_number(last: _Run, before: _Run, tokens: list[_Token]) -> bool:
    """The page's number printed right after its last row ("18,728 12,552 49.2% 57"): a bare
    number of up to three digits that ends the page, one cell more than the row above has."""
    number = tokens[last.last].text
    return last.last == len(tokens) - 1 and number.isdigit() and len(number) <= 3 \
        and _width(last) == _width(before) + 1


def _flowing(run: _Run, tokens: list[_Token]) -> bool:
    """The run is laid out as text flows, not as a row: the next label goes on after it on its
    line."""
    after = run.last + 1
    return after < len(tokens) and tokens[after].line == tokens[run.last].line


def _alone(run: _Run, tokens: list[_Token]) -> bool:
    """The run starts its line under its label and the next label goes on after it: a table of
    one flowed row."""
    return _flowing(run, tokens) and run.first > 0 and \
        tokens[run.first - 1].line < tokens[run.first].line


def _label_between(tokens: list[_Token], start: int, end: int) -> bool:
    """The words between two runs read as a row's label (and sub-headings): not prose, not the
    header of another table (a line of years)."""
    words = tokens[start:end]
    if not words or len(words) > MAX_LABEL_WORDS:
        return False
    if sum(1 for t in words if _year(t.text)) >= 2:
        return False
    text = " ".join(t.text for t in words)
    return any(c.isalpha() for c in text) and not _sentence_end(text)


def _sentence_end(text: str) -> bool:
    """The text ends a sentence and starts another ("… in the year. We"): prose, not a label."""
    at = text.find(". ")
    while at >= 0:
        if text[max(0, at - 2) : at].islower() and text[at + 2 : at + 3].isupper():
            return True
        at = text.find(". ", at + 1)
    return False


def _width(run: _Run) -> int:
    return run.last - run.first + 1


def _blocks(tokens: list[_Token]) -> list[list[_Run]]:
    """Runs of rows, each after its label, most of them with the same number of figures (a row
    may lack its change cells) and most of them flowing."""
    blocks: list[list[_Run]] = []
    current: list[_Run] = []
    for run in _runs(tokens):
        if current and not _label_between(tokens, current[-1].last + 1, run.first):
            blocks.append(current)
            current = []
        current.append(run)
    if current:
        blocks.append(current)
    return [b for b in blocks if sum(_flowing(r, tokens) for r in b) * 2 > len(b)
            and sum(_width(r) == max(map(_width, b)) for r in b) * 2 >= len(b)]


# ---------------------------------------------------------------- the header above


MAX_CAPTION = 200
HEADER_GAP_WORDS = 4  # words between two parts of one header ("As of", "Year Ended")
HEADER_LINES = 8  # how far above its first row a table's header is looked for


@dataclass(frozen=True)
class _Part:
    start: int
    end: int
    kind: str  # "period", "change", "caption"
    text: str


def _header_parts(text: str) -> list[_Part]:
    """The periods, change columns and unit caption a header text names, in order."""
    parts: list[_Part] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for a, b in _parentheses(text):
        if unit_line_scale(text[a:b]) != 1.0:
            parts.append(_Part(a, b, "caption", " ".join(text[a:b].split())))
            taken.append((a, b))
    changes = vocabulary().cues("change_column")
    for m in changes.finditer(text):
        if free(m.start(), m.end()):
            parts.append(_Part(m.start(), m.end(), "change", m.group()))
            taken.append((m.start(), m.end()))
    for _, a, b in find_dates(text):
        written = text[a:b]
        if "\n" not in written and any(c.isalpha() for c in written) and free(a, b):
            parts.append(_Part(a, b, "period", " ".join(written.split())))
            taken.append((a, b))
    for a, b in _years(text):
        if text[:a].endswith(" ") and text[max(0, a - 2) : a - 1].islower():
            continue  # "related to the 2025 Notes": a year of a label, not a column
        if free(a, b):
            parts.append(_Part(a, b, "period", text[a:b]))
            taken.append((a, b))
    return sorted(parts, key=lambda p: p.start)


def _parentheses(text: str) -> list[tuple[int, int]]:
    """Where each parenthesis of a few words opens and closes (nothing nested)."""
    found = []
    start = text.find("(")
    while start >= 0:
        end = text.find(")", start)
        if end < 0:
            break
        inner = text[start + 1 : end]
        if "(" not in inner and 3 <= len(inner) <= MAX_CAPTION:
            found.append((start, end + 1))
        start = text.find("(", start + 1)
    return found


def _years(text: str) -> list[tuple[int, int]]:
    """Where each year is, also each of two glued together ("20212020")."""
    found = []
    at = 0
    for piece in pieces(text):
        if piece.isdigit() and len(piece) in (4, 8):
            halves = [piece[i : i + 4] for i in range(0, len(piece), 4)]
            if all(_year(h) for h in halves):
                found += [(at + 4 * i, at + 4 * i + 4) for i in range(len(halves))]
        at += len(piece)
    return found


def _digits(text: str) -> bool:
    return any(c.isdigit() for c in text)


@dataclass(frozen=True)
class _Header:
    start: int  # where the header begins in the page text
    end: int
    columns: list[str]
    caption: tuple[int, int] | None  # where its unit caption is in the page text
    periods: int  # its first columns are periods, the others changes


def _header(text: str, before: int, floor: int, width: int) -> _Header | None:
    """The header that names `width` columns, read back from `before` (the first row's label)
    no further than `floor`: its periods in order, then its change columns."""
    lines_start = before
    for _ in range(HEADER_LINES):
        lines_start = text.rfind("\n", floor, lines_start - 1) + 1 if lines_start > floor else floor
        if lines_start <= floor:
            lines_start = floor
            break
    window = text[lines_start:before]
    parts = _header_parts(window)
    chosen: list[_Part] = []
    periods = changes = 0
    for part in reversed(parts):
        gap_end = chosen[0].start if chosen else len(window)
        gap = window[part.end : gap_end]
        if len(letter_words(gap)) > (HEADER_GAP_WORDS if chosen else MAX_LABEL_WORDS):
            break  # the last part may stand above the first row's label and a sub-heading
        if (part.kind == "change" and chosen and chosen[0].kind == "change"
                and not letter_words(gap) and _digits(part.text) and not _digits(chosen[0].text)):
            # "2020 to 2021 % Change": one column, named twice
            chosen[0] = _Part(part.start, chosen[0].end, "change", window[part.start:chosen[0].end])
            continue
        if periods + changes >= width and part.kind != "caption":
            break
        chosen.insert(0, part)
        periods += part.kind == "period"
        changes += part.kind == "change"
    names = [p.text for p in chosen if p.kind == "period"]
    periods = len(names)
    if not names or len(names) > width or len(names) + changes < width:
        return None
    years = [int(YEAR.findall(name)[-1]) for name in names]
    if len(set(years)) < len(years) or years not in (sorted(years), sorted(years, reverse=True)):
        return None  # columns of one table run one way in time
    change_names = ["% change" if "%" in window else "change"]
    while len(names) < width:
        name, n = change_names[0], 2
        while name in names:
            name, n = f"{change_names[0]} {n}", n + 1
        names.append(name)
    caption = next(((lines_start + p.start, lines_start + p.end) for p in chosen
                    if p.kind == "caption"), None)
    return _Header(lines_start + chosen[0].start, lines_start + chosen[-1].end, names, caption,
                   periods)


# ---------------------------------------------------------------- writing


def _label_lines(words: list[_Token], pairs: Counter[tuple[str, str]]) -> list[str]:
    """A label's words, parted where a line starts with a capital (a sub-heading above it),
    unless the document writes the two words around the line break together elsewhere ("Uber
    / Technologies, Inc.")."""
    lines: list[list[str]] = []
    for k, token in enumerate(words):
        starts = k == 0 or (token.line != words[k - 1].line and token.text[:1].isupper()
                            and pairs[(words[k - 1].text.lower(), token.text.lower())] < KNOWN)
        if starts:
            lines.append([token.text])
        else:
            lines[-1].append(token.text)
    return [" ".join(words) for words in lines]


def word_pairs(pages: Sequence[str]) -> Counter[tuple[str, str]]:
    """How often two words stand one after the other within a line (lower-cased)."""
    counts: Counter[tuple[str, str]] = Counter()
    for page in pages:
        for line in page.split("\n"):
            words = line.lower().split(" ")
            counts.update(pairwise(words))
    return counts


def flowing_rows(pages: Sequence[str]) -> int:
    """How many rows the document's pages flow in tables of at least `MIN_TABLE_ROWS` rows."""
    return sum(len(b) for page in pages for b in _blocks(_tokens(page))
               if len(b) >= MIN_TABLE_ROWS)


def flowed_rows(text: str, pairs: Counter[tuple[str, str]] | None = None) -> str:
    """The page with each flowed table written as one labelled row per line under its header
    (the caption on its own line above it); the rest of the page as it was. `pairs`: the
    document's `word_pairs`, to tell a label wrapped before a name from a sub-heading."""
    pairs = pairs if pairs is not None else Counter()
    tokens = _tokens(text)
    blocks = _blocks(tokens)
    if not blocks:
        return text
    out: list[str] = []
    done = 0  # page text written so far
    for block in blocks:
        width = max(map(_width, block))
        header = _header(text, tokens[block[0].first].start, done, width)
        if header is None or (len(block) < MIN_ROWS and not _alone(block[0], tokens)):
            continue
        # the first row's label begins after the header
        first_label = next(k for k in range(block[0].first + 1)
                           if k == block[0].first or tokens[k].start >= header.end)
        if not _label_between(tokens, first_label, block[0].first):
            continue  # a run of figures with no label of its own, or prose above it
        kept = text[done : header.start]
        if header.caption is not None:
            a, b = header.caption
            caption = " ".join(text[a:b].split())
            above = text[header.start : a] + " " + text[b : header.end]
        else:
            caption, above = "", text[header.start : header.end]
        out.append(kept.rstrip(" "))
        lines = [caption] if caption else []
        title = " ".join(above.split())
        if title:
            lines.append(title)
        pending = True
        previous = first_label
        for run in block:
            labels = _label_lines(tokens[previous : run.first], pairs)
            for sub in labels[:-1]:
                lines.append(sub)
                pending = True
            if pending:
                lines.append(" | ".join(header.columns))
                pending = False
            cells = run.cells(tokens)
            if len(cells) in (width, header.periods):  # a row may lack its change cells
                lines.append(row_line(["", *header.columns], [labels[-1], *cells]))
            else:
                lines.append(" ".join([labels[-1], *cells]))
            previous = run.last + 1
        out.append(("\n" if out[-1] and not out[-1].endswith("\n") else "") + "\n".join(lines)
                    + "\n")
        done = tokens[block[-1].last].end
        while done < len(text) and text[done] == " ":
            done += 1
    out.append(text[done:])
    return "\n".join(line.rstrip() for line in "".join(out).split("\n"))


def flowed_pages(pages: Sequence[str]) -> list[str]:
    """A document's page texts with flowed tables in rows, and, where its line ends cut words,
    those words mended first (else only the words a font change glued parted)."""
    words = document_words(pages)
    if cuts_words(pages, words):
        apart, letters = word_neighbours(pages), lone_letters(pages)
        pages = [mend_words(page, words, apart, letters) for page in pages]
    else:
        apart = word_pairs(pages)
        pages = [parted_words(page, words, apart) for page in pages]
    if flowing_rows(pages) < MIN_FLOWING_ROWS:
        return list(pages)  # a document that lays its tables out: no row of it is touched
    pairs = word_pairs(pages)
    return [flowed_rows(page, pairs) for page in pages]
