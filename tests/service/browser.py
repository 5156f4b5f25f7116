"""Real browsers for the page tests: Debian's Chromium driven by Playwright.

Never ``playwright install``: the browser is the system's (``apt-get install chromium
fonts-noto-cjk``; ``.ci/run`` does it). Under CI=true a missing browser fails the run;
elsewhere the browser tests are skipped with the reason.

Every page a test visits is saved as a screenshot under ``$FORUMPLAY_ARTIFACTS`` (or the
system's temp folder), ``forumplay-screens/<database>/<name>.png``, outside git.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("FORUMPLAY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1100, "height": 900}
WAIT_MS = 20_000  # bounded waits for what the pages show; the machine is shared


def screenshots_folder(db_kind: str) -> Path:
    base = Path(os.environ.get("FORUMPLAY_ARTIFACTS") or tempfile.gettempdir())
    folder = base / "forumplay-screens" / db_kind
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def launch() -> AsyncIterator[Any]:
    """A Chromium for a module's tests (yields the Playwright ``Browser``). The async API:
    the tests run in the suite's event loop, the app in a thread of its own."""
    missing = None
    try:
        from playwright.async_api import async_playwright
    except ImportError as error:
        missing = f"Playwright is not installed: {error}"
    if missing is None and not Path(CHROMIUM).exists():
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium fonts-noto-cjk)"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


SCREENSHOT_MS = 120_000


class Shots:
    """Saves a full-page screenshot of each page visited, numbered in visiting order."""

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder = folder
        self.prefix = prefix
        self.count = 0
        self.saved: list[Path] = []

    async def __call__(self, page: Any, name: str) -> Path:
        self.count += 1
        path = self.folder / f"{self.prefix}-{self.count:02d}-{name}.png"
        # A picture for people to look at, not an assertion: on a machine loaded by other
        # test runs, a full-page capture of a busy page took over 20 s; bound it loosely.
        await page.screenshot(
            path=str(path), full_page=True, animations="disabled", timeout=SCREENSHOT_MS
        )
        self.saved.append(path)
        return path


async def fits_the_screen(page: Any) -> bool:
    """Nothing wider than the viewport (wide tables scroll inside their own box)."""
    script = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"
    return bool(await page.evaluate(script))
