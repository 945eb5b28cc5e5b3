"""The suite's schedule names test files that exist, each once (a renamed file would silently
lose its place at the front)."""

from pathlib import Path

from fixtures.schedule import LAST, LONGEST_FIRST

REPO = Path(__file__).resolve().parents[2]


def test_every_scheduled_file_exists_once() -> None:
    named = [*LONGEST_FIRST, *LAST]
    assert len(named) == len(set(named))
    assert [p for p in named if not (REPO / p).is_file()] == []
