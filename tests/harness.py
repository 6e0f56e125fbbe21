"""Helpers for the server's tests: a throwaway PostgreSQL server and server
processes on free ports.  Nothing here runs in production: it lives with the tests
(``tests.harness``), and the measuring scripts (``scripts/load.py``, ``latency.py``,
``abuse.py``) put the repository root on ``sys.path`` to use it."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import httpx
import orjson

from tricktable.server.play.view import PREVIOUS_DEAL

if TYPE_CHECKING:
    import queue

    from tricktable.store import Store


def backdate_identities(store: "Store", days: float, cookie: str | None = None) -> None:
    """Make every identity in ``store`` (or the one in ``cookie``) a regular of
    ``days`` ago: issued then, and owner of a game it finished then (a real
    match, played to its end with random legal actions), so its daily
    attempt is ranked."""
    import random
    from datetime import datetime, timedelta, timezone

    from sqlalchemy import select, update

    from tricktable.core.record import record_of
    from tricktable.catalog import get_spec
    from tricktable.store.schema import games, identities

    query = update(identities).values(issued_at=identities.c.issued_at - days * 86400)
    if cookie is not None:
        query = query.where(identities.c.id == cookie.split(".")[0])
    with store.engine.begin() as db:
        db.execute(query)
        chosen = select(identities.c.id)
        owners = [row[0] for row in db.execute(
            chosen.where(identities.c.id == cookie.split(".")[0]) if cookie is not None else chosen)]
    then = datetime.now(timezone.utc) - timedelta(days=days)
    for owner in owners:
        spec = get_spec("euchre")
        state = spec.new_match(f"regular/{owner}", spec.normalize_options({}))
        rng = random.Random(owner)
        while not state.is_terminal():
            state.apply_any(rng.choice(list(state.referee_actions() or state.legal_actions())))
        record = record_of(state).to_json()
        row = store.create_game(record, "over", owner=owner)
        with store.engine.begin() as db:
            db.execute(update(games).where(games.c.id == row.id).values(created_at=then, updated_at=then))


@contextmanager
def sqlite_held(url: str) -> Iterator[None]:
    """Another process's exclusive transaction on a SQLite database for as
    long as the block runs (a backup, a stuck writer): its writers must wait."""
    import sqlite3

    locker = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=1, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        locker.execute("ROLLBACK")
        locker.close()


def hand_over(store: "Store", game_id: str, owner: str) -> None:
    """Make ``owner`` (an identity id) the owner of a game a test made through
    the room, as if that person had started it."""
    from sqlalchemy import update

    from tricktable.store.schema import games

    with store.engine.begin() as db:
        db.execute(update(games).where(games.c.id == game_id).values(owner=owner))


def identity_of(http: Any) -> str:
    """The id of the identity a client that keeps cookies (a ``TestClient``
    or ``httpx.Client``) plays as, issued now if it has none: the owner to
    give a game made through the room, so that the client may play it."""
    from tricktable.server.trust.identity import COOKIE

    if COOKIE not in http.cookies:
        http.post("/api/identity").raise_for_status()
    return str(http.cookies[COOKIE]).split(".")[0]


def same_person(first: Any, *others: Any) -> None:
    """Let clients that keep cookies play as one person (two tabs, or a page
    and its stream, on one or several server processes): ``first``'s
    identity, issued now if it has none, copied to ``others``."""
    from tricktable.server.trust.identity import COOKIE

    identity_of(first)
    for other in others:
        other.cookies.set(COOKIE, first.cookies[COOKIE])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_pg_bin() -> Path | None:
    """The folder of Debian's PostgreSQL server programs (initdb, pg_ctl)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@dataclass
class Postgres:
    """A PostgreSQL server in a temp folder on a random loopback port."""

    folder: Path
    port: int
    bin: Path
    user: str | None  # run as this user (root may not run postgres)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    @classmethod
    def start(cls) -> "Postgres":
        pg_bin = find_pg_bin()
        if pg_bin is None:
            raise RuntimeError("PostgreSQL is not installed (scripts/test-deps.sh installs it)")
        folder = Path(tempfile.mkdtemp(prefix="tricktable-pg-"))
        user = "postgres" if os.geteuid() == 0 else None
        if user:
            shutil.chown(folder, user)
        server = cls(folder, free_port(), pg_bin, user)
        data = str(folder / "data")
        server._run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        options = f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        server._run("pg_ctl", "-D", data, "-o", options, "-l", str(folder / "log"), "-w", "start")
        return server

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg

        name = f"t_{os.urandom(6).hex()}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


class ServerProcess:
    """``tricktable serve`` in a child process."""

    def __init__(self, database: str, port: int | None = None, bot: str | None = "random", limit_scale: float = 50,
                 workers: int = 1, env: dict[str, str] | None = None):
        """``workers`` 1: one process that a test may kill -9 (several workers
        are uvicorn's children, which a killed parent leaves behind)."""
        self.database = database
        self.bot = bot
        self.workers = workers
        self.env = env or {}
        # Browser tests open many fresh profiles from one address; the limits
        # themselves are tested through the API.
        self.limit_scale = limit_scale
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> "ServerProcess":
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tricktable.cli", "serve", "--port", str(self.port), "--database", self.database,
             "--workers", str(self.workers)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "TRICKTABLE_LIMIT_SCALE": str(self.limit_scale),
                 **({"TRICKTABLE_BOT": self.bot} if self.bot else {}), **self.env},
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not answer /healthz in time")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a stop that hangs must not leave a server behind
                self.process.kill()
                self.process.wait(timeout=10)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)


# -- the live channel, as a client reads it ---------------------------------------------
class EventLines:
    """The server-sent-events wire format, read one line at a time (for any
    client loop, sync or async): ``line`` returns ``(kind, data)`` when a
    line ends an event, ``("comment", None)`` for a comment (keep-alive), so a
    reader can check a clock, else None."""

    def __init__(self) -> None:
        self.kind, self.data = "message", ""

    def line(self, line: str) -> tuple[str, dict[str, Any] | None] | None:
        if line.startswith(":"):
            return "comment", None
        if line.startswith("event:"):
            self.kind = line[6:].strip()
        elif line.startswith("data:"):
            self.data += line[5:].strip()
        elif not line and self.data:
            event = self.kind, orjson.loads(self.data)
            self.kind, self.data = "message", ""
            return event
        return None


def read_events(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any] | None]]:
    """The server-sent events of a streamed response as (kind, data); a
    comment (keep-alive) comes as ("comment", None) so readers can check a clock."""
    lines = EventLines()
    for line in response.iter_lines():
        event = lines.line(line)
        if event is not None:
            yield event


def listen(http: httpx.Client, game_id: str, version: int, into: "queue.Queue[tuple[float, str, dict[str, Any]]]",
           stop: threading.Event, timeout: float = 30.0, path: str | None = None) -> None:
    """Read a game's event stream from ``version`` in a thread, each event with
    its arrival time into ``into``, until ``stop`` (looked at after each event;
    the stream closed after ``stop``, by its client or a stopping server, just
    ends the thread).  Returns once the server has answered 200: it subscribed
    to the game before, so every commit after this call is told on the stream;
    raises what kept the stream from opening.  ``path``: another stream of the
    game (a watcher's) than ``/api/games/{game_id}/events``."""
    opened = threading.Event()
    unopened: list[BaseException] = []  # why it did not open, for the caller

    def run() -> None:
        try:
            with http.stream("GET", path or f"/api/games/{game_id}/events", params={"version": version}) as response:
                response.raise_for_status()
                opened.set()
                for kind, data in read_events(response):
                    if data is not None:
                        into.put((time.monotonic(), kind, data))
                    if stop.is_set():
                        return
        except BaseException as error:
            if not opened.is_set():
                unopened.append(error)  # the caller raises it
            elif not stop.is_set():
                raise  # the stream broke while the test still listens (after ``stop`` any end is its end)
        finally:
            opened.set()  # (also when it failed: the caller is not kept waiting)

    threading.Thread(target=run, daemon=True).start()
    if not opened.wait(timeout):
        raise TimeoutError(f"the event stream of {game_id} did not open in {timeout} s")
    if unopened:
        raise RuntimeError(f"the event stream of {game_id} did not open") from unopened[0]


def events_until_settled(http: httpx.Client, game_id: str, version: int,
                         timeout: float = 60.0) -> list[tuple[str, dict[str, Any]]]:
    """The events after ``version`` until the computer players have moved (a
    step or state in which nobody thinks); ``TimeoutError`` after ``timeout``
    seconds (checked at each event or keep-alive)."""
    deadline = time.monotonic() + timeout
    seen: list[tuple[str, dict[str, Any]]] = []
    with http.stream("GET", f"/api/games/{game_id}/events", params={"version": version}) as response:
        if response.status_code != 200:
            response.read()
            raise AssertionError(f"events: {response.status_code} {response.text}")
        for kind, data in read_events(response):
            if data is not None:
                seen.append((kind, data))
                if kind in ("step", "state") and data["thinking"] is None:
                    return seen
            if time.monotonic() > deadline:
                break
    raise TimeoutError(f"the computer players of {game_id} did not finish in {timeout} s: {seen[-3:]}")


def finish(http: httpx.Client, state: dict[str, Any], seed: int = 3) -> dict[str, Any]:
    """The match of ``state`` played to its end by random legal actions of the
    person (seeded), the computer players answering each."""
    import random

    rng = random.Random(seed)
    state = settle(http, state)
    while not state["view"]["terminal"]:
        state = act(http, state, rng.choice(state["view"]["legal"]))
    return state


def settle(http: httpx.Client, state: dict[str, Any]) -> dict[str, Any]:
    """``state`` once the computer players have answered: the last response,
    with every step since ``state`` (the shape one answer had before the
    live channel)."""
    if state["thinking"] is None:
        return state
    steps = list(state["steps"])
    final = state
    for kind, data in events_until_settled(http, state["id"], state["version"]):
        if kind == "step":
            steps += data["steps"]
            final = data
        elif kind == "state":
            steps, final = [], data
    return {**final, "steps": steps}


def frame_view(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as a step frame in the middle of a deal carries it, without the
    previous deal (``responses.step_view``): to compare a step's view with a
    whole state's (a load, a ``state`` event), which carries the previous deal."""
    match = view.get("match")
    if match is None:
        return view
    return {**view, "match": {name: value for name, value in match.items() if name != PREVIOUS_DEAL}}


def act(http: httpx.Client, state: dict[str, Any], action: str) -> dict[str, Any]:
    """The person's action, then ``settle``; an HTTP error status raises."""
    answer = http.post(f"/api/games/{state['id']}/actions", json={"action": action, "version": state["version"]})
    if answer.status_code != 200:
        raise AssertionError(f"{action!r} at version {state['version']}: {answer.status_code} {answer.text}")
    return settle(http, answer.json())
