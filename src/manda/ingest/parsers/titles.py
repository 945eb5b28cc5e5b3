"""Column titles a PDF text layer writes on one line without column gaps, cut into titles.

Two shapes of table lose their column titles once the gaps between them are gone:

- a header of two levels: group titles over periods repeated under each group ("Number of
  Stores Retail Square Feet" over "2026 2025 2026 2025"). `group_titles` finds the groups'
  titles at the end of the line above the periods, each of which the table's caption before
  them names ("Number of Stores and Retail Square Feet"), or each ended by a bracket; the
  periods are then written under their groups ("Retail Square Feet 2026");
- a table of labelled rows under titles in words ("Segment Leased Square Footage (1) Owned
  Square Footage (1)" over "International 174,499 13,263"): `titled_rows` cuts the header
  where a title ends (a bracket closing, a date, a record title's last word) and writes each
  row's figures under its column's title, as a table passage is written;
- a table under a line of one date alone ("December 31, 2025" over "Operating Leases | Finance
  Leases | Total"), one of several a note sets one under the other: `dated_tables` writes the
  date into each column's title ("December 31, 2025 Finance Leases: 12,286"), so no row of it
  reads as another date's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from manda.finance.figures import joined_signs, lone_cell, note_mark
from manda.finance.periods import find_periods
from manda.vocabulary import vocabulary

__all__ = ["dated_tables", "group_titles", "grouped_header", "titled_rows"]

_ENDS = vocabulary().words("record_column_ends")
MAX_TITLE_WORDS = 10  # the most words one column's title holds
MIN_ROWS = 2  # rows under a header before it reads as a table's
MAX_WORDED = 3  # the most words of a column of words' title, and of its cells


def _bare(text: str) -> str:
    """The text without what stands in brackets ("Retail Square Feet (a)": "Retail Square
    Feet"), lower-cased, on one line, its words glued ("andretail" is found in "and retail")."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif not depth and not ch.isspace():
            out.append(ch.lower())
    return "".join(out)


def _splits(words: Sequence[str], parts: int,
            longest: int = MAX_TITLE_WORDS) -> Iterator[list[str]]:
    """Every way of cutting `words` into `parts` runs of consecutive words, in order, none
    longer than `longest` words (no title is): bounded by the runs, however long the line."""
    if not words or len(words) > parts * longest:
        return
    if parts == 1:
        yield [" ".join(words)]
        return
    for k in range(1, min(len(words) - parts + 1, longest) + 1):
        yield from ([" ".join(words[:k]), *rest] for rest in _splits(words[k:], parts - 1,
                                                                       longest))


def _ended(line: str) -> list[str] | None:
    """The line cut where a title ends: after a bracket closes, a date, a record title's last
    word, or the last word of a title before it again ("Leased Square Footage (1) Owned Square
    Footage"); a bracket after a title is its own ("(1)"). Words left at the end make a last
    title, of a column of words ("Location"). None where no title ends, or a figure stands."""
    spans = [(start, end) for _, start, end in find_periods(line)]
    titles: list[str] = []
    current: list[str] = []
    ends = set(_ENDS)
    at = 0
    for word in line.split():
        start = line.index(word, at)
        at = start + len(word)
        if lone_cell(word) and not note_mark(word) and not any(a <= start < b for a, b in spans):
            return None  # a figure: a row, no header of titles
        if not current and titles and word.startswith("(") and word.endswith(")"):
            titles[-1] += f" {word}"  # "(1)": the note's mark of the title before it
            continue
        current.append(word)
        closes = word.endswith(")") and "(" in " ".join(current)
        dated = any(start < end == at for _, end in spans)
        if closes or dated or word.strip(",:;").lower() in ends:
            titles.append(" ".join(current))
            current = []
            plain = [w for w in titles[-1].replace("(", " (").split() if "(" not in w
                     and ")" not in w]
            if plain and plain[-1].isalpha():
                ends.add(plain[-1].lower())
    if current and titles:
        titles.append(" ".join(current))
    if len(titles) < 2 or not all(any(ch.isalpha() for ch in _bare(t)) and t[:1].isupper()
                                  for t in titles):
        return None  # one title, a title of a bracket alone ("(millions)"), or words of prose
    if any(w.endswith((".", ":", ";")) for w in line.split()) or (
            current and (len(current) > MAX_WORDED or not current[0][:1].isupper())):
        return None  # a sentence, or a column of words whose title reads as none
    return titles if not current else [*titles[:-1], f"{titles[-1]}\t"]


def group_titles(line: str, groups: int) -> list[str] | None:
    """The titles of `groups` column groups ending a header line: ["Number of Stores", "Retail
    Square Feet (a)"] of "Number of Stores and Retail Square Feet Number of Stores Retail Square
    Feet (a)", each named by the caption before them; else the line's last `groups`
    bracket-ended titles; None where neither reads."""
    words = line.split()
    if groups < 2 or "|" in line or any(ch.isdigit() for ch in _bare(line)):
        return None
    for k in range(len(words) - 1, groups - 1, -1):
        caption = _bare(" ".join(words[:-k]))
        for parts in _splits(words[-k:], groups):
            if all(p[:1].isupper() and len(p.split()) <= MAX_TITLE_WORDS and _bare(p)
                   and _bare(p) in caption for p in parts):
                return parts
    ended = _ended(line)
    if ended and len(ended) >= groups and all(")" in t for t in ended[-groups:]):
        return ended[-groups:]
    return None


def grouped_header(cells: Sequence[str], above: str) -> list[str] | None:
    """A header's periods under their groups' titles (["Number of Stores 2026", "Number of
    Stores 2025", "Retail Square Feet 2026", "Retail Square Feet 2025"]) where its periods
    repeat, one run under each group the line above titles; None otherwise."""
    first = list(cells).index(cells[0], 1) if cells.count(cells[0]) > 1 else 0
    runs = len(cells) // first if first else 0
    if runs < 2 or len(cells) % first or list(cells) != list(cells[:first]) * runs:
        return None
    titles = group_titles(above, runs)
    if titles is None:
        return None
    return [f"{titles[i // first]} {cell}" for i, cell in enumerate(cells)]


def _row(line: str, width: int, worded: bool) -> tuple[str, list[str]] | None:
    """("International", ["174,499", "13,263"]): a label of words then `width` figures, and
    where the last column is one of words (`worded`), its words after them ("North America"),
    if any; the label may end in its note's mark ("Physical stores (2)")."""
    tokens = joined_signs(line.strip()).split()
    if "|" in tokens:
        return None
    tail: list[str] = []
    if worded:
        while tokens and not lone_cell(tokens[-1]):
            tail.insert(0, tokens.pop())
        if len(tail) > MAX_WORDED or (tail and not tail[0][:1].isupper()):
            return None
    if any(t.endswith((".", ":", ";")) for t in tokens) or len(tokens) > MAX_TITLE_WORDS + width:
        return None  # a sentence ending in figures, not a row
    count = width - 1 if worded else width
    if len(tokens) <= count:
        return None
    label, figures = tokens[:-count], tokens[-count:]
    if (not all(lone_cell(f) for f in figures) or not any(ch.isalpha() for ch in label[0])
            or (lone_cell(label[-1]) and not note_mark(label[-1]) and not _dated(label))):
        return None
    return " ".join(label), [*figures, *([" ".join(tail)] if worded else [])]


def _dated(label: Sequence[str]) -> bool:
    """The label ends in a date ("Balance - December 31, 2024"): a roll-forward's balance."""
    text = " ".join(label)
    return any(end == len(text) for _, _, end in find_periods(text))


def _worded_titles(lines: Sequence[str], at: int) -> list[str] | None:
    """The titles of a header of words only, none ended by a bracket or a date ("North Region
    Coastal Online Total" over rows of four figures): one a word where the words are as many
    as the first row's figures, else the one cut of them whose titles of several words the page
    names elsewhere ("North Region" in "… allocated to our North Region segment"); None where
    no cut, or more than one, reads so."""
    line = lines[at]
    words = line.split()
    row = _values(lines[at + 1]) if at + 1 < len(lines) else None
    if (row is None or "|" in line or not words or any(ch.isdigit() for ch in _bare(line))
            or any(w.endswith((".", ":", ";", ",")) for w in words)):
        return None
    count = len(row[1]) - (note_mark(row[1][0]) and len(row[1]) > len(words))
    if count < 2 or len(words) < count:
        return None
    if len(words) == count:
        return words if all(w[:1].isupper() for w in words) else None
    elsewhere = " ".join(" ".join(lines[:at] + lines[at + 1:]).split()).lower()
    cuts = [parts for parts in _splits(words, count, MAX_WORDED)
            if all(p[:1].isupper() and (" " not in p or p.lower() in elsewhere) for p in parts)]
    return cuts[0] if len(cuts) == 1 else None


def titled_rows(text: str) -> str:
    """A page's text with its tables of labelled rows under one-line titles written as table
    passages: the titles, then "International | Segment Leased Square Footage (1): 174,499 |
    Owned Square Footage (1): 13,263"."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        titles = (_ended(lines[i]) or _worded_titles(lines, i)) if "|" not in lines[i] \
            else None
        worded = bool(titles) and titles[-1].endswith("\t")
        titles = [t.rstrip("\t") for t in titles or []]
        rows: list[tuple[str, list[str]]] = []
        if titles and all(len(t.split()) <= MAX_TITLE_WORDS for t in titles):
            for line in lines[i + 1:]:
                row = _row(line, len(titles), worded)
                if row is None:
                    break
                rows.append(row)
        if len(rows) < MIN_ROWS:
            out.append(lines[i])
            i += 1
            continue
        assert titles is not None
        if worded and not any(cells[-1] for _, cells in rows):
            # no row fills the column of words: its words end the title before ("… Fair Value
            # Per Share")
            titles = [*titles[:-2], f"{titles[-2]} {titles[-1]}"]
            rows = [(label, cells[:-1]) for label, cells in rows]
        out.append(" | ".join(titles))
        out.extend(" | ".join([label, *(f"{t}: {c}" for t, c in zip(titles, cells, strict=True)
                                        if c)])
                   for label, cells in rows)
        i += 1 + len(rows)
    return "\n".join(out)


def _one_date(line: str) -> str | None:
    """The line's text where it is one date and nothing else ("December 31, 2025")."""
    text = line.strip()
    found = find_periods(text)
    if len(found) != 1 or "|" in text or any(ch.isdigit() for ch in text[found[0][2]:]):
        return None
    start, end = found[0][1], found[0][2]
    return text if start == 0 and end >= len(text.rstrip(":")) else None


def dated_tables(text: str) -> str:
    """A page's text with each table under a line of one date written with that date in its
    columns' titles: "Present value of lease liabilities | December 31, 2025 Operating Leases:
    89,252 | December 31, 2025 Finance Leases: 12,286"."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        dated = _one_date(lines[i])
        header = lines[i + 1] if dated and i + 1 < len(lines) else ""
        titles = [t.strip() for t in header.split(" | ")]
        if (not dated or len(titles) < 2 or ":" in header or not all(titles)
                or i + 2 >= len(lines) or ": " not in lines[i + 2]):
            i += 1
            continue
        out.append(" | ".join(f"{dated} {t}" for t in titles))
        j = i + 2
        while j < len(lines) and " | " in lines[j] and ": " in lines[j]:
            cells = lines[j].split(" | ")
            out.append(" | ".join([cells[0], *(
                f"{dated} {c}" if c.split(": ", 1)[0] in titles else c for c in cells[1:])]))
            j += 1
        i = j
    return "\n".join(out)


_RANGE_JOINERS = vocabulary().words("year_range_words") | {"-", "–"}


def _values(line: str) -> tuple[str, list[str]] | None:
    """("Fixed-rate notes", ["2025 – 2062", "$86,781", "0.03% – 5.75%"]): a row's label and
    its run of figures at its end, a range of two figures one cell; None for no row."""
    tokens: list[str] = []
    for token in joined_signs(line.strip()).split():
        if token == "%" and tokens and lone_cell(tokens[-1]):
            tokens[-1] += "%"
        else:
            tokens.append(token)
    joined = " ".join(tokens)
    spans = [(start, end) for _, start, end in find_periods(joined)]
    starts = [len(" ".join(tokens[:k])) + bool(k) for k in range(len(tokens))]
    # a date's year ends the label, no cell ("Balance - December 31, 2024 19,289")
    dates = [k for k, at in enumerate(starts) if any(a <= at < b for a, b in spans)]
    cells: list[str] = []
    while tokens and len(tokens) - 1 not in dates and lone_cell(tokens[-1]):
        cells.insert(0, tokens.pop())
        if (len(tokens) >= 2 and tokens[-1] in _RANGE_JOINERS and lone_cell(tokens[-2])
                and any(ch.isdigit() for ch in tokens[-2] + cells[0])):
            joiner, first = tokens.pop(), tokens.pop()
            cells[0] = f"{first} {joiner} {cells[0]}"
    label = " ".join(tokens)
    if not cells or not any(ch.isalpha() for ch in label) or label.endswith((".", ";")):
        return None
    return label, cells
