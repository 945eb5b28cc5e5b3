"""Covenant grammar (`manda.finance.covenants`): a ratio, its limit and direction, a test result."""

from __future__ import annotations

from manda.finance.covenants import levels_stated, names_a_covenant, stated_result, when_tested


def test_a_ceiling_and_a_floor_in_one_sentence() -> None:
    levels = levels_stated("Financial covenants, tested quarterly: leverage (net debt to EBITDA) "
                           "not more than 2.50x; interest cover at least 4.0x.")
    assert [(c.key, c.name, c.minimum, c.level) for c in levels] == [
        ("leverage", "Leverage (net debt to EBITDA)", False, 2.5),
        ("interest cover", "Interest cover", True, 4.0)]
    assert levels[0].stated == "not more than 2.50x"


def test_a_us_limit_that_steps_down_is_in_force_at_its_last_level() -> None:
    sentence = ("The Borrower shall not permit the Total Net Leverage Ratio, as of the last day of "
                "any fiscal quarter, to exceed 3.50:1.00 for fiscal quarters ending on or before "
                "December 31, 2024, and 3.00:1.00 for each fiscal quarter ending thereafter.")
    [covenant] = levels_stated(sentence)
    assert (covenant.key, covenant.level, covenant.minimum) == ("leverage", 3.0, False)
    assert "earlier 3.50" in covenant.stated


def test_a_result_is_read_apart_from_the_limit() -> None:
    [covenant] = levels_stated("Leverage must not exceed 3.0x.")
    assert stated_result("Leverage was 1.18x at 31 March 2024, within the 3.0x limit.",
                         covenant) == 1.18
    assert stated_result("Leverage | not more than 3.00:1.00 | 2.91:1.00", covenant) == 2.91
    assert stated_result("Interest cover was 6.2x.", covenant) is None  # another ratio
    assert stated_result("Leverage must not exceed 3.0x.", covenant) is None  # the limit itself


def test_what_is_no_covenant() -> None:
    assert levels_stated("Revenue grew 12% to £5.2m.") == []
    assert not names_a_covenant("Revenue grew 12% to £5.2m.")
    assert when_tested("The covenants are tested quarterly on the last day of each quarter.") == (
        "tested quarterly")


FRENCH_COVENANTS = (
    "L'Emprunteur s'engage à ce que (a) le Ratio de Levier soit inférieur ou égal à 3,00 à "
    "chaque Date de Test jusqu'au 30 septembre 2024 inclus, puis inférieur ou égal à 2,75 à "
    "chaque Date de Test ultérieure ; (b) le Ratio de Couverture du Service de la Dette (DSCR) "
    "soit supérieur ou égal à 1,20.")


def test_a_french_stepped_level_is_in_force_at_its_later_level() -> None:
    leverage, dscr = levels_stated(FRENCH_COVENANTS)
    assert (leverage.level, leverage.minimum) == (2.75, False)
    assert "3,00" in leverage.stated and leverage.name.startswith("Ratio de Levier")
    assert (dscr.level, dscr.minimum) == (1.2, True)


def test_a_certificate_cell_states_the_result_of_the_ratio_its_row_names() -> None:
    leverage, _ = levels_stated(FRENCH_COVENANTS)
    assert stated_result("Ratio de Levier (Dette Nette / EBE) | Seuil contractuel: inférieur ou "
                         "égal à 2,75 | Niveau constaté: 2,54", leverage) == 2.54
    [cover] = [c for c in levels_stated("La Acreditada mantendrá un ratio EBITDA / Gastos "
                                        "Financieros no inferior a 4,00x.")]
    # the row of another ratio that names EBITDA too is not this covenant's result
    assert stated_result("Deuda Financiera Neta / EBITDA | no superior a 3,00x | 2,44x",
                         cover) is None
    assert stated_result("EBITDA / Gastos Financieros | no inferior a 4,00x | 6,32x",
                         cover) == 6.32
    [german] = levels_stated("(1) Nettoverschuldungsgrad: Das Verhältnis der "
                             "Nettofinanzverbindlichkeiten zum EBITDA darf 2,75 : 1,00 nicht "
                             "überschreiten.")
    # the label's gloss names it in the agreement's language
    assert stated_result("Net Leverage (Nettoverschuldungsgrad) | not more than 2.75:1.00 | "
                         "2.61:1.00", german) == 2.61


def test_a_level_without_its_unit_is_no_amount() -> None:
    assert levels_stated("Net debt must not exceed 2.5 million euros.") == []
    [leverage] = levels_stated("Leverage shall be no more than 2.50 at each test date.")
    assert leverage.level == 2.5
