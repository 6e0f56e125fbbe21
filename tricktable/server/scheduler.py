"""The computer players' turns, off the request path.

``wake(game_id)`` asks for a game's pending work: the bots to move, or the
referee's timeout once the person's clock has run out.  A small thread pool
works the games; one game is worked by one worker at a time, and every bot
action is committed on its own under the version check, then published.  A
person's action that lands while a bot thinks makes the bot's commit stale: its
choice is discarded and the bot thinks again on the new position.

Nothing lives only here: after a restart, ``start`` wakes the open games and
every load wakes its game, so an interrupted turn continues from the database.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from tricktable.bots import Bot, make_bot
from tricktable.bots.levels import best_bot
from tricktable.core.protocol import GameState
from tricktable.server.channel import Channel, Event
from tricktable.server.referee import Position, Referee
from tricktable.server.responses import HUMAN, level_of
from tricktable.store import GameRow, StaleVersion

log = logging.getLogger("tricktable.server")

BotFactory = Callable[[str, str, str], Bot]
"""``(game, level, seed) -> Bot``: the computer player seated at a level."""
Announce = Callable[[Position, dict[str, Any]], None]
"""Publishes a committed step (the room shapes it)."""

STARTUP_SCAN_LIMIT = 1000
"""How many recently changed open games ``start`` wakes; older ones wake when loaded."""


def default_bot_factory(game: str, level: str, seed: str) -> Bot:
    return best_bot(game, level, seed)


def forced_bot(name: str) -> BotFactory:
    """A factory that seats the bot ``name`` whatever the game and level."""

    def factory(_game: str, _level: str, seed: str) -> Bot:
        return make_bot(name, seed=seed)

    return factory


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
                 workers: int = 2):
        self.referee = referee
        self.channel = channel
        self.announce = announce
        self.bot_factory = bot_factory
        self.workers = workers
        self._lock = threading.Lock()
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
        threading.Thread(target=self._wake_open_games, name="bots-startup", daemon=True).start()

    def stop(self) -> None:
        """Stop taking work; wait for the decisions under way (they commit or
        are discarded by the version check, either way nothing is half done)."""
        with self._lock:
            pool, self._pool = self._pool, None
            clocks, self._clocks = list(self._clocks.values()), {}
        for clock in clocks:
            clock.cancel()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _wake_open_games(self) -> None:
        try:
            for game_id in self.referee.store.open_game_ids(STARTUP_SCAN_LIMIT):
                self.wake(game_id)
        except Exception:  # noqa: BLE001 - a failed scan only delays games until they are loaded
            log.exception("could not scan the open games")

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
                log.exception("computer players of game %s stopped", game_id)
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
        if position is None or position.state.is_terminal():
            self._arm_clock(game_id, None)
            return False
        if self.referee.expired(position):
            return self._commit(lambda: self.referee.time_out(position))
        seat = position.state.to_move
        if seat == HUMAN or seat < 0:
            self._arm_clock(game_id, position.row.deadline)
            return False
        row = position.row
        with self._lock:
            self._thinking[game_id] = (seat, row.version)
        self.channel.publish(Event(game_id, "thinking", row.version, {"seat": seat, "version": row.version}))
        bot = self.bot_factory(row.game, level_of(row), decision_seed(row, seat))
        choice = bot.choose(observation(position.state, seat))
        return self._commit(lambda: self.referee.play(position, seat, choice))

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


__all__ = ["BotFactory", "BotScheduler", "bot_seed", "decision_seed", "default_bot_factory", "forced_bot", "observation"]
