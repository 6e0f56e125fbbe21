#!/usr/bin/env python3
"""How quickly the table answers.

By default, the page's pace as a person feels it: the time from his card played
in the middle of a trick to his turn again, in Chromium (Debian's) at 390×844,
at the page's default pace and the server's default level, per game, median and
p95.  ``--old REF`` measures an older commit the same way in the same run, game
by game in turn (its own server and page: ``--old-tree DIR`` names a checkout of
it, else ``git archive`` unpacks it under ``build/``).  ``--json`` prints
``{"games": {game: {"new": {"n", "median_ms", "p95_ms"}, "old": {...}}}, "meta": ...}``.

    .venv/bin/python scripts/latency.py [--old 54c9cf8 [--old-tree DIR]] [--samples 20] [--games euchre,...]

``--server`` measures only the server's part, through the real HTTP API and the
live channel: it plays whole matches of every game as a person who acts the
moment it is his turn, and prints, per person action:

* click → own card: until the action's response (it carries the person's card);
* click → first bot card: until the first computer player's action arrives
  (an SSE ``step`` event; on a server without the live channel, the response
  that carries every bot action);
* longest idle gap: the longest time after the click in which nothing arrived
  and nothing said which computer player was thinking (``thinking`` on a
  response or step, or a ``thinking`` event).  The wait for the response
  counts as idle, so this is a bound on what a page can show.

With ``--server``, ``--source DIR`` runs the server from another checkout;
``--compare DIR`` measures a second checkout in the same run, game by game in
turn.  ``--json`` prints ``{"click_to_own_ms": {"p50", "p95", "max"},
"click_to_first_bot_ms": {...}, "longest_idle_ms": {...}}`` (plus ``meta``, and
``compare`` with the same shape for the second checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the repository root: the tests' server harness
from samples import Samples  # noqa: E402  (scripts/samples.py, beside this script)
from tests.harness import read_events  # noqa: E402

GAMES = ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``tricktable serve`` from ``source`` in a child process."""

    def __init__(self, source: Path, folder: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(source), "TRICKTABLE_LIMIT_SCALE": "1000"}
        env.pop("TRICKTABLE_BOT", None)  # the real computer players
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tricktable.cli", "serve", "--port", str(self.port),
             "--database", f"sqlite:///{folder}/latency.db"],
            cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"server exited: {self.process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit("the server did not start")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Stream:
    """The game's SSE stream, read in a thread; arrivals timestamped there."""

    def __init__(self, http: httpx.Client, game_id: str, version: int):
        self.arrivals: queue.Queue[tuple[float, str, dict[str, Any]]] = queue.Queue()
        self._http, self._url, self._version = http, f"/api/games/{game_id}/events", version
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            self._read_events()
        except httpx.HTTPError:
            pass  # the server stopped or the match is over; follow() times out if it mattered

    def _read_events(self) -> None:
        with self._http.stream("GET", self._url, params={"version": self._version}, timeout=None) as response:
            for kind, data in read_events(response):  # (a keep-alive comes as data None: the stop flag is seen)
                if self._stop.is_set():
                    return
                if data is not None:
                    self.arrivals.put((time.monotonic(), kind, data))

    def close(self) -> None:
        self._stop.set()


def persons_turn(state: dict[str, Any]) -> bool:
    view = state["view"]
    return view["terminal"] or (view["to_move"] == 0 and state.get("thinking") is None)


def post(http: httpx.Client, path: str, body: dict[str, Any], samples: Samples) -> httpx.Response:
    """A POST that waits out a rate limit (counted, so a run that hit one says so)."""
    while True:
        answer = http.post(path, json=body)
        if answer.status_code != 429:
            return answer
        samples.retries += 1
        time.sleep(float(answer.headers.get("Retry-After", "1")))


def follow(stream: Stream, state: dict[str, Any], clicked: float, answered: float,
           samples: Samples, deadline: float) -> dict[str, Any]:
    """Read events until the person's turn: the first bot card's time and the
    longest idle gap of this action; the state then."""
    arrivals = [(answered, state.get("thinking") is not None)]
    first_bot = None
    while not persons_turn(state):
        try:
            at, kind, data = stream.arrivals.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError("the computer players did not answer in time") from None
        if kind == "thinking":
            if data["version"] >= state["version"]:
                arrivals.append((at, True))
            continue
        if data["version"] <= state["version"]:
            continue  # the person's own step, already in the response
        state = data
        arrivals.append((at, data.get("thinking") is not None))
        if first_bot is None and kind == "step" and data["steps"] and data["steps"][0]["seat"] != 0:
            first_bot = at
    if first_bot is not None:
        samples.first_bot.append(first_bot - clicked)
    samples.idle.append(longest_idle(clicked, sorted(arrivals)))
    return state


def longest_idle(clicked: float, arrivals: list[tuple[float, bool]]) -> float:
    """The longest stretch after ``clicked`` with no arrival while no thinking
    indicator was on (the first stretch, until the first arrival, always is)."""
    longest, since, indicated = 0.0, clicked, False
    for at, thinking in arrivals:
        if not indicated:
            longest = max(longest, at - since)
        since, indicated = at, thinking
    return longest


def play_match(http: httpx.Client, game: str, level: str | None, rng: random.Random, stop_at: float) -> Samples:
    samples = Samples()
    body: dict[str, Any] = {"game": game}
    if level:
        body["level"] = level
    answer = post(http, "/api/games", body, samples)
    answer.raise_for_status()
    state = answer.json()
    live = "thinking" in state
    stream = Stream(http, state["id"], state["version"]) if live else None
    try:
        if stream is not None and not persons_turn(state):
            now = time.monotonic()
            state = follow(stream, state, now, now, Samples(), stop_at + 60)
        while not state["view"]["terminal"]:
            if time.monotonic() > stop_at:
                samples.unfinished += 1
                return samples
            legal = state["view"]["legal"]
            clicked = time.monotonic()
            answer = post(http, f"/api/games/{state['id']}/actions",
                          {"action": rng.choice(legal), "version": state["version"]}, samples)
            answered = time.monotonic()
            if answer.status_code == 409:  # e.g. the calling clock ran out: take the game as it is
                state = http.get(f"/api/games/{state['id']}").json()
                continue
            answer.raise_for_status()
            state = answer.json()
            samples.actions += 1
            samples.own.append(answered - clicked)
            if stream is None:  # no live channel: the bots' cards came in this answer
                if any(step["seat"] != 0 for step in state["steps"]):
                    samples.first_bot.append(answered - clicked)
                samples.idle.append(answered - clicked)
            elif persons_turn(state):
                samples.idle.append(answered - clicked)
            else:
                state = follow(stream, state, clicked, answered, samples, stop_at + 60)
        samples.matches += 1
        return samples
    finally:
        if stream is not None:
            stream.close()


def summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "max": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered) * 1000, 1), "p95": round(p95 * 1000, 1),
            "max": round(ordered[-1] * 1000, 1)}


@dataclass
class Run:
    """One server under test and what was measured on it."""

    source: Path
    server: Server
    http: httpx.Client
    level: str
    per_game: dict[str, Samples] = field(default_factory=dict)

    def total(self) -> Samples:
        total = Samples()
        for samples in self.per_game.values():
            total.add(samples)
        return total

    def figures(self) -> dict[str, Any]:
        total = self.total()
        return {"click_to_own_ms": summary(total.own), "click_to_first_bot_ms": summary(total.first_bot),
                "longest_idle_ms": summary(total.idle),
                "meta": {"source": str(self.source), "level": self.level, "games": list(self.per_game),
                         "person_actions": total.actions, "matches_finished": total.matches,
                         "matches_cut_short": total.unfinished, "rate_limited_retries": total.retries}}

    def print(self) -> None:
        total = self.total()
        print(f"{self.source} at level {self.level}: {total.actions} person actions, "
              f"{total.matches} whole matches ({total.unfinished} cut short)")
        print(f"  {'game':14} {'n':>4}  {'own p50/p95/max ms':>22}  {'first bot p50/p95/max ms':>26}  "
              f"{'idle p50/p95/max ms':>22}")
        for game, samples in [*self.per_game.items(), ("all", total)]:
            cells = [summary(v) for v in (samples.own, samples.first_bot, samples.idle)]
            text = ["/".join("-" if c[k] is None else f"{c[k]:.0f}" for k in ("p50", "p95", "max")) for c in cells]
            print(f"  {game:14} {samples.actions:>4}  {text[0]:>22}  {text[1]:>26}  {text[2]:>22}")


def start_run(source: Path, level: str | None) -> Run:
    server = Server(source.resolve(), tempfile.mkdtemp(prefix="tricktable-latency-"))
    http = httpx.Client(base_url=server.url, timeout=60)
    http.post("/api/identity")  # servers that issue identities want one; others answer 404/405
    return Run(source, server, http, level or http.get("/api/games").json().get("default_level", "?"))


SETTLED = ("() => document.querySelector('dialog[open]') || (document.querySelector('#main').dataset.busy === '0'"
           " && document.querySelector('.hand button.legal, button.action[data-action]'))")
RETURNING_VISITOR = ("for (const g of %s) localStorage.setItem('tt.howto.' + g, '1');"
                     " localStorage.setItem('tt.settings', '{\"autoPlay\": false}');" % json.dumps(GAMES))


def old_checkout(ref: str, tree: Path | None) -> Path:
    """A checkout of ``ref``: ``tree`` if it is one (checked), else ``ref``
    unpacked with ``git archive`` under ``build/`` (its kernels not compiled:
    the computer players run their pure-Python fallbacks)."""
    wanted = subprocess.run(["git", "-C", str(REPO), "rev-parse", ref], capture_output=True, text=True,
                            check=True).stdout.strip()
    if tree is not None:
        head = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        if head and head != wanted:
            raise SystemExit(f"{tree} is at {head[:7]}, not {ref}")
        return tree.resolve()
    folder = REPO / "build" / f"old-{wanted[:7]}"
    if not folder.exists():
        folder.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", wanted], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def page_samples(browser: Any, url: str, game: str, wanted: int, seconds: float) -> list[float]:
    """Play ``game`` in a fresh profile as a person who taps a random legal card
    (and the first button of a decision): the milliseconds from each card he
    played into a begun trick to his next turn."""
    from playwright.sync_api import Page

    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.add_init_script(RETURNING_VISITOR)
    page: Page = context.new_page()
    page.goto(f"{url}/#/play/{game}")
    page.wait_for_selector("body[data-ready]")
    page.evaluate("document.addEventListener('click', () => (window.clicked = performance.now()), true)")
    rng, samples, deadline = random.Random(f"page/{game}"), [], time.monotonic() + seconds
    try:
        while len(samples) < wanted and time.monotonic() < deadline:
            page.wait_for_function(SETTLED, timeout=30000)
            if page.locator("dialog[open]").count():  # a deal's or the match's end: on to the next
                page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
                continue
            cards = page.locator(".hand button.legal")
            if not cards.count():
                page.locator("button.action[data-action]").first.click()
                continue
            mid_trick = page.locator(".trick .card").count() > 0
            cards.nth(rng.randrange(cards.count())).click(position={"x": 8, "y": 24})
            page.wait_for_function(SETTLED, timeout=30000)
            took = page.evaluate("performance.now() - window.clicked")
            if mid_trick and not page.locator("dialog[open]").count() and page.locator(".hand button.legal").count():
                samples.append(took)
    finally:
        context.close()
    return samples


def pace(samples: list[float]) -> dict[str, int]:
    ordered = sorted(samples)
    if not ordered:
        return {"n": 0, "median_ms": -1, "p95_ms": -1}
    return {"n": len(ordered), "median_ms": round(statistics.median(ordered)),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))])}


def page_main(args: argparse.Namespace, games: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    sources = {"new": args.source.resolve()}
    if args.old:
        sources["old"] = old_checkout(args.old, args.old_tree)
    servers = {which: Server(source, tempfile.mkdtemp(prefix="tricktable-pace-")) for which, source in sources.items()}
    results: dict[str, dict[str, dict[str, int]]] = {}
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=["--headless", "--no-sandbox", "--disable-gpu"])
            for game in games:
                for which in reversed(list(servers)):  # the old page first, then the new, game by game
                    figures = pace(page_samples(browser, servers[which].url, game, args.samples, args.max_seconds))
                    results.setdefault(game, {})[which] = figures
                    print(game, which, figures, file=sys.stderr, flush=True)
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    meta = {"sources": {which: str(path) for which, path in sources.items()}, "old": args.old,
            "viewport": "390x844", "seconds": round(time.monotonic() - started, 1)}
    if args.json:
        print(json.dumps({"games": results, "meta": meta}))
        return 0
    print(f"the page's pace: card in a begun trick → the person's turn again, ms ({meta['seconds']} s)")
    for game, pages in results.items():
        print(f"  {game:14} " + "   ".join(
            f"{which} n={f['n']} median {f['median_ms']} p95 {f['p95_ms']}" for which, f in pages.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", action="store_true", help="measure only the server's part (HTTP and live channel)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all seven)")
    parser.add_argument("--old", default=None, help="page mode: an older commit measured in the same run")
    parser.add_argument("--old-tree", type=Path, default=None, help="page mode: a checkout of --old (else git archive)")
    parser.add_argument("--samples", type=int, default=20, help="page mode: cards timed per game and page (default 20)")
    parser.add_argument("--matches", type=int, default=1, help="--server: whole matches per game (default 1)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="--server: stop starting actions after this long in all (default 480; shared by the "
                             "games); page mode: per game and page (default 150)")
    parser.add_argument("--level", default=None, help="--server: computer players' level (default: the server's)")
    parser.add_argument("--source", type=Path, default=REPO, help="checkout whose server to run (default: this one)")
    parser.add_argument("--compare", type=Path, default=None,
                        help="--server: another checkout measured in the same run, game by game in turn")
    parser.add_argument("--seed", type=int, default=1, help="--server: the person's random choices")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if args.server:
        args.max_seconds = 480.0 if args.max_seconds is None else args.max_seconds
        return server_main(args, games)
    args.max_seconds = 150.0 if args.max_seconds is None else args.max_seconds
    return page_main(args, games)


def server_main(args: argparse.Namespace, games: list[str]) -> int:
    runs = [start_run(args.source, args.level)]
    if args.compare is not None:
        runs.append(start_run(args.compare, args.level))
    started = time.monotonic()
    try:
        slots = len(games) * len(runs)
        for number, (game, run) in enumerate((g, r) for g in games for r in runs):
            # Each game on each server gets an equal share of what is left of the time.
            share = (args.max_seconds - (time.monotonic() - started)) / (slots - number)
            stop_at = time.monotonic() + share
            rng = random.Random(f"{args.seed}/{game}")  # the same person on both servers
            run.per_game[game] = Samples()
            for _ in range(args.matches):
                run.per_game[game].add(play_match(run.http, game, args.level, rng, stop_at))
                if time.monotonic() > stop_at:
                    break
    finally:
        for run in runs:
            run.http.close()
            run.server.stop()
    seconds = round(time.monotonic() - started, 1)
    if args.json:
        figures = runs[0].figures()
        if len(runs) > 1:
            figures["compare"] = runs[1].figures()
        figures["meta"]["seconds"] = seconds
        print(json.dumps(figures))
        return 0
    print(f"tricktable latency ({seconds} s; the wait for a response counts as idle)")
    for run in runs:
        run.print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
