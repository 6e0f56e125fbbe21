"""The computer players' turns, off the request path.

``wake(game_id)`` asks for a game's pending work: the bots to move, or the
referee's timeout once the person's clock has run out.  A small thread pool
works the games; one game is worked by one worker at a time, and every bot
action is committed on its own under the version check, then published.  A
person's action that lands while a bot thinks makes the bot's commit stale: its
choice is discarded and the bot thinks again on the new position.

Several server processes may share one database: a game's bot turn is
claimed with a lease in the database (``Store.claim_turn``), so exactly one
process works it; the lease is renewed at every bot action and given back when
the person is to move.  A lease that ran out belongs to a process that died:
every process looks for those every third of ``LEASE_SECONDS`` and takes the
turn over.  The thinking itself happens in ``think`` (``thinking.py``: this
thread, or a pool of worker processes).

Nothing lives only here: after a restart, ``start`` wakes the open games and
every load wakes its game, so an interrupted turn continues from the database.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from tricktable.bots import Bot, make_bot
from tricktable.bots.levels import best_bot
from tricktable.core.protocol import GameState
from tricktable.server.channel import Channel, Event
from tricktable.server.referee import Position, Referee
from tricktable.server.responses import HUMAN, level_of
from tricktable.server.thinking import Think, think_here
from tricktable.store import GameRow, StaleVersion

log = logging.getLogger("tricktable.server")

BotFactory = Callable[[str, str, str], Bot]
"""``(game, level, seed) -> Bot``: the computer player seated at a level."""
Announce = Callable[[Position, dict[str, Any]], None]
"""Publishes a committed step (the room shapes it)."""

STARTUP_SCAN_LIMIT = 1000
"""How many recently changed open games ``start`` wakes; older ones wake when loaded."""
LEASE_SECONDS = float(os.environ.get("TRICKTABLE_LEASE_SECONDS", "15"))
"""How long a claim on a bot turn lasts without renewal: longer than any one
decision, short enough that a dead process's turn is soon taken over."""


def default_bot_factory(game: str, level: str, seed: str) -> Bot:
    return best_bot(game, level, seed)


@dataclass(frozen=True)
class ForcedBot:
    """A factory that seats the bot ``name`` whatever the game and level
    (a class, so it can travel to a thinking process)."""

    name: str

    def __call__(self, _game: str, _level: str, seed: str) -> Bot:
        return make_bot(self.name, seed=seed)


def forced_bot(name: str) -> BotFactory:
    return ForcedBot(name)


def process_name() -> str:
    """Who holds a lease: host, process id and a random part (a restarted
    process with a reused pid is someone else)."""
    return f"{socket.gethostname()[:20]}:{os.getpid()}:{secrets.token_hex(4)}"


def bot_seed(row_or_seed: GameRow | str, game: str = "", bot_secret: str | None = None) -> str:
    """Where the computer players of a game draw their random choices from:
    the match seed, and in a daily attempt also the attempt's secret (stored
    with the game, never sent), so two attempts with the same moves do not
    unfold identically although the deals are the same for everybody."""
    if isinstance(row_or_seed, GameRow):
        row_or_seed, game, bot_secret = row_or_seed.record["seed"], row_or_seed.game, row_or_seed.bot_secret
    return f"{row_or_seed}/{bot_secret}/{game}" if bot_secret else f"{row_or_seed}/{game}"


def decision_seed(row: GameRow, seat: int) -> str:
    """The seed of one decision: fixed by the game and the position, so a
    restarted server decides exactly as the killed one would have."""
    return f"{bot_seed(row)}/seat{seat}/v{row.version}"


def observation(state: GameState, seat: int) -> Any:
    """What a computer player is given: its seat's observation, never the state."""
    return state.observe(seat)


class BotScheduler:
    def __init__(self, referee: Referee, channel: Channel, announce: Announce, bot_factory: BotFactory,
                 workers: int = 2, think: Think = think_here, lease_seconds: float = LEASE_SECONDS):
        self.referee = referee
        self.channel = channel
        self.announce = announce
        self.bot_factory = bot_factory
        self.workers = workers
        self.think = think
        self.lease_seconds = lease_seconds
        self.owner = process_name()
        self._lock = threading.Lock()
        self._leases: set[str] = set()  # games whose turn this process holds
        self._stopped = threading.Event()
        self._pool: ThreadPoolExecutor | None = None
        self._active: set[str] = set()  # games a worker is on
        self._again: set[str] = set()  # woken while being worked: look once more
        self._thinking: dict[str, tuple[int, int]] = {}  # game -> (seat, version)
        self._clocks: dict[str, threading.Timer] = {}

    # -- life cycle ----------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="bots")
        self._stopped.clear()
        threading.Thread(target=self._wake_open_games, name="bots-startup", daemon=True).start()
        threading.Thread(target=self._take_over_lapsed_turns, name="bots-leases", daemon=True).start()

    def stop(self, interrupt: Callable[[], None] | None = None) -> None:
        """Stop taking work; ``interrupt`` (if given) cuts the decisions under
        way short, else they are awaited (they commit or are discarded by the
        version check, either way nothing is half done); the leases held are
        given back."""
        self._stopped.set()
        with self._lock:
            pool, self._pool = self._pool, None
            clocks, self._clocks = list(self._clocks.values()), {}
        for clock in clocks:
            clock.cancel()
        if interrupt is not None:
            interrupt()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _wake_open_games(self) -> None:
        try:
            for game_id in self.referee.store.open_game_ids(STARTUP_SCAN_LIMIT):
                self.wake(game_id)
        except Exception:  # noqa: BLE001 - a failed scan only delays games until they are loaded
            log.exception("could not scan the open games")

    def _take_over_lapsed_turns(self) -> None:
        while not self._stopped.wait(max(0.2, self.lease_seconds / 3)):
            try:
                for game_id in self.referee.store.lapsed_turns():
                    log.info("taking over the computer players' turn of game %s (its lease ran out)", game_id)
                    self.wake(game_id)
            except Exception:  # noqa: BLE001 - a busy database: look again next time
                log.debug("could not look for lapsed turns", exc_info=True)

    # -- work ----------------------------------------------------------------------
    def wake(self, game_id: str) -> None:
        with self._lock:
            if self._pool is None:
                return  # not started (a tool using the room) or stopping
            if game_id in self._active:
                self._again.add(game_id)
                return
            self._active.add(game_id)
            pool = self._pool
        try:
            pool.submit(self._work, game_id)
        except RuntimeError:  # shut down meanwhile
            with self._lock:
                self._active.discard(game_id)

    def thinking(self, game_id: str) -> tuple[int, int] | None:
        """(seat, version) of the computer player thinking in that game now."""
        with self._lock:
            return self._thinking.get(game_id)

    def _work(self, game_id: str) -> None:
        while True:
            try:
                while self._running() and self._turn(game_id):
                    pass
            except Exception:  # noqa: BLE001 - one broken game must not stop the others; its next load retries
                if self._running():
                    log.exception("computer players of game %s stopped", game_id)
                else:  # the server is stopping and cut the decision short
                    log.debug("computer players of game %s interrupted by the shutdown", game_id, exc_info=True)
            if not self._running():
                try:
                    self._release(game_id)  # stopping: another process may take the turn at once
                except Exception:  # noqa: BLE001 - then the lease runs out by itself
                    log.exception("could not give back the turn of game %s", game_id)
            with self._lock:
                self._thinking.pop(game_id, None)
                if game_id in self._again and self._pool is not None:
                    self._again.discard(game_id)
                    continue
                self._again.discard(game_id)
                self._active.discard(game_id)
                return

    def _running(self) -> bool:
        with self._lock:
            return self._pool is not None

    def _turn(self, game_id: str) -> bool:
        """Do one piece of pending work; whether there may be more."""
        position = self.referee.load(game_id)
        if position is None:
            return False
        row = position.row
        if position.state.is_terminal():
            self._arm_clock(game_id, None)
            return not self._done(row)
        if self.referee.expired(position):
            return self._commit(lambda: self.referee.time_out(position))
        seat = position.state.to_move
        if seat == HUMAN or seat < 0:
            self._arm_clock(game_id, row.deadline)
            return not self._done(row)
        if self._held_elsewhere(row) or not self._claim(row):
            # Another process holds the turn, or the game moved on (look again).
            return self.referee.store.version_of(game_id) != row.version
        with self._lock:
            self._thinking[game_id] = (seat, row.version)
        self.channel.publish(Event(game_id, "thinking", row.version, {"seat": seat, "version": row.version}))
        with self._renewing(row):
            choice = self.think(self.bot_factory, row.game, level_of(row), decision_seed(row, seat),
                                observation(position.state, seat))
        return self._commit(lambda: self.referee.play(position, seat, choice))

    @contextmanager
    def _renewing(self, row: GameRow) -> Iterator[None]:
        """Renew the turn's lease every third of its length while a decision
        takes long (a slow search on a busy machine must not look dead)."""
        done = threading.Event()

        def renew() -> None:
            while not done.wait(self.lease_seconds / 3):
                try:
                    self.referee.store.claim_turn(row.id, row.version, self.owner, self.lease_seconds)
                except Exception:  # noqa: BLE001 - the next renewal or the commit decides
                    log.debug("could not renew the lease of game %s", row.id, exc_info=True)

        threading.Thread(target=renew, name="bots-lease", daemon=True).start()
        try:
            yield
        finally:
            done.set()

    def _done(self, row: GameRow) -> bool:
        """Nothing for the bots to do at ``row``: give the lease back (False if
        the game moved on first), and drop a dead process's lapsed one."""
        if not self._release(row.id, row.version):
            return False
        if row.lease_until is not None and row.lease_until < time.time():
            self.referee.store.clear_lapsed_turn(row.id)
        return True

    def _held_elsewhere(self, row: GameRow) -> bool:
        """Another live process holds the turn (as loaded): no need to try a write."""
        with self._lock:
            mine = row.id in self._leases
        return not mine and row.lease_until is not None and row.lease_until > time.time()

    def _claim(self, row: GameRow) -> bool:
        """Take or renew the lease on the game's bot turn at ``row``'s version."""
        if not self.referee.store.claim_turn(row.id, row.version, self.owner, self.lease_seconds):
            return False
        with self._lock:
            self._leases.add(row.id)
        return True

    def _release(self, game_id: str, version: int | None = None) -> bool:
        """Give the turn's lease back (if this process holds it) once the game
        waits for the person at ``version``; False if the game moved on first."""
        with self._lock:
            if game_id not in self._leases:
                return True
        if not self.referee.store.release_turn(game_id, self.owner, version):
            return False
        with self._lock:
            self._leases.discard(game_id)
        return True

    def _commit(self, apply: Callable[[], tuple[Position, dict[str, Any]]]) -> bool:
        try:
            position, step = apply()
        except StaleVersion:
            return True  # the game moved on (the person acted): look at the new position
        with self._lock:
            self._thinking.pop(position.row.id, None)
        self.announce(position, step)
        return True

    def _arm_clock(self, game_id: str, deadline: float | None) -> None:
        """Wake the game when the person's timed decision runs out, so the
        timeout is settled (and seen live) without anyone asking."""
        with self._lock:
            old = self._clocks.pop(game_id, None)
            if old is not None:
                old.cancel()
            if deadline is None or self._pool is None:
                return
            clock = threading.Timer(max(0.0, deadline - time.time()) + 0.05, self.wake, args=(game_id,))
            clock.daemon = True
            self._clocks[game_id] = clock
        clock.start()


__all__ = ["BotFactory", "BotScheduler", "ForcedBot", "LEASE_SECONDS", "bot_seed", "decision_seed",
           "default_bot_factory", "forced_bot", "observation"]
