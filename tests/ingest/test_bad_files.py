"""Bad files of a data room are refused with a reason a person can act on, never a traceback."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import docx
import openpyxl
import pytest
from fixtures.ole2 import ole2_file
from pypdf import PdfWriter
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from manda.errors import UnreadableFileError
from manda.ingest.parsers import ParseLimits, parse_file

PNG_HEADER = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + bytes(17)


def text_pdf(path: Path, text: str = "Revenue for Q3 2024 was EUR 5.2m.") -> Path:
    c = canvas.Canvas(str(path), pagesize=A4)
    c.drawString(72, 720, text)
    c.showPage()
    c.save()
    return path


def refused(path: Path, limits: ParseLimits | None = None, filename: str | None = None) -> str:
    """The reason parse_file gives for refusing the file (fails the test if it does not)."""
    with pytest.raises(UnreadableFileError) as err:
        parse_file(path, limits=limits or ParseLimits(), filename=filename)
    name = filename or path.name
    assert err.value.filename == name
    assert str(err.value).startswith(f"{name}: ")
    return err.value.reason


def test_truncated_pdf_is_corrupt(tmp_path: Path) -> None:
    data = text_pdf(tmp_path / "full.pdf").read_bytes()
    broken = tmp_path / "Q3_Report.pdf"
    broken.write_bytes(data[: len(data) // 2])

    assert refused(broken).startswith("is corrupt: damaged PDF (")


def test_pdf_with_an_unknown_password_is_reported_as_protected(tmp_path: Path) -> None:
    writer = PdfWriter(clone_from=text_pdf(tmp_path / "plain.pdf"))
    writer.encrypt(user_password="seller-only", owner_password="owner", algorithm="AES-256")
    locked = tmp_path / "SPA_signed.pdf"
    with locked.open("wb") as f:
        writer.write(f)

    assert refused(locked) == "is password-protected; ask the seller for an unprotected copy"


def test_pdf_of_scanned_pages_has_no_readable_text(tmp_path: Path) -> None:
    c = canvas.Canvas(str(tmp_path / "scan.pdf"), pagesize=A4)
    c.rect(72, 72, 400, 600, fill=1)  # a page with a picture and no text layer
    c.showPage()
    c.save()

    reason = refused(tmp_path / "scan.pdf")

    assert reason == (  # OCR found no text in the picture either
        "contains no readable text, not even by OCR of its pages; ask for a text PDF or the "
        "source document"
    ) or reason.startswith("contains no readable text: its pages are scanned images and no OCR")


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "Cap_Table.xlsx"
    empty.write_bytes(b"")

    assert refused(empty).startswith("is empty (0 bytes)")


def test_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("x" * 2048)

    reason = refused(path, ParseLimits(max_bytes=1024))

    assert reason.startswith("is 2 KB, over the 1 KB limit (MANDA_MAX_FILE_MB)")


def test_file_just_over_the_limit_shows_exact_sizes(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("x" * 1025)

    reason = refused(path, ParseLimits(max_bytes=1024))

    assert reason.startswith("is 1,025 bytes, over the 1,024 bytes limit (MANDA_MAX_FILE_MB)")


def test_file_over_the_default_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "Data_Room_Export.pdf"
    with huge.open("wb") as f:
        f.truncate(210 * 2**20)  # sparse: costs no disk

    assert refused(huge).startswith("is 210 MB, over the 100 MB limit (MANDA_MAX_FILE_MB)")


def test_pdf_name_on_a_png_image(tmp_path: Path) -> None:
    fake = tmp_path / "Org_Chart.pdf"
    fake.write_bytes(PNG_HEADER + bytes(200))

    assert refused(fake) == "is named .pdf but is a PNG image; upload the original PDF instead"


def test_office_name_on_plain_text(tmp_path: Path) -> None:
    fake = tmp_path / "export.xlsx"
    fake.write_text("Customer,Revenue\nGlobex,1200\n")

    reason = refused(fake)

    assert reason == "is named .xlsx but is plain text; upload the original Excel workbook instead"


def test_html_page_saved_as_pdf(tmp_path: Path) -> None:
    fake = tmp_path / "Report.pdf"
    fake.write_text("<!DOCTYPE html><html><body>Session expired</body></html>")

    assert refused(fake).startswith("is named .pdf but is an HTML web page")


@pytest.fixture(scope="module")
def docx_zip_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A .docx whose document part inflates to 600 MB of zeros (about 3 MB on disk)."""
    path = tmp_path_factory.mktemp("bomb") / "Contract.docx"
    zero_mb = bytes(2**20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(600):
                member.write(zero_mb)
    return path


def test_docx_zip_bomb_is_refused_before_decompression(docx_zip_bomb: Path) -> None:
    reason = refused(docx_zip_bomb)

    assert reason.startswith(
        "is a compressed archive that expands to more than 500 MB (possible zip bomb)"
    )


def test_docx_part_with_an_absurd_compression_ratio_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "Memo.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", bytes(40 * 2**20))

    reason = refused(path)

    assert reason.startswith("is a compressed archive with a part that expands")
    assert "(possible zip bomb)" in reason


def test_lower_uncompressed_limit_applies(tmp_path: Path) -> None:
    path = tmp_path / "Deck.pptx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("ppt/presentation.xml", b"<p/>" * 1000)

    reason = refused(path, ParseLimits(max_uncompressed_bytes=1024))

    assert reason.startswith("is a compressed archive that expands to more than 1 KB")


def test_unsupported_extension(tmp_path: Path) -> None:
    exe = tmp_path / "setup.exe"
    exe.write_bytes(b"MZ\x90\x00" + bytes(300))

    reason = refused(exe)

    assert reason == (
        "is not a supported type (.exe); supported: pdf, xlsx, xls, docx, pptx, csv, md, txt, "
        "eml, msg, zip"
    )


def test_plain_zip_archive(tmp_path: Path) -> None:
    archive = tmp_path / "Financials.docx"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.txt", "hello")

    assert refused(archive) == (
        "is named .docx but is a ZIP archive; upload the original Word document instead"
    )


def test_zip_archive_of_documents(tmp_path: Path) -> None:
    archive = tmp_path / "Data_Room.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.pdf", "%PDF-1.4")

    assert refused(archive) == "is a ZIP archive; unzip it and upload the documents inside"


def test_corrupt_docx_part(tmp_path: Path) -> None:
    good = tmp_path / "good.docx"
    d = docx.Document()
    d.add_paragraph("hello")
    d.save(good)
    broken = tmp_path / "Legal_Summary.docx"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(broken, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "word/document.xml":
                data = data[: len(data) // 2]  # XML cut in the middle
            zout.writestr(info, data)

    assert refused(broken).startswith("is corrupt: damaged docx file (")


def test_encrypted_office_file(tmp_path: Path) -> None:
    # Password-protected Office files are OLE2 containers holding an EncryptedPackage stream.
    locked = ole2_file(
        tmp_path / "Model.xlsx", {"EncryptionInfo": b"\x04\x00\x04\x00", "EncryptedPackage": b"x"}
    )

    assert refused(locked) == "is password-protected; ask the seller for an unprotected copy"


@pytest.mark.parametrize(
    ("name", "stream", "what", "modern"),
    [
        ("Minutes.doc", "WordDocument", "a legacy Word 97-2003 document (.doc)", "docx"),
        ("Teaser.ppt", "PowerPoint Document", "a legacy PowerPoint 97-2003 deck (.ppt)", "pptx"),
        ("Minutes.docx", "WordDocument", "a legacy Word 97-2003 document (.doc)", "docx"),
    ],
)
def test_legacy_word_and_powerpoint_are_named_by_their_streams(
    tmp_path: Path, name: str, stream: str, what: str, modern: str
) -> None:
    legacy = ole2_file(tmp_path / name, {stream: b"\xec\xa5", "1Table": b""})

    assert refused(legacy) == (
        f"is {what}, which Manda cannot read (no maintained pure-Python reader exists); "
        f"open it in Office, save it as .{modern} and upload again"
    )


def test_damaged_office_97_container(tmp_path: Path) -> None:
    legacy = tmp_path / "Budget.xls"
    legacy.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024))

    assert refused(legacy).startswith("is corrupt: damaged Office 97-2003 container (")


def test_xlsx_with_only_empty_rows(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 200):
        ws.cell(row=row, column=1, value="")
        ws.cell(row=row, column=2).number_format = "0.00"
    wb.create_sheet("Also empty")
    path = tmp_path / "Headcount.xlsx"
    wb.save(path)

    assert refused(path).startswith("contains no data: every sheet is empty")


def test_whitespace_only_text_file(tmp_path: Path) -> None:
    blank = tmp_path / "notes.md"
    blank.write_text("\n\n   \n\t\n")

    assert refused(blank).startswith("contains no readable text")


def test_missing_file(tmp_path: Path) -> None:
    assert refused(tmp_path / "gone.pdf") == "could not be found; it may have been moved or deleted"


def test_good_file_next_to_bad_ones_still_parses(tmp_path: Path) -> None:
    good = text_pdf(tmp_path / "ok.pdf")
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(PNG_HEADER)

    refused(bad)
    parsed = parse_file(good)

    assert parsed.sections[0].text == "Revenue for Q3 2024 was EUR 5.2m."
