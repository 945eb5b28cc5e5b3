"""How fast the command line starts: `manda --help` and `manda search` end to end, as a person
runs them, against a previous revision of the code in the same run.

The sample deal is ingested into a temporary home first. Each command runs in a fresh process
(median of `--runs`); with `--against REV` the same commands run on that revision's code (a
temporary `git worktree`, on this environment's packages) so both figures come from one run.

    .venv/bin/python bench/cli_start.py [--runs 5] [--against 536d76c]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOALS = {"manda --help": 0.5, "manda search": 1.5}
COMMANDS = {
    "manda --help": ["--help"],
    "manda search": ["search", "--deal", "targetco", "What was Q3 2024 revenue?"],
}


def probe(code_root: Path, argv: list[str]) -> str:
    """Python that runs `manda ARGV` on the code under `code_root`."""
    return (
        f"import sys; sys.path[:0] = [{str(code_root / 'src')!r}, {str(code_root)!r}]; "
        f"from bot.cli import main; sys.exit(main({argv!r}))"
    )


def timed(code_root: Path, argv: list[str], home: Path, runs: int) -> tuple[float, int]:
    """Median seconds and peak resident MB of `manda ARGV` on the code under `code_root`."""
    env = {**os.environ, "MANDA_HOME": str(home)}
    seconds, peaks = [], []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M", sys.executable, "-c", probe(code_root, argv)],
            env=env, capture_output=True, text=True, check=False,
        )
        seconds.append(time.perf_counter() - started)
        if done.returncode not in (0,):
            raise SystemExit(f"manda {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
        peaks.append(int(done.stderr.strip().splitlines()[-1]) // 1024)
    return statistics.median(seconds), max(peaks)


def ingest_sample(code_root: Path, home: Path, room: Path) -> None:
    """The sample deal ingested by the code under test itself (each version its own home)."""
    env = {**os.environ, "MANDA_HOME": str(home)}
    subprocess.run([sys.executable, "-c", probe(code_root, ["ingest", "--deal", "targetco",
                                                            str(room)])],
                   env=env, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", help="a git revision to measure beside this code")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="manda-cli-bench-") as tmp:
        from manda.sample import generate_sample_rooms

        room = generate_sample_rooms(Path(tmp) / "rooms")["targetco"]
        codes = {"this code": ROOT}
        if args.against:
            old = Path(tmp) / "previous"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                            args.against], check=True, capture_output=True)
            codes[args.against] = old
        homes = {name: Path(tmp) / f"home-{n}" for n, name in enumerate(codes)}
        for name, code_root in codes.items():
            ingest_sample(code_root, homes[name], room)
        try:
            print(f"{'command':14} {'code':12} {'median':>8} {'peak RSS':>9}  goal")
            for label, argv in COMMANDS.items():
                for name, code_root in codes.items():
                    seconds, peak = timed(code_root, argv, homes[name], args.runs)
                    goal = GOALS[label]
                    verdict = "met" if seconds < goal else "NOT met"
                    print(f"{label:14} {name[:12]:12} {seconds:7.2f}s {peak:7d}MB  "
                          f"< {goal} s ({verdict})")
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(codes[args.against])], check=False, capture_output=True)


if __name__ == "__main__":
    main()
