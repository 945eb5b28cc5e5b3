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
