"""The live channel: what the referee and the computer players commit is
published here, and every open event stream of that game receives it.

``Channel`` is the small interface the room needs; ``LocalChannel`` delivers
within one process.  Other processes' commits reach it as ``changed`` events
from the change feed (``feed.py``: PostgreSQL LISTEN/NOTIFY, SQLite polling).
"""

from __future__ import annotations

import asyncio
import threading
from functools import cached_property
from typing import Any, Callable, Protocol

import orjson


VERSIONED = frozenset({"step", "state"})
"""The kinds that carry a game version a reconnecting stream resumes from."""
NEXT = "next"
"""A table's match is over and its table plays again: ``{"game_id"}`` names the new match."""
REMOVED = "removed"
"""The stream's person no longer holds its seat (the host gave it to a computer
player): the last event the stream sends."""
SEATS = "seats"
"""A table's match changed who plays a seat: ``{"seat"}`` (the page reads the
table's seats again to show their names)."""
NOTICES = frozenset({"reaction", SEATS})
"""The kinds that are no version of the game: each is told once, as it comes,
never again on a reconnect."""
FINAL = frozenset({REMOVED})
"""The kinds after which a stream ends."""


class Event:
    """One thing a stream sends: ``kind`` is ``step``, ``thinking``,
    ``state``, ``reaction`` (a person's quick reaction) or ``seats`` (a seat
    changed hands; both ``NOTICES``: told once, never again on a reconnect),
    ``next`` or ``removed`` (``NEXT``, ``REMOVED``); ``version`` is the game's version it belongs to.  A
    ``changed`` event is never sent: it says that another process changed the
    game (``feed.py``), so the stream reads what it missed.  Events are equal
    when their game, kind and version are.  ``seat``: the seat whose view the
    event carries, delivered only to that seat's streams (None: to every
    stream of the game, for an event that shows nothing hidden)."""

    def __init__(self, game_id: str, kind: str, version: int, data: dict[str, Any] | None = None,
                 encoder: Callable[[dict[str, Any]], bytes] | None = None, encoded: bytes | None = None,
                 seat: int | None = None):
        """``encoder``: how ``data`` is written (the room's, which reuses kept
        bytes; default: orjson).  ``encoded``: the event's JSON as another
        process wrote it (a stored step frame, ``feed.py``): sent as it is,
        ``data`` read from it only if someone asks."""
        self.game_id = game_id
        self.kind = kind
        self.version = version
        self.seat = seat
        self._data = data
        self.encoder = encoder
        if encoded is not None:
            self.__dict__["json"] = encoded

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = orjson.loads(self.__dict__["json"]) if "json" in self.__dict__ else {}
        return self._data

    def _key(self) -> tuple[str, str, int]:
        return self.game_id, self.kind, self.version

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Event({self.game_id!r}, {self.kind!r}, {self.version})"

    @cached_property
    def json(self) -> bytes:
        """``data`` as JSON, written once per event: the person's answer to an
        action is the same bytes as its step on the stream, and every stream of
        the game sends the same frame (the views are most of a step's cost)."""
        if self.encoder is not None:
            return self.encoder(self.data)
        return orjson.dumps(self.data, option=orjson.OPT_NON_STR_KEYS)

    @cached_property
    def frame(self) -> bytes:
        """The server-sent-events message.  Steps and states carry their
        version as the event id, so a reconnecting EventSource sends it back
        as ``Last-Event-ID``; the data is one line (JSON escapes every newline
        inside a string)."""
        head = f"event: {self.kind}\n" + (f"id: {self.version}\n" if self.kind in VERSIONED else "")
        return b"".join((head.encode(), b"data: ", self.json, b"\n\n"))


class Subscription:
    """One stream's inbox, filled from any thread, read on its event loop: the
    game's events for everyone and those of its ``seat``."""

    def __init__(self, channel: "LocalChannel", game_id: str, loop: asyncio.AbstractEventLoop, seat: int = 0):
        self.game_id = game_id
        self.seat = seat
        self._channel = channel
        self._loop = loop
        self._queue: asyncio.Queue[Event] = asyncio.Queue()

    def deliver(self, event: Event) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, event)
        except RuntimeError:  # the stream's loop has closed; it is going away
            pass

    async def next(self, timeout: float) -> Event | None:
        """The next event, or ``None`` after ``timeout`` seconds of silence.
        (One waiting for an event costs a timer, not a task as ``wait_for``
        makes; a waiting event costs neither: a stream reads several a step.)"""
        queue = self._queue
        if not queue.empty():
            return queue.get_nowait()
        try:
            async with asyncio.timeout(timeout):
                return await queue.get()
        except TimeoutError:
            return None

    def waiting(self) -> list[Event]:
        """The events delivered and not read yet, without waiting for any."""
        queue = self._queue
        return [queue.get_nowait() for _ in range(queue.qsize())]

    def close(self) -> None:
        self._channel.unsubscribe(self)


class Channel(Protocol):
    def publish(self, event: Event) -> None: ...

    def subscribe(self, game_id: str, seat: int = 0) -> Subscription:
        """Must be called on the event loop that will read the subscription."""
        ...


class LocalChannel:
    """An in-memory publish/subscribe for the streams of one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscription]] = {}

    def publish(self, event: Event) -> None:
        with self._lock:
            targets = list(self._subscribers.get(event.game_id, ()))
        seat = event.seat
        for subscription in targets:
            if seat is None or seat == subscription.seat:
                subscription.deliver(event)

    def subscribe(self, game_id: str, seat: int = 0) -> Subscription:
        subscription = Subscription(self, game_id, asyncio.get_running_loop(), seat)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            found = self._subscribers.get(subscription.game_id)
            if found is not None:
                found.discard(subscription)
                if not found:
                    del self._subscribers[subscription.game_id]

    def games(self) -> list[str]:
        """The games some stream of this process is watching."""
        with self._lock:
            return list(self._subscribers)

    def listeners(self, game_id: str, seat: int | None = None) -> int:
        """The streams of a game (of one seat of it, given ``seat``)."""
        with self._lock:
            found = self._subscribers.get(game_id, ())
            return len(found) if seat is None else sum(1 for subscription in found if subscription.seat == seat)


__all__ = ["FINAL", "NEXT", "NOTICES", "REMOVED", "SEATS", "VERSIONED", "Channel", "Event", "LocalChannel", "Subscription"]
