"""Playground fixtures: the whole playground on free 127.0.0.1 ports over a copy of the ingested
sample home, and Debian's Chromium driven by Playwright (skipped, saying why, when absent)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.playground import Playground
from manda.config import Settings

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "playground"


def chromium_path() -> str | None:
    """Debian's Chromium (`apt-get install chromium`), or the one named by MANDA_CHROMIUM."""
    named = os.environ.get("MANDA_CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
async def playground(home_copy: Path) -> AsyncIterator[Playground]:
    async with Playground(Settings(MANDA_HOME=home_copy), port=0) as running:
        yield running


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async_api = pytest.importorskip(
        "playwright.async_api",
        reason="Python playwright is not installed: pip install -e '.[dev]' for the browser test",
    )
    executable = chromium_path()
    if executable is None:
        pytest.skip(
            "Chromium is not installed: the browser test drives Debian's chromium "
            "(apt-get install chromium), or set MANDA_CHROMIUM to a Chromium binary"
        )
    async with async_api.async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (gitignored): test-artifacts/playground/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def open_page(
    playground: Playground, browser: Any
) -> Callable[..., Awaitable[tuple[Any, list[str]]]]:
    """Opens the playground in a new page once it is ready; the list collects its page errors."""

    async def opened(height: int = 900, **options: Any) -> tuple[Any, list[str]]:
        from playwright.async_api import expect

        # a wait for what the page shows, not a time limit on Manda: under the full suite on two
        # cores an answer can take longer than 20 s to finish streaming (a red-flags answer did)
        expect.set_options(timeout=60_000)
        page = await browser.new_page(viewport={"width": 1440, "height": height}, **options)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(playground.url)
        await expect(page.locator("body")).to_have_attribute("data-ready", "1")
        return page, errors

    return opened
