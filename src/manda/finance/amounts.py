"""Amounts as documents write them (€5.2M, EUR 5.2 million, 5,200k, 71%, 3.0x), made comparable.

Used by the extractors to normalise values and by the answering agent's grounding check to find
every number an answer states; years, dates and period labels ("Q3", "2024") are never amounts.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from manda.finance.periods import LINK_BEFORE, MONTH_WORDS, find_periods
from manda.vocabulary import vocabulary
from manda.vocabulary.numbers import (
    CODES,
    CURRENCY_WORDS,
    MULTIPLIER,
    MULTIPLIER_WORDS,
    MULTIPLIERS,
    THOUSANDS_UNITS,
    alternatives,
    number_words,
    unit_lead,
)

__all__ = [
    "MULTIPLIER",
    "Amount",
    "currency_from_text",
    "currency_of_document",
    "find_amounts",
    "footnote_marker",
    "format_amount",
    "misread_in_english",
    "multiplied",
    "parse_cell",
    "parse_number",
    "rounded",
    "same_amount",
    "same_as_written",
    "scale_from_text",
    "shown_as_written",
    "significant_digits",
    "stated_amounts",
    "uses_decimal_comma",
    "with_english_separators",
    "writes_decimal_comma",
]

CURRENCY_SYMBOLS = {"EUR": "€", "GBP": "£", "USD": "$"}


@dataclass(frozen=True)
class Amount:
    """One number found in a text, normalised (€5.2M → 5_200_000.0), with its exact span."""

    value: float
    currency: str | None  # ISO code: "EUR", "GBP", "USD", "CHF"
    unit: str | None  # "%", "x", "people" or None
    text: str  # as written, e.g. "EUR 5.2 million"
    start: int
    end: int


# ---------------------------------------------------------------- numbers


_CORE = re.compile(r"(?<![\d.,'’/\u00a0\u202f])\d+(?:[.,\u00a0\u202f]\d+)*")


def _grouped(parts: list[str]) -> bool:
    """Thousands groups: 1–3 leading digits, then groups of exactly three."""
    return 1 <= len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:])


def _parse_core(core: str, decimal_comma: bool = False) -> Decimal | None:
    """A digit string with separators, read only where the reading is unambiguous.

    `decimal_comma`: the table writes numbers the German way (see `uses_decimal_comma`), so
    "38.410" is thirty-eight thousand. "38,410" stays thirty-eight thousand either way: German
    tables of amounts do not show three decimals, and reading it as 38.41 would be the worse error.
    """
    s = core.replace("\u00a0", " ").replace("\u202f", " ")
    if " " in s:
        parts = s.split(" ")
        tail = parts[-1]
        decimal = ""
        for sep in ".,":
            if sep in tail:
                tail, decimal = tail.split(sep, 1)
        if not _grouped([*parts[:-1], tail]) or any(c in "".join(parts[:-1]) for c in ".,"):
            return None
        s = "".join([*parts[:-1], tail]) + (f".{decimal}" if decimal else "")
        return _decimal(s)
    has_dot, has_comma = "." in s, "," in s
    if has_dot and has_comma:
        dec_sep = "." if s.rfind(".") > s.rfind(",") else ","
        thou_sep = "," if dec_sep == "." else "."
        whole, _, frac = s.rpartition(dec_sep)
        if dec_sep in whole or not _grouped(whole.split(thou_sep)):
            return None
        return _decimal(whole.replace(thou_sep, "") + "." + frac)
    if has_comma:
        parts = s.split(",")
        if len(parts) == 2 and len(parts[1]) != 3:
            # "5,2" is a German decimal; "5,2345" reads neither way
            return _decimal(f"{parts[0]}.{parts[1]}") if len(parts[1]) <= 2 else None
        return _decimal("".join(parts)) if _grouped(parts) else None
    if has_dot:
        parts = s.split(".")
        if decimal_comma and _grouped(parts):
            return _decimal("".join(parts))
        if len(parts) == 2:
            return _decimal(s)
        return _decimal("".join(parts)) if _grouped(parts) else None  # German 1.234.567
    return _decimal(s)


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


_CELL_GROUPS = re.compile(r"(?<=\d) (?=\d{3}(?!\d))")


def parse_number(text: str, *, decimal_comma: bool = False) -> float | None:
    """A bare number such as "5,200", "1.234,5", "(1,200)" or "-3.5"; None if not one number."""
    s = text.strip()
    negative = False
    if s.startswith("(") and s.endswith(")"):
        s, negative = s[1:-1].strip(), True
    if s[:1] in "-−–" and len(s) > 1:
        s, negative = s[1:].strip(), True
    s = _CELL_GROUPS.sub("\u00a0", s)  # "12 345" in a cell is one number (or none)
    if not s or not _CORE.fullmatch(s):
        return None
    value = _parse_core(s, decimal_comma)
    if value is None:
        return None
    return float(-value if negative else value)


# ---------------------------------------------------------------- around a number

# Units only decimal-comma writing uses: the number beside it reads that way ("TEUR 3.200" is
# three thousand two hundred thousand euros, not 3.2).
_ENGLISH_UNITS = {w.lower() for ws in vocabulary().languages["en"].numbers.multipliers.values()
                  for w in ws}
_COMMA_UNITS = alternatives(
    w for lang in number_words() if lang.decimal == ","
    for w in (*lang.thousands_of_currency,
              *(m for ms in lang.multipliers.values() for m in ms))
    if w.lower().rstrip(".") not in _ENGLISH_UNITS)
_COMMA_UNIT = re.compile(rf"^(?:{_COMMA_UNITS})(?![\w])", re.IGNORECASE)
_COMMA_UNIT_BEFORE = re.compile(rf"(?:{_COMMA_UNITS})$", re.IGNORECASE)
# A minus sign counts only when attached ("-€0.3M"); "Revenue – €5.2M" uses a dash as punctuation.
_PREFIX = re.compile(
    r"(?:(?<![\w])(?P<neg>[-−–]))?"
    r"(?P<cur>US\$|€|£|\$|(?P<pmult>T|k|M|Mio\.?\s?)?(?:EUR|USD|GBP|CHF)|(?P<smult>T|k)€)"
    r"\s?(?P<neg2>[-−–](?=\d))?$"
)
_BARE_NEGATIVE = re.compile(r"(?:(?<=[\s(\[:=])|^)[-−–]$")
_MULT_RE = re.compile(rf"(?P<sp>\s?)(?P<mult>{MULTIPLIER})(?![\w])")
_MULTIPLIED = re.compile(rf"\d\s?(?:{MULTIPLIER})(?![^\W\d_])")


def multiplied(text: str) -> bool:
    """An amount written with its multiplier ("£4.5m", "3,4 Mio.", "1.2 billion", "5 M€")."""
    return _MULTIPLIED.search(text) is not None
# An ISO code is a whole word: "5.000 euros" is in euros, not "EUR" and a stray "os".
_POST_CURRENCY = re.compile(
    rf"\s?(?P<cur>(?:EUR|USD|GBP|CHF)(?![\w])|€|£|\$|(?:{alternatives(CURRENCY_WORDS)})(?![\w]))",
    re.IGNORECASE)
_POST_THOUSANDS = re.compile(rf"\s?(?P<unit>{alternatives(THOUSANDS_UNITS)})(?![\w])")
_PERCENT = re.compile(r"\s?(?:%|percent\b|per\s?cent\b|pct\b)", re.IGNORECASE)
_TIMES = re.compile(r"[x×](?![\w])")
_PEOPLE = vocabulary().cues("people_counted")  # "120 employees", "186 salariés", "45 Mitarbeiter"
_JOINERS = vocabulary().words("list_joiners")
_DESCRIBING_WORD = re.compile(r"([^\W\d_][\w-]*),?\s+")
_DESCRIBED_AT_MOST = 8  # describing words and joiners between a count and its people


def _people_after(text: str, pos: int) -> re.Match[str] | None:
    """The people a count counts, right after it or after a list of describing words
    ("415,000 full-time, part-time, and seasonal team members"); words that are no such list
    ("shares held by employees") count no people."""
    if (people := _PEOPLE.pattern.match(text, pos)) is not None:
        return people
    described, joined = 0, False
    for _ in range(_DESCRIBED_AT_MOST):
        word = _DESCRIBING_WORD.match(text, pos)
        if word is None:
            return None
        if word.group(1).lower() in _JOINERS:
            joined = True
        else:
            described += 1
        pos = word.end()
        if joined and described >= 2 and (people := _PEOPLE.pattern.match(text, pos)):
            return people
    return None
# A word right before a number that makes it a reference, not an amount ("p. 12", "note 4",
# "IFRS 15", "Anhang 3", "article 7"), in every language the vocabulary reads.
_REFERENCE = re.compile(
    rf"(?:(?<![\w])(?:{alternatives(w for lang in number_words() for w in lang.references)})"
    r"\.?|[§#])\s*$",
    re.IGNORECASE,
)
# A day's number before a month ("15 March", "31 de diciembre") or after it is no amount.
_MONTH_AFTER = re.compile(rf"\s*(?:st|nd|rd|th)?\.?\s+{LINK_BEFORE}(?:{MONTH_WORDS})\b",
                          re.IGNORECASE)
_MONTH_BEFORE = re.compile(rf"\b(?:{MONTH_WORDS})\.?\s+$", re.IGNORECASE)


def _currency_code(token: str) -> str:
    token = token.strip()
    for code in ("EUR", "USD", "GBP", "CHF"):
        if token.endswith(code):
            return code
    low = token.lower()
    return CODES.get(low) or CURRENCY_WORDS.get(low) or CODES.get(token[-1:], "EUR")


def _masked_spans(text: str) -> list[tuple[int, int]]:
    return [(s, e) for _, s, e in find_periods(text)]


def find_amounts(
    text: str, *, scale: float = 1.0, currency: str | None = None, decimal_comma: bool = False
) -> list[Amount]:
    """Every amount, percentage, multiple and head count in `text`, in reading order.

    `scale` applies to plain numbers with no multiplier of their own (a table "in EUR thousands"
    gives scale=1000); `currency` is the currency such plain numbers are stated in, if known.
    Years ("2024"), dates ("30.09.2024"), period labels ("Q3", "FY24") and references ("p. 12",
    "note 4") are not amounts; a number that reads two ways ("1.234" vs "1,234") is taken the
    English way, and "1.234,5" is German only because it cannot be anything else.
    """
    return list(_amounts_in(text, scale, currency, decimal_comma))


@lru_cache(maxsize=4096)
def _amounts_in(text: str, scale: float, currency: str | None, decimal_comma: bool
               ) -> tuple[Amount, ...]:
    """`find_amounts`, kept per text: an answer reads the same passages' figures many times."""
    written = text
    text = _join_spaced_groups(text)  # same length: spans hold for both
    masked = _masked_spans(text)  # non-overlapping, in order: looked up by bisection
    starts = [s for s, _ in masked]
    found: list[Amount] = []
    for m in _CORE.finditer(text):
        start, end = m.span()
        if _inside(masked, starts, start, end):
            continue
        amount = _read_amount(text, start, end, scale=scale, currency=currency,
                              decimal_comma=decimal_comma)
        if amount is not None:
            found.append(replace(amount, text=written[amount.start:amount.end]))
    return tuple(found)


def footnote_marker(text: str, amount: Amount) -> bool:
    """A note's number in brackets, not an amount: "(2)" opening a footnote ("(2)Includes
    unconditional purchase obligations …"), glued to the word after it, or calling a note
    after a table's cell of words ("Servers Five to six years (1) Heavy equipment …")."""
    if amount.currency or amount.unit or not amount.text.isdigit() or len(amount.text) > 2:
        return False
    if text[amount.start - 1:amount.start] != "(" or text[amount.end:amount.end + 1] != ")":
        return False
    before, after = text[:amount.start - 1], text[amount.end + 1:]
    if not before.strip() or after[:1].isalpha():
        return True
    # after a word, then the text's end, another marker or a capitalised word: a call to a note
    return before[-1:] == " " and before.rstrip()[-1:].isalpha() and (
        not after.strip() or after.lstrip()[:1] == "(" or after.lstrip()[:1].isupper())


def stated_amounts(text: str) -> list[Amount]:
    """The amounts `text` states (`find_amounts`), without its footnotes' numbers."""
    return [a for a in find_amounts(text) if not footnote_marker(text, a)]


# "12 345 K€", "1 234,5 M€", "€ 12 345": thousands grouped by plain spaces, as French writes
# them, read as one number where a unit or currency stands beside it (a bare "2023 1 200" is
# not joined).
_UNIT_AFTER = (rf"\s?(?:%|€|£|\$|EUR|USD|GBP|CHF|{alternatives(THOUSANDS_UNITS)}"
               rf"|{alternatives(MULTIPLIER_WORDS)}|{alternatives(CURRENCY_WORDS)})(?![\w])")
_SPACED_GROUPS = re.compile(
    rf"(?<![\d.,])\d{{1,3}}(?: \d{{3}})+(?:,\d+)?(?={_UNIT_AFTER})"
    r"|(?:(?<=€ )|(?<=£ )|(?<=\$ )|(?<=EUR )|(?<=USD )|(?<=GBP )|(?<=CHF ))"
    r"\d{1,3}(?: \d{3})+(?:,\d+)?(?![\d.])")


def _join_spaced_groups(text: str) -> str:
    if " " not in text:
        return text
    return _SPACED_GROUPS.sub(lambda m: m.group(0).replace(" ", "\u00a0"), text)


def _inside(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    """Whether `start` or `end` falls in one of `spans` (sorted, non-overlapping)."""
    i = bisect.bisect_right(starts, start) - 1
    if i >= 0 and spans[i][0] <= start < spans[i][1]:
        return True
    j = bisect.bisect_left(starts, end) - 1
    return j >= 0 and spans[j][0] < end <= spans[j][1]


def _read_amount(
    text: str, start: int, end: int, *, scale: float, currency: str | None,
    decimal_comma: bool = False,
) -> Amount | None:
    if not decimal_comma and _comma_unit_beside(text, start, end):
        decimal_comma = True
    core = _parse_core(text[start:end], decimal_comma)
    if core is None:
        return None
    before = text[max(0, start - 12) : start]
    begin, cur, negative, value_mult = start, None, False, 1
    prefix = _PREFIX.search(before)
    if prefix is not None and not _letter_before(text, start - len(before) + prefix.start()):
        begin = start - (len(before) - prefix.start())
        cur = _currency_code(prefix.group("cur"))
        negative = bool(prefix.group("neg") or prefix.group("neg2"))
        pmult = (prefix.group("pmult") or prefix.group("smult") or "").strip().rstrip(".")
        value_mult = MULTIPLIERS[pmult.lower().replace("t", "k")] if pmult else 1
    else:
        if start > 0 and (text[start - 1].isalpha() or text[start - 1] in "_"):
            return None  # "Q3", "B15", "FY24", "H1"
        if start > 0 and _BARE_NEGATIVE.search(text[max(0, start - 2) : start]):
            begin, negative = start - 1, True
    if _REFERENCE.search(text[max(0, begin - 12) : begin]):
        return None
    if _MONTH_BEFORE.search(text[max(0, begin - 12) : begin]) or _MONTH_AFTER.match(text, end):
        return None

    pos, unit, mult = end, None, value_mult
    if (pct := _PERCENT.match(text, pos)) is not None:
        unit, pos = "%", pct.end()
    elif (times := _TIMES.match(text, pos)) is not None:
        unit, pos = "x", times.end()
    else:
        if mult == 1 and cur is None and (th := _POST_THOUSANDS.match(text, pos)) is not None:
            mult, pos = 1000, th.end()
            cur = THOUSANDS_UNITS[th.group("unit")]
        if mult == 1 and (mm := _MULT_RE.match(text, pos)) is not None:
            word = mm.group("mult").rstrip(".")
            if not (mm.group("sp") and word in {"b", "B"}):  # "5 B" is a footnote, "5B" is not
                mult, pos = MULTIPLIERS[word.lower().rstrip(".")], mm.end()
        if cur is None and (post := _POST_CURRENCY.match(text, pos)) is not None:
            cur, pos = _currency_code(post.group("cur")), post.end()
        if cur is None and text[pos:pos + 1].isspace() and (
                people := _people_after(text, pos + 1)) is not None:
            unit, pos = "people", people.end()
    if pos < len(text) and (text[pos].isalnum() or text[pos] == "_"):
        return None  # "3rd", "10am", "3Q24", "5kg"
    if (
        cur is None and unit is None and mult == 1
        and core == core.to_integral_value() and text[start:end].isdigit()
        and 1900 <= int(core) <= 2100
    ):
        return None  # a year
    value = core * mult
    if unit is None and mult == 1:
        value = value * Decimal(str(scale))
        cur = cur or currency
    if negative:
        value = -value
    return Amount(
        value=float(value), currency=cur, unit=unit, text=text[begin:pos], start=begin, end=pos
    )


def _comma_unit_beside(text: str, start: int, end: int) -> bool:
    """"TEUR 3.200", "4.620 TEUR", "2,0 Mio. EUR", "5 200 K€": a unit only decimal-comma
    writing uses, right before or after."""
    before = text[max(0, start - 6):start].rstrip()
    word = _COMMA_UNIT_BEFORE.search(before)
    if word is not None and not _letter_before(text, max(0, start - 6) + word.start()):
        return True
    return bool(_COMMA_UNIT.match(text[end:end + 8].lstrip()))


def _letter_before(text: str, index: int) -> bool:
    return index > 0 and (text[index - 1].isalnum() or text[index - 1] == "_")


def parse_cell(text: str, *, scale: float = 1.0, currency: str | None = None,
               decimal_comma: bool = False) -> Amount | None:
    """The one amount a table cell holds ("5,200", "(1,200)", "€5.2M", "71%"), or None."""
    stripped = text.strip()
    if not stripped:
        return None
    number = parse_number(stripped, decimal_comma=decimal_comma)
    if number is not None:
        value = Decimal(str(number)) * Decimal(str(scale))
        return Amount(float(value), currency, None, stripped, 0, len(stripped))
    amounts = find_amounts(stripped, scale=scale, currency=currency, decimal_comma=decimal_comma)
    if len(amounts) == 1 and len(amounts[0].text) >= len(stripped) - 2:
        return amounts[0]
    if (inside := _PAREN_CELL.fullmatch(stripped)) is not None:
        # the accountants' negative around a figure with its unit: "$ (1,009,359)", "(1.7)%",
        # "€ (3,4) Mio.", "$(1.0) billion"
        head, figure, tail = inside.group(1), inside.group(2), inside.group(3) or ""
        found = parse_cell(f"{head}{figure}{tail}", scale=scale, currency=currency,
                           decimal_comma=decimal_comma)
        if found is not None and found.value > 0:
            return replace(found, value=-found.value, text=stripped, end=len(stripped))
    return None


_PAREN_CELL = re.compile(r"([^\d()]{0,6}?)\s?\((\d[\d.,\s]*)\)(\s?[^\d()]{1,8})?")


# Only cells that read one way vote: "1.234.567", "1.234,5", "3,5" vs "1,234,567", "1,234.5", "3.5";
# "38.410" and "46,700" read both ways and do not.
_COMMA_NUMBER = re.compile(
    r"^[(\-−–]?(?:\d{1,3}(?:\.\d{3}){2,}|\d{1,3}(?:\.\d{3})+,\d+|\d+,(?:\d{1,2}|\d{4,}))\)?%?$")
_ENGLISH_NUMBER = re.compile(
    r"^[(\-−–]?(?:\d{1,3}(?:,\d{3}){2,}|\d{1,3}(?:,\d{3})+\.\d+|\d+\.(?:\d{1,2}|\d{4,}))\)?%?$")


_NUMBER_TOKEN = re.compile(r"(?<![\w.,])[(\-−–]?\d[\d.,]*\d%?\)?(?![\w])")


# How an English reader sees a figure's wording: "4.620 TEUR" reads as 4.62 thousand, "2,75"
# as 275; "$1,234.567" and "4.125%" read as written.
_COMMA_UNIT_ANYWHERE = re.compile(rf"(?<![A-Za-z])(?:{_COMMA_UNITS})(?![^\W\d_])", re.IGNORECASE)
_ENGLISH_GROUPING = re.compile(r"\d,\d{3}(?!\d)")
_COMMA_DIGITS = re.compile(r"\d,\d{1,2}(?!\d)|\d\.\d{3}(?!\d)")
_COMMA_WRITTEN = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?(?!\d)|\d+,\d+")


def misread_in_english(text: str) -> bool:
    """Whether a figure's wording is German and an English reader could misread it."""
    if _COMMA_UNIT_ANYWHERE.search(text):
        return True
    if _ENGLISH_GROUPING.search(text):
        return False
    if "%" in text:
        return bool(re.search(r"\d,\d", text))  # "31,6 %", but "4.125%" as written
    return bool(_COMMA_DIGITS.search(text))


def with_english_separators(text: str) -> str:
    """"4.620 TEUR" -> "4,620 TEUR", "2,75 : 1,00" -> "2.75 : 1.00", "31,6 %" -> "31.6%"."""
    english = _COMMA_WRITTEN.sub(
        lambda m: m.group(0).translate(str.maketrans({".": ",", ",": "."})), text)
    return re.sub(r"(\d)\s+%", r"\1%", english)


def writes_decimal_comma(text: str) -> bool:
    """Whether a document's prose writes numbers the German way, by the numbers that read only
    one way ("EUR 12.000.000", "2,25 %" against "1,234,567", "2.61"): then "EUR 500.000" in it is
    half a million. No German number, no German reading."""
    comma = english = 0
    for m in _NUMBER_TOKEN.finditer(text):
        token = m.group(0).rstrip(".,")
        if _DATE_LIKE.match(token):
            continue
        comma += bool(_COMMA_NUMBER.match(token))
        english += bool(_ENGLISH_NUMBER.match(token))
    return comma > english


_DATE_LIKE = re.compile(r"^\d{1,2}[./]\d{1,2}[./](?:\d{2}|\d{4})?$|^\d{4}[-/.]\d{1,2}")


def uses_decimal_comma(cells: list[str], context: str = "") -> bool:
    """Whether a table writes numbers the German way ("38.410", "5,2 %"), by its clear cells.

    Cells that read only one way vote ("1.234.567", "3,5" vs "1,234,567", "3.5"); with no clear
    vote, German words in the table or its caption ("TEUR", "Umsatzerlöse") decide.
    """
    comma = english = 0
    for cell in cells:
        text = cell.strip().replace(" ", "")
        comma += bool(_COMMA_NUMBER.match(text))
        english += bool(_ENGLISH_NUMBER.match(text))
    if comma != english:
        return comma > english
    return vocabulary().cues("decimal_comma_words").found(" ".join([context, *cells[:40]]))


# ---------------------------------------------------------------- comparing and showing


def significant_digits(written: str) -> int:
    """The significant digits of a figure as written: "$65.6 billion" 3, "(48,296)" 5."""
    number = ""
    for ch in written:
        if ch.isdigit() or (number and ch in ",."):
            number += ch
        elif number:
            break
    return len("".join(c for c in number if c.isdigit()).lstrip("0"))


def rounded(value: float, digits: int) -> Decimal:
    """|value| to `digits` significant digits (half up)."""
    d = Decimal(repr(abs(value)))
    if d == 0:
        return d
    shift = digits - d.adjusted() - 1
    return d.scaleb(shift).quantize(Decimal(1), rounding="ROUND_HALF_UP").scaleb(-shift)


def same_as_written(a: float, a_written: str, b: float, b_written: str, *,
                    least: int = 1) -> bool:
    """The same amount to the precision the less precise of the two writes it ("$65.6 billion"
    and "65,648" in millions), sign aside; False where that is under `least` digits."""
    digits = max(1, min(significant_digits(a_written), significant_digits(b_written)))
    return digits >= least and rounded(a, digits) == rounded(b, digits)


def same_amount(a: float, b: float, *, rel_tol: float = 0.01) -> bool:
    """Equal up to rounding: €5.2M and 5,200k are the same, 5.0 and 5.2 are not."""
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-9)


def _short(value: float, decimals: int = 2) -> str:
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_amount(value: float, currency: str | None) -> str:
    """How a person writes an amount: 5_200_000 EUR → "€5.2M"; 71, "%" → "71%"; 3, "x" → "3.0x".

    `currency` may also be one of the finding units "%", "x", "people" or "shares".
    """
    if currency == "%":
        return f"{_short(value, 1)}%"
    if currency == "x":
        return f"{value:.1f}x"
    if currency in {"people", "shares"}:
        return f"{_short(value, 0)} {currency}"
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    for factor, suffix in ((1e9, "bn"), (1e6, "M"), (1e3, "k")):
        if magnitude >= factor and currency:
            number = f"{_short(magnitude / factor)}{suffix}"
            break
    else:
        number = _short(magnitude)
    if not currency:
        return f"{sign}{number}"
    symbol = CURRENCY_SYMBOLS.get(currency)
    return f"{sign}{symbol}{number}" if symbol else f"{sign}{currency} {number}"


def shown_as_written(value: float, unit: str, written: str) -> str:
    """A figure as a person reads it: as the document writes it when that carries its unit
    ("€5.0M", "19%"); else the amount it stands for, then as written ("€22.5M (as written:
    22,500)" from a table in EUR thousands)."""
    stated = find_amounts(written)
    if stated and (stated[0].currency or stated[0].unit):
        return written
    shown = format_amount(value, unit)
    return f"{shown} (as written: {written})" if written else shown


# ---------------------------------------------------------------- unit lines

_CUR = r"(?:US\$|€|£|\$|\bEUR|\bUSD|\bGBP|\bCHF)"
def _scale_words(factor: int) -> str:
    words = [w for lang in number_words() for w in lang.scales.get(factor, ())]
    return rf"|(?<![\w])(?:(?:{unit_lead()})\s+)?(?:{alternatives(words)})(?![\w])" if words else ""


# The structural ways a unit line says its scale (symbols, '000, ISO codes); the words of every
# language come from the vocabulary ("in thousands", "in Tausend", "en milliers d'euros").
_SCALES: list[tuple[float, re.Pattern[str]]] = [
    (1e9, re.compile(r"(?!x)x" + _scale_words(10**9), re.IGNORECASE)),
    (1e6, re.compile(
        rf"{_CUR}\s?['’]?(?:m|mm|mn)(?![\w])|\b(?:m|M)(?:EUR|USD|GBP|CHF)\b|\bm€|\bin\s+m\b"
        + _scale_words(10**6), re.IGNORECASE,
    )),
    (1e3, re.compile(
        r"['’]000s?\b|\(000s?\)"
        rf"|{_CUR}\s?k(?![\w])|{_CUR}\s?['’]?000s?(?![\d,.])"
        r"|(?<![\d.,'’])\b000s?\s?(?:EUR|USD|GBP|CHF|€|£|\$)"
        r"|(?<![\d.,'’])\b000s\b|\bin\s+000s?\b"
        r"|\b(?:k|T)(?:EUR|USD|GBP|CHF)\b|\b(?:k|T)€" + _scale_words(10**3),
        re.IGNORECASE,
    )),
]


def scale_from_text(text: str) -> float:
    """The multiplier a unit line announces: "EUR thousands", "in EUR '000", "€k" → 1000.0.

    Thousands: "(in thousands of U.S. dollars)", "USD 000s", "$000", "£000", "€'000", "TEUR",
    "kEUR", "in Tausend EUR", "Tsd. €". Millions: "in millions", "€m", "$mm", "EURm", "Mio. €",
    "in Millionen Euro". Billions: "bn", "Mrd.". 1.0 when the text names no scale; when several
    are named, the first one in the text wins.
    """
    best: tuple[int, float] | None = None
    for factor, pattern in _SCALES:
        m = pattern.search(text)
        if m is not None and (best is None or m.start() < best[0]):
            best = (m.start(), factor)
    return best[1] if best else 1.0


def unit_line_scale(text: str) -> float:
    """The multiplier `text` announces for figures written elsewhere (a caption: "en milliers
    d'euros (K€)", "in Tausend EUR", "(in millions)"), 1.0 when it names none or when its scale
    only belongs to a figure of its own ("5 millions d'euros", "€2.0M")."""
    best: tuple[int, float] | None = None
    for factor, pattern in _SCALES:
        for m in pattern.finditer(text):
            before = text[: m.start()]
            if _FIGURE_BEFORE.search(before):
                continue  # "41 862,4 K€": the scale of that figure, not of a table
            word = _WORD_BEFORE.search(before)
            if (word and m.group(0)[:3].lower().strip() not in ("in", "en")
                    and currency_from_text(word.group(1)) is None):
                continue  # "has thousands of customers": a word, not a unit ("EUR thousands" is)
            if best is None or m.start() < best[0]:
                best = (m.start(), factor)
            break
    return best[1] if best else 1.0


_FIGURE_BEFORE = re.compile(r"\d[\d\s\u00a0\u202f.,]*$")
_WORD_BEFORE = re.compile(r"(\w+)\s*$")


# a currency's word that qualifies another ("euro-denominated notes", "dollar-based pricing")
# names no unit
_CURRENCY_ANY = re.compile(
    r"(?:US\$|€|£|\$|\b(?:k|T|m|M)?(EUR|USD|GBP|CHF)(?:m|k)?\b"
    r"|\b(?:U\.?S\.?\s+)?dollars?\b(?!-\w)"
    rf"|(?<![\w])(?:{alternatives(CURRENCY_WORDS)})(?![\w]|-\w))",
    re.IGNORECASE,
)


def currency_of_document(texts: Iterable[str]) -> str | None:
    """The currency a document states its figures in: the one its texts name most ("$" on every
    page of a US filing), not the first stray word ("fines of up to €20 million" on page 41)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(code for m in _CURRENCY_ANY.finditer(text)
                      if (code := currency_from_text(m.group(0))))
    return counts.most_common(1)[0][0] if counts else None


def currency_from_text(text: str) -> str | None:
    """The first currency a text names ("EUR thousands" → "EUR", "£m" → "GBP"), if any."""
    m = _CURRENCY_ANY.search(text)
    if m is None:
        return None
    word = m.group(0).lower()
    if word in CURRENCY_WORDS:
        return CURRENCY_WORDS[word]
    if "dollar" in word:
        return "USD"
    return (m.group(1) or "").upper() or _currency_code(m.group(0))
