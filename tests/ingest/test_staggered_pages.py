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
