"""The deal vocabulary as data: the cue syntax, the files agreeing with each other, and one table
of topics read by red flags, topic answers and the tools alike."""

from __future__ import annotations

import pytest

from manda.agent.redflags import SEVERITY
from manda.agent.topics import SHAPES, shape_for
from manda.agent.unusual import TOPICS
from manda.finance.amounts import find_amounts, parse_number, scale_from_text
from manda.finance.vocabulary import canonical_subject, line_item_of
from manda.models import DocumentRole
from manda.vocabulary import cues, topic, topics, vocabulary
from manda.vocabulary.load import _check, _parse
from manda.vocabulary.model import LanguageFile, LineItemTable, TopicTable


@pytest.mark.parametrize(("phrase", "text", "found"), [
    ("change of control", "a change-of-control clause", "change-of-control"),
    ("litigat*", "pending litigation", "litigation"),
    ("claim|claims against", "two claims against the company", "claims against"),
    ("[the] board of directors", "the board of directors met", "the board of directors"),
    ("[the] board of directors", "board of directors", "board of directors"),
    ("depend* on ~ customer*", "depends on a few large customers",
     "depends on a few large customers"),
    ("#% of [total] revenue", "accounts for 23.5% of total revenue", "23.5% of total revenue"),
    ("auditor's report", "the auditor’s report", "auditor’s report"),
    ("management !accounts|report", "the management team", "management"),
])
def test_a_cue_phrase_matches_whole_words_in_its_variants(phrase: str, text: str,
                                                         found: str) -> None:
    m = cues([phrase]).search(text)
    assert m is not None and m.group(0) == found


@pytest.mark.parametrize(("phrase", "text"), [
    ("management !accounts|report", "the management accounts"),
    ("claim", "reclaimed VAT"),  # whole words only
    ("tax", "taxonomy"),
    ("depend* on ~ customer*", "depends on it. Customers"),  # not across a sentence
])
def test_a_cue_phrase_does_not_match_inside_other_words(phrase: str, text: str) -> None:
    assert cues([phrase]).search(text) is None


def test_every_topic_has_its_english_words_and_valid_roles() -> None:
    for t in topics():
        assert t.label and t.query and t.question, t.key
        assert all(isinstance(r, DocumentRole) for r in t.roles)
        if t.is_red_flag:
            assert t.stated, f"red-flag topic {t.key} states nothing"


def test_the_issue_topics_are_in_the_table() -> None:
    keys = {t.key for t in topics()}
    assert {"litigation", "employment_claims", "change_of_control", "customer_concentration",
            "supplier_concentration", "covenants", "debt", "key_people", "ownership",
            "management", "working_capital", "one_time_items", "tax", "environment",
            "data_protection", "ip_and_open_source", "insurance", "leases", "related_parties",
            "revenue_recognition"} <= keys


def test_red_flags_topic_answers_and_tools_read_the_same_table() -> None:
    flagged = {t.key for t in topics() if t.is_red_flag}
    assert {t.key for t in TOPICS} == flagged
    assert flagged <= set(SEVERITY)
    assert SEVERITY[0] == "litigation"  # what can kill a deal comes first
    assert {t.key for t in SHAPES} == {t.key for t in topics() if t.composer}


def test_a_claim_in_other_words_is_litigation_wherever_it_is_read() -> None:
    """The issue's own sentence: no "seeks damages", no "filed a claim"."""
    sentence = ("A former distributor claims EUR 2.3M in damages for early termination of its "
                "distribution agreement.")
    assert topic("litigation").stated.found(sentence)


def test_questions_about_new_topics_find_their_topic() -> None:
    assert shape_for("Was there a GDPR incident?") is topic("data_protection")
    assert shape_for("Do they use any AGPL components?") is topic("ip_and_open_source")
    assert shape_for("Any open employment tribunal claims?") is topic("employment_claims")


def test_line_items_are_read_in_every_language_of_the_files() -> None:
    assert canonical_subject("Umsatzerlöse") == "revenue"
    assert canonical_subject("Net sales") == "revenue"
    assert canonical_subject("Consolidated Total Debt less unrestricted cash") == "net debt"


def test_a_language_file_naming_an_unknown_topic_is_refused_with_its_file() -> None:
    v = vocabulary()
    table = _parse(TopicTable, "topics.yaml")
    items = _parse(LineItemTable, "line_items.yaml")
    bad = LanguageFile(code="xx", name="Test", topics={"litigaton": {}})
    with pytest.raises(ValueError, match=r"languages/xx\.yaml.*litigaton"):
        _check(table, items, {"en": v.languages["en"], "xx": bad})


def test_a_named_cue_set_missing_from_english_is_an_error() -> None:
    with pytest.raises(KeyError, match=r"en\.yaml"):
        vocabulary().cues("no such cue set")


@pytest.mark.parametrize(("label", "subject"), [
    ("Trade debtors", "trade receivables"),
    ("Créances clients", "trade receivables"),
    ("Forderungen aus Lieferungen und Leistungen", "trade receivables"),
    ("Creditors: trade and other payables", "trade payables"),
    ("Stocks", "inventory"),
])
def test_a_statement_line_is_known_in_every_language_and_is_no_metric(label: str,
                                                                      subject: str) -> None:
    item = line_item_of(label)
    assert item is not None and item.subject == subject and not item.metric
    # the longest wording wins: "créances clients" is no customer count
    assert canonical_subject(label) is None


def test_stock_options_are_no_inventory() -> None:
    assert line_item_of("Stock options") is None


@pytest.mark.parametrize(("text", "value", "currency"), [
    ("Le chiffre d'affaires s'établit à 12 345 K€", 12_345_000, "EUR"),
    ("EBE de 2 468,3 K€", 2_468_300, "EUR"),
    ("1,2 Md€", 1_200_000_000, "EUR"),
    ("3,4 millions d'euros", 3_400_000, "EUR"),
    ("4.620 TEUR", 4_620_000, "EUR"),
    ("12,5 Tsd. €", 12_500, "EUR"),
    ("EUR 2.3M", 2_300_000, "EUR"),
])
def test_amounts_are_read_with_every_language_s_units(text: str, value: float,
                                                      currency: str) -> None:
    [amount] = find_amounts(text)
    assert amount.value == value and amount.currency == currency
    assert text.endswith(amount.text)


def test_space_grouped_thousands_join_only_beside_a_unit() -> None:
    assert [a.value for a in find_amounts("in Q3 2024 5 200")] == [5, 200]
    assert parse_number("12 345") == 12_345 and parse_number("2024 2023") is None


@pytest.mark.parametrize(("line", "scale"), [
    ("(en milliers d'euros)", 1e3), ("en K€", 1e3), ("Montants en millions d'euros", 1e6),
    ("Angaben in Tausend EUR", 1e3), ("(in millions, except per share data)", 1e6),
])
def test_a_unit_line_s_scale_is_read_in_every_language(line: str, scale: float) -> None:
    assert scale_from_text(line) == scale


def test_an_accounting_standard_s_number_is_a_reference_not_an_amount() -> None:
    assert [a.text for a in find_amounts("IFRS 15 — US$28.8m")] == ["US$28.8m"]
    assert [a.text for a in find_amounts("under ASC 606 revenue of $5M")] == ["$5M"]


def test_every_document_role_is_one_row_of_the_classification() -> None:
    from manda.vocabulary.load import _check_roles
    from manda.vocabulary.model import RoleTable

    kinds = vocabulary().role_specs
    assert set(kinds) == set(DocumentRole)
    worth = {role: kinds[role].authority for role in kinds}
    assert (worth[DocumentRole.AUDITED_STATEMENTS] > worth[DocumentRole.MANAGEMENT_ACCOUNTS]
            > worth[DocumentRole.PRESENTATION] > worth[DocumentRole.BOARD_MINUTES]
            > worth[DocumentRole.IRL])
    assert kinds[DocumentRole.IRL].request_list and kinds[DocumentRole.BUDGET_FORECAST].forecast
    # every language's role words name a signal roles.yaml weighs
    table = _parse(RoleTable, "roles.yaml")
    bad = LanguageFile(code="xx", name="Test", document_roles={
        "cap_table": {"signals": {"holders": ["actionnaire"]}}})
    with pytest.raises(ValueError, match=r"languages/xx\.yaml.*cap_table.*holders"):
        _check_roles(table, {"en": vocabulary().languages["en"], "xx": bad})


def test_french_documents_are_named_by_their_roles_words() -> None:
    kinds = vocabulary().role_specs
    requested = {role for role, k in kinds.items()
                 if k.requested.found("Table de capitalisation à jour")}
    assert requested == {DocumentRole.CAP_TABLE}
    assert kinds[DocumentRole.AUDITED_STATEMENTS].requested.found("Comptes annuels 2024")
    assert kinds[DocumentRole.MANAGEMENT_ACCOUNTS].requested.found("Monatliche BWA")


def test_an_event_kind_of_no_events_row_is_refused_with_its_file() -> None:
    from manda.vocabulary.load import _events
    from manda.vocabulary.model import EventTable

    v = vocabulary()
    bad = LanguageFile(code="xx", name="Test", events={"claim fild": ["déposée"]})
    with pytest.raises(ValueError, match=r"languages/xx\.yaml.*claim fild"):
        _events(_parse(EventTable, "events.yaml"), v.topics,
                {"en": v.languages["en"], "xx": bad})


def test_optional_words_are_read_together_and_a_broken_bracket_is_refused() -> None:
    """'[une participation de]' is those words together or none (never a word alone); a
    bracket that does not close, or opens inside another, cannot be read and is refused."""
    from manda.vocabulary.cues import check_phrase

    check_phrase("[the] board of directors")
    check_phrase("détient [une participation de] #%")
    holds = cues(["détient [une participation de] #%"])
    assert holds.found("détient une participation de 12 %") is False  # "# %" is another cue
    assert holds.found("détient une participation de 12%") and holds.found("détient 12%")
    assert not holds.found("détient participation 12%")
    for broken in ("détient [une participation", "détient [une [participation]]"):
        with pytest.raises(ValueError, match=r"one pair of brackets"):
            check_phrase(broken)


def test_a_claim_under_a_litigation_heading_is_a_red_flag_whatever_its_words() -> None:
    """The issue's case: no cue word in the sentence, the heading says what it is about."""
    from manda.agent.evidence import Evidence
    from manda.agent.unusual import scan
    from manda.models import Location, SearchHit

    text = ("A former reseller alleges breach of its agreement and wants USD 1.8M for the "
            "early termination. The matter was filed in March 2025 and is pending.")
    hit = SearchHit(chunk_id="c1", document_id="d1", document="Legal summary.docx",
                    location=Location.for_section("Litigation"), text=text, score=1.0,
                    heading_path=("Legal due diligence", "Litigation"))
    items = scan(Evidence(documents={}, hits=[hit]))
    assert [i.topic.key for i in items] == ["litigation"]
    assert items[0].statement.startswith("A former reseller alleges")
    # the same sentence under another heading is no red flag
    elsewhere = hit.model_copy(update={"heading_path": ("Commercial", "Resellers")})
    assert scan(Evidence(documents={}, hits=[elsewhere])) == []


def test_a_label_names_its_metric_outside_its_gloss() -> None:
    from manda.finance.vocabulary import canonical_subject

    assert canonical_subject("Taux d'EBE (EBE / chiffre d'affaires)") == "ebitda margin"
    assert canonical_subject("Excédent brut d'exploitation (EBE)") == "ebitda"
    assert canonical_subject("Effectif moyen de l'exercice") == "average headcount"
    assert canonical_subject("La plantilla media del ejercicio") == "average headcount"
    assert canonical_subject("Effectif fin de mois (ETP)") == "headcount"


def test_a_key_written_twice_in_a_vocabulary_file_is_refused() -> None:
    """YAML keeps the last of two equal keys silently: two branches each adding `year_end_lead`
    to en.yaml lost one's words. The loader refuses, naming the key and both lines."""
    import yaml

    from manda.vocabulary.load import _LOADER

    text = "cues:\n  year_end_lead: [a]\n  other: [b]\n  year_end_lead: [c]\n"
    with pytest.raises(yaml.YAMLError, match=r"'year_end_lead' is written twice \(first at line 2"):
        yaml.load(text, Loader=_LOADER)
    assert yaml.load("cues:\n  a: [x]\nanswers:\n  a: y\n", Loader=_LOADER) == {
        "cues": {"a": ["x"]}, "answers": {"a": "y"}}  # the same key in two mappings is fine


def test_an_abbreviation_joined_by_an_ampersand_is_no_word_of_a_language() -> None:
    v = vocabulary()
    # the "d" of "R&D" is not the French "d'": a terse English question stays English
    assert v.language_of("Northbeam R&D expense 2025?") == "en"
    assert v.language_of("M&A spend in 2025?") == "en"
    assert v.language_of("Quel est le chiffre d'affaires ?") == "fr"
    assert v.language_of("Quelles sont les dépenses de R&D en 2025 ?") == "fr"


def test_a_line_item_is_named_in_a_language_by_a_plain_wording_never_a_cue() -> None:
    v = vocabulary()
    for code in v.languages:
        for subject in v.languages[code].line_items:
            name = v.subject_name(subject, code)
            assert not any(c in name for c in "!|[]*"), (code, subject, name)
