"""Bounds on a whole upload, and what it holds (issue 26, items 7 to 10): e-mails and archive
members are opened in the bounded reader process with their sizes checked before decoding; an
upload has a reading budget; one deal's upload never holds another's; links in folders are
refused; one bad member is named and skipped while the rest is ingested."""

from __future__ import annotations

import asyncio
import base64
import os
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest
from fixtures.rooms import offer_email, zip_bytes

from manda.app import Manda
from manda.config import Settings
from manda.errors import UnreadableFileError
from manda.ingest.expand import ExpansionBudget, RoomFile, collect
from manda.ingest.parsers import ParseLimits
from manda.ingest.parsers.email_ import read_email
from manda.ingest.sandbox import ReadingBudget, Sandbox
from manda.models import Document

NOTE = b"# Board note\n\nRevenue for Q3 2024 was EUR 5.2 million.\n"


def manda(home: Path, **settings: object) -> Manda:
    return Manda(Settings(MANDA_HOME=home, **settings))  # type: ignore[arg-type]


def reasons(report) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {s.filename: s.reason for s in report.skipped}


# ---------------------------------------------------------------- 7: e-mails in the reader


def mail_with(attachment: bytes, name: str = "Data.pdf", size: int | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@x.example", "b@y.example", "Data"
    msg.set_content("See attached.")
    msg.add_attachment(attachment, maintype="application", subtype="pdf", filename=name)
    if size is not None:
        [part] = list(msg.iter_attachments())
        part.set_param("size", str(size), header="Content-Disposition")
    return msg.as_bytes()


def test_an_attachment_is_bounded_by_its_declared_and_encoded_size_before_decoding(
    tmp_path: Path,
) -> None:
    mail = tmp_path / "Data.eml"
    mail.write_bytes(mail_with(b"%PDF-1.4 " + b"x" * 40_000))
    allowed = read_email(mail, "eml", mail.name, decode_up_to=100_000)
    assert [a.filename for a in allowed.attachments] == ["Data.pdf"]
    # its base64 text could decode to more than is left: never decoded, named with why
    small = read_email(mail, "eml", mail.name, decode_up_to=20_000)
    assert small.attachments == [] and [r.filename for r in small.refused] == ["Data.pdf"]
    assert "would decode to up to" in small.refused[0].reason
    # a part that declares a size over the allowance is refused on that alone
    mail.write_bytes(mail_with(b"%PDF-1.4 tiny", size=700 * 2**20))
    declared = read_email(mail, "eml", mail.name, decode_up_to=100_000)
    assert declared.attachments == [] and "declares 700 MB" in declared.refused[0].reason
    # read as a document, an e-mail only names its attachments
    assert read_email(mail, "eml", mail.name).attachments == []
    assert read_email(mail, "eml", mail.name).attachment_names == ["Data.pdf"]


def test_an_email_over_the_file_size_limit_is_refused_before_it_is_parsed(
    tmp_path: Path,
) -> None:
    mail = tmp_path / "Huge.eml"
    mail.write_bytes(mail_with(os.urandom(300_000)))
    with pytest.raises(UnreadableFileError) as err:
        read_email(mail, "eml", mail.name, ParseLimits(max_bytes=200_000))
    assert "MANDA_MAX_FILE_MB" in err.value.reason


async def test_a_zip_of_a_huge_email_is_refused_by_its_declared_size_and_the_rest_ingested(
    tmp_path: Path,
) -> None:
    """The red team's 20 MB ZIP of a 700 MB .eml, in small: the member is over the file size
    limit from the size the archive declares, so it is never written, parsed or decoded."""
    big = mail_with(base64.b64encode(os.urandom(1_200_000)))  # ~2 MB of text, compresses little
    room = tmp_path / "room.zip"
    room.write_bytes(zip_bytes({"Mail/Huge.eml": big, "Board/Note.md": NOTE}))
    async with manda(tmp_path / "home", MANDA_MAX_FILE_MB=1) as app:
        report = await app.ingest.ingest("falcon", [room])
    assert report.ingested == ["room.zip/Board/Note.md"]
    assert "file size limit (MANDA_MAX_FILE_MB)" in reasons(report)["room.zip/Mail/Huge.eml"]


async def test_opening_an_email_is_held_to_the_readers_memory_allowance(tmp_path: Path) -> None:
    """Parsing a large e-mail happened in the bot's own process, unbounded (6.5 GB resident for
    the red team): now it happens in the reader, whose memory cap names the e-mail."""
    mail = tmp_path / "Large.eml"
    mail.write_bytes(mail_with(os.urandom(45 * 2**20)))  # ~61 MB of base64
    note = tmp_path / "Note.md"
    note.write_bytes(NOTE)
    async with manda(tmp_path / "home", MANDA_INGEST_MEMORY_MB=48) as app:
        report = await app.ingest.ingest("falcon", [mail, note])
    assert report.ingested == ["Note.md"]
    assert "MANDA_INGEST_MEMORY_MB" in reasons(report)["Large.eml"]


# ---------------------------------------------------------------- 8: the upload's bounds


async def test_an_upload_past_its_reading_budget_is_refused_by_name(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    for n in range(3):  # three different notes: a copy of one already read is not read again
        (room / f"Note {n}.md").write_bytes(NOTE + f"Note {n}.\n".encode())
    async with manda(tmp_path / "home", MANDA_MAX_UPLOAD_SECONDS=1e-6) as app:
        report = await app.ingest.ingest("falcon", [room])
    # the first read may be answered within its microsecond; whatever it cost, nothing is left
    assert len(report.ingested) <= 1 and len(report.skipped) == 3 - len(report.ingested)
    assert all("MANDA_MAX_UPLOAD_SECONDS" in s.reason for s in report.skipped)


def test_a_budget_spent_refuses_the_next_file_before_reading_it() -> None:
    budget = ReadingBudget(10.0)
    budget.spend(4.0)
    budget.spend(7.5)
    assert budget.left < 0
    refusal = budget.refusal("Q3.pdf")
    assert refusal.filename == "Q3.pdf" and "10 seconds of reading" in refusal.reason


async def test_one_deals_upload_never_holds_another_deals(tmp_path: Path) -> None:
    """The red team held every deal's uploads for 59 s with one 101 KB ZIP: one ingest lock
    served every deal. Here deal A's upload is stopped mid-way while deal B's runs."""
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_bytes(NOTE)
    b.write_bytes(NOTE.replace(b"5.2", b"6.1"))
    held, release = asyncio.Event(), asyncio.Event()

    async def stop_midway(done: int, total: int, name: str) -> None:
        held.set()
        await release.wait()

    async with manda(tmp_path / "home") as app:
        first = asyncio.create_task(app.ingest.ingest("osprey", [a], progress=stop_midway))
        await held.wait()
        other = await asyncio.wait_for(app.ingest.ingest("kestrel", [b]), timeout=120)
        assert other.ingested == ["b.md"] and not first.done()
        release.set()
        assert (await first).ingested == ["a.md"]


async def test_a_reader_busy_with_one_file_leaves_another_reader_free(tmp_path: Path) -> None:
    fifo = tmp_path / "Stuck.eml"
    os.mkfifo(fifo)  # opening it blocks until someone writes: an e-mail that takes its time
    good = tmp_path / "Good.txt"
    good.write_text("Revenue for Q3 2024 was EUR 5.2 million.")
    limits = ParseLimits(max_readers=2, max_seconds=120)
    sandbox = Sandbox(limits)
    work = tmp_path / "work"
    stuck = asyncio.create_task(
        sandbox.expand(RoomFile(fifo, fifo.name), work, ExpansionBudget.of(limits)))
    reading = await asyncio.wait_for(
        sandbox.read(good, good.name, _document(good), None), timeout=120)
    assert reading.chunks and not stuck.done()
    await asyncio.to_thread(fifo.write_bytes, offer_email(NOTE, "Note.md"))
    held, refused, _ = await stuck
    assert [f.name for f in held] == ["Stuck.eml", "Stuck.eml/Note.md"] and refused == []


def _document(path: Path) -> Document:
    return Document(id="d_x", deal_id="x", filename=path.name, content_hash="x",
                    file_type=path.suffix[1:], size_bytes=0, version_family="x")


# ---------------------------------------------------------------- 9: links in folders


async def test_links_in_a_folder_are_refused_and_named(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_bytes(b"# Payroll\n\nThe CEO earns EUR 9.9 million.\n")
    room = tmp_path / "room"
    (room / "Board").mkdir(parents=True)
    (room / "Board" / "Note.md").write_bytes(NOTE)
    (room / "Board" / "Minutes.md").symlink_to(outside / "secret.md")
    (room / "Linked folder").symlink_to(outside, target_is_directory=True)
    files, refused = collect([room])
    assert [f.room_path for f in files] == ["Board/Note.md"]
    assert {s.filename for s in refused} == {"Board/Minutes.md", "Linked folder"}
    assert all("symbolic link" in s.reason for s in refused)
    async with manda(tmp_path / "home") as app:
        report = await app.ingest.ingest("falcon", [room])
        hits = await app.search.search("falcon", "CEO earns", k=5)
    assert report.ingested == ["Note.md"] and "Board/Minutes.md" in reasons(report)
    assert not [h for h in hits if "9.9" in h.text]


# ---------------------------------------------------------------- 10: one bad member


async def test_an_attachment_named_dot_dot_never_fails_the_batch(tmp_path: Path) -> None:
    room = tmp_path / "room.zip"
    room.write_bytes(zip_bytes({
        "Board/Note.md": NOTE,
        "Mail/Offer.eml": offer_email(b"# Schedule\n\nHeadcount was 212.\n", ".."),
    }))
    async with manda(tmp_path / "home") as app:
        report = await app.ingest.ingest("falcon", [room])
    assert "room.zip/Board/Note.md" in report.ingested
    assert "room.zip/Mail/Offer.eml" in report.ingested
    assert not [s for s in report.skipped if "IsADirectoryError" in s.reason]


async def test_a_member_the_file_system_refuses_is_named_and_the_rest_ingested(
    tmp_path: Path,
) -> None:
    room = tmp_path / "room.zip"
    long_name = "A" * 300 + ".md"  # past the 255 bytes a file name may have
    with zipfile.ZipFile(room, "w") as zf:
        zf.writestr("Board/Note.md", NOTE)
        zf.writestr(f"Board/{long_name}", NOTE)
    async with manda(tmp_path / "home") as app:
        report = await app.ingest.ingest("falcon", [room])
    assert report.ingested == ["room.zip/Board/Note.md"]
    assert "could not be written" in reasons(report)[f"room.zip/Board/{long_name}"]
