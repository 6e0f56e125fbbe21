"""Refusing abuse before it costs anything: request rates, open streams, and
the client address a limit is counted against (the body's size: ``http/body_limit.py``).

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
from typing import Any, Callable

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
    transfer_codes_per_identity: Rate = Rate(5, 600)
    transfer_codes_per_address: Rate = Rate(30, 600)
    commitments_per_identity: Rate = Rate(30, 60)
    commitments_per_address: Rate = Rate(90, 60)
    hints_per_identity: Rate = Rate(20, 60)
    hints_per_address: Rate = Rate(60, 60)
    analyses_per_identity: Rate = Rate(30, 3600)
    analyses_per_address: Rate = Rate(90, 3600)
    shares_per_identity: Rate = Rate(10, 600)
    shares_per_address: Rate = Rate(30, 600)
    stats_per_identity: Rate = Rate(60, 60)
    stats_per_address: Rate = Rate(180, 60)
    passkeys_per_identity: Rate = Rate(10, 600)
    """Registering a passkey, listing and removing them (each step counts)."""
    passkeys_per_address: Rate = Rate(60, 600)
    passkey_sign_ins_per_address: Rate = Rate(30, 600)
    """Signing in with a passkey (options and verify each count): no identity yet."""
    replays_per_identity: Rate = Rate(30, 60)
    """A replay costs up to a second of views (a stored game's is then kept a while)."""
    replays_per_address: Rate = Rate(90, 60)
    tables_per_identity: Rate = Rate(10, 600)
    tables_per_address: Rate = Rate(30, 600)
    table_codes_per_identity: Rate = Rate(20, 600)
    """Look-ups of a table by its short code (joining by it): against guessing codes."""
    table_codes_per_address: Rate = Rate(60, 600)
    reactions_per_identity: Rate = Rate(10, 60)
    """Quick reactions at a table: a few a minute, not a flood on everyone's stream."""
    reactions_per_address: Rate = Rate(60, 60)
    quick_matches_per_identity: Rate = Rate(10, 600)
    quick_matches_per_address: Rate = Rate(30, 600)
    watches_per_address: Rate = Rate(1200, 600)
    """Look-ups of a table by its watch link (a 128-bit token: counted only against floods; a
    watcher's page may look once a second until the match starts)."""
    open_games_per_identity: int = 20
    streams_per_identity: int = 8
    """Open event streams: a person's tabs (each game page holds one)."""
    streams_per_address: int = 64

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


Counted = tuple[str, str, float]
"""One counted event: (what, key, when)."""


class RateLimiter:
    """Sliding-window counters, thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._events: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, what: str, key: str, rate: Rate) -> "Counted":
        """Count one event of kind ``what`` for ``key``; ``TooMany`` (and the
        event not counted) when the window is full.  What was counted, for
        ``refund``."""
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
        return (what, key, now)

    def count(self, what: str, identity: str | None, block: str, limits: "Limits") -> "list[Counted]":
        """One ``what`` (a ``Limits`` field prefix) against ``identity`` (if
        any) and the address ``block``; ``TooMany`` when either is over, and
        then neither counted.  What was counted, for ``refund``."""
        taken = []
        try:
            if identity is not None:
                taken.append(self.hit(what, identity, getattr(limits, f"{what}_per_identity")))
            taken.append(self.hit(what, block, getattr(limits, f"{what}_per_address")))
        except TooMany:
            self.refund(taken)
            raise
        return taken

    def refund(self, counted: "list[Counted]") -> None:
        """Take back events ``hit`` counted (the request they were for was refused)."""
        with self._lock:
            for what, key, when in counted:
                window = self._events.get((what, key))
                if window is not None and when in window:
                    window.remove(when)

    def _forget(self, now: float) -> None:
        for key in [k for k, w in self._events.items() if not w or w[-1] < now - 3600]:
            del self._events[key]


class OpenStreams:
    """How many event streams each identity and address block holds open
    now: each costs a subscription and a periodic database look for as long
    as it is open, so their number is capped, not their rate."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def open(self, identity: str | None, block: str) -> Callable[[], None]:
        """Take a place for a new stream (``TooMany`` when either cap is
        reached); the function that gives it back, once."""
        keys = [(f"address {block}", self.limits.streams_per_address)]
        if identity is not None:
            keys.append((f"identity {identity}", self.limits.streams_per_identity))
        with self._lock:
            for key, cap in keys:
                if self._open.get(key, 0) >= cap:
                    raise TooMany(f"too many open event streams: at most {cap}; close another tab", 5)
            for key, _cap in keys:
                self._open[key] = self._open.get(key, 0) + 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                for key, _cap in keys:
                    left = self._open[key] - 1
                    if left:
                        self._open[key] = left
                    else:
                        del self._open[key]

        return release

    def count(self, identity: str | None, block: str) -> tuple[int, int]:
        """(streams of ``identity``, streams of ``block``) open now."""
        with self._lock:
            return self._open.get(f"identity {identity}", 0), self._open.get(f"address {block}", 0)


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


__all__ = ["Counted", "Limits", "OpenStreams", "Rate", "RateLimiter", "TooMany", "address_block"]
