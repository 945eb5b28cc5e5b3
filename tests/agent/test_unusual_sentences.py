"""A statement read from a passage runs past the dot of an abbreviation ("S.A.", "article L.")
but stops at a line's end."""

from __future__ import annotations

from manda.agent.unusual import sentences


def test_a_dot_after_an_abbreviation_ends_no_statement() -> None:
    text = ("El contrato con Frutas del Sur, S.A. (12,5 % de las ventas) vence en 2027. "
            "Otra frase.\nAu sens de l'article L. 233-3 du Code de commerce, le Client pourra "
            "résilier.\nAcme Inc.\nNext line.")
    assert sentences(text) == [
        "El contrato con Frutas del Sur, S.A. (12,5 % de las ventas) vence en 2027.",
        "Otra frase.",
        "Au sens de l'article L. 233-3 du Code de commerce, le Client pourra résilier.",
        "Acme Inc.",
        "Next line.",
    ]


def test_a_countrys_initials_end_no_statement() -> None:
    """"… the transition tax imposed by the U.S. Tax Act was $4.1 million": the sentence runs
    on past "U.S." (it had been cut there, and its figure lost to the question about it)."""
    text = ("As of June 30, 2024, the transition tax imposed by the U.S. Tax Act was $4.1 "
            "million. Sales in the U.K. Retail segment rose. Next one.")
    assert sentences(text) == [
        "As of June 30, 2024, the transition tax imposed by the U.S. Tax Act was $4.1 million.",
        "Sales in the U.K. Retail segment rose.",
        "Next one.",
    ]
