"""The last word lists of a language that lived in code, read from the language files once: each
reads one case in English as before, and one in French, German and Spanish."""

from __future__ import annotations

from datetime import date

import pytest

from manda.agent import conform, constraints, kinds, selection, validate
from manda.agent.compose import computed, ranking
from manda.agent.relevance import PERIOD_FORMS, content_terms, question_terms
from manda.agent.spans import rows as span_rows
from manda.finance.amounts import find_amounts
from manda.finance.dates import find_date_mentions
from manda.finance.facilities import facility_roles
from manda.finance.figures import read_figure, statement_scale
from manda.finance.fiscal import FiscalYearEnd, month_range_period, year_end_statements
from manda.finance.growth import growth_basis
from manda.finance.periods import parse_period
from manda.ingest.extract import offline
from manda.ingest.extract.candidates import says_forecast
from manda.ingest.extract.dedupe import canonical_entity
from manda.ingest.parsers import base, detect_document_date
from manda.ingest.parsers.layout import without_column_headers
from manda.models import Location, ParsedDocument, Section


@pytest.mark.parametrize(("header", "period"), [
    ("2024 £m", "FY2024"), ("FY24 ($000)", "FY2024"), ("2023 (in millions)", "FY2023"),
    ("Ist 2024 TEUR", "FY2024"), ("2024 in Mio. €", "FY2024"),
    ("2024 (en K€)", "FY2024"), ("2023 en milliers", "FY2023"),
    ("2024 (en miles)", "FY2024"), ("2025 en millones", "FY2025")])
def test_a_column_header_s_unit_beside_its_year(header: str, period: str) -> None:
    assert parse_period(header) == period


def test_a_word_ending_on_a_unit_is_no_unit() -> None:
    assert parse_period("2024 Am") is None  # "m" ends a word here: no "2024 A" in £m


@pytest.mark.parametrize(("one", "several"), [
    ("An overdraft of £5.0m at 31 March 2024.", "Overdrafts of £5.0m at 31 March 2024."),
    ("Eine Kreditlinie von EUR 5,0 Mio. zum 31.12.2023.",
     "Kreditlinien von EUR 5,0 Mio. zum 31.12.2023."),
    ("Un découvert bancaire de 5,0 M€ au 31 décembre 2023.",
     "Découverts bancaires de 5,0 M€ au 31 décembre 2023."),
    ("Un descubierto de 5,0 millones de euros al 31 de diciembre de 2023.",
     "Descubiertos de 5,0 millones de euros al 31 de diciembre de 2023.")])
def test_a_facility_named_in_the_plural_is_a_balance_of_several(one: str, several: str) -> None:
    def roles(text: str) -> list[str]:
        return [f.role.value for f in facility_roles(text, 0, len(text), find_amounts(text))]
    assert roles(one) == ["facility limit"]  # one facility, sized
    assert roles(several) == []  # several facilities' balance: no one facility's size


@pytest.mark.parametrize(("caption", "flow"), [
    ("Consolidated Statements of Operations (in millions) Years Ended December 31,", True),
    ("Consolidated Balance Sheets (in millions) December 31,", False),
    ("Gewinn- und Verlustrechnung für die Zeit vom 1. Januar bis 31. Dezember 2023", True),
    ("Compte de résultat de l'exercice clos le 30 septembre 2024", True),
    ("Cuenta de pérdidas y ganancias del ejercicio terminado el 31 de diciembre de 2023", True),
    ("Balance al 31 de diciembre de 2023", False)])
def test_a_caption_says_its_figures_run_over_a_period(caption: str, flow: bool) -> None:
    assert span_rows._FLOW.found(caption) is flow


@pytest.mark.parametrize(("question", "when"), [
    ("What was annual revenue?", "annual"),
    ("Wie hoch war der Umsatz im Geschäftsjahr?", "Geschäftsjahr"),
    ("Quel est le chiffre d'affaires annuel ?", "annuel"),
    ("¿Cuál fue la cifra de negocios del ejercicio?", "ejercicio")])
def test_a_word_that_says_when_is_no_word_of_what_is_asked(question: str, when: str) -> None:
    (stem,) = content_terms(when)
    assert stem in content_terms(question)
    assert stem in PERIOD_FORMS
    assert not set(content_terms(question.replace(when, ""))) & PERIOD_FORMS


def test_a_quarter_asked_for_is_what_is_asked() -> None:
    (quarter,) = content_terms("quarter")
    assert quarter in content_terms("Which quarter is seasonally strongest?")
    assert quarter not in PERIOD_FORMS


@pytest.mark.parametrize(("question", "fiscal"), [
    ("What was revenue in fiscal 2024?", "fiscal"),
    ("Wie hoch war der Umsatz im Geschäftsjahr 2024?", "Geschäftsjahr"),
    ("Quel est le chiffre d'affaires pour exercice 2024 ?", "exercice"),
    ("¿Cuál fue la cifra de negocios del ejercicio 2024?", "ejercicio")])
def test_a_fiscal_year_s_word_beside_its_year_says_when(question: str, fiscal: str) -> None:
    (stem,) = content_terms(fiscal)
    assert stem in question_terms(question).when


@pytest.mark.parametrize(("label", "total"), [
    ("Total net sales", True), ("Consolidated", True), ("Net sales", True), ("Services", False),
    ("Summe", True), ("Konzern", True), ("Region Nord", False),
    ("Sous-total", True), ("Chiffre d'affaires", True), ("Services numériques", False),
    ("Total general", True), ("Consolidado", True), ("Importe neto de la cifra de negocios", True),
    ("Península Ibérica", False)])
def test_a_ranking_leaves_out_its_table_s_totals(label: str, total: bool) -> None:
    assert ranking.a_total(label) is total


@pytest.mark.parametrize(("line", "unit"), [
    ("CONSOLIDATED STATEMENTS OF OPERATIONS (In millions, except per share amounts)",
     "In millions, except per share amounts"),
    ("Konzernbilanz (in Tausend EUR)", "in Tausend EUR"),
    ("Compte de résultat (en milliers d'euros)", "en milliers d'euros"),
    ("Cuenta de pérdidas y ganancias (en miles de euros)", "en miles de euros"),
    ("Income statement 2024", "")])
def test_a_computed_figure_names_its_statement_s_unit(line: str, unit: str) -> None:
    assert computed.unit_words(line) == unit


@pytest.mark.parametrize("text", ["a team of 120 full-time employees", "45 Mitarbeiter",
                                  "186 salariés", "30 empleados"])
def test_a_number_of_people_is_a_headcount(text: str) -> None:
    (amount,) = find_amounts(text)
    assert (amount.unit, amount.currency) == ("people", None)


@pytest.mark.parametrize(("value", "with_unit"), [
    ("€5.2M", True), ("120 employees", True), ("5,200", False), ("4.620 TEUR", True),
    ("45 Mitarbeiter", True), ("186 salariés", True), ("1 234", False), ("30 empleados", True)])
def test_a_value_written_with_its_unit_leads(value: str, with_unit: bool) -> None:
    assert selection._with_unit(value) is with_unit


@pytest.mark.parametrize(("line", "caveat"), [
    ("The March report was later restated.", True), ("Revenue rose in the year.", False),
    ("Der Wert weicht vom Budget ab.", True), ("Ce chiffre est contradictoire avec le reporting.",
                                                True),
    ("Es una previsión, no un dato real.", True)])
def test_a_line_that_qualifies_an_answer_s_lead(line: str, caveat: bool) -> None:
    assert conform._CAVEAT.found(line) is caveat


@pytest.mark.parametrize(("excerpt", "correction"), [
    ("Q4 revenue was misstated as EUR 3.1 million.", True), ("Revenue was EUR 3.1 million.", False),
    ("Das EBITDA wurde berichtigt und beträgt 4,2 Mio. EUR.", True),
    ("Le chiffre d'affaires précédemment publié était de 12,4 M€.", True),
    ("La cifra de negocios fue reexpresada a 8,1 millones de euros.", True)])
def test_a_sentence_that_reports_a_correction(excerpt: str, correction: bool) -> None:
    assert selection._CORRECTION_TEXT.found(excerpt) is correction


@pytest.mark.parametrize(("line", "preamble"), [
    ("Here is what the documents say:", True), ("Revenue was €5.2M in FY2024.", False),
    ("Hier ist die Antwort:", True), ("Voici ce que disent les documents :", True),
    ("He buscado en los 8 documentos.", True), ("La cifra de negocios fue 8,1 M€.", False)])
def test_a_line_that_talks_about_the_answer_before_giving_it(line: str, preamble: bool) -> None:
    assert validate._META.begins(line) is preamble


@pytest.mark.parametrize(("said", "not_met"), [
    ("Only one document states this figure.", True), ("Three documents state it.", False),
    ("Nur ein Dokument nennt diese Zahl.", True), ("Une seule source donne ce chiffre.", True),
    ("Ninguna de las cuentas auditadas recoge esta cifra.", True)])
def test_an_answer_that_says_a_constraint_is_not_met(said: str, not_met: bool) -> None:
    assert constraints._CANNOT.found(said) is not_met


@pytest.mark.parametrize(("sentence", "cause"), [
    ("Operating expenses increased 21% driven by investments in Azure.", "driven by"),
    ("Der Umsatz stieg aufgrund höherer Preise.", "aufgrund"),
    ("Le chiffre d'affaires progresse en raison de la hausse des volumes.", "en raison de"),
    ("Las ventas crecieron debido al aumento de precios.", "debido al")])
def test_the_words_that_give_a_cause(sentence: str, cause: str) -> None:
    found = kinds._CAUSAL.search(sentence)
    assert found is not None and found.group(0) == cause


@pytest.mark.parametrize(("name", "key"), [
    ("Prof. Dr. Anna Weber", "anna weber"), ("Herr Dipl.-Ing. Hans Bauer", "hans bauer"),
    ("Mme Claire Vasseur", "claire vasseur"), ("Sra. Marta Ibáñez", "marta ibanez"),
    ("Drake Smith", "drake smith")])
def test_a_person_s_titles_are_no_part_of_their_name(name: str, key: str) -> None:
    assert canonical_entity(name, "person") == key


@pytest.mark.parametrize(("sentence", "forecast"), [
    ("FY25 budget revenue of £12.0m.", True), ("Revenue came in ahead of plan at £5.0m.", False),
    ("The Target achieved revenue of £5.0m.", False), ("Revenue target of £5.0m.", True),
    ("Prognose 2025: Umsatz 12,0 Mio. EUR.", True),
    ("Der Umsatz lag mit 5,0 Mio. EUR besser als Plan.", False),
    ("Chiffre d'affaires prévisionnel 2026 : 14,0 M€.", True),
    ("Le chiffre d'affaires est supérieur au budget, à 5,0 M€.", False),
    ("Presupuesto 2026: cifra de negocios de 14,0 millones de euros.", True),
    ("Las ventas fueron superiores al presupuesto, con 5,0 millones de euros.", False)])
def test_a_sentence_that_speaks_about_the_future(sentence: str, forecast: bool) -> None:
    assert says_forecast(sentence) is forecast


@pytest.mark.parametrize(("line", "caption"), [
    ("Revenue Actual Budget Var.", "Revenue"), ("(millions) 2025 2024", "(millions)"),
    ("Umsatz Ist Plan Vorjahr", "Umsatz"), ("Chiffre d'affaires Réel Budget N-1",
                                            "Chiffre d'affaires"),
    ("Ventas Real Presupuesto", "Ventas"), ("Net sales by region", "Net sales by region")])
def test_a_caption_line_without_its_column_headers(line: str, caption: str) -> None:
    assert without_column_headers(line) == caption


@pytest.mark.parametrize(("opening", "day"), [
    ("Customer list 31 March 2025. Dated: 18 April 2025", date(2025, 4, 18)),
    ("Kundenliste 31. März 2025. Stand: 18.04.2025", date(2025, 4, 18)),
    ("Liste des clients 31 mars 2025. En date du 18 avril 2025", date(2025, 4, 18)),
    ("Lista de clientes 31 de marzo de 2025. Fecha: 18 de abril de 2025", date(2025, 4, 18)),
    ("Customer list 31 March 2025. Reviewed 18 April 2025", date(2025, 3, 31))])
def test_a_labelled_date_is_the_document_s_own(opening: str, day: date) -> None:
    parsed = ParsedDocument(filename="x.txt", file_type="txt", units=1,
                            sections=[Section(text=opening, location=Location.for_page(1))])
    assert detect_document_date(parsed) == day


@pytest.mark.parametrize(("line", "caption"), [
    ("(dollars in millions) 2025 2024 2023", "(dollars in millions)"),
    ("(in Tausend EUR) 2025 2024", "(in Tausend EUR)"),
    ("(en milliers d'euros) 2025 2024", "(en milliers d'euros)"),
    ("(en miles de euros) 2025 2024", "(en miles de euros)"),
    ("2025 2024", "")])
def test_a_statement_s_line_of_years_keeps_its_unit_caption(line: str, caption: str) -> None:
    header = base._statement_header(line)
    assert header is not None and header[0] == caption


def test_a_bracket_naming_no_unit_is_no_caption() -> None:
    assert base._statement_header("(Note 3) 2025 2024") is None


@pytest.mark.parametrize(("opening", "scale"), [
    ("Management report\nAll amounts in USD thousands unless otherwise stated\nOverview", 1e3),
    ("Lagebericht\nAlle Angaben in TEUR\nÜberblick", 1e3),
    ("Rapport de gestion\nMontants exprimés en milliers d'euros\nSynthèse", 1e3),
    ("Informe de gestión\nImportes expresados en miles de euros\nResumen", 1e3),
    ("Management report\nRevenue grew in the year\nOverview", 1.0)])
def test_a_document_s_own_unit_statement(opening: str, scale: float) -> None:
    parsed = ParsedDocument(filename="x.txt", file_type="txt", units=1,
                            sections=[Section(text=opening, location=Location.for_page(1))])
    assert offline._stated_scale(parsed) == scale


@pytest.mark.parametrize(("sentence", "period", "basis"), [
    ("Revenue grew 12% year-on-year.", "Q3 2024", "yoy"),
    ("Revenue rose 5% compared with Q2 2024.", "Q3 2024", "pop"),
    ("Der Umsatz stieg um 8 % gegenüber dem Vorjahr.", "FY2024", "yoy"),
    ("Der Umsatz stieg um 3 % gegenüber dem Vorquartal.", "Q3 2024", "pop"),
    ("Le chiffre d'affaires progresse de 8 % sur un an.", "FY2024", "yoy"),
    ("Le chiffre d'affaires progresse de 3 % par rapport au trimestre précédent.", "Q3 2024",
     "pop"),
    ("Las ventas crecieron un 8 % interanual.", "FY2024", "yoy"),
    ("Las ventas crecieron un 3 % frente al Q2 2024.", "Q3 2024", "pop"),
    ("Revenue grew 12%.", "FY2024", "")])
def test_what_a_growth_rate_compares_against(sentence: str, period: str, basis: str) -> None:
    assert growth_basis(sentence, period) == basis


@pytest.mark.parametrize(("caption", "factor", "excepted"), [
    ("(In millions, except per share data)", 1e6, True), ("(dollars in thousands)", 1e3, False),
    ("(in Millionen EUR, außer Angaben je Aktie)", 1e6, True),
    ("(en millions d'euros, sauf données par action)", 1e6, True),
    ("(en millones de euros, excepto datos por acción)", 1e6, True)])
def test_a_statement_s_unit_caption_and_its_per_share_rows(caption: str, factor: float,
                                                           excepted: bool) -> None:
    scale = statement_scale([caption])
    assert (scale.factor, scale.per_share_excepted) == (factor, excepted)
    for label in ("Diluted EPS", "Ergebnis je Aktie", "Résultat par action",
                  "Beneficio por acción"):
        if excepted:
            figure = read_figure("2.45", "2024", label, scale)
            assert figure is not None and figure.value == 2.45  # as written


@pytest.mark.parametrize("label", ["Employees", "Mitarbeiter", "Effectifs", "Empleados"])
def test_a_row_that_counts_has_no_currency(label: str) -> None:
    figure = read_figure("1,200", "2024", label, statement_scale(["(in EUR thousands)"]))
    assert figure is not None and figure.unit is None


@pytest.mark.parametrize(("text", "start", "end"), [
    ("early December 2023", date(2023, 12, 1), date(2023, 12, 10)),
    ("Anfang März 2024", date(2024, 3, 1), date(2024, 3, 10)),
    ("mi-2023", date(2023, 5, 1), date(2023, 8, 31)),
    ("a finales de 2024", date(2024, 9, 1), date(2024, 12, 31)),
    ("since 2015", date(2015, 1, 1), date(2015, 12, 31)),
    ("seit 2015", date(2015, 1, 1), date(2015, 12, 31)),
    ("depuis 2015", date(2015, 1, 1), date(2015, 12, 31)),
    ("desde 2015", date(2015, 1, 1), date(2015, 12, 31))])
def test_a_part_of_a_month_or_year_and_a_year_that_dates(text: str, start: date,
                                                          end: date) -> None:
    (mention,) = find_date_mentions(text)
    assert (mention.span.start, mention.span.end) == (start, end)


def test_a_bare_number_like_a_year_is_no_date() -> None:
    assert find_date_mentions("Revenue was 2015 units.") == []


@pytest.mark.parametrize(("text", "period"), [
    ("Apr–Jun 2024", "Q2 2024"), ("April through June 2024", "Q2 2024"),
    ("April bis Juni 2024", "Q2 2024"), ("avril à juin 2024", "Q2 2024"),
    ("abril a junio 2024", "Q2 2024")])
def test_a_span_of_months_is_a_period(text: str, period: str) -> None:
    assert month_range_period(text) == period


@pytest.mark.parametrize("text", [
    "Q1 FY25 covers July to September 2024", "Q1 FY25 umfasst Juli bis September 2024",
    "Q1 FY25 couvre juillet à septembre 2024", "Q1 FY25 cubre julio a septiembre 2024"])
def test_a_first_quarter_s_months_state_the_year_end(text: str) -> None:
    assert year_end_statements(text) == [FiscalYearEnd(6, 30)]
