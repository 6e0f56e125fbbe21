"""The HTTP API and the static web page.

Every route that touches games is a plain ``def``: FastAPI runs those in its
thread pool, so replaying records never holds the event loop.  The pool has
``REQUEST_THREADS`` threads and the database pool as many connections (plus the
background workers'), so no request waits for a connection.  The computer
players think in the room's own workers, never in a request; the event stream
(``/api/games/{id}/events``) is the one ``async`` game route, so an open stream
costs no thread.  Room errors reach the client through one table
(``http/errors.py``): routes just raise.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.concurrency import run_in_threadpool

from tricktable.server.http.body_limit import BodyLimit
from tricktable.server.http.errors import HTTP_STATUS, status_for
from tricktable.server.http.analysis_routes import analysis_routes
from tricktable.server.http.fastpath import ActionHandler, FastActions
from tricktable.server.http.daily_routes import daily_routes
from tricktable.server.http.game_routes import game_routes
from tricktable.server.http.people_routes import people_routes
from tricktable.server.http.passkey_routes import passkey_routes
from tricktable.server.http.record_routes import record_routes
from tricktable.server.http.stats_routes import stats_routes
from tricktable.server.http.replay_routes import replay_routes
from tricktable.server.http.table_routes import table_routes
from tricktable.server.http.middleware import AnswerDeadline, CompressExceptStreams, SecurityHeaders
from tricktable.server.http.static import PageFiles, PageMount
from tricktable.server.play.room import Room
from tricktable.server.play.scheduler import BotFactory, default_bot_factory
from tricktable.server.trust.identity import Identities, IdentityRefused
from tricktable.server.trust.limits import Limits, OpenStreams, RateLimiter, TooMany
from tricktable.server.trust.passkeys import PasskeyRefused, Passkeys, configured_origin
from tricktable.store import Store

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
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


def create_app(database_url: str | None = None, limits: Limits | None = None,
               bot_factory: BotFactory = default_bot_factory, think_processes: int = 0,
               origin: str | None = None) -> FastAPI:
    """The app; ``bot_factory(game, level, seed)`` seats the computer players
    (tests and ``tricktable serve`` choose; the default is ``bots/levels.py``);
    they think in ``think_processes`` worker processes (0: in the app's own
    threads, as tests with unpicklable factories need).  The connection pool
    is sized to every thread that uses the database.  ``origin``: the site
    passkeys belong to (default ``TRICKTABLE_ORIGIN``, else each request's own)."""
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
    app.state.passkeys = Passkeys(store, room.secret, origin or configured_origin())
    app.add_middleware(CompressExceptStreams)
    # The person's action, answered without FastAPI's machinery (fastpath.py);
    # inside the body limit and the security headers, outside the gzip wrapper.
    app.state.actions = ActionHandler(room, app.state.identities, app.state.limiter, app.state.limits)
    app.add_middleware(FastActions, handle=app.state.actions)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(AnswerDeadline)

    _error_handlers(app)
    for routes in (game_routes, people_routes, daily_routes, record_routes, replay_routes, analysis_routes,
                   stats_routes, passkey_routes, table_routes):
        routes(app, room)
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

    @app.exception_handler(PasskeyRefused)
    async def _passkey_refused(_request: Request, error: PasskeyRefused) -> JSONResponse:
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


__all__ = ["create_app"]
