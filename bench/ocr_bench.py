"""OCR engines on pages rendered from known text: character accuracy and seconds per page.

Pages of data-room prose and figures are drawn with reportlab, rasterised at 300 dpi with
pypdfium2 (as a scanner would produce them, plus a slight tilt and noise), and read back by each
available engine. Accuracy is 1 - the normalised Levenshtein distance between the known text and
what was read (whitespace collapsed); figures are also checked exactly ("5,210" read as "5,210").

    .venv/bin/python bench/ocr_bench.py [--pages 6]
"""

from __future__ import annotations

import argparse
import io
import random
import re
import resource
import time

import pypdfium2 as pdfium
from rapidfuzz.distance import Levenshtein
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from manda.ingest.ocr import RENDER_DPI, RapidOcrEngine, TesseractEngine, ocr_engine

GOAL_ACCURACY = 0.97
GOAL_SECONDS = 3.0
SENTENCES = (
    "Revenue for Q{q} {y} was EUR {v:,.1f} million, up {p:.1f}% on the prior year.",
    "EBITDA reached EUR {v:,.1f} million in Q{q} {y}; the margin was {p:.1f}%.",
    "Headcount was {n:,} employees as of 30 September {y}.",
    "The company leases {n:,} square metres of office space in Frankfurt and Dublin.",
    "A supplier dispute over EUR {v:,.1f} million was filed in March {y} and is pending.",
    "Customer contracts renew annually with a ninety day notice period.",
    "Net debt stood at EUR {v:,.1f} million, {p:.1f}x trailing EBITDA.",
)


def page_lines(rng: random.Random, count: int = 32) -> list[str]:
    return [
        rng.choice(SENTENCES).format(
            q=rng.randint(1, 4), y=rng.choice((2022, 2023, 2024)), v=rng.uniform(0.2, 90),
            p=rng.uniform(0.5, 40), n=rng.randint(40, 12_000),
        )
        for _ in range(count)
    ]


def render(lines: list[str], rng: random.Random):  # type: ignore[no-untyped-def]
    """The page as a 300 dpi greyscale image with a slight tilt and speckle."""
    from PIL import Image, ImageFilter

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    for i, line in enumerate(lines):
        pdf.drawString(56, 790 - 22 * i, line)
    pdf.showPage()
    pdf.save()
    page = pdfium.PdfDocument(buffer.getvalue())[0]
    image = page.render(scale=RENDER_DPI / 72, grayscale=True).to_pil()
    image = image.rotate(rng.uniform(-0.6, 0.6), fillcolor=255, resample=Image.BICUBIC)
    noise = Image.effect_noise(image.size, 18).convert("L")
    image = Image.blend(image, noise, 0.08).filter(ImageFilter.GaussianBlur(0.4))
    return image


def normal(text: str) -> str:
    return " ".join(text.split())


def figures(text: str) -> list[str]:
    return re.findall(r"\d[\d,.]*\d|\d", text)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (Tesseract runs as a child)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=6)
    args = parser.parse_args()
    rng = random.Random(16)
    pages = [page_lines(rng) for _ in range(args.pages)]
    images = [render(lines, rng) for lines in pages]
    engines = []
    tesseract = ocr_engine("tesseract")
    if isinstance(tesseract, TesseractEngine):
        engines.append(tesseract)
    try:
        import rapidocr_onnxruntime  # noqa: F401

        engines.append(RapidOcrEngine())
    except ImportError:
        print("rapidocr-onnxruntime not installed: skipped")
    print(f"{args.pages} pages of {len(pages[0])} lines, rendered at {RENDER_DPI} dpi\n")
    print(f"{'engine':45} {'accuracy':>9} {'figures':>8} {'s/page':>7} {'cpu s/page':>10} "
          f"{'confidence':>10}")
    for engine in engines:
        engine.read(images[0], 120)  # load models / warm caches outside the timing
        accuracy, exact, total, seconds, confidence = [], 0, 0, 0.0, []
        cpu_before = _cpu()
        for lines, image in zip(pages, images, strict=True):
            start = time.perf_counter()
            read = engine.read(image, 120)
            seconds += time.perf_counter() - start
            truth = normal("\n".join(lines))
            accuracy.append(1 - Levenshtein.normalized_distance(truth, normal(read.text)))
            want, got = figures(truth), set(figures(read.text))
            exact += sum(1 for f in want if f in got)
            total += len(want)
            confidence.append(read.confidence)
        print(
            f"{engine.name[:45]:45} {sum(accuracy) / len(accuracy):9.3f} "
            f"{exact / max(total, 1):8.3f} {seconds / len(pages):7.2f} "
            f"{(_cpu() - cpu_before) / len(pages):10.2f} {sum(confidence) / len(confidence):10.2f}"
        )
    print(f"\ngoal: accuracy ≥ {GOAL_ACCURACY}, ≤ {GOAL_SECONDS:.0f} CPU s/page")


if __name__ == "__main__":
    main()
