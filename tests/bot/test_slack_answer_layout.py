"""An answer a deal team reads at a glance: a lead first, footnoted sources, red flags most
serious first, and the rest behind "Show more" — which still works after the bot restarts."""

from __future__ import annotations

import re
from pathlib import Path

from slackworld import running_world

from bot import ids
from bot.blocks.answer import render_answer
from bot.blocks.layout import FIRST_SCREEN_CHARS, first_screen, lay_out, settled_screen
from bot.fakeslack import FakeSlack
from manda.agent.grounding import footnoted
from manda.agent.redflags import RedFlag, lead, ordered
from manda.answers import Answer, Citation, Intent, caution
from manda.app import Manda


def test_footnotes_are_numbered_by_first_use_and_each_place_listed_once() -> None:
    text, notes = footnoted(
        "Revenue was €5.2M (sources: Q3.pdf p.1, Financials.xlsx P&L!I5). EBITDA was €1.1M "
        "(source: Q3.pdf, p.1); the claim is EUR 1.2M (source: Legal Memo.docx, Litigation).")
    assert text == ("Revenue was €5.2M [1][2]. EBITDA was €1.1M [1]; the claim is EUR 1.2M [3].")
    assert notes == [("Q3.pdf", "p.1"), ("Financials.xlsx", "P&L!I5"),
                     ("Legal Memo.docx", "Litigation")]
    layout = lay_out("A (source: Q3.pdf, p.1)", links={"Q3.pdf": "https://x.slack.com/files/1"})
    assert layout.notes[0].mrkdwn() == "[1] <https://x.slack.com/files/1|Q3.pdf> · p.1"


def test_red_flags_are_ordered_by_severity_each_once() -> None:
    found = [RedFlag("forecast_revision", "Forecast revised", "revised", "r1"),
             RedFlag("one_time_items", "One-time charge", "one-time", "o1"),
             RedFlag("conflict", "Conflicting figures", "conflict", "c1"),
             RedFlag("key_people", "Key-person dependency", "founder", "k1"),
             RedFlag("covenants", "Covenant", "3.0x", "v1"),
             RedFlag("customer_concentration", "Customer concentration", "38%", "n1", "38%"),
             RedFlag("change_of_control", "Change of control", "CoC", "x1"),
             RedFlag("litigation", "Litigation", "claim", "l1", "EUR 1.2 million"),
             RedFlag("one_time_items", "One-time charge", "a settlement", "L1  ")]  # found twice
    flags = ordered(found)
    assert [f.kind for f in flags] == ["litigation", "change_of_control",
                                       "customer_concentration", "covenants", "key_people",
                                       "conflict", "one_time_items", "forecast_revision"]
    assert flags[0].line == "- **Litigation, One-time charge**: claim"  # once, naming both
    assert lead(flags) == ("**8 red flags**, most serious first: litigation (EUR 1.2 million), "
                           "a change-of-control clause and customer concentration (38%).")


def test_the_first_screen_keeps_the_lead_and_never_ends_on_a_heading() -> None:
    body = "\n".join(f"- item {i} " + "x" * 80 for i in range(30))
    shown, more = first_screen(f"The answer in one line.\n\n**Heading**\n{body}")
    assert shown.startswith("The answer in one line.") and not shown.endswith("**Heading**")
    assert more and shown.count("\n") < 16 and len(shown) <= FIRST_SCREEN_CHARS
    table = "| a | b |\n|---|---|\n" + "\n".join(f"| {i} | {i} |" for i in range(40))
    shown, more = first_screen("Lead.\n\n" + table)
    assert shown == "Lead." and more.startswith("| a | b |")  # a table is never cut in two


async def test_red_flags_lead_and_show_more_after_a_restart(app: Manda, fake: FakeSlack) -> None:
    async with running_world(app, fake) as world:
        question = await world.fake.mention(world.alice, world.deal, "What are the red flags?")
        await world.settle()
        [answer] = world.replies(world.deal, question.ts)
        body = answer.blocks[0]["text"]
        assert body.startswith("**") and "red flags**, most serious first: litigation" in body
        flags = [line for line in body.splitlines() if line.startswith("- **")]
        assert flags[0].startswith("- **Litigation**") and flags[1].startswith(
            "- **Change of control**") and flags[2].startswith("- **Customer concentration**")
        assert "(source:" not in body and "Forecast revised" not in body
        assert not world.ws.calls_to("chat.update")  # finished by chat.stopStream, no rewrite
        sources = " ".join(e["text"] for b in answer.blocks
                           if str(b.get("block_id", "")).startswith(ids.SOURCES)
                           for e in b["elements"])
        assert "[1] TargetCo_Legal_Summary.docx · Litigation" in sources
    # A new bot process over the same stores: the rest comes from the stored answer.
    async with Manda(app.settings) as restarted, running_world(restarted, fake) as world:
        delivery = await world.fake.click(world.alice, answer, ids.ANSWER_SHOW_MORE)
        assert delivery.status == 200
        await world.settle()
        expanded = world.ws.find(answer.channel, answer.ts)
        assert expanded is not None
        text = expanded.all_text()
        assert "Forecast revised, Revenue FY2025" in text and "Show more" not in text
        assert text.index("Litigation") < text.index("One-time charge") < text.index(
            "Forecast revised")
        rest = next(b for b in expanded.blocks if b.get("block_id") == ids.ANSWER_REST)
        numbers = [int(n) for n in re.findall(r"\[(\d+)\]", rest["text"])]
        last = max(numbers)
        assert f"[{last}] " in text  # every footnote the rest uses is listed


async def test_a_footnote_links_to_the_file_shared_in_slack(app: Manda, fake: FakeSlack) -> None:
    note = b"# Falcon litigation memo\n\nA former supplier claims damages of EUR 2.4 million.\n"
    async with running_world(app, fake) as world:
        await world.fake.slash(world.alice, world.lobby, "/manda", "deal new falcon")
        await world.settle()
        upload = await world.fake.upload(world.alice, world.lobby, [("Falcon_Memo.md", note)])
        await world.settle()
        [shared] = [world.ws.files[f] for f in upload.files]
        links = await world.manda.deals.document_links("falcon")
        permalink = shared.to_api(world.fake.base_url, world.ws.team_id)["permalink"]
        assert links == {"Falcon_Memo.md": permalink}
        question = await world.fake.mention(world.alice, world.lobby, "What damages are claimed?")
        await world.settle()
        [answer] = world.replies(world.lobby, question.ts)
        assert f"[1] <{permalink}|Falcon_Memo.md>" in answer.all_text()


async def test_a_refused_file_named_like_a_report_is_never_linked(
    app: Manda, fake: FakeSlack, tmp_path: Path
) -> None:
    """Issue 26, item 14: a junk file named like a real report was refused, yet footnotes then
    linked to it (links were kept by file name). Links are kept by content, for ingested
    documents only."""
    note = b"# Falcon litigation memo\n\nA former supplier claims damages of EUR 2.4 million.\n"
    memo = tmp_path / "Falcon_Memo.md"
    memo.write_bytes(note)
    async with running_world(app, fake) as world:
        await world.fake.slash(world.alice, world.lobby, "/manda", "deal new falcon")
        await world.settle()
        await world.manda.deals.ingest("falcon", [memo])  # the real memo, from a terminal
        junk = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8  # refused: not Markdown at all
        upload = await world.fake.upload(world.alice, world.lobby, [("Falcon_Memo.md", junk)])
        await world.settle()
        [shared] = [world.ws.files[f] for f in upload.files]
        permalink = shared.to_api(world.fake.base_url, world.ws.team_id)["permalink"]
        assert await world.manda.deals.document_links("falcon") == {}
        question = await world.fake.mention(world.alice, world.lobby, "What damages are claimed?")
        await world.settle()
        [answer] = world.replies(world.lobby, question.ts)
        assert "[1] " in answer.all_text() and permalink not in answer.all_text()
        # the same content shared again is the document: now it is linked
        again = await world.fake.upload(world.alice, world.lobby, [("Memo copy.md", note)])
        await world.settle()
        [copy] = [world.ws.files[f] for f in again.files]
        link = copy.to_api(world.fake.base_url, world.ws.team_id)["permalink"]
        assert await world.manda.deals.document_links("falcon") == {"Falcon_Memo.md": link}


def test_cautions_are_a_context_block_under_the_text_and_never_read_from_it() -> None:
    text = "EBITDA was €1.1M in Q3 2024 (source: Q3.pdf, p.1)."
    cautions = [caution("not_met", "at least 2 sources: only one document states it "
                                   "(Q3_Report.pdf)."),
                caution("still_applying", "only audited or final documents.")]
    answer = Answer(answer=text, intent=Intent.FACT_LOOKUP, conversation_id="c",
                    citations=[Citation(document="Q3.pdf", location="p.1", excerpt="…")],
                    cautions=cautions)
    blocks = render_answer(answer, deal_id="d", question="EBITDA?").blocks()
    ids_in_order = [b.get("block_id") for b in blocks]
    assert ids_in_order[:3] == [ids.ANSWER_BODY, ids.ANSWER_CAUTIONS, ids.SOURCES]
    [shown] = blocks[1]["elements"]
    assert shown["text"] == (
        "⚠️ Not met — at least 2 sources: only one document states it (Q3_Report.pdf).\n"
        "ℹ️ Still applying from earlier in this thread: only audited or final documents.")
    assert blocks[0]["text"] == "EBITDA was €1.1M in Q3 2024 [1]."
    # text that merely looks like a caution is the answer's own: nothing splits it back out
    written = "EBITDA was €1.1M.\n\n_Not met — a line the model wrote itself._"
    assert lay_out(written).shown == written
    assert settled_screen(written + "\nA later line.\n").startswith(written)  # streamed, kept
    bare = render_answer(answer.model_copy(update={"cautions": []}), deal_id="d", question="?")
    assert ids.ANSWER_CAUTIONS not in [b.get("block_id") for b in bare.blocks()]


async def test_a_left_out_note_streams_with_the_answer_as_a_caution(
        app: Manda, fake: FakeSlack) -> None:
    async with running_world(app, fake) as world:
        question = await world.fake.mention(
            world.alice, world.deal, "What was Q3 2024 revenue, only from final documents?")
        await world.settle()
        [answer] = world.replies(world.deal, question.ts)
        assert not answer.edited  # streamed as it stays
        [cautions] = [b for b in answer.blocks if b.get("block_id") == ids.ANSWER_CAUTIONS]
        note = cautions["elements"][0]["text"]
        assert note.startswith("⚠️ Left out under “only audited or final documents”: ")
        assert "TargetCo_Management_Presentation.pptx" in note
        assert "Left out under" not in answer.text  # not in the streamed text too
