#!/usr/bin/env python3
"""Many simulated people at once, through the real HTTP API and live channel.

Starts ``tricktable serve`` itself on free loopback ports (its own SQLite file
per server) and lets ``--people`` simulated people play whole matches of every
game (person *i* starts with game *i* mod 7 and goes on to the next game), each
with its own identity and loopback address (127.0.0.2, 127.0.0.3, ...: people
connect from addresses of their own, which ``serve --workers`` steers by), its
own event stream per match, and a thinking time
drawn from ``--think`` seconds before each action.  Per run it prints person
actions per second, click→own state (the action's response) and click→first
computer player's card (its ``step`` on the stream) p50/p95/p99, errors (any
5xx, refused connection, time-out or unexpected 4xx; a 409 is counted apart),
and the server's CPU seconds and memory (its whole process tree, from /proc), and the bytes
the action answers and the event streams carried per person action.

``--json`` runs the two standard measurements (instant and default) on servers it starts itself
(about 5 minutes per checkout) and prints exactly ``{"instant": {"actions_per_s",
"p99_ms", "errors", "workers_2_vs_1"}, "default": {"people", "first_bot_p95_ms",
"errors"}}``; every run's figures go to ``--details`` (build/load.json), and with
``--compare DIR`` (e.g. /work/base) that checkout is measured in the same run,
configuration by configuration in turn, its summary on stderr and in the details:

* instant: random computer players, people who act the moment it is their turn,
  for ``--instant-seconds`` with two server processes at each of
  ``--instant-people`` (default 16 and 32), and with one process at the largest.
  People who never think keep the server saturated whatever their number, so
  their number only sets how long the queue is: the summary's figure is the
  highest rate among the two-process runs whose p99 is within the target's
  ``P99_BOUND_MS`` (or, if none is, the highest rate), and ``workers_2_vs_1``
  compares the two counts of processes at the largest number of people: the
  median of ``--pairs`` ratios, each of a one-process run and the two-process
  run right after it, at the same machine speed (``workers_pairs``: this
  machine's speed changed threefold within minutes, more than the processes do);
* default: the default-level computer players, ``--people`` (default 40)
  thinking 1–3 s, for ``--default-seconds``, with ``--workers`` processes.

``--port PORT`` (one run) plays against a server already listening on that
loopback port instead of starting one (another tool's server, e.g. the
analysis bench's: ``lab/analysis_bench.py``); the server's CPU and memory are
then not measured.

``--tables N [N ...]`` measures tables of four people (no computer seats):
first the single-person default-level run (``--people``), then per N a run of
N tables on a server of its own, ``--seconds`` each, every person thinking
``--think``.  A table's first person creates it, three others (identities and
addresses of their own) join by its code, he starts it; each listens to his
own seat's event stream and plays a random legal action at his turn (the
out-of-turn actions a view offers, a Doppelkopf announcement, are not taken);
after its match, or an error, the four take a new table.  Seat s's address is
one the server steers to process s mod ``--workers`` (two seats on each of two),
and once every table has started, ``/proc`` tells which process really holds
each address's connections (``placement``).  Per run: the step fan-out, from
the acting person's POST being sent to the step on each other seat's stream
(``fan_out_ms``; also from its answer, and split by whether the seat is on the
actor's process), a step no stream had 10 s after the run is an error.  The
last line: both kinds of run side by side, and the most tables whose fan-out
p95 was within ``FAN_OUT_P95_BOUND_MS`` with no error; every run's figures go
to ``--details`` (build/load-tables.json).

``--soak MINUTES`` plays half the default load (``--people`` / 2) for that long
and checks three things itself: the server's memory grew at most 10 % after
the warm-up, no error, and every finished game in the database replays; it
prints a summary (with ``--json`` all its figures as JSON) and exits 1 if a
check failed.

Without ``--json`` it runs one configuration (``--bot``, ``--workers``,
``--people``, ``--think``, ``--seconds``) and prints its figures, with the
server's own ``pressure`` (``/healthz``: games waiting for a computer player,
the longest wait, decisions per relief step); ``--hogs 0 1 2`` runs it beside
that many CPU-bound processes each, and with ``--compare`` each checkout in
turn at each.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import multiprocessing
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Coroutine

import resource

import httpx
import orjson

from fan_out import SEATS, FanOut, processes_by_address, table_addresses
from samples import Samples


REPO = Path(__file__).resolve().parents[1]
GAMES = ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]
SOAK_SAMPLE_SECONDS = 30.0
SOAK_GROWTH = 0.10
"""The soak passes when the server's memory grew at most this much after its warm-up."""
P99_BOUND_MS = 150.0
"""The bound on an instant action's click→own-state p99 that the server is held to."""
REQUEST_SECONDS = 30.0
"""A request not answered within this long is an error."""
BOT_ANSWER_SECONDS = 120.0
"""A person gives up on the computer players after this long (an error)."""
FAN_OUT_P95_BOUND_MS = 200.0
"""The bound on a table step's fan-out p95 (click → each other seat's stream):
``--tables`` finds the most tables within it."""
DRAIN_SECONDS = 10.0
"""After the run (or a match) ends, how long a table's streams still wait for the steps its people made."""
PLAIN_HTTP = {"verify": False}
"""Loopback HTTP only: no TLS context per client (loading the CA bundle for each
one was a third of this script's own CPU)."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the server under test ------------------------------------------------------------
class Server:
    """``tricktable serve`` from ``source`` in a child process, with its own
    SQLite file, or its own new database on ``postgres``."""

    def __init__(self, source: Path, bot: str | None, workers: int | None, postgres: Any = None,
                 steer: str | None = None):
        self.folder = tempfile.mkdtemp(prefix="tricktable-load-")
        self.database = postgres.new_database() if postgres is not None else f"sqlite:///{self.folder}/load.db"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(source), "TRICKTABLE_LIMIT_SCALE": "100000"}
        env.pop("TRICKTABLE_BOT", None)
        if bot:
            env["TRICKTABLE_BOT"] = bot
        command = [sys.executable, "-m", "tricktable.cli", "serve", "--port", str(self.port),
                   "--database", self.database]
        if workers is not None:  # (today's main has one process and no --workers)
            command += ["--workers", str(workers)]
        if steer is not None:
            command += ["--steer", steer]
        # The server's log goes to a file: a pipe nobody reads while it runs would block it once full.
        self.log = Path(self.folder) / "server.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(command, cwd=self.folder, env=env, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"server exited: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1, **PLAIN_HTTP).status_code == 200:
                    try:
                        self.warm_up()
                    except BaseException:
                        self.stop()
                        raise
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit("the server did not start")

    def warm_up(self, games: int = 6) -> None:
        """A few games whose computer players have moved: every worker (and
        its thinking processes) has started before the clock runs."""
        with httpx.Client(base_url=self.url, timeout=60, **PLAIN_HTTP) as http:
            http.post("/api/identity")
            started = []
            for number in range(games):
                answer = http.post("/api/games", json={"game": GAMES[number % len(GAMES)]})
                if answer.status_code != 201:
                    raise SystemExit(f"warm-up: a new game was refused: {answer.status_code} {answer.text[:300]}")
                started.append(answer.json()["id"])
            deadline = time.monotonic() + 60
            for game_id in started:
                while http.get(f"/api/games/{game_id}").json()["thinking"] is not None and time.monotonic() < deadline:
                    time.sleep(0.2)

    def tree(self) -> list[int]:
        """The server's process and all its descendants."""
        return [pid for pid, _depth in self.tree_depths()]

    def tree_depths(self) -> list[tuple[int, int]]:
        """(pid, depth) of the server's process (0) and its descendants."""
        return tree_depths(self.process.pid)

    def resident_by_process(self) -> dict[str, float]:
        """Resident MB per live process, named ``<depth>:<pid>`` (with ``--workers``
        above 1: 0 the supervisor, 1 the server workers, 2 their thinking
        processes; with one worker: 0 the server, 1 its thinking processes;
        multiprocessing's resource tracker is one of them, the smallest)."""
        out = {}
        for pid, depth in self.tree_depths():
            try:
                with open(f"/proc/{pid}/statm") as statm:
                    out[f"{depth}:{pid}"] = round(int(statm.read().split()[1]) * PAGE_BYTES / 2**20, 1)
            except OSError:
                continue
        return out

    def usage(self) -> tuple[float, float]:
        """(CPU seconds, resident MB) of the live process tree."""
        return usage(self.tree())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Running:
    """A server another tool started, listening on a loopback ``port``: played
    against, never started or stopped here (its CPU and memory are not ours to
    measure)."""

    def __init__(self, port: int):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    def usage(self) -> tuple[float, float]:
        return 0.0, 0.0

    def stop(self) -> None:
        pass


def tree_depths(root: int) -> list[tuple[int, int]]:
    """(pid, depth) of ``root`` (0) and its descendants."""
    found, todo = [], [(root, 0)]
    while todo:
        pid, depth = todo.pop()
        found.append((pid, depth))
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as children:
                    todo += [(int(child), depth + 1) for child in children.read().split()]
        except OSError:
            pass
    return found


def usage(pids: list[int]) -> tuple[float, float]:
    """(CPU seconds, resident MB) of these live processes."""
    cpu, rss = 0.0, 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/statm") as statm:
                pages = int(statm.read().split()[1])
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        rss += pages * PAGE_BYTES / 2**20
    return cpu, rss


def database_cpu(postgres: Any) -> float:
    """CPU seconds of the PostgreSQL cluster's processes (0 without one)."""
    if postgres is None:
        return 0.0
    with open(postgres.folder / "data" / "postmaster.pid") as pid_file:
        return usage([pid for pid, _depth in tree_depths(int(pid_file.readline()))])[0]


def supports_workers(source: Path) -> bool:
    help_text = subprocess.run([sys.executable, "-m", "tricktable.cli", "serve", "--help"], capture_output=True,
                               text=True, env={**os.environ, "PYTHONPATH": str(source)}, cwd=source).stdout
    return "--workers" in help_text


# -- the simulated people -----------------------------------------------------------------
def persons_turn(state: dict[str, Any], seat: int = 0) -> bool:
    """Whether the person at ``seat`` (a solo game's person: 0) may act, or the game is over."""
    view = state["view"]
    return view["terminal"] or (view["to_move"] == seat and state.get("thinking") is None and bool(view["legal"]))


class Http:
    """A minimal HTTP/1.1 client for the loopback server under test: one
    keep-alive connection, one request at a time, answers with a
    Content-Length, the identity cookie kept.  It shares the two cores with the
    server, so it must cost little: httpx took about half as much CPU per
    person action as the server itself (6-8 ms)."""

    def __init__(self, port: int, address: str = "127.0.0.1"):
        """``address``: the person's own (loopback) address her connections come
        from, as a person's page connects from hers (``serve`` steers by it)."""
        self.port = port
        self.address = address
        self.cookies: dict[str, str] = {}
        self.received = 0  # the last answer's body bytes, as they came
        self._connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    def head(self, method: str, path: str, length: int | None = None, extra: str = "") -> bytes:
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip",  # as browsers do
                 *([f"Cookie: {cookie}"] if cookie else []),
                 *(["Content-Type: application/json", f"Content-Length: {length}"] if length is not None else []),
                 *([extra] if extra else [])]
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    async def request(self, method: str, path: str, payload: Any = None) -> tuple[int, Any]:
        """(status, the answer's JSON or None); a broken connection raises
        ``ConnectionError`` / ``asyncio.IncompleteReadError`` (an error)."""
        async with asyncio.timeout(REQUEST_SECONDS):  # (no task per request, as wait_for makes)
            return await self._request(method, path, payload)

    async def _request(self, method: str, path: str, payload: Any) -> tuple[int, Any]:
        if self._connection is not None and self._connection[0].at_eof():
            self.close()  # the server closed the idle connection (its keep-alive ran out): a new one, as browsers do
        if self._connection is None:
            self._connection = await self.connect()
        reader, writer = self._connection
        body = orjson.dumps(payload) if payload is not None else b""
        try:
            writer.write(self.head(method, path, len(body) if payload is not None else None) + body)
            status, headers = await self.read_head(reader)
            data = await reader.readexactly(int(headers.get("content-length", "0")))
            self.received = len(data)
        except BaseException:
            self.close()
            raise
        if headers.get("connection") == "close":
            self.close()
        if headers.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        return status, (orjson.loads(data) if data and headers.get("content-type", "").startswith(
            "application/json") else None)

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.address, 0))

    async def read_head(self, reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
        head = await reader.readuntil(b"\r\n\r\n")
        first, *lines = head.decode("latin-1").split("\r\n")
        headers: dict[str, str] = {}
        for line in lines:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookie = value.split(";", 1)[0]
                self.cookies[cookie.split("=", 1)[0]] = cookie.split("=", 1)[1]
            elif name:
                headers[name] = value
        return int(first.split(" ", 2)[1]), headers

    def close(self) -> None:
        if self._connection is not None:
            self._connection[1].close()
            self._connection = None


class Stream:
    """One match's event stream on its own connection, read by a task
    (chunked transfer, events split at blank lines); arrivals timestamped there.
    An event's JSON is parsed only where the person needs it: not for a step
    or state whose version (the SSE id) the person has seen already (her own
    step, answered to her action, comes on the stream too), nor a ``thinking``."""

    def __init__(self, http: Http, game_id: str, version: int, figures: Samples):
        self.arrivals: asyncio.Queue[tuple[float, str, int, bytes]] = asyncio.Queue()
        self.task = asyncio.create_task(self._read(http, f"/api/games/{game_id}/events?version={version}", figures))

    async def _read(self, http: Http, path: str, figures: Samples) -> None:
        writer = None
        try:
            reader, writer = await http.connect()
            writer.write(http.head("GET", path, extra="Accept: text/event-stream"))
            status, headers = await http.read_head(reader)
            if status != 200 or headers.get("transfer-encoding") != "chunked":
                return  # the person notices by a time-out
            pending = b""
            while True:
                size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
                chunk = await reader.readexactly(size + 2)
                figures.stream_bytes += size
                if size == 0:
                    return
                pending += chunk[:-2]
                *events, pending = pending.split(b"\n\n")
                at = time.monotonic()
                for event in events:
                    self.event(at, event)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass  # the server stopped; the person notices by a time-out
        finally:
            if writer is not None:
                writer.close()

    def event(self, at: float, text: bytes) -> None:
        """One SSE message (``event:``, ``id:`` and one ``data:`` line, as the server writes them)."""
        kind, number, data = "message", -1, None
        for line in text.split(b"\n"):
            if line.startswith(b"data:"):
                data = line[5:]
            elif line.startswith(b"event:"):
                kind = line[6:].strip().decode()
            elif line.startswith(b"id:"):
                number = int(line[3:])
        if data is not None:
            self.heard(at, kind, number)
            self.arrivals.put_nowait((at, kind, number, data))

    def heard(self, at: float, kind: str, number: int) -> None:
        """An event as it arrived (kind, SSE id): nothing to note here (``SeatStream`` notes the versions)."""

    async def until_persons_turn(self, state: dict[str, Any], clicked: float | None,
                                 figures: Samples, seat: int = 0) -> dict[str, Any]:
        """Events until the person at ``seat`` may act again; the first bot card's delay."""
        first = True
        async with asyncio.timeout(BOT_ANSWER_SECONDS):  # one clock for the wait (not a task per event)
            while not persons_turn(state, seat):
                at, kind, number, raw = await self.arrivals.get()
                if kind not in ("step", "state") or 0 <= number <= state["version"]:  # (thinking, reaction)
                    continue
                data = orjson.loads(raw)
                if data["version"] <= state["version"]:
                    continue
                state = data
                if first and clicked is not None and kind == "step" and data["steps"] and data["steps"][0]["seat"] != 0:
                    figures.first_bot.append(at - clicked)
                    first = False
        return state

    def close(self) -> None:
        self.task.cancel()


CLIENT_ERRORS = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError)
"""What a person's request may fail with (each counts as an error)."""


def person_address(number: int) -> str:
    """Person ``number``'s loopback address (127.0.0.1 is a proxy's, which ``serve`` does not steer by)."""
    return f"127.0.{number // 250}.{2 + number % 250}"


async def person(number: int, port: int, think: tuple[float, float], stop_at: float, figures: Samples) -> None:
    rng = random.Random(f"load/{number}")
    http = Http(port, person_address(number))
    try:
        await http.request("POST", "/api/identity")  # servers that issue identities want one
        game_index = number
        while time.monotonic() < stop_at:
            game = GAMES[game_index % len(GAMES)]
            game_index += 1
            try:
                await play_match(http, game, rng, think, stop_at, figures)
            except CLIENT_ERRORS as failure:
                figures.error(type(failure).__name__)
                await asyncio.sleep(1.0)
    finally:
        http.close()


async def play_match(http: Http, game: str, rng: random.Random, think: tuple[float, float],
                     stop_at: float, figures: Samples) -> None:
    status, state = await http.request("POST", "/api/games", {"game": game})
    if status != 201:
        figures.error(f"new game {status}")
        await asyncio.sleep(1.0)
        return
    stream = Stream(http, state["id"], state["version"], figures)
    try:
        state = await stream.until_persons_turn(state, None, figures)
        while not state["view"]["terminal"]:
            await asyncio.sleep(rng.uniform(*think))
            if time.monotonic() > stop_at:
                return
            clicked = time.monotonic()
            status, answer = await http.request("POST", f"/api/games/{state['id']}/actions",
                                                {"action": rng.choice(state["view"]["legal"]),
                                                 "version": state["version"]})
            answered = time.monotonic()
            if status == 409:  # a clock ran out, or an out-of-turn race: take the game as it is
                figures.conflicts += 1
                state = (await http.request("GET", f"/api/games/{state['id']}"))[1]
                state = await stream.until_persons_turn(state, None, figures)
                continue
            if status != 200:
                figures.error(f"action {status}")
                return
            state = answer
            figures.actions += 1
            figures.answer_bytes += http.received
            figures.own.append(answered - clicked)
            state = await stream.until_persons_turn(state, clicked, figures)
        figures.matches += 1
    finally:
        stream.close()


# -- tables of four people ------------------------------------------------------------
class SeatStream(Stream):
    """A table seat's event stream: tells ``fan_out`` each event as the
    reader task receives it (whether or not the person is thinking meanwhile)."""

    def __init__(self, http: Http, game_id: str, version: int, seat: int, figures: Samples, fan_out: FanOut):
        self.game_id, self.seat, self.fan_out = game_id, seat, fan_out
        fan_out.listening(game_id, seat, version)
        super().__init__(http, game_id, version, figures)

    def heard(self, at: float, kind: str, number: int) -> None:
        self.fan_out.received(self.game_id, self.seat, kind, number, at)


async def table_group(number: int, port: int, addresses: list[str], think: tuple[float, float], stop_at: float,
                      clock: int | None, figures: Samples, fan_out: FanOut, started: asyncio.Queue[int]) -> None:
    """Four people, one table after another (a table plays one match): the
    first creates it and starts it, the others join by its code."""
    rng = random.Random(f"table/{number}")
    people = [Http(port, address) for address in addresses]
    try:
        for http in people:
            await http.request("POST", "/api/identity")
        game_index = number
        while time.monotonic() < stop_at:
            game = GAMES[game_index % len(GAMES)]
            game_index += 1
            try:
                await play_table_match(people, game, rng, think, stop_at, clock, figures, fan_out, started, number)
            except CLIENT_ERRORS as failure:
                figures.error(type(failure).__name__)
                await asyncio.sleep(1.0)
    finally:
        for http in people:
            http.close()


async def seated_table(people: list[Http], game: str, clock: int | None,
                       figures: Samples) -> list[dict[str, Any]] | None:
    """A started table of ``game`` with ``people`` at seats 0, 1, 2, 3: each
    one's view of its match (None, an error counted, if a step was refused)."""
    host, *guests = people
    status, table = await host.request("POST", "/api/tables", {"game": game, "clock": clock})
    if status != 201:
        figures.error(f"new table {status}")
        return None
    for guest in guests:  # one after another: each takes the first free seat
        status, _ = await guest.request("POST", f"/api/tables/{table['code']}/join", {})
        if status != 200:
            figures.error(f"join {status}")
            return None
    status, hosts_view = await host.request("POST", f"/api/tables/{table['id']}/start")
    if status != 201:
        figures.error(f"start {status}")
        return None
    views = [hosts_view]
    for guest in guests:
        status, view = await guest.request("GET", f"/api/games/{hosts_view['id']}")
        if status != 200:
            figures.error(f"load {status}")
            return None
        views.append(view)
    if [view["view"]["seat"] for view in views] != list(range(SEATS)):
        figures.error("seats not in joining order")
        return None
    return views


async def play_table_match(people: list[Http], game: str, rng: random.Random, think: tuple[float, float],
                           stop_at: float, clock: int | None, figures: Samples, fan_out: FanOut,
                           started: asyncio.Queue[int], number: int) -> None:
    views = await seated_table(people, game, clock, figures)
    if views is None:
        await asyncio.sleep(1.0)
        return
    game_id = views[0]["id"]
    fan_out.seated(game_id, [http.address for http in people])
    streams = [SeatStream(http, game_id, view["version"], seat, figures, fan_out)
               for seat, (http, view) in enumerate(zip(people, views))]
    started.put_nowait(number)
    seats = [asyncio.create_task(play_seat(http, stream, view, seat, rng, think, stop_at, figures, fan_out))
             for seat, (http, stream, view) in enumerate(zip(people, streams, views))]
    try:
        if all(await asyncio.gather(*seats)):
            figures.matches += 1
    finally:  # (one seat's failure ends the others' too: they would wait for his turn)
        for task in seats:
            task.cancel()
        await drained(fan_out, game_id, DRAIN_SECONDS)  # the steps made so far still count
        for stream in streams:
            stream.close()


async def play_seat(http: Http, stream: SeatStream, state: dict[str, Any], seat: int, rng: random.Random,
                    think: tuple[float, float], stop_at: float, figures: Samples, fan_out: FanOut) -> bool:
    """One person at his seat: a legal action at each of his turns, after
    thinking, until the match ends (True) or the run does.  Out-of-turn
    actions (a Doppelkopf announcement offered while another is to move) are
    not taken: see ``docs/performance.md``."""
    game_id = state["id"]
    while not state["view"]["terminal"]:
        # Waiting and thinking end with the run (its clock, not a comparison with
        # stop_at: the loop's clock may run a millisecond apart); an action sent is seen through.
        run_ends = asyncio.timeout(max(0.0, stop_at - time.monotonic()))
        try:
            async with run_ends:
                state = await stream.until_persons_turn(state, None, figures, seat)
                if state["view"]["terminal"]:
                    break
                await asyncio.sleep(rng.uniform(*think))
        except TimeoutError:
            if run_ends.expired():
                return False
            raise  # the wait for his turn timed out: an error
        sent = time.monotonic()
        status, answer = await http.request("POST", f"/api/games/{game_id}/actions",
                                            {"action": rng.choice(state["view"]["legal"]), "version": state["version"]})
        answered = time.monotonic()
        if status != 200:  # 409: the turn clock ran out as he acted; else an error: take the game as it is
            if status == 409:
                figures.conflicts += 1
            else:
                figures.error(f"action {status}")
                await asyncio.sleep(1.0)
            status, state = await http.request("GET", f"/api/games/{game_id}")
            if status != 200:
                figures.error(f"load {status}")
                return False
            continue
        figures.actions += 1
        figures.answer_bytes += http.received
        figures.own.append(answered - sent)
        fan_out.action(game_id, answer["version"], seat, sent, answered)
        state = answer
    return True


async def drained(fan_out: FanOut, game_id: str, seconds: float) -> None:
    """Until every step of ``game_id`` a person made has reached the other
    seats' streams, or ``seconds`` have passed (what is still missing then is an error)."""
    deadline = time.monotonic() + seconds
    while fan_out.missing(game_id) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def placement(server: Server, tables: int, started: asyncio.Queue[int], stop_at: float) -> dict[str, set[int]]:
    """Once every table's first match has started (its streams opened): which
    server process holds each address's connections (``{}`` if the run ended first)."""
    waiting = set(range(tables))
    try:
        async with asyncio.timeout(max(0.0, stop_at - time.monotonic())):
            while waiting:
                waiting.discard(await started.get())
            await asyncio.sleep(1.0)  # (the last table's streams connect)
    except TimeoutError:
        return {}
    return await asyncio.to_thread(processes_by_address, server.port, server.tree())


def placement_figures(held: dict[str, set[int]], tables: list[list[str]]) -> dict[str, Any]:
    """How the tables' seats were spread over the server's processes, as the kernel held their connections."""
    only = {address: next(iter(pids)) for address, pids in held.items() if len(pids) == 1}
    spans = [len({only[address] for address in table if address in only}) for table in tables]
    seats_per_process: dict[str, int] = {}
    for address in only.values():
        seats_per_process[str(address)] = seats_per_process.get(str(address), 0) + 1
    return {"checked": bool(held), "tables_on_two_or_more_processes": sum(1 for span in spans if span >= 2),
            "tables_on_one_process": sum(1 for span in spans if span == 1),
            "seats_per_process": seats_per_process,
            "seats_not_seen": sum(1 for table in tables for address in table if address not in held),
            "seats_on_several_processes": sum(1 for table in tables for address in table
                                              if len(held.get(address, ())) > 1)}


def table_run(source: Path, workers: int | None, tables: int, think: tuple[float, float], seconds: float,
              clock: int | None = None, postgres: Any = None, steer: str | None = None) -> dict[str, Any]:
    """One server, ``tables`` tables of four people for ``seconds``; the step
    fan-out (click → each other seat's stream) and the run's other figures."""
    from tricktable.server.process.steering import socket_for  # (the server's own choice of process)

    addresses = table_addresses(tables, workers or 1, person_address, socket_for)
    server = Server(source, None, workers, postgres, steer)
    figures, fan_out = Samples(), FanOut()
    held: dict[str, set[int]] = {}
    try:
        async def everyone() -> None:
            stop_at = time.monotonic() + seconds
            started: asyncio.Queue[int] = asyncio.Queue()
            placed = asyncio.create_task(placement(server, tables, started, stop_at))
            await asyncio.gather(*(table_group(n, server.port, addresses[n], think, stop_at, clock, figures,
                                               fan_out, started) for n in range(tables)))
            held.update(await placed)

        elapsed, costs = played(server, postgres, everyone)
    finally:
        server.stop()
    delays = fan_out.samples(lambda address: next(iter(held[address])) if len(held.get(address, ())) == 1 else None)
    for _ in range(delays.missing):
        figures.error("step never on a seat's stream")
    return {
        "source": str(source), "database": "postgresql" if postgres is not None else "sqlite",
        "workers": workers or 1, "tables": tables, "people": tables * SEATS, "think_s": list(think),
        "clock_s": clock, "seconds": round(elapsed, 1), "actions": figures.actions,
        "actions_per_s": round(figures.actions / elapsed, 1), "matches_finished": figures.matches,
        "click_to_own_ms": percentiles(figures.own),
        "fan_out_ms": percentiles(delays.from_sent),
        "fan_out_from_answer_ms": percentiles(delays.from_answer),
        "fan_out_same_process_ms": percentiles(delays.same_process),
        "fan_out_other_process_ms": percentiles(delays.other_process),
        "errors": figures.errors, "error_kinds": figures.error_kinds, "conflicts_409": figures.conflicts,
        "placement": placement_figures(held, addresses),
        "bytes_per_action": {"answer": round(figures.answer_bytes / max(1, figures.actions)),
                             "stream": round(figures.stream_bytes / max(1, figures.actions))},
        **costs,
    }


def run_people(people: Any) -> None:
    """The simulated people's event loop: uvloop's where installed (the
    server's own loop, under uvicorn): the people share the two cores with
    the server, and asyncio's own loop took about a fifth of their CPU."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(people)
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(people)


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"n": len(ordered), "p50": round(statistics.median(ordered) * 1000, 1), "p95": at(0.95), "p99": at(0.99)}


def hog() -> None:
    """A CPU-bound process beside the server (``--hogs``): another tenant of the machine."""
    while True:
        pass


def pressure(server: Server | Running) -> dict[str, Any] | None:
    """The answering process's computer-player pressure (``/healthz``), where the server tells it."""
    try:
        return httpx.get(f"{server.url}/healthz", timeout=5, **PLAIN_HTTP).json().get("pressure")
    except (httpx.HTTPError, ValueError):
        return None


def run(source: Path, bot: str | None, workers: int | None, people: int, think: tuple[float, float],
        seconds: float, postgres: Any = None, steer: str | None = None, hogs: int = 0,
        port: int | None = None) -> dict[str, Any]:
    """One server, ``people`` playing for ``seconds`` (beside ``hogs``
    CPU-bound processes); its figures.  ``port``: the server already listening
    there instead of one of our own."""
    server: Server | Running = Running(port) if port is not None else Server(source, bot, workers, postgres, steer)
    figures = Samples()
    hogging = [multiprocessing.Process(target=hog, daemon=True) for _ in range(hogs)]
    for process in hogging:
        process.start()
    try:
        async def everyone() -> None:
            stop_at = time.monotonic() + seconds
            await asyncio.gather(*(person(n, server.port, think, stop_at, figures) for n in range(people)))

        elapsed, costs = played(server, postgres, everyone)
    finally:
        for process in hogging:
            process.kill()
        server.stop()
    return {
        "source": str(source), "database": "postgresql" if postgres is not None else "sqlite",
        **({} if isinstance(server, Running) else {"bot": bot or "default level", "workers": workers or 1}),
        "people": people,
        "think_s": list(think), "seconds": round(elapsed, 1), "actions": figures.actions,
        "actions_per_s": round(figures.actions / elapsed, 1), "matches_finished": figures.matches,
        "click_to_own_ms": percentiles(figures.own), "click_to_first_bot_ms": percentiles(figures.first_bot),
        "errors": figures.errors, "error_kinds": figures.error_kinds, "conflicts_409": figures.conflicts,
        "bytes_per_action": {"answer": round(figures.answer_bytes / max(1, figures.actions)),
                             "stream": round(figures.stream_bytes / max(1, figures.actions))},
        **costs, "hogs": hogs,
    }


def played(server: Server | Running, postgres: Any,
           crowd: Callable[[], Coroutine[Any, Any, None]]) -> tuple[float, dict[str, Any]]:
    """``crowd()`` played against ``server``: the seconds it took, and what it
    cost: the server's CPU seconds and resident MB (a server of our own), the
    database's CPU, this script's CPU, and the server's ``pressure``."""
    cpu_before, _ = server.usage()
    database_before = database_cpu(postgres)
    own_before = own_cpu()
    started = time.monotonic()
    run_people(crowd())
    elapsed = time.monotonic() - started
    cpu_after, rss = server.usage()
    database_after = database_cpu(postgres)
    own_after = own_cpu()
    told = pressure(server)
    return elapsed, {
        **({"server": server.url} if isinstance(server, Running) else
           {"server_cpu_s": round(cpu_after - cpu_before, 1), "server_rss_mb": round(rss, 1)}),
        **({"database_cpu_s": round(database_after - database_before, 1)} if postgres is not None else {}),
        "load_script_cpu_s": round(own_after - own_before, 1),
        **({"pressure": told} if told is not None else {}),
    }


def own_cpu() -> float:
    """CPU seconds of this script (the simulated people run on the same cores)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def within_bound(run: dict[str, Any]) -> bool:
    p99 = run["click_to_own_ms"]["p99"]
    return p99 is not None and p99 <= P99_BOUND_MS


def chosen_instant(instant: list[dict[str, Any]]) -> dict[str, Any]:
    """The fastest instant run of the most processes whose p99 is within the
    bound (else the fastest of them)."""
    most = max(r["workers"] for r in instant)
    candidates = [r for r in instant if r["workers"] == most]
    return max(candidates, key=lambda r: (within_bound(r), r["actions_per_s"]))


def machine_busy(run: dict[str, Any]) -> float:
    """The share of the machine's cores the server and the simulated people used."""
    return (run["server_cpu_s"] + run["load_script_cpu_s"]) / (run["seconds"] * (os.cpu_count() or 1))


def load_cpu_per_action(run: dict[str, Any]) -> float:
    return run["load_script_cpu_s"] / max(1, run["actions"])


def workers_pairs(instant: list[dict[str, Any]]) -> list[dict[str, float]]:
    """At the largest number of people, each one-process run with the
    two-process run after it: the ratio of their rates as measured
    (``measured``) and at the same machine speed (``ratio``), the ratio had
    the two-process run kept every core busy (``ceiling``: the two processes
    share the cores with the people), and how busy the machine was in each.  The machine's speed is gauged by the simulated people's own
    CPU per action, the same work in both runs: in one measured run it
    went from 0.25 to 0.81 ms within two minutes, and a pair measured
    2.39 that was 1.33 at one speed.  (The gauge leans against two
    processes: more switching between more processes costs the people a
    little CPU too.)"""
    crowd = max(r["people"] for r in instant)
    ones = [r for r in instant if r["people"] == crowd and r["workers"] == 1]
    twos = [r for r in instant if r["people"] == crowd and r["workers"] == 2]
    pairs = []
    for one, two in zip(ones, twos):
        measured = two["actions_per_s"] / one["actions_per_s"]
        slower = load_cpu_per_action(two) / load_cpu_per_action(one)  # > 1: the two-process run had a slower machine
        # Had the two processes and the people kept every core busy, at their CPU per action:
        busy_rate = (os.cpu_count() or 1) * two["actions"] / (two["server_cpu_s"] + two["load_script_cpu_s"])
        pairs.append({"ratio": round(measured * slower, 3), "measured": round(measured, 3),
                      "ceiling": round(busy_rate / one["actions_per_s"] * slower, 3),
                      "busy_1": round(machine_busy(one), 3), "busy_2": round(machine_busy(two), 3)})
    return pairs


def summary(instant: list[dict[str, Any]], default: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` shape from one checkout's runs."""
    best = chosen_instant(instant)
    pairs = workers_pairs(instant)
    ratio = round(statistics.median(pair["ratio"] for pair in pairs), 2) if pairs else None
    return {
        "instant": {"actions_per_s": best["actions_per_s"], "p99_ms": best["click_to_own_ms"]["p99"],
                    "errors": sum(r["errors"] for r in instant), "workers_2_vs_1": ratio},
        "default": {"people": default["people"], "first_bot_p95_ms": default["click_to_first_bot_ms"]["p95"],
                    "errors": default["errors"]},
    }


def measure(sources: list[Path], args: argparse.Namespace) -> list[dict[str, Any]]:
    """The two standard measurements of each checkout, one configuration at a
    time with the checkouts in turn (so a change in the machine's load hits
    them alike); per checkout its summary and its runs."""
    scalable = {source: supports_workers(source) for source in sources}
    crowd = max(args.instant_people)
    configurations = [*[(1, crowd), (2, crowd)] * args.pairs,
                      *((2, people) for people in sorted(set(args.instant_people)) if people != crowd)]
    instant: dict[Path, list[dict[str, Any]]] = {source: [] for source in sources}
    for workers, people in configurations:
        for source in sources:
            if workers == 1 or scalable[source]:
                instant[source].append(run(source, "random", workers if scalable[source] else None,
                                           people, (0.0, 0.0), args.instant_seconds, args.postgres))
    default = {source: run(source, None, args.workers if scalable[source] else None, args.people, (1.0, 3.0),
                           args.default_seconds, args.postgres) for source in sources}
    return [{"source": str(source), **summary(instant[source], default[source]),
             "instant_run": {key: chosen_instant(instant[source])[key] for key in ("workers", "people")},
             "workers_pairs": workers_pairs(instant[source]),
             "runs": [*instant[source], default[source]]} for source in sources]


def tables_sweep(source: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``--tables N ...``: the single-person default-level run (``--people``),
    then a run of N tables of four people at each N, each on a server of its
    own, ``--seconds`` each, all thinking ``--think``; each run's figures
    printed as it ends (a JSON line; with ``--json`` only in the details)."""
    workers = args.workers if supports_workers(source) else None
    runs = [run(source, None, workers, args.people, tuple(args.think), args.seconds, args.postgres, args.steer)]
    shown(runs[-1], args)
    for tables in args.tables:
        runs.append(table_run(source, workers, tables, tuple(args.think), args.seconds, args.table_clock,
                              args.postgres, args.steer))
        shown(runs[-1], args)
    return {"summary": tables_summary(runs[0], runs[1:]), "runs": runs}


def shown(figures: dict[str, Any], args: argparse.Namespace) -> None:
    """A run's figures as a JSON line as it ends (with ``--json``: only in the details)."""
    if not args.json:
        print(json.dumps(figures), flush=True)


def within_fan_out_bound(run: dict[str, Any]) -> bool:
    """A table run served its tables: no error, and every other seat had a step within the bound at p95."""
    p95 = run["fan_out_ms"]["p95"]
    return p95 is not None and p95 <= FAN_OUT_P95_BOUND_MS and run["errors"] == 0


def tables_summary(default: dict[str, Any], table_runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The sweep's figures side by side: the single-person default run's, as
    ``--json`` gives them, and per table run its fan-out; ``most_tables_within_bound``:
    the most tables of a run within ``FAN_OUT_P95_BOUND_MS`` with no error (None: no run was)."""
    within = [r["tables"] for r in table_runs if within_fan_out_bound(r)]
    return {
        "default": {"people": default["people"], "first_bot_p95_ms": default["click_to_first_bot_ms"]["p95"],
                    "errors": default["errors"]},
        "tables": {"fan_out_p95_bound_ms": FAN_OUT_P95_BOUND_MS, "most_tables_within_bound": max(within, default=None),
                   "runs": [{"tables": r["tables"], "people": r["people"], "fan_out_ms": r["fan_out_ms"],
                             "fan_out_other_process_p95_ms": r["fan_out_other_process_ms"]["p95"],
                             "errors": r["errors"],
                             "tables_on_two_or_more_processes": r["placement"]["tables_on_two_or_more_processes"]}
                            for r in table_runs]},
    }


def soak(source: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``--soak MINUTES``: half the default load for that long; the server's
    memory sampled every ``SOAK_SAMPLE_SECONDS`` (a twelfth of a shorter run); afterwards every finished
    game in the database is replayed from its record.  Passes when memory grew
    at most ``SOAK_GROWTH`` after the warm-up (the first sixth, at least one
    sample), no error happened and every finished game replays."""
    from tricktable.catalog import replay

    people = max(1, args.people // 2)
    seconds = args.soak * 60
    server = Server(source, None, args.workers if supports_workers(source) else None)
    figures = Samples()
    memory: list[tuple[float, float]] = []
    by_process: list[dict[str, float]] = []
    try:
        async def sample(stop_at: float) -> None:
            started = time.monotonic()
            while time.monotonic() < stop_at:
                memory.append((round(time.monotonic() - started, 1), round(server.usage()[1], 1)))
                by_process.append(server.resident_by_process())
                await asyncio.sleep(min(SOAK_SAMPLE_SECONDS, seconds / 12))

        async def everyone() -> None:
            stop_at = time.monotonic() + seconds
            await asyncio.gather(sample(stop_at), *(person(n, server.port, (1.0, 3.0), stop_at, figures)
                                                    for n in range(people)))

        run_people(everyone())
        memory.append((seconds, round(server.usage()[1], 1)))
        by_process.append(server.resident_by_process())
    finally:
        server.stop()
    finished, broken = 0, []
    with sqlite3.connect(f"{server.folder}/load.db") as db:
        # (since migration 0004 the actions are a column of their own; a checkout from before has none)
        split = any(column[1] == "actions" for column in db.execute("PRAGMA table_info(games)"))
        query = f"SELECT id, record, {'actions' if split else 'NULL'} FROM games WHERE status = 'over'"
        for game_id, head, actions in db.execute(query):
            finished += 1
            record = json.loads(head)
            if actions is not None:
                record["actions"] = json.loads(f"[{actions}]")
            try:
                if not replay(record).is_terminal():
                    broken.append(f"{game_id}: replays to an unfinished game")
            except Exception as failure:  # noqa: BLE001 - every failure is reported
                broken.append(f"{game_id}: {failure}")
    warm_index = max(1, len(memory) // 6) - 1
    warm = memory[warm_index][1]
    # Which process grew: its resident MB after the warm-up and at the end.
    per_process = {name: [mb, by_process[-1].get(name)] for name, mb in by_process[warm_index].items()}
    growth = round(max(rss for _at, rss in memory[max(1, len(memory) // 6):] or memory[-1:]) / warm - 1, 3)
    return {"soak": {
        "minutes": args.soak, "people": people, "workers": args.workers, "actions": figures.actions,
        "errors": figures.errors, "error_kinds": figures.error_kinds, "conflicts_409": figures.conflicts,
        "click_to_own_ms": percentiles(figures.own), "click_to_first_bot_ms": percentiles(figures.first_bot),
        "rss_mb_after_warm_up": warm, "rss_mb_max_after": max(rss for _at, rss in memory), "memory_growth": growth,
        "rss_mb_samples": memory, "rss_mb_by_process_after_warm_up_and_at_end": per_process,
        "finished_games": finished, "finished_games_not_replaying": broken,
        "ok": growth <= SOAK_GROWTH and figures.errors == 0 and not broken and finished > 0,
    }}


def soak_text(soak: dict[str, Any]) -> str:
    """``--soak`` without ``--json``: its checks and main figures, a line each."""
    def latency(figures: dict[str, Any]) -> str:
        return f"p50 {figures['p50']} / p95 {figures['p95']} / p99 {figures['p99']} ms"

    lines = [f"soak {soak['minutes']} min, {soak['people']} people, {soak['workers']} workers: "
             + ("passed" if soak["ok"] else "FAILED"),
             f"memory after warm-up {soak['rss_mb_after_warm_up']} MB, at most {soak['rss_mb_max_after']} MB "
             f"({soak['memory_growth']:+.1%}; the check: at most {SOAK_GROWTH:+.0%})",
             f"errors {soak['errors']} in {soak['actions']} person actions"
             + (f" {soak['error_kinds']}" if soak["error_kinds"] else "") + f", {soak['conflicts_409']} conflicts (409)",
             f"finished games that replay: {soak['finished_games'] - len(soak['finished_games_not_replaying'])} "
             f"of {soak['finished_games']} (the check: all, and at least one)",
             *(f"  not replaying: {broken}" for broken in soak["finished_games_not_replaying"]),
             f"click→own {latency(soak['click_to_own_ms'])}; click→first bot {latency(soak['click_to_first_bot_ms'])}",
             "resident MB per process (depth:pid), after warm-up → at the end:",
             *(f"  {name}: {mb} → {'gone' if end is None else end}"
               for name, (mb, end) in soak["rss_mb_by_process_after_warm_up_and_at_end"].items())]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="the two standard measurements, as JSON")
    parser.add_argument("--source", type=Path, default=REPO, help="checkout whose server to run (default: this one)")
    parser.add_argument("--compare", type=Path, default=None, help="another checkout measured in the same run")
    parser.add_argument("--details", type=Path, default=None,
                        help="with --json or --tables: where every run's figures go "
                             "(default build/load.json; with --tables build/load-tables.json)")
    parser.add_argument("--soak", type=float, default=None, metavar="MINUTES",
                        help="half the default load for MINUTES: memory, errors, finished games replay")
    parser.add_argument("--people", type=int, default=40, help="simulated people (default 40)")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"),
                        help="seconds a person thinks before each action (default 1 3)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    parser.add_argument("--bot", default=None, help="seat this bot at every level (e.g. random); default: the levels")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long one run lasts (default 60)")
    parser.add_argument("--port", type=int, default=None,
                        help="one run against the server already listening on this loopback port (not started here)")
    parser.add_argument("--postgresql", action="store_true",
                        help="each server on its own database of a throwaway PostgreSQL cluster (as the tests start: "
                             "fsync off) instead of a SQLite file (not with --soak)")
    parser.add_argument("--steer", choices=("address", "none"), default=None,
                        help="one run or --tables: the server's --steer (default: its own default)")
    parser.add_argument("--instant-people", type=int, nargs="+", default=[16, 32],
                        help="with --json: instant runs at each of these numbers of people (default 16 32)")
    parser.add_argument("--pairs", type=int, default=3,
                        help="with --json: one- and two-process instant runs, in turn, this many times (default 3)")
    parser.add_argument("--hogs", type=int, nargs="+", default=[0],
                        help="one run: CPU-bound processes beside the server; several numbers: a run at each, "
                             "and with --compare each checkout in turn (default 0)")
    parser.add_argument("--tables", type=int, nargs="+", default=None, metavar="N",
                        help="the single-person default run (--people), then a run of N tables of four people at "
                             "each N (--seconds each): the step fan-out, and the most tables within "
                             f"{FAN_OUT_P95_BOUND_MS:.0f} ms p95")
    parser.add_argument("--table-clock", type=int, choices=(0, 15, 30, 60), default=None,
                        help="with --tables: the tables' turn clock in seconds (default: the server's, 30 s)")
    parser.add_argument("--instant-seconds", type=float, default=20.0)
    parser.add_argument("--default-seconds", type=float, default=90.0)
    args = parser.parse_args(argv)
    if args.port is not None and (args.json or args.soak is not None or args.compare or args.hogs != [0]):
        parser.error("--port is one run against a running server: not with --json, --soak, --compare or --hogs")
    if args.tables is not None and (args.soak is not None or args.compare or args.port is not None
                                    or args.hogs != [0] or args.bot):
        parser.error("--tables runs its own servers at the default level: not with --soak, --compare, --port, "
                     "--hogs or --bot")
    if args.tables is not None and min(args.tables) < 1:
        parser.error("--tables: at least one table a run")
    args.details = args.details or REPO / "build" / ("load-tables.json" if args.tables else "load.json")
    if args.postgresql and args.soak is not None:
        parser.error("--soak checks the finished games of its SQLite file: not with --postgresql")
    args.postgres = None
    if args.postgresql:
        sys.path.insert(0, str(REPO))
        from tests.harness import Postgres

        args.postgres = Postgres.start()
    try:
        return measured_and_printed(args)
    finally:
        if args.postgres is not None:
            args.postgres.stop()


def measured_and_printed(args: argparse.Namespace) -> int:
    if args.soak is not None:
        result = soak(args.source.resolve(), args)
        print(json.dumps(result) if args.json else soak_text(result["soak"]))
        return 0 if result["soak"]["ok"] else 1
    if args.tables is not None:
        started = time.monotonic()
        sweep = tables_sweep(args.source.resolve(), args)
        args.details.parent.mkdir(parents=True, exist_ok=True)
        args.details.write_text(json.dumps({**sweep, "meta": {"seconds": round(time.monotonic() - started, 1),
                                                              "cores": os.cpu_count(),
                                                              "load_average": os.getloadavg()}}, indent=1))
        print(json.dumps(sweep["summary"]))
        return 0
    if not args.json:
        sources = [args.source, *([args.compare] if args.compare else [])]
        for hogs in args.hogs:
            for source in sources:
                workers = args.workers if supports_workers(source) else None
                print(json.dumps(run(source, args.bot, workers, args.people, tuple(args.think), args.seconds,
                                     args.postgres, args.steer, hogs, args.port)), flush=True)
        return 0
    started = time.monotonic()
    sources = [args.source.resolve(), *([args.compare.resolve()] if args.compare else [])]
    measured = measure(sources, args)
    details = {"checkouts": measured, "meta": {"seconds": round(time.monotonic() - started, 1),
                                                "cores": os.cpu_count(), "load_average": os.getloadavg()}}
    args.details.parent.mkdir(parents=True, exist_ok=True)
    args.details.write_text(json.dumps(details, indent=1))
    for checkout in measured:  # a line per checkout for people, on stderr
        print(f"{checkout['source']}: " + json.dumps({key: checkout[key] for key in
                                                      ("instant", "instant_run", "workers_pairs", "default")}),
              file=sys.stderr)
    print(json.dumps({key: measured[0][key] for key in ("instant", "default")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
