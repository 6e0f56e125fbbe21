"""Tables of friends: a game, its options and level, the seats (an identity
each, or none: a computer player), the host, the turn clock, and the match it
started.  Reached by a short code or an invite link (stored as its hash, so a
reader of the database cannot open the links).  Seats change under a check of
the seats read (``save_seats``): of two people taking the last seat at once,
one gets it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import orjson
from sqlalchemy import Connection, delete, insert, or_, select, update

from tricktable.store.engine import Database
from tricktable.store.schema import game_seats, games, tables

Seats = tuple[str | None, ...]
"""Per seat the identity that holds it, or None (a computer player)."""


@dataclass(frozen=True)
class TableRow:
    id: str
    code: str
    game: str
    options: dict[str, Any]
    level: str
    host: str
    seats: Seats
    clock: int | None
    """Seconds a person has for a decision (None: no clock)."""
    game_id: str | None
    """The match it started (None: not yet)."""
    last_step_at: float
    """Unix seconds of its last change or its match's last step."""
    quick_until: float | None = None
    """A quick-match table's latest start, in Unix seconds (None: a table of friends)."""
    hints: bool = False
    """Whether the hint is offered while more than one person sits (alone: always)."""
    open_seats: int = 0
    """The computer players' seats a newcomer may take during the match (bit n: seat n)."""


TABLE_COLUMNS = (tables.c.id, tables.c.code, tables.c.game, tables.c.options, tables.c.level, tables.c.host,
                 tables.c.seats, tables.c.clock, tables.c.game_id, tables.c.touched_at, games.c.updated_at, tables.c.quick_until,
                 tables.c.hints, tables.c.open_seats)
FIND_TABLE = select(*TABLE_COLUMNS).select_from(tables.outerjoin(games, games.c.id == tables.c.game_id))


class TableStore(Database):
    """Tables: create, find by id, code or invite, and change their seats."""

    def create_table(self, table_id: str, code: str, invite_hash: str, game: str, options: dict[str, Any],
                     level: str, host: str, seats: Seats, clock: int | None, watch_hash: str | None = None,
                     quick_until: float | None = None, hints: bool = False) -> TableRow:
        """Store a new table (``IntegrityError`` if its code, invite or watch link is taken)."""
        now = time.time()
        with self._writing() as db:
            db.execute(insert(tables).values(id=table_id, code=code, invite_hash=invite_hash, game=game,
                                             options=options_text(options), level=level, host=host,
                                             seats=seats_text(seats), clock=clock, touched_at=now,
                                             watch_hash=watch_hash, quick_until=quick_until, hints=hints))
        return TableRow(table_id, code, game, options, level, host, seats, clock, None, now, quick_until, hints)

    def table(self, table_id: str) -> TableRow | None:
        return self._find(tables.c.id == table_id)

    def table_by_code(self, code: str) -> TableRow | None:
        return self._find(tables.c.code == code)

    def table_by_invite(self, invite_hash: str) -> TableRow | None:
        return self._find(tables.c.invite_hash == invite_hash)

    def table_by_watch(self, watch_hash: str) -> TableRow | None:
        return self._find(tables.c.watch_hash == watch_hash)

    def open_quick_tables(self, game: str, options: dict[str, Any], after: float) -> list[TableRow]:
        """The quick-match tables of ``game`` and ``options`` not started yet
        whose latest start is after ``after`` (Unix seconds), oldest first."""
        with self.engine.begin() as db:
            ids = db.execute(select(tables.c.id).where(
                tables.c.game == game, tables.c.quick_until > after, tables.c.game_id.is_(None),
                tables.c.options == options_text(options)).order_by(tables.c.quick_until).limit(8)).scalars().all()
        return [found for found in map(self.table, ids) if found is not None]

    def delete_expired_tables(self, before: float) -> int:
        """Delete the tables whose last change and whose match's last step are
        both before ``before`` (Unix seconds): their codes are free again.
        Their matches stay their people's (``game_seats`` keeps who sat where).  How many went."""
        stepped = select(games.c.id).where(games.c.updated_at < datetime.fromtimestamp(before, timezone.utc))
        with self._writing() as db:
            done = db.execute(delete(tables).where(tables.c.touched_at < before,
                                                   or_(tables.c.game_id.is_(None), tables.c.game_id.in_(stepped))))
        return done.rowcount

    def save_seats(self, table: TableRow, seats: Seats, open_seats: int | None = None) -> bool:
        """Give the table ``seats`` (and ``open_seats``, where given) if its
        seats, open seats and match are still ``table``'s (a started match's
        seats change too: its game reads them); False (nothing changed)
        otherwise."""
        values: dict[str, Any] = {"seats": seats_text(seats), "touched_at": time.time()}
        if open_seats is not None:
            values["open_seats"] = open_seats
        with self._writing() as db:
            done = db.execute(update(tables).where(*_unchanged(table)).values(**values))
            if done.rowcount == 1 and table.game_id is not None:
                keep_seats(db, table.game_id, seats)  # what the match answers to once the table is gone
        return done.rowcount == 1

    def save_hints(self, table: TableRow, hints: bool) -> bool:
        """Offer the hint at the table or not, if its match has not started
        (and its seats are still ``table``'s); False (nothing changed) otherwise."""
        with self._writing() as db:
            done = db.execute(update(tables).where(*_unchanged(table), tables.c.game_id.is_(None))
                              .values(hints=hints, touched_at=time.time()))
        return done.rowcount == 1

    def _find(self, where: Any) -> TableRow | None:
        with self.engine.begin() as db:
            found = db.execute(FIND_TABLE.where(where)).first()
        if found is None:
            return None
        (table_id, code, game, options, level, host, seats, clock, game_id, touched_at, stepped, quick, hints,
         open_seats) = found
        last = max(touched_at, _unix(stepped)) if stepped is not None else touched_at
        return TableRow(table_id, code, game, orjson.loads(options), level, host, seats_of(seats) or (), clock,
                        game_id, last, quick, bool(hints), open_seats)


def _unchanged(table: TableRow) -> tuple[Any, ...]:
    """The conditions of a write that holds only while the table is as
    ``table`` read it: its match, its seats and its open seats."""
    match = tables.c.game_id.is_(None) if table.game_id is None else tables.c.game_id == table.game_id
    return (tables.c.id == table.id, match, tables.c.seats == seats_text(table.seats),
            tables.c.open_seats == table.open_seats)


def options_text(options: dict[str, Any]) -> str:
    """Options as stored (and compared: sorted keys, one spelling for one set)."""
    return orjson.dumps(options, option=orjson.OPT_SORT_KEYS).decode()


def keep_seats(db: Connection, game_id: str, seats: Seats) -> None:
    """Keep the people of a game by seat with the game (``game_seats``): they
    outlive its table."""
    db.execute(delete(game_seats).where(game_seats.c.game_id == game_id))
    people = [{"game_id": game_id, "seat": seat, "identity": holder}
              for seat, holder in enumerate(seats) if holder is not None]
    if people:
        db.execute(insert(game_seats), people)


def seats_text(seats: Seats) -> str:
    """Seats as stored (and compared: one spelling for one list)."""
    return orjson.dumps(list(seats)).decode()


def seats_of(stored: str | None) -> Seats | None:
    """A stored ``seats`` column as a tuple (None: not a table's game)."""
    return tuple(orjson.loads(stored)) if stored is not None else None


def _unix(moment: datetime | str) -> float:
    """A stored timestamp as Unix seconds (SQLite's are UTC without a zone)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)).timestamp()


__all__ = ["Seats", "TableRow", "TableStore", "options_text", "seats_of", "seats_text"]
