"""What one action did, as the game reports it (``GameState.last_step``).

The server tells every seat about each step (an action's answer, a stream's
``step`` event).  It used to find out what the step was by building the seat's
view before and after and comparing them; the game knows it outright: who
acted, the action's text as each seat reads it, the trick it completed, and
whether it ended the deal or the match.

An action's public text can differ by seat (Euchre's and Hidden Trump's
face-down cards, Doppelkopf's reservations and poverty cards), so the step
carries one text per seat: exactly the last entry of that seat's
``observe(seat).actions`` (of the finished deal's, where the step ended it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class FinishedTrick(Protocol):
    """A finished trick as a game's views show it (``core.observation.Trick``,
    or a game's own with more facts, as Doppelkopf's with its points)."""

    @property
    def leader(self) -> int: ...

    @property
    def winner(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Step:
    """One action's public outcome (see the module docstring)."""

    seat: int
    """The seat that acted (a referee's timeout: the seat whose decision it settled)."""
    texts: tuple[str, ...]
    """The action's text as each seat reads it, by seat."""
    completed: FinishedTrick | None
    """The trick this action completed, as the views show it; None if it completed none."""
    deal_over: bool
    """Whether this action ended a deal (of a match: the match moved on to the next deal, or ended)."""
    match_over: bool
    """Whether the game is over after it."""

    def text_for(self, seat: int) -> str:
        """The action's text as ``seat`` reads it."""
        return self.texts[seat]


__all__ = ["FinishedTrick", "Step"]
