"""The row labels a kept home's table findings were read from, each with the line item it became.

Prints every distinct (row label, subject) pair of a deal's metric findings read from a table
row, with how many findings it gave and the subject the row label names today
(`manda.finance.label_heads.label_subject`, the head of the label; a row naming no line item at
all, a period down a transposed table's first column, is left out): a pair whose subject is not the
label's head is marked `≠`. Run on a home kept by bench/filings_answers.py:
`.venv/bin/python bench/label_heads.py /tmp/<name>-filings/home [--deal DEAL …] [--differ]`
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.finance.label_heads import label_subject
from manda.finance.vocabulary import find_line_items


async def pairs(home: Path, deals: list[str]) -> Counter[tuple[str, str]]:
    """How many findings each (row label, subject) gave."""
    async with Manda(Settings(MANDA_HOME=home)) as app:
        findings = [f for deal in deals for f in await app.deals.findings(deal)]
    return Counter((" ".join(str(f.attributes["row"]).split()), f.subject) for f in findings
                   if f.kind == "metric" and f.attributes.get("row"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path, help="a MANDA_HOME holding the ingested deal")
    parser.add_argument("--deal", action="append", help="a deal of the home (default: filings)")
    parser.add_argument("--differ", action="store_true",
                        help="only the pairs whose subject is not what the label's head names")
    args = parser.parse_args()
    counted = asyncio.run(pairs(args.home, args.deal or ["filings"]))
    differ = 0
    for (label, subject), n in sorted(counted.items(), key=lambda p: (p[0][1], p[0][0])):
        if not find_line_items(label):
            continue  # a period down a transposed table's first column: its column names it
        head = label_subject(label)
        same = head == subject
        differ += not same
        if not (args.differ and same):
            print(f"{'=' if same else '≠'} {subject:<22} {n:>3}  {label}"
                  + ("" if same else f"   → {head or '(no line item)'}"))
    print(f"\n{len(counted)} distinct (row label, subject) pairs, "
          f"{sum(counted.values())} findings; {differ} pairs whose subject is not the label's head")


if __name__ == "__main__":
    main()
