"""A generated data room of many multi-page PDFs, for ingestion throughput figures.

One company's reports: figures are restated consistently, as in a real data room.
"""

from __future__ import annotations

import random
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

METRICS = ("Revenue", "EBITDA", "Gross profit", "Operating expenses", "Net income", "Cash")
TOPICS = (
    "Customer contracts renew annually with a ninety day notice period.",
    "The company operates two data centres in Frankfurt and Dublin.",
    "Management expects churn to remain below five percent.",
    "A new pricing model was introduced for enterprise customers.",
    "Warranty claims were in line with the prior year.",
)


def make_room(dest: Path, *, pages: int = 1000, pages_per_file: int = 20, seed: int = 7) -> Path:
    """Write `pages` pages of quarterly-report-like PDFs under `dest` and return it."""
    rng = random.Random(seed)
    dest.mkdir(parents=True, exist_ok=True)
    for index in range(pages // pages_per_file):
        pdf = canvas.Canvas(
            str(dest / f"Subsidiary_{index:03d}_Report.pdf"), pagesize=A4, invariant=1
        )
        for page in range(1, pages_per_file + 1):
            y = 800
            pdf.drawString(50, y, f"Subsidiary {index} — quarterly report — page {page}")
            for line in range(30):
                y -= 24
                quarter, year = rng.randint(1, 4), rng.choice((2022, 2023, 2024))
                metric = rng.choice(METRICS)
                # one company: the same period's figure is restated identically across reports
                value = random.Random(f"{metric}{quarter}{year}").uniform(0.2, 40.0)
                text = (
                    f"{metric} for Q{quarter} {year} was EUR {value:.1f} million. "
                    if line % 3 == 0
                    else rng.choice(TOPICS)
                )
                pdf.drawString(50, y, text)
            pdf.showPage()
        pdf.save()
    return dest
