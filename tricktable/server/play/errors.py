"""What a game's play refuses, beyond the rules' own errors (``tricktable.errors``)."""

from __future__ import annotations

from tricktable.errors import GameError, NotYourTurn


class GameNotFound(LookupError):
    """No stored game has that id."""


class HintRefused(GameError):
    """Hints are not offered in this game (the daily deal)."""


class GameNotOver(GameError):
    """Asked of a finished game only (its analysis, playing on from it)."""


class Withheld(GameError):
    """Not shown yet: a daily game's analysis and position before its UTC day has
    ended (they would show the day's cards to others)."""


class NotHost(GameError):
    """Only a table's host may do that (seat people, start the match)."""


class SeatTaken(GameError):
    """The seat (or the table) is taken, full, or started; or it changed meanwhile."""


class TimeRanOut(NotYourTurn):
    """The person's timed decision expired before the action arrived (the
    referee's timeout has been applied instead)."""


__all__ = ["GameNotFound", "GameNotOver", "HintRefused", "NotHost", "SeatTaken", "TimeRanOut",
           "Withheld"]
