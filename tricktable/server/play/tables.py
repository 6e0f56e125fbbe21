"""Tables of friends: people play one match together, each at a seat of his
own, and computer players fill the empty seats.  No sign-up: the host creates a
table and passes on its short code or its invite link; whoever has one joins
with the identity the page already has.

A table answers to its code (six characters from an alphabet without
look-alikes, rate-limited against guessing by the route) or its invite link (a
128-bit token, stored hashed); a table a day past its last step (or change) is
gone.  The host moves people between seats, gives a seat to a computer player,
chooses whether the hint is offered and starts the match; ``games`` reads the
match's seats with its table (``seats.seat_of``).  During the match the host
may still give a person's seat to a computer player for good (the person is
removed from the match) or open a computer player's seat to a newcomer, who
joins by code or invite and plays it from its next decision.  Once the match
is over the host may play again: a new match at the same table, seats,
options, level, clock and hints; the finished one keeps its seats
(``past_matches``) and its streams name the new one.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any, Callable

from sqlalchemy.exc import IntegrityError

from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.catalog import get_spec
from tricktable.errors import GameError
from tricktable.server.live.feed import reaction
from tricktable.server.play.errors import GameNotFound, GameNotOver, NotHost, SeatTaken
from tricktable.server.play.room import Room
from tricktable.server.play.seats import holds
from tricktable.store import Store
from tricktable.store.games import TableStart
from tricktable.store.tables import Seats, TableRow

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""A short code's characters: no 0/O, 1/I/L look-alikes (31 of them: 31⁶ ≈ 887 million codes)."""
CODE_LENGTH = 6
INVITE_BYTES = 16
"""An invite link's token: 128 random bits."""
TABLE_SECONDS = 24 * 3600
"""A table is gone this long after its last step (or its last change before the match)."""
SEATS = 4
MAX_PEOPLE = 4
CLOCKS = (0, 15, 30, 60)
"""The turn clocks a table offers, in seconds a decision (0: none)."""
DEFAULT_CLOCK = 30
"""The clock of a table that chose none, once more than one person sits at it (alone: none)."""
JOIN_ATTEMPTS = 3
CODE_ATTEMPTS = 8
"""New codes tried when one is taken (a clash is one in millions)."""
SWEEP_SECONDS = 60.0
"""How often (at most) creating a table also deletes the expired ones (an indexed delete)."""
REACTIONS = ("well_played", "thanks", "sorry", "oops", "hurry_up")
"""The quick reactions a seated person may send to the table."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_code(text: str) -> bool:
    """Whether ``text`` is spelled like a short code (else it may be an invite token)."""
    return len(text) == CODE_LENGTH and all(c in CODE_ALPHABET for c in text.upper())


def invite_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Tables:
    """Creating, joining, seating and starting tables; safe from many threads
    (seat changes are checked against the seats read: ``Store.save_seats``)."""

    def __init__(self, store: Store, room: Room, clock: Callable[[], float] = time.time):
        self.store = store
        self.room = room
        self._clock = clock
        self._swept_at = float("-inf")

    def create(self, host: str, game: str, options: dict[str, Any] | None, level: str = DEFAULT_LEVEL,
               clock: int | None = None, quick_until: float | None = None, hints: bool = False) -> dict[str, Any]:
        """A new table with its host at seat 0 and computer players elsewhere:
        its description, with the code, the invite link and the watch link
        (shown once: only their hashes are stored).  ``clock``: seconds a
        decision (one of ``CLOCKS``; None: ``DEFAULT_CLOCK`` once more than one
        person sits, else none); ``quick_until``: a quick-match table's latest
        start (``play/quick.py``); ``hints``: whether the hint is offered while
        more than one person sits (alone it always is).  Expired tables are deleted first, so that
        their codes are free again."""
        spec = get_spec(game)
        if level not in LEVELS:
            raise GameError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        if clock is not None and clock not in CLOCKS:
            raise GameError(f"a turn clock of {clock} s is not offered; choose one of {', '.join(map(str, CLOCKS))}")
        normalized = spec.normalize_options(options or {})
        seats: Seats = (host, *([None] * (SEATS - 1)))
        self.sweep()
        for _attempt in range(CODE_ATTEMPTS):
            token, watch = secrets.token_urlsafe(INVITE_BYTES), secrets.token_urlsafe(INVITE_BYTES)
            try:
                table = self.store.create_table(secrets.token_urlsafe(18), new_code(), invite_hash(token), spec.name,
                                                normalized, level, host, seats, clock, invite_hash(watch),
                                                quick_until, hints)
            except IntegrityError:
                continue
            return {**self.describe(table, host), "invite": token, "watch": watch}
        raise GameError("no free table code was found; try again")

    def sweep(self) -> int:
        """Delete the tables a day past their last step (at most once a
        ``SWEEP_SECONDS`` per process): how many went."""
        now = self._clock()
        if now - self._swept_at < SWEEP_SECONDS:
            return 0
        self._swept_at = now
        return self.store.delete_expired_tables(now - TABLE_SECONDS)

    def watched(self, token: str) -> TableRow:
        """The live table a watch link names (``GameNotFound`` for none, or one gone)."""
        return self._live(self.store.table_by_watch(invite_hash(token)))

    def react(self, table_id: str, who: str, key: str) -> dict[str, Any]:
        """A seated person's quick reaction, published to every stream of the
        table's match (its seats' and its watchers'), on this server process
        at once and on the others through the store (kept a minute)."""
        if key not in REACTIONS:
            raise GameError(f"unknown reaction {key!r}; choose one of {', '.join(REACTIONS)}")
        table = self.get(table_id, who)
        if table.game_id is None:
            raise SeatTaken("the match has not started; reactions are for the match")
        seat = self._seat_of(table.seats, who)
        self.store.add_reaction(table.game_id, seat, key, self._clock())  # for the streams on other processes
        self.room.channel.publish(reaction(table.game_id, seat, key))
        return {"seat": seat, "key": key}

    def find(self, code_or_invite: str) -> TableRow:
        """The live table a code or invite names (``GameNotFound`` for none, or one gone)."""
        if is_code(code_or_invite):
            table = self.store.table_by_code(code_or_invite.upper())
        else:
            table = self.store.table_by_invite(invite_hash(code_or_invite))
        return self._live(table)

    def get(self, table_id: str, who: str) -> TableRow:
        """A table by its id, for one of its people only (``GameNotFound`` otherwise)."""
        table = self._live(self.store.table(table_id))
        if not any(holds(holder, who) for holder in table.seats):
            raise GameNotFound("no such table")
        return table

    def _live(self, table: TableRow | None) -> TableRow:
        if table is None or table.last_step_at < self._clock() - TABLE_SECONDS:
            raise GameNotFound("no such table")
        return table

    def join(self, table: TableRow, who: str, seat: int | None = None) -> dict[str, Any]:
        """Take a free seat (the first, or ``seat``); during the match an open
        one (``open_seat``), played from its next decision on; a person seated
        already keeps his.  Where another person took a seat meanwhile, look
        again (a few times): the first free seat may be another one now."""
        for _attempt in range(JOIN_ATTEMPTS):
            joined = self._seats_joined(table, who, seat)
            if joined is None:
                return self.describe(table, who)
            if self.store.save_seats(table, *joined):
                break
            table = self._live(self.store.table(table.id))
        else:
            raise SeatTaken("the table keeps changing; try again")
        if table.game_id is not None:
            self.room.seats_changed(table.game_id, self._seat_of(joined[0], who))
        return self._described(table.id, who)

    @staticmethod
    def _seats_joined(table: TableRow, who: str, seat: int | None) -> tuple[Seats, int] | None:
        """The table's seats with ``who`` at ``seat`` (or the first free one),
        and its open seats after; None if he sits there already;
        ``SeatTaken`` if it cannot be."""
        if any(holds(holder, who) for holder in table.seats):
            return None
        free = [s for s, holder in enumerate(table.seats) if holder is None]
        if table.game_id is not None:
            free = [s for s in free if table.open_seats >> s & 1]
            if not free:
                raise SeatTaken("the match has started and no seat is open; ask the host to open one")
        if seat is not None:
            check_seat(seat)
            if seat not in free:
                raise SeatTaken(f"seat {seat} is taken" if table.game_id is None else f"seat {seat} is not open")
        if not free or sum(holder is not None for holder in table.seats) >= MAX_PEOPLE:
            raise SeatTaken("the table is full")
        chosen = seat if seat is not None else free[0]
        return (tuple(who if s == chosen else holder for s, holder in enumerate(table.seats)),
                table.open_seats & ~(1 << chosen))

    def move(self, table_id: str, who: str, seat: int, to: int) -> dict[str, Any]:
        """The host moves the person at ``seat`` to ``to`` (swapping with whoever is there)."""
        table = self._hosted(table_id, who)
        check_seat(seat)
        check_seat(to)
        seats = list(table.seats)
        seats[seat], seats[to] = seats[to], seats[seat]
        return self._seat(table, who, tuple(seats))

    def to_computer(self, table_id: str, who: str, seat: int) -> dict[str, Any]:
        """The host gives ``seat`` to a computer player (its person leaves the
        table; an open seat is closed).  During the match for good: the
        person is removed from the match (it no longer answers to him; his
        streams are told so and end) and a computer player of the table's
        level plays the seat at once."""
        table = self._host_of(table_id, who)
        check_seat(seat)
        if holds(table.seats[seat], table.host):
            raise GameError("the host keeps a seat; move yourself first")
        seats = tuple(None if s == seat else holder for s, holder in enumerate(table.seats))
        described = self._seat(table, who, seats, table.open_seats & ~(1 << seat))
        if table.game_id is not None:
            self.room.seats_changed(table.game_id, seat, removed=table.seats[seat] is not None)
        return described

    def open_seat(self, table_id: str, who: str, seat: int) -> dict[str, Any]:
        """During the match the host opens a computer player's seat: a
        newcomer who joins by code or invite takes it (``join``)."""
        table = self._host_of(table_id, who)
        check_seat(seat)
        if table.game_id is None:
            raise SeatTaken("before the match every free seat is open: pass on the code or the invite")
        if table.seats[seat] is not None:
            raise SeatTaken(f"a person plays seat {seat}")
        described = self._seat(table, who, table.seats, table.open_seats | 1 << seat)
        self.room.seats_changed(table.game_id, seat)
        return described

    def allow_hints(self, table_id: str, who: str, hints: bool) -> dict[str, Any]:
        """The host chooses, before the start, whether the hint is offered
        while more than one person sits."""
        table = self._hosted(table_id, who)
        if not self.store.save_hints(table, hints):
            raise SeatTaken("the table changed meanwhile: look again")
        return self._described(table.id, who)

    def start(self, table_id: str, who: str) -> dict[str, Any]:
        """The host starts the match with the seats as they are: the game as the host sees it."""
        table = self._hosted(table_id, who)
        return self._new_match(table, who)

    def again(self, table_id: str, who: str) -> dict[str, Any]:
        """Once the match is over, the host starts a new one at the table
        (same seats, options, level, clock and hints): the game as the host
        sees it.  The finished match keeps its seats, and its streams are
        told the new one (``next``).  ``GameNotOver`` before its end;
        ``StaleVersion`` if the table has moved on already (a second click)."""
        table = self._host_of(table_id, who)
        if table.game_id is None:
            raise SeatTaken("the match has not started yet")
        finished = self.store.load(table.game_id)
        if finished is None or finished.status != "over":
            raise GameNotOver("the match is not over yet")
        started = self._new_match(table, who, previous=finished.id)
        self.room.moved_on(finished.id, finished.version, started["id"])
        return started

    def _new_match(self, table: TableRow, who: str, previous: str | None = None) -> dict[str, Any]:
        start = TableStart(table.id, table.seats, clock_of(table), table.hints, previous)
        return self.room.new_table_game(start, table.game, table.options, table.level, table.host,
                                        self._seat_of(table.seats, who))

    def _host_of(self, table_id: str, who: str) -> TableRow:
        table = self.get(table_id, who)
        if not holds(table.host, who):
            raise NotHost("only the table's host may do that")
        return table

    def _hosted(self, table_id: str, who: str) -> TableRow:
        """The table, for its host, before its match starts."""
        table = self._host_of(table_id, who)
        if table.game_id is not None:
            raise SeatTaken("the match has started")
        return table

    def _seat(self, table: TableRow, who: str, seats: Seats, open_seats: int | None = None) -> dict[str, Any]:
        if not self.store.save_seats(table, seats, open_seats):
            raise SeatTaken("the table changed meanwhile: look again")
        return self._described(table.id, who)

    def _described(self, table_id: str, who: str) -> dict[str, Any]:
        changed = self.store.table(table_id)
        assert changed is not None
        return self.describe(changed, who)

    @staticmethod
    def _seat_of(seats: Seats, who: str) -> int:
        return next(s for s, holder in enumerate(seats) if holds(holder, who))

    def describe(self, table: TableRow, who: str) -> dict[str, Any]:
        """The table as one of its people sees it: who sits where (a person
        with the nickname he chose, the caller, or a computer player; never
        another's identity)."""
        names = self.store.nicknames_of([holder for holder in table.seats if holder is not None])
        return {
            "id": table.id, "code": table.code, "game": table.game, "options": table.options, "level": table.level,
            "host": holds(table.host, who), "game_id": table.game_id, "clock": clock_of(table),
            "hints": table.hints,
            "seats": [{"seat": s, "person": holder is not None, "you": holds(holder, who),
                       "host": holds(holder, table.host), "open": bool(table.open_seats >> s & 1),
                       "nickname": names.get(holder) if holder is not None else None}
                      for s, holder in enumerate(table.seats)],
            **self.quick_part(table),
        }

    def quick_part(self, table: TableRow) -> dict[str, Any]:
        """``quick``: whether it is a quick-match table; ``starts_in``: seconds
        until its match starts at the latest (None: started, or not quick)."""
        waiting = table.quick_until is not None and table.game_id is None
        return {"quick": table.quick_until is not None,
                "starts_in": max(0.0, table.quick_until - self._clock()) if waiting and table.quick_until else None}

    def watcher_view(self, table: TableRow) -> dict[str, Any]:
        """The table as a watcher sees it: no code, no identities, whether each seat is a person."""
        return {"game": table.game, "options": table.options, "level": table.level, "game_id": table.game_id,
                "clock": clock_of(table), "seats": [{"seat": s, "person": holder is not None}
                                                    for s, holder in enumerate(table.seats)],
                **self.quick_part(table)}


def clock_of(table: TableRow) -> int:
    """The table's turn clock in seconds (0: none): its own, else the default for its people."""
    if table.clock is not None:
        return table.clock
    return DEFAULT_CLOCK if sum(holder is not None for holder in table.seats) > 1 else 0


def check_seat(seat: int) -> None:
    if not 0 <= seat < SEATS:
        raise GameError(f"there is no seat {seat}; seats are 0 to {SEATS - 1}")


__all__ = ["CLOCKS", "DEFAULT_CLOCK", "CODE_ALPHABET", "CODE_LENGTH", "REACTIONS", "SEATS", "TABLE_SECONDS", "Tables",
           "clock_of", "holds", "is_code"]
