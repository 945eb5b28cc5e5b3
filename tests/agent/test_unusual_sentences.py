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
