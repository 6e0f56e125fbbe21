"""The routes of learning from finished games: a game's analysis (started by
its owner, read by its owner or a share link's holder) and playing on from a
point of a finished game or of a pasted record (``docs/analysis.md``)."""

from __future__ import annotations

from typing import Any

from fastapi import BackgroundTasks, Depends, FastAPI, Path, Request
from pydantic import Field, StrictInt

from tricktable.server.http.game_routes import Strict, new_game_allowed
from tricktable.server.http.guards import caller, documented, identity, limited
from tricktable.server.http.record_routes import shared_game
from tricktable.server.play.room import Room
from tricktable.server.trust.identity import Identity

MAX_AT = 10_000
"""More actions than any match here has (a Doppelkopf match: 8 deals of about 60)."""


class PlayOn(Strict):
    at: StrictInt = Field(ge=0, le=MAX_AT, description="How many of the record's actions are kept.")


class PlayOnRecord(PlayOn):
    record: dict[str, Any] = Field(description="A match record, as GET /api/games/{id}/record gives it.")


def analysis_routes(app: FastAPI, room: Room) -> None:
    @app.post("/api/games/{game_id}/analysis", status_code=202, **documented(202, 403, 404, 409, 429, identity=True))
    def start_analysis(request: Request, game_id: str) -> dict[str, Any]:
        """Start the analysis of the caller's finished game (once: asked again,
        it answers the progress, and retries one that failed and may be
        retried, ``"retry": true``); it runs in the background."""
        who = caller(request)
        with limited(request, "analyses", who):
            return room.request_analysis(game_id, who)

    @app.get("/api/games/{game_id}/analysis", **documented(200, 403, 404, 409, identity=True))
    def get_analysis(request: Request, game_id: str) -> dict[str, Any]:
        """The analysis of the caller's finished game as far as it has got
        (``status`` "none" before it was asked for)."""
        return room.analysis(game_id, caller(request))

    @app.get("/api/shared/{token}/analysis", **documented(200, 403, 404))
    def get_shared_analysis(token: str = Path(min_length=1, max_length=64)) -> dict[str, Any]:
        """The analysis of a shared game, read only: a link never starts one."""
        row, seat = shared_game(room, token)
        return room.shared_analysis(row.id, seat)

    @app.post("/api/games/{game_id}/play-on", status_code=201,
              **documented(201, 403, 404, 409, 429, identity=True, body=True))
    def play_on_game(request: Request, game_id: str, body: PlayOn, later: BackgroundTasks,
                     who: Identity = Depends(identity)) -> dict[str, Any]:
        """A new practice game from the first ``at`` actions of the caller's
        finished game: his own seat and cards (at a table's game too: the
        other seats go to computer players), the same level."""
        with new_game_allowed(request, room, who.id):
            started = room.play_on_game(game_id, body.at, who.id)
        later.add_task(room.resume, started["id"])
        return started

    @app.post("/api/records/play-on", status_code=201, **documented(201, 429, identity=True, body=True))
    def play_on_record(request: Request, body: PlayOnRecord, later: BackgroundTasks,
                       who: Identity = Depends(identity)) -> dict[str, Any]:
        """A new practice game from the first ``at`` actions of a pasted match
        record (replayed first: a record that does not replay is a 422 naming
        the bad action); the computer players at the record's ``level``, else
        the default."""
        with new_game_allowed(request, room, who.id):
            started = room.play_on(body.record, body.at, who.id, level=body.record.get("level"))
        later.add_task(room.resume, started["id"])
        return started


__all__ = ["analysis_routes"]
