"""A segment's figures: its margin or share computed from its own rows, its change over a year.

Filings print a segment's figure three ways, and each is read here as (segment, line, row):
- a row of the segment's block ("Operating income" under the heading "AWS", `Span.segment`);
- a row named by the segment under its line item's heading ("North America" under
  "Operating income", a segment table of the MD&A);
- a row whose label says both, around a segment word ("Energy segment revenue",
  "Gross profit energy segment").

The segment asked is the one whose name the question's words all say. A computed metric of it
reads every input from that segment's rows, never the company's; where its rows lack an input,
the answer says which, with what was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.computed import ratio_shown, unit_words
from manda.agent.compose.leads import fiscal_year, when
from manda.agent.compose.ranking import a_total, line_heads, row_line
from manda.agent.compose.stated import row_sources
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import content_terms
from manda.agent.spans import Span, label_periods, statement_rows
from manda.finance.derived import LINE_ITEMS, Derived, alternatives
from manda.finance.derived import line_item_of as states_line
from manda.finance.figures import Figure
from manda.finance.vocabulary import canonical_subject, line_item_of, metric_spec
from manda.models import Finding
from manda.vocabulary import vocabulary

_SEGMENT_WORDS = vocabulary().cues("segment_words")  # "segment", "secteur", "Segment"


@dataclass(frozen=True)
class SegmentLine:
    """One row of one segment: the segment's name, the line item's words, the row."""

    segment: str
    line: str
    span: Span


def segment_lines(evidence: Evidence, rows: Sequence[Span] | None = None) -> list[SegmentLine]:
    """Every segment's row of the passages, read the three ways filings print them."""
    rows = statement_rows(evidence) if rows is None else rows
    heads: dict[str | None, dict[str, str]] = {}
    out: list[SegmentLine] = []
    for span in rows:
        if span.row is None or label_periods(span.row):
            continue
        label = span.row.label.strip().rstrip(":")
        if span.segment:
            out.append(SegmentLine(span.segment, label, span))
            continue
        if not label or a_total(label):
            continue
        if (said := _said_in_label(label)) is not None:
            out.append(SegmentLine(*said, span))
            continue
        if line_item_of(label) is not None or canonical_subject(label) is not None:
            continue  # a line item of its own, no segment's name
        if span.source.chunk_id not in heads:
            heads[span.source.chunk_id] = line_heads(span, evidence)
        head = next((h for h in (span.group, heads[span.source.chunk_id].get(row_line(span), ""))
                     if h and canonical_subject(h) is not None), "")
        if head:
            out.append(SegmentLine(label, _line_words(head), span))
    return out


def _line_words(head: str) -> str:
    """A heading's line item in its words: "Operating income" of "Operating income by segment
    is as follows (in millions):"."""
    head = head.strip().rstrip(":")
    if len(head.split()) <= 4:
        return head
    return _derived_key(canonical_subject(head) or "") or head


def _said_in_label(label: str) -> tuple[str, str] | None:
    """(segment, line) of a label that names both around a segment word: "Energy segment
    revenue" is the Energy segment's revenue, "Gross profit energy segment" its gross profit."""
    found = _SEGMENT_WORDS.search(label)
    if found is None:
        return None
    before, after = label[:found.start()].strip(" ,-–—"), label[found.end():].strip(" ,-–—")
    if before and after and canonical_subject(after) is not None:
        return before, after
    # "Gross profit energy generation and storage": the line item it starts with, then the name
    length = max((states_line(before, key) for key in LINE_ITEMS), default=0)
    if not after and length and before[length:].strip():
        return before[length:].strip(), before[:length]
    return None


def asked_segment(ask: Ask, lines: Sequence[SegmentLine], scope: frozenset[str] = frozenset()
                  ) -> str | None:
    """The segment whose name the question says in full ("North America" of "Amazon's North
    America segment"), the longest name where several are said; None when none is. The
    company's own words (`scope`) name no segment ("Microsoft" of "Microsoft's Intelligent
    Cloud segment" says nothing of "Microsoft Cloud")."""
    said = {t.removesuffix("'s").removesuffix("'") for t in ask.frame.ranking.terms} - set(
        content_terms(" ".join(scope)))
    best: tuple[int, str] | None = None
    for name in dict.fromkeys(line.segment for line in lines):
        own = _name_terms(name)
        if own and all(t in said for t in own) and (best is None or len(own) > best[0]):
            best = (len(own), name)
    return best[1] if best else None


def asked(ask: Ask, evidence: Evidence) -> str | None:
    """The segment the question names, of those the passages state; None for none."""
    return asked_segment(ask, segment_lines(evidence), evidence.scope_words)


def names(span: Span, segment: str) -> bool:
    """The span is the segment's: a row of its block, or a text that names it."""
    own = content_terms(segment)
    return _same(span.segment, segment) if span.segment else bool(own) and all(
        t in content_terms(span.text) for t in own)


def _same(name: str, other: str) -> bool:
    """One segment's two names ("Energy" and "Energy segment")."""
    return _name_terms(name) == _name_terms(other)


def name_terms(name: str) -> list[str]:
    """A segment's name's own words, without the segment word ("Energy" of "Energy segment")."""
    return _name_terms(name)


def of_line(lines: Sequence[SegmentLine], segment: str, subject: str) -> list[SegmentLine]:
    """The segment's lines of the line item `subject`, by its name or as a derived input."""
    item = _derived_key(subject)
    return [line for line in lines if _same(line.segment, segment)
            and _states_asked(line, subject, item)]


def same_segment(name: str, other: str) -> bool:
    """One segment's two names ("Energy" and "Energy segment")."""
    return _same(name, other)


def _name_terms(name: str) -> list[str]:
    return [t for t in content_terms(name) if not _SEGMENT_WORDS.found(t)]


def of_segment(lines: Sequence[SegmentLine], segment: str, item: str) -> list[SegmentLine]:
    """The segment's rows of a statement line (`manda.finance.derived` keys), the most specific
    wording first."""
    scored = [(states_line(line.line, item), n, line) for n, line in enumerate(lines)
              if _same(line.segment, segment)]
    return [line for score, _, line in sorted(scored, key=lambda t: (-t[0], t[1])) if score]


def _years(span: Span) -> dict[int, Figure]:
    out: dict[int, Figure] = {}
    for figure in span.figures():
        if figure.unit != "%" and not figure.none and figure.value is not None and (
                year := fiscal_year(figure.column)) is not None:
            out.setdefault(year, figure)
    return out


def _asked_years(ask: Ask) -> set[int]:
    return set(ask.frame.period_years)


def computed(ask: Ask, evidence: Evidence) -> Draft | None:
    """A computed metric of the segment asked ("AWS's operating margin"): each input read from
    that segment's rows, each cited, the formula in one line; where the segment's rows lack an
    input, said so with what was found. None when the question names no segment the passages
    state."""
    metric = ask.frame.derived
    if metric is None:
        return None
    lines = segment_lines(evidence)
    segment = asked_segment(ask, lines, evidence.scope_words)
    if segment is None:
        return unread(ask, evidence, lines)
    missing: tuple[Derived, list[str], dict[str, SegmentLine]] | None = None
    for option in alternatives(metric):
        inputs = list(dict.fromkeys([*option.plus, *option.minus,
                                     *([option.over] if option.over else [])]))
        found = {item: rows[0] for item in inputs if (rows := of_segment(lines, segment, item))}
        lacking = [item for item in inputs if item not in found]
        if lacking:
            missing = missing or (option, lacking, found)
            continue
        draft = _working(option, segment, found, ask, evidence)
        if draft is not None:
            return draft
    if missing is None:
        return None
    option, lacking, found = missing
    words, language = vocabulary(), ask.language
    stated = "; ".join(f"{line.segment} {_in_text(line.line)} {cite([line.span.source])}"
                       for line in found.values())
    text = words.answer("segment_input_missing", language, segment=segment,
                        metric=words.computed_name(option.name, language),
                        missing=", ".join(words.line_name(i, language) for i in lacking),
                        found=stated or words.answer("nothing_read", language))
    return Draft(text=with_assumption(ask.assumption, text), short=True)


def _working(metric: Derived, segment: str, found: dict[str, SegmentLine], ask: Ask,
             evidence: Evidence) -> Draft | None:
    """The metric from the segment's rows for the year asked (else the latest all state)."""
    years = set.intersection(*(set(_years(line.span)) for line in found.values()))
    year = _year(_asked_years(ask), years)
    if year is None:
        return None
    figures = {item: _years(line.span)[year] for item, line in found.items()}
    value = sum(abs(figures[i].value or 0.0) for i in metric.plus[1:]) + (
        figures[metric.plus[0]].value or 0.0) - sum(abs(figures[i].value or 0.0)
                                                    for i in metric.minus)
    if metric.over is None:
        return None  # a segment's amount is stated, not computed: the lookup quotes it
    base = abs(figures[metric.over].value or 0.0)
    if not base:
        return None
    ratio = value / base * metric.times
    words, language = vocabulary(), ask.language
    rows = statement_rows(evidence)

    def part(item: str) -> str:
        line, figure = found[item], figures[item]
        shown = figure.shown() if item == metric.plus[0] else _size(figure).shown()
        return (f"{segment} {words.line_name(item, language)} {shown} "
                f"{cite(row_sources(line.span, (figure,), rows, evidence, limit=2))}")

    inner = " + ".join(part(i) for i in metric.plus)
    if metric.minus:
        inner += " − " + " − ".join(part(i) for i in metric.minus)
    if len(metric.plus) + len(metric.minus) > 1:
        inner = f"({inner})"
    shown = ratio_shown(metric, ratio, language)
    if metric.unit == "percent" and ratio < 0:
        shown += " " + words.answer("margin_of_a_loss", language)
    name = f"{segment} {words.computed_name(metric.name, language)}"
    lead_line, lead = found[metric.plus[0]], figures[metric.plus[0]]
    text = words.answer("computed_result", language, metric=name, result=shown,
                        period=when(lead_line.span, lead, evidence, language),
                        note=words.answer("computed_note", language),
                        working=f"{inner} ÷ {part(metric.over)}")
    names = " + ".join(words.line_name(i, language) for i in metric.plus)
    terms = " + ".join(_written(figures[i]) for i in metric.plus)
    if metric.minus:
        names += " − " + " − ".join(words.line_name(i, language) for i in metric.minus)
        terms += " − " + " − ".join(_written(figures[i]) for i in metric.minus)
    formula = words.answer(
        "computed_working", language, metric=name,
        names=f"({names}) ÷ {words.line_name(metric.over, language)}",
        terms=f"({terms}) ÷ {_written(figures[metric.over])}", result=f"{ratio:.3f}",
        unit=_unit(lead_line.span))
    return Draft(text=with_assumption(ask.assumption, f"{text}\n{formula}"))


def _in_text(line: str) -> str:
    """A line item's words within a sentence: "operating income (loss)", "adjusted EBITDA",
    "gross profit" of a data tag's "Gross Profit"."""
    return " ".join(w.lower() if w[1:].islower() else w for w in line.split())


def _size(figure: Figure) -> Figure:
    return replace(figure, value=abs(figure.value or 0.0))


def _written(figure: Figure) -> str:
    """A figure as its statement writes it ("29,619"); one a data tag writes in full
    ("1141000000.0") as a deal team reads it."""
    said = figure.written.replace("$", "").strip("() ")
    return _size(figure).shown() if "," not in said and len(said) > 7 else said


def _unit(span: Span) -> str:
    unit = unit_words(span.scale.line) if span.scale is not None else ""
    return f" ({unit})" if unit else ""


def change(ask: Ask, evidence: Evidence) -> Draft | None:
    """A segment's line item for a year against the year before ("How did North America
    operating income change from 2024 to 2025?"): both figures from the segment's own row,
    each cited, the change in amount and per cent, the working in one line. None when the
    question names no segment, or no line item, or the segment's row states no two years."""
    found = _asked_rows(ask, evidence)
    if found is None or ask.subject is None:
        return unread(ask, evidence) if ask.subject is not None else None
    lines, segment, rows = found
    subject, asked = _grown(ask.subject), _asked_years(ask)
    for line in rows:
        stated = _years(line.span)
        year = _year(asked, set(stated))
        if year is None:
            continue
        prior = min(asked) if len(asked) >= 2 and min(asked) < year else year - 1
        if prior in stated:
            return _change_text(ask, evidence, segment, line, stated[year], stated[prior])
    if rows:
        return None
    # the segment is read, but not its line asked: said so, never the company's figure
    words, language = vocabulary(), ask.language
    found = "; ".join(dict.fromkeys(f"{line.segment} {_in_text(line.line)} "
                                    f"{cite([line.span.source])}"
                                    for line in lines if _same(line.segment, segment)))
    asked_line = next((said for s, said in ask.frame.named_as if s == subject), subject)
    return Draft(text=with_assumption(ask.assumption, words.answer(
        "segment_line_missing", language, segment=segment, line=asked_line, found=found)),
        short=True)


def unread(ask: Ask, evidence: Evidence, lines: Sequence[SegmentLine] | None = None
           ) -> Draft | None:
    """The segment the question names in capitals ("Microsoft's More Personal Computing
    segment") where no row of it was read: said so, with what was read by segment, never
    answered with the company's figure. None where the question names no segment that way,
    or a segment read is the one it names."""
    named = ask.frame.segment_named
    if not named or (ask.subject is None and ask.frame.derived is None):
        return None
    lines = segment_lines(evidence) if lines is None else lines
    if asked_segment(ask, lines, evidence.scope_words) is not None or any(
            _same(line.segment, named) for line in lines):
        return None
    words, language = vocabulary(), ask.language
    found = "; ".join(dict.fromkeys(f"{line.segment} {_in_text(line.line)} "
                                    f"{cite([line.span.source])}" for line in lines[:6]))
    found = found or words.answer("nothing_read", language)
    if ask.frame.derived is not None:
        text = words.answer("segment_input_missing", language, segment=named,
                            metric=words.computed_name(ask.frame.derived.name, language),
                            missing=words.line_name(_derived_key(ask.subject or "") or "revenue",
                                                    language) if ask.subject else
                            ", ".join(words.line_name(i, language)
                                      for i in dict.fromkeys(ask.frame.derived.plus)),
                            found=found)
    else:
        subject = ask.subject or ""
        line = next((said for s, said in ask.frame.named_as if s == subject), subject)
        text = words.answer("segment_line_missing", language, segment=named, line=line,
                            found=found)
    return Draft(text=with_assumption(ask.assumption, text), short=True)


def one_of_several(ask: Ask, rests_on: Sequence[Finding]) -> bool:
    """The answer rests on one segment's findings where the question names several segments
    side by side ("North America and International segment sales"): the rows that state each
    answer it, not the first one's figure alone."""
    named = ask.frame.segment_named
    parts = {f.attributes.get("segment") for f in rests_on} - {None}
    return len(parts) == 1 and len(_name_terms(named)) > len(_name_terms(next(iter(parts)))) \
        and any(join in f" {named} " for join in (" and ", " & "))


def _asked_rows(ask: Ask, evidence: Evidence
                ) -> tuple[list[SegmentLine], str, list[SegmentLine]] | None:
    """The segments' lines read, the segment the question names, and that segment's lines of
    the line item asked; None where it names no line item or no segment read."""
    if ask.subject is None:
        return None
    subject = _grown(ask.subject)
    lines = segment_lines(evidence)
    segment = asked_segment(ask, lines, evidence.scope_words)
    if segment is None:
        return None
    item = _derived_key(subject)
    return lines, segment, [line for line in lines if _same(line.segment, segment)
                            and _states_asked(line, subject, item)]


def _grown(subject: str) -> str:
    """The line item a growth rate is the change of ("revenue growth": revenue), else the
    subject: a segment's growth is read from its rows of that line item."""
    base = subject.removesuffix(" growth")
    return base if base != subject and metric_spec(base) is not None else subject


def _states_asked(line: SegmentLine, subject: str, item: str | None) -> bool:
    """The segment's line is the line item asked, by its name or as a derived metric's input."""
    return canonical_subject(line.line) == subject or bool(item and states_line(line.line, item))


def _year(asked: set[int], years: set[int]) -> int | None:
    """The latest year asked that the rows state, else (none asked) the latest they state."""
    if asked & years:
        return max(asked & years)
    return None if asked else max(years, default=None)


def _derived_key(subject: str) -> str | None:
    """The statement line (`manda.finance.derived` key) a canonical subject is ("ebit" is
    operating income)."""
    return next((key for key, phrases in LINE_ITEMS.items()
                 if key == subject or any(canonical_subject(p) == subject for p in phrases)),
                None)


def _change_text(ask: Ask, evidence: Evidence, segment: str, line: SegmentLine,
                 new: Figure, old: Figure) -> Draft:
    words, language = vocabulary(), ask.language
    rows = statement_rows(evidence)
    places = cite(row_sources(line.span, (new, old), rows, evidence, limit=2))
    delta = (new.value or 0.0) - (old.value or 0.0)
    rate = delta / abs(old.value) * 100 if old.value else None
    name = f"{segment} {_in_text(line.line)}" if segment.lower() not in line.line.lower() \
        else line.line
    key = "segment_change_up" if delta >= 0 else "segment_change_down"
    text = words.answer(key, language, item=name,
                        change=f"{abs(rate):.1f}%" if rate is not None else "",
                        delta=replace(new, value=abs(delta)).shown(),
                        new=new.shown(), new_period=when(line.span, new, evidence, language),
                        old=old.shown(), old_period=when(line.span, old, evidence, language),
                        cite=places)
    if rate is None:
        return Draft(text=with_assumption(ask.assumption, text))
    formula = words.answer(
        "computed_working", language, metric=words.answer("segment_change_name", language,
                                                          item=name),
        names=words.answer("change_formula", language),
        terms=f"({_written(new)} − {_written(old)}) ÷ {_written(old)}",
        result=f"{rate / 100:.3f}", unit=_unit(line.span))
    return Draft(text=with_assumption(ask.assumption, f"{text}\n{formula}"))


def share(ask: Ask, evidence: Evidence) -> Draft | None:
    """"What share of net sales came from AWS?" (a segment: the question says so, or a segment
    note's block or label names it): the segment's row of the line item over the
    whole's row of the same table (its "Consolidated" or total row, else the consolidated
    block's row), for the year asked, each cited and the working in one line. None when the
    question names no segment, or no table read states both."""
    found = _asked_rows(ask, evidence)
    if found is None or ask.subject is None:
        return None
    lines, segment, parts = found
    subject, item = ask.subject, _derived_key(ask.subject)
    if not ask.frame.segments and not any(
            _same(line.segment, segment) and (line.span.segment or _said_in_label(
                line.span.row.label if line.span.row is not None else "")) for line in lines):
        return None  # a category's row ("Services" under "Net sales"): the table's share
    rows = statement_rows(evidence)
    asked = _asked_years(ask)
    for part in parts:
        whole = _whole(part, rows, subject, item)
        if whole is None:
            continue
        own, total = _years(part.span), _years(whole)
        years = set(own) & set(total)
        year = _year(asked, years)
        if year is None or not total[year].value:
            continue
        return _share_text(ask, evidence, segment, part, whole, own[year], total[year], rows)
    return None


def _whole(part: SegmentLine, rows: Sequence[Span], subject: str, item: str | None
           ) -> Span | None:
    """The row the segment's row is a part of: in its own table, the total or consolidated row
    of its line item; else a row of its document naming the line item and no segment."""
    def of_item(label: str) -> bool:
        return canonical_subject(label) == subject or bool(item and states_line(label, item))

    columns = set(part.span.row.cells) if part.span.row is not None else set()
    same = [s for s in rows if s.row is not None and s.source.chunk_id == part.span.source.chunk_id
            and set(s.row.cells) == columns and not s.segment and s is not part.span]
    label = part.span.row.label if part.span.row is not None else ""
    totals: list[Span] = []
    for span in same:
        assert span.row is not None
        if part.span.segment:
            if of_item(span.row.label):
                return span  # the consolidated block's row of the line item
        elif a_total(span.row.label) and span.group == part.span.group and not \
                _SEGMENT_WORDS.found(span.row.label) and (
                of_item(span.row.label) or not canonical_subject(span.row.label)):
            totals.append(span)  # "Consolidated" or "Total revenues" under the segments' rows
    if totals:  # "Total automotive revenues" above "Total revenues": the whole is the largest
        return max(totals, key=_largest)
    others = [s for s in rows if s.row is not None and not s.segment
              and s.source.document_id == part.span.source.document_id
              and of_item(s.row.label) and s.row.label != label
              and _said_in_label(s.row.label) is None]
    return max(others, key=_largest, default=None)


def _largest(span: Span) -> float:
    return max((abs(f.value or 0.0) for f in _years(span).values()), default=0.0)


def _share_text(ask: Ask, evidence: Evidence, segment: str, part: SegmentLine, whole: Span,
                shown: Figure, total: Figure, rows: Sequence[Span]) -> Draft:
    words, language = vocabulary(), ask.language
    ratio = abs(shown.value or 0.0) / abs(total.value or 1.0)
    assert whole.row is not None
    item = _derived_key(ask.subject or "")
    line = next((said.lower() for subject, said in ask.frame.named_as if subject == ask.subject),
                words.line_name(item, language) if item else _in_text(part.line))
    of = whole.row.label.strip().rstrip(":")
    of = of if canonical_subject(of) else f"{of} {line}"
    metric = words.answer("share_of_total", language, part=segment, total=line)
    working = (f"{segment} {line} {_size(shown).shown()} "
               f"{cite(row_sources(part.span, (shown,), rows, evidence, limit=2))} ÷ "
               f"{of.lower()} {_size(total).shown()} "
               f"{cite(row_sources(whole, (total,), rows, evidence, limit=2))}")
    text = words.answer("computed_result", language, metric=metric[:1].upper() + metric[1:],
                        result=f"{ratio * 100:.1f}%",
                        period=when(part.span, shown, evidence, language),
                        note=words.answer("computed_note", language), working=working)
    formula = words.answer("computed_working", language, metric=metric,
                           names=f"{segment} {line} ÷ {of.lower()}",
                           terms=f"{_written(shown)} ÷ {_written(total)}",
                           result=f"{ratio:.3f}", unit=_unit(part.span))
    return Draft(text=with_assumption(ask.assumption, f"{text}\n{formula}"))


def rank(ask: Ask, evidence: Evidence) -> Draft | None:
    """"Which segment grew its operating income fastest?" where no one table ranks them (each
    segment's row read from another passage): each segment's row of the line asked (sales
    where none is named), ranked by growth between the year asked (else the latest) and the
    year before, or by size, each with both figures; the segments whose figures were not read
    are named. Where fewer than two segments' rows of the line are read, the answer says so
    with what was read by segment. None when no segment's row is read at all."""
    lines = segment_lines(evidence)
    if not lines:
        return None
    subject = ask.subject or "revenue"
    item = _derived_key(subject)
    words, language = vocabulary(), ask.language
    names = list(dict.fromkeys(_key(line.segment) for line in lines))
    by_name = {_key(line.segment): line.segment for line in reversed(lines)}
    asked, growth = _asked_years(ask), ask.frame.rank_by == "growth"
    ranked: list[tuple[float, SegmentLine, Figure, Figure | None]] = []
    left_out: list[str] = []
    for name in names:
        rows = [line for line in lines
                if _key(line.segment) == name and _states_asked(line, subject, item)]
        if not rows:
            if any(line.span.segment for line in lines if _key(line.segment) == name):
                left_out.append(by_name[name])  # a segment's block without the line asked
            continue
        entry = None
        for line in rows:
            stated = _years(line.span)
            year = _year(asked, set(stated))
            if year is None:
                continue
            new, old = stated[year], stated.get(year - 1)
            if not growth:
                entry = (new.value or 0.0, line, new, old)
            elif old is not None and old.value and old.value > 0 and (new.value or 0.0) >= 0:
                entry = ((new.value or 0.0) / old.value * 100 - 100, line, new, old)
            if entry is not None:
                break
        if entry is None:
            left_out.append(by_name[name])
        else:
            ranked.append(entry)
    line_words = next((said for s, said in ask.frame.named_as if s == subject),
                      words.line_name(item or "revenue", language))
    if len(ranked) < 2:
        if not ask.frame.segments:
            return None
        found = "; ".join(dict.fromkeys(
            f"{line.segment} {_in_text(line.line)} {cite([line.span.source])}"
            for line in lines[:6]))
        return Draft(text=with_assumption(ask.assumption, words.answer(
            "segments_unranked", language, line=line_words, found=found)), short=True)
    ranked.sort(key=lambda t: t[0], reverse=ask.frame.top_first)
    items = []
    for measure, line, new, old in ranked:
        if growth and old is not None:
            items.append(words.answer("ranking_growth_item", language, item=line.segment,
                                      change=f"{measure:+.1f}%", figure=new.shown(),
                                      prior=old.shown()))
        else:
            items.append(words.answer("ranking_size_item", language, item=line.segment,
                                      figure=new.shown()))
    _, first, new, old = ranked[0]
    rows = statement_rows(evidence)
    sources = cite(row_sources(first.span, (new, old), rows, evidence, limit=2)
                   + [line.span.source for _, line, _, _ in ranked])
    how, place = ("growth" if growth else "size"), ("first" if ask.frame.top_first else "last")
    lead = words.answer(f"ranks_{place}_by_{how}", language, item=items[0],
                        period=when(first.span, new, evidence, language), cite=sources)
    order = "ranked_highest_first" if ask.frame.top_first else "ranked_lowest_first"
    text = f"{lead}\n" + words.answer(order, language, ranked="; ".join(
        f"{n}. {item}" for n, item in enumerate(items, start=1)))
    if left_out:
        text += "\n" + words.answer("segments_left_out", language, line=line_words,
                                    segments=", ".join(left_out))
    return Draft(text=with_assumption(ask.assumption, text))


def _key(name: str) -> str:
    return " ".join(_name_terms(name))
