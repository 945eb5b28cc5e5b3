"""A search through documents of some roles is said in the question's language, by each role's
name in it ("comptes audités"), never by its key ("audited_statements")."""

from __future__ import annotations

import pytest

from manda.agent.evidence import SearchNote
from manda.models import DocumentRole
from manda.vocabulary import vocabulary


@pytest.mark.parametrize(("language", "said"), [
    ("en", "the room's audited statements, management bios"),
    ("fr", "les documents de type comptes audités, biographies des dirigeants"),
    ("de", "Dokumente vom Typ geprüfter Abschluss, Lebensläufe des Managements"),
    ("es", "los documentos de tipo cuentas auditadas, biografías de la dirección"),
])
def test_searched_roles_are_said_by_their_names_in_the_language(language: str, said: str
                                                                 ) -> None:
    note = SearchNote("searched_roles", roles=("audited_statements", "management_bios"))
    assert note.said_in(language) == said
    assert "_" not in note.said_in(language)


def test_a_role_the_language_does_not_name_is_said_in_english() -> None:
    words = vocabulary()
    assert words.role_label(DocumentRole.THREAD_NOTE, "de") == DocumentRole.THREAD_NOTE.label
    assert "_" not in words.role_label(DocumentRole.THREAD_NOTE, "de")
