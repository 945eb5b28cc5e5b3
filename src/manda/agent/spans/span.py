"""A span of a retrieved passage (a sentence or a table row) and the weights it is scored by."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from manda.agent.evidence import Source
from manda.agent.tables import Row
from manda.finance.equivalents import named_groups
from manda.finance.figures import (
    Figure,
    StatementScale,
    column_year,
    read_figure,
    statement_scale,
)
from manda.finance.periods import parse_period
from manda.finance.statements import StatementKind
from manda.finance.vocabulary import find_line_items
from manda.vocabulary import vocabulary

_PERCENT = re.compile(r"\d\s?%|\bpercent\b|\d\)%", re.IGNORECASE)


_WORD = re.compile(r"[a-z][a-z&\-']+", re.IGNORECASE)


KIND_FIT, KIND_MISS, MEANING, EXTRA_WORD, ROW_FIGURE = 0.15, 0.12, 1.0, 0.03, 0.1


# a footnote's sentence where a figure is asked: it qualifies a row's figure, it is no row asked
FOOTNOTE_MISS = 0.3


# a balance at the other end of its period than asked ("Cash, beginning of period" for the cash
# at year end); a total row where a part is asked ("Total net sales" for iPhone net sales), and
# the total where the whole is
SIDE_MISS, TOTAL_MISS, TOTAL_FIT = 0.3, 0.3, 0.05


# a part's row ("AWS" under "Net sales") where the whole is asked and a row states the whole
PART_MISS = 0.3


# what was used of a programme asked: a figure of another part of it (its size, what remains)
# or of no programme at all (the company's whole buybacks in the year) is as far off as another
# part of a line item, and of another kind than asked
PROGRAMME_MISS = PART_MISS + KIND_FIT


# a row of a portion of the line item ("Current portion of borrowings", "Borrowings, net of
# current portion") where the whole outstanding is asked: as far off as a segment's row
PORTION_MISS = PART_MISS


LISTED_QUOTE = 720  # how long a sentence that lists things may be quoted for a list
# how long a line ending in ":" that heads a block of rows may be; a longer one is a caption
# ("The following table shows the computation of basic and diluted earnings per share:"), unless
# it heads percentages ("Year-over-year Percentage Growth, excluding the effect of foreign
# exchange rates:" heads the rows growing at constant rates), up to the longer bound
HEADING_LONGEST, PERCENT_HEADING_LONGEST = 80, 120


_AUXILIARY = vocabulary().cues("question_auxiliary")


_CHANGE_COLUMN = vocabulary().cues("change_column")  # "Change", "2025/2024"


_MONTH_NAMES = vocabulary().month_names()


# the primary statements: a row of one is a flow over a period (P&L, cash flow) or a balance at
# a date (balance sheet), in the statement's currency and scale
_PRIMARY = frozenset({StatementKind.INCOME, StatementKind.CASH_FLOW, StatementKind.BALANCE})


# "EPS", "net loss per share": a figure for one share, not the line's amount nor a share count
_PER_SHARE_ASKED = vocabulary().cues("per_share_row") | vocabulary().cues("per_share_line")


PERCENT_HEADING = vocabulary().cues("percent_heading")  # "Year-over-year Percentage Growth:"
_RECORDED = vocabulary().cues("recorded_amount")  # "charges", "impairments", "dépréciations"


_COUNT_ROW = vocabulary().cues("count_row")  # "Number of stores", "Ending store count"


@dataclass(frozen=True)
class Span:
    """One sentence or table row of a retrieved passage, scored for the question."""

    text: str  # the sentence, or the row with its headers, as quoted
    source: Source
    row: Row | None = None
    group: str = ""  # the heading a row stands under: "Net sales:", "Earnings per share:"
    scale: StatementScale | None = None
    currency: str | None = None  # a row's table's currency ("$" in any of its cells)
    flow: bool = True  # a row of figures over a period (else balances at a date)
    words: float = 0.0  # the idf-weighted share of the question's words it covers
    score: float = 0.0  # words plus the fits: how well it answers
    year_end: date | None = None  # the document's fiscal year end, as its columns date it
    extra: dict[str, float] = field(default_factory=dict, compare=False)
    caption: str = field(default="", compare=False)  # a row's table's caption lines
    # the question's words naming a part of the line item asked that the row's label says
    # ("north", "america" of "North America and International segment sales")
    parts: frozenset[str] = field(default=frozenset(), compare=False)
    # a sentence read with the one before it, which names the change it explains ("Gross
    # margin decreased … The decrease was primarily due to …"): a cause's span only
    joined: bool = False
    # a sentence read with the one before it, whose subject it goes on about ("Inventories are
    # stated at … Cost is computed using …"): a method's span only
    continued: bool = False
    # the statements a row's page is ("balance sheet"): a row of it says the statement's name
    statements: tuple[str, ...] = field(default=(), compare=False)
    # the label of the last row of a row's table, where it is another row: what the table adds
    # up to ("Adjusted EBITDA" under the items a reconciliation adds back)
    result: str = field(default="", compare=False)
    # a row of a line item asked that its table places in another line item asked ("Share-based
    # payments" added back to reach underlying EBITDA): the part the question asks for
    placed: bool = field(default=False, compare=False)
    # a sentence that lists things, up to LISTED_QUOTE characters: quoted where a list is asked
    # (its last item is as much the answer as its first)
    whole: str = field(default="", compare=False)
    # the segment a row's block stands under ("North America" over "Net sales"): its name says it
    segment: str = field(default="", compare=False)
    # a lead-in read with all its marked items ("… due to: …; …; and …"): it answers a question
    # that asks for reasons, means or things listed, not one that asks for a figure or a name
    listed: bool = field(default=False, compare=False)
    # a row that names a line item asked only in the complement of a head of its own the
    # question does not ask ("Payroll tax expense related to stock-based compensation"): a figure
    # of another thing, no sibling of the item's own row
    aside: bool = field(default=False, compare=False)
    # the years the sentence before it states, where it states none: a paragraph dated once
    # ("As of December 31, 2023, we concluded … As such, we released $6.54 billion …")
    dated_by: frozenset[int] = field(default=frozenset(), compare=False)
    # the title of the table a line of figures stands under, where it names the one period its
    # lines are of ("during the three months ended September 27, 2025, was as follows:")
    titled: str = field(default="", compare=False)
    # a sentence of a footnote under a table ("(b) Calculated using …"): context to the rows,
    # never a row's figure
    footnote: bool = field(default=False, compare=False)
    # the sentence a part pointing back was said with ("… net income was $15.00 billion …" of
    # "This included a tax benefit of $5.93 billion …"): whose figures it is read among
    pointed: str = field(default="", compare=False)
    # a row of a table whose rows are periods ("Three Months Ending December 31, 2023"): its
    # rows that name no period ("Thereafter", "Total") are of no one period of it
    by_period: bool = field(default=False, compare=False)

    @property
    def is_row(self) -> bool:
        return self.row is not None

    def name(self) -> str:
        """The row's line item with its heading: "Services" under "Net sales:" is
        "Net sales — Services"."""
        if self.row is None:
            return ""
        label = self.row.label.strip().rstrip(":")
        if self.segment and self.segment.lower() not in label.lower():
            return f"{self.segment} — {label}"  # "North America — Operating income"
        group = self.group.strip().rstrip(":")
        if len(group.split()) > 4 and (named := find_line_items(group)):
            # a lead-in ("Operating income by segment is as follows (in millions):") is named
            # by the line item it introduces
            group = group[named[0][1]:named[0][2]]
            group = group[:1].upper() + group[1:]
        if group and (len(label.split()) <= 3 or label_periods(self.row)) and \
                group.lower() not in label.lower() and not (
                find_line_items(label) or named_groups(label)):  # "Long-term debt" is its own
            return f"{group} — {label}"
        return label

    def figures(self) -> list[Figure]:
        """The row's figures, each at its statement's scale, in column order."""
        if self.row is None:
            return []
        scale = self.scale or StatementScale("", 1.0, None, False, None)
        if percent_block(self.group):
            # a block headed as percentages ("Year-over-year Percentage Growth:"): its rows'
            # bare figures are per cents, its "%" printed on the first row only
            scale = replace(scale, shares_of_whole=True)
        out = []
        label = f"{self.group} {self.row.label}"
        for column, cell in self.row.cells.items():
            figure = read_figure(cell, column, label, scale, table_currency=self.currency)
            if figure is not None:
                out.append(figure)
        return out


@dataclass
class _Pool:
    spans: list[Span]
    names: list[set[str]]  # stems of a row's label and heading (a sentence: its own)
    stems: list[set[str]]  # stems of all its text
    under: list[set[str]] = field(default_factory=list)  # a sentence's heading's stems


def percent_block(group: str) -> bool:
    """A block's heading says its rows are percentages ("Year-over-year Percentage Growth:"),
    not a caption of amounts that mentions them ("Operating expenses and their percentage of
    net sales were as follows (dollars in millions):")."""
    return PERCENT_HEADING.found(group) and statement_scale([group]).factor == 1.0 and not (
        statement_scale([group]).currency)


def heads_rows(line: str) -> bool:
    """The line, ending in ":", heads the block of rows under it ("Earnings per share:")."""
    line = line.strip()
    return line.endswith(":") and (len(line) < HEADING_LONGEST or (
        len(line) < PERCENT_HEADING_LONGEST and percent_block(line)))


def label_periods(row: Row) -> set[str]:
    """The periods a row's label names with its columns' years, where the label is a period
    without its year ("Three Months Ended June 30" in a table of a metric by quarter, its
    columns 2024 and 2023): Q2 2024, Q2 2023. Empty for a line item's label."""
    if parse_period(row.label) is not None or not any(c.isdigit() for c in row.label):
        return set()
    return {p for h in row.cells if (y := column_year(h)) is not None
            and (p := parse_period(f"{row.label}, {y}")) is not None}


def _with(span: Span, **changes: float) -> Span:

    return replace(span, **changes)  # type: ignore[arg-type]
