"""Browser tests: a real server process on SQLite and Debian's Chromium driven by
Playwright (never a downloaded browser)."""

from __future__ import annotations

import json
import os
import queue
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from tricktable.bots.base import Bot
from tricktable.core.observation import Observation
from tricktable.server.play.room import Room
from tests.harness import ServerProcess, free_port
from tricktable.store import Store

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
                 first_visit=False, auto_play=False, service_workers="block", storage_state=None):
        self.server = server
        # The page's service worker (sw.js) has its own test; elsewhere it would hide
        # the requests from the tests' page.route.  ``storage_state``: another profile's
        # cookies and storage (the same person back in a new browser).
        self.context = browser.new_context(viewport=viewport, locale=locale, reduced_motion=reduced_motion,
                                           service_workers=service_workers, storage_state=storage_state)
        if not first_visit:
            # The first-visit "how to play" dialog has its own test; the others
            # play as a returning visitor.
            self.context.add_init_script(
                "for (const g of %s) localStorage.setItem('tt.howto.' + g, '1');" % json.dumps(GAMES))
        if not auto_play:
            # The page plays a forced last card itself after a moment; a test that
            # taps cards would race it (a card counted, then gone).  Its own test turns it on.
            self.context.add_init_script(
                "if (!localStorage.getItem('tt.settings')) localStorage.setItem('tt.settings', '{\"autoPlay\": false}');")
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

    def identity(self) -> str:
        """The id of this profile's identity, issued now (as the page itself
        would) if it has none: the owner to give a game made for it."""
        from tricktable.server.trust.identity import COOKIE

        if not any(c["name"] == COOKIE for c in self.context.cookies()):
            self.context.request.post(f"{self.server.url}/api/identity")  # (shares the profile's cookies)
        return next(c["value"] for c in self.context.cookies() if c["name"] == COOKIE).split(".")[0]

    def open_game(self, game: str, game_id: str) -> None:
        """The table of the match ``game_id`` (e.g. one of ``seeded_game``), as if
        this profile had started it: the game is handed to its identity."""
        from tests.harness import hand_over

        self.open("#/")
        store = Store(self.server.database)
        try:
            hand_over(store, game_id, self.identity())
        finally:
            store.close()
        self.page.evaluate("([key, id]) => localStorage.setItem(key, id)", [f"tt.game.{game}", game_id])
        self.open(f"#/play/{game}")

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
        from tricktable.server.trust.identity import COOKIE
        from tests.harness import backdate_identities

        cookie = next(c["value"] for c in self.context.cookies() if c["name"] == COOKIE)
        store = Store(self.server.database)
        try:
            backdate_identities(store, days, cookie)
        finally:
            store.close()

    def close(self) -> None:
        self.context.close()


def unfold(page, action: str) -> None:
    """Show the buttons folded behind one (Doppelkopf's "Reservation…") when
    ``action`` is among them."""
    if not page.locator(f'button.action[data-action="{action}"]').count() and page.locator("#more-actions").count():
        page.locator("#more-actions").click()


def seeded_game(server: ServerProcess, game: str, seed: str) -> str:
    """A new match of ``game`` dealt from ``seed`` in ``server``'s database (the
    HTTP API never takes a seed): the id.  Its computer players make their
    opening moves once a page loads it."""
    store = Store(server.database)
    try:
        return Room(store).new_game(game, {}, seed=seed)["id"]
    finally:
        store.close()


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


class HeldBots:
    """Computer players that decide only when the test lets them, and then what
    the test says (by default: "healthy" in a reservation, else their first legal
    card; never an announcement).  Browser tests of moments between two computer
    players' moves use them instead of racing real ones."""

    def __init__(self) -> None:
        self._orders: queue.Queue[str | None] = queue.Queue()
        self.asked: list[Observation] = []  # the observation of every decision begun
        self.closing = False  # let go: decide at once

    def factory(self, _game: str, _level: str, seed: str) -> Bot:
        held = self

        class HeldBot(Bot):
            name = "held"

            def choose(self, obs: Observation) -> str:
                held.asked.append(obs)
                order = None if held.closing else held._orders.get(timeout=60)  # never hang a run for ever
                return order if order is not None else held.default(obs)

        return HeldBot(seed=seed)

    @staticmethod
    def default(obs: Observation) -> str:
        for wanted in ("healthy", "pass"):
            if wanted in obs.legal:
                return wanted
        return next((a for a in obs.legal if a.startswith("play ")), obs.legal[0])

    def let_go(self) -> None:
        """From now on every decision is the default, at once."""
        self.closing = True
        self.release(count=100)  # the decisions waiting now

    def release(self, action: str | None = None, count: int = 1) -> None:
        """Let the next ``count`` decisions be made (``action``, or the default)."""
        for _ in range(count):
            self._orders.put(action)


class HeldServer:
    """The app in this process (uvicorn in a thread) with held computer players,
    so a test can reach into its room and decide when each bot moves."""

    def __init__(self, database: str) -> None:
        import uvicorn

        from tricktable.server import create_app

        self.database = database
        self.bots = HeldBots()
        self.app = create_app(database, bot_factory=self.bots.factory)
        self.room = self.app.state.room
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "HeldServer":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the held server did not start")
            time.sleep(0.05)
        return self

    def version(self, game_id: str) -> int:
        version = self.room.store.version_of(game_id)
        assert version is not None
        return version

    def wait_for_version(self, game_id: str, version: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.version(game_id) < version:
            if time.monotonic() > deadline:
                raise AssertionError(f"{game_id} never reached version {version}")
            time.sleep(0.02)

    def actions(self, game_id: str) -> list[list]:
        """The game's actions as its owner sees them."""
        row = self.room.store.load(game_id)
        assert row is not None
        return [list(a) for a in self.room.load(game_id, row.owner)["view"]["actions"]]

    def stop(self) -> None:
        self.bots.let_go()  # a decision under way finishes; later ones do not wait
        self.server.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture
def held_server(tmp_path) -> Iterator[HeldServer]:
    server = HeldServer(f"sqlite:///{tmp_path / 'held.db'}").start()
    yield server
    server.stop()
