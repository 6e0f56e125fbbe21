"""The HTTP API and the static web page.

Every route that touches games is a plain ``def``: FastAPI runs those in its
thread pool, so replaying records and the computer players' thinking never hold
the event loop, and other requests go on meanwhile.  The pool has
``REQUEST_THREADS`` threads and the database pool as many connections (plus the
background workers'), so no request waits for a connection.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Union

import anyio.to_thread
from fastapi import Depends, FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from tricktable.core.errors import GameError, NotYourTurn
from tricktable.games import ENTRIES, GAMES, UnknownGame, entry
from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.server.fairness import CLIENT_SEED_PATTERN, NONCE_PATTERN
from tricktable.server.guards import identity, known_identity, limit, responses
from tricktable.server.identity import Identities, Identity, IdentityRefused
from tricktable.server.limits import BodyLimit, Limits, RateLimiter, TooMany
from tricktable.server.room import HintRefused, Room, best_bot_name, utc_day
from tricktable.server.static import PageFiles
from tricktable.server.trust import trust_routes
from tricktable.store import StaleVersion, Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
REQUEST_THREADS = 16
BACKGROUND_THREADS = 4
"""Threads outside the request pool that use the database (the computer
players' workers); the connection pool has room for them too."""
RETRY_SECONDS = 2
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


class Strict(BaseModel):
    """JSON as typed: ``"1"`` is not a number, ``true`` not a version, ``1.0``
    not an option value; a mismatch is a 422 naming the field."""

    model_config = ConfigDict(strict=True)


OptionValue = Union[StrictBool, StrictInt, StrictStr]


class Fairness(Strict):
    """The client's half of the deal seed, sent after it saw the commitment."""

    nonce: StrictStr = Field(pattern=NONCE_PATTERN)
    client_seed: StrictStr = Field(pattern=CLIENT_SEED_PATTERN)


class NewGame(Strict):
    game: StrictStr = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict)
    level: StrictStr = Field(default=DEFAULT_LEVEL, max_length=10)
    fairness: Fairness | None = None


class Action(Strict):
    action: StrictStr = Field(min_length=1, max_length=80)
    version: StrictInt


def game_catalog() -> list[dict[str, Any]]:
    """The games the page can offer, with their options for the Rules dialog."""
    out = []
    for game in ENTRIES:
        spec = game.spec
        out.append(
            {
                "name": game.name,
                "title": spec.title,
                "renderer": game.renderer,
                "rules_page": game.rules_page,
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


def check_option_types(game: str, options: dict[str, Any]) -> None:
    """An option's value has the type of its choices (``true`` is not ``1``)."""
    known = {o.name: o for o in entry(game).spec.option_specs} if game in GAMES else {}
    for name, value in options.items():
        spec = known.get(name)
        if spec is not None and not any(type(value) is type(choice) for choice in spec.choices):
            raise HTTPException(422, f"option {name!r} cannot be {value!r}; allowed: {list(spec.choices)}")


def create_app(database_url: str | None = None, limits: Limits | None = None) -> FastAPI:
    store = Store(database_url, pool_size=REQUEST_THREADS + BACKGROUND_THREADS)
    room = Room(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = REQUEST_THREADS
        yield

    # No /docs: its page loads scripts from a CDN, which neither works offline
    # nor passes our Content-Security-Policy.  /openapi.json is served.
    app = FastAPI(title="tricktable", version="1", description="A free web card room: the referee's API.",
                  docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.room = room
    app.state.limits = limits or Limits.from_env()
    app.state.limiter = RateLimiter()
    app.state.identities = Identities(store, room.secret, app.state.limiter, app.state.limits)
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # the page is ~80 KB, ~28 KB compressed
    app.add_middleware(BodyLimit)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Any:
        response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    _error_handlers(app)
    _routes(app, room)
    trust_routes(app, room)
    app.mount("/", PageFiles(directory=WEB_DIR, html=True), name="web")
    return app


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
        return JSONResponse({"detail": f"invalid request: {problems}"}, status_code=422)

    @app.exception_handler(TooMany)
    async def _too_many(_request: Request, error: TooMany) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=429, headers={"Retry-After": str(error.retry_after)})

    @app.exception_handler(IdentityRefused)
    async def _refused(_request: Request, error: IdentityRefused) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=error.status)

    async def _busy(_request: Request, _error: Exception) -> JSONResponse:
        # A locked, overloaded or unreachable database: say so quickly instead
        # of a bare 500 after a long wait; nothing was committed.
        return JSONResponse({"detail": "the database is busy; try again in a moment"}, status_code=503,
                            headers={"Retry-After": str(RETRY_SECONDS)})

    app.add_exception_handler(OperationalError, _busy)
    app.add_exception_handler(PoolTimeout, _busy)


def _routes(app: FastAPI, room: Room) -> None:
    @app.get("/healthz", responses=responses(200))
    def healthz() -> dict[str, Any]:
        room.store.ping()
        games = list(GAMES)
        return {"ok": True, "games": games, "bots": {g: best_bot_name(g) for g in games}}

    @app.get("/api/games", responses=responses(200))
    def games() -> dict[str, Any]:
        return {"games": game_catalog(), "day": utc_day(), "levels": list(LEVELS), "default_level": DEFAULT_LEVEL}

    @app.post("/api/games", status_code=201, responses=responses(201, 401, 403, 404, 409, 429))
    def new_game(request: Request, body: NewGame, who: Identity = Depends(identity)) -> dict[str, Any]:
        if SERVER_OPTIONS & set(body.options):
            raise HTTPException(422, f"options {sorted(SERVER_OPTIONS)} are set by the room")
        check_option_types(body.game, body.options)
        limit(request, "games", who)
        cap = request.app.state.limits.open_games_per_identity
        if room.store.open_games(who.id) >= cap:
            raise TooMany(f"you have {cap} unfinished games; finish one before starting another", 60)
        fair = {"nonce": body.fairness.nonce, "client_seed": body.fairness.client_seed} if body.fairness else {}
        try:
            return room.new_game(body.game, body.options, level=body.level, owner=who.id, **fair)
        except UnknownGame as error:
            raise HTTPException(404, str(error)) from None
        except GameError as error:
            raise HTTPException(422, str(error)) from None
        except IntegrityError:
            raise HTTPException(409, "that commitment was used already; ask for a new one") from None

    @app.get("/api/games/{game_id}", responses=responses(200, 404, 409))
    def get_game(game_id: str) -> dict[str, Any]:
        try:
            found = room.load(game_id)
        except StaleVersion as error:
            raise HTTPException(409, str(error)) from None
        if found is None:
            raise HTTPException(404, "no such game")
        return found

    @app.post("/api/games/{game_id}/actions", responses=responses(200, 403, 404, 409, 429))
    def act(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        limit(request, "actions", known_identity(request))
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

    @app.get("/api/games/{game_id}/hint", responses=responses(200, 403, 404, 409))
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

def _known(game: str) -> None:
    if game not in GAMES:
        raise HTTPException(404, f"unknown game {game!r}")


__all__ = ["create_app", "game_catalog"]
