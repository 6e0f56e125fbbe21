"""The HTTP API and the static web page.

Every route that touches games is a plain ``def``: FastAPI runs those in its
thread pool, so replaying records never holds the event loop.  The pool has
``REQUEST_THREADS`` threads and the database pool as many connections (plus the
background workers'), so no request waits for a connection.  The computer
players think in the room's own workers, never in a request; the event stream
(``/api/games/{id}/events``) is the one ``async`` game route, so an open stream
costs no thread.  Room errors reach the client through one table
(``errors.py``): routes just raise.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Union

import anyio.to_thread
import orjson
from fastapi import BackgroundTasks, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tricktable.errors import OptionError
from tricktable.catalog import ENTRIES, GAMES, entry
from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.server.errors import HTTP_STATUS, status_for
from tricktable.server.fairness import CLIENT_SEED_PATTERN, NONCE_PATTERN
from tricktable.server.fastpath import FastActions
from tricktable.server.guards import identity, known_identity, limit, responses
from tricktable.server.identity import Identities, Identity, IdentityRefused
from tricktable.server.limits import BodyLimit, Limits, RateLimiter, TooMany
from tricktable.server.room import Room, utc_day
from tricktable.server.scheduler import BotFactory, default_bot_factory
from tricktable.server.static import PageFiles
from tricktable.server.stream import event_stream
from tricktable.server.trust import trust_routes
from tricktable.store import Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
REQUEST_THREADS = 16
BOT_WORKERS = 2
"""Threads that work the computer players' turns (one game each at a time):
at least two, and one per thinking process, so that no more decisions run at
once than there are processes to think them (the queue serves the oldest
request first; a decision submitted beyond that would wait in the pool's own
first-come queue)."""
SERVICE_THREADS = 4
"""Other threads that use the database (the start-up scan, the lease sweeper,
the change feed, one spare); the connection pool has room for them too."""
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


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every response that has not
    set them itself (plain ASGI: Starlette's ``BaseHTTPMiddleware`` costs a
    task and a stream per request, a good part of a cheap request's time)."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.headers = [(key.lower().encode(), value.encode()) for key, value in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _value in message.get("headers", [])}
                extra = [(key, value) for key, value in self.headers if key not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


class CompressExceptStreams:
    """ASGI middleware: gzip for responses over 1 KB (the page is ~80 KB,
    ~28 KB compressed), but never for the event streams, which are not
    compressed anyway and would pay the wrapper on every event.  At zlib's
    own default level: Starlette's 9 took 280 µs for a 2 KB view where 6 takes
    50 µs, for the same size within 1 %."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1000, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].endswith("/events"):
            await self.app(scope, receive, send)
        else:
            await self.gzip(scope, receive, send)


class FastJSON(JSONResponse):
    """A JSON response written by orjson (C): the views are a good part of a
    cheap request's time when written by the standard library's encoder."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


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
                    {"name": o.name, "default": o.default, "choices": list(o.choices), "description": o.description,
                     "requires": o.requires}
                    for o in spec.option_specs
                    if o.name not in HIDDEN_OPTIONS and not o.legacy
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


def create_app(database_url: str | None = None, limits: Limits | None = None,
               bot_factory: BotFactory = default_bot_factory, think_processes: int = 0) -> FastAPI:
    """The app; ``bot_factory(game, level, seed)`` seats the computer players
    (tests and ``tricktable serve`` choose; the default is ``bots/levels.py``);
    they think in ``think_processes`` worker processes (0: in the app's own
    threads, as tests with unpicklable factories need).  The connection pool
    is sized to every thread that uses the database."""
    bot_threads = max(BOT_WORKERS, think_processes)
    store = Store(database_url, pool_size=REQUEST_THREADS + bot_threads + SERVICE_THREADS)
    room = Room(store, bot_factory=bot_factory, workers=bot_threads, think_processes=think_processes)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = REQUEST_THREADS
        room.start()  # the computer players move only while the app runs
        try:
            yield
        finally:
            await run_in_threadpool(room.stop)

    # No /docs: its page loads scripts from a CDN, which neither works offline
    # nor passes our Content-Security-Policy.  /openapi.json is served.
    app = FastAPI(title="tricktable", version="1", description="A free web card room: the referee's API.",
                  docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.room = room
    app.state.limits = limits or Limits.from_env()
    app.state.limiter = RateLimiter()
    app.state.identities = Identities(store, room.secret, app.state.limiter, app.state.limits)
    app.add_middleware(CompressExceptStreams)
    # The person's action, answered without FastAPI's machinery (fastpath.py);
    # inside the body limit and the security headers, outside the gzip wrapper.
    app.add_middleware(FastActions, room=room, identities=app.state.identities, limiter=app.state.limiter,
                       limits=app.state.limits)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)

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

    async def _room_error(_request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=status_for(error))

    for kind, _status in HTTP_STATUS:
        app.add_exception_handler(kind, _room_error)


def _routes(app: FastAPI, room: Room) -> None:
    # The game routes answer with a ``FastJSON`` of the room's plain dict:
    # FastAPI would otherwise walk every view through ``jsonable_encoder``
    # first (the views are JSON already).
    @app.get("/healthz", responses=responses(200))
    def healthz() -> dict[str, Any]:
        room.store.ping()
        games = list(GAMES)
        return {"ok": True, "games": games, "bots": {g: room.bot_name(g) for g in games}}

    @app.get("/api/games", responses=responses(200))
    def games() -> dict[str, Any]:
        return {"games": game_catalog(), "day": utc_day(), "levels": list(LEVELS), "default_level": DEFAULT_LEVEL}

    @app.post("/api/games", status_code=201, responses=responses(201, 401, 403, 404, 409, 429))
    def new_game(request: Request, body: NewGame, later: BackgroundTasks,
                 who: Identity = Depends(identity)) -> dict[str, Any]:
        if SERVER_OPTIONS & set(body.options):
            raise OptionError(f"options {sorted(SERVER_OPTIONS)} are set by the room")
        check_option_types(body.game, body.options)
        limit(request, "games", who)
        cap = request.app.state.limits.open_games_per_identity
        if room.store.open_games(who.id) >= cap:
            raise TooMany(f"you have {cap} unfinished games; finish one before starting another", 60)
        fair = {"nonce": body.fairness.nonce, "client_seed": body.fairness.client_seed} if body.fairness else {}
        try:
            started = room.new_game(body.game, body.options, level=body.level, owner=who.id, **fair)
        except IntegrityError:
            raise HTTPException(409, "that commitment was used already; ask for a new one") from None
        later.add_task(room.resume, started["id"])  # the opening moves, once the answer is sent
        return started  # (a dict: the identity dependency may set a cookie on FastAPI's response)

    @app.get("/api/games/{game_id}", responses=responses(200, 404, 409))
    def get_game(game_id: str) -> JSONResponse:
        return FastJSON(room.load(game_id))

    @app.post("/api/games/{game_id}/actions", responses=responses(200, 403, 404, 409, 429))
    def act(request: Request, game_id: str, body: Action, later: BackgroundTasks) -> JSONResponse:
        """Commits the person's action and answers at once (``thinking``: the
        computer player who moves next); the computer players' actions follow
        on ``/events``.  They start once the answer has been sent (a background
        task), so their thinking never delays it.  (A well-formed action is
        answered the same way by ``fastpath.FastActions`` before it gets here;
        this route answers every other body and documents the endpoint.)"""
        limit(request, "actions", known_identity(request))
        answer = room.act_event(game_id, body.version, body.action)
        later.add_task(room.resume, game_id)
        return Response(answer.json, media_type="application/json")  # (the bytes its step is sent in)

    @app.get("/api/games/{game_id}/events", responses=responses(200, 404),
             response_class=StreamingResponse)
    async def events(request: Request, game_id: str, version: int = Query(ge=0)) -> StreamingResponse:
        """Server-sent events: every ``step`` after ``version`` (or one
        ``state`` if that is too far back), then each step as it is committed
        and ``thinking`` when a computer player starts to think (not the
        instant ones: their step follows at once); a comment every 15 s.
        A reconnecting EventSource resumes from its ``Last-Event-ID``."""
        resume = request.headers.get("last-event-id", "")
        if resume.isdigit():
            version = int(resume)
        subscription = room.channel.subscribe(game_id)  # before catching up, so nothing falls between
        try:
            backlog = await run_in_threadpool(room.catch_up, game_id, version)
        except BaseException:
            subscription.close()
            raise

        async def refresh(seen: int) -> list[Any]:
            return await run_in_threadpool(room.refresh, game_id, seen)

        return StreamingResponse(event_stream(subscription, backlog, version, refresh), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.get("/api/games/{game_id}/hint", responses=responses(200, 403, 404, 409))
    def get_hint(game_id: str, version: int) -> dict[str, Any]:
        return room.hint(game_id, version)

__all__ = ["create_app", "game_catalog"]
