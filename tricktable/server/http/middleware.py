"""The ASGI middleware every request passes: security headers, the time a
request must be answered by, and gzip for all but the event streams."""

from __future__ import annotations

import time

from fastapi.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tricktable.store.engine import ANSWER_BY

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


__all__ = ["ANSWER_SECONDS", "AnswerDeadline", "CompressExceptStreams", "SecurityHeaders"]
