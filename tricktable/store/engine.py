"""The database itself: the engine (SQLite with WAL, or PostgreSQL), the
migrations, one writer at a time with a deadline, the request path's
prepared statements, the health probe and the server secret."""

from __future__ import annotations

import fcntl
import os
import secrets
import threading
import time
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterator

from sqlalchemy import Connection, Engine, create_engine, event, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, ProgrammingError

from tricktable.store.schema import meta

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

PROBE_BYTES = 64 * 1024
"""What ``Store.ping`` writes beside a SQLite file: more than a commit of a long match."""
BUSY_SECONDS = 2.0
"""How long a statement may wait for a lock or a connection before the request
is answered 503: well under the 3 s a client should wait for any answer."""
FLOCK_POLL_SECONDS = 0.0001
"""How often a writer looks whether another process has let go of the file lock."""


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
        # A blocking flock cannot be given a deadline, so the lock is polled;
        # often: another process's commit takes a millisecond or so, and a
        # waiter that slept longer than that would leave the file idle (a
        # backing-off poll cost two workers a fifth of their throughput).
        # One thread per process polls (the others queue on ``_threads``).
        while True:
            try:
                fcntl.flock(self._descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() + FLOCK_POLL_SECONDS > deadline:
                    raise WriteQueueTimeout() from None
                time.sleep(FLOCK_POLL_SECONDS)

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


ANSWER_BY: ContextVar[float | None] = ContextVar("answer_by", default=None)
"""When (``time.monotonic``) the request being served must be answered: its
writes wait no longer than that (the server sets it when a request arrives,
so time spent waiting for a request thread counts too)."""


def write_deadline() -> float:
    """Until when a write may wait for its turn: ``BUSY_SECONDS`` from now, or
    the request's ``ANSWER_BY`` if that comes first."""
    own = time.monotonic() + BUSY_SECONDS
    answer_by = ANSWER_BY.get()
    return own if answer_by is None else min(own, answer_by)


BUSY_MS = int(BUSY_SECONDS * 1000)
BUSY_SLACK_MS = 50
"""A cut shorter than this is not worth two statements."""


@contextmanager
def busy_timeout_until(execute: Callable[[str], object], deadline: float) -> Iterator[None]:
    """SQLite's own wait for its lock (``busy_timeout``, ``BUSY_MS`` on every
    connection) cut to what is left of the writer's deadline, where that is
    less, for one transaction (``execute`` runs a statement on its
    connection); set back after it, since the connection goes back to the
    pool.  A writer that came straight to its turn runs no statement for it."""
    left = int((deadline - time.monotonic()) * 1000)
    if left >= BUSY_MS - BUSY_SLACK_MS:  # (a writer's own deadline is BUSY_SECONDS from its start)
        yield
        return
    execute(f"PRAGMA busy_timeout={max(1, left)}")  # (at least 1 ms: a zero would not wait at all)
    try:
        yield
    finally:
        execute(f"PRAGMA busy_timeout={BUSY_MS}")


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
        milliseconds = BUSY_MS
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
        cursor.execute(f"PRAGMA busy_timeout={BUSY_MS}")
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


class Database:
    """One database: its engine, its writers' queue and its prepared
    statements (thread-safe: one engine, short transactions).  ``pool_size``
    should be the number of threads that use it at once, so no request waits
    for a connection another thread could give back."""

    def __init__(self, url: str | None = None, pool_size: int = 8):
        self.url = url or default_database_url()
        self.engine = _engine(self.url, pool_size)
        # SQLite takes one writer at a time; a second one waits in SQLite's
        # busy handler, which sleeps 1, 2, 5, 10 ... ms before it looks again.
        # Our writers queue on a lock instead and go the moment it is free.
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._write_lock = WriterLock(self.engine.url.database) if self._sqlite else None
        self._prepared: dict[Any, Prepared] = {}  # a statement -> its compiled form for this database
        migrate(self.engine)

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction, answered "busy" (``OperationalError``) within
        ``BUSY_SECONDS`` of its start while the database is held."""
        deadline = write_deadline()
        with self._write_turn(deadline), self.engine.begin() as db:
            with busy_timeout_until(db.exec_driver_sql, deadline) if self._sqlite else nullcontext():
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
        deadline = write_deadline()
        connection = self.engine.raw_connection()
        try:
            with self._write_turn(deadline) if write else nullcontext():
                try:
                    cursor = connection.cursor()
                    with busy_timeout_until(cursor.execute, deadline) if write and self._sqlite else nullcontext():
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

    def secret(self) -> str:
        """The HMAC key for daily deals, created on first use and kept forever."""
        with self.engine.begin() as db:
            found = db.execute(select(meta.c.value).where(meta.c.key == "daily_secret")).scalar()
        if found:
            return str(found)
        try:
            with self.engine.begin() as db:
                db.execute(insert(meta).values(key="daily_secret", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process created it first; use theirs
        with self.engine.begin() as db:
            return str(db.execute(select(meta.c.value).where(meta.c.key == "daily_secret")).scalar_one())


__all__ = ["ANSWER_BY", "BUSY_SECONDS", "write_deadline", "Database", "MIGRATIONS", "Prepared", "RawTransaction", "WriteQueueTimeout", "WriterLock",
           "default_database_url", "migrate"]
