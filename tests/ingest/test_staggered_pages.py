"""A staggered table (each row's label at the end of the line above its figures) is re-cut into
rows as the PDF parser reads the page, so the stored passage carries each label with its figures
and retrieval finds "Parcels Shipped" beside its counts. The table is invented, no filing's."""

from __future__ import annotations

from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.ingest.parsers.base import ParseLimits
from manda.ingest.parsers.pdf import parse_pdf

PAGE = "\n".join([
    "Key Operating Metrics",
    "Year Ended December 31,",
    "(In millions, except percentages)",
    "2023 2024 2023 to 2024 %",
    "Change Parcels Shipped",
    "1,204 1,377 14 % Net Revenue",
    "$ 8,410 $ 9,025 7 % Freight Adjusted EBITDA",
    "$ (57) $ 14 125 % See",
    "the notes to these figures for how each measure is defined.",
])


def test_a_staggered_table_is_stored_as_rows_with_their_labels(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "northwind.pdf", [PAGE])
    text = parse_pdf(path, "northwind.pdf", ParseLimits()).sections[0].text
    lines = text.splitlines()
    assert "Parcels Shipped | 2023: 1,204 | 2024: 1,377 | change: 14%" in lines
    assert "Net Revenue | 2023: $8,410 | 2024: $9,025 | change: 7%" in lines
    assert "Freight Adjusted EBITDA | 2023: $(57) | 2024: $14 | change: 125%" in lines
    # the prose after the table reads on as one sentence, and the unit line stays
    assert "See the notes to these figures for how each measure is defined." in lines
    assert "(In millions, except percentages)" in lines
    # nothing is left of the staggered lines
    assert not any(line.endswith("Net Revenue") for line in lines)


def test_a_maturity_schedule_labelled_by_years_under_titles_in_words() -> None:
    """A lease maturity schedule whose text layer writes each row's year at the end of the line
    above ("$ 91 $ 12 2028") under column titles in words ("Operating Leases" / "Finance Leases
    Total Leases 2027"): each year is read with its own figures, each under its column's title."""
    from manda.ingest.parsers.staggered import staggered_text

    text = "\n".join([
        "Future payments under leases were as follows (in thousands):Operating Leases",
        "Finance Leases Total Leases 2027",
        "$ 4,310 $ 912 $ 5,222 2028",
        "3,870 640 4,510 2029",
        "2,050 — 2,050 Thereafter",
        "6,400 — 6,400 Total lease payments",
        "$ 16,630 $ 1,552 $ 18,182 Leases",
        "signed but not yet commenced are not material.",
    ])
    lines = staggered_text(text).split("\n")
    assert "Operating Leases | Finance Leases | Total Leases" in lines, lines
    assert "2027 | Operating Leases: $4,310 | Finance Leases: $912 | Total Leases: $5,222" in lines
    assert "2028 | Operating Leases: 3,870 | Finance Leases: 640 | Total Leases: 4,510" in lines
    assert "2029 | Operating Leases: 2,050 | Finance Leases: — | Total Leases: 2,050" in lines
    assert "Thereafter | Operating Leases: 6,400 | Finance Leases: — | Total Leases: 6,400" in lines
    assert ("Total lease payments | Operating Leases: $16,630 | Finance Leases: $1,552 | "
            "Total Leases: $18,182") in lines, lines


def test_a_roll_forward_of_one_column_whose_labels_come_before_their_figures() -> None:
    """Each label at the end of the line above its one figure, a label running on into the
    next line, a dated balance's date after a figure, the first label glued to the caption's
    colon: each row is written with its own figure, the nil one too."""
    from manda.ingest.parsers.staggered import staggered_text

    text = "\n".join([
        "The changes in deferred revenue were as follows (in thousands):"
        "Balance as of June 30, 2024",
        "$ 41,200 Billings",
        "9,310 Revenue recognized and",
        "other adjustments (7,050) Balance as of June 30, 2025",
        "$ 43,460 Billings",
        "— Revenue recognized and",
        "other adjustments (2,110) Balance as of June 30, 2026",
        "$ 41,350 Deferred revenue is expected",
        "to be recognized within two years.",
    ])
    lines = staggered_text(text).split("\n")
    assert lines[0] == "The changes in deferred revenue were as follows (in thousands):"
    assert "Balance as of June 30, 2024 $41,200" in lines
    assert "Revenue recognized and other adjustments (7,050)" in lines
    assert "Balance as of June 30, 2025 $43,460" in lines
    assert "Billings —" in lines
    assert "Balance as of June 30, 2026 $41,350" in lines
    assert lines[-1] == "Deferred revenue is expected to be recognized within two years."


def test_a_staggered_table_under_titles_in_words_keeps_each_label_with_its_figures() -> None:
    from manda.ingest.parsers.staggered import staggered_text

    text = "\n".join([
        "Option activity (in thousands):Units Outstanding",
        "Balance as of March 31, 2025",
        "2,410 $ 8.15 $ 12,300 Exercised",
        "(610) 7.90 Balance as of March 31, 2026",
        "1,800 $ 8.25 $ 9,950 No options",
        "were granted in the year.",
    ])
    lines = staggered_text(text).split("\n")
    assert "Balance as of March 31, 2025 2,410 $8.15 $12,300" in lines
    assert "Exercised (610) 7.90" in lines
    assert "Balance as of March 31, 2026 1,800 $8.25 $9,950" in lines


def test_rows_that_open_with_their_labels_are_no_staggered_table() -> None:
    """"Jane Roe 58 Chief Financial Officer": a row opening with its label, a figure and words
    after it, is a row of its own, not a figure under the label of the line above."""
    from manda.ingest.parsers.staggered import staggered_text

    text = "\n".join(["Name Age Position",
                      "Jane Roe 58 Chief Financial Officer",
                      "John Moe 61 Chief Operating Officer",
                      "Ann Poe 49 General Counsel",
                      "Ben Loe 55 Chief Technology Officer"])
    assert staggered_text(text) == text
