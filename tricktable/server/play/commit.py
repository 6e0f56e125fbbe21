"""The referee: a stored game as a state, one action at a time, committed under
the version check, and the referee's own clock (Court Piece calling).

Every action adds one entry to the record and one to the version (a commit
adds one action, or an instant computer players' run of them:
``Referee.play_run``), so a version names one position and the steps after any
version can be told again from the record (``history``).  The record keeps where that rule began
(``version_base``: games stored by older servers committed several actions per
version).
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeVar

from tricktable.core.observation import Observation
from tricktable.core.protocol import GameState
from tricktable.core.step import Step
from tricktable.catalog import replay
from tricktable.server.live.channel import Event
from tricktable.server.play.view import AUTO, AUTO_SEATS, HUMAN, SOLO, auto_marks_after, bot_to_move, people_at, person_view
from tricktable.store import GameRow, Store
from tricktable.store.games import Lease, TableStart, saved_row
from tricktable.store.tables import Seats

DEFAULT_DECISION_SECONDS = 20
MAX_CATCH_UP = 200
"""A stream resuming further back than this many versions gets the whole state."""
STATE_CACHE_GAMES = 256
"""Unfinished games whose state a server process keeps (each with the
person's view and the match's kept facts): several times the games being
played on one process at once at the load benchmark's 40 people; a game that
fell out is replayed from its record once on its next load.  (1024 games,
finished ones too, let each server process grow by 10 MB and more through a
12-minute soak.)"""
STATE_CACHE_IDLE_SECONDS = 120.0
"""A cached game this process has not written (nor brought forward) for this long
is let go at its next write: with several server processes, a game played on or
finished by another one would stay here at an old version, read again by nobody,
until 256 newer games pushed it out.  A person who comes back later costs one
replay of the record."""
OUT_OF_TURN_ENTRY = re.compile(r"^(\d+): (.*)$")
Holder = tuple[str, float]
"""Who holds a game's computer-player turn, and for how many seconds a commit renews it."""
MAX_RUN = 64
"""At most this many computer-player actions in one write (``Referee.play_run``):
a bound only; a run ends where the person is to move, within a round."""
Told = TypeVar("Told")
Forwards = Callable[[str], bool]
"""Whether a game's step frames are stored with its commits, for streams of the
game on other server processes (the room's: no stream of it here)."""
Tell = Callable[["Position", Step, int], Event]
"""A step as its event (the room shapes it): ``tell(position, step, version)``,
the step that led to ``position`` at ``version``."""


@dataclass
class Position:
    """A stored game and a private copy of its state (the caller may change
    the state; only a commit makes a change real), with the person's view of
    that version when it is known already (views are new objects, never shared
    with the state, so one can be kept)."""

    row: GameRow
    state: GameState
    view: dict[str, Any] | None = None
    event: Event | None = None
    """The step event of the commit that led here, where it was shaped before
    that commit so that its frame could be stored with it: what is published."""

    def person_view(self) -> dict[str, Any]:
        if self.view is None:
            self.view = person_view(self.state)
        return self.view

    def view_of(self, seat: int) -> dict[str, Any]:
        """The view of ``seat`` (the person's at seat 0 is kept)."""
        return self.person_view() if seat == HUMAN else person_view(self.state, seat)


class StateCache:
    """A small per-process cache of states keyed by game id, with the version
    they are at and the person's view of it.

    Only a shortcut: the database stays the truth.  A cached state behind the
    stored version (another process committed since) is brought forward by
    applying just the record's newer entries, so a commit never costs a replay
    of the whole record; only a game this process has not seen is replayed.
    It holds the games being played here: a finished game goes at once, one
    left alone for ``idle`` seconds at the next write, and beyond ``size``
    games the least recently written.
    """

    def __init__(self, size: int = STATE_CACHE_GAMES, idle: float = STATE_CACHE_IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.size = size
        self.idle = idle
        self._clock = clock
        # game id -> (version, state, the person's view, when written, the row), least recently written first
        self._items: OrderedDict[str, tuple[int, GameState, dict[str, Any] | None, float, GameRow]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def take(self, row: GameRow) -> Position:
        """A position of ``row`` whose state the caller may mutate."""
        with self._lock:
            found = self._items.get(row.id)
        if found and found[0] == row.version:
            return Position(row, found[1].clone(), found[2])
        if found and found[0] < row.version:
            state = forward(row, found[0], found[1].clone())
            if state is not None:
                self.put(row, state)
                return Position(row, state)
        state = replay(row.record)
        self.put(row, state)
        return Position(row, state)

    def at(self, game_id: str, version: int) -> tuple[GameState, dict[str, Any] | None] | None:
        """A copy of the cached state and its view if the cache has the game at
        exactly ``version``."""
        with self._lock:
            found = self._items.get(game_id)
        return (found[1].clone(), found[2]) if found and found[0] == version else None

    def at_row(self, game_id: str, version: int) -> Position | None:
        """A position (a copy of the state) if the cache has the game at exactly ``version``."""
        with self._lock:
            found = self._items.get(game_id)
        return Position(found[4], found[1].clone(), found[2]) if found and found[0] == version else None

    def row(self, game_id: str) -> GameRow | None:
        """The stored row the cached state is at (its record need not be read again at that version)."""
        with self._lock:
            found = self._items.get(game_id)
        return found[4] if found else None

    def put(self, row: GameRow, state: GameState, view: dict[str, Any] | None = None) -> None:
        """Keep the game at ``row.version``; a finished game is let go instead
        (it is rarely read again: its last step told the person everything),
        so the cache holds the games being played, not every game played."""
        if state.is_terminal():
            with self._lock:
                self._items.pop(row.id, None)
            return
        now = self._clock()
        with self._lock:
            self._items[row.id] = (row.version, state.clone(), view, now, row)
            self._items.move_to_end(row.id)
            while len(self._items) > self.size or next(iter(self._items.values()))[3] < now - self.idle:
                self._items.popitem(last=False)


def forward(row: GameRow, version: int, state: GameState) -> GameState | None:
    """``state`` (the game at ``version``) brought to ``row.version`` by the
    record's entries after it; ``None`` where the record cannot tell which
    entries those are (stored before one action per version)."""
    base = row.record.get("version_base")
    if base is None or version < base["version"]:
        return None
    actions = row.record["actions"]
    for entry in actions[base["actions"] + version - base["version"]:]:
        apply_entry(state, entry)
    return state


class Referee:
    """Loads, applies and commits; safe to call from many threads (the version
    check decides every race)."""

    def __init__(self, store: Store, tell: Tell, forwards: Forwards = lambda _game_id: False):
        """``tell``: how a step becomes its event, for the frames stored with a
        commit where the game's streams may be on other processes (``forwards``)."""
        self.store = store
        self.cache = StateCache()
        self.tell = tell
        self.forwards = forwards

    def load_at(self, game_id: str, version: int) -> Position | None:
        """The game for a write that expects ``version``: the cached state where
        this process holds the game at exactly that version (no read: the write's
        version check refuses it if another process moved the game on since),
        else as ``load``.  A table's game is read all the same (not its record):
        its seats change without a new version (``play/tables.py``), and the
        seat an action is taken for must be the caller's now."""
        cached = self.cache.at_row(game_id, version)
        return cached if cached is not None and cached.row.seats is None else self.load(game_id)

    def load(self, game_id: str) -> Position | None:
        row = self.store.load(game_id, known=self.cache.row(game_id))
        return self.cache.take(row) if row is not None else None

    def create(self, state: GameState, record: dict[str, Any], daily_day: str | None = None,
               device: str | None = None, **stored: Any) -> Position:
        """Store a new game at version 1 (``IntegrityError`` if the identity has
        that day's daily game already, or the commitment was used before);
        ``stored``: more ``GameRow`` fields (owner, secrets, seeds)."""
        record = dict(record, version_base={"version": 1, "actions": len(record["actions"])})
        row = self.store.create_game(record, status_of(state), daily_day=daily_day, device=device,
                                     deadline=deadline_of(state, *clocked(stored.get("table"), stored.get("seats"))),
                                     **stored)
        self.cache.put(row, state)
        return Position(row, state)

    def play(self, position: Position, seat: int, text: str,
             holder: Holder | None = None, auto: bool = False) -> tuple[Position, Step]:
        """Apply ``seat``'s action and commit it: the new position and the step
        as the game reports it.  A ``GameError`` (nothing changed, nothing
        stored) if the rules refuse it; ``StaleVersion`` if the game moved on.
        ``holder``: (process, seconds) that holds the computer players' turn
        from this commit on while a computer player is to move; given back in
        the same write once it is not.  ``auto``: a computer player's decision
        for a person whose turn clock ran out (the record lists its version
        under ``AUTO``)."""
        state = position.state
        entry = record_entry(state, seat, text)
        state.act(seat, text)
        step = state.last_step()
        return self._commit(position, [entry], step, holder=holder, auto=auto), step

    def play_run(self, position: Position, choose: Callable[[GameState, int, int], str], holder: Holder,
                 ) -> tuple[Position, Step, list[Event]]:
        """The computer players' actions from ``position`` for as long as one
        of them is to move, committed together in one write: for players
        that decide at once (``choose(state, seat, version)``: the action of
        ``seat`` at ``version``), whose steps would otherwise follow each
        other by a few milliseconds, each in a write of its own.  Every action
        is still its own version (``history`` tells them one by one).  Each
        step but the last is told as it is applied, as its event
        (``Referee.tell``: the position's state moves on right after), and the
        caller publishes those only once this returns, i.e. after the commit; the last step comes
        back with the committed position, as from ``play``.  The write claims
        the turn for ``holder`` (``StaleVersion`` while another process holds
        it), so the run needs no claim of its own before.  Errors as ``play``
        (nothing stored)."""
        state, row = position.state, position.row
        people = people_at(row)
        entries: list[str] = []
        told: list[Event] = []
        seats: list[int] = []
        while True:
            seat = state.to_move
            text = choose(state, seat, row.version + len(entries))
            entries.append(record_entry(state, seat, text))
            state.act(seat, text)
            step = state.last_step()
            seats.append(step.seat)
            if bot_to_move(state, people) is None or len(entries) >= MAX_RUN:
                break
            told.append(self.tell(Position(row, state), step, row.version + len(entries)))
        return self._commit(position, entries, step, told, holder, claim=True, seats=seats), step, told

    def time_out(self, position: Position) -> tuple[Position, Step]:
        """Apply the referee's timeout of the person's expired decision and commit."""
        state = position.state
        timeout = state.referee_actions()[0]
        entry = state.action_text(timeout)
        state.apply_referee(timeout)
        step = state.last_step()
        return self._commit(position, [entry], step), step

    def _commit(self, position: Position, entries: list[str], step: Step, told: list[Event] | None = None,
                holder: Holder | None = None, claim: bool = False, auto: bool = False,
                seats: list[int] | None = None) -> Position:
        """Store ``entries`` (one version each) after ``position``'s version;
        ``claim``: only while no other process holds the turn (the write claims it);
        ``seats``: the seat of each entry's step (default: the one ``step``'s).
        Where the game's streams may be on other processes (``forwards``), the
        last step's event is shaped before the write (the new position's
        ``event``), and it and ``told`` (the run's earlier steps) are stored
        with the commit as step frames."""
        row, state = position.row, position.state
        view = person_view(state)
        base = row.record.get("version_base") or {"version": row.version, "actions": len(row.record["actions"])}
        record = dict(row.record, actions=[*row.record["actions"], *entries], version_base=base)
        if auto:
            record[AUTO] = [*row.record.get(AUTO, []), row.version + len(entries)]
        marks = auto_marks_after(row.record, seats or [step.seat], auto)
        if marks or AUTO_SEATS in row.record:  # (a game alone never has any)
            record[AUTO_SEATS] = marks
        lease: Lease | None = None
        if holder is not None:
            lease = (holder[0], time.time() + holder[1]) if bot_to_move(state, people_at(row)) is not None \
                else (None, None)
        # (the score and the deadline each observe the state only where one applies: never both)
        status, score, deadline = status_of(state), daily_score(state, row), deadline_of(state, people_at(row), view,
                                                                                      row.clock)
        event: Event | None = None
        frames: list[tuple[int, bytes]] | None = None
        if self.forwards(row.id):
            after = saved_row(row, record, status, deadline, lease, len(entries))
            event = self.tell(Position(after, state, view), step, after.version)
            frames = [(told_event.version, told_event.json) for told_event in [*(told or []), event]]
        row = self.store.save(row, record, status, score=score, deadline=deadline, lease=lease, versions=len(entries),
                              claimant=holder[0] if claim and holder is not None else None, frames=frames)
        self.cache.put(row, state, view)
        return Position(row, state, view, event)

    @staticmethod
    def expired(position: Position) -> bool:
        """Whether a person's decision the referee settles (Court Piece calling) ran out."""
        deadline = position.row.deadline
        return deadline is not None and time.time() >= deadline and bool(position.state.referee_actions())

    @staticmethod
    def clock_ran_out(position: Position) -> int | None:
        """The seat of a person whose turn clock ran out (a computer player decides for him), if any."""
        row, state = position.row, position.state
        if row.deadline is None or time.time() < row.deadline or state.is_terminal() or state.referee_actions():
            return None
        return state.to_move if state.to_move in people_at(row) else None

    def history(self, row: GameRow, version: int,
                tell: Callable[[Position, Step, int], Told]) -> tuple[list[Told], Position] | None:
        """Every step after ``version`` up to ``row``'s, each as ``tell(position,
        step, version)`` returns it (the position's state moves on right after:
        shape it then, keep nothing of it), and the newest position.  ``None``
        when the record cannot tell them one by one (too far back, or from
        before one action per version).  It starts from the cached state
        where the cache is at ``version`` (a stream on another process than
        the one committing comes here at every step: replaying the record each
        time would cost more than the step), and leaves the newest state in
        the cache."""
        base = row.record.get("version_base")
        if base is None or not base["version"] <= version <= row.version or row.version - version > MAX_CATCH_UP:
            return None
        actions = row.record["actions"]
        start = base["actions"] + version - base["version"]
        cached = self.cache.at(row.id, version)
        state, view = cached if cached is not None else (replay(dict(row.record, actions=actions[:start])), None)
        out = []
        for number, entry in enumerate(actions[start:], start=version + 1):
            apply_entry(state, entry)
            position = Position(row, state)
            out.append(tell(position, state.last_step(), number))
            view = position.view
        if out:
            self.cache.put(row, state, view)
        return out, Position(row, state, view)


def record_entry(state: GameState, seat: int, text: str) -> str:
    """How ``seat``'s action ``text`` is written into the record: the
    record's notation, taken before the action changes the state; an
    out-of-turn action keeps its seat (record interface)."""
    entry = state.action_text(state.parse_action(text))
    return entry if seat == state.to_move else f"{seat}: {entry}"


def apply_entry(state: GameState, entry: str) -> None:
    """Apply one record entry (its seat, where it was taken out of turn)."""
    found = OUT_OF_TURN_ENTRY.match(entry)
    if found:
        state.act(int(found.group(1)), found.group(2))
    else:
        state.apply_any(state.parse_action(entry))


def status_of(state: GameState) -> str:
    return "over" if state.is_terminal() else "open"


def clocked(table: TableStart | None, seats: Seats | None = None) -> tuple[frozenset[int], None, int | None]:
    """``deadline_of``'s people and clock for a new game: its table's, else
    its ``seats``' people (or the one person's at seat 0) and none."""
    held = table.seats if table is not None else seats
    people = SOLO if held is None else frozenset(seat for seat, holder in enumerate(held) if holder is not None)
    return people, None, table.clock if table is not None else None


def deadline_of(state: GameState, people: frozenset[int] = SOLO, view: Mapping[str, Any] | None = None,
                clock: int | None = None) -> float | None:
    """When a person's timed decision runs out, if one is pending now: one the
    referee settles (the game's observation says how long it gives: Court
    Piece calling; the same for every seat), or any decision under a table's
    turn ``clock`` (seconds).  ``people``: the seats people hold; ``view``: a
    view of ``state`` where the caller has one (a commit has: no second observation)."""
    if state.is_terminal() or state.to_move not in people:
        return None
    if not state.referee_actions():
        return time.time() + clock if clock else None
    if view is not None:
        seconds = view.get("deadline_seconds")
    else:
        seconds = getattr(state.observe(state.to_move), "deadline_seconds", None)
    return time.time() + (seconds or DEFAULT_DECISION_SECONDS)


def daily_score(state: GameState, row: GameRow, observed: Observation | None = None) -> int | None:
    """The daily score, computed here and only once the match is over: the
    match's own ``daily_score`` fact where the game has one."""
    if not (row.daily_day and state.is_terminal()):
        return None
    match = (observed or state.observe(HUMAN)).match
    if match is not None and "daily_score" in match.extra:
        return int(match.extra["daily_score"])
    return int(state.returns()[HUMAN])


__all__ = ["MAX_RUN", "Position", "Referee", "StateCache", "Tell", "apply_entry", "record_entry", "forward", "daily_score",
           "deadline_of", "status_of"]
