"""Whose game it is: every read and write of a game goes through ``seat_of``.

A game answers only to the identity that holds a seat in it.  Today that is
the one person at seat 0 (the row's ``owner``); a table of several people
will bind each of its seats to an identity the same way, and this is the one
place that learns it.  Anyone else, and a caller with no identity at all, is
told the game does not exist (404): a game id can be guessed at or leaked,
and its answer must not tell whether it names a game.
"""

from __future__ import annotations

import hmac

from tricktable.server.play.errors import GameNotFound
from tricktable.server.play.view import HUMAN
from tricktable.store import GameRow


def seat_of(row: GameRow, who: str | None) -> int:
    """The seat ``who`` (an identity id) plays in ``row``'s game, or ``GameNotFound``."""
    if who is None or row.owner is None or not hmac.compare_digest(row.owner.encode(), who.encode()):
        raise GameNotFound("no such game")
    return HUMAN


__all__ = ["seat_of"]
