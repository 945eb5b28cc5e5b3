"""Corrections, conflicts and confirmations between findings of different documents."""

from __future__ import annotations

from datetime import date

from manda.ingest.relations import plan_relations
from manda.models import (
    Confidence,
    Document,
    Finding,
    FindingKind,
    Location,
    Nature,
    RelationType,
)

DEAL = "falcon"


def doc(name: str) -> Document:
    return Document(
        id=f"d_{name}",
        deal_id=DEAL,
        filename=name,
        content_hash=name,
        file_type="pdf",
        size_bytes=1,
        version_family=name,
        doc_date=date(2024, 10, 1),
    )


def finding(
    document: Document,
    subject: str,
    period: str,
    value: float,
    *,
    nature: Nature = Nature.ACTUAL,
    entity: str | None = None,
) -> Finding:
    return Finding(
        id=f"f_{document.filename}_{subject}_{period}_{value}",
        deal_id=DEAL,
        document_id=document.id,
        kind=FindingKind.METRIC,
        subject=subject,
        label=subject.title(),
        period=period,
        value=value,
        unit="EUR",
        value_text=f"€{value / 1e6:.1f}M",
        entity=entity,
        nature=nature,
        excerpt=f"{subject} for {period} was €{value / 1e6:.1f}M" + "." * 40,
        location=Location.for_page(1),
        confidence=0.9,
        confidence_level=Confidence.HIGH,
    )


def kinds(plan, type_: RelationType) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [
        (r.source_id, r.target_id)
        for r in plan.relations
        if r.type is type_ and r.between == "finding"
    ]


def test_corrected_version_supersedes_the_original_finding() -> None:
    original, corrected = doc("AR_2023.pdf"), doc("AR_2023_CORRECTED.pdf")
    old = finding(original, "ebitda", "FY2023", 3_100_000)
    new = finding(corrected, "ebitda", "FY2023", 2_900_000)
    plan = plan_relations([original, corrected], [old, new])
    assert kinds(plan, RelationType.SUPERSEDES) == [(new.id, old.id)]
    assert plan.superseded == {old.id}
    assert kinds(plan, RelationType.CONTRADICTS) == []
    reason = next(r.reason for r in plan.relations if r.between == "finding")
    assert "corrected from €3.1M to €2.9M" in reason
    doc_edges = [(r.source_id, r.target_id) for r in plan.relations if r.between == "document"]
    assert doc_edges == [(corrected.id, original.id)]


def test_same_period_different_values_without_supersedes_contradict() -> None:
    report, deck = doc("Q3_Report.pdf"), doc("Management_Presentation.pptx")
    audited = finding(report, "revenue", "Q3 2024", 5_200_000)
    claimed = finding(deck, "revenue", "Q3 2024", 5_000_000)
    plan = plan_relations([report, deck], [audited, claimed])
    assert len(kinds(plan, RelationType.CONTRADICTS)) == 1
    assert plan.superseded == set()


def test_different_periods_are_never_conflicts() -> None:
    q2, q3 = doc("Q2.pdf"), doc("Q3.pdf")
    plan = plan_relations(
        [q2, q3],
        [
            finding(q2, "revenue", "Q2 2024", 4_900_000),
            finding(q3, "revenue", "Q3 2024", 5_200_000),
        ],
    )
    assert plan.relations == []


def test_forecast_is_not_in_conflict_with_actual() -> None:
    budget, actuals = doc("Budget.xlsx"), doc("Q3.pdf")
    plan = plan_relations(
        [budget, actuals],
        [
            finding(budget, "revenue", "Q3 2024", 5_500_000, nature=Nature.FORECAST),
            finding(actuals, "revenue", "Q3 2024", 5_200_000),
        ],
    )
    assert kinds(plan, RelationType.CONTRADICTS) == []


def test_rounding_differences_support_rather_than_contradict() -> None:
    pdf, xlsx = doc("Q3.pdf"), doc("Financials.xlsx")
    plan = plan_relations(
        [pdf, xlsx],
        [
            finding(pdf, "revenue", "Q3 2024", 5_200_000),
            finding(xlsx, "revenue", "Q3 2024", 5_201_000),
        ],
    )
    assert len(kinds(plan, RelationType.SUPPORTS)) == 1
    assert kinds(plan, RelationType.CONTRADICTS) == []


def test_superseded_findings_take_no_part_in_conflicts() -> None:
    original, corrected, model = doc("AR.pdf"), doc("AR_CORRECTED.pdf"), doc("Model.xlsx")
    old = finding(original, "ebitda", "FY2023", 3_100_000)
    new = finding(corrected, "ebitda", "FY2023", 2_900_000)
    in_model = finding(model, "ebitda", "FY2023", 2_900_000)
    plan = plan_relations([original, corrected, model], [old, new, in_model])
    assert kinds(plan, RelationType.CONTRADICTS) == []
    assert (in_model.id, new.id) in kinds(plan, RelationType.SUPPORTS) or (
        new.id,
        in_model.id,
    ) in kinds(plan, RelationType.SUPPORTS)


def test_version_chain_is_followed_in_order() -> None:
    v1, v2, v3 = doc("Fc.xlsx"), doc("Fc_v2.xlsx"), doc("Fc_v3.xlsx")
    f1, f2, f3 = (
        finding(d, "revenue", "FY2025", v) for d, v in ((v1, 24e6), (v2, 22.5e6), (v3, 23e6))
    )
    plan = plan_relations([v3, v1, v2], [f3, f1, f2])
    assert plan.superseded == {f1.id, f2.id}
    assert (f3.id, f1.id) in kinds(plan, RelationType.SUPERSEDES)


def test_entities_keep_facts_apart() -> None:
    a, b = doc("Customers.xlsx"), doc("Deck.pptx")
    plan = plan_relations(
        [a, b],
        [
            finding(a, "customer_share", "FY2024", 38, entity="Globex AG"),
            finding(b, "customer_share", "FY2024", 14, entity="Initech"),
        ],
    )
    assert plan.relations == []


def test_many_restatements_stay_linear_and_every_outlier_is_flagged() -> None:
    docs = [doc(f"Board_pack_{i:02d}.pdf") for i in range(40)]
    outlier_doc = doc("Teaser.pdf")
    same = [finding(d, "revenue", "Q3 2024", 5_200_000) for d in docs]
    outlier = finding(outlier_doc, "revenue", "Q3 2024", 5_000_000)
    plan = plan_relations([*docs, outlier_doc], [*same, outlier])
    supports = kinds(plan, RelationType.SUPPORTS)
    conflicts = kinds(plan, RelationType.CONTRADICTS)
    assert len(supports) == 39  # each restatement confirms one anchor, not all 780 pairs
    assert len(conflicts) == 40  # every restatement is in conflict with the outlier
    assert all(outlier.id in pair for pair in conflicts)


def test_two_table_rows_naming_different_line_items_never_conflict() -> None:
    accounts, qoe = doc("Annual_Report.pdf"), doc("QoE.pdf")
    loans = finding(accounts, "debt", "as of 2024-03-31", -5_000_000)
    term = finding(qoe, "debt", "as of 2024-03-31", -4_500_000)
    loans.attributes["row"] = "Bank loans and overdrafts"
    term.attributes["row"] = "Term loan (Aire Valley Bank plc)"
    assert kinds(plan_relations([accounts, qoe], [loans, term]), RelationType.CONTRADICTS) == []
    same = finding(qoe, "debt", "as of 2024-03-31", -4_400_000)
    same.attributes["row"] = "Total bank loans and overdrafts"  # "total" names the same line
    assert len(kinds(plan_relations([accounts, qoe], [loans, same]),
                     RelationType.CONTRADICTS)) == 1


def test_only_findings_of_two_versions_are_paired_as_the_all_pairs_rule_would() -> None:
    from itertools import combinations

    from manda.ingest.relations import _superseded_documents, _version_pairs, _versions_of

    family = [doc("Forecast.xlsx"), doc("Forecast_v2.xlsx"), doc("Forecast_v3.xlsx")]
    others = [doc(f"Board_pack_{i:02d}.pdf") for i in range(6)]
    members = [
        finding(d, "revenue", "FY2025", 22e6 + n * 1e5)
        for n, d in enumerate([others[0], family[2], *others[1:4], family[0], others[4], family[1]])
    ]
    plan = plan_relations([*family, *others], members)
    replaces = _superseded_documents(r for r in plan.relations if r.between == "document")

    def versions(a: Finding, b: Finding) -> bool:
        return a.document_id != b.document_id and (
            b.document_id in replaces.get(a.document_id, set())
            or a.document_id in replaces.get(b.document_id, set())
        )

    every_pair = [(a.id, b.id) for a, b in combinations(members, 2) if versions(a, b)]
    visited = [(a.id, b.id) for a, b in _version_pairs(members, _versions_of(replaces))]
    assert visited == every_pair and len(visited) == 3  # v1-v2, v1-v3, v2-v3, in that order
    assert plan.superseded == {members[5].id, members[7].id}  # v1 and v2 give way to v3


def test_a_balance_bracketed_as_a_deduction_is_the_same_balance() -> None:
    accounts, bridge = doc("Accounts.pdf"), doc("QoE_bridge.pdf")
    plan = plan_relations([accounts, bridge], [
        finding(accounts, "cash", "as of 2025-06-30", 3_150_000),
        finding(bridge, "cash", "as of 2025-06-30", -3_150_000),  # "(3,150)" deducted
        finding(accounts, "net debt", "as of 2025-06-30", 2_000_000),
        finding(bridge, "net debt", "as of 2025-06-30", -2_000_000),  # a net figure's sign counts
    ])
    [supports] = kinds(plan, RelationType.SUPPORTS)
    assert all("_cash_" in finding_id for finding_id in supports)
    assert len(kinds(plan, RelationType.CONTRADICTS)) == 1
