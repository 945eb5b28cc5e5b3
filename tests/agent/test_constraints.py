"""Instructions in a question become constraints: parsed once, carried in the thread, checked."""

from __future__ import annotations

from datetime import date

import pytest

from manda.agent.conform import as_table, in_one_sentence, in_units
from manda.agent.constraints import (
    Admission,
    CitedFacts,
    ConstraintKind,
    Constraints,
    admissible,
    check_constraints,
    evaluate_constraints,
    parse_constraints,
)
from manda.agent.evidence import Evidence
from manda.models import Document, DocumentRole, Finding, Location, Nature, SearchHit

K = ConstraintKind


@pytest.mark.parametrize(
    ("question", "kind", "cleaned"),
    [
        ("Quote the exact change-of-control clause in the supply agreement.", K.QUOTE_EXACT,
         "change-of-control clause in the supply agreement"),
        ("What does the lease say about break options? Please quote it.", K.QUOTE_EXACT,
         "What does the lease say about break options?"),
        ("What was FY2023 EBITDA? Use at least two sources.", K.MIN_SOURCES,
         "What was FY2023 EBITDA?"),
        ("Net sales for fiscal 2024, only from audited documents?", K.AUTHORITATIVE_ONLY,
         "Net sales for fiscal 2024?"),
        ("Show revenue by quarter in a table", K.TABLE, "Show revenue by quarter"),
        ("In one sentence, who owns the company?", K.ONE_SENTENCE, "who owns the company?"),
        ("What was net debt as of June 30, 2024?", K.AS_OF, "What was net debt?"),
        ("What is FY2025 EBITDA, excluding forecasts?", K.EXCLUDE_FORECASTS,
         "What is FY2025 EBITDA?"),
        ("What was FY2023 revenue in £ millions?", K.UNITS, "What was FY2023 revenue?"),
    ],
)
def test_each_instruction_is_parsed_and_taken_out_of_the_search(
    question: str, kind: ConstraintKind, cleaned: str
) -> None:
    text, constraints, reset = parse_constraints(question)
    assert [c.kind for c in constraints.items] == [kind]
    assert text == cleaned and not reset


def test_values_are_read_and_look_alikes_are_not_constraints() -> None:
    _, c, _ = parse_constraints("Use three sources, as of 30 June 2024, in EUR thousands")
    assert c.get(K.MIN_SOURCES).count == 3
    assert c.get(K.AS_OF).as_of == date(2024, 6, 30)
    assert (c.get(K.UNITS).currency, c.get(K.UNITS).scale) == ("EUR", 1e3)
    for question in ("What is the quote on slide 3?", "What did the company do in one year?",
                     "Is there a table of contents?", "Which sources of revenue are recurring?"):
        assert not parse_constraints(question)[1], question


def test_constraints_hold_across_follow_ups_until_changed_or_dropped() -> None:
    _, first, _ = parse_constraints("Revenue in Q3 2024 in a table, only from audited documents")
    _, second, _ = parse_constraints("And EBITDA, in one sentence?")
    carried = first.then(second)
    assert {c.kind for c in carried.items} == {K.TABLE, K.AUTHORITATIVE_ONLY, K.ONE_SENTENCE}
    _, none, reset = parse_constraints("Ignore the earlier constraints. What about Q2?")
    assert reset and not carried.then(none, reset=True)
    assert Constraints.from_json(carried.to_json()) == Constraints(items=carried.items)


def _doc(name: str, *, role: DocumentRole = DocumentRole.OTHER, authoritative: bool = False,
         doc_date: date | None = None) -> Document:
    return Document(id=name, deal_id="d", filename=name, content_hash=name, file_type="pdf",
                    size_bytes=1, version_family=name, role=role, authoritative=authoritative,
                    doc_date=doc_date)


def test_the_gate_names_each_broken_constraint() -> None:
    _, c, _ = parse_constraints(
        "Quote the exact clause, use at least two sources, answer in a table, in € millions")
    deck = _doc("Deck.pptx")
    text = "Revenue was €5,200k (source: Deck.pptx, slide 2)."
    errors = check_constraints(text, c, CitedFacts(documents=[deck], excerpts=["Revenue €5.2M"]))
    assert len(errors) == 4
    assert any("at least 2 sources" in e for e in errors)
    assert any("table" in e for e in errors) and any("millions" in e for e in errors)


def test_an_answer_that_meets_them_or_says_why_it_cannot_passes() -> None:
    _, c, _ = parse_constraints("Quote the exact clause and use at least two sources")
    contract = _doc("MSA.pdf", authoritative=True)
    excerpt = "Globex AG may terminate the agreement on a change of control of the Company."
    quoted = f'The clause reads: "{excerpt}" (source: MSA.pdf, p.4).'
    facts = CitedFacts(documents=[contract], excerpts=[excerpt])
    errors = check_constraints(quoted, c, facts)
    assert len(errors) == 1 and "at least 2 sources" in errors[0]
    disclosed = quoted + " Only one document states this clause: at least 2 sources cannot be met."
    assert check_constraints(disclosed, c, facts) == []


def test_admissibility_follows_authority_date_and_forecasts() -> None:
    _, c, _ = parse_constraints("only from audited documents, as of 31 March 2024, no forecasts")
    audited = _doc("AFS_2023.pdf", role=DocumentRole.AUDITED_STATEMENTS, doc_date=date(2024, 3, 1))
    later = _doc("AFS_2024.pdf", role=DocumentRole.AUDITED_STATEMENTS, doc_date=date(2025, 3, 1))
    budget = _doc("Budget.xlsx", role=DocumentRole.BUDGET_FORECAST, authoritative=True)
    flash = _doc("Flash.pdf", doc_date=date(2024, 2, 1))
    # "as of" is the position at that date: the later audited accounts still state it
    assert [d.filename for d in (audited, later, budget, flash) if admissible(d, c)] == [
        "AFS_2023.pdf", "AFS_2024.pdf"]


# ---------------------------------------------------------------- admission, gate and forms


def _finding(doc: Document, subject: str, period: str, value: float, *,
             nature: Nature = Nature.ACTUAL) -> Finding:
    return Finding(id=f"f-{doc.id}-{period}", deal_id="d", document_id=doc.id, kind="metric",
                   subject=subject, label=subject.title(), period=period, value=value,
                   unit="EUR", value_text=None, nature=nature, doc_date=doc.doc_date,
                   excerpt=f"{subject} {value}", location=Location.for_page(1),
                   confidence=0.9, confidence_level="HIGH")


def test_admission_gives_its_reason_per_document_and_finding() -> None:
    _, strict, _ = parse_constraints("only audited documents")
    _, final, _ = parse_constraints("only final documents")
    accounts = _doc("Q3_Report.pdf", role=DocumentRole.MANAGEMENT_ACCOUNTS, authoritative=True)
    assert Admission(strict).document_reason(accounts) == "not audited"
    assert Admission(final).document_reason(accounts) is None  # final management accounts
    _, c, _ = parse_constraints("as of 30 June 2024, excluding forecasts")
    annual = _doc("AR.pdf", role=DocumentRole.AUDITED_STATEMENTS, doc_date=date(2024, 3, 1))
    admission = Admission(c)
    outlook = _finding(annual, "revenue", "FY2025", 24e6, nature=Nature.FORECAST)
    q3 = _finding(annual, "revenue", "Q3 2024", 5.2e6)
    q1 = _finding(annual, "revenue", "Q1 2024", 4.6e6)
    assert admission.finding_reason(outlook, annual) == "forecast figures"
    assert admission.finding_reason(q3, annual) == "figures for periods ending after 30 June 2024"
    assert admission.finding_reason(q1, annual) is None
    later = _doc("Budget.xlsx", role=DocumentRole.MANAGEMENT_ACCOUNTS, doc_date=date(2024, 9, 1))
    revised = _finding(later, "revenue", "FY2025", 22e6, nature=Nature.FORECAST)
    _, as_of, _ = parse_constraints("as at 30 June 2024")
    assert Admission(as_of).finding_reason(revised, later) == "forecasts made after 30 June 2024"
    assert not parse_constraints("What happened on 14 May 2024?")[1]  # a date, not a cut-off


def test_evidence_keeps_out_what_is_not_admitted_and_remembers_why() -> None:
    _, c, _ = parse_constraints("only final documents")
    deck = _doc("Deck.pptx", role=DocumentRole.PRESENTATION)
    report = _doc("Q3.pdf", role=DocumentRole.MANAGEMENT_ACCOUNTS, authoritative=True)
    evidence = Evidence(documents={d.id: d for d in (deck, report)}, admission=Admission(c))
    hits = [SearchHit(chunk_id=f"c-{d.id}", document_id=d.id, document=d.filename,
                      location=Location.for_page(1), text="Revenue €5.2M", score=1.0)
            for d in (deck, report)]
    assert [h.document for h in evidence.add_hits(hits)] == ["Q3.pdf"]
    evidence.add_findings([_finding(deck, "revenue", "Q3 2024", 5e6),
                           _finding(report, "revenue", "Q3 2024", 5.2e6)])
    assert [f.document_id for f in evidence.findings.values()] == ["Q3.pdf"]
    assert {(e.document, e.reason) for e in evidence.excluded} == {
        ("Deck.pptx", "neither audited nor final")}


def test_the_gate_tells_broken_from_disclosed_and_reads_notes_apart() -> None:
    _, c, _ = parse_constraints("In one sentence, using at least two sources")
    doc = _doc("Q3.pdf")
    answer = "Revenue was €5.2M in Q3 2024 (source: Q3.pdf, p.1)."
    noted = answer + "\n\n_Not met — at least 2 sources: only one document states it (Q3.pdf)._"
    facts = CitedFacts(documents=[doc])
    broken = {x.constraint.kind: x for x in evaluate_constraints(answer, c, facts)}
    assert broken[K.ONE_SENTENCE].met and not broken[K.MIN_SOURCES].met
    assert broken[K.MIN_SOURCES].instruction and not broken[K.MIN_SOURCES].disclosed
    said = {x.constraint.kind: x for x in evaluate_constraints(noted, c, facts)}
    assert said[K.ONE_SENTENCE].met  # the note under the answer is not a second sentence
    assert said[K.MIN_SOURCES].disclosed and not said[K.MIN_SOURCES].instruction
    assert said[K.MIN_SOURCES].reason == "only one document states it (Q3.pdf)"


def test_units_are_restated_outside_quotes_and_sources_never_across_currencies() -> None:
    _, c, _ = parse_constraints("in € thousands")
    units = c.get(K.UNITS)
    text = ("Revenue was €5.2M and EBITDA EUR 1.1 million (source: Q3.pdf, p.1); the deck says "
            "“revenue €5.0M” (source: Deck.pptx, slide 2); Otherco had £7.7M.")
    assert in_units(text, units) == (
        "Revenue was €5,200k and EBITDA €1,100k (source: Q3.pdf, p.1); the deck says "
        "“revenue €5.0M” (source: Deck.pptx, slide 2); Otherco had £7.7M.")
    errors = check_constraints("Otherco had £7.7M.", c, CitedFacts())
    assert errors == ["State every amount in EUR thousands (not £7.7M)."]


def test_one_sentence_keeps_its_caveats_and_a_table_keeps_its_sources() -> None:
    text = ("Revenue was €5.2M in Q3 2024 (sources: Q3.pdf p.1, Fin.xlsx P&L!I5). These sources "
            "conflict: Deck.pptx gives €5.0M (source: Deck.pptx, slide 2). Growth was strong.\n"
            "- Headcount: 156 (source: Q3.pdf, p.1)")
    one = in_one_sentence(text)
    assert one == ("Revenue was €5.2M in Q3 2024 (sources: Q3.pdf p.1, Fin.xlsx P&L!I5); these "
                   "sources conflict: Deck.pptx gives €5.0M (source: Deck.pptx, slide 2).")
    table = as_table(text, Evidence()).splitlines()
    assert table[:2] == ["| Point | Detail |", "|---|---|"]
    assert "| Headcount | 156 (source: Q3.pdf, p.1) |" in table
