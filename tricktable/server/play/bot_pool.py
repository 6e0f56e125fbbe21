"""Where the computer players think, and the hint is searched: in the calling
thread, or in a pool of worker processes so that one server uses every core.

A decision travels to a worker as (bot factory, game, level, seed,
observation) and comes back as the action text, so a worker never sees a
state, and a decision is the same wherever it is made (its seed is fixed by
the position).  The bot factory must be picklable (a module-level function
or ``ForcedBot``).  A worker whose server process died exits by itself.
"""

from __future__ import annotations

import copyreg
import logging
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import MappingProxyType
from typing import Any, Callable, TypeVar

from tricktable.bots import Bot
from tricktable.core.observation import Observation
from tricktable.server.parent_death import watch_parent

log = logging.getLogger("tricktable.server")

BotFactory = Callable[[str, str, str], Bot]
"""``(game, level, seed) -> Bot``: the computer player seated at a level."""
Think = Callable[[BotFactory, str, str, str, Observation], str]
"""``(bot factory, game, level, seed, observation) -> action text``."""
Answer = TypeVar("Answer")


def _frozen(items: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(items)


def _reduce_frozen(proxy: MappingProxyType[str, Any]) -> tuple[Callable[[dict[str, Any]], MappingProxyType[str, Any]],
                                                                 tuple[dict[str, Any]]]:
    return _frozen, (dict(proxy),)


# Observations keep their option and match facts read-only; they travel to a
# worker as plain dicts and are read-only again there.
copyreg.pickle(MappingProxyType, _reduce_frozen)


def think_here(factory: BotFactory, game: str, level: str, seed: str, observation: Observation) -> str:
    """One decision in the calling thread (and in a worker process)."""
    return str(factory(game, level, seed).choose(observation))


def _watch_parent(parent: int) -> None:
    """In a worker: exit once the server process that started it is gone
    (after a kill -9 nobody would shut the pool down).  Watched from a thread:
    the pool may start workers from any of the server's threads."""
    watch_parent(parent, signal.SIGKILL)


def _warm() -> None:
    """Import every game and its bots before the first decision needs them."""
    from tricktable.bots.levels import best_bot
    from tricktable.catalog import GAMES

    for game in GAMES:
        best_bot(game, "normal", "warm")


class ThinkingPool:
    """``processes`` worker processes; ``think`` blocks the calling thread
    (one of the scheduler's) until the decision is back."""

    def __init__(self, processes: int):
        self.processes = processes
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._stopped = False

    def start(self) -> None:
        self._stopped = False
        pool = self._executor()
        for _ in range(self.processes):
            pool.submit(_warm)

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._stopped:
                raise RuntimeError("the thinking processes are stopped")
            if self._pool is None:
                # spawn: a fork of a threaded server could copy a held lock.
                self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_watch_parent, initargs=(os.getpid(),))
            return self._pool

    def think(self, factory: BotFactory, game: str, level: str, seed: str, observation: Observation) -> str:
        return self.run(think_here, factory, game, level, seed, observation)

    def run(self, work: Callable[..., Answer], *args: object, timeout: float | None = None) -> Answer:
        """``work(*args)`` in a worker (``work`` and its arguments picklable);
        ``TimeoutError`` after ``timeout`` seconds (the work goes on and its
        answer is dropped)."""
        try:
            return self._executor().submit(work, *args).result(timeout)
        except BrokenProcessPool:
            if self._stopped:
                raise
            log.warning("a thinking process died; starting new ones")
            with self._lock:
                self._pool = None
            return self._executor().submit(work, *args).result(timeout)

    def stop(self) -> None:
        """End the workers now: a decision under way is dropped (nothing of it
        was committed; the turn's next holder decides it again, identically)."""
        with self._lock:
            pool, self._pool, self._stopped = self._pool, None, True
        if pool is None:
            return
        # The executor has no "terminate": its worker processes are stopped
        # directly, so a shutdown never waits for a long search.
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["BotFactory", "Think", "ThinkingPool", "think_here"]
