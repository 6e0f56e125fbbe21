"""Games and their step frames: create, load and save under the version
check, the computer players' turn leases, the frames other processes'
streams read, daily attempts (a game row each) and share links."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator

import orjson
from sqlalchemy import Integer, Text, and_, bindparam, case, delete, exists, func, insert, null, or_, select, update

from tricktable.store.daily import ADD_SCORE
from tricktable.store.engine import Database, RawTransaction
from tricktable.store.schema import frames, game_seats, games, past_matches, shared_records, tables
from tricktable.store.tables import Seats, keep_seats, seats_of, seats_text

CHANGES_CHANNEL = "tricktable_games"
"""The PostgreSQL NOTIFY channel: payload ``"<game id> <version> <writer> <since>"``
per commit or claim (``Store.writer``: which process wrote it; ``since``: the
version the commit moved the game on from, the version itself for a claim)."""
ANY_LEASE = object()
"""In ``Store.wrote_last``: a write that left the lease as it was (not known here)."""
WRITTEN_KEPT = 4096
"""How many games' last own writes a store remembers (``Store.wrote_last``)."""

# The request path's statements, built once with bind parameters: building a
# Core statement and its cache key anew costs more than running it on SQLite.
ROW_COLUMNS = ("id", "game", "record", "version", "status", "daily_day", "device", "deadline", "owner", "ranked",
               "bot_secret", "server_seed", "client_seed", "commitment", "lease_until", "seats", "clock", "hints",
               "next_id", "actions")
"""A ``GameRow``'s columns, in its fields' order (the record in two: ``record`` and ``actions``;
``seats``, ``clock`` and ``hints`` are its table's, or, once the table moved on, its ``past_matches`` row's)."""
_UNLESS_KNOWN = games.c.version == bindparam("known", type_=Integer)
"""The game is still at the version whose record the reader holds (a version names one record)."""
_TABLE_COLUMNS: dict[str, Any] = {
    "seats": func.coalesce(tables.c.seats, past_matches.c.seats),
    "clock": func.coalesce(tables.c.clock, past_matches.c.clock),
    "hints": tables.c.hints,
    "next_id": past_matches.c.next_id,
}
"""A game's columns read from its table (the one playing it, or the past match it was)."""
_WITH_TABLE = (games.outerjoin(tables, tables.c.game_id == games.c.id)
               .outerjoin(past_matches, past_matches.c.game_id == games.c.id))


def _load_column(name: str) -> Any:
    if name in ("record", "actions"):
        return case((_UNLESS_KNOWN, null()), else_=games.c[name]).label(name)
    if name in _TABLE_COLUMNS:
        return _TABLE_COLUMNS[name].label(name)
    return games.c[name]


SEATS = 4
KEPT = exists().where(game_seats.c.game_id == games.c.id).label("kept")
"""Whether ``game_seats`` keeps the game's people (a table's match, a copy of
a seat): one index probe; only then are they read (``KEPT_SEATS``), where the
table is gone or there never was one."""
KEPT_SEATS = select(game_seats.c.seat, game_seats.c.identity).where(game_seats.c.game_id == bindparam("game_id"))
LOAD_GAME = (select(*map(_load_column, ROW_COLUMNS), KEPT).select_from(_WITH_TABLE)
             .where(games.c.id == bindparam("game_id")))
STREAM_STATE = (select(games.c.version, games.c.lease_until, _TABLE_COLUMNS["seats"], _TABLE_COLUMNS["next_id"])
                .select_from(_WITH_TABLE).where(games.c.id == bindparam("game_id")))
GAME_VERSION = select(games.c.version).where(games.c.id == bindparam("game_id"))
VERSIONS_BATCH = 50
"""``Store.versions`` reads the games this many at a time (one prepared statement)."""
GAME_VERSIONS = (select(games.c.id, games.c.version, games.c.lease_until)
                 .where(games.c.id.in_([bindparam(f"game_{n}") for n in range(VERSIONS_BATCH)])))
SAVE_GAME = (update(games).where(games.c.id == bindparam("game_id"), games.c.version == bindparam("expected"))
             .values(actions=games.c.actions.concat(bindparam("added", type_=Text)),
                     record=func.coalesce(bindparam("new_head", type_=Text), games.c.record),
                     version=bindparam("new_version"), status=bindparam("new_status"),
                     deadline=bindparam("new_deadline"), updated_at=func.now()))
SAVE_GAME_AND_LEASE = SAVE_GAME.values(lease_owner=bindparam("holder"), lease_until=bindparam("until"))
_TURN_FREE_TO = or_(games.c.lease_until.is_(None), games.c.lease_until < bindparam("now"),
                    games.c.lease_owner == bindparam("claimant"))
"""Nobody else holds the game's turn: no lease, a lapsed one, or the claimant's."""
SAVE_GAME_CLAIMING = SAVE_GAME_AND_LEASE.where(_TURN_FREE_TO)
CLAIM_TURN = (update(games)
              .where(games.c.id == bindparam("game_id"), games.c.version == bindparam("expected"), _TURN_FREE_TO)
              .values(lease_owner=bindparam("holder"), lease_until=bindparam("until")))
_HELD_BY = and_(games.c.id == bindparam("game_id"), games.c.lease_owner == bindparam("holder"))
RELEASE_TURN = update(games).where(_HELD_BY).values(lease_owner=None, lease_until=None)
RELEASE_TURN_AT = (update(games).where(_HELD_BY, games.c.version == bindparam("expected"))
                   .values(lease_owner=None, lease_until=None))
HOLDS_TURN = select(games.c.id).where(_HELD_BY)
ADD_FRAME = insert(frames).values(game_id=bindparam("game_id"), version=bindparam("version"),
                                  frame=bindparam("frame"), written_at=bindparam("written_at"))
PRUNE_FRAMES = delete(frames).where(frames.c.written_at < bindparam("before"))
FRAMES_BATCH = 16
"""``Store.frames`` reads the frames of this many games at a time (one prepared statement)."""
FRAMES_BETWEEN = (select(frames.c.game_id, frames.c.version, frames.c.frame)
                  .where(or_(*(and_(frames.c.game_id == bindparam(f"game_{n}"), frames.c.version > bindparam(f"after_{n}"),
                                    frames.c.version <= bindparam(f"upto_{n}")) for n in range(FRAMES_BATCH))))
                  .order_by(frames.c.game_id, frames.c.version))
FRAMES_KEPT_SECONDS = 5.0
"""How long a step's frame stays: a stream on another process reads it within
its change feed's next look (tens of milliseconds); one that comes later
reads the record instead.  The table holds this many seconds of frames: some
6,400 rows of 3.6 KB (23 MB) at 10 s in the two-process instant load test
(300 actions/s)."""
FRAMES_PRUNE_SECONDS = 1.0
"""How often a process that stores frames deletes the old ones (in one of its commits)."""
NOTIFY_CHANGE = select(func.pg_notify(CHANGES_CHANNEL, bindparam("payload")))


class StaleVersion(Exception):
    """The game changed since the version the writer read."""


@dataclass(frozen=True)
class TableStart:
    """A table whose match a new game is (``GameStore.create_game``), with its
    seats as the starter read them."""

    table_id: str
    seats: tuple[str | None, ...]
    clock: int
    """Seconds a person has for a decision (0: no clock)."""
    hints: bool = False
    """The table offers the hint while more than one person sits."""
    previous: str | None = None
    """The table's match this one follows ("play again"; None: its first)."""


Lease = tuple[str | None, float | None]
"""A turn lease as stored: (owner, until as Unix seconds); ``(None, None)``: nobody's."""


@dataclass
class GameRow:
    id: str
    game: str
    record: dict[str, Any]
    version: int
    status: str
    daily_day: str | None
    device: str | None
    deadline: float | None = None
    owner: str | None = None
    ranked: bool | None = None
    bot_secret: str | None = None
    server_seed: str | None = None
    client_seed: str | None = None
    commitment: str | None = None
    lease_until: float | None = None
    """Until when a server process holds the computer players' turn."""
    seats: tuple[str | None, ...] | None = None
    """A table's game: the identity holding each seat (None: a computer
    player); None for a game of one person (``owner``, at seat 0)."""
    clock: int | None = None
    """A table's game: the seconds a person has for a decision (0 or None: no clock)."""
    hints: bool | None = None
    """A table's game: whether its table offers the hint while more than one person sits."""
    next_id: str | None = None
    """A table's match that its table moved on from: the match that followed it."""

    @property
    def counts_on_leaderboard(self) -> bool:
        """A daily attempt that is ranked (rows from before practice existed
        have ``ranked`` NULL and were all ranked)."""
        return bool(self.daily_day and self.device) and self.ranked is not False


class GameStore(Database):
    """Games, frames, leases and share links."""

    def __init__(self, url: str | None = None, pool_size: int = 8):
        super().__init__(url, pool_size)
        self.writer = secrets.token_hex(6)
        # game -> (version, lease_until) as this store last wrote them: the
        # change feed need not wake this process's streams for its own writes.
        self._written: OrderedDict[str, tuple[int, object]] = OrderedDict()
        self._written_lock = threading.Lock()
        self._frames_pruned = 0.0  # (monotonic) when this store last deleted old frames

    @contextmanager
    def _noted_writing(self, game_id: str) -> Iterator[tuple[RawTransaction, Callable[[int, object], None]]]:
        """A write transaction into one game, and ``note(version, lease_until)``
        to call once the write took: noted inside the transaction, so the note
        is there before anyone can see the commit; forgotten if it fails."""
        noted = []

        def note(version: int, lease_until: object) -> None:
            with self._written_lock:
                self._written[game_id] = (version, lease_until)
                self._written.move_to_end(game_id)
                while len(self._written) > WRITTEN_KEPT:
                    self._written.popitem(last=False)
            noted.append(version)

        try:
            with self._raw(write=True) as db:
                yield db, note
        except BaseException:
            if noted:
                with self._written_lock:
                    self._written.pop(game_id, None)
            raise

    def wrote_last(self, game_id: str, version: int, lease_until: float | None) -> bool:
        """Whether (``version``, ``lease_until``) as read from the database is
        what this store itself wrote last into that game (its streams were told
        already, by the channel)."""
        with self._written_lock:
            found = self._written.get(game_id)
        return found is not None and found[0] == version and found[1] in (ANY_LEASE, lease_until)

    def create_game(
        self, record: dict[str, Any], status: str, daily_day: str | None = None, device: str | None = None,
        deadline: float | None = None, table: TableStart | None = None, seats: Seats | None = None,
        **secrets_and_owner: Any,
    ) -> GameRow:
        """Insert a new game at version 1; ``IntegrityError`` if the identity
        already has that day's daily game or the commitment was used before.
        ``table``: the table whose match this is, started in the same write
        (``StaleVersion``, nothing stored, if it started one already, or
        another than ``table.previous``, or its seats changed meanwhile); the
        previous match keeps its seats and clock and names this one
        (``past_matches``); its seats are kept with the game too, so they
        outlive the table.  ``seats``: the people of a game without a table, by
        seat (a person playing on from his seat at a table).  ``secrets_and_owner``: the ``GameRow`` fields
        ``owner``, ``ranked``, ``bot_secret``, ``server_seed``, ``client_seed``, ``commitment``."""
        seats = table.seats if table is not None else seats
        row = GameRow(secrets.token_urlsafe(18), record["game"], record, 1, status, daily_day, device, deadline,
                      seats=seats, clock=table.clock if table is not None else None,
                      hints=table.hints if table is not None else None, **secrets_and_owner)
        with self._writing() as db:
            db.execute(
                insert(games).values(
                    id=row.id, game=row.game, record=_head(record), actions=_inside(record["actions"]), version=1,
                    status=status,
                    daily_day=daily_day, device=device, deadline=deadline, **secrets_and_owner,
                    # To the microsecond (SQLite's own clock keeps seconds): a person's history is newest first.
                    created_at=datetime.now(timezone.utc),
                )
            )
            if table is not None:
                before = tables.c.game_id.is_(None) if table.previous is None else tables.c.game_id == table.previous
                started = db.execute(update(tables).where(tables.c.id == table.table_id, before,
                                                          tables.c.seats == seats_text(table.seats))
                                     .values(game_id=row.id, clock=table.clock, touched_at=time.time()))
                if started.rowcount != 1:
                    raise StaleVersion("the table started its match already, or its seats changed: look again")
                if table.previous is not None:
                    db.execute(insert(past_matches).values(game_id=table.previous, seats=seats_text(table.seats),
                                                           clock=table.clock, next_id=row.id))
            if seats is not None:
                keep_seats(db, row.id, seats)
        return row

    def open_games(self, owner: str) -> int:
        """How many unfinished games ``owner`` has."""
        query = select(func.count()).select_from(games).where(games.c.owner == owner, games.c.status == "open")
        with self.engine.begin() as db:
            return int(db.execute(query).scalar_one())

    def load(self, game_id: str, known: GameRow | None = None) -> GameRow | None:
        """The game as stored.  ``known``: a row of this game the caller
        holds: while the game is still at its version, its record is taken
        from it, not read and parsed again (a version names one record)."""
        values = {"game_id": game_id, "known": known.version if known is not None and known.id == game_id else None}
        with self._raw() as db:
            found = db.run(LOAD_GAME, values).fetchone()
            if not found:
                return None
            columns = dict(zip(ROW_COLUMNS + ("kept",), found))
            if columns["kept"] and columns["seats"] is None:
                columns["seats"] = seats_text(held_seats(db.run(KEPT_SEATS, {"game_id": game_id}).fetchall()))
        return _row(columns, known.record if columns["record"] is None and known is not None else None)

    def stream_state(self, game_id: str) -> tuple[int, float | None, tuple[str | None, ...] | None, str | None] | None:
        """What a quiet stream of a game looks at (one read): its version, its
        turn lease, its seats (None: a game of one person) and the match that
        followed it (None: none yet)."""
        with self._raw() as db:
            found = db.run(STREAM_STATE, {"game_id": game_id}).fetchone()
        if not found:
            return None
        version, lease_until, seats, next_id = found
        return version, lease_until, seats_of(seats), next_id

    def version_of(self, game_id: str) -> int | None:
        """A game's version alone (cheap: for live streams polling for changes)."""
        with self._raw() as db:
            found = db.run(GAME_VERSION, {"game_id": game_id}).fetchone()
        return found[0] if found else None

    def open_game_ids(self, limit: int) -> list[str]:
        """The ids of the ``limit`` most recently changed games still being played."""
        query = select(games.c.id).where(games.c.status == "open").order_by(games.c.updated_at.desc()).limit(limit)
        with self.engine.begin() as db:
            return list(db.execute(query).scalars())

    def game_ids_after(self, after: str, limit: int) -> list[str]:
        """Up to ``limit`` game ids after ``after``, in id order (a walk over every game)."""
        query = select(games.c.id).where(games.c.id > after).order_by(games.c.id).limit(limit)
        with self.engine.begin() as db:
            return list(db.execute(query).scalars())

    def claim_turn(self, game_id: str, version: int, owner: str, seconds: float) -> bool:
        """Take (or extend) the lease on the game's computer-player turn at
        ``version`` for ``seconds``: True if ``owner`` holds it now.  Refused
        while another live process holds it, or if the game is past ``version``."""
        now = time.time()
        values = {"game_id": game_id, "expected": version, "now": now, "holder": owner, "claimant": owner,
                  "until": now + seconds}
        with self._noted_writing(game_id) as (db, note):
            taken: bool = db.run(CLAIM_TURN, values).rowcount == 1
            if taken:
                note(version, values["until"])
                self._notify(db, game_id, version)
        return taken

    def release_turn(self, game_id: str, owner: str, version: int | None = None) -> bool:
        """Give ``owner``'s lease back once the turn is done at ``version``
        (any version: a stopping process); False, the lease kept, if the game
        moved on meanwhile: then there is more to do.  True if ``owner`` held
        no lease on it any more."""
        mine = {"game_id": game_id, "holder": owner}
        with self._noted_writing(game_id) as (db, note):
            if version is None:
                released = db.run(RELEASE_TURN, mine).rowcount == 1
            else:
                released = db.run(RELEASE_TURN_AT, {**mine, "expected": version}).rowcount == 1
            if released:
                if version is not None:
                    note(version, None)
                return True
            return db.run(HOLDS_TURN, mine).fetchone() is None

    def clear_lapsed_turn(self, game_id: str) -> None:
        """Drop a lease that ran out on a turn with nothing left to do (its
        process died after the last bot action), so it is not taken over again
        and again."""
        with self._writing() as db:
            db.execute(update(games).where(games.c.id == game_id, games.c.lease_until < time.time())
                       .values(lease_owner=None, lease_until=None))

    def lapsed_turns(self, limit: int = 100) -> list[str]:
        """Open games whose turn lease has run out: their process died mid-turn."""
        query = (select(games.c.id).where(games.c.status == "open", games.c.lease_until < time.time())
                 .order_by(games.c.lease_until).limit(limit))
        with self.engine.begin() as db:
            return list(db.execute(query).scalars())

    def versions(self, game_ids: list[str]) -> dict[str, tuple[int, float | None]]:
        """(version, lease_until) of each game: what a process polls to see
        other processes' commits and claims (SQLite has no notifications)."""
        out: dict[str, tuple[int, float | None]] = {}
        if not game_ids:
            return out
        with self._raw() as db:
            for start in range(0, len(game_ids), VERSIONS_BATCH):
                batch = game_ids[start:start + VERSIONS_BATCH]
                padded = [*batch, *[None] * (VERSIONS_BATCH - len(batch))]  # (id IN (..., NULL) matches no NULL)
                found = db.run(GAME_VERSIONS, {f"game_{n}": game for n, game in enumerate(padded)}).fetchall()
                out.update((game, (version, lease_until)) for game, version, lease_until in found)
        return out

    @property
    def notifies(self) -> bool:
        """Whether commits are announced to other processes (PostgreSQL NOTIFY)."""
        return self.engine.dialect.name == "postgresql"

    def _notify(self, db: RawTransaction, game_id: str, version: int, since: int | None = None) -> None:
        """Tell listening processes (``tricktable.server.live.feed``) that a game
        changed (from version ``since``, default: a claim at ``version``);
        PostgreSQL delivers it when the transaction commits."""
        if self.notifies:
            db.run(NOTIFY_CHANGE, {"payload": f"{game_id} {version} {self.writer} {version if since is None else since}"})

    def frames(self, wanted: dict[str, tuple[int, int]]) -> dict[str, list[tuple[int, bytes]]]:
        """The stored step frames of each game after its first version up to
        its second (``{game: (after, upto)}``), in version order, where all of
        them are stored; a game with any of them missing (pruned, or committed
        by a process that stored none) is left out."""
        out: dict[str, list[tuple[int, bytes]]] = {}
        games_wanted = list(wanted.items())
        with self._raw() as db:
            for start in range(0, len(games_wanted), FRAMES_BATCH):
                values: dict[str, Any] = {}
                for n in range(FRAMES_BATCH):
                    game_id, (after, upto) = (games_wanted[start + n] if start + n < len(games_wanted)
                                              else (None, (0, 0)))  # (game_id = NULL matches nothing)
                    values.update({f"game_{n}": game_id, f"after_{n}": after, f"upto_{n}": upto})
                found: dict[str, list[tuple[int, bytes]]] = {}
                for game_id, version, frame in db.run(FRAMES_BETWEEN, values).fetchall():
                    found.setdefault(game_id, []).append((version, bytes(frame)))
                for game_id, stored in found.items():
                    after, upto = wanted[game_id]
                    if len(stored) == upto - after:  # (versions are unique and within the bounds: all there)
                        out[game_id] = stored
        return out

    def _store_frames(self, db: RawTransaction, game_id: str, frames: list[tuple[int, bytes]]) -> None:
        """Store a commit's step frames in its transaction; now and then delete
        the old ones of every game (at most ``FRAMES_KEPT_SECONDS`` old are read)."""
        now = time.time()
        db.run_many(ADD_FRAME, [{"game_id": game_id, "version": version, "frame": frame, "written_at": now}
                                for version, frame in frames])
        if time.monotonic() - self._frames_pruned > FRAMES_PRUNE_SECONDS:
            self._frames_pruned = time.monotonic()
            db.run(PRUNE_FRAMES, {"before": now - FRAMES_KEPT_SECONDS})

    def find_daily(self, game: str, day: str, device: str) -> GameRow | None:
        query = select(games).where(games.c.game == game, games.c.daily_day == day, games.c.device == device)
        with self.engine.begin() as db:
            found = db.execute(query).mappings().first()
        return _row(found) if found else None

    def save(
        self, row: GameRow, record: dict[str, Any], status: str, score: int | None = None,
        deadline: float | None = None, lease: Lease | None = None, versions: int = 1,
        claimant: str | None = None, frames: list[tuple[int, bytes]] | None = None,
    ) -> GameRow:
        """Write ``record`` if the game is still at ``row.version``; the daily
        score (if any) commits in the same transaction.  ``StaleVersion`` if
        someone else wrote first.  ``lease``: the turn's lease in the same
        write, ``(owner, until)`` (renewed) or ``(None, None)`` (given back);
        without it the lease is left as it is.  ``versions``: how many the
        game moves on (the actions the record gained).  ``claimant`` (with
        ``lease``): the write claims the turn as ``claim_turn`` would, in the
        same statement: ``StaleVersion`` also while another process holds it.
        ``record`` must be ``row.record`` with actions appended (and, only
        where it differs, another head): the write sends the new actions alone.
        ``frames``: (version, bytes) of the steps' events, stored in the same
        transaction for other processes' streams (``frames``)."""
        values: dict[str, Any] = {"game_id": row.id, "expected": row.version, **_appended(row.record, record),
                                  "new_version": row.version + versions, "new_status": status, "new_deadline": deadline}
        if lease is not None:
            values.update(holder=lease[0], until=lease[1])
        statement = SAVE_GAME if lease is None else SAVE_GAME_AND_LEASE
        if lease is not None and claimant is not None:
            statement = SAVE_GAME_CLAIMING
            values.update(claimant=claimant, now=time.time())
        with self._noted_writing(row.id) as (db, note):
            result = db.run(statement, values)
            if result.rowcount != 1:
                raise StaleVersion(f"game {row.id} is no longer at version {row.version}"
                                   + (" or another process holds its turn" if statement is SAVE_GAME_CLAIMING else ""))
            note(row.version + versions, ANY_LEASE if lease is None else lease[1])
            if frames:
                self._store_frames(db, row.id, frames)
            self._notify(db, row.id, row.version + versions, since=row.version)
            if score is not None and row.counts_on_leaderboard:
                db.run(ADD_SCORE, {"game": row.game, "day": row.daily_day, "device": row.device, "score": score,
                                   "game_id": row.id, "finished_at": time.time()})
        return saved_row(row, record, status, deadline, lease, versions)

    def share(self, token_hash: str, game_id: str, seat: int = 0) -> None:
        """Keep a share link of ``seat``'s person: it shows the game from his seat."""
        with self._writing() as db:
            db.execute(insert(shared_records).values(token_hash=token_hash, game_id=game_id, seat=seat))

    def shared_game(self, token_hash: str) -> tuple[str, int] | None:
        """The game a share link's token opens and the seat it shows, if any."""
        with self.engine.begin() as db:
            found = db.execute(select(shared_records.c.game_id, shared_records.c.seat)
                               .where(shared_records.c.token_hash == token_hash)).first()
        return (found[0], found[1] or 0) if found is not None else None


def saved_row(row: GameRow, record: dict[str, Any], status: str, deadline: float | None = None,
              lease: Lease | None = None, versions: int = 1) -> GameRow:
    """The row ``Store.save`` returns for these arguments once it has written them
    (a caller may shape what it will publish before the commit)."""
    lease_until = row.lease_until if lease is None else lease[1]
    return replace(row, record=record, version=row.version + versions, status=status, deadline=deadline,
                   lease_until=lease_until)


def _head(record: dict[str, Any]) -> str:
    """The record as stored in ``games.record``: without its actions."""
    return orjson.dumps({**record, "actions": []}).decode()


def _inside(actions: list[str]) -> str:
    """Actions as stored in ``games.actions``: a JSON array without its brackets."""
    return orjson.dumps(actions).decode()[1:-1]


def _appended(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str | None]:
    """What a commit from ``old`` to ``new`` writes: the actions it adds
    (``added``, after a comma where there were some) and the new head where
    it changed (``new_head``, else None)."""
    before, after = old["actions"], new["actions"]
    if after[:len(before)] != before:
        raise ValueError("a commit only appends actions to the record")
    added = _inside(after[len(before):]) if len(after) > len(before) else ""
    changed = len(old) != len(new) or any(key != "actions" and old.get(key) != value for key, value in new.items())
    return {"added": ("," + added if before and added else added), "new_head": _head(new) if changed else None}


def joined_record(head: str, actions: str) -> dict[str, Any]:
    """A game's record from its two columns: the head and the actions' JSON texts."""
    record: dict[str, Any] = orjson.loads(head)
    record["actions"] = orjson.loads(f"[{actions}]")
    return record


def _row(found: Any, record: dict[str, Any] | None = None) -> GameRow:
    """A row of ``games`` as a ``GameRow``; ``record``: the record, where the
    caller has it (then the row's is not read)."""
    ranked = found["ranked"]
    return GameRow(
        found["id"], found["game"],
        record if record is not None else joined_record(found["record"], found["actions"]),
        found["version"], found["status"],
        found["daily_day"], found["device"], found["deadline"], found["owner"], None if ranked is None else bool(ranked),
        found["bot_secret"], found["server_seed"], found["client_seed"], found["commitment"], found["lease_until"],
        seats_of(found.get("seats")), found.get("clock"),
        None if found.get("hints") is None else bool(found.get("hints")), found.get("next_id"),
    )


def held_seats(rows: Iterable[tuple[int, str]]) -> Seats:
    """A game's seats from its ``game_seats`` rows (seat, identity): None where no person sits."""
    held: list[str | None] = [None] * SEATS
    for seat, identity in rows:
        held[seat] = identity
    return tuple(held)


__all__ = ["ANY_LEASE", "KEPT", "KEPT_SEATS", "held_seats", "CHANGES_CHANNEL", "GameRow", "GameStore", "Lease", "StaleVersion", "TableStart",
           "joined_record", "saved_row"]
