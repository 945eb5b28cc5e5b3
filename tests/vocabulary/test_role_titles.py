"""Each language's titles of the key roles, in the masculine and the feminine, read as the role
they are: a "Directrice administrative et financière" is the CFO, as a Finance Director is."""

from __future__ import annotations

import pytest

from manda.agent.compose.people import holds_role, missing_key_roles


@pytest.mark.parametrize(("title", "role"), [
    ("Chief Financial Officer", "CFO"), ("Finance Director", "CFO"),
    ("Finanzvorständin", "CFO"), ("Finanzvorstand", "CFO"),
    ("Kaufmännische Geschäftsführerin", "CFO"),
    ("Directrice administrative et financière", "CFO"),
    ("Directeur administratif et financier", "CFO"),
    ("DAF", "CFO"), ("Directrice financière", "CFO"),
    ("Directora financiera", "CFO"), ("Directora de Administración y Finanzas", "CFO"),
    ("Chief Executive Officer", "CEO"), ("Vorstandsvorsitzende", "CEO"),
    ("Geschäftsführerin", "CEO"),
    ("Directrice générale", "CEO"), ("Présidente", "CEO"), ("Consejera delegada", "CEO"),
    ("Presidenta ejecutiva", "CEO"),
    ("Chief Operating Officer", "COO"), ("Directrice des opérations", "COO"),
    ("Directora de operaciones", "COO")])
def test_a_key_role_s_title_in_each_language_and_gender(title: str, role: str) -> None:
    assert holds_role(title, role)


@pytest.mark.parametrize(("title", "role"), [
    ("Head of Sales", "CFO"), ("Directrice commerciale", "CFO"), ("Vertriebsleiterin", "CFO"),
    ("Directora comercial", "CEO")])
def test_another_role_is_not_the_key_role(title: str, role: str) -> None:
    assert not holds_role(title, role)


@pytest.mark.parametrize("cfo", ["Directrice administrative et financière", "Finanzvorständin",
                                 "Directora financiera", "CFO"])
def test_a_team_with_its_cfo_in_any_language_lacks_no_cfo(cfo: str) -> None:
    members = [("Anne Roux", "Directrice générale", [], []), ("Eva Lind", cfo, [], [])]
    assert missing_key_roles(members) == []  # type: ignore[arg-type]

