"""Amounts as written normalise to one number; years, dates and period labels are not amounts."""

from __future__ import annotations

import pytest

from manda.finance.amounts import (
    Amount,
    currency_from_text,
    find_amounts,
    format_amount,
    parse_cell,
    parse_number,
    same_amount,
    scale_from_text,
    unit_line_scale,
)


def one(text: str, **kwargs: object) -> Amount:
    found = find_amounts(text, **kwargs)  # type: ignore[arg-type]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("text", "value", "currency", "stated"),
    [
        ("Q3 2024 revenue €5.2M", 5_200_000.0, "EUR", "€5.2M"),
        ("revenue was EUR 4.9 million", 4_900_000.0, "EUR", "EUR 4.9 million"),
        ("revenue of 5,200k in the quarter", 5_200_000.0, None, "5,200k"),
        ("a charge of €0.4m", 400_000.0, "EUR", "€0.4m"),
        ("turnover £7.7M", 7_700_000.0, "GBP", "£7.7M"),
        ("valued at $12.5bn", 12_500_000_000.0, "USD", "$12.5bn"),
        ("Umsatz 5.2 Mio.", 5_200_000.0, None, "5.2 Mio."),
        ("Umsatz 5,2 Mio. €", 5_200_000.0, "EUR", "5,2 Mio. €"),
        ("CHF 3.1 million", 3_100_000.0, "CHF", "CHF 3.1 million"),
        ("EBITDA of -€0.3M", -300_000.0, "EUR", "-€0.3M"),
        ("1,200,000.50 EUR", 1_200_000.5, "EUR", "1,200,000.50 EUR"),
    ],
)
def test_currency_amounts_normalise_to_units(
    text: str, value: float, currency: str | None, stated: str
) -> None:
    amount = one(text)
    assert amount.value == value
    assert amount.currency == currency
    assert amount.text == stated
    assert text[amount.start : amount.end] == stated


def test_every_style_of_the_same_figure_is_the_same_number() -> None:
    styles = [
        one("€5.2M").value,
        one("EUR 5.2 million").value,
        one("5,200k").value,
        one("5,200", scale=scale_from_text("EUR thousands")).value,
    ]
    assert styles == [5_200_000.0] * 4


def test_percent_multiple_and_people_carry_their_unit() -> None:
    assert (one("gross margin 71%").value, one("gross margin 71%").unit) == (71.0, "%")
    assert one("21 percent").unit == "%"
    assert (one("leverage of 3.0x").value, one("leverage of 3.0x").unit) == (3.0, "x")
    people = one("156 employees as of 30 September 2024")
    assert (people.value, people.unit, people.text) == (156.0, "people", "156 employees")


def test_people_counted_after_a_list_of_describing_words() -> None:
    """"approximately 415,000 full-time, part-time, and seasonal team members", "1,576,000
    full-time and part-time employees": a headcount (these had been no figure at all); words
    that are no list before people count none."""
    for text, value in (("415,000 full-time, part-time, and seasonal team members", 415_000.0),
                        ("1,576,000 full-time and part-time employees", 1_576_000.0)):
        people = one(text)
        assert (people.value, people.unit) == (value, "people"), text
    assert one("415,000 shares held by employees").unit != "people"
    assert one("415,000 customers and employees").unit != "people"


@pytest.mark.parametrize(
    "text",
    [
        "In 2024 the company grew",
        "as of 30.09.2024",
        "on 30 September 2024",
        "Q3 and H1 and FY24 and 3Q24 and Q3'24",
        "see p. 12 and note 4",
        "the 3rd quarter",
        "2024-09-30",
    ],
)
def test_years_dates_periods_and_references_are_not_amounts(text: str) -> None:
    assert find_amounts(text) == []


def test_a_period_next_to_an_amount_does_not_eat_it() -> None:
    found = find_amounts("Revenue | Q3 2024: 5,200 | Q4 2024: 5,400", scale=1000, currency="EUR")
    assert [(a.value, a.currency, a.text) for a in found] == [
        (5_200_000.0, "EUR", "5,200"),
        (5_400_000.0, "EUR", "5,400"),
    ]


def test_german_number_only_when_unambiguous() -> None:
    assert one("1.234,5").value == 1234.5
    assert one("1.234.567").value == 1_234_567.0
    assert one("1.234").value == 1.234  # read the English way: it could be either
    assert find_amounts("5,2345") == []  # neither reading is sound


def test_an_explicit_multiplier_wins_over_the_table_scale() -> None:
    assert one("5,200k", scale=1000).value == 5_200_000.0
    assert one("71%", scale=1000).value == 71.0


def test_a_dash_used_as_punctuation_is_not_a_minus() -> None:
    assert one("Revenue – €5.2M").value == 5_200_000.0


@pytest.mark.parametrize(
    ("text", "scale"),
    [
        ("EUR thousands", 1000.0),
        ("in EUR '000", 1000.0),
        ("€k", 1000.0),
        ("TEUR", 1000.0),
        ("in millions", 1e6),
        ("Revenue (EUR m)", 1e6),
        ("EURm", 1e6),
        ("figures in USD bn", 1e9),
        ("Revenue", 1.0),
    ],
)
def test_scale_from_unit_lines(text: str, scale: float) -> None:
    assert scale_from_text(text) == scale


def test_currency_from_unit_lines() -> None:
    assert currency_from_text("EUR thousands") == "EUR"
    assert currency_from_text("£m") == "GBP"
    assert currency_from_text("Headcount") is None


def test_same_amount_tolerates_rounding_only() -> None:
    assert same_amount(5_200_000.0, one("5,200k").value)
    assert same_amount(5_200_000.0, 5_234_000.0)  # "€5.2M" rounds 5,234k
    assert not same_amount(5.0, 5.2)
    assert same_amount(0.0, 0.0)


def test_format_amount() -> None:
    assert format_amount(5_200_000.0, "EUR") == "€5.2M"
    assert format_amount(12_500_000_000.0, "USD") == "$12.5bn"
    assert format_amount(400_000.0, "EUR") == "€400k"
    assert format_amount(-1_200_000.0, "EUR") == "-€1.2M"
    assert format_amount(3_100_000.0, "CHF") == "CHF 3.1M"
    assert format_amount(71.0, "%") == "71%"
    assert format_amount(3.0, "x") == "3.0x"
    assert format_amount(156.0, "people") == "156 people"


def test_table_cells() -> None:
    negative = parse_cell("(1,508)", scale=1000, currency="EUR")
    assert negative is not None
    assert (negative.value, negative.currency) == (-1_508_000.0, "EUR")
    assert parse_cell("–") is None
    assert parse_cell("n/a") is None
    assert parse_number("-3.5") == -3.5
    stated = parse_cell("€5.2M")
    assert stated is not None and stated.value == 5_200_000.0


@pytest.mark.parametrize(("text", "value"), [
    ("a payment of 5,000 euros", 5_000.0),
    ("un montant de 5 000 euros", 5_000.0),
    ("por importe de 15.000.000 euros", 15_000_000.0),
])
def test_a_currency_word_after_the_number_is_no_iso_code(text: str, value: float) -> None:
    # "euros" starts with "EUR": the code is a whole word, the word is the currency
    found = one(text)
    assert (found.value, found.currency) == (value, "EUR")


@pytest.mark.parametrize(
    ("text", "scale"),
    [
        ("en milliers d'euros (K€)", 1e3),
        ("Exercices de douze mois clos le 30 septembre · en milliers d'euros (K€)", 1e3),
        ("K€", 1e3),
        ("en miles de euros", 1e3),
        ("in Tausend EUR", 1e3),
        ("(In millions, except per share data)", 1e6),
        ("Amounts in EUR thousands", 1e3),
        # a figure's own scale, or a word, announces no unit for a table
        ("Chiffre d'affaires 41 862,4 K€ sur l'exercice", 1.0),
        ("Revenue was $5 million", 1.0),
        ("5,2 millones de euros", 1.0),
        ("The company has thousands of customers", 1.0),
    ],
)
def test_a_unit_line_in_any_language(text: str, scale: float) -> None:
    assert unit_line_scale(text) == scale
