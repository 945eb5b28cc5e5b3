"""The sentences of a passage as spans: split at their ends, read with a list's lead-in, and
known for what they state (a heading, a table's caption, nothing but a figure)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise, takewhile

from manda.agent.relevance import content_terms, stems_of, term_in
from manda.agent.spans.span import _CHANGE_COLUMN, _MONTH_NAMES, _PERCENT, LISTED_QUOTE, Span
from manda.agent.unusual import body, sentences
from manda.finance.amounts import Amount, find_amounts
from manda.finance.figures import (
    column_header_line,
    ends_in_figure,
    joined_signs,
    lone_cell,
    statement_scale,
)
from manda.finance.periods import find_dates, find_periods
from manda.finance.vocabulary import find_line_items
from manda.text import bullet_item, letter_words, without_asides
from manda.vocabulary import vocabulary

_TITLE_WORD = r"(?:[A-Z][\w&'’\-]*|of|and|the|for|in|on|to|a|—|-|–)"


_TITLE = re.compile(rf"^{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,8}}\s*:?$")


_ITEM_OPENING = 40  # the opening a bulleted item is known by among a passage's sentences


_MOST_ITEMS = 8  # how many bulleted items after a lead-in ("… due to:") are read with it


_MOST_LINES = 5  # how many short lines after a lead-in, unbulleted, are


_NESTED_LEAD_IN = 40  # how long the lead-in of a list inside a list is ("Fourth Quarter 2025:")


_EXHIBIT = vocabulary().cues("exhibit_entry")


_ENUMERATION = vocabulary().cues("enumeration")


_JOINERS = vocabulary().words("list_joiners")  # "A, B and C"


_HEADER_WORDS = vocabulary().cues("column_header_words")  # "Actual", "Variance", "Ist"


def _word_cut_off(lines: Sequence[str], n: int) -> bool:
    """Line `n` is a word or two the text layer left alone, its sentence going on in lowercase
    on the next line ("Freight" / "revenue increased …"): no heading, no page's opening."""
    return len(lines[n].split()) <= 2 and n + 1 < len(lines) and \
        lines[n + 1].strip()[:1].islower()


def _sentences(text: str) -> list[tuple[str, str, str, bool]]:
    """The passage's sentences, each with the heading it stands under and the sentence before
    it under that heading: each heading line apart (a page header, "Capital Allocation" above
    its paragraph is no part of the paragraph's first sentence), and each lead-in that ends in
    a colon also with the short lines it introduces ("our credit ratings were as follows:" with
    "Long-term debt A2 A A"); a lead-in's bulleted items, all of them, flagged as such."""
    blocks: list[tuple[str, list[str]]] = [("", [])]
    bullets: set[str] = set()  # the opening words of each bulleted item
    lines = body(text).splitlines()
    for n, line in enumerate(lines):
        if (item := bullet_item(line)) is not None:
            bullets.add(item[:_ITEM_OPENING])
        # a word left alone on its line, its sentence going on in lowercase below ("Freight" /
        # "revenue increased …"), is no heading: the text layer broke the line
        if heading_shaped(line) and not _word_cut_off(lines, n):
            blocks += [("", [line.strip()]), (line.strip(), [])]
        else:
            blocks[-1][1].append(line)
    triples: list[tuple[str, str, str, bool]] = []
    for heading, block in blocks:
        said = sentences("\n".join(block)) if block else []
        triples += [(s, heading, said[i - 1] if i else "", False) for i, s in enumerate(said)]
    out = [s for s, _, _, _ in triples]
    outer, outer_at = "", 0  # a lead-in whose items are lists of their own
    for i, (sentence, heading, before, _) in enumerate(list(triples)):
        if i - outer_at > _MOST_ITEMS * 3:
            outer = ""  # too far below it to be one of its lists (an item may look a heading)
        if not sentence.rstrip().endswith(":"):
            continue
        if i + 1 < len(out) and out[i + 1].rstrip().endswith(":") and \
                len(out[i + 1]) <= _NESTED_LEAD_IN:
            # "Significant announcements included the following:" over "First Quarter:"
            outer, outer_at = sentence, i
            continue
        # an inner list ("Fourth Quarter 2025: iPhone 17; …") is read under its outer lead-in
        listed = [outer, sentence] if outer and len(sentence) <= _NESTED_LEAD_IN else [sentence]
        bulleted = False  # the lead-in's items are marked: the list runs to its last item
        for k, nxt in enumerate(out[i + 1:i + 1 + _MOST_ITEMS]):
            item = nxt[:_ITEM_OPENING] in bullets or _ends_item(nxt)
            # the item after "…; and" closes the list, however long
            last = not item and len(listed) > 1 and _ends_item(listed[-1]) and \
                not listed[-1].rstrip().endswith(":")
            if k >= _MOST_LINES and not bulleted:
                break
            if bulleted and not (item or last):
                break  # the marked list has ended
            after = out[i + k + 2] if i + k + 2 < len(out) else ""
            if not item and (nxt.rstrip().endswith(":") or (
                    k and heading_shaped(nxt) and len(after) > 80)):
                break  # the next list's lead-in, or a heading over a paragraph below the items
            # an inner list's first item, however long, is its own ("Fourth Quarter 2023:
            # iPhone 15 …; and Apple Watch Series 9 …")
            first = k == 0 and listed[0] == outer != ""
            if not (item or last or first) and len(nxt) > 80 and nxt.rstrip().endswith("."):
                break  # a sentence of its own, not an item of the list
            if not (item or last) and any(a.currency or abs(a.value or 0) >= 100
                                          for a in find_amounts(nxt)):
                break  # a table of figures: read as its rows
            listed.append(nxt)
            bulleted = bulleted or item
            if last or sum(map(len, listed)) > (LISTED_QUOTE if bulleted else 300):
                break
        if len(listed) > 1 + (listed[0] == outer != ""):
            # a lead-in and its bulleted reasons ("The decrease reflected the net impact of:")
            # are read with the sentence before them, as the lead-in alone is
            triples.append((" ".join(listed), heading, before if bulleted else "", bulleted))
    return triples


def _ends_item(text: str) -> bool:
    """A list's item, as a list's items end: with a semicolon ("changes in category sales
    mix;"), or one and the joiner before the last item ("…; and")."""
    words = text.rstrip().split()
    if not words:
        return False
    if words[-1].lower() in _JOINERS and len(words) > 1:
        return words[-2].endswith(";")
    return words[-1].endswith(";")


def heading_shaped(line: str) -> bool:
    """A line shaped as a heading or a page header: a few words, nearly all capitalised, with
    no sentence's ending ("MANAGEMENT'S DISCUSSION AND ANALYSIS", "Liquidity and Capital
    Resources", "Table of Contents")."""
    words = line.split()
    if not 1 <= len(words) <= 12 or line.rstrip()[-1:] in ".!?;:,)":
        return False
    long = [w for w in words if len(w) > 3 and any(c.isalpha() for c in w)]
    capital = [w for w in long if w[0].isupper()]
    return bool(long) and len(capital) >= 0.8 * len(long)


def captions_table(text: str) -> bool:
    """A table's caption, not a statement: a lead-in that ends in a colon, or whose colon is
    followed by nothing but the table's column headers ("… by category (dollars in millions):
    2025 Change 2024 Change 2023"), or a line that gives a table's scale and states no figure
    ("Revenue by product line (in thousands of euros)")."""
    head, colon, tail = text.strip().rpartition(":")
    if colon and head.strip():
        cells = tail.replace("|", " ").split()
        if all(_header_cell(c) for c in cells):
            return True
        if statement_scale([head]).line and not find_amounts(head) and all(
                _header_cell(c) for c in cells if any(ch.isdigit() for ch in c)):
            # "… is as follows (in millions): Year Ended December 31, 2025 As Reported
            # Exchange Rate Effect (1)": a lead-in that gives the scale, then column heads in
            # words, whose only numbers are dates and note marks
            return True
    return bool(statement_scale([text]).line) and not find_amounts(text)


def _header_cell(word: str) -> bool:
    """One word of a column header row: a year or date, a change column, a unit or a sign."""
    word = word.strip(",;()")
    return not word or word in "%$€£" or column_header_line(word) or _CHANGE_COLUMN.found(
        word) or _HEADER_WORDS.fullmatch(word) or word.lower() in _MONTH_NAMES or (
        word.isdigit() and len(word) <= 2)


def names_a_table(span: Span) -> bool:
    """A sentence that names what follows it (a heading, a table's caption or lead-in): it
    answers nothing and never leads an answer."""
    return span.row is None and (bool(_TITLE.match(span.text)) or captions_table(span.text))


def _states_nothing(text: str, *, listing: bool = False) -> bool:
    """A run of headings (a table of contents, a page header), a table's column heads run into
    a line or an exhibit index's entry: read by its shape, it names other places or columns and
    states no fact. `listing`: a sentence that lists things, whose names may all be capitalised
    ("The Gadget line includes Gadget 9 Max, Gadget Lite, …"), is no run of headings."""
    if _EXHIBIT.search(text):
        return True
    dated = find_periods(text)  # "December 31, 2021 December 31, 2020": a table's column heads
    if any(not text[a[2]:b[1]].strip() for a, b in pairwise(dated)):
        return True
    words = [w for w in text.split() if len(w) > 3 and any(c.isalpha() for c in w)]
    return not listing and len(words) >= 8 and \
        sum(1 for w in words if w[0].isupper()) >= 0.75 * len(words)


def lists_things(text: str) -> bool:
    """After a word that lists ("includes", "such as"), three things or more ("A, B, C" or
    "A, B and C", named in words: "2025, 2024 and 2023" lists years), or whatever follows its
    colon ("as follows: …", a table or lines)."""
    cue = _ENUMERATION.search(text)
    if cue is None:
        return False
    listed = text[cue.end():]
    if listed.lstrip().startswith(":") and listed.strip(" :"):
        return True
    bare = without_asides(listed)  # "(dollars in millions)" names none
    if _PERCENT.search(bare):
        return False  # a table's caption and figures run into the line: "… and 2023 2022 13%"
    parts = bare.split(",")
    named = [p for p in parts if any(w.lower() not in _JOINERS for w in letter_words(p))]
    if len(named) < 2:
        return False
    return len(parts) >= 3 or any(w.lower() in _JOINERS for w in letter_words(parts[-1]))


_POINTING_BACK = vocabulary().words("pointing_back")  # "this", "those", "ces"
_LEGAL_FORMS = frozenset(f.strip(".") for f in vocabulary().phrases("legal_forms"))  # "Inc."
_NAME_MARKS = ".,;:()\"“”’'"


def names_company(text: str, *, but: str | None = None) -> bool:
    """It names a company by its legal form after its name ("Activision Blizzard, Inc.",
    "Halden Logistik GmbH"), as written; `but` the company asked of ("Apple" of "Apple Inc.",
    which every page of its own filing names) is not another company named."""
    words = [w.strip(_NAME_MARKS) for w in text.split()]
    own = {w.lower() for w in letter_words(but)} if but else set()
    for at, word in enumerate(words):
        if at == 0 or word not in _LEGAL_FORMS:
            continue
        name = list(takewhile(lambda w: w[:1].isupper() and w not in _LEGAL_FORMS,
                              reversed(words[:at])))  # "Harrowgate Holdings" of "… Inc."
        if name and not any(w.lower() in own for w in name):
            return True
    return False


def points_back(sentence: str, before: str) -> bool:
    """The sentence names a thing by a word pointing back at the sentence before, which says
    that thing ("… those commitments not yet recognized were approximately $244 billion"
    after "we have performance obligations … associated with commitments …"): it speaks of
    what that sentence names."""
    if not before:
        return False
    said = stems_of(before)
    words = letter_words(sentence)
    return any(w.lower() in _POINTING_BACK and content_terms(after) and all(
        term_in(t, said) for t in content_terms(after)) for w, after in pairwise(words))


_METHOD_STATED = vocabulary().cues("method_stated")  # "computed using", "first-in, first-out"


def continues_method(sentence: str, before: str) -> bool:
    """The sentence states a method and opens on a content word the sentence before says
    ("Cost is computed using standard cost … first-in, first-out" after "Inventories are
    stated at the lower of cost …"): it goes on about what that sentence names, which it need
    not name again."""
    words = letter_words(sentence)
    if not before or not words or not words[0][:1].isupper() or \
            not _METHOD_STATED.found(sentence):
        return False
    # its subject: its first word, or the noun after its article ("The Company records …")
    opening = content_terms(words[0]) or content_terms(" ".join(words[1:2]))
    return bool(opening) and all(term_in(t, stems_of(before)) for t in opening)


def group_over(before: str, line: str) -> bool:
    """The line is a table's row (its figures at its end, "Fixed-rate notes 2028 – 2035 4,500
    4.07%") right under a group heading of the table ("2025 debt issuance:", "Long-term
    debt:"): the heading says what the row is of."""
    head, row = before.strip(), line.strip()
    # not a lead-in's unit ("… as follows (in millions):"), nor a line of column headings or a
    # sentence's run-on under it
    return head.endswith(":") and len(head) <= _GROUP_HEADING and not ends_in_figure(head) \
        and not statement_scale([head]).line and row[:1].isupper() and ends_in_figure(row) \
        and not column_header_line(row)


_GROUP_HEADING = 60  # the longest line read as a table's group heading


_LIST_REACH = 10  # how many words a list of things may run before the word they share


def names_among_others(text: str, pairs: Sequence[tuple[str, str]],
                       asked: Sequence[str]) -> bool:
    """The sentence names a thing asked only as one of several it lists before the word they
    share ("the driver, rider and renters incentive programs" where driver incentives are
    asked, `pairs` the question's side-by-side terms): a figure it states is theirs together.
    Not where it says the pair side by side too, nor where the question asks all of them."""
    tokens = text.split()
    stems = [stems_of(token) for token in tokens]
    for first, head in pairs:
        if any(term_in(first, a) and term_in(head, b) for a, b in pairwise(stems)):
            continue  # "driver incentives" said as asked
        for i, token in enumerate(tokens[:-1]):
            if not term_in(first, stems[i]) or not (
                    token.endswith(",") or tokens[i + 1].lower() in _JOINERS):
                continue
            for k in range(i + 1, min(i + 1 + _LIST_REACH, len(tokens))):
                if any(c.isdigit() for c in tokens[k]) or tokens[k - 1][-1:] in ".;:":
                    break  # a figure or a clause's end: no list of things before their head
                if term_in(head, stems[k]):
                    between = [s for s in stems[i + 1:k] if s and not any(
                        term_in(t, s) for t in asked)]
                    if between and not _one_item(tokens[i:k]):
                        return True
                    break
    return _an_item_among_others(text, asked)


_ITEM_WORDS = 6  # how many words an item of a list of things runs to


def _one_item(words: Sequence[str]) -> bool:
    """The words joined are one line item's name ("cash and cash equivalents", "research and
    development"), not several things before the word they share."""
    phrase = " ".join(words)
    return any(start == 0 and end > len(words[0]) for _, start, end in find_line_items(phrase))


def _an_item_among_others(text: str, asked: Sequence[str]) -> bool:
    """A thing asked is one item of a list of three or more, ended by a joiner, that the
    sentence states one amount for ("$2.4 billion of expense related to settlements of a
    lawsuit, severance costs, and asset impairments"): the amount is the items' together."""
    parts = text.split(",")
    for end, part in enumerate(parts):
        words = part.split()
        if end < 2 or not words or words[0].lower() not in _JOINERS:
            continue
        start = end
        while start > 1 and _an_item(parts[start - 1]):
            start -= 1
        if start == end or not _an_item(part):
            continue
        items = [" ".join(parts[start - 1].split()[-_ITEM_WORDS:]), *parts[start:end + 1]]
        money = [a for a in find_amounts(text) if a.currency]
        said = [any(term_in(t, stems_of(item)) for t in asked) for item in items]
        if any(said) and not all(said) and len(money) < len(items):
            return True
    return False


def _an_item(part: str) -> bool:
    """A short run of words with no figure: an item of a list of things."""
    return 0 < len(part.split()) <= _ITEM_WORDS and not any(c.isdigit() for c in part)


_OF = vocabulary().words("owner_before_name")  # "of": "$6.5 billion of our allowance"
_RELATIVE = vocabulary().words("relative_words")  # "which", "that": a relative clause opens
_OPENERS = vocabulary().words("sentence_openers")  # "for", "as": "For the year ended …,"


_CLAUSE_ENDS = ",;:()"  # where the words an amount is said of stop


_OWNER_WORDS = 12  # how far after an amount the clause it is said in runs


def amount_owner(text: str, start: int, end: int) -> str:
    """The words the amount at `start:end` is said of: its clause's words before it, from the
    last comma, semicolon, sentence or amount before it; where a noun's "of" stands right
    before it ("a one-time tax benefit of $1.9 billion for the release of …"), those alone:
    what a "for" adds after it is what the thing is for, not what it is. Else (a verb's object:
    "we released $2.3 billion of our valuation allowance", "we deployed $0.4 billion and $1.0
    billion to repurchase shares") the rest of its clause too, other amounts aside."""
    before = text[:start]
    opened = _opened(before)  # where the sentence starts
    since = max([opened, *(a.end - 1 for a in find_amounts(before))])
    cut = max(since, *(before.rfind(c) for c in _CLAUSE_ENDS))
    # its clause, and, for the sentence's first amount, the asides before it ("accrued interest
    # and penalties, net of federal income tax benefit, related to tax contingencies of $316
    # million"), not the sentence's opening phrase ("For the twelve months ended …,"); after
    # another amount, what comes first is that amount's ("… of $1.2 billion related to EBIT")
    asides = before[since + 1:cut + 1] if since == opened else ""
    if (first := asides.split(None, 1)) and first[0].lower() in _OPENERS:
        asides = asides[min((at for at in (asides.find(c) for c in _CLAUSE_ENDS) if at >= 0),
                            default=len(asides)) + 1:]
    owner = f"{asides} {_relative_trimmed(before[cut + 1:])}"
    said = owner.split()
    if said and said[-1].lower() in _OF:
        return owner
    rest = text[end:]
    stop = min((at for at in (rest.find(". "), *(rest.find(c) for c in _CLAUSE_ENDS))
                if at >= 0), default=len(rest))
    rest = rest[:stop]
    for amount in reversed(find_amounts(rest)):
        rest = rest[:amount.start] + rest[amount.end:]
    return f"{owner} {' '.join(rest.split()[:_OWNER_WORDS])}"


def owners_line_items(text: str, amount: Amount) -> set[str]:
    """The line items the words `amount` is said of name ("gross margin" of "gross margin
    percentage decreased 1 point"): none where they name no line item the vocabulary knows."""
    owner = amount_owner(text, amount.start, amount.end)
    return {found for found, _, _ in find_line_items(owner)}


def _opened(before: str) -> int:
    """Where the last sentence of the text starts: a full stop before a capital ("… 2025. We
    had"), not an abbreviation's ("U.S. federal"); -1 at the text's start."""
    at = before.rfind(". ")
    while at >= 0 and not before[at + 2:at + 3].isupper():
        at = before.rfind(". ", 0, at)
    return at


def _relative_trimmed(owner: str) -> str:
    """An amount's clause as what it is said of: "X" of "X that … were" ("the letters of credit
    that reduced the available credit under the facility were $233 million") and of "of which X
    were"; a clause that opens with a relative word ("which provides for") as it is, the
    clauses before it saying what it hangs on."""
    words = owner.split()
    linked = 0
    while linked < len(words) and words[linked].lower() in _OF:
        linked += 1
    if linked < len(words) and words[linked].lower() in _RELATIVE:
        if not linked:
            return owner
        words = words[linked + 1:]  # "of which X were": X
    for at, word in enumerate(words[1:], start=1):
        if word.lower() in _RELATIVE:
            return " ".join(words[:at])
    return " ".join(words)


def figures_of_others(text: str, asked: Sequence[str]) -> bool:
    """The sentence states several amounts, and none is said of the thing the question asks:
    each is another thing's ("net income … was $15.0 billion …, this included a tax benefit of
    $5.9 billion for the release of valuation allowance", where the allowance released is
    asked; "letters of credit outstanding of $749 million, of which the letters of credit that
    reduced the available credit under the Revolving Credit Facility were $247 million", where
    the facility is asked): the asked words stand only in what another figure is for, or the
    words that own its amounts say less than half of what the sentence says of the question up
    to its last amount (what follows is what the figures did, "would decrease our tax rate")."""
    money = [a for a in find_amounts(text) if a.currency]
    if len(money) < 2 or not asked:
        return False
    owners = [stems_of(amount_owner(text, a.start, a.end)) for a in money]
    if not any(term_in(t, owner) for owner in owners for t in asked):
        return True
    # what its own clause says of each amount counts as the amount's ("the remaining transition
    # tax of $10.5 billion is payable over the next three years": payable over three years)
    owned = max(sum(term_in(t, owner | stems_of(_said_after(text, a.end))) for t in asked)
                for owner, a in zip(owners, money, strict=True))
    said = sum(term_in(t, stems_of(text[:money[-1].end])) for t in asked)
    return owned * 2 < said


def _said_after(text: str, end: int) -> str:
    """What the amount ending at `end` is said to be or do: its clause after it, to the next
    clause mark, sentence end or amount."""
    rest = text[end:]
    nxt = next(iter(find_amounts(rest)), None)
    return rest[:min((at for at in (rest.find(". "), *(rest.find(c) for c in _CLAUSE_ENDS),
                                    nxt.start if nxt else -1) if at >= 0), default=len(rest))]


_ASIDE = vocabulary().cues("figure_aside")  # ", with $6.5 billion expected to be paid …"


def main_clause(text: str) -> str:
    """The sentence up to a clause that, after a comma, adds a part of its first figure ("the
    balance was $22.0 billion, with $6.5 billion expected to be paid within 12 months"): what
    the sentence states as a fact, before the aside forecasts, hedges or states other figures."""
    first = next((a for a in find_amounts(text) if a.currency), None)
    if first is None:
        return text
    for match in _ASIDE.finditer(text):
        if match.start() > first.end and text[:match.start()].rstrip().endswith(","):
            return text[:match.start()].rstrip(" ,")
    return text


def table_run(text: str) -> str | None:
    """A "sentence" that is a run of a table flattened into text, its column gaps and line
    ends lost: two rows or more of several figure cells each ("Money market funds $2,386 $—
    $— $2,386 Commercial paper — 611 — 611"), or a row's tail that opens with a figure and goes
    on through three rows of a figure each ("175 Total charges by segment 281 Corporate 81 …").
    Its figures are no sentence's: the label of the row they open with is returned (the words
    before its first figures since the last figure; "" where the run opens with a figure, the
    row's label cut off before it); None where the text is a sentence, or a single row."""
    text = joined_signs(text)
    dates = [(start, end) for _, start, end in find_dates(text)]
    rows: list[tuple[str, int]] = []  # each row's label and how many figure cells follow it
    label: list[str] = []
    at = 0
    for word in text.split():
        at = text.index(word, at)
        cell = lone_cell(word) and not any(start <= at < end for start, end in dates)
        at += len(word)
        if not cell:
            if rows and not label and rows[-1][1] == 0:
                rows.pop()
            label.append(word)
            continue
        if label or not rows:
            rows.append((" ".join(label), 0))
            label = []
        rows[-1] = (rows[-1][0], rows[-1][1] + 1)
    opens_with_cell = bool(rows) and rows[0][0] == ""
    if sum(1 for _, cells in rows if cells >= _ROW_CELLS) >= _RUN_ROWS:
        first = next(name for name, cells in rows if cells >= _ROW_CELLS)
        return "" if opens_with_cell else first
    if opens_with_cell and len(rows) >= _TAIL_ROWS:
        return ""
    return None


_ROW_CELLS = 2  # a table's row of several columns, flattened: this many figures side by side
_RUN_ROWS = 2  # no sentence sets this many runs of figures side by side
_TAIL_ROWS = 3  # a row's tail and rows of one figure each after it

