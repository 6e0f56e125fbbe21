"""``tricktable-lab bench --analysis``: how long a finished game's analysis takes
per deal, every game: the rules bot plays the first deals of a match in every
seat, then each decision of seat 0 is searched as the server's analysis
searches it (``hard_hint`` on the hint's fixed worlds, one decision after the
other, as one analysis runs in the thinking processes), timed by the wall clock
and by CPU time (on a shared machine the wall clock counts the others' work).

``--served``: the same record's analysis through a real server instead: a
``tricktable serve`` of its own (its own SQLite file, its default processes),
the record stored as the owner's finished game, the analysis asked for by its
API (POST, then GET every ``POLL_SECONDS`` until it is done, as the page
would), each deal timed from when its decisions show up in the answers.  With
``--load-people N``, ``scripts/load.py --port`` plays N simulated people against
that server meanwhile (default-level computer players), so the analysis shares
the thinking processes with live tables, as it does in production."""

from __future__ import annotations

import http.cookiejar
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from tricktable.bots import make_bot
from tricktable.bots.levels import hard_hint
from tricktable.catalog import GAMES, get_spec
from tricktable.core.match import MatchState
from tricktable.core.record import record_of
from tricktable.server.play.analysis import decisions_of
from tricktable.server.trust.identity import COOKIE
from tricktable.store import Store

REPO = Path(__file__).resolve().parents[1]
POLL_SECONDS = 0.25
"""How often the served bench asks for the analysis: a deal's time is known to this much."""
LOAD_WARM_SECONDS = 15.0
"""How long the simulated people play before the analysis is asked for (their games under way)."""
ANALYSIS_TIMEOUT_SECONDS = 1800.0


def played_record(game: str, deals: int, seed: str) -> dict[str, Any]:
    """The record of a match's first ``deals`` deals, the rules bot in every seat."""
    spec = get_spec(game)
    state = spec.new_match(seed, spec.normalize_options({}))
    assert isinstance(state, MatchState)
    rules = make_bot("heuristic")
    while not state.is_terminal() and state.deal_index < deals:
        if not state.legal_actions():
            state.apply_referee(state.referee_actions()[0])
            continue
        state.act(state.to_move, rules.choose(state.observe(state.to_move)))
    return record_of(state).to_json()


def analysis_times(game: str, deals: int = 3, seed: str = "analysis-bench") -> dict[str, Any]:
    """Each deal's analysis time (wall and CPU seconds) and decision count."""
    record = played_record(game, deals, seed)
    per_deal: dict[int, dict[str, float]] = {}
    for decision in decisions_of(record):
        wall, cpu = time.perf_counter(), time.process_time()
        hard_hint(decision.observation, decision.seed)
        spent = per_deal.setdefault(decision.deal, {"wall": 0.0, "cpu": 0.0, "decisions": 0})
        spent["wall"] += time.perf_counter() - wall
        spent["cpu"] += time.process_time() - cpu
        spent["decisions"] += 1
    walls = [d["wall"] for d in per_deal.values()]
    cpus = [d["cpu"] for d in per_deal.values()]
    return {"game": game, "deals": len(per_deal), "decisions": int(sum(d["decisions"] for d in per_deal.values())),
            "wall_p50_s": round(statistics.median(walls), 2), "wall_max_s": round(max(walls), 2),
            "cpu_p50_s": round(statistics.median(cpus), 2), "cpu_max_s": round(max(cpus), 2)}


def served_analysis_times(game: str, deals: int = 3, seed: str = "analysis-bench", load_people: int = 0,
                          load_seconds: float = 900.0) -> dict[str, Any]:
    """Each deal's analysis time (wall seconds) through a server's API, with
    ``load_people`` simulated people playing on that server meanwhile (for at
    most ``load_seconds``; stopped once the analysis is done)."""
    record = played_record(game, deals, seed)
    with served() as server:
        owner = server.identity()
        server.warm_up()
        store = Store(server.database)
        try:
            game_id = store.create_game(record, "over", owner=owner).id
        finally:
            store.close()
        load = server.load(load_people, load_seconds) if load_people else None
        try:
            if load is not None:
                time.sleep(LOAD_WARM_SECONDS)
            load_before, commits_before, started = os.getloadavg()[0], server.commits(), time.monotonic()
            seen, report = server.analysed(game_id)
            load_after, commits = os.getloadavg()[0], server.commits() - commits_before
            seconds = time.monotonic() - started
            still_loaded = load is None or load.poll() is None
        finally:
            if load is not None:
                load.terminate()
                load.wait(30)
    if report["status"] != "done":
        raise RuntimeError(f"the analysis of {game} ended {report['status']}: {report.get('error')}")
    walls = deal_times(report["decisions"], seen)
    return {"game": game, "deals": len(walls), "decisions": len(report["decisions"]), "served": True,
            "load_people": load_people, "load_ran_throughout": still_loaded,
            "load_average_1min": [round(load_before, 2), round(load_after, 2)],
            "commits_per_s_meanwhile": round(commits / seconds, 1),
            "wall_p50_s": round(statistics.median(walls), 2), "wall_max_s": round(max(walls), 2),
            "wall_per_deal_s": [round(w, 2) for w in walls]}


def deal_times(decisions: list[dict[str, Any]], seen: dict[int, float]) -> list[float]:
    """Each deal's seconds: from when the deal before it was complete (the
    analysis was asked for, for the first) until its last decision showed up.
    The decisions are searched in the record's order, so deal by deal."""
    ends: dict[int, float] = {}
    for decision in decisions:
        ends[decision["deal"]] = max(ends.get(decision["deal"], 0.0), seen[decision["index"]])
    times, previous = [], 0.0
    for _deal, end in sorted(ends.items()):
        times.append(end - previous)
        previous = end
    return times


class Served:
    """A ``tricktable serve`` on a free loopback port with its own SQLite file,
    and a client of it that keeps its identity cookie."""

    def __init__(self, folder: str, port: int, process: subprocess.Popen[bytes]):
        self.folder, self.port, self.process = folder, port, process
        self.database = f"sqlite:///{folder}/bench.db"
        self.url = f"http://127.0.0.1:{port}"
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(self.url + path, method=method, headers={"Content-Type": "application/json"},
                                         data=json.dumps(body).encode() if body is not None else None)
        with self.opener.open(request, timeout=60) as answer:
            return json.loads(answer.read())

    def identity(self) -> str:
        """The id of this client's identity (the owner of the games it may analyse)."""
        self.call("POST", "/api/identity")
        return next(str(cookie.value) for cookie in self.cookies if cookie.name == COOKIE).split(".")[0]

    def commits(self) -> int:
        """Actions committed in all the server's games so far (each commit a version)."""
        with sqlite3.connect(f"{self.folder}/bench.db") as db:
            return int(db.execute("SELECT coalesce(sum(version - 1), 0) FROM games").fetchone()[0])

    def warm_up(self, seconds: float = 120.0) -> None:
        """A game of every kind whose computer players have moved: the process
        this client's connections go to (``serve`` steers by address) has
        started its thinking processes before the clock runs."""
        started = [self.call("POST", "/api/games", {"game": game})["id"] for game in sorted(GAMES)]
        deadline = time.monotonic() + seconds
        for game_id in started:
            while self.call("GET", f"/api/games/{game_id}")["thinking"] is not None and time.monotonic() < deadline:
                time.sleep(0.2)

    def analysed(self, game_id: str) -> tuple[dict[int, float], dict[str, Any]]:
        """Ask for the analysis and poll it until it ends: the seconds after the
        POST when each decision (by index) first showed up, and the last answer."""
        started = time.monotonic()
        self.call("POST", f"/api/games/{game_id}/analysis")
        seen: dict[int, float] = {}
        while time.monotonic() - started < ANALYSIS_TIMEOUT_SECONDS:
            report = self.call("GET", f"/api/games/{game_id}/analysis")
            now = time.monotonic() - started
            for decision in report["decisions"]:
                seen.setdefault(decision["index"], now)
            if report["status"] in ("done", "failed"):
                return seen, report
            time.sleep(POLL_SECONDS)
        raise TimeoutError(f"the analysis of {game_id} did not end in {ANALYSIS_TIMEOUT_SECONDS} s")

    def load(self, people: int, seconds: float) -> subprocess.Popen[bytes]:
        """``scripts/load.py`` playing ``people`` against this server; its output in the folder."""
        with open(Path(self.folder) / "load.out", "wb") as out:
            return subprocess.Popen([sys.executable, str(REPO / "scripts" / "load.py"), "--port", str(self.port),
                                     "--people", str(people), "--seconds", str(seconds)],
                                    stdout=out, stderr=subprocess.STDOUT)


@contextmanager
def served() -> Iterator[Served]:
    """A server of this checkout started for the bench (the rate limits
    lifted, as ``scripts/load.py`` does), stopped afterwards."""
    folder = tempfile.mkdtemp(prefix="tricktable-analysis-bench-")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "TRICKTABLE_LIMIT_SCALE": "100000"}
    env.pop("TRICKTABLE_BOT", None)
    with open(Path(folder) / "server.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "tricktable.cli", "serve", "--port", str(port),
                                    "--database", f"sqlite:///{folder}/bench.db"], cwd=folder, env=env,
                                   stdout=subprocess.DEVNULL, stderr=log)
    server = Served(folder, port, process)
    try:
        wait_until_up(server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


def wait_until_up(server: Served, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server exited: see {server.folder}/server.log")
        try:
            server.call("GET", "/healthz")
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


__all__ = ["analysis_times", "deal_times", "played_record", "served_analysis_times"]
