"""What one Euchre seat may know: ``EuchreObservation`` and its enums.

Its ``to_json`` is the wire shape the page has always received (keys and values
unchanged): phases and the up-card's fate travel as their stable keys
(``"round 1"``, ``"alone?"``, ``"picked up"`` …), suits as letters, cards as
texts, absent seats as ``null``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any, Mapping

from tricktable.cards import SUIT_LETTERS
from tricktable.core.observation import CARD_TEXTS, Card, Observation, Play, Suit, Trick, plays_json
from tricktable.core.protocol import ScoreLine
from tricktable.games.euchre.rules import Outcome


class Phase(IntEnum):
    """The hand's phases in order; ``key`` is the stable wire name."""

    ROUND1 = 0
    ROUND2 = 1
    ALONE_CHOICE = 2
    DEFEND_CHOICE = 3
    DISCARDING = 4
    PLAYING = 5
    DONE = 6

    @property
    def key(self) -> str:
        return _PHASE_KEYS[self]


_PHASE_KEYS = ("round 1", "round 2", "alone?", "defend alone?", "discard", "play", "done")


class UpCard(Enum):
    """What became of the up-card."""

    OFFERED = "offered"
    TURNED_DOWN = "turned down"
    PICKED_UP = "picked up"
    OUT_OF_PLAY = "taken out of play"
    """Ordered up, but the dealer sits out (his partner went alone or defends
    alone): nobody picks it up."""


@dataclass(frozen=True)
class EuchreResult:
    """How a finished hand scored."""

    outcome: Outcome
    points: tuple[int, int]
    lines: tuple[ScoreLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.value, "points": list(self.points),
                "lines": [line.to_json() for line in self.lines]}


def _suit(suit: int | None) -> str | None:
    return SUIT_LETTERS[suit] if suit is not None else None


@dataclass(frozen=True)
class EuchreObservation(Observation):
    """One seat's knowledge of a hand.  Never: another hand, the kitty, the
    deck order, the seed, or the dealer's discard (unless the seat dealt)."""

    dealer: int
    phase: Phase
    hand_sizes: tuple[int, ...]
    up_card: Card
    up_card_status: UpCard
    trump: Suit | None
    turned_down: Suit | None
    maker: int | None
    alone: bool
    sitting_out: int | None
    """The lone maker's partner."""
    leader: int | None
    trick: tuple[Play, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, int]
    options: Mapping[str, Any]
    discard: Card | None = None
    """The dealer's own discard (only in the dealer's observation)."""
    result: EuchreResult | None = field(default=None)
    lone_defender: int | None = None
    """Option "defend alone": the defender who defends alone (his partner sits out too)."""

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data.update(
            dealer=self.dealer,
            phase=self.phase.key,
            hand_sizes=list(self.hand_sizes),
            up_card=CARD_TEXTS[self.up_card],
            up_card_status=self.up_card_status.value,
            trump=_suit(self.trump),
            turned_down=_suit(self.turned_down),
            maker=self.maker,
            alone=self.alone,
            sitting_out=self.sitting_out,
            lone_defender=self.lone_defender,
            leader=self.leader,
            trick=plays_json(self.trick),
            tricks=[trick.to_json() for trick in self.tricks],
            tricks_won=list(self.tricks_won),
            options=dict(self.options),
        )
        if self.discard is not None:
            data["discard"] = CARD_TEXTS[self.discard]
        if self.result is not None:
            data["result"] = self.result.to_json()
        return data
