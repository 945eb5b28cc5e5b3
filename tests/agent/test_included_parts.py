"""A figure its subject includes is the part's, and a retail calendar's fiscal year ends in the
January after the year it is named by (issue 25). "Our cash and cash equivalents balance
includes short-term investments of $4.6 billion" had answered a question for cash; "cash at the
end of fiscal 2025" of a grocer whose years end in late January had been read at the end of
January 2025. The documents and figures are invented."""

from __future__ import annotations

import pytest

from manda.agent.evidence import Evidence
from manda.agent.selection import balance_date, findings_for, read_fact
from manda.finance.label_heads import an_included_part
from manda.finance.vocabulary import find_line_items
from manda.models import Confidence, Document, Finding, FindingKind, Location

GROCER = Document(id="d_ar", deal_id="d", filename="Brindle_Annual.pdf", content_hash="h",
                  file_type="pdf", size_bytes=1, version_family="ar", fiscal_year_end="--02-01")


def _cash(fid: str, value: float, value_text: str, excerpt: str, period: str) -> Finding:
    return Finding(id=fid, deal_id="d", document_id=GROCER.id, kind=FindingKind.METRIC,
                   subject="cash", label="Cash", period=period, value=value,
                   value_text=value_text, excerpt=excerpt, location=Location.for_page(30),
                   confidence=0.8, confidence_level=Confidence.HIGH)


@pytest.mark.parametrize(("sentence", "amount", "part"), [
    ("Our cash and cash equivalents balance includes\nmoney market funds of $2.1 billion.",
     "$2.1", True),
    ("Operating income for 2025 includes charges of $310 million for store closures.",
     "$310", True),
    ("Das Betriebsergebnis enthält Aufwendungen von 2,5 Mio. € für Abfindungen.", "2,5", True),
    ("Le résultat d'exploitation comprend des charges de 2,5 M€.", "2,5", True),
    ("Revenue, which includes services revenue, was $4.1 billion.", "$4.1", False),
    ("Cash and cash equivalents were $3.2 billion at year end.", "$3.2", False),
    ("Net loss including non-controlling interests | 2025: (570)", "(570)", False),
])
def test_a_figure_after_what_its_subject_includes_is_the_parts(sentence: str, amount: str,
                                                               part: bool) -> None:
    at = sentence.find(amount)
    end = [e for _, _, e in find_line_items(sentence) if e <= at][-1]
    assert an_included_part(sentence, end, at) is part


def test_a_part_of_the_cash_balance_is_no_cash_finding() -> None:
    evidence = Evidence(documents={GROCER.id: GROCER})
    part = _cash("f_part", 2.1e9, "$2.1 billion",
                 "Our cash and cash equivalents balance includes\nmoney market funds of "
                 "$2.1 billion and $1.8 billion as of January 31, 2026, and February 1, 2025.",
                 "as of 2026-01-31")
    whole = _cash("f_whole", 3.2e9, "$3,210", "Cash and cash equivalents | January 31, 2026: "
                  "$3,210 | February 1, 2025: $2,904", "as of 2026-01-31")
    evidence.add_findings([part, whole])
    assert [f.id for f in findings_for(evidence, "cash")] == ["f_whole"]


def test_a_retail_fiscal_years_balance_is_at_the_january_after_it() -> None:
    evidence = Evidence(documents={GROCER.id: GROCER})
    assert balance_date("cash", "FY2025", evidence) == "as of 2026-02-01"
    evidence.add_findings([
        _cash("f_2025", 3.21e9, "$3,210", "Cash and cash equivalents | January 31, 2026: "
              "$3,210 | February 1, 2025: $2,904", "as of 2026-01-31"),
        _cash("f_2024", 2.904e9, "$2,904", "Cash and cash equivalents | January 31, 2026: "
              "$3,210 | February 1, 2025: $2,904", "as of 2025-02-01")])
    reading = read_fact(evidence, "cash", "FY2025")
    assert reading is not None and reading.primary.id == "f_2025"
    calendar = Document(id="d_cal", deal_id="d", filename="Summit_Annual.pdf", content_hash="c",
                        file_type="pdf", size_bytes=1, version_family="c",
                        fiscal_year_end="--12-31")
    assert balance_date("cash", "FY2025", Evidence(documents={calendar.id: calendar})) == \
        "as of 2025-12-31"


def test_a_part_named_by_no_word_is_the_subjects_own_figure() -> None:
    """"A revolving credit facility of £1.5m, of which £0.5m was drawn": nothing between "of
    which" and the figure names another thing, so £0.5m is the facility's drawn amount, not a
    part it includes (the Pennine room's drawn revolver had lost its finding)."""
    from manda.finance.label_heads import an_included_part

    text = "The group has a revolving credit facility of £1.5m, of which £0.5m was drawn."
    subject_end = text.index(" of £1.5m")
    assert not an_included_part(text, subject_end, text.index("£0.5m"))
    text = "Our cash and cash equivalents balance includes short-term investments of $4.6 billion."
    assert an_included_part(text, text.index(" balance"), text.index("$4.6"))


def test_a_finding_whose_figure_is_another_nouns_is_not_the_line_items() -> None:
    """Whoever extracted it (Claude's extractor, an older home), a finding whose sentence gives
    its figure to another noun ("our liabilities for unpaid claims were …", "a reduction in cash
    of …") does not answer for the line item; the row beside it does."""
    evidence = Evidence(documents={GROCER.id: GROCER})
    liabilities = _cash("f_liab", 1.4e9, "$1.4 billion",
                        "As of January 31, 2026, our liabilities for cash held for customers "
                        "were $1.4 billion.", "as of 2026-01-31")
    change = _cash("f_change", 6e8, "$600 million",
                   "Buybacks led to a reduction in cash of $600 million during 2025.",
                   "as of 2026-01-31")
    whole = _cash("f_whole", 3.2e9, "$3,210", "Cash and cash equivalents | January 31, 2026: "
                  "$3,210 | February 1, 2025: $2,904", "as of 2026-01-31")
    evidence.add_findings([liabilities, change, whole])
    assert [f.id for f in findings_for(evidence, "cash")] == ["f_whole"]
