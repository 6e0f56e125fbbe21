"""Refusing abuse before it costs anything: request size, request rate, and the
client address a limit is counted against.

The rate limits live in this process's memory (a sliding window per key): with
several server processes each counts on its own, so the effective limit is the
number of processes times the configured one.  That keeps a database round
trip off every request; the limits are there to make floods expensive, not to
count exactly.
"""

from __future__ import annotations

import ipaddress
import math
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, fields, replace
from typing import Any, Awaitable, Callable

MAX_BODY_BYTES = 16 * 1024


@dataclass(frozen=True)
class Rate:
    """At most ``count`` events per ``seconds``."""

    count: int
    seconds: float


@dataclass(frozen=True)
class Limits:
    """Every limit of the server.  ``TRICKTABLE_LIMIT_SCALE`` multiplies the
    counts (browser tests open many fresh profiles from one address)."""

    identity_per_address: Rate = Rate(20, 3600)
    games_per_identity: Rate = Rate(30, 60)
    games_per_address: Rate = Rate(90, 60)
    daily_per_identity: Rate = Rate(20, 60)
    daily_per_address: Rate = Rate(60, 60)
    nickname_per_identity: Rate = Rate(5, 600)
    nickname_per_address: Rate = Rate(30, 600)
    actions_per_identity: Rate = Rate(600, 60)
    actions_per_address: Rate = Rate(1800, 60)
    transfer_per_address: Rate = Rate(10, 600)
    open_games_per_identity: int = 20

    def scaled(self, factor: float) -> "Limits":
        changes: dict[str, Any] = {}
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Rate):
                changes[field.name] = Rate(max(1, int(value.count * factor)), value.seconds)
            else:
                changes[field.name] = max(1, int(value * factor))
        return replace(self, **changes)

    @classmethod
    def from_env(cls) -> "Limits":
        scale = os.environ.get("TRICKTABLE_LIMIT_SCALE")
        return cls().scaled(float(scale)) if scale else cls()


class TooMany(Exception):
    """A rate limit or cap was reached; ``retry_after`` in whole seconds."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class RateLimiter:
    """Sliding-window counters, thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._events: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, what: str, key: str, rate: Rate) -> None:
        """Count one event of kind ``what`` for ``key``; ``TooMany`` (and the
        event not counted) when the window is full."""
        now = self._clock()
        with self._lock:
            window = self._events.setdefault((what, key), deque())
            while window and window[0] <= now - rate.seconds:
                window.popleft()
            if len(window) >= rate.count:
                wait = math.ceil(window[0] + rate.seconds - now)
                raise TooMany(f"too many {what}: at most {rate.count} per {_span(rate.seconds)}; try again later",
                              max(1, wait))
            window.append(now)
            if len(self._events) > 100_000:  # forget idle keys so memory stays bounded
                self._forget(now)

    def _forget(self, now: float) -> None:
        for key in [k for k, w in self._events.items() if not w or w[-1] < now - 3600]:
            del self._events[key]


def _span(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return "hour" if seconds == 3600 else f"{int(seconds // 3600)} hours"
    if seconds >= 60 and seconds % 60 == 0:
        return "minute" if seconds == 60 else f"{int(seconds // 60)} minutes"
    return f"{seconds:g} seconds"


def address_block(host: str | None) -> str:
    """The block a client address is counted in: IPv4 /24, IPv6 /64 (an
    IPv4-mapped IPv6 address counts as IPv4); anything else as itself."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


ASGIApp = Callable[[dict[str, Any], Callable[[], Awaitable[dict[str, Any]]], Callable[[dict[str, Any]], Awaitable[None]]],
                   Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before it
    is read whole.  A declared ``Content-Length`` over the limit is refused at
    once; a chunked body is read at most ``limit + 1`` bytes far."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.limit:
                await _too_large(send, self.limit)
                return
            await self.app(scope, receive, send)
            return
        if scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE") and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await _too_large(send, self.limit)
                return
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _too_large(send: Any, limit: int) -> None:
    body = f'{{"detail":"the request body is larger than {limit} bytes"}}'.encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BodyLimit", "Limits", "Rate", "RateLimiter", "TooMany", "address_block", "MAX_BODY_BYTES"]
