"""Writes a scanned PDF: each page only an image of known text, with no text layer, as scanned."""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

_LEADING = 17


def write_scanned_pdf(path: Path, pages: Sequence[Sequence[str]], *, dpi: int = 200) -> None:
    """Render each page's lines in Helvetica, rasterise it in greyscale at `dpi`, and write a PDF
    whose pages draw those images and nothing else (so only OCR can read them)."""
    text_pdf = io.BytesIO()
    sheet = canvas.Canvas(text_pdf, pagesize=A4, invariant=1)
    for lines in pages:
        sheet.setFont("Helvetica", 11)
        for number, line in enumerate(lines):
            sheet.drawString(60, 790 - _LEADING * number, line)
        sheet.showPage()
    sheet.save()
    document = pdfium.PdfDocument(text_pdf.getvalue())
    images = []
    for index in range(len(pages)):
        bitmap = document[index].render(scale=dpi / 72, grayscale=True).to_pil()
        images.append((bitmap.tobytes(), bitmap.size))
    path.write_bytes(image_pages_pdf(images, range(len(images))))


def image_pages_pdf(images: Sequence[tuple[bytes, tuple[int, int]]],
                    pages: Sequence[int]) -> bytes:
    """A PDF of A4 pages, page N drawing greyscale image `pages[N]` and nothing else; written by
    hand for stable bytes, and cheap for many pages that share one image."""
    content = b"q 595.28 0 0 841.89 0 0 cm /Im0 Do Q"
    first_image, first_page = 4, 4 + len(images)
    kids = " ".join(f"{first_page + i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Count {len(pages)} /Kids [{kids}] >>".encode(),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    for gray, (width, height) in images:
        image = zlib.compress(gray, 6)
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream"
            % (width, height, len(image), image))
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] "
                b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents 3 0 R >>"
                % (first_image + index) for index in pages]
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)
