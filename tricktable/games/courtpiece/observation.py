"""What one Court Piece seat may know: ``CourtPieceObservation`` and the facts
each rule part adds (``PileFacts``, ``HiddenFacts``, ``VoidFacts``, the tens).

Its ``to_json`` is the wire shape the page has always received (keys and values
unchanged): the phase and the outcome travel as their stable keys (``"partner
calling"``, ``"callers_kot"`` …), suits as letters, cards as texts, absent seats
as ``null``.  A part's keys appear only in the games that have the part (the
pile in Double Sar and Be-Ranga, the face-down card in Hidden Trump and
Mendikot, ``trump_trick`` in Be-Ranga, ``tens`` in Mendikot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Annotated, Any, Mapping, NamedTuple

from tricktable.cards import SUIT_LETTERS
from tricktable.core.observation import CARD_TEXTS, Card, Observation, Play, Suit, Trick, plays_json
from tricktable.core.protocol import ScoreLine
from tricktable.core.schema import MERGED


class Phase(IntEnum):
    """The phases of a deal; ``key`` is the stable wire name."""

    CALLING = 0
    PARTNER_CALLING = 1
    PLAYING = 2
    DONE = 3

    @property
    def key(self) -> str:
        return PHASE_KEYS[self]


PHASE_KEYS = ("calling", "partner calling", "play", "done")


class Outcome(Enum):
    """How a deal ended; the value is the stable key of the score tables."""

    CALLERS_WON = "callers_won"
    OTHERS_WON = "others_won"
    CALLERS_KOT = "callers_kot"
    GOON_KOT = "goon_kot"
    NEW_CARDS = "new_cards"
    TENS_WON = "won"
    MENDIKOT = "mendikot"
    WHITEWASH = "whitewash"


def _card(card: int | None) -> str | None:
    return CARD_TEXTS[card] if card is not None else None


class OpenPair(NamedTuple):
    """Who won the last trick, if that win can still start a pair, and with what."""

    seat: int
    card: Card


class Capture(NamedTuple):
    """A capture of the pile: the trick that completed it, who took it, how many tricks."""

    trick: int
    seat: int
    tricks: int


@dataclass(frozen=True)
class PileFacts:
    """Double Sar's pile: how many tricks lie face down, the open half of a pair
    and every capture so far."""

    pile: int
    open_pair: OpenPair | None
    captures: tuple[Capture, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "open_pair": {"seat": self.open_pair.seat, "card": CARD_TEXTS[self.open_pair.card]} if self.open_pair else None,
            "captures": [capture._asdict() for capture in self.captures],
        }


@dataclass(frozen=True)
class HiddenFacts:
    """The face-down trump card: whether it still lies there, the card itself
    (only for the seat that put it down), and the reveal once it happened."""

    trump_hidden: bool
    hidden_card: Card | None
    revealed_card: Card | None
    revealed_by: int | None
    revealed_trick: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "trump_hidden": self.trump_hidden,
            "hidden_card": _card(self.hidden_card),
            "revealed_card": _card(self.revealed_card),
            "revealed_by": self.revealed_by,
            "revealed_trick": self.revealed_trick,
        }


@dataclass(frozen=True)
class VoidFacts:
    """Be-Ranga: the number of the trick whose void set trump (None before)."""

    trump_trick: int | None

    def to_json(self) -> dict[str, Any]:
        return {"trump_trick": self.trump_trick}


@dataclass(frozen=True)
class CourtPieceResult:
    """How a finished deal scored: the outcome, the winning team (None after new
    cards), per-team points and the score sheet's lines."""

    outcome: Outcome
    winners: int | None
    points: tuple[int, int]
    lines: tuple[ScoreLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.value, "winners": self.winners, "points": list(self.points),
                "lines": [line.to_json() for line in self.lines]}


@dataclass(frozen=True)
class CourtPieceObservation(Observation):
    """One seat's knowledge of a deal.  Never: another hand, the undealt stock
    (nor, while trump is called, the seat's own last eight cards), the deal's
    seed, the flip position, or a face-down card the seat did not put down."""

    dealer: int
    caller: int
    phase: Phase
    hand_sizes: tuple[int, ...]
    all_dealt: bool
    trump: Suit | None
    trump_by: int | None
    flip_card: Card | None
    changed_trump: bool
    new_cards_allowed: bool
    deadline_seconds: int | None
    leader: int
    trick: tuple[Play, ...]
    tricks: tuple[Trick, ...]
    captured: tuple[int, int]
    options: Mapping[str, Any]
    pile: Annotated[PileFacts | None, MERGED] = None
    trump_facts: Annotated[HiddenFacts | VoidFacts | None, MERGED] = None
    tens: tuple[int, int] | None = None
    result: CourtPieceResult | None = field(default=None)

    @property
    def hidden(self) -> HiddenFacts | None:
        return self.trump_facts if isinstance(self.trump_facts, HiddenFacts) else None

    @property
    def trump_trick(self) -> int:
        """Be-Ranga's trump-setting trick number, 0 while none (or in another game)."""
        facts = self.trump_facts
        return facts.trump_trick or 0 if isinstance(facts, VoidFacts) else 0

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data.update(
            dealer=self.dealer,
            caller=self.caller,
            phase=self.phase.key,
            hand_sizes=list(self.hand_sizes),
            all_dealt=self.all_dealt,
            trump=SUIT_LETTERS[self.trump] if self.trump is not None else None,
            trump_by=self.trump_by,
            flip_card=_card(self.flip_card),
            changed_trump=self.changed_trump,
            new_cards_allowed=self.new_cards_allowed,
            deadline_seconds=self.deadline_seconds,
            leader=self.leader,
            trick=plays_json(self.trick),
            tricks=[trick.to_json() for trick in self.tricks],
            captured=list(self.captured),
            options=dict(self.options),
        )
        if self.pile is not None:
            data.update(self.pile.to_json())
        if self.tens is not None:
            data["tens"] = list(self.tens)
        if self.result is not None:
            data["result"] = self.result.to_json()
        if self.trump_facts is not None:
            data.update(self.trump_facts.to_json())
        return data
