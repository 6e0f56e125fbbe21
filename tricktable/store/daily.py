"""The daily game's scores and leaderboard."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, bindparam, func, insert, or_, select

from tricktable.store.engine import Database
from tricktable.store.schema import nicknames, scores

ADD_SCORE = insert(scores).values(game=bindparam("game"), day=bindparam("day"), device=bindparam("device"),
                                  score=bindparam("score"), game_id=bindparam("game_id"),
                                  finished_at=bindparam("finished_at"))


class DailyStore(Database):
    """The leaderboard (a finished daily attempt's score is written with its
    last commit: ``GameStore.save``)."""

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


__all__ = ["ADD_SCORE", "DailyStore"]
