"""Proof: 100 generated questions about one deal never cite or repeat another deal's facts.

Both sample deals are ingested in one knowledge graph. TargetCo is asked 100 questions made from
templates (metrics and periods, people, companies, litigation, customers, gaps, overviews, and
Northwind's own subjects by name); no answer may cite a Northwind document or contain a Northwind
name or figure that the question did not itself contain. A handful of Northwind questions are
checked the other way round.
"""

from __future__ import annotations

import itertools
import re

import pytest

from manda.answers import Answer, Citation, Intent
from manda.app import Manda
from manda.sample.facts import DISTINCTIVE_TERMS, NORTHWIND, TARGETCO, files_for

METRICS = ("revenue", "EBITDA", "gross margin", "net income", "headcount", "cash", "net debt",
           "ARR", "operating expenses", "adjusted EBITDA")
PERIODS = ("Q1 2024", "Q2 2024", "Q3 2024", "FY2023", "FY2025")
ROLES = ("CEO", "CFO", "CTO", "chairman", "head of sales")
PEOPLE = ("Anna Schmidt", "Markus Weber", "Priya Raman", "Thomas Müller")
COMPANIES = ("Globex", "Initech", "Umbrella Retail", "Contoso Freight", "Fabrikam Retail",
             "Tailspin Foods", "Northwind", "Vertex Distribution")
OPEN_QUESTIONS = (
    "Is there any pending litigation?",
    "What is the Vertex claim about?",
    "Are there lawsuits against the company?",
    "Who are the largest customers?",
    "How concentrated is revenue across customers?",
    "Which customers can terminate on a change of control?",
    "How many vehicles are in the fleet?",
    "How many employees work at the Daventry depot?",
    "What was revenue in pounds?",
    "What are the red flags?",
    "What is missing from the data room?",
    "Give me an overview of the company.",
    "Summarize the financial performance in 2024.",
    "Compare Q2 2024 and Q3 2024 revenue.",
    "What did the board minutes say?",
    "How many employees does the company have?",
    "What are the main risks of this deal?",
)



def figure(number: str) -> str:
    """A pattern for `number` as a whole number: 7.7 in "£7.7M", not in "17.7" or "7.75"."""
    return rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)"


# Northwind's names and figures; the GBP amounts and these counts appear nowhere in TargetCo.
NORTHWIND_LEAKS = (*DISTINCTIVE_TERMS[NORTHWIND], "Priya", "Daventry", "£", "GBP", "vehicles",
                   figure("7.7"), figure("0.95"), figure("412"), figure("164"), figure("2.1"))
TARGETCO_LEAKS = (*DISTINCTIVE_TERMS[TARGETCO], "€", "EUR", figure("5.2"), figure("156"))
NORTHWIND_FILES = {f.name for f in files_for(NORTHWIND)}
TARGETCO_FILES = {f.name for f in files_for(TARGETCO)}


def targetco_questions() -> list[str]:
    questions = [f"What was {m} in {p}?" for m, p in itertools.product(METRICS, PERIODS)]
    questions += [f"Who is the {role}?" for role in ROLES]
    questions += [f"What is {person}'s role?" for person in PEOPLE]
    questions += [f"Who is {person}?" for person in PEOPLE[:3]]
    questions += [f"What do we know about {company}?" for company in COMPANIES]
    questions += [f"What was {company}'s revenue in Q3 2024?" for company in COMPANIES[3:7]]
    questions += [f"How much revenue comes from {company}?" for company in COMPANIES[:4]]
    questions += [f"What was {m} for Northwind in Q3 2024?" for m in METRICS[:5]]
    questions += list(OPEN_QUESTIONS)
    return questions


def leaks(answer: Answer, question: str, terms: tuple[str, ...], files: set[str]) -> list[str]:
    """What of the other deal an answer shows that its question did not bring in itself."""
    found = [f"cites {c.document}" for c in answer.citations if c.document in files]
    for term in terms:
        pattern = term if term.startswith("(?") else re.escape(term)
        if re.search(pattern, question, re.IGNORECASE):
            continue  # named by the question: saying "no document mentions X" is no leak
        if re.search(pattern, answer.answer, re.IGNORECASE):
            found.append(f"says {term!r}")
    return found


def test_the_questions_are_a_hundred_distinct_ones() -> None:
    questions = targetco_questions()
    assert len(questions) == 100 and len(set(questions)) == 100


def test_the_check_catches_a_leak_and_spares_the_question_own_words() -> None:
    leaked = Answer(answer="Revenue was £7.7M; Priya Raman runs it.", intent=Intent.FACT_LOOKUP,
                    conversation_id="c", citations=[Citation(
                        document="Northwind_Q3_2024_Report.pdf", location="p.1", excerpt="£7.7M")])
    assert leaks(leaked, "What was revenue?", NORTHWIND_LEAKS, NORTHWIND_FILES) == [
        "cites Northwind_Q3_2024_Report.pdf", "says 'Priya Raman'", "says 'Priya'", "says '£'",
        f"says {figure('7.7')!r}"]
    assert not re.search(figure("7.7"), "€17.7M or 7.75%") and re.search(figure("7.7"), "£7.7M")
    echoed = Answer(answer="No document of this deal mentions Priya Raman.",
                    intent=Intent.FACT_LOOKUP, conversation_id="c")
    assert leaks(echoed, "Who is Priya Raman?", NORTHWIND_LEAKS, NORTHWIND_FILES) == []


@pytest.mark.slow
async def test_a_hundred_targetco_questions_show_nothing_of_northwind(app: Manda) -> None:
    assert {d.filename for d in await app.graph.list_documents(NORTHWIND)} == NORTHWIND_FILES
    problems: dict[str, list[str]] = {}
    answered = 0
    for n, question in enumerate(targetco_questions()):
        answer = await app.answers.ask(TARGETCO, question, conversation_id=f"iso:{n}")
        answered += bool(answer.answer.strip())
        found = leaks(answer, question, NORTHWIND_LEAKS, NORTHWIND_FILES)
        if found:
            problems[question] = found
    assert problems == {}
    assert answered == 100


async def test_northwind_questions_show_nothing_of_targetco(app: Manda) -> None:
    questions = ("What was Q3 2024 revenue?", "Who is the CEO?", "What are the red flags?",
                 "What share of revenue comes from Globex?", "Who is Anna Schmidt?",
                 "How many employees are there?", "Is there any pending litigation?",
                 "What is missing from the data room?")
    problems = {}
    for question in questions:
        answer = await app.answers.ask(NORTHWIND, question)
        found = leaks(answer, question, TARGETCO_LEAKS, TARGETCO_FILES)
        if found:
            problems[question] = found
    assert problems == {}
