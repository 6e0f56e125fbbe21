"""Statistics: each finished game summarised once for each of its people
(``game_summaries``): the owner of a game alone, every person at a table's
match (``game_seats``), each from his own seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import orjson
from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from tricktable.store.engine import Database
from tricktable.store.games import joined_record
from tricktable.store.schema import game_seats, game_summaries, games


@dataclass(frozen=True)
class Unsummarized:
    """A finished game of the owner's that has no summary yet (or one of an older format)."""

    id: str
    record: dict[str, Any]
    finished_at: float
    seat: int = 0
    """The person's seat in it."""


@dataclass(frozen=True)
class NewSummary:
    """A summary to keep: its game, when that ended, the summary's JSON."""

    game_id: str
    finished_at: float
    summary: dict[str, Any]


@dataclass(frozen=True)
class StoredSummary:
    game_id: str
    finished_at: float
    summary: dict[str, Any]


class StatsStore(Database):
    """The summaries of finished games, by owner and game."""

    def unsummarized(self, owner: str, game: str, summary_format: int, limit: int) -> list[Unsummarized]:
        """Up to ``limit`` of ``owner``'s finished ``game`` games without a
        summary of ``summary_format``, oldest first."""
        held = held_by(owner)
        summarized = and_(game_summaries.c.game_id == games.c.id, game_summaries.c.owner == owner,
                          game_summaries.c.format == summary_format)
        query = (select(games.c.id, games.c.record, games.c.actions, games.c.updated_at, held.c.seat)
                 .outerjoin(held, held.c.game_id == games.c.id)
                 .outerjoin(game_summaries, summarized)
                 .where(or_(games.c.owner == owner, held.c.game_id.is_not(None)), games.c.game == game,
                        games.c.status == "over", game_summaries.c.game_id.is_(None))
                 .order_by(games.c.updated_at).limit(limit))
        with self.engine.begin() as db:
            found = db.execute(query).all()
        return [Unsummarized(row.id, joined_record(row.record, row.actions), _seconds(row.updated_at), row.seat or 0)
                for row in found]

    def seats_held(self, who: str, game_ids: list[str]) -> dict[str, int]:
        """``who``'s seat in each of ``game_ids`` (a game he holds no seat row in: his alone, seat 0)."""
        if not game_ids:
            return {}
        with self.engine.begin() as db:
            found = dict(db.execute(select(game_seats.c.game_id, game_seats.c.seat)
                                    .where(game_seats.c.identity == who, game_seats.c.game_id.in_(game_ids))).all())
        return {game_id: found.get(game_id, 0) for game_id in game_ids}

    def add_summaries(self, owner: str, game: str, summary_format: int, found: list[NewSummary]) -> None:
        """Keep summaries of ``owner``'s ``game`` games, in one transaction
        (one of an older format is replaced; one another request stored
        meanwhile is written again with the same figures)."""
        if not found:
            return
        rows = [{"game_id": f.game_id, "owner": owner, "game": game, "finished_at": f.finished_at,
                 "format": summary_format, "summary": orjson.dumps(f.summary).decode()} for f in found]
        try:
            with self._writing() as db:
                db.execute(insert(game_summaries), rows)
        except IntegrityError:  # some were summarised before (an older format), or just now by another request
            with self._writing() as db:
                for row in rows:
                    changed = db.execute(update(game_summaries).where(game_summaries.c.game_id == row["game_id"],
                                                                      game_summaries.c.owner == owner)
                                         .values(**row)).rowcount
                    if not changed:
                        db.execute(insert(game_summaries).values(**row))

    def summaries(self, owner: str, game: str, summary_format: int) -> list[StoredSummary]:
        query = (select(game_summaries.c.game_id, game_summaries.c.finished_at, game_summaries.c.summary)
                 .where(game_summaries.c.owner == owner, game_summaries.c.game == game,
                        game_summaries.c.format == summary_format)
                 .order_by(game_summaries.c.finished_at))
        with self.engine.begin() as db:
            found = db.execute(query).all()
        return [StoredSummary(row.game_id, row.finished_at, orjson.loads(row.summary)) for row in found]


def held_by(who: str) -> Any:
    """The games ``who`` holds a seat row in, and the seat, as a subquery (``game_id``, ``seat``)."""
    return select(game_seats.c.game_id, game_seats.c.seat).where(game_seats.c.identity == who).subquery()


def _seconds(when: datetime | str | None) -> float:
    """A timestamp column as Unix seconds (SQLite gives naive UTC, or text)."""
    if when is None:
        return 0.0
    if isinstance(when, str):
        when = datetime.fromisoformat(when)
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).timestamp()


__all__ = ["held_by", "NewSummary", "StatsStore", "StoredSummary", "Unsummarized"]
