"""What a game's play refuses, beyond the rules' own errors (``tricktable.errors``)."""

from __future__ import annotations

from tricktable.errors import GameError, NotYourTurn


class GameNotFound(LookupError):
    """No stored game has that id."""


class HintRefused(GameError):
    """Hints are not offered in this game (the daily deal)."""


class NotHost(GameError):
    """Only a table's host may do that (seat people, start the match)."""


class SeatTaken(GameError):
    """The seat (or the table) is taken, full, or started; or it changed meanwhile."""


class TimeRanOut(NotYourTurn):
    """The person's timed decision expired before the action arrived (the
    referee's timeout has been applied instead)."""


__all__ = ["GameNotFound", "HintRefused", "NotHost", "SeatTaken", "TimeRanOut"]
