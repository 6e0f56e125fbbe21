"""Whose game it is: every read and write of a game goes through ``seat_of``.

A game answers only to the identity that holds a seat in it: the one person
at seat 0 (the row's ``owner``), or at a table's game each person at the seat
the table gives him (the row's ``seats``, read with the game).  Anyone else, and a caller with no identity at all, is
told the game does not exist (404): a game id can be guessed at or leaked,
and its answer must not tell whether it names a game.
"""

from __future__ import annotations

import hmac

from tricktable.server.play.errors import GameNotFound
from tricktable.server.play.view import HUMAN
from tricktable.store import GameRow


def holds(holder: str | None, who: str | None) -> bool:
    """Whether the seat's ``holder`` is ``who`` (compared in constant time)."""
    return holder is not None and who is not None and hmac.compare_digest(holder.encode(), who.encode())


def seat_of(row: GameRow, who: str | None) -> int:
    """The seat ``who`` (an identity id) plays in ``row``'s game, or ``GameNotFound``."""
    if who is not None:
        if row.seats is not None:
            for seat, holder in enumerate(row.seats):
                if holds(holder, who):
                    return seat
        elif holds(row.owner, who):
            return HUMAN
    raise GameNotFound("no such game")


__all__ = ["holds", "seat_of"]
