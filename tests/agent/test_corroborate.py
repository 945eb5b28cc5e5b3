"""The other pages of a document that state the figure an answer leads with are cited beside it
(compose.corroborate): the same figure, for the same thing and year, the discussion's page
first, at most two more. A number that recurs on a page about something else, or for another
year, is not cited. The passages are written for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import DOC, _ask, _evidence

from manda.agent.compose import compose
from manda.agent.compose.common import Draft
from manda.agent.compose.corroborate import MORE_PLACES, MOST_PAGES, corroborated
from manda.agent.grounding import ground

HEADCOUNT = "As of December 31, 2025, we had approximately 12,400 employees worldwide."
RISK = ("Our workforce has grown from 95 employees as of December 31, 2012 to approximately "
        "12,400 employees as of December 31, 2025, and managing that growth is demanding.")
VEHICLES = "As of December 31, 2025, we operated approximately 12,400 delivery vehicles."
SEGMENTS = "\n".join([
    "Note 12 — Segment Information",
    "(In millions)",
    "Net sales:",
    "2024 | 2025",
    "Cloud | 2024: 10,750 | 2025: 12,900",
    "Retail | 2024: 40,100 | 2025: 44,500",
])
DISCUSSION = "Cloud sales increased 20% in 2025 compared to the prior year, to $12.9 billion."
OTHER_PART = "Advertising sales increased 20% in 2025 compared to the prior year."
EARLIER = "In 2023, Cloud sales increased 20% compared to the prior year."


def _pages(text: str, evidence: object) -> list[int | None]:
    return [c.page for c in ground(text, evidence)]  # type: ignore[arg-type]


def test_a_headcount_is_cited_also_where_another_page_states_it() -> None:
    """A risk factor that repeats the headcount is cited beside the page read; a page that
    states the same number of vehicles is about something else."""
    evidence = _evidence(HEADCOUNT, RISK, VEHICLES)  # pages 30, 31, 32
    ask = _ask("How many employees did the company have at the end of 2025?")
    draft = Draft(text="Headcount was 12,400 people in FY2025 (source: Annual.pdf, p.30).")
    text = corroborated(draft, ask, evidence).text
    assert text.startswith("Headcount was 12,400 people in FY2025 (source: Annual.pdf, p.30). "
                           "The same figures are on other pages too (source: Annual.pdf, p.31).")
    assert _pages(text, evidence) == [30, 31]


def test_a_ranked_parts_figure_is_cited_where_the_discussion_states_it_first() -> None:
    """The note's row the ranking read is cited; the discussion's sentence stating the same
    growth and the same sales for the same part comes first among the others. Another part's
    sentence with the same rate, and the same part's sentence of another year, are not."""
    evidence = _evidence(SEGMENTS, DISCUSSION, OTHER_PART, EARLIER)  # pages 30–33
    ask = _ask("Which segment grew its sales fastest in 2025?")
    draft = Draft(text="Cloud +20.0% ($12.9 billion against $10.75 billion) ranks first by "
                       "growth in 2025 (source: Annual.pdf, p.30).")
    text = corroborated(draft, ask, evidence).text
    assert _pages(text, evidence) == [30, 31]
    assert text.splitlines()[0].endswith(
        "The same figures are on other pages too (source: Annual.pdf, p.31).")


def test_a_figure_stated_nowhere_else_leaves_the_answer_as_it_was() -> None:
    evidence = _evidence(HEADCOUNT, VEHICLES)
    ask = _ask("How many employees did the company have at the end of 2025?")
    draft = Draft(text="Headcount was 12,400 people in FY2025 (source: Annual.pdf, p.30).\n\n"
                       "More below.")
    assert corroborated(draft, ask, evidence) == draft


def test_at_most_two_more_pages_are_cited() -> None:
    repeated = [f"As of December 31, 2025, the company had 12,400 employees (report {n})."
                for n in range(4)]
    evidence = _evidence(HEADCOUNT, *repeated)
    ask = _ask("How many employees did the company have at the end of 2025?")
    draft = Draft(text="Headcount was 12,400 people in FY2025 (source: Annual.pdf, p.30).")
    pages = _pages(corroborated(draft, ask, evidence).text, evidence)
    assert pages[0] == 30 and len(pages) == 1 + MORE_PLACES
    # a lead that cites three pages already names one more, not two
    draft = Draft(text="Headcount was 12,400 people in FY2025 (sources: Annual.pdf p.30, "
                       "Annual.pdf p.31, Annual.pdf p.32).")
    pages = _pages(corroborated(draft, ask, evidence).text, evidence)
    assert pages[:3] == [30, 31, 32] and len(pages) == MOST_PAGES


def test_the_offline_answer_cites_the_other_page_in_the_questions_language() -> None:
    """Through the composer: a ranking read from the note's rows names the discussion's page
    in its lead line, in the question's language; another part's sentence of the same rate
    and the same part's sentence of another year stay uncited."""
    evidence = _evidence(SEGMENTS, DISCUSSION, OTHER_PART, EARLIER)
    for question, said in (("Which segment grew its sales fastest in 2025?",
                            "The same figures are on other pages too"),
                           ("¿Qué segmento aumentó más sus ventas en 2025?",
                            "Las mismas cifras figuran también en otras páginas")):
        text = compose(_ask(question), evidence).text
        first = text.splitlines()[0]
        assert first.startswith("Cloud +20.0%") and said in first
        assert set(_pages(text, evidence)) == {30, 31}


def test_a_page_the_answer_cites_below_is_not_named_again() -> None:
    """A runner-up quoting the other page already cites it: the lead line stays as it was."""
    evidence = _evidence(HEADCOUNT, RISK, VEHICLES)
    draft = Draft(text="Headcount was 12,400 people in FY2025 (source: Annual.pdf, p.30).\n"
                       f"- Annual.pdf: \u201c{RISK}\u201d (source: Annual.pdf, p.31)")
    ask = _ask("How many employees did the company have at the end of 2025?")
    assert corroborated(draft, ask, evidence) == draft


def test_the_document_stays_the_leads() -> None:
    """Only the cited document's pages are looked at."""
    other = DOC.model_copy(update={"id": "d9", "filename": "Other.pdf"})
    evidence = _evidence(HEADCOUNT)
    more = _evidence(RISK)
    for hit in more.hits:
        evidence.hits.append(hit.model_copy(update={"document_id": other.id,
                                                    "document": other.filename}))
    evidence.documents[other.id] = other
    ask = _ask("How many employees did the company have at the end of 2025?")
    draft = Draft(text="Headcount was 12,400 people in FY2025 (source: Annual.pdf, p.30).")
    assert corroborated(draft, ask, evidence) == draft


def test_a_summary_table_read_as_prose_states_its_figures_at_its_captions_scale() -> None:
    """A summary's lines that were not read as rows ("Operating income 1,230 1,100 12%" under
    "(In millions, except percentages)") state $1.23 billion; its revenue line does not state
    the operating income, though both are in millions."""
    summary = "\n".join(["SUMMARY RESULTS OF OPERATIONS",
                         "(In millions, except percentages) 2025 2024 Percentage Change",
                         "Revenue $5,120 $4,800 7%",
                         "Operating income 1,230 1,100 12%"])
    evidence = _evidence(summary, "Operating income was $1.23 billion in 2025, up from 2024.")
    ask = _ask("What was operating income in 2025?")
    draft = Draft(text="Operating income was $1.23 billion in 2025 (source: Annual.pdf, p.31).")
    assert _pages(corroborated(draft, ask, evidence).text, evidence) == [31, 30]
    draft = Draft(text="Revenue was $1.23 billion in 2025 (source: Annual.pdf, p.31).")
    assert corroborated(draft, _ask("What was revenue in 2025?"), evidence) == draft
