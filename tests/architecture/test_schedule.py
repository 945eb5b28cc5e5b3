"""The suite's schedule names test files that exist, each once (a renamed file would silently
lose its place at the front)."""

from pathlib import Path

from fixtures.schedule import LAST, LONGEST_FIRST

REPO = Path(__file__).resolve().parents[2]


def test_every_scheduled_file_exists_once() -> None:
    named = [*LONGEST_FIRST, *LAST]
    assert len(named) == len(set(named))
    assert [p for p in named if not (REPO / p).is_file()] == []


def test_the_files_started_last_hold_one_test_each() -> None:
    """xdist starts the files with most tests first: a file meant to start last holds one test,
    or it would start first and run every eval part itself."""
    for path in LAST:
        text = (REPO / path).read_text(encoding="utf-8")
        assert text.count("\ndef test_") + text.count("\nasync def test_") == 1, path
