"""The SQLAlchemy tables and the ``Store`` that reads and writes them."""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    inspect,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
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
    # One daily attempt per device per game per day; ordinary games have NULL day
    # and device, which unique constraints treat as distinct.
    UniqueConstraint("game", "daily_day", "device", name="one_daily_attempt"),
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
    Column("nickname", String(64), nullable=False),
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
)


class StaleVersion(Exception):
    """The game changed since the version the writer read."""


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


def default_database_url() -> str:
    """``TRICKTABLE_DATABASE_URL`` or a SQLite file in ``./data``."""
    url = os.environ.get("TRICKTABLE_DATABASE_URL")
    if url:
        return url
    Path("data").mkdir(exist_ok=True)
    return "sqlite:///" + str(Path("data").resolve() / "tricktable.db")


def _engine(url: str) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, future=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        # WAL lets readers and one writer from several processes work at once;
        # synchronous=FULL makes every commit durable before we answer.
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    return engine


class Store:
    """All database access of the server (thread-safe: one engine, short
    transactions)."""

    def __init__(self, url: str | None = None):
        self.url = url or default_database_url()
        self.engine = _engine(self.url)
        self._create_tables()

    def _create_tables(self) -> None:
        # Several processes may start at once on a new database: a racing
        # CREATE TABLE fails in the loser, which then finds the tables there.
        for attempt in range(5):
            try:
                metadata.create_all(self.engine, checkfirst=True)
                self._add_missing_columns()
                return
            except (IntegrityError, OperationalError, ProgrammingError):
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def _add_missing_columns(self) -> None:
        """Columns added after a database was first created (``deadline``)."""
        present = {c["name"] for c in inspect(self.engine).get_columns("games")}
        if "deadline" not in present:
            with self.engine.begin() as db:
                db.execute(text("ALTER TABLE games ADD COLUMN deadline FLOAT"))

    def close(self) -> None:
        self.engine.dispose()

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
        deadline: float | None = None,
    ) -> GameRow:
        """Insert a new game at version 1; ``IntegrityError`` if the device
        already has that day's daily game."""
        row = GameRow(secrets.token_urlsafe(18), record["game"], record, 1, status, daily_day, device, deadline)
        with self.engine.begin() as db:
            db.execute(
                insert(games).values(
                    id=row.id, game=row.game, record=json.dumps(record), version=1, status=status,
                    daily_day=daily_day, device=device, deadline=deadline,
                )
            )
        return row

    def load(self, game_id: str) -> GameRow | None:
        with self.engine.begin() as db:
            found = db.execute(select(games).where(games.c.id == game_id)).mappings().first()
        return _row(found) if found else None

    def find_daily(self, game: str, day: str, device: str) -> GameRow | None:
        query = select(games).where(games.c.game == game, games.c.daily_day == day, games.c.device == device)
        with self.engine.begin() as db:
            found = db.execute(query).mappings().first()
        return _row(found) if found else None

    def save(
        self, row: GameRow, record: dict[str, Any], status: str, score: int | None = None,
        deadline: float | None = None,
    ) -> GameRow:
        """Write ``record`` if the game is still at ``row.version``; the daily
        score (if any) commits in the same transaction.  ``StaleVersion`` if
        someone else wrote first."""
        with self.engine.begin() as db:
            result = db.execute(
                update(games)
                .where(games.c.id == row.id, games.c.version == row.version)
                .values(record=json.dumps(record), version=row.version + 1, status=status, deadline=deadline,
                        updated_at=func.now())
            )
            if result.rowcount != 1:
                raise StaleVersion(f"game {row.id} is no longer at version {row.version}")
            if score is not None and row.daily_day and row.device:
                db.execute(
                    insert(scores).values(
                        game=row.game, day=row.daily_day, device=row.device, score=score, game_id=row.id
                    )
                )
        return GameRow(row.id, row.game, record, row.version + 1, status, row.daily_day, row.device, deadline)

    # -- nicknames and the leaderboard ---------------------------------------------
    def set_nickname(self, device: str, nickname: str) -> None:
        with self.engine.begin() as db:
            changed = db.execute(
                update(nicknames).where(nicknames.c.device == device).values(nickname=nickname)
            ).rowcount
            if not changed:
                db.execute(insert(nicknames).values(device=device, nickname=nickname))

    def nickname(self, device: str) -> str | None:
        with self.engine.begin() as db:
            return db.execute(select(nicknames.c.nickname).where(nicknames.c.device == device)).scalar()

    def leaderboard(self, game: str, day: str, device: str | None, limit: int = 100) -> dict[str, Any]:
        """The day's best ``limit`` scores (ties: who finished first) and, if
        ``device`` has a score, its rank among everybody."""
        ranked = (
            select(scores.c.device, scores.c.score, nicknames.c.nickname)
            .select_from(scores.outerjoin(nicknames, nicknames.c.device == scores.c.device))
            .where(scores.c.game == game, scores.c.day == day)
            .order_by(scores.c.score.desc(), scores.c.created_at, scores.c.device)
        )
        with self.engine.begin() as db:
            top = db.execute(ranked.limit(limit)).all()
            own = None
            if device:
                mine = db.execute(
                    select(scores.c.score).where(scores.c.game == game, scores.c.day == day, scores.c.device == device)
                ).scalar()
                if mine is not None:
                    better = db.execute(
                        select(func.count()).select_from(scores).where(
                            scores.c.game == game, scores.c.day == day, scores.c.score > mine
                        )
                    ).scalar_one()
                    own = {"rank": better + 1, "score": mine}
        entries: list[dict[str, Any]] = []
        for index, (dev, score, nick) in enumerate(top):
            # Competition ranking (1, 2, 2, 4) so it agrees with ``own``.
            tied = entries and entries[-1]["score"] == score
            rank = entries[-1]["rank"] if tied else index + 1
            entries.append({"rank": rank, "nickname": nick or "", "score": score, "you": dev == device})
        return {"game": game, "day": day, "entries": entries, "own": own}


def _row(found: Any) -> GameRow:
    return GameRow(
        found["id"], found["game"], json.loads(found["record"]), found["version"], found["status"],
        found["daily_day"], found["device"], found["deadline"],
    )
