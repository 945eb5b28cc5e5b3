"""Writes the review grid's held-out contracts (issue 28) reproducibly: an evaluation-only room.

The grid's evals call `generate_grid_contracts(dest)`; the files land under
`dest/larkspur/<folder>/`. The
contracts are `manda.sample.grid_contract_texts.CONTRACTS`; their ground truth per standard column
is `evals/grid/contracts.yaml`. Not part of `EVAL_ONLY_DEALS`: the answer evals do not read it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from manda.sample._docx import write_sectioned_docx
from manda.sample._paths import room_folder
from manda.sample._pdf import PdfMeta, para, write_pdf
from manda.sample._scan import write_scanned_pdf
from manda.sample.grid_contract_texts import CONTRACTS, TARGET, Contract

GRID_DEAL = "larkspur"
SCAN_WIDTH = 88  # characters per scanned line at 11 pt Helvetica on A4
SCAN_LINES = 44  # lines per scanned page


def generate_grid_contracts(dest: Path) -> dict[str, Path]:
    """Write every contract under `dest/larkspur/` and return `{contract id: path}`."""
    room = Path(dest) / GRID_DEAL
    written: dict[str, Path] = {}
    for contract in CONTRACTS:
        written[contract.id] = write_contract(room, contract, author=TARGET)
    return written


def write_contract(room: Path, contract: Contract, *, author: str) -> Path:
    """Write one contract in its layout at `room/<folder>/<name>`; `author` is the company whose
    document properties it carries. Any sample contract set (the grid's dev room too) uses it."""
    path = room_folder(room, contract.folder) / contract.name
    if contract.layout == "numbered_pdf":
        _numbered_pdf(contract, path, author)
    elif contract.layout == "docx_headings":
        _docx(contract, path, author)
    else:
        write_scanned_pdf(path, scanned_pages(contract))
    return path


def pages_of(contract: Contract) -> list[list[tuple[str, tuple[str, ...]]]]:
    """The contract's sections grouped by page: a new page at each heading in `breaks`."""
    pages: list[list[tuple[str, tuple[str, ...]]]] = [[]]
    for heading, clauses in contract.sections:
        if heading in contract.breaks and pages[-1]:
            pages.append([])
        pages[-1].append((heading, clauses))
    return pages


def scanned_pages(contract: Contract) -> list[list[str]]:
    """The lines a scanned contract's page images show, wrapped at word boundaries."""
    lines = [contract.title, "", *textwrap.wrap(contract.preamble, SCAN_WIDTH), ""]
    for heading, clauses in contract.sections:
        lines.append(heading)
        for clause in clauses:
            lines += textwrap.wrap(clause, SCAN_WIDTH)
        lines.append("")
    return [lines[start:start + SCAN_LINES] for start in range(0, len(lines), SCAN_LINES)]


def _numbered_pdf(contract: Contract, path: Path, author: str) -> None:
    pages = []
    for number, sections in enumerate(pages_of(contract)):
        flow = [para(contract.title, "Title"), para(contract.preamble)] if number == 0 else []
        for heading, clauses in sections:
            flow.append(para(heading, "Heading2"))
            flow += [para(clause) for clause in clauses]
        pages.append(flow)
    write_pdf(path, pages, PdfMeta(title=contract.title, author=author, subject=contract.title,
                                   issued=contract.issued,
                                   footer=f"{contract.title} — strictly confidential"))


def _docx(contract: Contract, path: Path, author: str) -> None:
    write_sectioned_docx(path, contract.title, contract.preamble, contract.sections,
                         issued=contract.issued, author=author, title=contract.title)
