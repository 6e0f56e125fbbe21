"""Finished games' analyses: one row per game and seat (the seat whose
decisions it searches: each person's own at a table) with its progress, the lease
of the server process working it (a lapsed lease is taken over by the next
request, so an analysis outlives a restart) and its attempts; its decisions
one row each (``analysis_decisions``), inserted as the search finishes each,
so storing one costs the same early or late in a long match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import orjson
from sqlalchemy import ColumnElement, Table, and_, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from tricktable.store.engine import Database
from tricktable.store.schema import analyses, analysis_decisions

UNFINISHED = ("queued", "running")


@dataclass(frozen=True)
class AnalysisRow:
    game_id: str
    status: str
    """"queued", "running", "done" or "failed"."""
    done: int
    total: int
    decisions: list[dict[str, Any]]
    """In the order of their ``index`` in the record."""
    error: str | None = None
    """The last failed attempt's message (kept while it is retried)."""
    worker: str | None = None
    lease_until: float | None = None
    attempts: int = 1
    retry: bool = False
    """Failed, and asking for it again starts another attempt."""
    seat: int = 0
    """The seat whose decisions it searches."""


class AnalysisStore(Database):
    """The analyses of finished games."""

    def analysis(self, game_id: str, seat: int = 0) -> AnalysisRow | None:
        """The analysis of ``seat``'s decisions in the game, if any."""
        with self.engine.begin() as db:
            found = db.execute(select(analyses).where(_of(analyses, game_id, seat))).mappings().first()
            if found is None:
                return None
            texts = db.execute(select(analysis_decisions.c.decision).where(_of(analysis_decisions, game_id, seat))
                               .order_by(analysis_decisions.c.action_index)).scalars().all()
        return AnalysisRow(found["game_id"], found["status"], found["done"], found["total"],
                           [orjson.loads(text) for text in texts], found["error"], found["worker"],
                           found["lease_until"], found["attempts"], bool(found["retry"]), seat)

    def finished_decisions(self, seats: Sequence[tuple[str, int]]) -> dict[str, list[dict[str, Any]]]:
        """By game id, the decisions of each of ``seats`` (game id, seat) whose
        analysis is done (statistics' accuracy: each game a person's seat)."""
        if not seats:
            return {}
        wanted = or_(*(_of(analyses, game_id, seat) for game_id, seat in seats))
        with self.engine.begin() as db:
            done = db.execute(select(analyses.c.game_id, analyses.c.seat)
                              .where(wanted, analyses.c.status == "done")).all()
            if not done:
                return {}
            rows = db.execute(select(analysis_decisions.c.game_id, analysis_decisions.c.decision)
                              .where(or_(*(_of(analysis_decisions, game_id, seat) for game_id, seat in done)))
                              .order_by(analysis_decisions.c.game_id, analysis_decisions.c.action_index)).all()
        found: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id, _seat in done}
        for game_id, text in rows:
            found[game_id].append(orjson.loads(text))
        return found

    def queue_analysis(self, game_id: str, total: int, worker: str, lease_until: float, seat: int = 0) -> bool:
        """Insert a queued analysis held by ``worker``; False if the game's seat has one already."""
        try:
            with self._writing() as db:
                db.execute(insert(analyses).values(game_id=game_id, seat=seat, status="queued", done=0, total=total,
                                                   worker=worker, lease_until=lease_until, attempts=1, retry=False))
        except IntegrityError:
            return False
        return True

    def claim_analysis(self, game_id: str, worker: str, lease_until: float, now: float, seat: int = 0) -> bool:
        """Take over an unfinished analysis whose lease has lapsed (its server
        process stopped); False if it is finished or another process holds it."""
        lapsed = or_(analyses.c.lease_until.is_(None), analyses.c.lease_until < now)
        with self._writing() as db:
            taken = db.execute(update(analyses)
                               .where(and_(_of(analyses, game_id, seat), analyses.c.status.in_(UNFINISHED), lapsed))
                               .values(status="queued", worker=worker, lease_until=lease_until,
                                       updated_at=func.now()))
        return bool(taken.rowcount)

    def retry_analysis(self, game_id: str, worker: str, lease_until: float, seat: int = 0) -> bool:
        """Queue a failed analysis that may be retried as ``worker``'s next
        attempt (its decisions and last error kept); False if it is not one
        (another request retried it first, or it failed for good)."""
        with self._writing() as db:
            taken = db.execute(update(analyses)
                               .where(_of(analyses, game_id, seat), analyses.c.status == "failed",
                                      analyses.c.retry)
                               .values(status="queued", worker=worker, lease_until=lease_until, retry=False,
                                       attempts=analyses.c.attempts + 1, updated_at=func.now()))
        return bool(taken.rowcount)

    def renew_analysis(self, game_id: str, worker: str, lease_until: float | None, seat: int = 0) -> bool:
        """Renew (or, with None, give back) ``worker``'s lease; False if another
        process took the analysis over meanwhile."""
        with self._writing() as db:
            renewed = db.execute(update(analyses).where(_of(analyses, game_id, seat), analyses.c.worker == worker)
                                 .values(lease_until=lease_until, updated_at=func.now()))
        return bool(renewed.rowcount)

    def save_analysis(self, game_id: str, worker: str, status: str, decisions: Iterable[dict[str, Any]],
                      lease_until: float | None, error: str | None = None, retry: bool = False,
                      seat: int = 0) -> bool:
        """Write ``worker``'s progress: its status, lease and the ``decisions``
        it adds (one already stored, by its ``index``, is kept as it is); with
        ``error``, the attempt's failure and whether a request may ``retry`` it.
        False, writing nothing, if another process took the analysis over
        meanwhile (this one should stop)."""
        with self._writing() as db:
            new = self._not_stored(db, game_id, seat, decisions)
            failure = {"error": error, "retry": retry} if error is not None else {}
            written = db.execute(update(analyses)
                                 .where(_of(analyses, game_id, seat), analyses.c.worker == worker)
                                 .values(status=status, done=analyses.c.done + len(new), lease_until=lease_until,
                                         updated_at=func.now(), **failure))
            if not written.rowcount:
                return False
            if new:
                db.execute(insert(analysis_decisions), [
                    {"game_id": game_id, "seat": seat, "action_index": d["index"], "decision": orjson.dumps(d).decode()}
                    for d in new])
        return True

    @staticmethod
    def _not_stored(db: Connection, game_id: str, seat: int,
                    decisions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """``decisions`` whose index the analysis has not stored yet (each once)."""
        by_index = {d["index"]: d for d in decisions}
        if not by_index:
            return []
        stored = set(db.execute(select(analysis_decisions.c.action_index)
                            .where(_of(analysis_decisions, game_id, seat),
                                   analysis_decisions.c.action_index.in_(list(by_index)))).scalars())
        return [d for index, d in by_index.items() if index not in stored]


def _of(table: Table, game_id: str, seat: int) -> ColumnElement[bool]:
    """The rows of one game's seat's analysis in ``table``."""
    return and_(table.c.game_id == game_id, table.c.seat == seat)


__all__ = ["AnalysisRow", "AnalysisStore", "UNFINISHED"]
