"""The room: what the HTTP layer asks of games, composed of the referee
(``play/commit.py``: load, apply, commit under the version check, the clock), the
computer players' scheduling (``play/scheduler.py``, with an injected bot factory),
the live channel (``live/channel.py``) and response shaping (``play/view.py``).

A person alone sits at seat 0 (South); seats 1..3 are computer players, at
the level the person chose for a new game (``bots/levels.py``; the daily deal is
always played alone against the default level, so its leaderboard compares like
with like).  A table's match (``play/tables.py``) seats its people where the
table says, and computer players in the other seats.  The stored record carries that ``level`` beside the game's own fields
(replay ignores it).  The person's action is committed and answered at once;
the computer players then move in the background, one commit each, and every
commit is published on the channel.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import replace
from contextlib import contextmanager
from typing import Any, Iterator

from sqlalchemy.exc import IntegrityError

from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS, hard_hint, hint_seed
from tricktable.errors import GameError, GameOver, NotYourTurn, RecordError
from tricktable.catalog import parse_record, replay
from tricktable.core.observation import Observation
from tricktable.core.protocol import NUM_SEATS, GameSpec
from tricktable.core.record import RECORD_FORMAT, record_of
from tricktable.catalog import get_spec
from tricktable.server.live.channel import NEXT, REMOVED, Event, LocalChannel
from tricktable.server.play.analysis import Analyst, progress, report
from tricktable.server.play.errors import GameNotFound, GameNotOver, HintRefused, TimeRanOut, Withheld
from tricktable.server.live.feed import ChangeFeed, forwarded, seats_changed
from tricktable.server.trust.limits import TooMany
from tricktable.server.trust.fairness import Commitments, commitment_of, match_seed
from tricktable.core.step import Step
from tricktable.server.play.commit import Position, Referee, daily_score
from tricktable.server.play.view import (HUMAN, bot_to_move, encode, hints_offered, people_at, shape, shape_step,
                                         step_json)
from tricktable.server.trust.fairness import daily_day_ended, fairness_of, seed_revealed
from tricktable.server.trust.days import previous_day, utc_day
from tricktable.server.play.scheduler import BotFactory, BotScheduler, bot_seed, default_bot_factory
from tricktable.server.play.bot_pool import ThinkingPool, think_here
from tricktable.server.play.seats import holds, seat_of
from tricktable.server.play.watch import WATCHER, watch_state_event, watch_step_event
from tricktable.store import GameRow, StaleVersion, Store
from tricktable.store.games import TableStart
from tricktable.store.reactions import SEATS_CHANGED


def daily_seed(secret: str, game: str, day: str) -> str:
    """The day's match seed: an HMAC, so nobody without the server secret can
    compute the deals in advance."""
    return hmac.new(secret.encode(), f"daily/{game}/{day}".encode(), hashlib.sha256).hexdigest()


HINT_WAIT_SECONDS = 4.0
"""How long a request waits for its hint (a quarter-second search) behind the
computer players' decisions in the thinking processes' queue."""
HINTS_AT_ONCE = 2
"""Hints a process searches at once (one a core): each is a quarter second of
a core, and a flood of them must not starve the tables being played."""


def next_event(game_id: str, version: int, next_id: str) -> Event:
    """The match a table plays after ``game_id``: for every stream of it
    (its seats' and its watchers': a match's id is on the watchers' page too)."""
    return Event(game_id, NEXT, version, {"game_id": next_id})


def removed_event(game_id: str, version: int, seat: int) -> Event:
    """The last event of ``seat``'s streams: its person no longer holds it."""
    return Event(game_id, REMOVED, version, {"seat": seat}, seat=seat)


def step_event(position: Position, step: Step, version: int, seat: int = HUMAN) -> Event:
    """The event of ``step``, which led to ``position`` at ``version``, as
    ``seat`` sees it (at seat 0: the referee's ``Tell``)."""
    state, row = position.state, position.row
    return shape_step(row, state, position.view_of(seat), step, version, daily_score(state, row), seat)


class HintsRunning:
    """The hints being searched now: one per game, ``HINTS_AT_ONCE`` in all;
    a hint asked beyond that is refused at once (``TooMany``), never queued."""

    def __init__(self, at_once: int = HINTS_AT_ONCE):
        self.at_once = at_once
        self._games: set[str] = set()
        self._lock = threading.Lock()

    @contextmanager
    def running(self, game_id: str) -> Iterator[None]:
        with self._lock:
            if game_id in self._games:
                raise TooMany("a hint for this game is being worked out; wait for it", 1)
            if len(self._games) >= self.at_once:
                raise TooMany("the computer players are busy; ask for the hint again in a moment", 1)
            self._games.add(game_id)
        try:
            yield
        finally:
            with self._lock:
                self._games.discard(game_id)


class Room:
    """Everything the HTTP layer asks of games; safe to call from many threads.

    The computer players move only between ``start()`` and ``stop()`` (the
    app's lifetime); a room used by a tool just stores games, and the server
    that loads them later lets the bots move.
    """

    def __init__(self, store: Store, bot_factory: BotFactory = default_bot_factory, channel: LocalChannel | None = None,
                 workers: int = 2, think_processes: int = 0):
        """``workers``: threads that work games' bot turns; ``think_processes``:
        worker processes the computer players think in (0: in those threads;
        the bot factory must then be picklable)."""
        self.store = store
        self.secret = store.secret()
        self.commitments = Commitments(self.secret)
        self.bot_factory = bot_factory
        self.channel = channel or LocalChannel()
        self.referee = Referee(store, step_event, forwards=self._streams_elsewhere)
        self.feed = ChangeFeed(store, self.channel)
        self.thinking = ThinkingPool(think_processes) if think_processes > 0 else None
        self.hints = HintsRunning()
        self.analyst = Analyst(store, self._search_hint)
        self.scheduler = BotScheduler(self.referee, self.channel, self._announce, bot_factory, workers,
                                      think=self.thinking.think if self.thinking else think_here)

    def start(self) -> None:
        self.analyst.start()
        self.feed.start()
        if self.thinking is not None:
            self.thinking.start()
        self.scheduler.start()

    def stop(self) -> None:
        self.analyst.stop()
        self.scheduler.stop(interrupt=self.thinking.stop if self.thinking else None)
        self.feed.stop()

    def bot_name(self, game: str, level: str = DEFAULT_LEVEL) -> str:
        return self.bot_factory(game, level, "name").name

    # -- creating and loading ------------------------------------------------
    @staticmethod
    def spec(game: str) -> GameSpec:
        return get_spec(game)

    def new_game(self, game: str, options: dict[str, Any] | None, seed: str | None = None,
                 level: str = DEFAULT_LEVEL, owner: str | None = None, nonce: str | None = None,
                 client_seed: str = "") -> dict[str, Any]:
        """A new match.  Its seed mixes the server seed promised for ``nonce``
        (``POST /api/commitments``; a fresh one without) with ``client_seed``.
        ``seed`` is for tests and tools that need a known deal; the HTTP API
        never takes one.  ``IntegrityError`` if the nonce was used before."""
        spec = self.spec(game)
        if level not in LEVELS:
            raise GameError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        normalized = spec.normalize_options(options or {})
        server_seed = self.commitments.server_seed(nonce or secrets.token_urlsafe(18))
        fair: dict[str, Any] = {"server_seed": server_seed, "client_seed": client_seed,
                                "commitment": commitment_of(server_seed)}
        return self._start(spec.name, seed or match_seed(server_seed, client_seed), normalized, daily=False,
                           level=level, owner=owner, **fair)

    def new_table_game(self, table: TableStart, game: str, options: dict[str, Any], level: str, owner: str,
                       seat: int) -> dict[str, Any]:
        """A table's match (``play/tables.py``): its seats are the table's, and
        it starts only if the table has not started one (``StaleVersion``);
        the answer is ``seat``'s view.  Its seed is the server's alone: there
        is no one client to promise it to."""
        spec = self.spec(game)
        server_seed = self.commitments.server_seed(secrets.token_urlsafe(18))
        fair = {"server_seed": server_seed, "client_seed": "", "commitment": commitment_of(server_seed)}
        return self._start(spec.name, match_seed(server_seed, ""), spec.normalize_options(options), daily=False,
                           level=level, owner=owner, seat=seat, table=table, **fair)

    def daily_game(self, game: str, device: str, may_rank: bool = True) -> dict[str, Any]:
        """The identity's attempt at today's daily deal: created on first call,
        resumed after that (even when it is over).  It is ranked when
        ``may_rank`` (``Identities.practice_reason``), else practice: shown and
        scored, never on the leaderboard, and dealt the previous day's daily
        deals, whose leaderboard is closed: a practice attempt must never
        show today's ranked cards to a throwaway identity."""
        spec = self.spec(game)
        day = utc_day()
        row = self.store.find_daily(spec.name, day, device)
        if row is None:
            deals_day = day if may_rank else previous_day(day)
            seed = daily_seed(self.secret, spec.name, deals_day)
            try:
                return self._start(spec.name, seed, spec.normalize_options({}), daily=True, day=day, device=device,
                                   owner=device, ranked=may_rank, bot_secret=secrets.token_hex(16),
                                   server_seed=seed, client_seed=None, commitment=None,
                                   deals_day=deals_day)
            except IntegrityError:  # the same identity raced itself; use the winner
                row = self.store.find_daily(spec.name, day, device)
                assert row is not None
        return self.load(row.id, device)  # (a new attempt's opening moves: the route ``resume``s)

    def _start(self, game: str, seed: str, options: dict[str, Any], daily: bool, level: str = DEFAULT_LEVEL,
               day: str | None = None, device: str | None = None, deals_day: str | None = None,
               seat: int = HUMAN, **stored: Any) -> dict[str, Any]:
        """``stored``: the row's owner, ranking and fairness fields (``Store.create_game``);
        ``deals_day``: the day whose daily deals a daily attempt plays."""
        state = get_spec(game).new_match(seed, options, daily=daily)
        record = {
            "format": RECORD_FORMAT, "game": game, "rules_version": state.spec.rules_version, "options": options,
            "kind": "match", "seed": seed, "daily": daily, "actions": record_of(state).actions, "level": level,
        }
        if deals_day is not None:
            record["deals_day"] = deals_day
        parse_record(record)  # fail here, not at the next load, if the format drifts
        position = self.referee.create(state, record, daily_day=day, device=device, **stored)
        return self.respond(position, [], seat)  # the caller ``resume``s: the computer players' opening moves

    def load(self, game_id: str, who: str | None) -> dict[str, Any]:
        """The game as ``who`` (an identity id: ``GameNotFound`` unless the game
        is theirs) sees it.  A timed decision that ran out is
        settled first (the scheduler's clock normally does it; this is the
        fallback), and the answer carries that step, so the page that asked
        tells the person, as its stream would have; a pending bot turn is
        (re)started."""
        for _attempt in range(3):
            position = self._position(game_id)
            seat = seat_of(position.row, who)
            steps: list[dict[str, Any]] = []
            if self.referee.expired(position):
                try:
                    position, step = self.referee.time_out(position)
                except StaleVersion:
                    continue  # someone else settled it first: read again
                self._announce(position, step)
                steps.append(step_json(step, position.view_of(seat), seat))
            self._resume(position)
            return self.respond(position, steps, seat)
        raise StaleVersion("the game keeps changing; try again")

    # -- playing ------------------------------------------------------------------
    def act(self, game_id: str, version: int, action: str, who: str | None) -> dict[str, Any]:
        """Commit the person's action (also out of turn, where the rules allow
        it) and publish it; the response.  The computer players answer after
        ``resume``.  ``StaleVersion`` if ``version`` is not the stored one; a
        ``GameError`` for an illegal action (nothing changes)."""
        return self.act_event(game_id, version, action, who).data

    def act_event(self, game_id: str, version: int, action: str, who: str | None) -> Event:
        """``act``, as the step it published: the HTTP answer is its ``json``,
        the same bytes the game's streams send.  Where this process holds the
        game at ``version`` it is not read first: the commit's version check
        refuses the action if another process moved the game on meanwhile.
        ``who``: the identity acting (``GameNotFound`` unless it holds a seat)."""
        position = self.referee.load_at(game_id, version)
        if position is None:
            raise GameNotFound("no such game")
        try:
            seat = seat_of(position.row, who)
        except GameNotFound:
            # A cached row may name the game's former owner (a browser's games brought along to a
            # passkey's identity since): the stored row decides.
            position = self._position(game_id)
            seat = seat_of(position.row, who)
        if version != position.row.version:
            raise StaleVersion(f"this game is at version {position.row.version}, not {version}: reload it")
        if position.state.is_terminal():
            raise GameOver("the game is over")
        if self.referee.expired(position):
            position, step = self.referee.time_out(position)
            self._announce(position, step)
            self.scheduler.wake(game_id)
            raise TimeRanOut("time ran out for that decision")
        # Only the seat's own actions: another seat's turn is refused by the
        # rules (``NotYourTurn``), except what they let it do out of turn.
        # Where the computer players move next, this process takes their turn's
        # lease in the same write (one write less per action) and works it: a
        # stream of the game on another process gets their steps as stored
        # frames (``Referee.forwards``).  Only from the person's own turn: no
        # process may claim a turn at this version then, so the write cannot
        # take a lease another process holds.
        holder = self.scheduler.holder() if position.state.to_move == seat else None
        position, step = self.referee.play(position, seat, action, holder)
        event = self._announce(position, step, seat)
        assert event is not None  # (the acting seat's own)
        self.scheduler.keep(position, holding=holder is not None)  # the bots go on from here without a read
        return event

    def resume(self, game_id: str) -> None:
        """Let the computer players take their turn: called once the answer to
        the person's action (or a new game) is on its way, so their thinking
        does not compete with sending it."""
        self.scheduler.wake(game_id)

    def _streams_elsewhere(self, game_id: str) -> bool:
        """Whether the game's step frames are stored with its commits: no
        stream of the game is open in this process, so any is on another
        (whose change feed forwards the frames instead of reading the record
        and building the steps' views again)."""
        return self.channel.listeners(game_id) == 0

    def hint(self, game_id: str, version: int, who: str | None) -> dict[str, Any]:
        """What the strongest computer player would do in the person's seat, with
        every legal action's expected value, computed from the person's view
        alone.  Refused in the daily game (a fair leaderboard), at a table of
        more than one person whose host did not allow it (one could help
        another), on a stale version, and when it is not the person's turn."""
        position = self._position(game_id)
        row, state = position.row, position.state
        seat = seat_of(row, who)
        if row.daily_day:
            raise HintRefused("no hints in the daily game")
        if not hints_offered(row):
            raise HintRefused("the table's host has not allowed hints")
        if version != row.version:
            raise StaleVersion(f"this game is at version {row.version}, not {version}: reload it")
        if state.is_terminal() or state.to_move != seat or not state.legal_actions():
            raise NotYourTurn("a hint is for your own turn")
        obs = state.observe(seat)
        seed = hint_seed(row.record["seed"], len(row.record["actions"]))  # the analysis's seed for this decision
        with self.hints.running(game_id):
            if self.thinking is None:
                return {"version": row.version, "hints": hard_hint(obs, seed)}
            try:  # in the computer players' processes, like every other search
                hints = self.thinking.run(hard_hint, obs, seed, timeout=HINT_WAIT_SECONDS)
            except TimeoutError:
                raise TooMany("the computer players are busy; ask for the hint again in a moment", 2) from None
            return {"version": row.version, "hints": hints}

    def _search_hint(self, obs: Observation, seed: str) -> list[dict[str, Any]]:
        """The hint's search of one decision of an analysis, in the computer
        players' processes like every other search (one decision a task)."""
        if self.thinking is None:
            return hard_hint(obs, seed)
        return list(self.thinking.run(hard_hint, obs, seed))

    # -- learning from finished games ---------------------------------------------
    def _finished(self, game_id: str, who: str | None) -> tuple[GameRow, int]:
        """``who``'s finished game, once it may be looked back at, and his seat
        in it: the analysis and playing on are of his own seat's decisions
        (alone seat 0, at a table the seat it gave him), never another's."""
        row = self._row(game_id)
        seat = seat_of(row, who)
        return self._looked_back_at(row), seat

    @staticmethod
    def _looked_back_at(row: GameRow) -> GameRow:
        """``row`` if it is over and, a daily attempt, its UTC day has ended (its
        cards are everybody's that day).  Read from the row alone: a finished
        game's state is not replayed for a poll."""
        if row.status != "over":
            raise GameNotOver("the game is not over yet")
        if not daily_day_ended(row):
            raise Withheld("a daily game is looked back at once its UTC day has ended")
        return row

    def _row(self, game_id: str) -> GameRow:
        row = self.store.load(game_id)
        if row is None:
            raise GameNotFound("no such game")
        return row

    def request_analysis(self, game_id: str, who: str | None) -> dict[str, Any]:
        """Start the analysis of ``who``'s finished game (once: asked again it
        answers the progress), resume one a stopped server left, or retry one
        that failed and may be retried."""
        row, seat = self._finished(game_id, who)
        return progress(self.analyst.request(row.id, seat, row.record))

    def analysis(self, game_id: str, who: str | None) -> dict[str, Any]:
        """The analysis of ``who``'s finished game as far as it has got; one a
        stopped server left unfinished is resumed."""
        row, seat = self._finished(game_id, who)
        return report(self.analyst.resume_lapsed(row.id, seat, row.record, self.store.analysis(row.id, seat)))

    def shared_analysis(self, game_id: str, seat: int) -> dict[str, Any]:
        """The analysis of ``seat`` (the sharer's) in a shared game, read only
        (a share link never starts one)."""
        return report(self.store.analysis(self._looked_back_at(self._row(game_id)).id, seat))

    def play_on_game(self, game_id: str, at: int, who: str) -> dict[str, Any]:
        """``play_on`` from ``who``'s own finished game, in his own seat, at its level."""
        row, seat = self._finished(game_id, who)
        return self.play_on(row.record, at, who, level=row.record.get("level"), copy_of=row.id, seat=seat)

    def play_on(self, record: Any, at: int, owner: str, level: object = None,
                copy_of: str | None = None, seat: int = HUMAN) -> dict[str, Any]:
        """A new practice game from the first ``at`` actions of a match record
        (checked by replaying it: ``RecordError`` names what is wrong): the
        person in ``seat`` with the same cards (the others' hidden as before),
        computer players in every other seat at ``level`` (the default where
        it is not one).  Never ranked, never a daily, and with no deal
        commitment: a copy of a position, as its record (``copy_of``) says."""
        if not isinstance(record, dict) or record.get("kind") != "match":
            raise RecordError("only a match record can be played on (every game here is a match)")
        parsed = parse_record(record)
        if not 0 <= at <= len(parsed.actions):
            raise RecordError(f"'at' must be from 0 to {len(parsed.actions)}, the record's actions")
        kept = replace(parsed, actions=parsed.actions[:at])
        state = replay(kept)
        if state.is_terminal():
            raise RecordError("the game is over after those actions; choose an earlier point")
        copy = {**kept.to_json(), "level": level if isinstance(level, str) and level in LEVELS else DEFAULT_LEVEL,
                "copy_of": {"game": copy_of, "at": at, "fairness": "none: a copy of another game's position, "
                                                                   "dealt by that game's seed"}}
        # Not seat 0: the game keeps its one person's seat (``seat_of``), and the computer players take the rest.
        seats = None if seat == HUMAN else tuple(owner if s == seat else None for s in range(NUM_SEATS))
        position = self.referee.create(state, copy, owner=owner, seats=seats)
        return self.respond(position, [], seat)  # the caller ``resume``s: the computer players' moves

    # -- the live channel -----------------------------------------------------------
    def catch_up(self, game_id: str, version: int, who: str | None) -> list[Event]:
        """What ``who``'s stream that has seen ``version`` missed: a ``step``
        event per later version, or one ``state`` event when they cannot be
        told one by one; then, if a computer player is thinking now, a
        ``thinking`` event.  ``GameNotFound`` unless the game is ``who``'s."""
        row = self.store.load(game_id)
        if row is None:
            raise GameNotFound("no such game")
        return self._catch_up(row, version, seat_of(row, who))

    def seat_in(self, game_id: str, who: str | None) -> int:
        """The seat ``who`` holds in the game (``GameNotFound`` if none): whose events its stream gets."""
        row = self.store.load(game_id, known=self.referee.cache.row(game_id))
        if row is None:
            raise GameNotFound("no such game")
        return seat_of(row, who)

    def _catch_up(self, row: GameRow, version: int, seat: int) -> list[Event]:
        game_id = row.id

        def tell(position: Position, step: Step, number: int) -> Event:
            return step_event(position, step, number, seat)

        # The history first: it starts from the cached state at ``version``, which ``take`` would move on;
        # its last position is the stored one (no second look in the cache, which lets finished games go).
        told = (self.referee.history(row, version, tell) if version != row.version
                else ([], self.referee.cache.take(row)))
        if told is None:  # not to be told one by one: the whole state
            position = self.referee.cache.take(row)
            events = [Event(game_id, "state", row.version, self.respond(position, [], seat), encoder=encode,
                            seat=seat)]
        else:
            events, position = told
        thinking = self._thinking_seat(position)
        self._resume(position, hand=True)
        if thinking is not None:
            events.append(Event(game_id, "thinking", row.version, {"seat": thinking, "version": row.version}))
        if row.next_id is not None:
            events.append(next_event(game_id, row.version, row.next_id))
        return events

    def _thinking_seat(self, position: Position) -> int | None:
        """The computer player thinking now: in this process, or in another
        that holds the game's turn lease."""
        row = position.row
        here = self.scheduler.thinking(row.id)
        if here is not None:
            return here[0] if here[1] == row.version else None
        if row.lease_until is not None and row.lease_until > time.time():
            return bot_to_move(position.state, people_at(row))
        return None

    def refresh(self, game_id: str, version: int, seat: int = HUMAN, who: str | None = None) -> list[Event]:
        """What ``seat``'s stream that has seen ``version`` missed because another
        process committed or claimed it (this process's channel did not hear
        it): the stored step frames where all are there (they are seat 0's),
        else ``catch_up`` if the stored game is past ``version`` or another
        process is thinking in it, else the next match where its table plays
        again, else nothing.  ``who``: the stream's person, where it is a
        table's seat: ``removed`` (and nothing else) once he no longer holds it."""
        stored = self.store.stream_state(game_id)
        if stored is None or stored[0] < version:
            return []
        stored_version, lease_until, seats, next_id = stored
        if seats is not None and who is not None and not holds(seats[seat], who):
            return [removed_event(game_id, stored_version, seat)]
        claimed = lease_until is not None and lease_until > time.time()
        if stored_version == version and not claimed:
            return [next_event(game_id, version, next_id)] if next_id is not None else []
        if stored_version > version and seat == HUMAN:
            frames = self.store.frames({game_id: (version, stored_version)}).get(game_id)
            if frames is not None:
                return [forwarded(game_id, number, frame) for number, frame in frames]
        row = self.store.load(game_id)
        return self._catch_up(row, version, seat) if row is not None else []

    # -- a table's seats and matches --------------------------------------------------
    def seats_changed(self, game_id: str, seat: int, removed: bool = False) -> None:
        """A table changed who holds ``seat`` of its match: end the streams
        here of that seat where its person was ``removed`` (a ``removed``
        event, their last); tell every stream of the match, here at once and
        on other server processes through the store (as a reaction is), that
        the seat changed hands, so their pages name it anew; and let the
        computer players go on at once where the seat became theirs.
        (Nothing kept here is trusted for a table's seats: an action and a
        computer player's turn read them first: ``Referee.load_at``,
        ``BotScheduler``.)"""
        if removed:
            version = self.store.version_of(game_id) or 0
            self.channel.publish(removed_event(game_id, version, seat))
        self.store.add_reaction(game_id, seat, SEATS_CHANGED, time.time())
        self.channel.publish(seats_changed(game_id, seat))
        self.scheduler.wake(game_id)

    def moved_on(self, game_id: str, version: int, next_id: str) -> None:
        """Tell every stream of a table's finished match here (its seats' and
        its watchers') the match its table plays next (streams elsewhere are
        told at their next look: ``refresh``, ``catch_up``)."""
        self.channel.publish(next_event(game_id, version, next_id))

    def _announce(self, position: Position, step: Step, answer: int | None = None) -> Event | None:
        """Publish a committed step to the streams of every seat a person
        holds, each with its own view (shaped and encoded in the committing
        thread, not on the streams' event loop); the event of seat ``answer``
        (its data: the response to that seat's action), if one is asked."""
        version = position.row.version
        answered: Event | None = None
        for seat in sorted(people_at(position.row) | ({answer} if answer is not None else set())):
            if seat != answer and seat != HUMAN and not self.channel.listeners(position.row.id, seat):
                continue  # nobody of that seat is watching here: its stream reads the step when it comes
            event = position.event if seat == HUMAN and position.event is not None \
                else step_event(position, step, version, seat)
            self.channel.publish(event)
            if seat == answer:
                answered = event
        if self.channel.listeners(position.row.id, WATCHER):
            self.channel.publish(watch_step_event(position, step))
        return answered

    def watch_state(self, game_id: str) -> Event:
        """The public state of a game, as watchers' streams start with it
        (the caller checked the watch link)."""
        return watch_state_event(self.watch_position(game_id))

    def watch_position(self, game_id: str) -> Position:
        """A watched game's stored position (the caller checked the watch link)."""
        return self._position(game_id)

    def watch_refresh(self, game_id: str, version: int) -> list[Event]:
        """What a watcher's stream that has seen ``version`` missed: the
        public state if the stored game is past it (watchers are told a run
        they fell behind in as one state), else the next match where its
        table plays again, else nothing."""
        stored = self.store.stream_state(game_id)
        if stored is None or stored[0] < version:
            return []
        if stored[0] == version:
            return [next_event(game_id, version, stored[3])] if stored[3] is not None else []
        return [self.watch_state(game_id)]

    # -- helpers ----------------------------------------------------------------------
    def _resume(self, position: Position, hand: bool = False) -> None:
        """Wake the scheduler for a game with pending work (a bot's turn, the
        person's clock): after a restart, loading a game continues it.
        ``hand``: the caller is done with ``position``; the work starts from
        it (no second read)."""
        if bot_to_move(position.state, people_at(position.row)) is not None or position.row.deadline is not None:
            self.scheduler.wake(position.row.id, position if hand else None)

    def _position(self, game_id: str) -> Position:
        position = self.referee.load(game_id)
        if position is None:
            raise GameNotFound("no such game")
        return position

    @staticmethod
    def respond(position: Position, steps: list[dict[str, Any]], seat: int = HUMAN) -> dict[str, Any]:
        return shape(position.row, position.state, steps, daily_score(position.state, position.row),
                     view=position.view_of(seat), seat=seat)


__all__ = ["Room", "StaleVersion", "GameError", "HintRefused", "bot_seed", "daily_seed", "fairness_of",
           "seed_revealed", "utc_day"]
