"""`python -m manda.sample DEST`: write the sample data rooms under DEST and print their folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from manda.sample.generate import generate_sample_rooms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m manda.sample",
        description="Write the sample data rooms (targetco, northwind) under DEST.",
    )
    parser.add_argument("dest", type=Path, help="folder to write into (created if missing)")
    args = parser.parse_args(argv)
    try:
        rooms = generate_sample_rooms(args.dest)
    except OSError as exc:
        print(f"Could not write the sample data rooms to {args.dest}: {exc}. "
              "Choose a folder you can write to.", file=sys.stderr)
        return 1
    for deal, folder in rooms.items():
        print(f"{deal}: {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
