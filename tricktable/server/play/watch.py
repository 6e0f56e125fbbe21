"""Watching a table: what a watcher (someone with the table's watch link, no
seat) is shown of its match, and the events of its stream.

A watcher sees only what every seat sees: each seat's own view is asked of
the game (``person_view``, the observation the rules give that seat) and only
the part all four views share is kept (``replay.split_views``, as the replay
viewer splits public from own), so no hand and no seat's private fact can get
through, whatever the game.  A step's fields are kept where all four seats
read them alike (an action's text may differ: a face-down card).

Watchers' streams subscribe to the game's channel as seat ``WATCHER``: the
room publishes a public step event for them only while some watcher here
listens (``Room._announce``).  A table's cap on watchers counts the streams of
every server process: each holds a lease in the store (``WatchLease``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Callable

from tricktable.core.protocol import NUM_SEATS, GameState
from tricktable.core.step import Step
from tricktable.server.live.channel import Event
from tricktable.server.play.commit import Position
from tricktable.server.play.replay import split_views
from tricktable.server.play.view import AUTO, auto_seats, bot_to_move, people_at, step_json
from tricktable.store import Store

WATCHER = -1
"""The channel seat of watchers' streams (no player sits there)."""
MAX_WATCHERS = 20
"""Watchers' streams a table's match has at once (in all server processes together)."""
LEASE_SECONDS = 90.0
"""How long a watch stream's place outlives its last renewal (its process killed)."""
RENEW_SECONDS = 30.0
"""How often an open stream renews its place (it sends something at least every
``sse.KEEP_ALIVE_SECONDS``, and renews as it sends)."""


class WatchLease:
    """One watch stream's place among its table's watchers, in every process."""

    def __init__(self, store: Store, table_id: str, clock: Callable[[], float] = time.time):
        self._store = store
        self._table_id = table_id
        self._clock = clock
        self._id = secrets.token_urlsafe(18)
        self._renewed_at = float("-inf")

    def take(self, cap: int) -> bool:
        """Hold a place if the table has fewer than ``cap`` watchers (False: none taken)."""
        now = self._clock()
        taken = self._store.admit_watcher(self._table_id, self._id, cap, now, now + LEASE_SECONDS)
        if taken:
            self._renewed_at = now
        return taken

    def due(self) -> bool:
        return self._clock() - self._renewed_at >= RENEW_SECONDS

    def renew(self) -> None:
        now = self._clock()
        self._store.renew_watcher(self._id, now + LEASE_SECONDS)
        self._renewed_at = now

    def give_back(self) -> None:
        self._store.drop_watcher(self._id)


def public_view(state: GameState) -> dict[str, Any]:
    """What every seat of ``state`` sees alike."""
    return split_views([state.view(seat) for seat in range(NUM_SEATS)])[0]


def public_step(step: Step, views: list[dict[str, Any]], auto: bool = False) -> dict[str, Any]:
    """A step's fields as all four seats (their ``views`` after it) read them alike;
    ``auto``: the turn clock had a computer player decide it (everyone is told)."""
    told = [step_json(step, view, seat, auto) for seat, view in enumerate(views)]
    return {key: value for key, value in told[0].items() if all(other.get(key) == value for other in told[1:])}


def watched(position: Position, step: Step | None = None) -> dict[str, Any]:
    """A watcher's answer: the match's public view at its stored version,
    with ``step`` (the one that led there) as every seat reads it, and the
    seconds left on the turn clock of the person to move (as every seat sees them)."""
    row, state = position.row, position.state
    views = [position.view_of(seat) for seat in range(NUM_SEATS)]  # each seat's, asked once
    return {"id": row.id, "version": row.version, "game": row.game, "view": split_views(views)[0],
            "steps": [public_step(step, views, row.version in row.record.get(AUTO, ()))] if step is not None else [],
            "thinking": bot_to_move(state, people_at(row)), "auto_seats": auto_seats(row), "over": state.is_terminal(),
            "deadline_in": max(0.0, row.deadline - time.time()) if row.deadline is not None else None}


def watch_step_event(position: Position, step: Step) -> Event:
    """The watchers' event of a committed step."""
    return Event(position.row.id, "step", position.row.version, watched(position, step), seat=WATCHER)


def watch_state_event(position: Position) -> Event:
    """The watchers' event of the whole public state (a stream's start, or one that fell behind)."""
    return Event(position.row.id, "state", position.row.version, watched(position), seat=WATCHER)


__all__ = ["MAX_WATCHERS", "WATCHER", "WatchLease", "public_step", "public_view", "watch_state_event", "watch_step_event", "watched"]
