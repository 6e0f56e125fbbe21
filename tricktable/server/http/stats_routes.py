"""The route of statistics: a person's figures of one game, for that person only."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Query, Request

from tricktable.server.http.guards import documented, known_identity, limit
from tricktable.server.play.room import Room
from tricktable.server.play.stats import Statistics


def stats_routes(app: FastAPI, room: Room) -> None:
    statistics = Statistics(room.store)

    @app.get("/api/stats", **documented(200, 404, 429, identity=True))
    def stats(request: Request, game: str = Query(min_length=1, max_length=40)) -> dict[str, Any]:
        """The caller's statistics of ``game``: games and deals played, wins,
        points per deal, what the game's players count (calls, solos, kots
        ...), and the last games for a chart.  Only ever the caller's own: no
        identity, no games."""
        who = known_identity(request)
        owner = who.id if who is not None else None
        limit(request, "stats", owner)
        return statistics.of(owner, game)


__all__ = ["stats_routes"]
