"""Files dropped in a deal channel: downloaded with the bot token, ingested, one message updated."""

from __future__ import annotations

from pathlib import Path

from slackworld import SlackWorld

from bot import ids
from bot.payloads import OpenReview

BAD_PDF = b"%PDF-1.4\nthis is not really a PDF, it stops here"


async def test_an_upload_with_a_bad_file_is_ingested_and_summarised(
    world: SlackWorld, sample_rooms: dict[str, Path]
) -> None:
    world.bot.deps.progress_interval = 0.0  # every state it went through, not one a second
    await world.fake.slash(world.alice, world.lobby, "/manda", "deal new falcon")
    await world.settle()
    good = [
        sample_rooms["northwind"] / "Northwind_Q3_2024_Report.pdf",
        sample_rooms["targetco"] / "TargetCo_Management_Presentation.pptx",
    ]
    files = [(p.name, p.read_bytes()) for p in good] + [("broken.pdf", BAD_PDF)]
    upload = await world.fake.upload(world.alice, world.lobby, files, text="Q3 pack")
    await world.settle()

    [progress] = world.replies(world.lobby, upload.ts)  # one message, updated as it went
    steps = [v["text"] for v in progress.versions]
    assert steps[0].startswith("⏳ Downloading 3 files") and any(
        "Ingesting into" in s for s in steps
    )
    summary = progress.all_text()
    assert "✅ *falcon*: 2 documents ingested, 1 skipped" in summary
    assert "`broken.pdf`: is corrupt" in summary
    assert all(authorised for _, authorised in world.ws.downloads) and len(world.ws.downloads) == 3
    documents = {d.filename for d in await world.manda.graph.list_documents("falcon")}
    assert {p.name for p in good} <= documents

    pending = await world.manda.review.queue("falcon")
    verb = "needs" if len(pending) == 1 else "need"
    assert pending and f"{len(pending)} {verb} review" in summary
    await world.fake.click(
        world.alice, progress, ids.OPEN_REVIEW,
        value=OpenReview(d="falcon", n=len(pending)).encode(),  # the button keeps its count
    )
    await world.settle()
    queue = world.replies(world.lobby, upload.ts)[-1]
    assert f"{len(pending)} findings of falcon waiting for review" in queue.all_text()
    decisions = [b for b in queue.blocks if b.get("block_id", "").startswith("manda.decide.")]
    assert len(decisions) == min(len(pending), 10)


async def test_files_in_an_unbound_channel_are_not_ingested(world: SlackWorld) -> None:
    upload = await world.fake.upload(world.alice, world.lobby, [("notes.txt", b"Revenue was 5M")])
    await world.settle()
    [reply] = world.replies(world.lobby, upload.ts)
    assert "/manda deal" in reply.all_text() and "not ingested" in reply.all_text()
    assert world.ws.downloads == []


async def test_the_summary_says_what_the_document_changed(world: SlackWorld) -> None:
    flash = b"# Flash report\n\nRevenue for Q3 2024 was EUR 5.6 million.\n"
    upload = await world.fake.upload(world.alice, world.deal, [("Flash_Q3_2024.md", flash)])
    await world.settle()
    [progress] = world.replies(world.deal, upload.ts)
    summary = progress.all_text()
    assert "📄 *Flash_Q3_2024.md* — " in summary
    assert "Revenue Q3 2024: *€5.6M* _(waits for review)_" in summary  # not audited: held
    assert (
        "⚠️ Conflict: Revenue Q3 2024 is *€5.6M* here, *€5.2M* in TargetCo_Q3_2024_Report.pdf"
        in (summary)
    )
    assert "0 approved automatically" in summary


async def test_a_data_room_zip_dropped_in_the_channel_is_ingested_member_by_member(
    world: SlackWorld, tmp_path: Path
) -> None:
    from fixtures.rooms import vdr_export

    await world.fake.slash(world.alice, world.lobby, "/manda", "deal new falcon")
    await world.settle()
    export = vdr_export(tmp_path / "Falcon_VDR.zip", tmp_path / "scratch")
    upload = await world.fake.upload(world.alice, world.lobby, [(export.name, export.read_bytes())])
    await world.settle()

    [progress] = world.replies(world.lobby, upload.ts)
    summary = progress.all_text()
    assert "✅ *falcon*: 8 documents ingested, 1 skipped" in summary
    assert "points outside the archive" in summary
    documents = {d.path: d for d in await world.manda.graph.list_documents("falcon")}
    accounts = documents["Falcon VDR/2 Financial/2.3 Audited/2.3.1 FY2023 Accounts.pdf"]
    assert accounts.room_index == "2.3.1"
