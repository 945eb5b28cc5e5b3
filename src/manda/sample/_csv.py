"""Writes CSV text the same way every time (fixed dialect, `\\n` line endings)."""

from __future__ import annotations

import csv
import io


def csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()
