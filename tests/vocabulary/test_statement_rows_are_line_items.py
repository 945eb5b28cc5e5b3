"""A statement row the computed metrics read is read as the same line item by extraction (one
reading of a label, issue 25): "Payments for acquisition of property, plant and equipment" is
capex to both, in every language the vocabulary gives rows for."""

from __future__ import annotations

from manda.finance.label_heads import label_line_item
from manda.vocabulary import vocabulary


def _owned_elsewhere(row: str, key: str) -> bool:
    """Another line item has the row's words as its own ("gross margin" is the margin's)."""
    return any(row.lower() in (w.lower() for w in item.synonyms)
               for item in vocabulary().line_items if item.subject != key)


def test_every_statement_row_of_a_line_item_reads_as_that_line_item() -> None:
    words = vocabulary()
    subjects = {item.subject for item in words.line_items}
    wrong = []
    for key, rows in words.statement_lines().items():
        if key not in subjects:
            continue
        for row in rows:
            if _owned_elsewhere(row, key):
                continue
            # a row given as the start of a label ("Net cash provided by (used in) operating")
            read = label_line_item(row) or label_line_item(f"{row} activities")
            if read != key:
                wrong.append((key, row, read))
    assert not wrong, wrong


def test_real_statement_labels_of_several_styles() -> None:
    for label, item in [
        ("Payments for acquisition of property, plant and equipment", "capex"),
        ("Additions to property and equipment", "capex"),
        ("Efectivo neto generado por actividades de operación", "operating cash flow"),
        ("Konzernjahresüberschuss", "net income"),
        ("Total des actifs courants", "current assets"),
    ]:
        assert label_line_item(label) == item, label
    assert label_line_item("Gross margin") == "gross margin"
