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
from typing import Any, AsyncIterator, Callable, Union

import re
import time

import anyio.to_thread
import orjson
from fastapi import BackgroundTasks, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.routing import APIRoute
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
from tricktable.server.fastpath import ActionHandler, FastActions
from tricktable.server.guards import caller, client_host, documented, identity, limit, limited
from tricktable.server.identity import COOKIE, Identities, Identity, IdentityRefused
from tricktable.server.limits import BodyLimit, Limits, OpenStreams, RateLimiter, TooMany, address_block
from tricktable.server.room import Room, utc_day
from tricktable.server.scheduler import BotFactory, default_bot_factory
from tricktable.server.static import PageFiles, PageMount
from tricktable.server.stream import event_stream
from tricktable.server.trust import trust_routes
from tricktable.store import Store
from tricktable.store.engine import ANSWER_BY

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


ANSWER_SECONDS = 2.5
"""A request that writes is answered within this long of its arrival (503 if
the database is held): waiting for a request thread counts, so a queue of
writers behind a locked database all answer in time (the promise is 3 s)."""


class AnswerDeadline:
    """ASGI middleware: stamps each request with the time it must be answered
    by (``store.engine.ANSWER_BY``, read by every write it makes)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = ANSWER_BY.set(time.monotonic() + ANSWER_SECONDS)
        try:
            await self.app(scope, receive, send)
        finally:
            ANSWER_BY.reset(token)


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
    # The enums are documentation: an unknown game is still a 404, an unknown level a 422.
    game: StrictStr = Field(max_length=40, json_schema_extra={"enum": list(GAMES)})
    options: dict[str, OptionValue] = Field(default_factory=dict)
    level: StrictStr = Field(default=DEFAULT_LEVEL, max_length=10, json_schema_extra={"enum": list(LEVELS)})
    fairness: Fairness | None = None


class Action(Strict):
    action: StrictStr = Field(min_length=1, max_length=80)
    version: StrictInt


LAST_EVENT_ID = re.compile(r"[0-9]{1,12}")
"""A stream's ``Last-Event-ID``: the version it saw, as ASCII digits (``str.isdigit``
takes ``²`` and ``int`` then fails; Python refuses integers of over 4,300 digits)."""
MAX_VERSION = 10**12 - 1


def resumed_version(last_event_id: str | None, version: int) -> int:
    """The version a stream resumes from: a reconnecting EventSource's
    ``Last-Event-ID`` where it is one, else the query's ``version``."""
    return int(last_event_id) if last_event_id and LAST_EVENT_ID.fullmatch(last_event_id) else version


class CountedStream(StreamingResponse):
    """An event stream that gives its place back (``OpenStreams``) when it
    ends, however it ends: sent to the end, the client gone, or never started."""

    def __init__(self, content: Any, release: Callable[[], None], **kwargs: Any):
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


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
    app.state.streams = OpenStreams(app.state.limits)
    app.state.identities = Identities(store, room.secret, app.state.limiter, app.state.limits)
    app.add_middleware(CompressExceptStreams)
    # The person's action, answered without FastAPI's machinery (fastpath.py);
    # inside the body limit and the security headers, outside the gzip wrapper.
    app.state.actions = ActionHandler(room, app.state.identities, app.state.limiter, app.state.limits)
    app.add_middleware(FastActions, handle=app.state.actions)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(AnswerDeadline)

    _error_handlers(app)
    _routes(app, room)
    trust_routes(app, room)
    app.router.routes.append(PageMount("/", app=PageFiles(directory=WEB_DIR, html=True), name="web"))
    return app


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
        return JSONResponse({"detail": f"invalid request: {problems}"}, status_code=422)

    @app.exception_handler(405)
    async def _not_allowed(request: Request, error: Exception) -> JSONResponse:
        # Starlette's Allow names the methods of the first route of the path
        # only; a path may have several (GET and POST /api/games).
        path = request.url.path
        methods = sorted({method for route in app.routes if isinstance(route, APIRoute)
                          and route.path_regex.fullmatch(path) for method in route.methods or ()})
        allow = ", ".join(methods) if methods else getattr(error, "headers", {}).get("Allow", "")
        return JSONResponse({"detail": "Method Not Allowed"}, status_code=405, headers={"Allow": allow})

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
    @app.get("/healthz", **documented(200))
    def healthz() -> dict[str, Any]:
        room.store.ping()
        games = list(GAMES)
        return {"ok": True, "games": games, "bots": {g: room.bot_name(g) for g in games}}

    @app.get("/api/games", **documented(200))
    def games() -> dict[str, Any]:
        return {"games": game_catalog(), "day": utc_day(), "levels": list(LEVELS), "default_level": DEFAULT_LEVEL}

    @app.post("/api/games", status_code=201, **documented(201, 404, 409, 429, identity=True, body=True))
    def new_game(request: Request, body: NewGame, later: BackgroundTasks,
                 who: Identity = Depends(identity)) -> dict[str, Any]:
        if SERVER_OPTIONS & set(body.options):
            raise OptionError(f"options {sorted(SERVER_OPTIONS)} are set by the room")
        check_option_types(body.game, body.options)
        with limited(request, "games", who.id):
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

    @app.get("/api/games/{game_id}", **documented(200, 404, 409, identity=True))
    def get_game(request: Request, game_id: str) -> JSONResponse:
        return FastJSON(room.load(game_id, caller(request)))

    @app.post("/api/games/{game_id}/actions", **documented(200, 404, 409, 429, identity=True, body=True))
    def act(request: Request, game_id: str, body: Action, later: BackgroundTasks) -> Response:
        """Commits the person's action and answers at once (``thinking``: the
        computer player who moves next); the computer players' actions follow
        on ``/events``.  They start once the answer has been sent (a background
        task), so their thinking never delays it.  (A well-formed action is
        answered the same way by ``fastpath.FastActions`` before it gets here;
        this route answers every other body and documents the endpoint.)"""
        handle: ActionHandler = request.app.state.actions
        answer = handle(game_id, body.version, body.action, request.cookies.get(COOKIE), client_host(request))
        later.add_task(room.resume, game_id)
        return Response(answer.json, media_type="application/json")  # (the bytes its step is sent in)

    @app.get("/api/games/{game_id}/events", **documented(200, 404, 429, identity=True, resumes=True),
             response_class=StreamingResponse)
    async def events(request: Request, game_id: str, version: int = Query(ge=0, le=MAX_VERSION)) -> StreamingResponse:
        """Server-sent events: every ``step`` after ``version`` (or one
        ``state`` if that is too far back), then each step as it is committed
        and ``thinking`` when a computer player starts to think (not the
        instant ones: their step follows at once); a comment every 15 s.
        A reconnecting EventSource resumes from its ``Last-Event-ID``."""
        version = resumed_version(request.headers.get("last-event-id"), version)
        who = await run_in_threadpool(caller, request)
        streams: OpenStreams = request.app.state.streams
        release = streams.open(who, address_block(client_host(request)))
        subscription = room.channel.subscribe(game_id)  # before catching up, so nothing falls between
        try:
            backlog = await run_in_threadpool(room.catch_up, game_id, version, who)
        except BaseException:
            subscription.close()
            release()
            raise

        async def refresh(seen: int) -> list[Any]:
            return await run_in_threadpool(room.refresh, game_id, seen)

        return CountedStream(event_stream(subscription, backlog, version, refresh), release=release,
                             media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.get("/api/games/{game_id}/hint", **documented(200, 403, 404, 409, 429, identity=True))
    def get_hint(request: Request, game_id: str, version: int = Query(ge=0, le=MAX_VERSION)) -> dict[str, Any]:
        """What the hard computer player would do in the person's seat: a
        search of a quarter second, so counted per identity and address, one
        at a time per game and a few at a time per process (429 beyond)."""
        who = caller(request)
        limit(request, "hints", who)
        return room.hint(game_id, version, who)

__all__ = ["create_app", "game_catalog"]
