"""Officers as filings list them: the role in full, when it began, the role held now; and the
people composer's answers from them (the current role, who runs the company)."""

from __future__ import annotations

from test_offline_extractor import extract

from manda.agent.compose.people import _of_a_division, current_first, holds_as
from manda.ingest.extract.excerpts import sentence_spans
from manda.ingest.extract.officers import honorific_roles, role_extent, roster_rows
from manda.models import Location, Section

# an officers table as a filing's text layer flattens it: header, then name, age and position
ROSTER = """Information About Our Executive Officers
Name Age Position
Helen M. Ortiz 58 President and Chief Executive Officer
Victor T. Lam 61 Executive Chair
Ruth A. Brandt 49 Senior Vice President, Chief Legal & Compliance Officer
Omar K. Haddad 66 President, Lakeside University
Helen M. Ortiz. Ms. Ortiz has served as President and Chief Executive Officer since March 2022, \
Chief Operating Officer from May 2017 until March 2022.
Victor T. Lam. Mr. Lam founded the Company in 1998 and has served as Executive Chair since \
March 2022.
"""

# the other layout: the role and its history in one column, the age last
HISTORY = """Name Title and Recent Business Experience Age
Dana P. Weiss Chief Executive Officer since February 2026. Chief Financial Officer from June \
2019 to January 2026. 50
Alan R. Cole Executive Chair since February 2026. Chair of the Board and Chief Executive \
Officer from August 2014 to January 2026. 67
"""


def test_an_officers_table_gives_each_role_in_full_and_skips_a_directors_outside_post() -> None:
    rows = {r.name: r for r in roster_rows(ROSTER)}
    assert rows["Helen M. Ortiz"].role == "President and Chief Executive Officer"
    assert rows["Victor T. Lam"].role == "Executive Chair"
    assert rows["Ruth A. Brandt"].role == "Senior Vice President, Chief Legal & Compliance Officer"
    assert "Omar K. Haddad" not in rows  # his post is at another organisation


def test_a_row_with_its_history_gives_the_role_held_now_and_since_when() -> None:
    rows = {r.name: (r.role, r.since) for r in roster_rows(HISTORY)}
    assert rows == {"Dana P. Weiss": ("Chief Executive Officer", "February 2026"),
                    "Alan R. Cole": ("Executive Chair", "February 2026")}


def test_mr_and_surname_name_the_person_the_section_named_in_full() -> None:
    known = {"ortiz": "Helen M. Ortiz", "lam": "Victor T. Lam"}
    said = {o.name: (o.role, o.since)
            for o in honorific_roles(ROSTER, sentence_spans(ROSTER), known)}
    assert said == {"Helen M. Ortiz": ("President and Chief Executive Officer", "March 2022"),
                    "Victor T. Lam": ("Executive Chair", "March 2022")}


def test_a_role_ends_where_a_name_or_a_verb_follows_it() -> None:
    def extent(text: str, role: str) -> str:
        at = text.find(role)
        return text[at:role_extent(text, at, at + len(role))]

    assert extent("Ann Roe, CEO Retail Stores, adopted a plan", "CEO") == "CEO Retail Stores"
    assert extent("the CFO, Anna Weber, said", "CFO") == "CFO"
    assert extent("Chief Financial Officer Anna Weber joined in 2019",
                  "Chief Financial Officer") == "Chief Financial Officer"


def test_the_extracted_people_carry_the_role_held_now_and_since_when() -> None:
    findings, _, _ = extract("Annual_Report_10-K.pdf", [
        Section(text=ROSTER, location=Location.for_page(5)),
        Section(text=HISTORY, location=Location.for_page(9)),
    ])
    people = {f.entity: f for f in findings if f.subject.startswith("person:")}
    ortiz = people["Helen M. Ortiz"]
    assert ortiz.attributes["role"] == "President and Chief Executive Officer"
    assert ortiz.attributes["since"] == "March 2022"
    assert holds_as(ortiz, "the") == ("has been the President and Chief Executive Officer since "
                                      "March 2022")
    cole = people["Alan R. Cole"]
    assert (cole.attributes["role"], cole.attributes["since"]) == ("Executive Chair",
                                                                   "February 2026")
    assert current_first([people["Victor T. Lam"], cole])[0] is cole  # the latest start first


def test_a_divisions_chief_executive_is_not_the_companys() -> None:
    assert _of_a_division("CEO Worldwide Retail Stores", "CEO")
    assert _of_a_division("Chief Executive Officer, Europe", "CEO")
    assert not _of_a_division("President and Chief Executive Officer", "CEO")
    assert not _of_a_division("CEO", "CEO")


def test_an_appointment_names_the_person_the_role_and_when_it_takes_effect() -> None:
    findings, _, _ = extract("Board_Minutes.pdf", [Section(
        text="Minutes\nThe Board appointed Mark Poole as Chief Operating Officer effective "
             "January 1, 2025.\n", location=Location.for_page(1))])
    poole = next(f for f in findings if f.entity == "Mark Poole")
    assert (poole.attributes["role"], poole.attributes["since"]) == ("Chief Operating Officer",
                                                                     "January 1, 2025")
