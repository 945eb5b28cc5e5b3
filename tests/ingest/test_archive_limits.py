"""Opening archives is bounded: depth, file count and unpacked size; hostile members are refused
and every skipped member is named with its reason."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest
from fixtures.bad_files import traversal_zip, zip_bomb

from manda.ingest.expand import Expander, RoomFile
from manda.ingest.parsers import ParseLimits


def expand(path: Path, workdir: Path, limits: ParseLimits | None = None):  # type: ignore[no-untyped-def]
    workdir.mkdir(exist_ok=True)
    return Expander(workdir, limits or ParseLimits()).expand([RoomFile(path, path.name)])


def written(workdir: Path) -> int:
    return sum(p.stat().st_size for p in workdir.rglob("*") if p.is_file())


def test_a_zip_bomb_is_refused_member_by_member_before_anything_inflates(tmp_path: Path) -> None:
    bomb = zip_bomb(tmp_path / "Room_Export.zip", inner=2, members=2, member_mb=12)
    files, skipped = expand(bomb, tmp_path / "work")

    assert files == []
    assert [s.filename for s in skipped] == [
        f"Room_Export.zip/Financials/part-{i}.zip/zeros-{m}.pdf" for i in (1, 2) for m in (1, 2)
    ]
    assert all("(possible zip bomb); it was not opened" in s.reason for s in skipped)
    assert written(tmp_path / "work") < 2**20  # only the small inner archives were written


def test_unpacked_size_is_bounded_across_all_archives_of_a_batch(tmp_path: Path) -> None:
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for n in range(5):
            zf.writestr(f"Reports/{n}.md", "# Report\n\n" + "x" * 3000)
    files, skipped = expand(archive, tmp_path / "work", ParseLimits(max_archive_bytes=10_000))

    assert len(files) == 3
    assert [s.filename for s in skipped] == ["export.zip/Reports/3.md", "export.zip/Reports/4.md"]
    assert skipped[0].reason == (
        "would expand the archives past 9.8 KB (possible zip bomb, or raise MANDA_MAX_ARCHIVE_MB);"
        " it was not opened"
    )


def test_paths_that_leave_the_archive_are_refused(tmp_path: Path) -> None:
    archive = traversal_zip(tmp_path / "Board_Pack.zip")
    files, skipped = expand(archive, tmp_path / "work")

    assert [f.room_path for f in files] == ["Board/Minutes.md"]
    assert sorted(s.filename for s in skipped) == sorted([
        "Board_Pack.zip/../../../home/manda/.bashrc",
        "Board_Pack.zip//etc/cron.d/manda",
        "Board_Pack.zip/C:\\Windows\\evil.bat",
    ])
    assert {s.reason for s in skipped} == {
        "has a path that points outside the archive; refused (an archive may only hold files "
        "inside its own folders)"
    }
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["Board_Pack.zip", "Minutes.md"]


def _zip(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr(name, data)
    return buffer.getvalue()


def _nested(levels: int) -> bytes:
    """`levels` archives, each inside the one before: outer > level-1.zip > … > deepest.md."""
    data, name = b"# Deepest\n\nRevenue was EUR 1.0m.\n", "deepest.md"
    for level in range(levels - 1, 0, -1):
        data, name = _zip(name, data), f"level-{level}.zip"
    return _zip(name, data)


def _mark_encrypted(path: Path, member: str) -> None:
    """Set the encryption bit of `member` in its local and central headers (Python's zipfile
    writes no encrypted members), as a password-protected export has it."""
    raw = bytearray(path.read_bytes())
    encoded = member.encode()
    for signature, flag_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        at = raw.find(signature)
        while at != -1:
            if raw[at + name_at : at + name_at + len(encoded)] == encoded:
                raw[at + flag_at] |= 0x1
            at = raw.find(signature, at + 4)
    path.write_bytes(bytes(raw))


def test_nesting_is_bounded(tmp_path: Path) -> None:
    archive = tmp_path / "outer.zip"
    archive.write_bytes(_nested(5))  # outer.zip > level-1.zip > … > level-4.zip > deepest.md
    files, skipped = expand(archive, tmp_path / "work", ParseLimits(max_archive_depth=3))

    assert files == []
    assert [s.filename for s in skipped] == [
        "outer.zip/level-1.zip/level-2.zip/level-3.zip"
    ]
    assert skipped[0].reason.startswith("is an archive nested more than 3 levels deep")

    files, skipped = expand(archive, tmp_path / "work2", ParseLimits(max_archive_depth=5))
    assert [f.name for f in files] == [
        "outer.zip/level-1.zip/level-2.zip/level-3.zip/level-4.zip/deepest.md"
    ]


def test_file_count_is_bounded_and_the_rest_is_counted(tmp_path: Path) -> None:
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for n in range(40):
            zf.writestr(f"f{n:02d}.txt", f"file {n}")
    files, skipped = expand(archive, tmp_path / "work", ParseLimits(max_archive_files=5))

    assert len(files) == 5
    assert len(skipped) == 21  # 20 named, then one line for the rest
    assert skipped[0].filename == "many.zip/f05.txt"
    assert skipped[-1].filename == "15 more archive members"
    assert "more than 5 files (MANDA_MAX_ARCHIVE_FILES)" in skipped[-1].reason


def test_links_and_encrypted_members_are_named(tmp_path: Path) -> None:
    archive = tmp_path / "odd.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        link = zipfile.ZipInfo("secrets")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
        zf.writestr("SPA.pdf", b"%PDF-1.7 encrypted bytes")
        zf.writestr("__MACOSX/._SPA.pdf", b"\x00\x05\x16\x07")  # litter: silently left out
    _mark_encrypted(archive, "SPA.pdf")
    files, skipped = expand(archive, tmp_path / "work")

    assert files == []
    assert {s.filename: s.reason for s in skipped} == {
        "odd.zip/secrets": "is a symbolic link inside the archive; links are never followed",
        "odd.zip/SPA.pdf": (
            "is password-protected inside the archive; ask for an unprotected export"
        ),
    }


def test_a_damaged_archive_is_named(tmp_path: Path) -> None:
    archive = tmp_path / "export.zip"
    archive.write_bytes(b"PK\x03\x04" + bytes(100))
    files, skipped = expand(archive, tmp_path / "work")

    assert files == []
    assert skipped[0].filename == "export.zip"
    assert skipped[0].reason.startswith("is corrupt: damaged ZIP archive (")


@pytest.mark.parametrize("attachment", ["Schedule.zip"])
def test_an_archive_attached_to_an_email_is_opened_within_the_same_limits(
    tmp_path: Path, attachment: str
) -> None:
    from fixtures.rooms import offer_email, zip_bytes

    mail = tmp_path / "Offer.eml"
    mail.write_bytes(offer_email(zip_bytes({"Schedule 1.md": b"# Schedule 1\n"}), attachment))
    files, skipped = expand(mail, tmp_path / "work")

    assert skipped == []
    assert [(f.name, f.attached_to) for f in files] == [
        ("Offer.eml", None),
        ("Offer.eml/Schedule.zip/Schedule 1.md", "Offer.eml"),
    ]
