"""The routes of tables of friends (``play/tables.py``): create one, join it
by its short code or invite link, seat people, start its match.  The match is
then played on the game routes, each person at his own seat.  Also: quick
reactions, a quick match with anyone (``play/quick.py``), and watching a
table by its watch link (``play/watch.py``)."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator

from fastapi import BackgroundTasks, Depends, FastAPI, Path, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import Field, StrictInt, StrictStr
from starlette.concurrency import run_in_threadpool

from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.catalog import GAMES
from tricktable.server.http.game_routes import (MAX_VERSION, SERVER_OPTIONS, CountedStream, OptionValue, Strict,
                                                 check_option_types, resumed_version)
from tricktable.server.http.guards import caller, client_host, documented, identity, limit, limited
from tricktable.errors import OptionError
from tricktable.server.live.sse import event_stream
from tricktable.server.play.errors import GameNotFound, SeatTaken
from tricktable.server.play.quick import QuickMatch
from tricktable.server.play.room import Room
from tricktable.server.play.tables import CLOCKS, REACTIONS, Tables, is_code
from tricktable.server.play.watch import MAX_WATCHERS, WATCHER, WatchLease, watched
from tricktable.server.trust.identity import Identity
from tricktable.server.trust.limits import OpenStreams, TooMany, address_block

WATCHERS_FULL_RETRY_SECONDS = 30

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


class Reaction(Strict):
    key: StrictStr = Field(max_length=20, json_schema_extra={"enum": list(REACTIONS)})
    """One of ``REACTIONS`` (anything else: 422, ``Tables.react``)."""


class QuickMatchRequest(Strict):
    game: StrictStr = Field(max_length=40, json_schema_extra={"enum": list(GAMES)})
    options: dict[str, OptionValue] = Field(default_factory=dict)


def checked_options(game: str, options: dict[str, OptionValue]) -> None:
    if SERVER_OPTIONS & set(options):
        raise OptionError(f"options {sorted(SERVER_OPTIONS)} are set by the room")
    check_option_types(game, options)


def table_routes(app: FastAPI, room: Room) -> None:
    tables = Tables(room.store, room)
    quick = app.state.quick = QuickMatch(tables)  # (tests shorten its ``wait``)

    @app.post("/api/tables", status_code=201, **documented(201, 404, 422, 429, identity=True, body=True))
    def new_table(request: Request, body: NewTable, who: Identity = Depends(identity)) -> dict[str, Any]:
        """A table for a game, its options and level, with its host (the
        caller) at seat 0: its id, short code, invite token and watch token
        (shown only now), and its seats."""
        checked_options(body.game, body.options)
        with limited(request, "tables", who.id):
            return tables.create(who.id, body.game, body.options, body.level, body.clock)

    @app.get("/api/tables/{table_id}", **documented(200, 404, identity=True))
    def get_table(request: Request, table_id: str = table_key()) -> dict[str, Any]:
        """The table as one of its people sees it (404 for anyone else)."""
        who = caller(request)
        if who is None:
            raise GameNotFound("no such table")
        return tables.describe(quick.start_if_due(tables.get(table_id, who)), who)

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


    @app.post("/api/tables/{table_id}/reactions", **documented(200, 404, 409, 422, 429, identity=True, body=True))
    def react(request: Request, body: Reaction, table_id: str = table_key()) -> dict[str, Any]:
        """A seated person's quick reaction, sent to every stream of the
        match (its seats' and watchers') as a ``reaction`` event
        ``{"seat", "key"}``; nothing is stored.  409 before the match starts."""
        who = _member(request)
        limit(request, "reactions", who)
        return tables.react(table_id, who, body.key)

    @app.post("/api/quick-match", **documented(200, 404, 409, 422, 429, identity=True, body=True))
    def quick_match(request: Request, body: QuickMatchRequest, who: Identity = Depends(identity)) -> dict[str, Any]:
        """Play with anyone: a seat at an open quick-match table of the game
        and options, or a new one.  The table as ``GET /api/tables/{id}``
        tells it; its match starts when four people sit, else 15 s after its
        first person came (``starts_in``), computer players in the free seats;
        then ``game_id`` names it."""
        checked_options(body.game, body.options)
        with limited(request, "quick_matches", who.id):
            return quick.enter(who.id, body.game, body.options)

    @app.get("/api/watch/{token}", **documented(200, 404, 429))
    def watch(request: Request, token: str = table_key()) -> dict[str, Any]:
        """The table a watch link names, as a watcher sees it: the seats
        (person or computer player), and its match's public view (what every
        seat sees alike; no hand), or ``match`` null before it starts."""
        limit(request, "watches", None)
        table = quick.start_if_due(tables.watched(token))
        return {"table": tables.watcher_view(table),
                "match": watched(room.watch_position(table.game_id)) if table.game_id else None}

    @app.get("/api/watch/{token}/events", **documented(200, 404, 409, 429, resumes=True),
             response_class=StreamingResponse)
    async def watch_events(request: Request, token: str = table_key(),
                           version: int = Query(ge=0, le=MAX_VERSION)) -> StreamingResponse:
        """Server-sent events of a watched match: a ``state`` (the public
        view), then a ``step`` per committed step as every seat sees it,
        ``thinking`` and ``reaction`` events.  At most 20 watchers a table
        (429 beyond); 409 before the match starts."""
        version = resumed_version(request.headers.get("last-event-id"), version)
        limit(request, "watches", None)
        table = await run_in_threadpool(tables.watched, token)
        if table.game_id is None:
            raise SeatTaken("the match has not started yet; look again when it has")
        game_id = table.game_id
        backlog = [await run_in_threadpool(room.watch_state, game_id)]
        streams: OpenStreams = request.app.state.streams
        release_stream = streams.open(None, address_block(client_host(request)))
        lease = WatchLease(room.store, table.id)
        if not await run_in_threadpool(lease.take, MAX_WATCHERS):
            release_stream()
            raise TooMany(f"this table has {MAX_WATCHERS} watchers already; try again later",
                          WATCHERS_FULL_RETRY_SECONDS)
        subscription = room.channel.subscribe(game_id, WATCHER)

        async def refresh(seen: int) -> list[Any]:
            return await run_in_threadpool(room.watch_refresh, game_id, seen)

        def release() -> None:
            release_stream()
            asyncio.get_running_loop().run_in_executor(None, lease.give_back)

        return CountedStream(leased(event_stream(subscription, backlog, version, refresh), lease), release=release,
                             media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def leased(stream: AsyncIterator[bytes], lease: WatchLease) -> AsyncIterator[bytes]:
    """``stream``, renewing the watcher's place as it sends (at least every keep-alive)."""
    async for chunk in stream:
        if lease.due():
            await run_in_threadpool(lease.renew)
        yield chunk


def _member(request: Request) -> str:
    who = caller(request)
    if who is None:
        raise GameNotFound("no such table")
    return who


__all__ = ["table_routes"]
