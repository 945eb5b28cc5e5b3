""".env.example lists every setting Manda reads, each with a line saying what it is for."""

from __future__ import annotations

import re
from pathlib import Path

from manda.config import Settings

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / ".env.example"
COMPOSE = ROOT / "docker-compose.yml"
ENTRY = re.compile(r"^(?:# ?)?([A-Z][A-Z0-9_]*)=(.*)$")


def entries() -> list[tuple[int, str, str]]:
    """(line index, name, example value) of every `NAME=value` line, commented out or not."""
    lines = ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
    return [(i, m[1], m[2]) for i, line in enumerate(lines) if (m := ENTRY.match(line))]


def settings_aliases() -> set[str]:
    return {field.alias for field in Settings.model_fields.values() if field.alias}


def test_every_setting_is_listed() -> None:
    listed = {name for _, name, _ in entries()}
    missing = settings_aliases() - listed
    assert not missing, f"add these settings to .env.example: {sorted(missing)}"


def test_each_entry_is_listed_once_and_explained_on_the_line_above() -> None:
    lines = ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
    names = [name for _, name, _ in entries()]
    assert len(names) == len(set(names))
    for index, name, _ in entries():
        above = lines[index - 1]
        assert above.startswith("# ") and not ENTRY.match(above), f"{name} has no explanation"
        assert len(above) > len("# ") + 10, f"{name}'s explanation is too short"


def test_nothing_listed_that_neither_manda_nor_compose_reads() -> None:
    compose = COMPOSE.read_text(encoding="utf-8")
    for _, name, _ in entries():
        assert name in settings_aliases() or "${" + name in compose, name


def test_the_example_values_are_valid_settings() -> None:
    values = {name: value for _, name, value in entries() if name in settings_aliases() and value}
    settings = Settings(**values)
    assert settings.model_max_retries == int(values["MANDA_MODEL_MAX_RETRIES"])
    assert settings.approvers == {"U01ABCDEF", "U02GHIJKL"}


def test_secrets_are_not_filled_in() -> None:
    for _, name, value in entries():
        if any(word in name for word in ("KEY", "TOKEN", "SECRET", "PASSWORD")):
            assert value == "" or value.endswith("..."), f"{name} must not ship a value"
