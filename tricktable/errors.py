"""Typed errors of the game protocol.

Every error is a ``ValueError`` with a message a person understands; a state
that raised one is exactly as it was before the call.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base of every rule or notation error."""


class NotationError(GameError):
    """Text that is not an action, card, suit or option at all."""


class IllegalAction(GameError):
    """A well-formed action the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """An action sent for a seat that is not to act."""


class GameOver(IllegalAction):
    """An action sent after the game ended."""


class UnknownGame(GameError):
    """A game name that is not in the catalog."""


class OptionError(GameError):
    """An unknown option or an option value out of range."""


class RecordError(GameError):
    """A game record that is malformed or does not replay.

    ``action_number`` is the 1-based index of the offending action, or ``None``
    when the record's header is at fault.
    """

    def __init__(self, reason: str, action_number: int | None = None):
        where = f"action {action_number}: " if action_number is not None else ""
        super().__init__(f"bad record: {where}{reason}")
        self.reason = reason
        self.action_number = action_number
