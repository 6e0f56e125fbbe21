"""The person's action, ``POST /api/games/{id}/actions``, answered without
FastAPI's request machinery.

It is most of a busy server's requests, and FastAPI's path around it (routing,
dependency solving, body validation, several hand-offs to the thread pool, the
gzip wrapper) cost about 0.9 ms of CPU per action on this machine, as much as
committing the action.  This ASGI middleware answers a well-formed action
itself: a JSON object of exactly ``action`` (a string of 1-80 characters) and
``version`` (an integer), handled by the same ``ActionHandler`` as the route
(who acts, the rate limits, the commit) in one hand-off to a thread; the step's
JSON bytes as the answer (gzip where the client takes it and it is over 1 KB);
the room's errors with the route's statuses and texts.  Anything else (another
body, a missing content type) goes on to the FastAPI route, whose answers
(422 texts, OpenAPI) stay the reference: the fast path only ever answers what
the route would answer.
"""

from __future__ import annotations

import gzip
import re

import anyio.to_thread
import orjson
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.requests import cookie_parser
from starlette.types import Message, Receive, Scope, Send

from tricktable.server.live.channel import Event
from tricktable.server.http.errors import HTTP_STATUS, status_for
from tricktable.server.trust.identity import COOKIE, Identities, IdentityRefused
from tricktable.server.http.body_limit import ASGIApp
from tricktable.server.trust.limits import Limits, RateLimiter, TooMany, address_block
from tricktable.server.play.room import Room

ACTION_PATH = re.compile(r"^/api/games/([^/]+)/actions$")
MAX_ACTION_CHARACTERS = 80
GZIP_MINIMUM_BYTES = 1000
GZIP_LEVEL = 6
RETRY_SECONDS = 2
ROOM_ERRORS = tuple(kind for kind, _status in HTTP_STATUS)
Answer = tuple[int, bytes, list[tuple[bytes, bytes]]]
"""(status, JSON body, extra headers)."""


class ActionHandler:
    """The person's action, however it arrived (this fast path or the
    route): who acts, the rate limits, the commit.  One code for both, so
    the two cannot disagree on who may act."""

    def __init__(self, room: Room, identities: Identities, limiter: RateLimiter, limits: Limits):
        self.room = room
        self.identities = identities
        self.limiter = limiter
        self.limits = limits

    def __call__(self, game_id: str, version: int, action: str, cookie: str | None, host: str | None) -> Event:
        """The committed step (``Room.act_event``); the room's errors,
        ``IdentityRefused`` and ``TooMany`` as raised."""
        who = self.identities.known(cookie) if cookie is not None else None
        self.limiter.count("actions", who, address_block(host), self.limits)
        return self.room.act_event(game_id, version, action, who)


class FastActions:
    def __init__(self, app: ASGIApp, handle: ActionHandler):
        self.app = app
        self.handle = handle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = ACTION_PATH.match(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        body = await _whole_body(receive)
        headers = dict(scope["headers"])
        parsed = _action(body) if headers.get(b"content-type", b"").startswith(b"application/json") else None
        if parsed is None:  # the route says what is wrong with it
            await self.app(scope, _replaying(body, receive), send)
            return
        game_id = found.group(1)
        host = scope["client"][0] if scope.get("client") else None
        cookie = cookie_parser(headers.get(b"cookie", b"").decode("latin-1")).get(COOKIE)
        status, answer, extra = await anyio.to_thread.run_sync(self._act, game_id, *parsed, cookie, host)
        await _send(send, status, answer, extra, b"gzip" in headers.get(b"accept-encoding", b""))
        if status == 200:
            self.handle.room.resume(game_id)  # (a queue push: the computer players start once the answer is out)

    def _act(self, game_id: str, action: str, version: int, cookie: str | None, host: str | None) -> Answer:
        """What the route would answer (in a request thread)."""
        try:
            return 200, self.handle(game_id, version, action, cookie, host).json, []
        except IdentityRefused as refused:
            return refused.status, _detail(refused), []
        except TooMany as too_many:
            return 429, _detail(too_many), [(b"retry-after", str(too_many.retry_after).encode())]
        except (OperationalError, PoolTimeout):
            busy = b'{"detail":"the database is busy; try again in a moment"}'
            return 503, busy, [(b"retry-after", str(RETRY_SECONDS).encode())]
        except ROOM_ERRORS as error:
            return status_for(error), _detail(error), []


def _action(body: bytes) -> tuple[str, int] | None:
    """(action, version) of a body the route would take as it is; None otherwise."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.keys() != {"action", "version"}:
        return None
    action, version = data["action"], data["version"]
    if type(action) is not str or not 1 <= len(action) <= MAX_ACTION_CHARACTERS or type(version) is not int:
        return None
    return action, version


def _detail(error: Exception) -> bytes:
    return orjson.dumps({"detail": str(error)})


async def _whole_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """``receive`` that gives the body read already, then the client's own messages."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _send(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]], gzipped: bool) -> None:
    headers = [(b"content-type", b"application/json"), *extra]
    if len(body) >= GZIP_MINIMUM_BYTES:
        headers.append((b"vary", b"Accept-Encoding"))
        if gzipped:
            body = gzip.compress(body, GZIP_LEVEL, mtime=0)
            headers.append((b"content-encoding", b"gzip"))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["FastActions"]
