"""The server-sent-events wire format of the live channel."""

from __future__ import annotations

from typing import AsyncIterator, Awaitable, Callable

from tricktable.server.live.channel import FINAL, NEXT, NOTICES, SEATS, Event, Subscription

KEEP_ALIVE_SECONDS = 15.0
POLL_SECONDS = 1.0
"""How often a quiet stream asks the database whether another process moved
the game: a safety net only, the change feed (``feed.py``) tells it sooner."""


def encode(event: Event) -> bytes:
    """One SSE message (``Event.frame``: encoded once however many streams send it)."""
    return event.frame


async def event_stream(subscription: Subscription, backlog: list[Event], seen: int,
                       refresh: Callable[[int], Awaitable[list[Event]]], keep_alive: float = KEEP_ALIVE_SECONDS,
                       poll: float = POLL_SECONDS) -> AsyncIterator[bytes]:
    """The backlog, then live events the stream has not sent yet (a live event
    may also be in the backlog: it was published while the backlog was read).

    ``refresh(version)`` tells what the database has after ``version``; it
    fills gaps left by commits this process's channel never saw (another
    server process committed them), when an event shows a gap or after
    ``poll`` seconds of silence.

    A ``FINAL`` event (the person lost the seat) is the last thing sent: the
    stream ends after it.  A ``SEATS`` notice (a seat changed hands) makes the
    stream look at once too: where the seat was its own and the change was
    made on another process, that look is how it learns of the removal.

    What has arrived together goes out in one write: a computer players' run
    is published at once after its commit (``Referee.play_run``), and each
    write costs the ASGI stack's send and a system call whatever its size.
    """
    fresh = Freshness(seen)
    try:
        yield b"".join([b": connected\n\n", *(encode(event) for event in backlog if fresh.admit(event))])
        quiet = 0.0
        while not fresh.ended:
            first = await subscription.next(poll)
            out: list[bytes] = []
            for event in [first, *subscription.waiting()] if first is not None else [None]:
                if event is not None and event.kind == "changed":
                    if not fresh.behind(event):
                        continue
                    event = None  # read what another process committed or claimed; nothing to send itself
                if fresh.ended:
                    break
                if event is None or fresh.gap(event) or event.kind == SEATS:
                    for missed in await refresh(fresh.seen):
                        if fresh.admit(missed):
                            quiet = 0.0
                            out.append(encode(missed))
                if event is None:
                    quiet += poll
                    if quiet >= keep_alive:
                        quiet = 0.0
                        out.append(b": keep-alive\n\n")
                elif fresh.admit(event):
                    quiet = 0.0
                    out.append(encode(event))
            if out:
                yield b"".join(out)
    finally:
        subscription.close()


class Freshness:
    """Which events a stream still has to send: steps and states newer than
    the last version sent, a thinking event once, and only for that version,
    every notice (a reaction, a seat changing hands), the next match once,
    and nothing after a final event (``ended``)."""

    def __init__(self, seen: int):
        self.seen = seen
        self.thinking: tuple[int, int] | None = None
        self.followed = False
        self.ended = False

    def admit(self, event: Event) -> bool:
        if self.ended:
            return False
        if event.kind in FINAL:
            self.ended = True
            return True
        if event.kind in NOTICES:
            return True  # not a version of the game: each one is told once, as it comes
        if event.kind == NEXT:
            told, self.followed = self.followed, True
            return not told
        if event.kind == "thinking":
            key = (int(event.data["seat"]), event.version)
            if event.version < self.seen or key == self.thinking:
                return False
            self.thinking = key
            return True
        if event.version <= self.seen:
            return False
        self.seen = event.version
        return True

    def behind(self, change: Event) -> bool:
        """Whether a ``changed`` event may tell this stream something: a newer
        version, or a computer player thinking at the version it has."""
        told_thinking = self.thinking is not None and self.thinking[1] == self.seen
        return change.version > self.seen or (change.version == self.seen and not told_thinking)

    def gap(self, event: Event) -> bool:
        """Whether ``event`` shows versions this stream has not been told."""
        if event.kind == "thinking":
            return event.version > self.seen
        return event.kind == "step" and event.version > self.seen + 1


__all__ = ["encode", "event_stream", "KEEP_ALIVE_SECONDS"]
