"""Staggered tables a PDF text layer writes, re-cut into rows where the page is read.

A text layer can write each row's label at the end of the line above its figures ("Revenue" /
"$ 11,139 $ 17,455 57 % Net loss" / "$ (6,768) $ (496) Adjusted EBITDA" / …). Left so, no row
carries its label with its figures, and neither retrieval nor any reader after the parser finds
"Revenue" beside "$17,455". `unstaggered` writes each such block as a table passage is written
(its year header, then "Revenue | 2020: $11,139 | 2021: $17,455 | change: 57%"), once, as the PDF
parser reads the page (`manda.ingest.parsers.pdf`), so stored passages carry each label with its
figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from manda.finance.figures import joined_signs, lone_cell
from manda.text import YEAR, without_asides
from manda.vocabulary import vocabulary

__all__ = ["staggered_text", "unstaggered"]

# how far above a staggered block its column headings are looked for
_HEADER_REACH = 6
_LABEL_WORDS = 8  # the most words a line of a row's label alone holds
_CHANGE_HEADER = vocabulary().cues("change_header")  # "Change", "Percent change"
# "2020 to 2021", "2020 – 2021": the words between two years that make them one change column
_RANGE_WORDS = vocabulary().words("year_range_words") | {"-", "–", "—"}


@dataclass
class _Cut:
    """A line cut into its leading words, its one run of figure cells and its trailing words."""

    lead: list[str]
    figures: list[str]
    trail: list[str]

    @property
    def counted(self) -> int:
        return sum(1 for f in self.figures if any(c.isdigit() for c in f))


def _cut(line: str) -> _Cut | None:
    """`line` as words, figures, words ("$ 57,897 $ 90,415 56 % 53 % Revenue"); None where its
    figures are not one run (prose: "up 56% in 2021, or 53% …") or it holds a table's `|`."""
    if "|" in line:
        return None
    tokens: list[str] = []
    for token in joined_signs(line).split():
        if token == "%" and tokens and lone_cell(tokens[-1]):
            tokens[-1] += "%"  # "27 %": the sign of the figure before it
        else:
            tokens.append(token)
    at = [i for i, t in enumerate(tokens) if lone_cell(t)]
    if not at:
        return _Cut(tokens, [], [])
    if at[-1] - at[0] + 1 != len(at):
        return None
    if len(at) >= 2 and at[-1] == len(tokens) - 1 and _bare_year(tokens[-1]) and not any(
            _bare_year(tokens[k]) for k in at[:-1]):
        # "$ 280 $ 140 2023": a maturity schedule's next row is labelled by its year
        at = at[:-1]
    return _Cut(tokens[:at[0]], tokens[at[0]:at[-1] + 1], tokens[at[-1] + 1:])


def _bare_year(token: str) -> bool:
    """A year written alone ("2023"), as a schedule labels its rows; no amount ("2,023")."""
    return token.isdigit() and YEAR.fullmatch(token) is not None


def _staggered(cut: _Cut | None) -> bool:
    """A line of a staggered table: a row's figures, then the next row's label in capitals."""
    return cut is not None and not cut.lead and cut.counted >= 2 and bool(cut.trail) and \
        (cut.trail[0][:1].isupper() or _bare_year(cut.trail[0])) and \
        not any(YEAR.fullmatch(f) for f in cut.figures)


def _columns(line: str, labelled: bool = False) -> list[str]:
    """The column headings a header line names by year: "2020 2021 2020 to 2021 %" is
    ["2020", "2021", "change"]; "Q1 2021 Q2 2021" is ["Q1 2021", "Q2 2021"]. A line with any
    other word before its last year names none ("Year ended December 31, 2021"), nor one with
    words after it, but a unit in brackets or a change column's title ("(in thousands)",
    "Change"); the line that ends with the first row's label (`labelled`) may end in words."""
    out: list[str] = []
    tokens = line.split()
    years = [i for i, t in enumerate(tokens) if YEAR.fullmatch(t.strip(","))]
    if not years:
        return []
    after = " ".join(tokens[years[-1] + 1:])
    if not labelled and without_asides(after).strip(" %") and not _CHANGE_HEADER.found(after):
        return []
    for i, token in enumerate(tokens[:years[-1] + 1]):
        if i in years:
            if i and tokens[i - 1].lower() in _RANGE_WORDS:
                if not out:
                    return []
                out[-1] = "change"  # "2020 to 2021": the change between two years
                continue
            lead = tokens[i - 1] if i and i - 1 not in years and _column_lead(tokens[i - 1]) \
                else ""
            out.append(f"{lead} {token.strip(',')}".strip())
        elif not (token.lower() in _RANGE_WORDS or token == "%" or _column_lead(token)
                  or _CHANGE_HEADER.found(token)):
            return []
    return out


def _column_lead(token: str) -> bool:
    """A period's short name before its year: "Q1", "H2", "FY"."""
    return len(token) <= 3 and token[:1].isupper() and not any(c in token for c in ",.;:")


def _header(lines: list[str], top: int, wanted: int) -> list[str] | None:
    """The `wanted` column headings of a staggered block, from the header lines right above
    it, `top` the nearest (a line of a change column's title between them is passed over);
    change columns numbered as ingestion numbers them ("change 2"). None where they are fewer
    than the row's figures or name one column twice."""
    found: list[list[str]] = []
    for k in range(top, max(-1, top - _HEADER_REACH), -1):
        line = lines[k].strip()
        if "|" in line:
            break
        named = _columns(line, labelled=k == top)
        if named:
            found.insert(0, named)
        elif found and not (_CHANGE_HEADER.found(line) and len(line.split()) <= 3) and not \
                (without_asides(line).strip() == "" and line):
            break
    columns = [c for named in found for c in named]
    if not any(c != "change" for c in columns) or len(columns) < wanted:
        return None
    # the first ones: a year after them opens the first row's label ("2019 2025 Notes")
    columns = columns[:wanted]
    seen = 0
    for i, c in enumerate(columns):
        if c == "change":
            seen += 1
            columns[i] = "change" if seen == 1 else f"change {seen}"
    if len(set(columns)) < len(columns):
        return None
    return columns


def unstaggered(lines: list[str]) -> list[str]:
    """A passage's lines with each staggered table re-cut into rows. A PDF text layer can write
    each row's label at the end of the line above its figures ("Revenue" / "$ 11,139 $ 17,455
    57 % Net loss" / "$ (6,768) $ (496) Adjusted EBITDA" / …): where two lines or more open with
    figures and end with a label, the block is written as a table passage is (its year header,
    then "Revenue | 2020: $11,139 | 2021: $17,455 | change: 57%"), read under the columns its
    header lines above name. A label left at a line's end over a line of words only is a group
    heading ("Costs and expenses" over "Cost of revenue"); one that runs on into the next
    line's leading words is one label ("Net loss attributable to" / "the company $ (6,768)")."""
    cuts = [_cut(line) for line in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        end = i + 1
        while end < len(lines) and (cut := cuts[end]) is not None and (cut.figures or (
                len(cut.lead) <= _LABEL_WORDS and end + 1 < len(lines)
                and (after := cuts[end + 1]) is not None and bool(after.figures))):
            end += 1
        block = range(i + 1, end)
        rewritten = _recut(lines, cuts, i, end) if sum(
            _staggered(cuts[k]) for k in block) >= 2 else None
        if rewritten is None:
            out.append(lines[i])
            i += 1
            continue
        out.extend(rewritten[0])
        leftover = rewritten[1]
        if leftover and end < len(lines):
            out.append(f"{leftover} {lines[end].strip()}")
            i = end + 1
        else:
            out.extend([leftover] if leftover else [])
            i = end
    return out


def _opening(line: str, cut: _Cut | None, years: bool = False) -> tuple[str, list[str]]:
    """The line above a staggered block as its caption and the first row's label: the words
    after its last figure ("2020 to 2021 % Change Revenue"), or a short line of words whole;
    over rows labelled by their years (`years`), the year it ends in ("Finance Leases 2022")."""
    if cut is not None and not cut.figures:
        return ("", cut.lead) if len(cut.lead) <= _LABEL_WORDS else (line, [])
    tokens = joined_signs(line).split()
    if years and cut is not None and cut.lead and not cut.trail and len(cut.figures) == 1 \
            and _bare_year(cut.figures[0]):
        return " ".join(cut.lead), cut.figures
    last = max((k for k, t in enumerate(tokens) if lone_cell(t.rstrip("%")) or t == "%"),
               default=-1)
    return " ".join(tokens[:last + 1]), tokens[last + 1:]


def _titled_columns(lines: list[str], first: int, caption: str, wanted: int
                    ) -> list[str] | None:
    """The `wanted` column titles in words a schedule labelled by years reads under, each
    ending in the caption's last word ("Operating Leases" / "Finance Leases Total Leases" over
    "2022"): the titles are cut at that word, the first as long as the second, from the caption
    and the lines above it; a word glued to a caption's bracket or colon ("(in thousands):
    Operating") is cut at it. None where fewer titles are found, or the last word is no word."""
    words = caption.split()
    if not words or not words[-1].isalpha():
        return None
    end = words[-1].lower()
    k = first - 1
    while sum(w.lower() == end for w in words) < wanted and k >= max(0, first - _HEADER_REACH):
        words = [*lines[k].split(), *words]
        k -= 1
    stops = [i for i, w in enumerate(words) if w.lower() == end][-wanted:]
    if len(stops) < wanted or wanted < 2:
        return None
    size = stops[1] - stops[0]
    titles = [words[a + 1:b + 1] for a, b in pairwise(stops)]
    start = stops[0] - size + 1
    if start < 0 or any(not t for t in titles):
        return None
    lead = words[start:stops[0] + 1]
    lead[0] = lead[0][max(lead[0].rfind(":"), lead[0].rfind(")")) + 1:]
    if not lead[0][:1].isupper():
        return None
    return [" ".join(t) for t in [lead, *titles]]


def _header_words(words: list[str], above: set[str]) -> int:
    """How many of a first label's leading words are its header's: words of the lines above,
    or a change column's title ("Change" under "2020 2021 2020 to 2021 %"); one word stays."""
    n = 0
    while n < len(words) - 1 and (words[n].lower() in above or _CHANGE_HEADER.found(words[n])):
        n += 1
    return n


def _recut(lines: list[str], cuts: list[_Cut | None], first: int, end: int
           ) -> tuple[list[str], str] | None:
    """The lines of the staggered block from line `first` (the line whose end holds the first
    row's label) to `end`, as a header and rows; and the words left after its last figures."""
    years = any(_bare_year(cut.trail[0]) for k in range(first + 1, end)
                if (cut := cuts[k]) is not None and cut.trail)
    caption, words = _opening(lines[first], cuts[first], years)
    # "2020 to 2021 % / Change / 2020 to 2021 % Change Revenue": the header's own words
    # before the first label are the header's
    above = {w.lower() for line in lines[max(0, first - _HEADER_REACH):first] for w in
             line.split()}
    headed = _header_words(words, above)
    caption, words = " ".join([caption, *words[:headed]]).strip(), words[headed:]
    rows: list[tuple[str, list[str]]] = []
    label = [" ".join(words)] if words else []
    titles: list[str] = []  # the header's words on a line of their own over the first label
    for k in range(first + 1, end):
        cut = cuts[k]
        assert cut is not None
        if cut.figures and cut.counted < 1:
            return None  # "— — —": no figures to read a row by
        if not cut.figures:
            lead = cut.lead
            if not rows and not label:
                headed = _header_words(lead, above)
                titles, lead = lead[:headed], lead[headed:]
            if label:
                rows.append((" ".join(label), []))  # a group heading over the next label
            label = [" ".join(lead)]
            continue
        if cut.lead:
            label.append(" ".join(cut.lead))
        rows.append((" ".join(label), cut.figures))
        label = [" ".join(cut.trail)] if cut.trail else []
    wanted = max(len(cells) for _, cells in rows)
    columns = _header(lines, first if caption else first - 1, wanted)
    if columns is None and years:
        columns = _titled_columns(lines, first, caption, wanted)
        caption = "" if columns is not None else caption  # the caption was the titles
    if columns is None or any(not name or (any(c.isdigit() for c in name.split()[-1])
                                           and not (years and _bare_year(name)))
                              for name, cells in rows if cells):
        return None
    out = [*([caption] if caption else []), *([" ".join(titles)] if titles else []),
           " | ".join(columns)]
    for name, cells in rows:
        if not cells:
            out.append(name)
            continue
        out.append(" | ".join([name, *(f"{c}: {v}" for c, v in zip(columns, cells, strict=False))]))
    return out, " ".join(label)


def staggered_text(text: str) -> str:
    """A page's text with its staggered tables re-cut into rows (`unstaggered`)."""
    lines = text.split("\n")
    out = unstaggered(lines)
    return text if out == lines else "\n".join(out)
