"""The game routes: the health check, the catalog, a new game, its view, the
person's action (the route beside the fast path: ``fastpath.ActionHandler``
for both), the live events and the hint."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Union

import orjson
from fastapi import BackgroundTasks, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS
from tricktable.catalog import ENTRIES, GAMES, entry
from tricktable.errors import OptionError
from tricktable.server.http.fastpath import ActionHandler
from tricktable.server.http.guards import caller, client_host, documented, identity, limit, limited
from tricktable.server.live.sse import event_stream
from tricktable.server.play.room import Room
from tricktable.server.trust.days import utc_day
from tricktable.server.trust.fairness import CLIENT_SEED_PATTERN, NONCE_PATTERN
from tricktable.server.trust.identity import COOKIE, Identity
from tricktable.server.trust.limits import OpenStreams, TooMany, address_block

SERVER_OPTIONS = {"person_seat"}
"""Options the room sets itself (the person is always seat 0), never accepted."""
HIDDEN_OPTIONS = SERVER_OPTIONS | {"first_game"}
"""Options not shown in the Rules dialog (the page sets ``first_game`` itself for
the device's very first Court Piece game: 10 seconds to call instead of 20)."""


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


@contextmanager
def new_game_allowed(request: Request, room: Room, who: str) -> Iterator[None]:
    """A new game for ``who``, counted against the rate of new games and
    refused while ``who`` has the most unfinished games allowed (a refusal
    inside is not counted: ``limited``)."""
    with limited(request, "games", who):
        cap = request.app.state.limits.open_games_per_identity
        if room.store.open_games(who) >= cap:
            raise TooMany(f"you have {cap} unfinished games; finish one before starting another", 60)
        yield


def game_routes(app: FastAPI, room: Room) -> None:
    # The game routes answer with a ``FastJSON`` of the room's plain dict:
    # FastAPI would otherwise walk every view through ``jsonable_encoder``
    # first (the views are JSON already).
    @app.get("/healthz", **documented(200))
    def healthz() -> dict[str, Any]:
        room.store.ping()
        games = list(GAMES)
        return {"ok": True, "games": games, "bots": {g: room.bot_name(g) for g in games},
                "pressure": room.scheduler.pressure()}

    @app.get("/api/games", **documented(200))
    def games() -> dict[str, Any]:
        return {"games": game_catalog(), "day": utc_day(), "levels": list(LEVELS), "default_level": DEFAULT_LEVEL}

    @app.post("/api/games", status_code=201, **documented(201, 404, 409, 429, identity=True, body=True))
    def new_game(request: Request, body: NewGame, later: BackgroundTasks,
                 who: Identity = Depends(identity)) -> dict[str, Any]:
        if SERVER_OPTIONS & set(body.options):
            raise OptionError(f"options {sorted(SERVER_OPTIONS)} are set by the room")
        check_option_types(body.game, body.options)
        with new_game_allowed(request, room, who.id):
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
        At a table: ``next`` (``{"game_id"}``) once the table plays again, and
        ``removed`` (the stream's last event) if the host gave the seat to a
        computer player.
        A reconnecting EventSource resumes from its ``Last-Event-ID``."""
        version = resumed_version(request.headers.get("last-event-id"), version)
        who = await run_in_threadpool(caller, request)
        streams: OpenStreams = request.app.state.streams
        release = streams.open(who, address_block(client_host(request)))
        try:
            seat = await run_in_threadpool(room.seat_in, game_id, who)  # the stream gets that seat's views
        except BaseException:
            release()
            raise
        subscription = room.channel.subscribe(game_id, seat)  # before catching up, so nothing falls between
        try:
            backlog = await run_in_threadpool(room.catch_up, game_id, version, who)
        except BaseException:
            subscription.close()
            release()
            raise

        async def refresh(seen: int) -> list[Any]:
            return await run_in_threadpool(room.refresh, game_id, seen, seat, who)

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


__all__ = ["FastJSON", "Strict", "game_catalog", "game_routes", "new_game_allowed"]
