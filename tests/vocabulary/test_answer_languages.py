"""Each language answers in its own words: every sentence the offline composer frames is given
by each language file, a computed metric and its statement lines are named in the language
asked, what was searched is said in it, and a citation marker opens with its word and is still
read. The statement lines computed metrics read, and line items in the plural, are vocabulary
data in every language. The questions, tables and figures are invented for the tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from manda.agent.compose.common import Ask, searched_phrase
from manda.agent.compose.computed import answer as computed_answer
from manda.agent.evidence import Evidence, SearchHit, SearchNote
from manda.agent.frame import read_question
from manda.agent.grounding import find_markers, footnoted, in_language
from manda.finance.derived import LINE_ITEMS, line_item_of
from manda.finance.vocabulary import canonical_subject, find_line_items
from manda.models import Document, DocumentStatus, Location
from manda.vocabulary import vocabulary

LANGUAGES = ("en", "de", "fr", "es")

# a wording that is the same in a language by design: a bare value, a figure after its name
_SAME_BY_DESIGN = {"period_column", "ranking_size_item", "searched_topic", "covenants_heading",
                   "source_one", "source_many", "day", "span_runner_up", "topic_heading"}

_VALUES = {"count": 4, "searched": "S", "why": "W", "sentence": "X", "cite": "(source: a.pdf, p.2)",
           "ref": "1.2", "document": "Plan.pdf", "kind": "board minutes", "text": "T",
           "item": "Net sales", "figure": "€4.2m", "when": "in 2024", "period": "2024",
           "column": "2024", "year": 2024, "month": "March", "month_lower": "march",
           "end_year": 2025, "day": "31 March 2025", "metric": "M", "result": "12%", "note": "N",
           "working": "A − B", "names": "A − B", "terms": "1 − 2", "unit": "", "part": "P",
           "total": "Q", "change": "+3.0%", "prior": "€3.9m", "ranked": "1. A; 2. B",
           "listed": "L", "first": "A", "last": "B", "role": "CFO", "since": "2021",
           "what": "CFO", "charge": "€0.4m", "days": 41, "query": "Umsatz", "roles": "legal",
           "label": "litigation", "subjects": "revenue", "subject": "revenue", "name": "Acme",
           "topic": "litigation", "items": "Alder; Birch", "line": "net sales",
           "segment": "Marine", "missing": "gross profit", "found": "F", "new": "€4.2m",
           "old": "€3.9m", "new_period": "in 2025", "old_period": "in 2024", "delta": "€0.3m",
           "segments": "Marine, Europe", "amount": "€2.4m", "schedule": "the schedule",
           "caption": "C", "rows": "2026 1,250; 2027 2,400", "times": "1.16",
           "holder": "Kestrel Partners LLP"}


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_sentence_the_composer_frames_is_given_by_each_language(language: str) -> None:
    words = vocabulary()
    english = words.languages["en"].answers
    own = words.languages[language].answers
    assert sorted(set(english) - set(own)) == []
    same = [key for key in english if key not in _SAME_BY_DESIGN
            and words.answer(key, language, **_VALUES) == words.answer(key, "en", **_VALUES)]
    assert same == []


DOC = Document(id="d1", deal_id="d", filename="Jahresabschluss.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2025, 3, 31),
               fiscal_year_end="--12-31")

# an invented cash flow statement of a year ending 31 December
CASH_FLOW = "\n".join([
    "CONSOLIDATED STATEMENT OF CASH FLOWS", "(In thousands)", "Year ended",
    "December 31,2024 | December 31,2023",
    "Net cash provided by operating activities | December 31,2024: 8,420 | "
    "December 31,2023: 7,150",
    "Purchases of property and equipment | December 31,2024: (2,310) | "
    "December 31,2023: (1,980)"])


def _evidence(*texts: str) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(7 + i), score=1.0)
            for i, text in enumerate(texts)]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


def _asked_in(language: str, question: str) -> Ask:
    """The question's frame, answered in `language` (a computed metric is asked by its English
    name in any language's question)."""
    frame = read_question(question)
    return Ask.of(replace(frame, language=language))


@pytest.mark.parametrize(("language", "lead", "names"), [
    ("en", "Free cash flow was", "operating cash flow − capital expenditures"),
    ("de", "Free Cashflow betrug",
     "Cashflow aus laufender Geschäftstätigkeit − Investitionen in Sachanlagen"),
    ("fr", "Flux de trésorerie disponible s'élevait à",
     "flux de trésorerie liés à l'activité − investissements corporels"),
    ("es", "Flujo de caja libre fue de", "flujo de caja de explotación − inversiones en "
                                         "inmovilizado")])
def test_a_computed_metric_and_its_lines_are_named_in_the_language_asked(
        language: str, lead: str, names: str) -> None:
    draft = computed_answer(_asked_in(language, "What was free cash flow in 2024?"),
                            _evidence(CASH_FLOW))
    assert draft is not None
    first, working = draft.text.splitlines()[:2]
    assert first.startswith(lead), first
    assert f"= {names} = 8,420 − 2,310 = 6,110" in working, working
    note = vocabulary().answer("computed_note", language)
    assert f"({note})" in first
    if language != "en":
        assert "computed here" not in draft.text and "Working:" not in draft.text


@pytest.mark.parametrize(("language", "said"), [
    ("en", "findings on revenue for FY2024"), ("de", "Befunde zu Umsatzerlöse für FY2024"),
    ("fr", "les données sur chiffre d'affaires pour FY2024"),
    ("es", "los datos sobre cifra de negocios para FY2024")])
def test_what_was_searched_is_said_in_the_language_asked(language: str, said: str) -> None:
    evidence = _evidence("Nothing here.")
    evidence.note_search("searched_findings_for", subjects=("revenue",), period="FY2024")
    note = evidence.searched[0]
    assert isinstance(note, SearchNote) and note == "findings on revenue for FY2024"
    phrase = searched_phrase(evidence, _asked_in(language, "What was revenue in 2024?"))
    assert said in phrase
    assert phrase.startswith(vocabulary().answer("searched_room", language, count=1))


@pytest.mark.parametrize(("language", "one", "many"), [
    ("en", "(source: ", "(sources: "), ("de", "(Quelle: ", "(Quellen: "),
    ("fr", "(source: ", "(sources: "), ("es", "(fuente: ", "(fuentes: ")])
def test_a_marker_opens_with_the_languages_word_and_is_still_read(
        language: str, one: str, many: str) -> None:
    text = in_language("Umsatz 4,2 Mio. € (source: Plan.xlsx, P&L!C4). Beide "
                       "(sources: Plan.xlsx P&L!C4, Jahresabschluss.pdf p.7).", language)
    assert one in text and many in text
    body, notes = footnoted(text, ["Plan.xlsx", "Jahresabschluss.pdf"])
    assert body == "Umsatz 4,2 Mio. € [1]. Beide [1][2]."
    assert notes == [("Plan.xlsx", "P&L!C4"), ("Jahresabschluss.pdf", "p.7")]
    assert len(find_markers(text, _evidence("x"))) == 2


@pytest.mark.parametrize(("label", "line"), [
    ("Net cash provided by operating activities", "operating cash flow"),
    ("Cashflow aus laufender Geschäftstätigkeit", "operating cash flow"),
    ("Flux de trésorerie liés aux activités opérationnelles", "operating cash flow"),
    ("Flujos de efectivo de las actividades de explotación", "operating cash flow"),
    ("Purchases of property, plant and equipment", "capex"),
    ("Auszahlungen für Investitionen in das Sachanlagevermögen", "capex"),
    ("Acquisitions d'immobilisations corporelles", "capex"),
    ("Adquisiciones de inmovilizado material", "capex"),
    ("Total current liabilities", "current liabilities"),
    ("Summe kurzfristige Verbindlichkeiten", "current liabilities"),
    ("Total des passifs courants", "current liabilities"),
    ("Total pasivo corriente", "current liabilities")])
def test_a_statement_line_is_read_by_its_label_in_every_language(label: str, line: str) -> None:
    assert line_item_of(label, line)
    assert not line_item_of(label, "revenue")


def test_the_statement_lines_are_the_vocabularys_read_once() -> None:
    assert LINE_ITEMS is vocabulary().statement_lines()
    assert set(LINE_ITEMS) == set(vocabulary().languages["en"].statement_lines)
    for language in LANGUAGES:
        own = vocabulary().languages[language].statement_lines
        assert set(own) == set(LINE_ITEMS), language
        assert all(words.name for words in own.values()), language


@pytest.mark.parametrize(("text", "subject"), [
    ("The two term loans were refinanced in May.", "debt"),
    ("Die Betriebsmittelkreditlinien sind zu 40 % gezogen.", "revolver"),
    ("Les dettes financières ont été refinancées en mai.", "debt"),
    ("Las deudas financieras se refinanciaron en mayo.", "debt")])
def test_a_line_item_named_in_the_plural_is_read_by_its_languages_rule(
        text: str, subject: str) -> None:
    assert [s for s, _, _ in find_line_items(text)] == [subject]
    assert canonical_subject(text) == subject


@pytest.mark.parametrize(("language", "wording", "plural"), [
    ("en", "term loan", "term loans"), ("de", "betriebsmittelkreditlinie",
                                        "betriebsmittelkreditlinien"),
    ("fr", "dette financière", "dettes financières"), ("es", "deuda financiera",
                                                       "deudas financieras")])
def test_a_line_items_wordings_carry_their_plurals_written_out(
        language: str, wording: str, plural: str) -> None:
    synonyms = [s for item in vocabulary().line_items for s in item.synonyms]
    assert wording in synonyms and plural in synonyms
    assert "|" not in plural  # plain wordings: readers that take them as written still can


@pytest.mark.parametrize(("language", "said"), [
    ("en", "findings on person"), ("de", "Befunde zu Personen"),
    ("fr", "les données sur les personnes"), ("es", "los datos sobre personas")])
def test_a_subject_no_topic_names_is_said_by_its_own_wording(language: str, said: str) -> None:
    assert SearchNote("searched_findings", subjects=("person",)).said_in(language) == said


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_topic_heading_is_labelled_in_each_language(language: str) -> None:
    words = vocabulary()
    same = {"covenants", "working_capital"}  # the deal team's loanwords
    english = [t.key for t in words.topics
               if t.key not in same and t.label_in(language) == t.label_in("en")]
    assert english == []
    heading = words.answer("topic_in_documents", language,
                           label=words.topic("litigation").label_in(language))
    assert heading.startswith(words.topic("litigation").label_in(language))
    assert heading != words.answer("topic_in_documents", "en", label="Litigation")
