"""Who holds a role of the company (issue 25): "who audits Harrowgate?" and "who is Harrowgate's
auditor?" name the firm whichever way they ask, a firm's name broken over a line is one name,
and "which firm …" asks for a role's holder in every language. The passages are invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import compose
from manda.agent.frame import read_question

REPORT = ("Report of Independent Registered Public Accounting Firm\n"
          "In our opinion, the financial statements present fairly, in all material respects, "
          "the financial position of the Company.management./s/ Kestrel Partners\nLLP\n"
          "Leeds, England\nMarch 3, 2026\nWe have served as the Company's auditor since 2011.")


def test_the_company_named_in_a_role_question_is_whose_role_it_is() -> None:
    for question in ("Who is Harrowgate's auditor?", "Who audits Harrowgate?",
                     "Which firm audits Harrowgate?"):
        ask = _ask(question)
        assert ask.frame.asked_role == "auditor", question
        evidence = _evidence(REPORT)
        evidence.scope_words = frozenset({"harrowgate"})  # the company asked about (the graph)
        lead = compose(ask, evidence).text.splitlines()[0]
        assert lead.startswith("The auditor is Kestrel Partners LLP"), (question, lead)


def test_which_firm_asks_for_a_roles_holder_in_every_language() -> None:
    assert read_question("Which firm audits the group?").asked_role == "auditor"
    assert read_question("Quel cabinet est le commissaire aux comptes ?").asked_role
    assert read_question("Welche Gesellschaft ist der Abschlussprüfer?").asked_role
    assert read_question("¿Qué firma es el auditor?").asked_role == "auditor"
    assert read_question("Which company has the higher revenue?").asked_role is None


def test_a_company_named_after_of_is_the_entity_though_a_common_word() -> None:
    assert read_question("Quel a été le résultat net de Target pour 2025 ?").entity == "Target"
    assert read_question("What was the net income of Target in 2025?").entity == "Target"
    assert read_question("Wie hoch war der Umsatz von Target?").entity == "Target"
    assert read_question("¿Cuál fue el resultado neto de Target?").entity == "Target"
    assert read_question("What is the net income of the target?").entity is None


def test_a_name_after_the_questions_auxiliary_is_the_entity_though_a_common_word() -> None:
    # "did Harvest earn": the auxiliary's subject is the company asked about, even a common
    # word ("Harvest", "Target") or capitals ("GCS", a segment); a metric, a quarter or
    # shorthand in that place is no name
    assert read_question("What free cash flow did Harvest generate in 2024?").entity == "Harvest"
    assert read_question("How many branches does Beacon run today?").entity == "Beacon"
    assert read_question("What operating margin did GCS earn last year?").entity == "GCS"
    assert read_question("How much did EBITDA grow in 2024?").entity is None
    assert read_question("How much did ARR grow?").entity is None
    assert read_question("How did Q3 go?").entity is None
    assert read_question("What did the CFO say about pricing?").entity is None


def test_a_margin_a_company_earned_is_no_ones_pay() -> None:
    assert not read_question("What operating margin did GCS earn last year?").pay
    assert read_question("How much does Marie Dupont earn?").pay


ADDRESSED = ("To the Stockholders and Board of Directors of Harrowgate Holdings, Inc.\n"
             "Opinion on the Financial Statements: we have audited the balance sheets of the "
             "Company as an independent registered public accounting firm.")
INDEX = ("Index to Consolidated Financial Statements: Report of Kestrel Partners LLP, "
         "Independent Registered Public Accounting Firm; Consolidated Statements of Cash Flows")
ENGAGED = ("The Audit Committee engaged Lindqvist & Rowe LLP, an independent registered public "
           "accounting firm, to audit the consolidated financial statements.")


def test_the_firm_in_the_role_is_found_by_any_wording_of_the_role() -> None:
    """A passage that names the firm beside "independent registered public accounting firm"
    (no word "auditor") names the auditor; the firm that signs leads over one only named, and
    the company the report is addressed to is never its own auditor."""
    evidence = _evidence(ENGAGED)
    lead = compose(_ask("Who audits the company?"), evidence).text.splitlines()[0]
    assert lead.startswith("The auditor is Lindqvist & Rowe LLP"), lead
    evidence = _evidence(ADDRESSED, INDEX, REPORT)
    evidence.documents["d1"] = evidence.documents["d1"].model_copy(
        update={"company": "Harrowgate Holdings, Inc."})
    lead = compose(_ask("Who is the auditor?"), evidence).text.splitlines()[0]
    assert lead.startswith("The auditor is Kestrel Partners LLP (source: Annual.pdf, p.32)"), lead


def test_a_role_asked_in_german_is_answered_in_german_by_the_firm_that_signs() -> None:
    """"Wer ist der Abschlussprüfer?": the role's German wordings find the signing firm ("…
    GmbH Wirtschaftsprüfungsgesellschaft"), and the lead is written in German."""
    report = ("Bestätigungsvermerk des unabhängigen Abschlussprüfers\n"
              "An die Harrowgate GmbH: Wir haben den Jahresabschluss geprüft.\n"
              "Leeds, den 3. März 2026\nKestrel Partners GmbH Wirtschaftsprüfungsgesellschaft")
    lead = compose(_ask("Wer ist der Abschlussprüfer?"), _evidence(report)).text.splitlines()[0]
    assert lead.startswith("Abschlussprüfer: Kestrel Partners GmbH"), lead


def test_a_role_asked_in_the_filings_own_words_is_the_role() -> None:
    """"Who is Harrowgate's independent registered public accounting firm?" asks for the auditor
    in the words a filing gives it: the firm that signs the report is named, not the firm's
    own description of itself."""
    for question in ("Who is Harrowgate's independent registered public accounting firm?",
                     "Who is the independent registered public accounting firm?"):
        ask = _ask(question)
        assert ask.frame.asked_role == "auditor", question
        described = ("We are a public accounting firm registered with the oversight board and "
                     "are required to be independent with respect to the Company.")
        evidence = _evidence(described, REPORT)
        evidence.scope_words = frozenset({"harrowgate"})
        lead = compose(ask, evidence).text.splitlines()[0]
        assert lead.startswith("The auditor is Kestrel Partners LLP"), (question, lead)
    assert read_question("Who is the CFO?").asked_role == "CFO"  # a role of no such group
