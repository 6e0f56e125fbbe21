"""Browser tests: a real server process on SQLite and Debian's Chromium driven by
Playwright (never a downloaded browser)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from tricktable.server.testing import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
GAMES = ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]


def need(condition: bool, reason: str) -> None:
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def server() -> Iterator[ServerProcess]:
    folder = tempfile.mkdtemp(prefix="tricktable-web-")
    process = ServerProcess(f"sqlite:///{folder}/web.db").start()
    yield process
    process.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    need(os.path.exists(CHROMIUM), "Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Page:
    """A fresh browser profile (own localStorage) on the server, collecting
    console errors so every test can require that there were none."""

    def __init__(self, browser, server, viewport=DESKTOP, locale="en-US", reduced_motion="no-preference",
                 first_visit=False):
        self.server = server
        self.context = browser.new_context(viewport=viewport, locale=locale, reduced_motion=reduced_motion)
        if not first_visit:
            # The first-visit "how to play" dialog has its own test; the others
            # play as a returning visitor.
            self.context.add_init_script(
                "for (const g of %s) localStorage.setItem('tt.howto.' + g, '1');" % json.dumps(GAMES))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, hash_: str = "#/", speed: float = 0.05) -> None:
        self.page.goto(f"{self.server.url}/?speed={speed}{hash_}")
        self.page.wait_for_selector("body[data-ready]")
        # A second open in the same page only changes the hash: wait for its route.
        route = (hash_.split("/") + ["", ""])[1] or "home"
        self.page.wait_for_function("page => document.querySelector('#main').dataset.page === page", arg=route)
        self.settle()

    def settle(self) -> None:
        """Wait until no animation runs and the person can act (or a dialog waits)."""
        self.page.wait_for_function(
            "() => document.querySelector('dialog[open]') || (document.querySelector('#main')?.dataset.busy !== '1'"
            " && (document.querySelector('.hand button.legal, button.action') || !document.querySelector('.table')))"
        )

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    def age_identity(self, days: float = 1) -> None:
        """Make this profile's identity (its HttpOnly cookie) ``days`` older,
        as if the person had been here since before today: its daily is ranked."""
        from tricktable.server.identity import COOKIE
        from tricktable.server.testing import backdate_identities
        from tricktable.store import Store

        cookie = next(c["value"] for c in self.context.cookies() if c["name"] == COOKIE)
        store = Store(self.server.database)
        try:
            backdate_identities(store, days, cookie)
        finally:
            store.close()

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def make_page(browser, server):
    pages: list[Page] = []

    def make(**settings) -> Page:
        pages.append(Page(browser, server, **settings))
        return pages[-1]

    yield make
    errors = [e for p in pages for e in p.errors]
    for p in pages:
        p.close()
    assert not errors, f"console errors: {errors}"
