"""The SQLAlchemy tables and the ``Store`` that reads and writes them."""

from __future__ import annotations

import fcntl
import os
import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterator

import orjson
from sqlalchemy import (
    Boolean,
    bindparam,
    Column,
    Connection,
    Index,
    DateTime,
    Engine,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    and_,
    case,
    null,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, ProgrammingError

from tricktable.nicknames import MAX_CODE_POINTS, MAX_SKELETON

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    # The record without its actions ("actions": [] in their place), as JSON.
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("status", String(8), nullable=False),  # "open" or "over"
    Column("daily_day", String(10)),
    Column("device", String(64)),
    # When the person's timed decision (Court Piece calling) runs out, as Unix
    # seconds; the server applies the referee's timeout once it has passed.
    Column("deadline", Float),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Column("updated_at", DateTime(timezone=True), server_default=func.now()),
    # One daily attempt per identity per game per day (the column kept its old
    # name: older rows hold the page's device id); ordinary games have NULL day
    # and device, which unique constraints treat as distinct.
    UniqueConstraint("game", "daily_day", "device", name="one_daily_attempt"),
    # The identity that created the game (the cap on open games counts these).
    Column("owner", String(40)),
    # A daily attempt counts on the leaderboard (NULL: made before practice
    # existed, when every attempt counted).
    Column("ranked", Boolean),
    # Never sent to anyone: the computer players' random choices in a daily
    # attempt, and the server's half of the deal seed until it is revealed.
    Column("bot_secret", String(64)),
    Column("server_seed", String(64)),
    Column("client_seed", String(64)),
    Column("commitment", String(64)),
    # The lease on the computer players' turn (``Store.claim_turn``): the
    # server process working it and until when (Unix seconds).
    Column("lease_owner", String(40)),
    Column("lease_until", Float),
    # The record's actions, each a JSON string, joined by commas (the inside of
    # the JSON array): a commit appends its own (``actions || :added``), so it
    # sends only what it adds, never the whole record again.  The last column,
    # so the others are read without the pages a long match spills into.
    Column("actions", Text, nullable=False, server_default=""),
    Index("games_owner_status", "owner", "status"),
    Index("games_lease_until", "lease_until"),
    Index("games_commitment", "commitment", unique=True),
)

# Each step's event as the game's streams send it (the person's view only: the
# person is seat 0, and every stream of a game is that person's), stored by the
# process that commits it for streams of the game on other processes
# (``Store.frames``); kept for ``FRAMES_KEPT_SECONDS``.
frames = Table(
    "frames",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("frame", LargeBinary, nullable=False),
    Column("written_at", Float, nullable=False),
    Index("frames_written_at", "written_at"),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

nicknames = Table(
    "nicknames",
    metadata,
    Column("device", String(64), primary_key=True),
    Column("nickname", String(MAX_CODE_POINTS), nullable=False),
    # ``tricktable.nicknames.skeleton``: equal for look-alike names, so unique.
    Column("skeleton", String(MAX_SKELETON)),
    Index("nicknames_skeleton", "skeleton", unique=True),
    # ``tricktable.nicknames.case_skeleton``: equal for names that differ in case only.
    Column("case_skeleton", String(MAX_SKELETON)),
    Index("nicknames_case_skeleton", "case_skeleton", unique=True),
)

identities = Table(
    "identities",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("issued_at", Float, nullable=False),
    Column("address", String(64)),  # the /24 or /64 it was issued to
)

transfer_codes = Table(
    "transfer_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("identity", String(40), nullable=False),
    Column("expires_at", Float, nullable=False),
)

# A finished game's record shared by its owner: whoever holds the link reads
# it (``Store.shared_game``).  The token is stored hashed, like transfer codes,
# so a reader of the database cannot open the links.
shared_records = Table(
    "shared_records",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Index("shared_records_game", "game_id"),
)

scores = Table(
    "scores",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("device", String(64), primary_key=True),
    Column("score", Integer, nullable=False),
    Column("game_id", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Column("finished_at", Float),  # Unix seconds: ties go to who finished first
)


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
               "bot_secret", "server_seed", "client_seed", "commitment", "lease_until", "actions")
"""A ``GameRow``'s columns, in its fields' order (the record in two: ``record`` and ``actions``)."""
_UNLESS_KNOWN = games.c.version == bindparam("known", type_=Integer)
"""The game is still at the version whose record the reader holds (a version names one record)."""
LOAD_GAME = (select(*(case((_UNLESS_KNOWN, null()), else_=games.c[name]).label(name) if name in ("record", "actions")
                      else games.c[name] for name in ROW_COLUMNS))
             .where(games.c.id == bindparam("game_id")))
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
IDENTITY_ISSUED = select(identities.c.issued_at).where(identities.c.id == bindparam("identity_id"))
ADD_SCORE = insert(scores).values(game=bindparam("game"), day=bindparam("day"), device=bindparam("device"),
                                  score=bindparam("score"), game_id=bindparam("game_id"),
                                  finished_at=bindparam("finished_at"))


class WriterLock:
    """One writer at a time on a SQLite file: this process's threads queue on
    a lock, and the server processes sharing the file on an exclusive
    ``flock`` of a file beside it, so none of them meets SQLite's busy handler
    (which sleeps 1, 2, 5, 10 ... ms before it looks again: with two worker
    processes, the writers collided and slept).  The kernel drops the
    ``flock`` of a process that dies, even by ``kill -9``.

    Every writer waits until a deadline at most (``hold``): while something
    else holds the database (a backup, a stuck process), the queue answers
    "busy" to each writer ``BUSY_SECONDS`` after it came, instead of each
    spending its own wait only once the writers ahead of it have spent theirs."""

    def __init__(self, database: str | None):
        self._threads = threading.Lock()
        self._path = f"{database}.writer-lock" if database and database != ":memory:" else None
        self._descriptor: int | None = None

    @contextmanager
    def hold(self, deadline: float) -> Iterator[None]:
        """Hold the lock, waited for until ``deadline`` (``time.monotonic``) at
        most; ``WriteQueueTimeout`` after that."""
        if not self._threads.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise WriteQueueTimeout()
        try:
            if self._path is not None:
                self._lock_file(deadline)
            try:
                yield
            finally:
                if self._descriptor is not None:
                    fcntl.flock(self._descriptor, fcntl.LOCK_UN)
        finally:
            self._threads.release()

    def _lock_file(self, deadline: float) -> None:
        if self._descriptor is None:
            assert self._path is not None
            self._descriptor = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        pause = 0.001
        while True:
            try:
                fcntl.flock(self._descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() + pause > deadline:
                    raise WriteQueueTimeout() from None
                time.sleep(pause)  # another process writes: its commits take a millisecond or so
                pause = min(pause * 2, 0.01)

    def close(self) -> None:
        with self._threads:
            if self._descriptor is not None:
                os.close(self._descriptor)
                self._descriptor = None


class WriteQueueTimeout(OperationalError):
    """A writer waited ``BUSY_SECONDS`` for its turn: the database is held (503)."""

    def __init__(self) -> None:
        super().__init__("waiting for the database's writer lock", None, TimeoutError("the database is busy"))


class Prepared:
    """A hot statement compiled once for one database's dialect, to run on the
    driver's own cursor: SQLAlchemy's execution path (contexts, result
    objects, events) cost several times the statement itself on SQLite
    (0.6-0.9 ms against 0.05-0.2 ms per read, measured on this machine)."""

    def __init__(self, statement: Any, dialect: Any):
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.defaults = dict(compiled.params)  # literal values the statement binds itself (pg_notify's channel)
        self.order = tuple(compiled.positiontup) if compiled.positional else None

    def params(self, values: dict[str, Any]) -> Any:
        merged = {**self.defaults, **values}
        return tuple(merged[name] for name in self.order) if self.order is not None else merged


class RawTransaction:
    """One transaction on a pooled driver connection: ``run`` a ``Prepared``
    statement, read its cursor."""

    def __init__(self, cursor: Any, prepared: dict[Any, Prepared], dialect: Any):
        self.cursor = cursor
        self._prepared = prepared
        self._dialect = dialect

    def run(self, statement: Any, values: dict[str, Any]) -> Any:
        prepared = self._prepared.get(statement)  # (statements hash by identity; the key keeps it alive)
        if prepared is None:
            prepared = self._prepared[statement] = Prepared(statement, self._dialect)
        self.cursor.execute(prepared.sql, prepared.params(values))
        return self.cursor

    def run_many(self, statement: Any, rows: list[dict[str, Any]]) -> None:
        prepared = self._prepared.get(statement)
        if prepared is None:
            prepared = self._prepared[statement] = Prepared(statement, self._dialect)
        self.cursor.executemany(prepared.sql, [prepared.params(values) for values in rows])


def _busy_pragma(deadline: float) -> str:
    """SQLite's own wait for its lock, cut to what is left of the writer's
    deadline (at least 1 ms: a zero would not wait at all)."""
    return f"PRAGMA busy_timeout={max(1, int((deadline - time.monotonic()) * 1000))}"


class StaleVersion(Exception):
    """The game changed since the version the writer read."""



PROBE_BYTES = 64 * 1024
"""What ``Store.ping`` writes beside a SQLite file: more than a commit of a long match."""
BUSY_SECONDS = 2.0
"""How long a statement may wait for a lock or a connection before the request
is answered 503: well under the 3 s a client should wait for any answer."""

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

    @property
    def counts_on_leaderboard(self) -> bool:
        """A daily attempt that is ranked (rows from before practice existed
        have ``ranked`` NULL and were all ranked)."""
        return bool(self.daily_day and self.device) and self.ranked is not False


@dataclass(frozen=True)
class IdentityRow:
    id: str
    issued_at: float


def default_database_url() -> str:
    """``TRICKTABLE_DATABASE_URL`` or a SQLite file in ``./data``."""
    url = os.environ.get("TRICKTABLE_DATABASE_URL")
    if url:
        return url
    Path("data").mkdir(exist_ok=True)
    return "sqlite:///" + str(Path("data").resolve() / "tricktable.db")


def _engine(url: str, pool_size: int) -> Engine:
    pool = {"pool_size": pool_size, "max_overflow": 0, "pool_timeout": BUSY_SECONDS}
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if not url.startswith("sqlite"):
        milliseconds = int(BUSY_SECONDS * 1000)
        return create_engine(
            url, pool_pre_ping=True, future=True, **pool,
            connect_args={"connect_timeout": 2,
                          "options": f"-c lock_timeout={milliseconds} -c statement_timeout={milliseconds + 500}"},
        )
    engine = create_engine(url, connect_args={"timeout": BUSY_SECONDS, "check_same_thread": False}, **pool)

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        # WAL lets readers and one writer from several processes work at once.
        # synchronous=NORMAL in WAL mode: a commit is in the OS's file cache
        # (the WAL) before we answer, so it survives a kill -9 of any server
        # process - our promise; only a power loss or kernel crash may drop the
        # last commits (FULL would fsync each one: 3-8 ms per commit here).
        # docs/performance.md argues the trade.
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema with Alembic (the only way the
    schema changes).  Several processes may start at once on one database:
    the loser of a race finds the work done and tries again."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    for attempt in range(5):
        try:
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
            return
        except (IntegrityError, OperationalError, ProgrammingError):
            if attempt == 4:
                raise
            time.sleep(0.2 * (attempt + 1))


class Store:
    """All database access of the server (thread-safe: one engine, short
    transactions).  ``pool_size`` should be the number of threads that use it
    at once, so no request waits for a connection another thread could give
    back."""

    def __init__(self, url: str | None = None, pool_size: int = 8):
        self.url = url or default_database_url()
        self.engine = _engine(self.url, pool_size)
        # SQLite takes one writer at a time; a second one waits in SQLite's
        # busy handler, which sleeps 1, 2, 5, 10 ... ms before it looks again.
        # Our writers queue on a lock instead and go the moment it is free.
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._write_lock = WriterLock(self.engine.url.database) if self._sqlite else None
        self.writer = secrets.token_hex(6)
        # game -> (version, lease_until) as this store last wrote them: the
        # change feed need not wake this process's streams for its own writes.
        self._written: OrderedDict[str, tuple[int, object]] = OrderedDict()
        self._written_lock = threading.Lock()
        self._prepared: dict[Any, Prepared] = {}  # a statement -> its compiled form for this database
        self._frames_pruned = 0.0  # (monotonic) when this store last deleted old frames
        migrate(self.engine)

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction, answered "busy" (``OperationalError``) within
        ``BUSY_SECONDS`` of its start while the database is held."""
        deadline = time.monotonic() + BUSY_SECONDS
        with self._write_turn(deadline), self.engine.begin() as db:
            if self._sqlite:
                db.exec_driver_sql(_busy_pragma(deadline))
            yield db

    def _write_turn(self, deadline: float) -> ContextManager[None]:
        return self._write_lock.hold(deadline) if self._write_lock is not None else nullcontext()

    @contextmanager
    def _raw(self, write: bool = False) -> Iterator[RawTransaction]:
        """A transaction of ``Prepared`` statements on a pooled driver
        connection (the request path's reads and writes); the driver's errors
        come out as SQLAlchemy's (``OperationalError``: the app's 503)."""
        # The connection is taken from the pool (and given back) outside the
        # writer lock: every process's writers queue on that lock, so it is
        # held for the statements and the commit alone.
        deadline = time.monotonic() + BUSY_SECONDS
        connection = self.engine.raw_connection()
        try:
            with self._write_turn(deadline) if write else nullcontext():
                try:
                    cursor = connection.cursor()
                    if write and self._sqlite:
                        cursor.execute(_busy_pragma(deadline))
                    transaction = RawTransaction(cursor, self._prepared, self.engine.dialect)
                    yield transaction
                    connection.commit()
                except self.engine.dialect.loaded_dbapi.Error as error:
                    connection.rollback()
                    raise DBAPIError.instance(None, None, error, self.engine.dialect.loaded_dbapi.Error) from error
                except BaseException:
                    connection.rollback()
                    raise
        finally:
            connection.close()

    def close(self) -> None:
        self.engine.dispose()
        if self._write_lock is not None:
            self._write_lock.close()

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

    def ping(self) -> None:
        """Raise SQLAlchemy's ``OperationalError`` (or the pool's ``TimeoutError``)
        unless the database would take a write now: a no-op update under the
        usual lock timeout, rolled back (a database that still reads but
        cannot write cannot serve a game either); and on SQLite a fresh
        ``PROBE_BYTES`` written and synced beside the file, since the update
        needs no new page and passes on a full disk where every commit
        that grows the file fails."""
        with self.engine.connect() as db:
            db.execute(update(meta).where(meta.c.key == "daily_secret").values(value=meta.c.value))
            db.rollback()
        database = self.engine.url.database
        if self._sqlite and database and database != ":memory:":
            probe = f"{database}.health-probe-{os.getpid()}"
            try:
                descriptor = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    os.write(descriptor, b"\0" * PROBE_BYTES)
                    os.fsync(descriptor)
                finally:
                    os.close(descriptor)
                    os.unlink(probe)
            except OSError as error:
                raise OperationalError("writing beside the database", None, error) from error

    # -- the server secret ---------------------------------------------------
    def secret(self) -> str:
        """The HMAC key for daily deals, created on first use and kept forever."""
        with self.engine.begin() as db:
            found = db.execute(select(meta.c.value).where(meta.c.key == "daily_secret")).scalar()
        if found:
            return found
        try:
            with self.engine.begin() as db:
                db.execute(insert(meta).values(key="daily_secret", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process created it first; use theirs
        with self.engine.begin() as db:
            return db.execute(select(meta.c.value).where(meta.c.key == "daily_secret")).scalar_one()

    # -- games -----------------------------------------------------------------
    def create_game(
        self, record: dict[str, Any], status: str, daily_day: str | None = None, device: str | None = None,
        deadline: float | None = None, **secrets_and_owner: Any,
    ) -> GameRow:
        """Insert a new game at version 1; ``IntegrityError`` if the identity
        already has that day's daily game or the commitment was used before.
        ``secrets_and_owner``: the ``GameRow`` fields ``owner``, ``ranked``,
        ``bot_secret``, ``server_seed``, ``client_seed``, ``commitment``."""
        row = GameRow(secrets.token_urlsafe(18), record["game"], record, 1, status, daily_day, device, deadline,
                      **secrets_and_owner)
        with self._writing() as db:
            db.execute(
                insert(games).values(
                    id=row.id, game=row.game, record=_head(record), actions=_inside(record["actions"]), version=1,
                    status=status,
                    daily_day=daily_day, device=device, deadline=deadline, **secrets_and_owner,
                )
            )
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
        columns = dict(zip(ROW_COLUMNS, found))
        return _row(columns, known.record if columns["record"] is None and known is not None else None)

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

    # -- the computer players' turn: a lease ----------------------------------------
    def claim_turn(self, game_id: str, version: int, owner: str, seconds: float) -> bool:
        """Take (or extend) the lease on the game's computer-player turn at
        ``version`` for ``seconds``: True if ``owner`` holds it now.  Refused
        while another live process holds it, or if the game is past ``version``."""
        now = time.time()
        values = {"game_id": game_id, "expected": version, "now": now, "holder": owner, "claimant": owner,
                  "until": now + seconds}
        with self._noted_writing(game_id) as (db, note):
            taken = db.run(CLAIM_TURN, values).rowcount == 1
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
        """Tell listening processes (``tricktable.server.feed``) that a game
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

    # -- identities ------------------------------------------------------------
    def add_identity(self, identity: str, address: str) -> IdentityRow:
        row = IdentityRow(identity, time.time())
        with self._writing() as db:
            db.execute(insert(identities).values(id=identity, issued_at=row.issued_at, address=address))
        return row

    def identity(self, identity: str) -> IdentityRow | None:
        with self._raw() as db:
            found = db.run(IDENTITY_ISSUED, {"identity_id": identity}).fetchone()
        return IdentityRow(identity, found[0]) if found is not None else None

    def add_transfer_code(self, code_hash: str, identity: str, expires_at: float) -> None:
        with self._writing() as db:
            db.execute(delete(transfer_codes).where(transfer_codes.c.expires_at < time.time()))
            db.execute(insert(transfer_codes).values(code_hash=code_hash, identity=identity, expires_at=expires_at))

    def take_transfer_code(self, code_hash: str) -> str | None:
        """The identity a code carries, if it is valid now; the code is used
        up either way (one time only)."""
        with self._writing() as db:
            found = db.execute(
                select(transfer_codes.c.identity, transfer_codes.c.expires_at)
                .where(transfer_codes.c.code_hash == code_hash)
            ).first()
            if found is None:
                return None
            taken = db.execute(delete(transfer_codes).where(transfer_codes.c.code_hash == code_hash)).rowcount
        return found.identity if taken == 1 and found.expires_at >= time.time() else None

    def finished_a_game_before(self, identity: str, before: datetime) -> bool:
        """Whether ``identity`` owns a game that was over before ``before``
        (its last commit, which ended it, came earlier)."""
        query = (select(games.c.id).where(games.c.owner == identity, games.c.status == "over",
                                          games.c.updated_at < before).limit(1))
        with self.engine.begin() as db:
            return db.execute(query).first() is not None

    # -- shared records --------------------------------------------------------------
    def share(self, token_hash: str, game_id: str) -> None:
        with self._writing() as db:
            db.execute(insert(shared_records).values(token_hash=token_hash, game_id=game_id))

    def shared_game(self, token_hash: str) -> str | None:
        """The id of the game a share link's token opens, if any."""
        with self.engine.begin() as db:
            return db.execute(select(shared_records.c.game_id)
                              .where(shared_records.c.token_hash == token_hash)).scalar()

    # -- nicknames and the leaderboard ---------------------------------------------
    def set_nickname(self, device: str, nickname: str, keys: tuple[str, str]) -> bool:
        """Store the nickname with its two look-alike keys
        (``nicknames.skeletons``); False if someone else's name has either."""
        skeleton, case_skeleton = keys
        try:
            with self._writing() as db:
                changed = db.execute(
                    update(nicknames).where(nicknames.c.device == device)
                    .values(nickname=nickname, skeleton=skeleton, case_skeleton=case_skeleton)
                ).rowcount
                if not changed:
                    db.execute(insert(nicknames).values(device=device, nickname=nickname, skeleton=skeleton,
                                                        case_skeleton=case_skeleton))
        except IntegrityError:
            return False
        return True

    def nickname(self, device: str) -> str | None:
        with self.engine.begin() as db:
            return db.execute(select(nicknames.c.nickname).where(nicknames.c.device == device)).scalar()

    def leaderboard(self, game: str, day: str, device: str | None, limit: int = 100) -> dict[str, Any]:
        """The day's best ``limit`` scores, ties broken by who finished first,
        and, if ``device`` has a score, its rank among everybody (the same
        order, so the two always agree)."""
        order = (scores.c.score.desc(), scores.c.created_at, func.coalesce(scores.c.finished_at, 0), scores.c.device)
        ranked = (
            select(scores.c.device, scores.c.score, nicknames.c.nickname)
            .select_from(scores.outerjoin(nicknames, nicknames.c.device == scores.c.device))
            .where(scores.c.game == game, scores.c.day == day)
            .order_by(*order)
        )
        with self.engine.begin() as db:
            top = db.execute(ranked.limit(limit)).all()
            own = None
            if device:
                own = self._own_rank(db, game, day, device)
        entries = [{"rank": index + 1, "nickname": nick or "", "score": score, "you": dev == device}
                   for index, (dev, score, nick) in enumerate(top)]
        return {"game": game, "day": day, "entries": entries, "own": own}

    @staticmethod
    def _own_rank(db: Any, game: str, day: str, device: str) -> dict[str, int] | None:
        found = db.execute(_own_rank_query(game, day, device)).first()
        return {"rank": found[1] + 1, "score": found[0]} if found else None


def saved_row(row: GameRow, record: dict[str, Any], status: str, deadline: float | None = None,
              lease: Lease | None = None, versions: int = 1) -> GameRow:
    """The row ``Store.save`` returns for these arguments once it has written them
    (a caller may shape what it will publish before the commit)."""
    leased = {} if lease is None else {"lease_until": lease[1]}
    return replace(row, record=record, version=row.version + versions, status=status, deadline=deadline, **leased)


def _own_rank_query(game: str, day: str, device: str) -> Any:
    """How many scores of the board come before ``device``'s, in the board's
    order, and its score (compared inside the database, so timestamps are
    compared as the database stores them)."""
    mine = (select(scores.c.score, scores.c.created_at, func.coalesce(scores.c.finished_at, 0).label("finished"))
            .where(scores.c.game == game, scores.c.day == day, scores.c.device == device).subquery())
    finished = func.coalesce(scores.c.finished_at, 0)
    same = and_(scores.c.score == mine.c.score, scores.c.created_at == mine.c.created_at)
    before = or_(
        scores.c.score > mine.c.score,
        and_(scores.c.score == mine.c.score, scores.c.created_at < mine.c.created_at),
        and_(same, finished < mine.c.finished),
        and_(same, finished == mine.c.finished, scores.c.device < device),
    )
    better = (select(func.count()).select_from(scores).where(scores.c.game == game, scores.c.day == day, before)
              .scalar_subquery())
    return select(mine.c.score, better)


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


def _record(head: str, actions: str) -> dict[str, Any]:
    record: dict[str, Any] = orjson.loads(head)
    record["actions"] = orjson.loads(f"[{actions}]")
    return record


def _row(found: Any, record: dict[str, Any] | None = None) -> GameRow:
    """A row of ``games`` as a ``GameRow``; ``record``: the record, where the
    caller has it (then the row's is not read)."""
    ranked = found["ranked"]
    return GameRow(
        found["id"], found["game"], record if record is not None else _record(found["record"], found["actions"]),
        found["version"], found["status"],
        found["daily_day"], found["device"], found["deadline"], found["owner"], None if ranked is None else bool(ranked),
        found["bot_secret"], found["server_seed"], found["client_seed"], found["commitment"], found["lease_until"],
    )
