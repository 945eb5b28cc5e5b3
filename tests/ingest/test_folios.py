"""A page's folio glued onto its last line goes on a line of its own (`parsers.folios`).

Every page here is invented (a ferry operator's annual report, printed with its page numbers
offset from the pages' places: the cover is not numbered)."""

from __future__ import annotations

from manda.ingest.parsers.folios import folios_apart


def _report(last_lines: list[str]) -> list[str]:
    return [f"Harbour Lines plc annual report\nSome prose about ferries.\n{line}"
            for line in last_lines]


def test_a_folio_glued_to_the_last_sentence_or_figure_is_put_apart() -> None:
    pages = _report(["Cover", "crossings.1", "2", "and 2022.3", "to $4.154", "routes 5",
                     "additional depreciation6", "7"])
    out = folios_apart(pages)
    assert out[3].endswith("and 2022.\n3")
    assert out[4].endswith("to $4.15\n4")
    assert out[6].endswith("additional depreciation\n6")
    assert out[1].endswith("crossings.\n1")
    # alone on its line or written after a space already: left as it was
    for k in (0, 2, 5, 7):
        assert out[k] == pages[k]


def test_a_number_ending_a_page_is_no_folio_unless_its_neighbours_vouch_for_it() -> None:
    # no page prints a folio in sequence: the figures that end them stay whole
    pages = _report(["a total of 2021.93", "revenue of $1.85", "8.0%.17", "in 2019"])
    assert folios_apart(pages) == pages
    # the folios run on but one page's figure does not end with its folio: that page is kept
    pages = _report(["fares.11", "12", "a margin of 8.4%", "14", "15"])
    assert folios_apart(pages) == [*_report(["fares.\n11"]), *pages[1:]]
