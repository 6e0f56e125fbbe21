"""The routes of the daily deal: an identity's attempt, and the day's leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request

from tricktable.catalog import GAMES
from tricktable.server.http.guards import documented, identity, known_identity, limited
from tricktable.server.http.people_routes import identities_of
from tricktable.server.play.room import Room
from tricktable.server.trust.days import utc_day
from tricktable.server.trust.identity import Identity

GAME_IN_PATH = Path(max_length=40, json_schema_extra={"enum": list(GAMES)})
"""A game's name in a path: documented as one of the games (an unknown one is a 404)."""


def daily_routes(app: FastAPI, room: Room) -> None:
    @app.post("/api/daily/{game}", **documented(200, 404, 429, identity=True))
    def daily(request: Request, game: str = GAME_IN_PATH, who: Identity = Depends(identity)) -> dict[str, Any]:
        """The identity's attempt at today's daily deal (made on the first
        call, resumed after).  Ranked only for an identity issued before the
        day began that finished a game before it; else practice, dealt the
        previous day's daily deals (``daily.deals_day``; ``practice_reason``)."""
        _known(game)
        with limited(request, "daily", who.id):
            reason = identities_of(app).practice_reason(who, utc_day())
            attempt = room.daily_game(game, who.id, may_rank=reason is None)
        room.resume(attempt["id"])  # a new attempt's opening moves (live: the bots move in the background)
        if attempt["daily"] is not None and not attempt["daily"]["ranked"]:
            attempt["daily"]["practice_reason"] = reason or "made_practice_earlier"
        return attempt

    @app.get("/api/daily/{game}/leaderboard", **documented(200, 404, identity=True))
    def leaderboard(
        request: Request, game: str = GAME_IN_PATH, day: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
    ) -> dict[str, Any]:
        _known(game)
        who = known_identity(request)
        return room.store.leaderboard(game, day or utc_day(), who.id if who else None)


def _known(game: str) -> None:
    if game not in GAMES:
        raise HTTPException(404, f"unknown game {game!r}")


__all__ = ["daily_routes"]
