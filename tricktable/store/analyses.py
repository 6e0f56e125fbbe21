"""Finished games' analyses: one row per game, its decisions appended as the
search finishes each, and the lease of the server process working it (a
lapsed lease is taken over by the next request, so an analysis outlives a
restart)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from tricktable.store.engine import Database
from tricktable.store.schema import analyses

UNFINISHED = ("queued", "running")


@dataclass(frozen=True)
class AnalysisRow:
    game_id: str
    status: str
    """"queued", "running", "done" or "failed"."""
    done: int
    total: int
    decisions: list[dict[str, Any]]
    error: str | None = None
    worker: str | None = None
    lease_until: float | None = None


class AnalysisStore(Database):
    """The analyses of finished games."""

    def analysis(self, game_id: str) -> AnalysisRow | None:
        with self.engine.begin() as db:
            found = db.execute(select(analyses).where(analyses.c.game_id == game_id)).mappings().first()
        if found is None:
            return None
        return AnalysisRow(found["game_id"], found["status"], found["done"], found["total"],
                           orjson.loads(found["decisions"]), found["error"], found["worker"], found["lease_until"])

    def queue_analysis(self, game_id: str, total: int, worker: str, lease_until: float) -> bool:
        """Insert a queued analysis held by ``worker``; False if the game has one already."""
        try:
            with self._writing() as db:
                db.execute(insert(analyses).values(game_id=game_id, status="queued", done=0, total=total,
                                                   decisions="[]", worker=worker, lease_until=lease_until))
        except IntegrityError:
            return False
        return True

    def claim_analysis(self, game_id: str, worker: str, lease_until: float, now: float) -> bool:
        """Take over an unfinished analysis whose lease has lapsed (its server
        process stopped); False if it is finished or another process holds it."""
        lapsed = or_(analyses.c.lease_until.is_(None), analyses.c.lease_until < now)
        with self._writing() as db:
            taken = db.execute(update(analyses)
                               .where(and_(analyses.c.game_id == game_id, analyses.c.status.in_(UNFINISHED), lapsed))
                               .values(status="queued", worker=worker, lease_until=lease_until,
                                       updated_at=func.now()))
        return bool(taken.rowcount)

    def renew_analysis(self, game_id: str, worker: str, lease_until: float | None) -> bool:
        """Renew (or, with None, give back) ``worker``'s lease; False if another
        process took the analysis over meanwhile."""
        with self._writing() as db:
            renewed = db.execute(update(analyses).where(analyses.c.game_id == game_id, analyses.c.worker == worker)
                                 .values(lease_until=lease_until, updated_at=func.now()))
        return bool(renewed.rowcount)

    def save_analysis(self, game_id: str, worker: str, status: str, decisions: list[dict[str, Any]],
                      lease_until: float | None, error: str | None = None) -> bool:
        """Write ``worker``'s progress (and renew its lease); False if another
        process took the analysis over meanwhile (this one should stop)."""
        with self._writing() as db:
            written = db.execute(update(analyses)
                                 .where(analyses.c.game_id == game_id, analyses.c.worker == worker)
                                 .values(status=status, done=len(decisions), decisions=orjson.dumps(decisions).decode(),
                                         lease_until=lease_until, error=error, updated_at=func.now()))
        return bool(written.rowcount)


__all__ = ["AnalysisRow", "AnalysisStore", "UNFINISHED"]
