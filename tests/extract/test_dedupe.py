"""One name per person and organisation; placeholders are not entities."""

from __future__ import annotations

import pytest

from manda.ingest.extract.dedupe import (
    EntityResolver,
    canonical_entity,
    is_placeholder,
    merge_person_findings,
    same_organisation,
    same_person,
    unify_entities,
)
from manda.models import Confidence, Finding, FindingKind, Location


def person(name: str, role: str, *, document: str = "d1", where: str = "p.1",
           confidence: float = 0.6) -> Finding:
    return Finding(
        id=Finding.make_id("deal", document, where, f"person:{canonical_entity(name, 'person')}",
                           None, None),
        deal_id="deal",
        document_id=document,
        kind=FindingKind.PERSON,
        subject=f"person:{canonical_entity(name, 'person')}",
        label=f"{name} — {role}" if role else name,
        entity=name,
        attributes={"role": role},
        excerpt=f"{name} — {role}. " * 3,
        location=Location.for_page(int(where.removeprefix("p."))),
        confidence=confidence,
        confidence_level=Confidence.from_score(confidence),
    )


def test_same_person_across_spellings() -> None:
    assert same_person("Thomas Mueller", "Thomas Müller")
    assert same_person("Dr. Thomas Müller", "thomas müller")
    assert same_person("T. Müller", "Thomas Müller")
    assert same_person("Thomas Muller", "Thomas Mueller")
    assert not same_person("Anna Schmidt", "Anne Schmidt")
    assert not same_person("Thomas Müller", "Lena Fischer")


def test_same_organisation_ignores_legal_form() -> None:
    assert same_organisation("Globex AG", "Globex")
    assert same_organisation("GLOBEX Corp.", "Globex AG")
    assert same_organisation("Initech Holdings Ltd", "Initech")
    assert not same_organisation("Globex AG", "Initech GmbH")


def test_canonical_entity_is_a_stable_key() -> None:
    assert canonical_entity("Dr. Thomas Müller", "person") == "thomas mueller"
    assert canonical_entity("Thomas Mueller", "person") == "thomas mueller"
    assert canonical_entity("Globex AG", "organisation") == "globex"
    assert canonical_entity("Vertex Distribution GmbH") == "vertex distribution"


@pytest.mark.parametrize(
    "name",
    ["the company", "The Company", "Management", "the Target", "the seller", "N/A", "TBD", "",
     "  ", None, "—"],
)
def test_placeholders(name: str | None) -> None:
    assert is_placeholder(name)


@pytest.mark.parametrize(
    "name", ["Globex AG", "Thomas Müller", "ESOP pool", "Nordic Growth Fund II"]
)
def test_real_names_are_not_placeholders(name: str) -> None:
    assert not is_placeholder(name)


def test_resolver_prefers_the_complete_spelling() -> None:
    resolver = EntityResolver("person")
    resolver.add("Thomas Mueller")
    resolver.add("Thomas Müller")
    assert resolver.resolve("thomas mueller") == "Thomas Müller"
    assert resolver.resolve("Lena Fischer") == "Lena Fischer"


def test_duplicate_people_merge_into_the_one_with_a_role() -> None:
    findings = [
        person("Thomas Mueller", "", document="minutes", where="p.2", confidence=0.4),
        person("Thomas Müller", "Chief Financial Officer", document="bios", where="p.1"),
        person("Lena Fischer", "CTO", document="bios", where="p.3"),
    ]
    merged = merge_person_findings(findings)
    assert len(merged) == 2
    thomas = next(f for f in merged if f.subject == "person:thomas mueller")
    assert thomas.attributes["role"] == "Chief Financial Officer"
    assert thomas.entity == "Thomas Müller"
    assert thomas.attributes["also_in"] == "minutes@p.2"
    assert {f.entity for f in merged} == {"Thomas Müller", "Lena Fischer"}


def test_other_roles_are_kept_when_people_merge() -> None:
    merged = merge_person_findings([
        person("Anna Schmidt", "Chief Executive Officer", where="p.1", confidence=0.7),
        person("Anna Schmidt", "Founder", where="p.2", confidence=0.5),
    ])
    assert len(merged) == 1
    assert merged[0].attributes["role"] == "Chief Executive Officer"
    assert merged[0].attributes["other_roles"] == "Founder"


def test_unify_entities_gives_organisations_one_spelling() -> None:
    base = person("Thomas Müller", "CFO")
    contract = base.model_copy(update={
        "id": "f_contract", "kind": FindingKind.CONTRACT, "subject": "contract:globex",
        "entity": "Globex", "attributes": {},
    })
    customer = base.model_copy(update={
        "id": "f_customer", "kind": FindingKind.CUSTOMER,
        "subject": "customer concentration:globex",
        "entity": "Globex AG", "attributes": {},
    })
    unified = unify_entities([contract, customer])
    assert {f.entity for f in unified} == {"Globex AG"}
