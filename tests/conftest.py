"""Shared fixtures: a generated sample data room, ingested once, copied into each test's home."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fixtures.schedule import LAST, LONGEST_FIRST
from fixtures.shared import built_once

from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms
from manda.sample.grid_dev import DEV_DEAL

pytest_plugins = ["fixtures.redis_server", "fixtures.grid_room"]


_ENV = (
    "NEO4J_URI",
    "REDIS_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "VOYAGE_API_KEY",
    "VOYAGE_BASE_URL",
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest files first, `LAST` last, the rest in collection order (each file's tests keep
    their order: only whole files move)."""
    root = config.rootpath

    def rank(item: pytest.Item) -> int:
        path = item.path.relative_to(root).as_posix()
        if path in LAST:
            return len(LONGEST_FIRST) + 1
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def _no_outside_configuration(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never pick up a developer's credentials or home: everything runs embedded."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MANDA_HOME", str(tmp_path / "manda-home"))


@pytest.fixture(scope="session")
def sample_rooms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The shipped sample data rooms (TargetCo, Northwind, Pennine), generated once per run."""
    return built_once(tmp_path_factory, "sample-rooms", generate_sample_rooms)[1]


def offline_settings(home: Path) -> Settings:
    return Settings(MANDA_HOME=home)


@pytest.fixture(scope="session")
def ingested_home(tmp_path_factory: pytest.TempPathFactory, sample_rooms: dict[str, Path],
                  grid_written: dict[str, Path]) -> Path:
    """A MANDA_HOME holding the sample deals and the grid's dev contracts (deal `fernhill`),
    ingested once per run; tests get copies of it."""
    rooms = {**sample_rooms, DEV_DEAL: next(iter(grid_written.values())).parents[1]}
    return built_once(tmp_path_factory, "ingested-home", lambda home: ingest_rooms(home, rooms))[0]


def ingest_rooms(home: Path, rooms: dict[str, Path]) -> None:
    """Ingest each `{deal: folder}` into the (offline) home, then open each deal's search
    indexes as `manda serve` does before a first question: the keyword indexes are saved in
    the home, so a copy's first search opens them instead of building them again."""

    async def ingest_all() -> None:
        async with Manda(offline_settings(home)) as app:
            for deal_id, folder in rooms.items():
                await app.ingest.ingest(deal_id, [folder])
            for deal_id in rooms:
                await app.search.warm(deal_id)

    asyncio.run(ingest_all())


@pytest.fixture
def home_copy(ingested_home: Path, tmp_path: Path) -> Path:
    """A private copy of the ingested home, so a test may change it freely."""
    target = tmp_path / "home"
    shutil.copytree(ingested_home, target)
    return target


@pytest.fixture
async def app(home_copy: Path) -> AsyncIterator[Manda]:
    """A started Manda on the embedded defaults with both sample deals ingested."""
    async with Manda(offline_settings(home_copy)) as manda:
        yield manda
