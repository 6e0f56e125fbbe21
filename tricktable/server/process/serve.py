"""``tricktable serve``: run the app under uvicorn, in ``--workers`` processes
on one port (each is a whole server; they share the database, which decides
every race, and see each other's moves through its change feed), each with its
own pool of processes the computer players think in.  Each worker accepts from
its own socket, and the kernel steers a client's connections to one of them by
her address (``process/steering.py``): her stream is where her actions are committed.
A worker that dies is started again on its socket."""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import signal
import socket
import threading
from typing import Any

import uvicorn
from fastapi import FastAPI

from tricktable.bots import BOTS
from tricktable.server.http.app import create_app
from tricktable.server.parent_death import follow_parent
from tricktable.server.play.scheduler import BotFactory, default_bot_factory, forced_bot
from tricktable.server.process.steering import listening_sockets
from tricktable.store import Store, default_database_url

THINK_PROCESSES_VARIABLE = "TRICKTABLE_THINK_PROCESSES"
SUPERVISOR_VARIABLE = "TRICKTABLE_SUPERVISOR_PID"
GRACEFUL_SHUTDOWN_SECONDS = 3
KEEP_ALIVE_SECONDS = 65
"""How long an idle client connection stays open (uvicorn's default is 5 s): a
person waits longer than that for the computer players between two requests,
and a client that sends on a connection the server is just closing gets a
read error (the likely cause of the 30-minute soak's four errors); longer than the usual 60 s idle
timeout of a load balancer, so the balancer closes first."""
"""Open event streams never end by themselves; on shutdown they get this long."""
MALLOC_ARENAS_VARIABLE = "MALLOC_ARENA_MAX"
MALLOC_ARENAS = "2"
"""glibc's malloc arenas in the processes ``serve`` starts (unless the operator set
it): by default up to eight per core, one per thread that allocates at once, each
keeping its own freed memory; a server worker's threads (requests, computer
players' turns, streams) left 9-11 MB free in them after ten minutes of a soak,
3-5 MB with two (10-minute soaks, 20 people, 2 workers)."""


COLLECTOR_THRESHOLDS = (20_000, 20, 20)
"""The cyclic garbage collector's thresholds in a server process (Python's are
700, 10, 10).  A step's views, frames and responses allocate thousands of
small lists and dicts, freed by their reference counts, but every 700 of them
started a collection, and every hundredth of those a full one over the state
cache's hundred thousand objects and more: 14 % of a busy server worker's CPU
(0.60 of 4.38 CPU-s; 327 young, 30 middle, 3 full collections in 14 s of the
instant load test), 0.024 of 3.54 CPU-s (4 young ones) with these.  Cycles are
rare here (the request path builds none), so they wait a little longer."""


def tune_collector() -> None:
    """This server process's garbage collector: fewer collections (``COLLECTOR_THRESHOLDS``),
    and the objects of its start (modules, the app, the catalogs) never scanned again."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    gc.freeze()


def bot_factory_from_environment() -> BotFactory:
    """``TRICKTABLE_BOT`` (e.g. ``random`` for fast tests) seats that bot at
    every level; unset, the levels' own players sit."""
    forced = os.environ.get("TRICKTABLE_BOT")
    if not forced:
        return default_bot_factory
    if forced not in BOTS:
        raise SystemExit(f"TRICKTABLE_BOT={forced!r} is not a bot; known: {', '.join(BOTS)}")
    return forced_bot(forced)


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def app_from_environment() -> FastAPI:
    """The app of one worker process (uvicorn calls it in each): the database
    and the thinking processes come from the environment ``serve`` sets.  The
    worker stops when its supervisor dies, even by ``kill -9``, so that no
    orphan keeps the port."""
    follow_parent(int(os.environ[SUPERVISOR_VARIABLE]))
    app = create_app(os.environ["TRICKTABLE_DATABASE_URL"], bot_factory=bot_factory_from_environment(),
                     think_processes=int(os.environ.get(THINK_PROCESSES_VARIABLE, "1")))
    tune_collector()
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, database: str | None = None, workers: int | None = None,
          think_processes: int | None = None, steer: str = "address") -> int:
    """Serve until stopped; the exit code (1: a worker could not start)."""
    url = database or default_database_url()
    workers = max(1, workers or cores())
    think_processes = max(1, think_processes or cores() // workers)
    shown = "[::1]" if host == "::1" else host
    # Printed before uvicorn starts so scripts (and people) know where to go.
    print(f"tricktable: serving the card room at http://{shown}:{port}/ (database: {_safe(url)}; "
          f"{workers} server process(es), {think_processes} thinking process(es) each)", flush=True)
    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning",
                               "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
                               "timeout_keep_alive": KEEP_ALIVE_SECONDS,
                               # No access log: each request's line costs more than a cheap request.
                               "access_log": False}
    # Read by glibc as a process starts: the workers and thinking processes get it (not this one).
    os.environ.setdefault(MALLOC_ARENAS_VARIABLE, MALLOC_ARENAS)
    if workers == 1:
        app = create_app(url, bot_factory=bot_factory_from_environment(), think_processes=think_processes)
        tune_collector()
        uvicorn.run(app, **options)
        return 0
    os.environ["TRICKTABLE_DATABASE_URL"] = url
    os.environ[THINK_PROCESSES_VARIABLE] = str(think_processes)
    os.environ[SUPERVISOR_VARIABLE] = str(os.getpid())
    Store(url).close()  # migrate once, before the workers start
    config = uvicorn.Config("tricktable.server.process.serve:app_from_environment", factory=True, **options)
    return Supervisor(config, listening_sockets(host, port, workers, steer)).run()


STARTUP_FAILURE = 3
"""A uvicorn worker's exit code when its app could not start (``uvicorn.config``):
it would fail the same way again, so the supervisor stops."""
log = logging.getLogger("tricktable.server")


def _worker(config: uvicorn.Config, listener: socket.socket) -> None:
    config.configure_logging()
    uvicorn.Server(config).run(sockets=[listener])


class Supervisor:
    """One worker process per listening socket (a new one if it dies), until
    SIGINT or SIGTERM, which it passes on.  Unlike uvicorn's supervisor, each
    worker keeps its own socket: the kernel's steering names sockets, so a
    replacement must take over its predecessor's (the supervisor holds them all
    open meanwhile: the connections steered there wait in its queue)."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]):
        self.config = config
        self.sockets = sockets
        self._stop = threading.Event()

    def run(self) -> int:
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, lambda *_: self._stop.set())
        processes = [self._start(listener) for listener in self.sockets]
        failed = False
        while not self._stop.wait(0.5):
            for index, process in enumerate(processes):
                if process.is_alive():
                    continue
                if process.exitcode == STARTUP_FAILURE:
                    log.error("serve: a server process could not start; stopping")
                    failed = True
                    self._stop.set()
                    break
                log.warning("serve: server process %s ended (exit code %s); starting another", process.pid,
                            process.exitcode)
                processes[index] = self._start(self.sockets[index])
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(GRACEFUL_SHUTDOWN_SECONDS + 5)
            if process.is_alive():
                process.kill()
        return 1 if failed else 0

    def _start(self, listener: socket.socket) -> multiprocessing.process.BaseProcess:
        process = multiprocessing.get_context("spawn").Process(target=_worker, args=(self.config, listener))
        process.start()
        return process


def _safe(url: str) -> str:
    """The URL without a password, for printing."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.split('@', 1)[1]}"
    return url
