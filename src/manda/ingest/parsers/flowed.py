"""Statements a PDF prints as flowing text, put back into rows; words its line ends cut or glued,
mended from the document's own vocabulary.

Some PDFs (filings printed from HTML by a generator that writes one text run per cell) keep no
table layout at all: each row's label stands on one line and its figures start the next, which
then runs on into the next row's label ("Goodwill\\n6,109 8,420 Other assets\\n124 397 Total
assets"). Every extraction mode reads them the same way, because that is how the page places
them. The same printers cut words where a text run ended ("cur\\nrent portion") and glue others
("equityAccounts", "assets1,215").

- `mend_words` joins a cut word where the joined word stands elsewhere in the document and a
  half does not (or far more rarely), and splits a glued one where both parts do; only in a
  document whose line ends cut words often (`cuts_words`), so well-laid documents read as they
  did.
- `flowed_rows` finds runs of the page where a label is followed by N figures (N the same over
  the run, at least 2) and then by the next label, and writes them as labelled rows under the
  column periods of the header above (`Goodwill | December 31, 2020: 6,109 | December 31, 2021:
  8,420`): the shape `base.spaced_statement_rows` writes, so statement readers, the unit caption
  and the columns work unchanged downstream. Columns the header names as changes ("2020 to 2021
  % Change") are written as change columns, never as a period's figure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from manda.finance.amounts import unit_line_scale
from manda.finance.periods import find_dates
from manda.ingest.parsers.base import row_line
from manda.vocabulary import vocabulary

__all__ = ["cuts_words", "document_words", "flowed_pages", "flowed_rows", "flowing_rows",
           "mend_words"]

_WORD = re.compile(r"[A-Za-z]+")
_TAIL = re.compile(r"([A-Za-z]+)$")  # the letters a line ends in
# the lower-case letters a line starts with, and what stays with them ("f-use", "ckholders'")
_HEAD = re.compile(r"^([a-z]+)(?:[-'’][A-Za-z]*)*[),.;:]*")
GLUED = 20  # two words stand this many times more often apart than glued: a glued pair
RARER = 8  # a half standing this many times less often than the joined word does not count
KNOWN = 2  # a word stands in the document when it is read this often away from line ends
# a document cuts words at line ends when this share of its lines ends in a cut word
CUT_SHARE = 0.01
MIN_CUTS = 10


def document_words(pages: Sequence[str]) -> Counter[str]:
    """How often each word (lower-cased letters) stands inside a line, away from its ends, where
    no printer cuts it."""
    counts: Counter[str] = Counter()
    for page in pages:
        for line in page.split("\n"):
            for word in _WORD.findall(line)[1:-1]:
                counts[word.lower()] += 1
    return counts


def _joins(before: str, after: str, words: Counter[str]) -> bool:
    """`before` ends and `after` starts one word cut in two ("ref" + "lected")."""
    joined = words[(before + after).lower()]
    if not joined:
        return False
    rarer = min(words[before.lower()], words[after.lower()])
    return rarer * RARER <= joined


def _cut_at(line: str, following: str, words: Counter[str]) -> re.Match[str] | None:
    """The head of `following` that finishes the word `line` ends in, if the two are one word."""
    tail = _TAIL.search(line)
    head = _HEAD.match(following)
    if tail is None or head is None:
        return None
    return head if _joins(tail.group(1), head.group(1), words) else None


def cuts_words(pages: Sequence[str], words: Counter[str]) -> bool:
    """The document's line ends cut words often: it was printed in text runs, not lines."""
    cuts = lines = 0
    for page in pages:
        rows = page.split("\n")
        lines += len(rows)
        cuts += sum(1 for a, b in pairwise(rows) if _cut_at(a, b, words))
    return cuts >= MIN_CUTS and cuts >= CUT_SHARE * lines


_GLUED_CASE = re.compile(r"\b([A-Za-z]*[a-z]{2})([A-Z][a-z]{2,})\b")  # "equityAccounts"
_GLUED_FIGURE = re.compile(r"(?<![\w$])([A-Za-z]*[a-z]{2})(?=[$(]?\d|\$)")  # "assets1,215"
_GLUED_LOWER = re.compile(r"\b[a-z]{5,}\b")  # "overthe", "measuresand"
_PIECE = re.compile(r"[A-Za-z]+|[^A-Za-z]+")
_GLUED_STOP = re.compile(r"(?<=[a-z]{2}[.;:])(?=[A-Z][a-z]{2,})")  # "any.For more"
_GLUED_PAREN = re.compile(r"\)(?=[A-Z][a-z]{2,})")  # "(Note 15)Redeemable"
_GLUED_WORD = re.compile(r"(?<=\d)([a-z]{3,})\b")  # "1,849,794and"


def _stands(word: str, words: Counter[str]) -> bool:
    return words[word.lower()] >= KNOWN


def _unglue(line: str, words: Counter[str]) -> str:
    """A line with words a text run cut within the line joined ("int angible") and glued words
    parted where both parts stand as words and the glued form does not: a lower-to-upper join
    starts a new line ("equity\\nAccounts payable"), two lower-case words get a space
    ("overthe"), and so does a word glued to a figure ("assets 1,215", "1,849,794 and")."""
    def case(m: re.Match[str]) -> str:
        left, right = m.group(1), m.group(2)
        if _stands(left, words) and _stands(right, words) and not _stands(left + right, words):
            return f"{left}\n{right}"
        return m.group(0)

    def figure(m: re.Match[str]) -> str:
        word = m.group(1)
        return f"{word} " if _stands(word, words) else word

    def after(m: re.Match[str]) -> str:
        word = m.group(1)
        return f" {word}" if _stands(word, words) else word

    def glued(m: re.Match[str]) -> str:
        word = m.group(0)
        parts = [(min(words[word[:i]], words[word[i:]]), i) for i in range(2, len(word) - 1)]
        best, at = max(parts, default=(0, 0))
        if best >= KNOWN and best >= GLUED * words[word]:
            return f"{word[:at]} {word[at:]}"
        return word

    line = _joined_runs(line, words)
    line = _GLUED_PAREN.sub(")\n", line)
    line = _GLUED_STOP.sub(" ", line)
    line = _GLUED_CASE.sub(case, line)
    line = _GLUED_LOWER.sub(glued, line)
    line = _GLUED_FIGURE.sub(figure, line)
    return _GLUED_WORD.sub(after, line)


def _joined_runs(line: str, words: Counter[str]) -> str:
    """The line with each word a text run cut in two within it made whole ("int angible")."""
    pieces = _PIECE.findall(line)
    out: list[str] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        while (i + 2 < len(pieces) and piece[:1].isalpha() and pieces[i + 1] == " "
               and pieces[i + 2][:1].islower() and _joins(piece, pieces[i + 2], words)):
            piece += pieces[i + 2]
            i += 2
        out.append(piece)
        i += 1
    return "".join(out)


def mend_words(text: str, words: Counter[str]) -> str:
    """The page with each word cut at a line end made whole on the line it starts on, and glued
    words parted (see `_unglue`)."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if out and (head := _cut_at(out[-1], line, words)):
            out[-1] += head.group(0)
            line = line[head.end():].lstrip()
            if not line:
                continue
        out.append(line)
    return "\n".join(_unglue(line, words) for line in out)


# ---------------------------------------------------------------- rows


_CELL = re.compile(r"^\$?\(?-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?%?$|^\$?[—–]%?$")
_PART = re.compile(r"(?<=[A-Za-z)])(?=[$(]?\d)|(?<=[A-Za-z])(?=[$—–])|(?<=[—–\d)])(?=[A-Z])")
_YEAR_CELL = re.compile(r"^(?:19|20)\d\d$")
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


def _tokens(text: str) -> list[_Token]:
    """The page's words and figure cells in order: "$ 5,647" and "(31.5) %" are one cell each,
    and a figure glued to a word ("taxes$ (192)", "securities4") stands apart."""
    raw: list[_Token] = []
    offset = 0
    for number, line in enumerate(text.split("\n")):
        for m in re.finditer(r"\S+", line):
            start = offset + m.start()
            cut = [0, *(p.start() for p in _PART.finditer(m.group())), len(m.group())]
            for a, b in pairwise(cut):
                if b > a:
                    raw.append(_Token(m.group()[a:b], number, start + a, start + b))
        offset += len(line) + 1
    tokens: list[_Token] = []
    for token in raw:
        last = tokens[-1] if tokens else None
        if (last is not None and last.line == token.line and last.text == "$"
                and _CELL.match("$" + token.text)):
            last.text, last.end = "$" + token.text, token.end
        elif (last is not None and last.line == token.line and token.text == "%" and last.cell
              and not last.text.endswith("%")):
            last.text, last.end = last.text + "%", token.end
        else:
            tokens.append(token)
        tokens[-1].cell = bool(_CELL.match(tokens[-1].text)) and tokens[-1].text != "$"
    return tokens


@dataclass
class _Run:
    first: int  # token indexes
    last: int

    def cells(self, tokens: list[_Token]) -> list[str]:
        return [_written(t.text) for t in tokens[self.first : self.last + 1]]


def _written(cell: str) -> str:
    """A cell as statements write it: "$—" is a dash (none), "$ (192)" is "$(192)"."""
    return cell.replace("$", "") if re.search(r"[—–]", cell) else cell


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
        if (_YEAR_CELL.match(tokens[j].text) and j + 1 < len(tokens)
                and tokens[j + 1].line == tokens[j].line):
            end = j - 1
        if end > i and not all(_YEAR_CELL.match(t.text) for t in tokens[i : end + 1]):
            runs.append(_Run(i, end))
        i = j + 1
    return runs


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
    if sum(1 for t in words if _YEAR_CELL.match(t.text)) >= 2:
        return False
    text = " ".join(t.text for t in words)
    return bool(re.search(r"[A-Za-z]", text)) and not re.search(r"[a-z]{2}\. [A-Z]", text)


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


# a year, also one of two glued together ("20212020")
_YEAR = re.compile(r"(?:(?<!\d)|(?<=(?:19|20)\d\d))((?:19|20)\d\d)(?=(?:19|20)\d\d(?!\d)|(?!\d))")
_IN_WORDS = re.compile(r"[a-z] $")
_PAREN = re.compile(r"\([^()]{3,200}\)")
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

    for m in _PAREN.finditer(text):
        if unit_line_scale(m.group()) != 1.0:
            parts.append(_Part(m.start(), m.end(), "caption", " ".join(m.group().split())))
            taken.append((m.start(), m.end()))
    changes = vocabulary().cues("change_column")
    for m in changes.finditer(text):
        if free(m.start(), m.end()):
            parts.append(_Part(m.start(), m.end(), "change", m.group()))
            taken.append((m.start(), m.end()))
    for day, (a, b) in _dates(text):
        if free(a, b):
            parts.append(_Part(a, b, "period", day))
            taken.append((a, b))
    for m in _YEAR.finditer(text):
        if _IN_WORDS.search(text[: m.start(1)]):
            continue  # "related to the 2025 Notes": a year of a label, not a column
        if free(m.start(1), m.end(1)):
            parts.append(_Part(m.start(1), m.end(1), "period", m.group(1)))
            taken.append((m.start(1), m.end(1)))
    return sorted(parts, key=lambda p: p.start)


def _dates(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Full dates a header names ("December 31, 2021"), as written, and where."""
    found = []
    for m in re.finditer(r"[A-Z][a-z]{2,8}\.? \d{1,2}, ?(?:19|20)\d\d", text):
        if find_dates(m.group()):
            found.append((" ".join(m.group().split()), (m.start(), m.end())))
    return found


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
        if len(_WORD.findall(gap)) > (HEADER_GAP_WORDS if chosen else MAX_LABEL_WORDS):
            break  # the last part may stand above the first row's label and a sub-heading
        if (part.kind == "change" and chosen and chosen[0].kind == "change"
                and not _WORD.findall(gap) and re.search(r"\d", part.text)
                and not re.search(r"\d", chosen[0].text)):
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
    years = [int(_YEAR.findall(name)[-1]) for name in names]
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


def _label_lines(words: list[_Token]) -> list[str]:
    """A label's words, parted where a line starts with a capital (a sub-heading above it)."""
    lines: list[list[str]] = []
    for k, token in enumerate(words):
        starts = k == 0 or (token.line != words[k - 1].line and token.text[:1].isupper())
        if starts:
            lines.append([token.text])
        else:
            lines[-1].append(token.text)
    return [" ".join(words) for words in lines]


def flowing_rows(pages: Sequence[str]) -> int:
    """How many rows the document's pages flow in tables of at least `MIN_TABLE_ROWS` rows."""
    return sum(len(b) for page in pages for b in _blocks(_tokens(page))
               if len(b) >= MIN_TABLE_ROWS)


def flowed_rows(text: str) -> str:
    """The page with each flowed table written as one labelled row per line under its header
    (the caption on its own line above it); the rest of the page as it was."""
    tokens = _tokens(text)
    blocks = _blocks(tokens)
    if not blocks:
        return text
    out: list[str] = []
    done = 0  # page text written so far
    floor = 0
    for block in blocks:
        width = max(map(_width, block))
        header = _header(text, tokens[block[0].first].start, floor, width)
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
            labels = _label_lines(tokens[previous : run.first])
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
        floor = done
    out.append(text[done:])
    return "\n".join(line.rstrip() for line in "".join(out).split("\n"))


def flowed_pages(pages: Sequence[str]) -> list[str]:
    """A document's page texts with flowed tables in rows, and, where its line ends cut words,
    those words mended first."""
    words = document_words(pages)
    if cuts_words(pages, words):
        pages = [mend_words(page, words) for page in pages]
    if flowing_rows(pages) < MIN_FLOWING_ROWS:
        return list(pages)  # a document that lays its tables out: no row of it is touched
    return [flowed_rows(page) for page in pages]
