"""The one table that maps the room's error types to HTTP status codes.

Every route raises; nothing catches and translates locally, so an error means
the same status everywhere.  Order matters: the first entry the error is an
instance of wins, so subclasses come before their bases.
"""

from __future__ import annotations

from tricktable.errors import GameError, GameOver, NotYourTurn
from tricktable.catalog import UnknownGame
from tricktable.server.play.errors import (GameNotFound, GameNotOver, HintRefused, NotHost, SeatTaken,
                                           Withheld)
from tricktable.store import StaleVersion


HTTP_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (GameNotFound, 404),
    (UnknownGame, 404),
    (HintRefused, 403),
    (Withheld, 403),
    (GameNotOver, 409),
    (NotHost, 403),
    (SeatTaken, 409),
    (StaleVersion, 409),
    (NotYourTurn, 409),  # includes TimeRanOut
    (GameOver, 409),
    (GameError, 422),  # illegal or malformed actions, options, levels
)


def status_for(error: Exception) -> int:
    """The HTTP status of a room error (500 for anything not in the table)."""
    for kind, status in HTTP_STATUS:
        if isinstance(error, kind):
            return status
    return 500


__all__ = ["HTTP_STATUS", "status_for"]
