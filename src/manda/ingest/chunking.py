"""Cut parsed sections into retrievable chunks that never cross a section, so locations stay exact.

A chunk never crosses a heading either: a section holding several (a PDF page) is cut first where
its heading path changes, and each chunk keeps the path it stands under (`Chunk.heading_path`;
the path is not indexed: on the filings probe adding it to the context line lowered held-out
recall). Deterministic: the same ParsedDocument always gives the same chunks and ids. Text is
split at paragraph, then line, then sentence, then word boundaries, with a small overlap between
neighbours; tables are split by rows with their context (notes and header) repeated on top, and
so are tables a page holds as ` | ` lines. A statement page's unit line ("(In millions, except per
share data)", "en milliers d'euros") is carried on top of every chunk of figures cut below it that
does not hold it, so a row read from any of them keeps its scale (`unit_lines`).
Each chunk starts with a context line (`[Q3_Report.pdf p.2] Annual report · cash flow statement`)
so BM25 and vectors see which file, place, document role and kind of page it comes from: a passage
that only says "it increased 8%" is still found by the statement or document it sits in. The
context line is indexed, never shown: search returns the body (`manda.retrieval.hybrid`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from manda.finance.figures import statement_scale
from manda.finance.statements import page_statements
from manda.ingest.parsers.layout import is_note_line, text_table_blocks
from manda.models import Chunk, HeadingPath, Location, LocationKind, ParsedDocument, Section
from manda.text import words

DEFAULT_PREFIX = "[{filename} {location}]"
MIN_BODY_CHARS = 200  # a long prefix never squeezes the body below this
MAX_NAME_CHARS = 60  # file names and titles longer than this are shortened in the prefix
MAX_LOCATION_CHARS = 80
CONTEXT_SEPARATOR = " · "

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=\S)")


def chunk_document(
    parsed: ParsedDocument,
    *,
    deal_id: str,
    document_id: str,
    max_chars: int = 1200,
    overlap: int = 150,
    prefix: str | None = DEFAULT_PREFIX,
    role: str | None = None,
) -> list[Chunk]:
    """Chunks of every non-empty section, numbered in document order.

    `max_chars` bounds the whole chunk text, prefix included (unless the prefix would leave
    less than MIN_BODY_CHARS for the body). `prefix` is a format string with `{filename}`,
    `{title}` and `{location}`; None or "" leaves chunks without it (and without context).
    The context after the prefix names the document's title and `role` (when known) and the
    statements the section is (`page_statements`).
    """
    if overlap < 0 or overlap >= max_chars:
        raise ValueError("overlap must be at least 0 and smaller than max_chars")
    chunks: list[Chunk] = []
    for index, section in enumerate(parsed.sections):
        if not section.text.strip():
            continue
        context = _context(parsed, section, role) if prefix else ""
        budget = max(
            max_chars - len(_head(prefix, parsed, section.location, context)) - 1, MIN_BODY_CHARS
        )
        units = unit_lines(section.text)
        if units and (len(section.text.strip()) > budget or section.heading_changes):
            # room for the unit line a piece cut below it carries on top
            budget = max(budget - max(len(line) + 1 for _, line in units), MIN_BODY_CHARS)
        cursor = 0
        for path, part in heading_blocks(section):
            for location, piece in split_section(part, budget=budget, overlap=overlap):
                body, cursor = _with_unit_line(piece, section.text, units, cursor)
                head = _head(prefix, parsed, location, context)
                ordinal = len(chunks)
                chunks.append(
                    Chunk(
                        id=Chunk.make_id(document_id, ordinal),
                        deal_id=deal_id,
                        document_id=document_id,
                        ordinal=ordinal,
                        text=f"{head}\n{body}" if head else body,
                        location=location,
                        section=index,
                        heading_path=path,
                    )
                )
    return chunks


def unit_lines(text: str) -> list[tuple[int, str]]:
    """(offset, line) of each line of a section that announces its figures' unit: "(In millions,
    except per share data)", "(en milliers d'euros)", "in Mio. EUR"; a line that states a
    figure ("sales grew by $4.9 billion") announces none."""
    found: list[tuple[int, str]] = []
    at = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if is_note_line(stripped) and statement_scale([stripped]).line:
            found.append((at, stripped))
        at += len(line) + 1
    return found


def _with_unit_line(piece: str, text: str, units: Sequence[tuple[int, str]], cursor: int
                    ) -> tuple[str, int]:
    """The piece with the unit line that stands above it in its section on top, when it holds
    figures and no unit line of its own; and where in the section it ends (the next piece's
    search starts there: pieces come in order)."""
    if not units:
        return piece, cursor
    last = piece.rstrip().rsplit("\n", 1)[-1].strip()
    end = text.find(last, cursor) if last else -1
    if end == -1:
        return piece, cursor
    above = [line for at, line in units if at < end]
    if not above or not any(c.isdigit() for c in piece) or any(
            line in piece for _, line in units):
        return piece, end
    return f"{above[-1]}\n{piece}", end


def heading_blocks(section: Section) -> list[tuple[HeadingPath, Section]]:
    """The section cut where its heading path changes (a PDF page's own headings and captioned
    tables), each part with its path; a heading alone before another joins the part after it."""
    if not section.heading_changes:
        return [(section.heading_path, section)]
    lines = section.text.split("\n")
    return [(path, section.model_copy(update={
                "text": "\n".join(lines[start:end]).strip("\n"), "heading_changes": []}))
            for path, start, end in _heading_ranges(section, lines)]


def _heading_ranges(section: Section, lines: Sequence[str]) -> list[tuple[HeadingPath, int, int]]:
    """(path, first line, line after) of each part of a section under one heading path."""
    cuts = [(0, section.heading_path), *section.heading_changes, (len(lines), ())]
    parts: list[tuple[HeadingPath, int, int]] = []
    carried: int | None = None  # where a heading with nothing under it began
    for (start, path), (end, _) in itertools.pairwise(cuts):
        text = " ".join(" ".join(lines[start:end]).replace(" | ", " ").split())
        if not text:
            continue
        if end < len(lines) and path and text == path[-1]:
            carried = start if carried is None else carried
            continue
        parts.append((path, start if carried is None else carried, end))
        carried = None
    if carried is not None:
        parts.append((section.heading_changes[-1][1], carried, len(lines)))
    return parts


def stored_heading_paths(chunks: Sequence[Chunk], parsed: ParsedDocument
                         ) -> dict[str, HeadingPath]:
    """Chunk id -> heading path, for chunks stored before heading paths were kept (and cut by
    that version's rules, which did not cut at headings): the path most of its text stands
    under in its section."""
    paths: dict[str, HeadingPath] = {}
    for chunk in chunks:
        if not 0 <= chunk.section < len(parsed.sections):
            paths[chunk.id] = ()
            continue
        section = parsed.sections[chunk.section]
        if not section.heading_changes:
            paths[chunk.id] = section.heading_path
            continue
        lines = section.text.split("\n")
        body = [line.strip() for line in shown_text(chunk).strip().split("\n")]
        first, last = _line_span(lines, body)
        weight: dict[HeadingPath, int] = {}
        for path, top, end in _heading_ranges(section, lines):
            for i in range(max(first, top), min(last + 1, end)):
                weight[path] = weight.get(path, 0) + len(lines[i])
        paths[chunk.id] = max(weight, key=lambda p: weight[p]) if weight else (
            section.heading_path)
    return paths


def _line_span(lines: Sequence[str], body: Sequence[str]) -> tuple[int, int]:
    """The first and last line of `lines` that `body` (a chunk's lines) covers, found by its
    longest early line (blank lines and overlaps make the text itself shift)."""
    for k in sorted(range(min(len(body), 6)), key=lambda k: -len(body[k])):
        at = next((i for i, line in enumerate(lines) if body[k] in line), None)
        if len(body[k]) >= 12 and at is not None:
            first = max(0, at - k)
            return first, min(len(lines) - 1, first + len(body) - 1)
    return 0, min(len(lines) - 1, len(body) - 1)


def split_section(section: Section, *, budget: int, overlap: int) -> list[tuple[Location, str]]:
    """(location, body) pieces of one section, each at most `budget` characters."""
    text = section.text.strip()
    if not text:
        return []
    if len(text) <= budget:
        return [(section.location, text)]
    if section.table and len(section.table) > 1:
        pieces = _split_table(section, budget)
        if pieces is not None:
            return pieces
    return [(section.location, body) for body in _split_with_table_context(text, budget, overlap)]


def _split_with_table_context(text: str, budget: int, overlap: int) -> list[str]:
    """Plain text split into pieces; a piece that starts inside a table written as ` | ` lines
    is given that table's caption and header first, so its rows never lose their meaning."""
    blocks = text_table_blocks(text)
    room = max((len(b.context) + 1 for b in blocks), default=0)
    if not blocks or budget - room < MIN_BODY_CHARS:
        return split_text(text, budget, overlap)
    pieces = split_text(text, budget - room, overlap)
    out: list[str] = []
    cursor = 0
    for piece in pieces:
        at = text.find(piece[:80], cursor)
        if at == -1:
            out.append(piece)
            continue
        cursor = at + 1
        block = next((b for b in blocks if b.start < at < b.end), None)
        if block is not None and not piece.startswith(block.context.split("\n")[-1]):
            piece = f"{block.context}\n{piece}"
        out.append(piece)
    return out


# ---------------------------------------------------------------- tables


def _split_table(section: Section, budget: int) -> list[tuple[Location, str]] | None:
    """Rows packed under the repeated context; None when the text is not in table shape."""
    table = section.table or []
    lines = section.text.strip().split("\n")
    data_count = len(table) - 1
    if len(lines) < data_count + 1:
        return None
    context = "\n".join(lines[: len(lines) - data_count])
    rows = lines[len(lines) - data_count :]
    room = budget - len(context) - 1
    if room < budget // 3:
        return None  # the context alone would eat the chunk: split as plain text instead
    out: list[tuple[Location, str]] = []
    group: list[int] = []  # 1-based table row indexes
    size = 0

    def flush() -> None:
        nonlocal group, size
        if group:
            body = context + "\n" + "\n".join(rows[i - 1] for i in group)
            out.append((_rows_location(section, group[0], group[-1]), body))
        group, size = [], 0

    for i, line in enumerate(rows, start=1):
        if len(line) > room:
            flush()
            for part in split_text(line, room, 0):
                out.append((_rows_location(section, i, i), context + "\n" + part))
            continue
        if group and size + 1 + len(line) > room:
            flush()
        size += len(line) + (1 if group else 0)
        group.append(i)
    flush()
    return out


def _rows_location(section: Section, first: int, last: int) -> Location:
    """The cell range of table rows `first`..`last`, if cells carry references."""
    refs = section.cell_refs
    if not refs or last >= len(refs) or not refs[first] or not refs[last]:
        return section.location
    start, end = refs[first][0], refs[last][-1]
    sheet, _, start_cell = start.rpartition("!")
    _, _, end_cell = end.rpartition("!")
    if not sheet or section.location.kind != LocationKind.CELL:
        return section.location
    if first == 1:  # the section's range may start above its first row (notes, header)
        start_cell = section.location.label.rpartition("!")[2].split(":")[0] or start_cell
    cell_range = start_cell if start_cell == end_cell else f"{start_cell}:{end_cell}"
    return Location.for_cell(sheet, cell_range)


# ---------------------------------------------------------------- text


def split_text(text: str, budget: int, overlap: int) -> list[str]:
    """Pieces of at most `budget` characters, cut at the largest boundary that fits."""
    return _pack(_units(text, budget), budget, overlap)


def _units(text: str, budget: int) -> list[tuple[str, str]]:
    """(separator, unit) pairs: paragraphs, else lines, else sentences, else word windows."""
    units: list[tuple[str, str]] = []
    for paragraph in _PARAGRAPH_BREAK.split(text):
        paragraph = paragraph.strip("\n")
        if not paragraph.strip():
            continue
        if len(paragraph) <= budget:
            units.append(("\n\n", paragraph))
            continue
        sep = "\n\n"
        for line in paragraph.split("\n"):
            if not line.strip():
                continue
            for k, sentence in enumerate(_sentences(line, budget)):
                for m, window in enumerate(_windows(sentence, budget)):
                    units.append((sep if k == 0 and m == 0 else " ", window))
            sep = "\n"
    return units


def _sentences(line: str, budget: int) -> list[str]:
    if len(line) <= budget:
        return [line]
    return [s for s in _SENTENCE_END.split(line) if s]


def _windows(sentence: str, budget: int) -> list[str]:
    """Word windows of at most `budget` characters; a word longer than that is cut."""
    if len(sentence) <= budget:
        return [sentence]
    out: list[str] = []
    current = ""
    for word in sentence.split():
        while len(word) > budget:
            if current:
                out.append(current)
                current = ""
            out.append(word[:budget])
            word = word[budget:]
        if not word:
            continue
        if current and len(current) + 1 + len(word) > budget:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        out.append(current)
    return out


def _pack(units: list[tuple[str, str]], budget: int, overlap: int) -> list[str]:
    chunks: list[str] = []
    current: list[tuple[str, str]] = []
    for sep, unit in units:
        if current and len(_joined(current)) + len(sep) + len(unit) > budget:
            chunks.append(_joined(current))
            current = _tail(current, overlap)
            if current and len(_joined(current)) + len(sep) + len(unit) > budget:
                current = []
        current.append((sep, unit))
    if current:
        chunks.append(_joined(current))
    return chunks


def _joined(units: list[tuple[str, str]]) -> str:
    return units[0][1] + "".join(sep + unit for sep, unit in units[1:])


def _tail(units: list[tuple[str, str]], overlap: int) -> list[tuple[str, str]]:
    """The end of a finished chunk to repeat at the start of the next: whole units if they fit,
    else the last unit's final words."""
    if overlap <= 0:
        return []
    tail: list[tuple[str, str]] = []
    size = 0
    for sep, unit in reversed(units[1:]):
        size += len(unit) + (len(sep) if tail else 0)
        if size > overlap:
            break
        tail.insert(0, (sep, unit))
    if tail:
        return tail
    last = units[-1][1]
    cut = last[-overlap:]
    space = cut.find(" ")
    words = cut[space + 1 :] if space != -1 else ""
    return [("", words)] if words.strip() else []


# ---------------------------------------------------------------- prefix


def _head(prefix: str | None, parsed: ParsedDocument, location: Location, context: str = "") -> str:
    if not prefix:
        return ""
    head = prefix.format(
        filename=_short(parsed.filename, MAX_NAME_CHARS),
        title=_short(parsed.title or parsed.filename, MAX_NAME_CHARS),
        location=_short(location.label, MAX_LOCATION_CHARS),
    )
    return f"{head} {context}" if context else head


def _context(parsed: ParsedDocument, section: Section, role: str | None) -> str:
    """Title, role and statement kinds of a section, as words search can match."""
    parts: list[str] = []
    title = (parsed.title or "").strip()
    if title and _words(title) != _words(parsed.filename.rpartition(".")[0] or parsed.filename):
        parts.append(_short(" ".join(title.split()), MAX_NAME_CHARS))
    if role and role != "other":
        parts.append(role.replace("_", " "))
    parts += [str(kind) for kind in page_statements(section.text)]
    return CONTEXT_SEPARATOR.join(parts)


def _words(text: str) -> list[str]:
    return words(text.lower())


def _short(text: str, limit: int) -> str:
    """`Project_Falcon_Very…Q3_2024.pdf`: both ends kept, they tell names apart."""
    if len(text) <= limit:
        return text
    keep = (limit - 1) // 2
    return f"{text[:keep]}…{text[-keep:]}"


def context_line(chunk: Chunk) -> str | None:
    """The indexed context line chunking put on top (`[file p.2] …`), if the chunk has one."""
    first, newline, _ = chunk.text.partition("\n")
    label = chunk.location.label[:30]
    if newline and first.startswith("[") and "]" in first and label in first:
        return first
    return None


def shown_text(chunk: Chunk) -> str:
    """What a person sees of a chunk: its text without the indexed context line."""
    head = context_line(chunk)
    return chunk.text[len(head) + 1 :] if head is not None else chunk.text
