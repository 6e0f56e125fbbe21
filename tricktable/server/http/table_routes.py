"""The routes of tables of friends (``play/tables.py``): create one, join it
by its short code or invite link, seat people, start its match.  The match is
then played on the game routes, each person at his own seat."""

from __future__ import annotations

from typing import Any

from fastapi import BackgroundTasks, Depends, FastAPI, Path, Request
from pydantic import Field, StrictInt, StrictStr

from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.catalog import GAMES
from tricktable.server.http.game_routes import SERVER_OPTIONS, OptionValue, Strict, check_option_types
from tricktable.server.http.guards import caller, documented, identity, limit, limited
from tricktable.errors import OptionError
from tricktable.server.play.errors import GameNotFound
from tricktable.server.play.room import Room
from tricktable.server.play.tables import CLOCKS, Tables, is_code
from tricktable.server.trust.identity import Identity

def table_key() -> Any:
    """A path parameter naming a table: its id, short code or invite token
    (URL-safe characters; a new one per route: FastAPI binds it to its name)."""
    return Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


class NewTable(Strict):
    game: StrictStr = Field(max_length=40, json_schema_extra={"enum": list(GAMES)})
    options: dict[str, OptionValue] = Field(default_factory=dict)
    level: StrictStr = Field(default=DEFAULT_LEVEL, max_length=10, json_schema_extra={"enum": list(LEVELS)})
    clock: StrictInt | None = Field(default=None, json_schema_extra={"enum": [*CLOCKS, None]})
    """Seconds a decision (0: none; default: 30 once more than one person sits)."""


class Join(Strict):
    seat: StrictInt | None = None


class Move(Strict):
    seat: StrictInt
    to: StrictInt


class Seat(Strict):
    seat: StrictInt


def table_routes(app: FastAPI, room: Room) -> None:
    tables = Tables(room.store, room)

    @app.post("/api/tables", status_code=201, **documented(201, 404, 422, 429, identity=True, body=True))
    def new_table(request: Request, body: NewTable, who: Identity = Depends(identity)) -> dict[str, Any]:
        """A table for a game, its options and level, with its host (the
        caller) at seat 0: its id, short code and invite token (shown only
        now), and its seats."""
        if SERVER_OPTIONS & set(body.options):
            raise OptionError(f"options {sorted(SERVER_OPTIONS)} are set by the room")
        check_option_types(body.game, body.options)
        with limited(request, "tables", who.id):
            return tables.create(who.id, body.game, body.options, body.level, body.clock)

    @app.get("/api/tables/{table_id}", **documented(200, 404, identity=True))
    def get_table(request: Request, table_id: str = table_key()) -> dict[str, Any]:
        """The table as one of its people sees it (404 for anyone else)."""
        who = caller(request)
        if who is None:
            raise GameNotFound("no such table")
        return tables.describe(tables.get(table_id, who), who)

    @app.post("/api/tables/{code}/join", **documented(200, 404, 409, 422, 429, identity=True, body=True))
    def join(request: Request, body: Join, code: str = table_key(), who: Identity = Depends(identity)) -> dict[str, Any]:
        """Take a free seat (the first, or ``seat``) at the table a short code
        or an invite token names.  Codes are counted against guessing (429
        beyond the limit); an unknown one is a 404."""
        if is_code(code):
            limit(request, "table_codes", who.id)
        return tables.join(tables.find(code), who.id, body.seat)

    @app.post("/api/tables/{table_id}/seats", **documented(200, 403, 404, 409, 422, identity=True, body=True))
    def move(request: Request, body: Move, table_id: str = table_key()) -> dict[str, Any]:
        """The host moves the person at ``seat`` to ``to`` (swapping seats)."""
        return tables.move(table_id, _member(request), body.seat, body.to)

    @app.post("/api/tables/{table_id}/computer", **documented(200, 403, 404, 409, 422, identity=True, body=True))
    def to_computer(request: Request, body: Seat, table_id: str = table_key()) -> dict[str, Any]:
        """The host gives ``seat`` to a computer player."""
        return tables.to_computer(table_id, _member(request), body.seat)

    @app.post("/api/tables/{table_id}/start", status_code=201, **documented(201, 403, 404, 409, identity=True))
    def start(request: Request, later: BackgroundTasks, table_id: str = table_key()) -> dict[str, Any]:
        """The host starts the match: the game as the host sees it (every
        person then reads it at ``/api/games/{id}``, from his own seat)."""
        started = tables.start(table_id, _member(request))
        later.add_task(room.resume, started["id"])  # the computer players' opening moves
        return started


def _member(request: Request) -> str:
    who = caller(request)
    if who is None:
        raise GameNotFound("no such table")
    return who


__all__ = ["table_routes"]
