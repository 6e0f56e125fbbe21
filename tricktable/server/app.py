"""The HTTP API and the static web page.

Every route that touches games is a plain ``def``: FastAPI runs those in its
thread pool, so replaying records and the computer players' thinking never hold
the event loop, and other requests go on meanwhile.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from tricktable.core.errors import GameError, NotYourTurn
from tricktable.games import UnknownGame, get_spec
from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.server.room import HintRefused, Room, best_bot_name, playable_games, utc_day
from tricktable.store import StaleVersion, Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEVICE_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"
NICKNAME_MAX = 20
SERVER_OPTIONS = {"person_seat"}
"""Options the room sets itself (the person is always seat 0), never accepted."""
HIDDEN_OPTIONS = SERVER_OPTIONS | {"first_game"}
"""Options not shown in the Rules dialog (the page sets ``first_game`` itself for
the device's very first Court Piece game: 10 seconds to call instead of 20)."""

SECURITY_HEADERS = {
    # Everything the page needs comes from this server; no inline script, so an
    # injected string could not run even if escaping failed somewhere.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class NewGame(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    level: str = Field(default=DEFAULT_LEVEL, max_length=10)


class Action(BaseModel):
    action: str = Field(min_length=1, max_length=80)
    version: int


class Device(BaseModel):
    device: str = Field(pattern=DEVICE_PATTERN)


class Nickname(BaseModel):
    device: str = Field(pattern=DEVICE_PATTERN)
    nickname: str = Field(max_length=200)


def clean_nickname(text: str) -> str:
    """Letters, marks (Hindi and Thai need them), digits, space, ``_ - .``;
    1..20 characters after trimming.  ``ValueError`` otherwise."""
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    if not 1 <= len(text) <= NICKNAME_MAX:
        raise ValueError(f"a nickname has 1 to {NICKNAME_MAX} characters")
    for char in text:
        if not (unicodedata.category(char)[0] in "LMN" or char in " _-."):
            raise ValueError(f"a nickname cannot contain {char!r}")
    return text


def game_catalog() -> list[dict[str, Any]]:
    """The games the page can offer, with their options for the Rules dialog."""
    out = []
    for name in playable_games():
        spec = get_spec(name)
        out.append(
            {
                "name": name,
                "title": spec.title,
                "options": [
                    {"name": o.name, "default": o.default, "choices": list(o.choices), "description": o.description}
                    for o in spec.option_specs
                    if o.name not in HIDDEN_OPTIONS
                ],
                "presets": {k: dict(v) for k, v in spec.presets.items()},
                "first_game_option": any(o.name == "first_game" for o in spec.option_specs),
            }
        )
    return out


def create_app(database_url: str | None = None) -> FastAPI:
    store = Store(database_url)
    room = Room(store)
    app = FastAPI(title="tricktable", version="1", description="A free web card room: the referee's API.")
    app.state.room = room
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # the page is ~80 KB, ~28 KB compressed

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Any:
        response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
        return JSONResponse({"detail": f"bad request: {problems}"}, status_code=400)

    _routes(app, room)
    app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app


def _routes(app: FastAPI, room: Room) -> None:
    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        games = playable_games()
        return {"ok": True, "games": games, "bots": {g: best_bot_name(g) for g in games}}

    @app.get("/api/games")
    def games() -> dict[str, Any]:
        return {"games": game_catalog(), "day": utc_day(), "levels": list(LEVELS), "default_level": DEFAULT_LEVEL}

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame) -> dict[str, Any]:
        if SERVER_OPTIONS & set(body.options):
            raise HTTPException(422, f"options {sorted(SERVER_OPTIONS)} are set by the room")
        try:
            return room.new_game(body.game, body.options, level=body.level)
        except UnknownGame as error:
            raise HTTPException(404, str(error)) from None
        except GameError as error:
            raise HTTPException(422, str(error)) from None

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict[str, Any]:
        try:
            found = room.load(game_id)
        except StaleVersion as error:
            raise HTTPException(409, str(error)) from None
        if found is None:
            raise HTTPException(404, "no such game")
        return found

    @app.post("/api/games/{game_id}/actions")
    def act(game_id: str, body: Action) -> dict[str, Any]:
        try:
            found = room.act(game_id, body.version, body.action)
        except StaleVersion as error:
            raise HTTPException(409, str(error)) from None
        except NotYourTurn as error:
            raise HTTPException(409, str(error)) from None
        except GameError as error:
            raise HTTPException(422, str(error)) from None
        if found is None:
            raise HTTPException(404, "no such game")
        return found

    @app.get("/api/games/{game_id}/hint")
    def get_hint(game_id: str, version: int) -> dict[str, Any]:
        try:
            found = room.hint(game_id, version)
        except HintRefused as error:
            raise HTTPException(403, str(error)) from None
        except (StaleVersion, NotYourTurn) as error:
            raise HTTPException(409, str(error)) from None
        if found is None:
            raise HTTPException(404, "no such game")
        return found

    @app.post("/api/daily/{game}")
    def daily(game: str, body: Device) -> dict[str, Any]:
        _known(game)
        return room.daily_game(game, body.device)

    @app.get("/api/daily/{game}/leaderboard")
    def leaderboard(
        game: str,
        device: str | None = Query(None, pattern=DEVICE_PATTERN),
        day: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
    ) -> dict[str, Any]:
        _known(game)
        return room.store.leaderboard(game, day or utc_day(), device)

    @app.put("/api/nickname")
    def set_nickname(body: Nickname) -> dict[str, Any]:
        try:
            nickname = clean_nickname(body.nickname)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        room.store.set_nickname(body.device, nickname)
        return {"device": body.device, "nickname": nickname}

    @app.get("/api/nickname")
    def get_nickname(device: str = Query(pattern=DEVICE_PATTERN)) -> dict[str, Any]:
        return {"device": device, "nickname": room.store.nickname(device)}


def _known(game: str) -> None:
    if game not in playable_games():
        raise HTTPException(404, f"unknown game {game!r}")


__all__ = ["create_app", "clean_nickname", "game_catalog"]
