"""The deal timeline: dated events with their precision, merged across sources, conflicts flagged.

Rooms here are written in styles the sample deal does not use (US dates, a June fiscal year, a
lease schedule, a UK board), so the rules are checked as mechanisms, not as TargetCo's sentences.
"""

from __future__ import annotations

from datetime import date

import pytest

from manda.finance.dates import find_date_mentions
from manda.models import Chunk, Document, DocumentStatus, Location
from manda.timeline import TimelineFilter, build_timeline, position_at
from manda.timeline.events import events_in_text


def _room(*docs: tuple[str, date | None, list[tuple[str, str]]]) -> tuple[list, list]:
    documents, passages = [], []
    for n, (filename, doc_date, sections) in enumerate(docs):
        doc = Document(id=f"d{n}", deal_id="deal", filename=filename, content_hash=f"h{n}",
                       file_type="docx", size_bytes=1, version_family=filename,
                       doc_date=doc_date, status=DocumentStatus.COMPLETED)
        documents.append(doc)
        for i, (heading, text) in enumerate(sections):
            chunk = Chunk(id=f"d{n}_c{i}", deal_id="deal", document_id=doc.id, ordinal=i,
                          text=text, location=Location.for_section(heading))
            passages.append((doc, chunk))
    return passages, documents


@pytest.mark.parametrize(
    ("text", "label", "precision"),
    [
        ("the claim was filed on March 14, 2024", "2024-03-14", "day"),
        ("filed on 14.03.2024", "2024-03-14", "day"),
        ("drawn in July 2022", "2022-07", "month"),
        ("results for Q3 2024", "2024-Q3", "quarter"),
        ("in H1 2025", "2025-H1", "half"),
        ("since 2015", "2015", "year"),
    ],
)
def test_dates_keep_the_precision_they_were_given(text: str, label: str, precision: str) -> None:
    (mention,) = find_date_mentions(text)
    assert (mention.span.label, mention.span.precision) == (label, precision)


def test_vague_dates_are_ranges_and_a_month_without_year_needs_the_documents_year() -> None:
    (mid,) = find_date_mentions("a relocation planned for mid-2023")
    assert (mid.span.start, mid.span.end, mid.span.precision) == (
        date(2023, 5, 1), date(2023, 8, 31), "year")
    (early,) = find_date_mentions("the hearing is set for early December", context_year=2024)
    assert (early.span.start, early.span.end) == (date(2024, 12, 1), date(2024, 12, 10))
    assert find_date_mentions("the hearing is set for early December") == []  # never guessed


def test_fiscal_year_follows_the_rooms_year_end() -> None:
    passages, documents = _room(
        ("Audited_Accounts.pdf", date(2024, 9, 20), [
            ("Report", "Financial statements for the year ended 30 June 2024."),
        ]),
        ("Budget.xlsx", date(2024, 7, 1), [("Budget", "Budget for FY2025 approved.")]),
    )
    timeline = build_timeline("deal", passages, documents)
    (forecast,) = [e for e in timeline.events if e.category == "forecast"]
    assert (forecast.label, forecast.date, forecast.end_date) == (
        "FY2025", date(2024, 7, 1), date(2025, 6, 30))
    # `manda timeline --json`: `date` is always ISO 8601 (events sort and parse by it); a fiscal
    # year is its span with `precision: fiscal_year`, the room's own label beside it
    shape = timeline.json_shape()
    (fiscal,) = [e for e in shape["events"] if e["category"] == "forecast"]  # type: ignore[union-attr]
    assert {k: fiscal[k] for k in ("date", "end_date", "precision", "label")} == {
        "date": "2024-07-01", "end_date": "2025-06-30", "precision": "fiscal_year",
        "label": "FY2025"}
    dates = [date.fromisoformat(e["date"]) for e in shape["events"]]  # type: ignore[union-attr]
    assert dates == sorted(dates)


def test_one_event_two_sources_and_a_date_conflict_is_flagged() -> None:
    passages, documents = _room(
        ("Legal_DD_Report.docx", date(2025, 2, 1), [
            ("Material contracts",
             "The supply agreement with Acme Widgets Inc. was signed on January 5, 2020 and "
             "expires on December 31, 2025. It contains a change of control clause."),
            ("Real estate", "The lease of the Austin office expires on 30 April 2026; the "
                            "landlord is Lone Star Properties LLC."),
        ]),
        ("Contract_Summary.xlsx", date(2024, 10, 1), [
            ("Contracts", "Acme Widgets Inc. | Contract: Supply agreement | "
                          "Term: until 31 Dec 2025"),
        ]),
        ("CIM.pptx", date(2024, 9, 1), [
            ("slide 9", "Our supply agreement with Acme Widgets Inc., signed in March 2021, "
                        "anchors volumes."),
        ]),
    )
    events = build_timeline("deal", passages, documents).events
    (expiry,) = [e for e in events if e.kind == "contract expires"]
    assert expiry.label == "2025-12-31" and expiry.change_of_control
    assert {c.document for c in expiry.citations} == {"Legal_DD_Report.docx",
                                                      "Contract_Summary.xlsx"}
    assert all(50 <= len(c.excerpt) <= 200 for c in expiry.citations)
    assert expiry.upcoming  # within 12 months of the room's newest document (2025-02-01)
    signed = [e for e in events if e.kind == "contract signed"]
    assert len(signed) == 2 and all(e.conflict for e in signed)
    assert {e.label for e in signed} == {"2020-01-05", "2021-03"}
    (lease,) = [e for e in events if e.kind == "lease expires"]
    assert lease.category == "lease" and lease.label == "2026-04-30" and not lease.upcoming


def test_actors_are_one_entity_across_spellings_and_courts_are_actors() -> None:
    passages, documents = _room(
        ("Litigation_Memo.docx", date(2024, 6, 1), [
            ("Litigation", "Brightline Logistics Ltd filed a claim on 3 February 2024 in the "
                           "High Court of Justice seeking GBP 2.4 million."),
        ]),
        ("Board_Minutes.docx", date(2024, 5, 1), [
            ("Litigation", "The claim brought by Brightline Logistics was filed on "
                           "3 February 2024. A hearing is scheduled for 9 September 2024."),
        ]),
    )
    events = build_timeline("deal", passages, documents).events
    (filed,) = [e for e in events if e.kind == "claim filed"]
    assert len(filed.citations) == 2
    assert "Brightline Logistics Ltd" in filed.actors
    assert any("High Court" in a for a in filed.actors)
    (hearing,) = [e for e in events if e.kind == "hearing"]
    assert hearing.upcoming and hearing.label == "2024-09-09"


def test_no_trigger_no_event_and_unreasonable_dates_are_dropped() -> None:
    passages, documents = _room(
        ("Company_Profile.docx", date(2024, 3, 1), [
            ("History", "The company was incorporated on 2 May 2012. Revenue for 2023 grew "
                        "12%. Headcount was 210 as of December 31, 2023."),
            ("People", "Dana Whitfield joined the company in 2009 as Chief Financial Officer."),
            ("Contracts", "The services agreement was signed on 1 June 2031."),
        ]),
    )
    events = build_timeline("deal", passages, documents).events
    kinds = {e.kind for e in events}
    assert "founded" in kinds
    assert "joined" not in kinds  # before incorporation
    assert "contract signed" not in kinds  # a signature seven years after the room's date
    assert all(e.category != "financing" for e in events)


def test_filters_by_dates_and_category() -> None:
    passages, documents = _room(
        ("Financing.docx", date(2024, 1, 10), [
            ("Debt", "The senior facility of USD 20 million was drawn on March 3, 2021 and "
                     "matures on March 3, 2026. The leverage covenant is tested quarterly."),
        ]),
    )
    timeline = build_timeline("deal", passages, documents,
                              where=TimelineFilter(start=date(2025, 1, 1), category="financing"))
    assert [(e.kind, e.label) for e in timeline.events] == [("loan matures", "2026-03-03")]


def test_the_position_at_a_date_keeps_what_was_known_then() -> None:
    passages, documents = _room(
        ("Facility agreement.docx", date(2023, 6, 14), [
            ("Debt", "The term loan of GBP 5 million was drawn on June 14, 2023 and matures on "
                     "June 30, 2028."),
        ]),
        ("Legal memo.docx", date(2024, 10, 2), [
            ("Disputes", "A former supplier filed a claim against the company on "
                         "September 12, 2024. The hearing is listed for February 3, 2025."),
        ]),
    )
    timeline = build_timeline("deal", passages, documents)
    stated_on = {d.filename: d.doc_date for d in documents}

    then, left_out = position_at(timeline, date(2024, 3, 31), stated_on)

    kinds = {e.kind for e in then.events}
    assert {"loan drawn", "loan matures"} <= kinds  # the maturity was scheduled by then
    assert not kinds & {"claim filed", "hearing"}  # both came to light in October 2024
    assert {e.kind for e in left_out} >= {"claim filed", "hearing"}
    assert then.as_of == date(2024, 3, 31)
    assert not any(e.upcoming for e in then.events)  # 2028 is not within 12 months of it
    later, _ = position_at(timeline, date(2024, 10, 31), stated_on)
    hearing = next(e for e in later.events if e.kind == "hearing")
    assert hearing.upcoming  # measured from the question's date


async def test_sample_deal_timeline_lists_litigation_contracts_financing(app) -> None:
    from manda.timeline import timeline_for_deal

    timeline = await timeline_for_deal(app.graph, "targetco")
    by_kind = {(e.kind, e.label): e for e in timeline.events}
    assert ("claim filed", "2024-05-14") in by_kind
    expiry = by_kind[("contract expires", "2027-02-28")]
    assert expiry.change_of_control and "Globex AG" in expiry.actors
    assert ("loan matures", "2027-06-30") in by_kind
    assert by_kind[("hearing", "2024-12-12")].upcoming
    dates = [e.date for e in timeline.events]
    assert dates == sorted(dates)
    assert not any(c.document.endswith("IRL.xlsx") for e in timeline.events for c in e.citations)
    # excerpts are what a person reads: never the indexed context line chunking puts on top
    assert not any(c.excerpt.startswith("[") for e in timeline.events for c in e.citations)


def test_a_passage_read_again_gives_the_same_events_each_caller_its_own() -> None:
    text = ("The supply agreement with Acme Widgets Inc. was signed on January 5, 2020 and "
            "expires on December 31, 2025.")
    first = events_in_text(text, context_year=2025, heading="Material contracts")
    first[0].actors.append("Someone Else")  # the timeline merges into what it was given
    first[0].change_of_control = True
    again = events_in_text(text, context_year=2025, heading="Material contracts")
    assert [e.title for e in again] == [e.title for e in first]
    assert "Someone Else" not in again[0].actors and not again[0].change_of_control
    # the year a passage is read in is part of what it says: another year, another reading
    undated = "The lease expires on 30 April."
    assert [e.span.label for e in events_in_text(undated, context_year=2024)] != \
        [e.span.label for e in events_in_text(undated, context_year=2026)]


async def test_a_document_ingested_after_a_timeline_was_built_is_in_the_next_one(
    app, tmp_path
) -> None:
    from manda.timeline import timeline_for_deal

    before = await timeline_for_deal(app.graph, "targetco")
    assert not any("Harbour Freight" in " ".join(e.actors) for e in before.events)
    memo = tmp_path / "Harbour_Freight_Agreement_2024.md"
    memo.write_text("# Harbour Freight agreement\n\nThe logistics agreement with Harbour "
                    "Freight Ltd was signed on 3 June 2024 and expires on 30 June 2029.\n")
    await app.ingest.ingest("targetco", [memo])
    after = await timeline_for_deal(app.graph, "targetco")
    added = [e for e in after.events if "Harbour Freight" in " ".join(e.actors)]
    assert {e.label for e in added} >= {"2024-06-03", "2029-06-30"}
    assert len(after.events) > len(before.events)


def test_a_french_room_has_its_events_in_its_own_words() -> None:
    """Trigger words and the topics' terms are read in every language of the vocabulary."""
    passages, documents = _room(
        ("Memo_juridique.docx", date(2024, 9, 1), [
            ("Litiges", "Un ancien distributeur, Distrib Sud SARL, a assigné la Société devant "
                        "le tribunal de commerce de Lyon le 12/06/2024 et réclame 2,3 M€ de "
                        "dommages et intérêts."),
            ("Immobilier", "Le bail commercial des locaux de Lyon expire le 31/12/2028."),
            ("Financement", "Le contrat de crédit syndiqué arrive à échéance le 30/09/2029."),
        ]),
        ("Organigramme.docx", date(2024, 9, 1), [
            ("Direction", "Marie Dupont a été nommée directrice financière le 01/03/2022."),
        ]),
    )
    events = {e.kind: e for e in build_timeline("deal", passages, documents).events}
    claim = events["claim filed"]
    assert (claim.category, claim.date) == ("litigation", date(2024, 6, 12))
    assert "tribunal de commerce de Lyon" in claim.actors
    assert (events["lease expires"].category, events["lease expires"].date) == (
        "lease", date(2028, 12, 31))
    assert (events["loan matures"].category, events["loan matures"].date) == (
        "financing", date(2029, 9, 30))
    assert "Marie Dupont" in events["appointed"].actors


def test_an_event_kind_takes_its_category_and_context_from_its_topic() -> None:
    from manda.timeline.events import TRIGGERS
    from manda.timeline.model import CATEGORIES
    from manda.vocabulary import topic, topics

    assert all(set(t.timeline) <= set(CATEGORIES) for t in topics())
    by_kind = {t.kind: t for t in TRIGGERS}
    assert by_kind["claim filed"].category == topic("litigation").timeline[0]
    assert set(topic("litigation").terms.phrases) <= set(by_kind["claim filed"].context.phrases)
    assert set(topic("debt").terms.phrases) <= set(by_kind["loan matures"].context.phrases)
    assert all(t.category in CATEGORIES for t in TRIGGERS)
    for t in (t for t in TRIGGERS if t.context is not None):
        assert t.words and t.context, t.kind
