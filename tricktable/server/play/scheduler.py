"""The computer players' turns, off the request path.

``wake(game_id)`` asks for a game's pending work: the bots to move, or the
referee's timeout once the person's clock has run out.  Games wait in one queue,
**oldest request first**: a game keeps the time its work was first asked for
(the person's click) until the person is to move again, so of two people the
one who clicked earlier is served earlier, and a game's computer players move
back to back while their decisions are cheap (nothing waiting is older); after
a long decision, people who clicked up to ``PATIENCE_SECONDS`` later get their
first card before the game's next bot thinks.  ``workers`` threads work the queue,
so at most that many decisions run at once (the server sizes it to its
thinking processes: the cores).  Every bot action that is thought about is
committed on its own and published at once, so the first bot card goes out as
soon as it is decided; the actions of instant players (``INSTANT_BOTS``), which
would follow each other by a few milliseconds, are committed together in one
write (``Referee.play_run``: still one version each), and their steps published
after it.  The committed position is kept for the next bot, without reading the
game again.  A person's action that lands while a bot thinks makes the bot's commit
stale: its choice is discarded and the bot thinks again on the new position.

Several server processes may share one database: a game's bot turn is
claimed with a lease in the database (``Store.claim_turn``; an instant run's
write claims it itself), so exactly one process works it; every bot commit
renews the lease in the same write, and the commit after which the person is to
move gives it back.  The process that committed the person's action works the
turn (its write took the lease); streams of the game on other processes get the
steps as the frames it stores with its commits (``Referee.forwards``).  A long decision's
lease is renewed by the sweeper thread, which also looks, every third of
``LEASE_SECONDS``, for leases that ran out (their process died) and takes those
turns over.  The thinking itself happens in ``think`` (``play/bot_pool.py``: this
thread, or a pool of worker processes); bots that decide at once
(``INSTANT_BOTS``) decide in the thread, where a trip to a process would cost
more than the decision, and announce no ``thinking`` event (their step follows
at once, and every step says who moves next).

When games wait too long for a worker (the machine is short of CPU), the
computer players think shorter, step by step down to the easy rules
(``RELIEF_AFTER_SECONDS``), and ``pressure`` says how often: a quicker, weaker
card rather than a queue that grows without bound.  Such a decision depends on
the load, not only on the position.

Nothing lives only here: after a restart, ``start`` wakes the open games and
every load wakes its game, so an interrupted turn continues from the database.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from tricktable.bots import Bot, make_bot
from tricktable.bots.levels import best_bot, relieved
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameState
from tricktable.core.step import Step
from tricktable.server.live.channel import Channel, Event
from tricktable.server.play.commit import Position, Referee
from tricktable.server.play.view import bot_to_move, level_of, people_at
from tricktable.server.play.bot_pool import BotFactory, Think, think_here
from tricktable.store import GameRow, StaleVersion

log = logging.getLogger("tricktable.server")

Announce = Callable[[Position, Step], object]
"""Publishes a committed step (the room shapes it)."""

STARTUP_SCAN_LIMIT = 1000
"""How many recently changed open games ``start`` wakes; older ones wake when loaded."""
LEASE_SECONDS = float(os.environ.get("TRICKTABLE_LEASE_SECONDS", "15"))
"""How long a claim on a bot turn lasts without renewal: longer than any one
decision, short enough that a dead process's turn is soon taken over."""
CHEAP_SECONDS = 0.02
"""A decision at most this long lets the game's next bot follow at once."""
PATIENCE_SECONDS = 0.5
"""After a longer one, clicks up to this much later than the game's get their
first card before its next bot thinks."""
RELIEF_AFTER_SECONDS = (0.15, 0.4, 0.8)
"""When the game that has waited longest for a worker has waited this long, the
computer players think one step shorter (``bots.levels.relieved``: hard, normal,
a fifth of normal, the easy rules): on a machine short of CPU the queue would
otherwise grow without bound, and a player prefers a quicker, weaker card to a
long wait.  Below the first step the chosen level plays."""
INSTANT_BOTS = frozenset({"random", "heuristic"})
"""Bots that decide in well under a millisecond or two: they decide in the
scheduler's thread (no trip to a thinking process)."""


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
        seed, game, bot_secret = str(row_or_seed.record["seed"]), row_or_seed.game, row_or_seed.bot_secret
    else:
        seed = row_or_seed
    return f"{seed}/{bot_secret}/{game}" if bot_secret else f"{seed}/{game}"


def decision_seed(row: GameRow, seat: int, version: int | None = None) -> str:
    """The seed of one decision at ``version`` (default: the row's): fixed by
    the game and the position, so a restarted server decides exactly as the
    killed one would have."""
    return f"{bot_seed(row)}/seat{seat}/v{row.version if version is None else version}"


class Piece(NamedTuple):
    """What one piece of a game's pending work left: the position after it
    (None: read the game again), whether there may be more, and how long its
    decision took (None: no decision)."""

    position: Position | None
    more: bool
    thought: float | None = None


def observation(state: GameState, seat: int) -> Observation:
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
        self._ready = threading.Condition(self._lock)
        self._running = False
        self._threads: list[threading.Thread] = []
        self._stopped = threading.Event()
        self._queue: list[tuple[float, int, str]] = []  # (asked at, tie-break, game): a heap, oldest first
        self._order = itertools.count()
        self._queued: set[str] = set()
        self._asked: dict[str, float] = {}  # game -> when its pending work was first asked for
        self._active: set[str] = set()  # games a worker is on
        self._again: dict[str, float] = {}  # woken while being worked (when): look once more
        self._positions: dict[str, Position] = {}  # the newest position committed here, for the next piece of work
        self._leases: set[str] = set()  # games whose turn this process holds
        self._thinking: dict[str, tuple[int, int]] = {}  # game -> (seat, version)
        self._clocks: dict[str, threading.Timer] = {}
        self._instant: dict[tuple[str, str], bool] = {}
        self._relieved = [0] * (len(RELIEF_AFTER_SECONDS) + 1)  # decisions per relief step

    # -- life cycle ----------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            if self._running:
                return
            self._running = True
            self._threads = [threading.Thread(target=self._serve, name=f"bots-{n}", daemon=True)
                             for n in range(self.workers)]
        self._stopped.clear()
        for thread in self._threads:
            thread.start()
        threading.Thread(target=self._wake_open_games, name="bots-startup", daemon=True).start()
        threading.Thread(target=self._sweep, name="bots-leases", daemon=True).start()

    def stop(self, interrupt: Callable[[], None] | None = None) -> None:
        """Stop taking work; ``interrupt`` (if given) cuts the decisions under
        way short, else they are awaited (they commit or are discarded by the
        version check, either way nothing is half done); the leases held are
        given back."""
        self._stopped.set()
        with self._lock:
            self._running = False
            self._ready.notify_all()
            threads, self._threads = self._threads, []
            clocks, self._clocks = list(self._clocks.values()), {}
            self._queue.clear()
            self._queued.clear()
            self._positions.clear()
        for clock in clocks:
            clock.cancel()
        if interrupt is not None:
            interrupt()
        for thread in threads:
            thread.join()
        with self._lock:
            held = list(self._leases)
        for game_id in held:
            try:
                self._release(game_id)  # another process may take the turn at once
            except Exception:  # noqa: BLE001 - then the lease runs out by itself
                log.exception("could not give back the turn of game %s", game_id)

    def _wake_open_games(self) -> None:
        try:
            for game_id in self.referee.store.open_game_ids(STARTUP_SCAN_LIMIT):
                self.wake(game_id)
        except Exception:  # noqa: BLE001 - a failed scan only delays games until they are loaded
            log.exception("could not scan the open games")

    def _sweep(self) -> None:
        """Renew the leases of decisions under way (a slow search on a busy
        machine must not look dead) and take over the turns whose lease ran out."""
        while not self._stopped.wait(max(0.2, self.lease_seconds / 3)):
            with self._lock:
                thinking = list(self._thinking.items())
            for game_id, (_seat, version) in thinking:
                try:
                    self.referee.store.claim_turn(game_id, version, self.owner, self.lease_seconds)
                except Exception:  # noqa: BLE001 - the next renewal or the commit decides
                    log.debug("could not renew the lease of game %s", game_id, exc_info=True)
            try:
                for game_id in self.referee.store.lapsed_turns():
                    log.info("taking over the computer players' turn of game %s (its lease ran out)", game_id)
                    self.wake(game_id)
            except Exception:  # noqa: BLE001 - a busy database: look again next time
                log.debug("could not look for lapsed turns", exc_info=True)

    # -- the queue -------------------------------------------------------------------
    def wake(self, game_id: str, position: Position | None = None) -> None:
        """Ask for the game's pending work; ``position``: the game as this
        process just committed it (saves reading it again)."""
        with self._lock:
            if not self._running:
                return  # not started (a tool using the room) or stopping
            if position is not None:
                self._keep(position)
            if game_id in self._active:
                self._again.setdefault(game_id, time.monotonic())
            elif game_id not in self._queued:
                self._push(game_id, self._asked.setdefault(game_id, time.monotonic()))

    def holder(self) -> tuple[str, float] | None:
        """(this process, lease seconds) for a commit that hands the computer
        players' turn to this process (``Referee.play``'s ``holder``); None
        while the scheduler does not run (nobody here would work the turn)."""
        return (self.owner, self.lease_seconds) if self._is_running() else None

    def keep(self, position: Position, holding: bool = False) -> None:
        """The game as this process just committed it, for its next piece of
        work (the person's action: the computer players start from it);
        ``holding``: that commit took the turn's lease for this process."""
        with self._lock:
            if holding and bot_to_move(position.state, people_at(position.row)) is not None:
                self._leases.add(position.row.id)
            if self._running:
                self._keep(position)

    def _push(self, game_id: str, asked: float) -> None:
        """(Under the lock.)"""
        heapq.heappush(self._queue, (asked, next(self._order), game_id))
        self._queued.add(game_id)
        self._ready.notify()

    def _keep(self, position: Position) -> None:
        """(Under the lock.)  Keep the newest committed position of a game."""
        kept = self._positions.get(position.row.id)
        if kept is None or kept.row.version < position.row.version:
            self._positions[position.row.id] = position

    def thinking(self, game_id: str) -> tuple[int, int] | None:
        """(seat, version) of the computer player thinking in that game now."""
        with self._lock:
            return self._thinking.get(game_id)

    def _serve(self) -> None:
        """One worker: the oldest waiting game, until the scheduler stops."""
        while True:
            with self._lock:
                while self._running and not self._queue:
                    self._ready.wait()
                if not self._running:
                    return
                key, _order, game_id = heapq.heappop(self._queue)
                self._queued.discard(game_id)
                self._active.add(game_id)
                asked = self._asked.get(game_id, key)
                position = self._positions.pop(game_id, None)
            self._work(game_id, asked, position)

    def _work(self, game_id: str, asked: float, position: Position | None) -> None:
        """The game's pending work while nothing waits before it.  Its place
        is its click (``asked``); once a long decision has put its first card
        out, later clicks of the next ``PATIENCE_SECONDS`` go first, so a
        person whose bots think long does not hold up everybody's first card."""
        finished = False
        key = asked
        try:
            while self._is_running():
                piece = self._turn(game_id, position)
                position = piece.position
                if not piece.more:
                    finished = True
                    break
                if piece.thought is not None and piece.thought > CHEAP_SECONDS:
                    key = asked + PATIENCE_SECONDS
                if self._waiting_before(key):
                    break
        except Exception:  # noqa: BLE001 - one broken game must not stop the others; its next load retries
            position = None
            finished = True
            if self._is_running():
                log.exception("computer players of game %s stopped", game_id)
            else:  # the server is stopping and cut the decision short
                log.debug("computer players of game %s interrupted by the shutdown", game_id, exc_info=True)
        with self._lock:
            self._thinking.pop(game_id, None)
            self._active.discard(game_id)
            again = self._again.pop(game_id, None)
            if not self._running:
                return
            if position is not None:
                self._keep(position)
            if finished and again is None:
                self._asked.pop(game_id, None)
                self._positions.pop(game_id, None)
                return
            if finished:  # woken meanwhile: a new request, from when it came
                assert again is not None
                self._asked[game_id] = key = again
            self._push(game_id, key)

    def _waiting_before(self, key: float) -> bool:
        with self._lock:
            return bool(self._queue) and self._queue[0][0] < key

    def _is_running(self) -> bool:
        with self._lock:
            return self._running

    # -- one piece of work ------------------------------------------------------------
    def _turn(self, game_id: str, position: Position | None) -> Piece:
        """Do one piece of pending work on ``position`` (None: read the game).
        A table's game is read all the same (not its record): its seats change
        without a new version, and a seat given to a computer player, or taken
        by a newcomer, counts from its next decision on."""
        if position is None or position.row.seats is not None:
            position = self.referee.load(game_id)
            if position is None:
                return Piece(None, False)
        row = position.row
        if position.state.is_terminal():
            self._arm_clock(game_id, None)
            return Piece(None, not self._done(row))
        if self.referee.expired(position):
            return self._commit(lambda: (*self.referee.time_out(position), []))
        seat = position.state.to_move
        # A person's turn is never played for him, unless his turn clock ran out:
        # then a computer player of the table's level decides that one decision.
        auto = self.referee.clock_ran_out(position) is not None
        if (seat in people_at(row) and not auto) or seat < 0:
            self._arm_clock(game_id, row.deadline)
            return Piece(None, not self._done(row))
        instant = self._is_instant(row.game, level_of(row)) and not auto
        if not self._may_work(row, instant):
            # Another process holds the turn, or the game moved on (look again).
            return Piece(None, self.referee.store.version_of(game_id) != row.version)
        with self._lock:
            self._thinking[game_id] = (seat, row.version)
        holder = (self.owner, self.lease_seconds)
        if instant:
            # Their steps would follow each other by a few milliseconds: one write for all of them.
            piece = self._commit(lambda: self.referee.play_run(position, self._choose_at_once(row), holder),
                                 holding=True)
            if piece.position is None and self.referee.store.version_of(game_id) == row.version:
                # Refused at the same version: another process holds the turn (ours had run out).
                with self._lock:
                    self._leases.discard(game_id)
                return Piece(None, False)
            return piece
        self.channel.publish(Event(game_id, "thinking", row.version, {"seat": seat, "version": row.version}))
        began = time.monotonic()
        choice = self.think(self.bot_factory, row.game, self._level_now(level_of(row)), decision_seed(row, seat),
                            observation(position.state, seat))
        thought = time.monotonic() - began
        return self._commit(lambda: (*self.referee.play(position, seat, choice, holder, auto=auto), []),
                            holding=True)._replace(thought=thought)

    def _level_now(self, level: str) -> str:
        """The level a decision is thought at now: the chosen one, or shorter
        while games wait too long for a worker (``RELIEF_AFTER_SECONDS``)."""
        with self._lock:
            step = sum(self._longest_wait() >= after for after in RELIEF_AFTER_SECONDS)
            self._relieved[step] += 1
        return relieved(level, step)

    def _longest_wait(self) -> float:
        """(Under the lock.)  Seconds the game first in the queue has waited for a worker."""
        return max(0.0, time.monotonic() - self._queue[0][0]) if self._queue else 0.0

    def pressure(self) -> dict[str, Any]:
        """How far behind the computer players are: games waiting for a worker,
        the longest wait, and the decisions thought at each relief step so far."""
        with self._lock:
            return {"waiting": len(self._queue), "longest_wait_ms": round(self._longest_wait() * 1000),
                    "decisions_by_relief": list(self._relieved)}

    def _choose_at_once(self, row: GameRow) -> Callable[[GameState, int, int], str]:
        """An instant computer player's decision at a version (``Referee.play_run``),
        in this thread: a trip to a thinking process would cost more than the
        decision.  (An instant bot's step follows at once, and each step says
        who moves next: no ``thinking`` event.)"""
        level = level_of(row)

        def choose(state: GameState, seat: int, version: int) -> str:
            return think_here(self.bot_factory, row.game, level, decision_seed(row, seat, version),
                              observation(state, seat))

        return choose

    def _is_instant(self, game: str, level: str) -> bool:
        key = (game, level)
        if key not in self._instant:
            self._instant[key] = self.bot_factory(game, level, "name").name in INSTANT_BOTS
        return self._instant[key]

    def _done(self, row: GameRow) -> bool:
        """Nothing for the bots to do at ``row``: give the lease back (False if
        the game moved on first), and drop a dead process's lapsed one."""
        if not self._release(row.id, row.version):
            return False
        if row.lease_until is not None and row.lease_until < time.time():
            self.referee.store.clear_lapsed_turn(row.id)
        return True

    def _holds(self, game_id: str) -> bool:
        with self._lock:
            return game_id in self._leases

    def _held_elsewhere(self, row: GameRow) -> bool:
        """Another live process holds the turn (as loaded): no need to try a write."""
        return row.lease_until is not None and row.lease_until > time.time()

    def _may_work(self, row: GameRow, instant: bool) -> bool:
        """Whether this process holds the turn at ``row`` with time to spare
        (its last commit renewed it, or the person's commit here took it), or
        claims it now.  A lease that waited in the queue for a third of its
        time is renewed first: it might run out and be taken over mid-thought.
        Instant players claim nothing beforehand: their run's write claims the
        turn (``Referee.play_run``), one write less."""
        if instant:
            return self._holds(row.id) or not self._held_elsewhere(row)
        if self._holds(row.id):
            if row.lease_until is not None and row.lease_until > time.time() + self.lease_seconds / 3:
                return True
        elif self._held_elsewhere(row):
            return False
        return self._claim(row)

    def _claim(self, row: GameRow) -> bool:
        """Take (or renew) the lease on the game's bot turn at ``row``'s version."""
        if not self.referee.store.claim_turn(row.id, row.version, self.owner, self.lease_seconds):
            return False
        with self._lock:
            self._leases.add(row.id)
        return True

    def _release(self, game_id: str, version: int | None = None) -> bool:
        """Give the turn's lease back (if this process holds it) once the game
        waits for the person at ``version``; False if the game moved on first."""
        if not self._holds(game_id):
            return True
        if not self.referee.store.release_turn(game_id, self.owner, version):
            return False
        with self._lock:
            self._leases.discard(game_id)
        return True

    def _commit(self, apply: Callable[[], tuple[Position, Step, list[Event]]],
                holding: bool = False) -> Piece:
        """Commit what ``apply`` does: the new position, its step and the
        steps before it in the same write (shaped, not yet published); then
        publish them in order.  ``holding``: the write holds the turn for this
        process while a computer player is still to move."""
        try:
            position, step, earlier = apply()
        except StaleVersion:
            return Piece(None, True)  # the game moved on (the person acted): look at the new position
        with self._lock:
            self._thinking.pop(position.row.id, None)
            if bot_to_move(position.state, people_at(position.row)) is None:
                self._leases.discard(position.row.id)  # the commit gave it back
            elif holding:
                self._leases.add(position.row.id)
        for event in earlier:
            self.channel.publish(event)
        self.announce(position, step)
        return Piece(position, True)

    def _arm_clock(self, game_id: str, deadline: float | None) -> None:
        """Wake the game when the person's timed decision runs out, so the
        timeout is settled (and seen live) without anyone asking."""
        with self._lock:
            old = self._clocks.pop(game_id, None)
            if old is not None:
                old.cancel()
            if deadline is None or not self._running:
                return
            clock = threading.Timer(max(0.0, deadline - time.time()) + 0.05, self._clock_ran_out, args=(game_id,))
            clock.daemon = True
            self._clocks[game_id] = clock
        clock.start()

    def _clock_ran_out(self, game_id: str) -> None:
        """A clock's timer thread: forget the clock (it is done; a game whose
        person left would keep it until the game ends), unless it was armed
        again meanwhile, then wake the game."""
        with self._lock:
            if self._clocks.get(game_id) is threading.current_thread():
                del self._clocks[game_id]
        self.wake(game_id)


__all__ = ["BotFactory", "BotScheduler", "ForcedBot", "LEASE_SECONDS", "bot_seed", "decision_seed",
           "default_bot_factory", "forced_bot", "observation"]
