"""Writes the review grid's development room (issue 28) reproducibly: the contracts it is built on.

`generate_grid_dev_contracts(dest)` writes `dest/fernhill/<folder>/<file>`; the texts are
`manda.sample.grid_dev_texts.DEV_CONTRACTS` and their ground truth `evals/grid/dev.yaml`.
"""

from __future__ import annotations

from pathlib import Path

from manda.sample.grid_contracts import write_contract
from manda.sample.grid_dev_texts import DEV_CONTRACTS, TARGET

DEV_DEAL = "fernhill"


def generate_grid_dev_contracts(dest: Path) -> dict[str, Path]:
    """Write every dev contract under `dest/fernhill/` and return `{contract id: path}`."""
    room = Path(dest) / DEV_DEAL
    return {c.id: write_contract(room, c, author=TARGET) for c in DEV_CONTRACTS}
