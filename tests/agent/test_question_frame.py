"""A question is read once, into its frame, in the language it is asked in (English, German or
French): its form words are never subjects or names, its intent and periods are read from each
language's words, and an answer's own wording follows the question's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_spans import _evidence as _passages
from written_room import answer_from

from manda.agent.compose.common import Ask, qa_offer
from manda.agent.frame import read_question
from manda.agent.redflags import RedFlag, lead
from manda.agent.spans import rank_spans
from manda.answers import Intent
from manda.vocabulary import vocabulary


@pytest.mark.parametrize(("question", "language"), [
    ("What was revenue in FY2024?", "en"),
    ("Quel est le chiffre d'affaires ?", "fr"),
    ("Qui est le directeur financier ?", "fr"),
    ("Combien de salariés la société emploie-t-elle ?", "fr"),
    ("Wie hoch war der Umsatz im Geschäftsjahr 2024?", "de"),
    ("Wer sind die Geschäftsführer?", "de"),
    ("EBITDA?", "en"),  # no form word of any language: English, the fallback
])
def test_a_question_s_language_is_read_from_its_words(question: str, language: str) -> None:
    assert read_question(question).language == language


@pytest.mark.parametrize("question", [
    "Quel est le chiffre d'affaires ?", "Quelle est la dette nette ?", "Quels sont les risques ?",
    "Quelles sont les échéances ?", "Qui détient la société ?", "Combien de salariés ?",
    "Comment évolue la marge brute ?", "Pourquoi l'EBE a-t-il baissé ?",
    "Est-ce que la société a des litiges ?", "Où est situé le siège ?",
])
def test_french_question_words_are_never_a_name(question: str) -> None:
    """"Quel est le chiffre d'affaires ?" was read with "Quel" as the company asked about."""
    frame = read_question(question)
    assert frame.entity is None
    assert not {"quel", "quelle", "quels", "quelles", "qui", "combien", "comment", "pourquoi",
                "est", "que", "les", "des"} & set(frame.terms)


def test_a_french_question_names_its_metric_period_and_role() -> None:
    revenue = read_question("Quel était le chiffre d'affaires en 2023 ?")
    assert (revenue.subjects, revenue.periods) == (("revenue",), ("FY2023",))
    assert revenue.one_figure  # "quel était le …": the figure, asked outright
    assert read_question("Qui est le directeur financier ?").asked_role == "directeur financier"
    assert read_question("Et l'EBITDA ?").followup
    assert read_question("L'EBE sur les trois derniers exercices").years_back == (1, 2, 3)
    assert read_question("Et l'année dernière ?").relative == "last_year"
    assert read_question("EBE des 12 derniers mois à fin mars ?").partial_period == "LTM Mar"


@pytest.mark.parametrize(("question", "intent"), [
    ("Comparez le chiffre d'affaires 2023 et 2024", Intent.COMPARISON),
    ("Quel est l'écart entre le budget et le réalisé ?", Intent.COMPARISON),
    ("Faites une synthèse de la situation financière", Intent.SYNTHESIS),
    ("Un résumé du dossier, s'il vous plaît", Intent.SYNTHESIS),
    ("Quels sont les risques ?", Intent.DUE_DILIGENCE),
    ("Quels sont les points d'attention ?", Intent.DUE_DILIGENCE),
    ("Quels documents sont manquants ?", Intent.GAP_IDENTIFICATION),
    ("Qu'est-ce qui est en attente sur la liste de demandes ?", Intent.GAP_IDENTIFICATION),
    ("Détaillez l'évolution de l'EBITDA", Intent.DEEP_DIVE),
    ("Wie war die Entwicklung des Umsatzes?", Intent.DEEP_DIVE),
    ("Welche Risiken gibt es?", Intent.DUE_DILIGENCE),
    ("Umsatz 2023 im Vergleich zu 2024", Intent.COMPARISON),
    ("Quel est le chiffre d'affaires ?", Intent.FACT_LOOKUP),
])
def test_intents_are_read_in_french_and_german(question: str, intent: Intent) -> None:
    frame = read_question(question)
    assert frame.intent is intent, frame.intent_reason


def test_what_a_composer_asks_of_the_question_is_a_field_of_its_frame() -> None:
    """One field for each former `asks_*` helper, in every language that gives its words."""
    assert read_question("Quels sont les retraitements de l'EBITDA ?").adjustments
    assert read_question("Welche Bereinigungen des EBITDA gibt es?").adjustments
    assert read_question("Quand le bail expire-t-il ?").timeline
    assert read_question("Quelle est la date de clôture de l'exercice ?").year_end
    assert read_question("Quelle part du chiffre d'affaires vient du premier client ?").share_of
    pay = read_question("Quel est le salaire de Marie Dupont ?")
    assert pay.pay and pay.entity == "Marie Dupont"
    september = read_question("What did the board discuss in September?")
    assert september.digest and september.month == 9
    assert read_question("Qu'a décidé le conseil en mars ?").month == 3


def test_a_question_s_instructions_are_read_in_its_language() -> None:
    frame = read_question("Quel était le chiffre d'affaires 2023, sous forme de tableau ?")
    assert [c.kind.value for c in frame.constraints.items] == ["table"]
    assert frame.text == "Quel était le chiffre d'affaires 2023?"
    german = read_question("Wie hoch war der Umsatz? Bitte in Tausend EUR.")
    units = german.constraints.items[0]
    assert (units.currency, units.scale) == ("EUR", 1e3)
    assert read_question("Maintenant sous forme de tableau.").only_instructions


def test_the_answer_wording_follows_the_question_s_language() -> None:
    french = Ask.of(read_question("Quel est le chiffre d'affaires ?"))
    assert qa_offer(language=french.language) == "Dois-je ajouter cette question à la liste Q&A ?"
    assert qa_offer(3, "de") == "Soll ich diese 3 Fragen in die Q&A-Liste aufnehmen?"
    assert qa_offer(language="es") == "¿Añado esta pregunta a la lista de Q&A?"
    assert qa_offer(language="nl") == "Shall I add this question to the Q&A list?"  # fallback
    flags = [RedFlag("litigation", "Litigation", "…", "a", headline_amount="EUR 2.3M"),
             RedFlag("customer_concentration", "Customer concentration", "…", "b")]
    assert lead(flags, "fr") == ("**2 signaux d'alerte**, du plus grave au moins grave : un "
                                 "litige (EUR 2.3M) et une concentration clients.")
    assert lead(flags).startswith("**2 red flags**, most serious first: litigation (EUR 2.3M)")


def test_every_language_gives_the_question_words_it_is_detected_by() -> None:
    fr = vocabulary().languages["fr"].cues
    french = {w.lower() for w in (*fr["question_words"], *fr["stop_words"])}
    assert {"quel", "quelle", "quels", "quelles", "qui", "combien", "comment", "quand", "où",
            "pourquoi", "est", "ce", "que", "le", "la", "les", "du", "de", "des"} <= french
    for lang in vocabulary().languages.values():
        assert lang.cues.get("question_words"), f"{lang.code}.yaml gives no question words"


ROOM = {
    "Note_juridique.md": (
        "# Note juridique\n\n## Litiges\n\nUn ancien distributeur réclame 2,3 M€ de dommages et "
        "intérêts devant le tribunal de commerce pour la rupture de son contrat ; la procédure "
        "est en cours.\n\n## Baux\n\nLe siège est loué à Lyon jusqu'en 2029.\n"),
    "Presentation.md": (
        "# Présentation de la société\n\nLa société conçoit des capteurs industriels et les "
        "vend en France et en Allemagne.\n"),
}


async def test_a_french_question_is_answered_in_french_where_the_wording_is_data(
        tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, ROOM, "Quelle est la couverture d'assurance cyber ?")
    assert "J'ai cherché" in answer
    assert "Dois-je ajouter cette question à la liste Q&A ?" in answer
    assert "Shall I add" not in answer and "mentions Quel" not in answer


async def test_a_french_risk_question_leads_with_its_red_flags_in_french(tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, ROOM, "Quels sont les signaux d'alerte ?")
    assert "du plus grave au moins grave" in answer and "un litige" in answer
    assert "2,3 M€" in answer  # the figure as the document writes it


def test_a_search_with_the_question_s_text_takes_the_frame_s_reading() -> None:
    """Retrieval reads a query once, kept by its text: the frame read it first."""
    from manda.retrieval.query import read_query

    frame = read_question("What were revenue and net income in 2023?")
    assert frame.search is read_query(frame.text)
    assert frame.search.sub_queries and {"revenue", "net income"} <= frame.search.subjects


def test_a_ranking_question_says_by_what_it_ranks_and_which_end_leads() -> None:
    """Read once into the frame from the rank_* cue sets (was a regex in the ranking composer)."""
    largest = read_question("Which segment was the largest in 2025?")
    assert (largest.answer_kind, largest.rank_by, largest.top_first) == ("ranking", "size", True)
    worst = read_question("Which category declined the most in fiscal 2025?")
    assert (worst.answer_kind, worst.rank_by, worst.top_first) == ("ranking", "growth", False)
    grew = read_question("Which of the largest segments grew most?")
    assert (grew.rank_by, grew.top_first) == ("growth", True)  # growth spoken of: by growth


@pytest.mark.parametrize("question", [
    "¿Cuál fue el EBITDA de 2025 y su margen?",
    "What was EBITDA and its margin in FY2025?",
    "Quel est l'EBE de l'exercice et le taux d'EBE ?",
])
def test_a_metric_and_its_margin_are_both_asked(question: str) -> None:
    assert read_question(question).subjects[:2] == ("ebitda", "ebitda margin")


def test_a_tax_credit_is_no_credit_facility() -> None:
    assert read_question("Quel est le montant du crédit d'impôt recherche ?").subjects == ()
    assert read_question("Quel est le montant du crédit ?").subjects == ("facility limit",)


@pytest.mark.parametrize("question", [
    "Wer leitet die Kessler GmbH?", "wer leitet das Unternehmen?", "Qui dirige Kessler SAS ?",
    "qui dirige la societe ?", "¿Quién dirige Kessler S.L.?", "Quien dirige la empresa?",
    "Who runs Kessler GmbH?"])
def test_who_runs_the_company_asks_for_its_management_in_any_case_and_accent(
        question: str) -> None:
    frame = read_question(question)
    assert frame.runs_company
    assert frame.topic is not None and frame.topic.key == "management"


def test_an_abbreviation_s_letters_say_no_language() -> None:
    assert read_question("¿Quién dirige Kessler S.L.?").language == "es"  # not French "l'", "s'"


KESSLER = {  # the deal "kessler": its files named by what they are, not by the company
    "Managementpräsentation.md": "# Management\n\n| Name | Funktion |\n|---|---|\n"
    "| Anna Weber | Chief Executive Officer |\n| Tom Berg | Chief Financial Officer |\n",
    "Jahresabschluss 2024.md": "# Kessler Antriebe GmbH: Jahresabschluss 2024\n\nDie "
    "Umsatzerlöse stiegen um 4 %.\n\n## Organe\n\nGeschäftsführerin: Anna Weber\n",
}


@pytest.mark.parametrize("question", [
    "Who runs Kessler Antriebe GmbH?", "Wer leitet die Kessler Antriebe GmbH?",
    "Qui dirige Kessler Antriebe GmbH ?", "¿Quien dirige Kessler Antriebe GmbH?"])
async def test_the_company_named_in_full_is_the_deal_whose_team_is_asked(
        tmp_path: Path, question: str) -> None:
    answer = await answer_from(tmp_path, KESSLER, question, deal="kessler")
    assert "Anna Weber" in answer.splitlines()[0]


def test_a_terse_question_naming_a_line_item_and_its_year_asks_that_years_figure() -> None:
    """"Uber 2021 Adjusted EBITDA?": no question word, a bare year just before the line item
    it dates. It asks the figure of that fiscal year (it had been read with no period and no
    kind, and answered with the reconciliation's lead-in sentence)."""
    frame = read_question("Northbeam 2024 adjusted EBITDA?")
    assert frame.periods == ("FY2024",) and frame.answer_kind == "figure"
    assert read_question("Its 2023 revenue and 2022 revenue?").periods == ("FY2023", "FY2022")
    # a year that names notes, not a period; a year led by a word is read as before
    assert read_question("What is the interest rate on the 2025 Notes?").periods == ()
    assert read_question("What was revenue in 2023?").periods == ("FY2023",)
    assert read_question("What was Q3 2024 revenue?").periods == ("Q3 2024",)  # its quarter


def test_money_lost_or_made_is_the_bottom_line() -> None:
    """"How much money did Lyft lose in 2021?" asks its net loss (it had been read with no line
    item and answered with a cash sentence); customers lost are no money."""
    for question in ("How much money did Northbeam lose in 2024?", "Did Northbeam lose money?",
                     "How much did Northbeam lose in 2024?"):
        assert read_question(question).subjects == ("net income",), question
    assert read_question("How many customers did Northbeam lose?").subjects != ("net income",)


def test_cash_its_operations_generate_is_operating_cash_flow_named_as_such() -> None:
    """"How much cash did Northbeam's operations generate?" asks its operating cash flow (it
    had been read as cash, and answered with a liquidity sentence); the answer names the line
    item, not the question's words ("Cash did Northbeam's operations generate was …")."""
    for question in ("How much cash did Northbeam's operations generate in 2024?",
                     "How much cash did Northbeam generate from operations in 2024?",
                     "How much cash does the business generate from its operations?"):
        frame = read_question(question)
        assert frame.subjects == ("operating cash flow",), question
        assert frame.named_as == (), question  # no wording of the question is the line's name
    assert read_question("How much cash did Northbeam hold at year end?").subjects == ("cash",)


def test_what_a_company_sold_is_its_sales_not_its_selling_costs() -> None:
    """"How much did Northbeam sell in the Nordics in 2024?" asks net sales (a region's), not
    the "Selling and marketing" row its stem shares; "still owe" asks what remains payable,
    and neither "still" nor "owe" is a word a passage must say."""
    for question in ("How much did Northbeam sell in the Nordics in 2024?",
                     "How much did Northbeam's retail and wholesale segments sell in 2024?"):
        assert read_question(question).subjects == ("revenue",), question
    frame = read_question("How much does Northbeam still owe in transition tax?")
    assert frame.remaining and "still" not in frame.ranking.terms


def test_what_was_lost_on_a_thing_is_no_bottom_line_and_a_loss_is_what_was_lost() -> None:
    """"How much did Northbeam lose on its Fjord stake?" asks the loss on that stake, not the
    net loss; a passage saying "loss" says what "lose" asks."""
    assert read_question("How much did Northbeam lose on its Fjord stake in 2024?"
                         ).subjects != ("net income",)
    assert read_question("How much did Northbeam lose in 2024?").subjects == ("net income",)
    ranked = rank_spans(read_question("How much did Northbeam lose on its Fjord stake in 2024?"),
                        _passages("The Fjord stake was carried at $120 million at December 31, "
                                  "2024, after its shares listed in Oslo.",
                                  "In 2024 we recognized an unrealized loss of $41 million on "
                                  "the Fjord stake."))
    assert ranked and "$41 million" in ranked[0].text, [s.text for s in ranked[:2]]


def test_a_total_asked_with_what_were_is_a_figure_not_a_list() -> None:
    """"What were Northbeam's total costs and expenses in 2024?" asks the total's figure (it
    had been read as asking for the costs listed, and answered with a sentence about one
    transaction's total impact); "what were the main risks?" still asks for a list."""
    assert read_question("What were Northbeam's total costs and expenses in 2024?"
                         ).answer_kind == "figure"
    assert read_question("What were the main risks?").answer_kind == "list"


def test_what_things_were_at_a_date_asks_their_balance() -> None:
    """"What were Northbeam's insurance reserves at the end of 2024?" asks a balance, a
    figure (it had been read as asking for the reserves listed, and led by a sentence about a
    transaction's reserves); "which products did it announce in Q4 2024?" is still a list."""
    for question in ("What were Northbeam's insurance reserves at the end of 2024?",
                     "What were Northbeam's lease liabilities at year end?"):
        assert read_question(question).answer_kind == "figure", question
    assert read_question("Which products did Northbeam announce in Q4 2024?"
                         ).answer_kind == "list"


def test_a_capitalised_thing_counted_is_not_whom_the_question_is_about() -> None:
    """"How many Active Riders did Northbeam have in Q2 2024?" counts Active Riders (a metric
    the filing capitalises) of Northbeam; it had been read as a question about someone named
    "Active Riders", counting nothing, and led by a sentence with no count. A name the counted
    words run into ("How many Halden shares …") is still whose things are counted."""
    frame = read_question("How many Active Riders did Northbeam have in the second quarter of "
                          "2024?")
    assert (frame.entity, frame.counted) == ("Northbeam", ("active", "riders"))
    frame = read_question("How many Halden shares were outstanding?")
    assert (frame.entity, frame.counted) == ("Halden", ("shares",))


@pytest.mark.parametrize("question", [
    "Until what date did Northbeam and Halden extend their merger agreement?",
    "By when must Northbeam close the Halden acquisition?",
    "On what date does the Halden lease end?",
    "Jusqu'à quand Northbeam et Halden ont-ils prolongé l'accord de fusion ?",
    "Bis wann haben Northbeam und Halden die Fusionsvereinbarung verlängert?",
    "¿Hasta cuándo prorrogaron Northbeam y Halden el acuerdo de fusión?",
])
def test_a_date_asked_by_until_or_what_date_is_a_date(question: str) -> None:
    """"Until what date did they extend the agreement?" asks a date, in any of the four
    languages (it had been read as a question about a person named "Until", and answered
    that nothing spoke to it); its opening word names nobody."""
    frame = read_question(question)
    assert frame.answer_kind == "date", question
    assert frame.entity in (None, "Northbeam", "Halden"), frame.entity


@pytest.mark.parametrize(("question", "tax"), [
    ("What was Halvard's after-tax return on invested capital in 2025?", False),
    ("What was pre-tax income in 2024?", False),
    ("What was the margin before tax last year?", False),
    ("Wie hoch war das Ergebnis nach Steuern?", False),
    ("Quel est le résultat après impôt ?", False),
    ("¿Cuál fue el beneficio después de impuestos?", False),
    ("Are there any open tax audits?", True),
    ("What taxes does the company pay?", True),
    ("Gibt es Steuerrisiken?", True),
    ("Y a-t-il des risques liés aux impôts ?", True),
    ("¿Hay contingencias de impuestos?", True),
])
def test_a_figure_after_or_before_tax_asks_no_tax_question(question: str, tax: bool) -> None:
    """"After-tax ROIC", "pre-tax income", "Ergebnis nach Steuern": the tax words qualify the
    figure asked, so the question is no tax topic's and searches no tax exposures."""
    frame = read_question(question)
    assert (frame.topic is not None and frame.topic.key == "tax") is tax
    assert any(t.key == "tax" for t in frame.flag_topics) is tax
