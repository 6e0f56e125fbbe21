"""What one seat may know: the typed, immutable observation every bot, sampler
and hint works from.

Each game subclasses ``Observation`` with its own public facts (trump, contract,
pile …) and overrides ``to_json`` to add them to the wire shape; the base gives
the fields every game has.  ``to_json()`` is exactly what the web page and the
HTTP API receive (``GameState.view(seat)``).

Card fields are card ids (ints, copies of a double deck included); actions are
``(seat, text)`` pairs in public notation (hidden ones read as the game's
placeholder); ``legal`` lists the action texts the seat may take now (also when
it is not the seat to move, where the rules let it act out of turn).

In a match, ``match`` carries the match-level facts (``MatchInfo``); a single
deal has ``match=None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

import orjson

from tricktable.cards import COPY_OFFSET, card_text
from tricktable.core.schema import FLATTENED, WireType

Card = Annotated[int, WireType("string", "a card: rank and suit letter, e.g. QC or 10H")]
"""A card id in Python, its text on the wire."""

CARD_TEXTS: Mapping[int, str] = {card: card_text(card) for copy in (0, COPY_OFFSET) for card in range(copy, copy + 52)}
"""``card_text`` of every card id (both copies of a double deck), looked up:
a view writes some fifty cards, and the server writes a view at every step."""


def card_texts(cards: Iterable[int]) -> list[str]:
    """The wire texts of ``cards``, in their order."""
    texts = CARD_TEXTS
    return [texts[card] for card in cards]
Suit = Annotated[int, WireType("string", "a suit letter: C, D, H or S")]


@dataclass(frozen=True)
class Observation:
    """The facts every game's observation has (see the module docstring)."""

    game: str
    seat: int
    to_move: int
    hand: tuple[Card, ...]
    actions: tuple[tuple[int, str], ...]
    legal: tuple[str, ...]
    terminal: bool
    match: MatchInfo | None = field(default=None, kw_only=True)

    def hand_texts(self) -> list[str]:
        return card_texts(self.hand)

    def hand_json(self) -> list[str]:
        """The hand as the wire shows it (a game may show it otherwise than
        ``hand_texts``, which the players' seeds are made of)."""
        return self.hand_texts()

    def to_json(self) -> dict[str, Any]:
        """The wire shape of the common fields; games extend it."""
        data: dict[str, Any] = {
            "game": self.game,
            "seat": self.seat,
            "to_move": self.to_move,
            "hand": self.hand_json(),
            "actions": [[seat, text] for seat, text in self.actions],
            "legal": list(self.legal),
            "terminal": self.terminal,
        }
        if self.match is not None:
            data["match"] = self.match.to_json()
        return data

    def in_match(self, match: MatchInfo) -> Observation:
        """This deal's observation as a moment of a match (a finished match is
        terminal and offers no action)."""
        if match.over:
            return self._with(match=match, terminal=True, to_move=TERMINAL, legal=())
        return self._with(match=match)

    def _with(self, **changes: Any) -> Observation:
        """A copy with ``changes``, all of them fields whose values are already
        checked (``dataclasses.replace`` would build the whole object anew
        through ``__init__``: a fifth of a match's ``observe``)."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, **changes)
        return copy


TERMINAL = -1
"""``to_move`` of a finished game."""


Play = tuple[int, Card]
"""A card on the table: (seat, card id)."""


def plays_json(plays: tuple[Play, ...]) -> list[list[Any]]:
    texts = CARD_TEXTS
    return [[seat, texts[c]] for seat, c in plays]


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[Play, ...]
    winner: int

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": plays_json(self.cards), "winner": self.winner}


@dataclass(frozen=True)
class DealSummary:
    """A finished deal of a match, for the score sheet."""

    number: int
    dealer: int
    counts: bool
    points: tuple[int, ...]
    lines: tuple[Mapping[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "dealer": self.dealer, "counts": self.counts,
                "points": list(self.points), "lines": [dict(line) for line in self.lines]}


@dataclass(frozen=True)
class MatchInfo:
    """What every seat knows about the match around the current deal; ``extra``
    holds a game's own match facts (team points, target, daily score …)."""

    deal_number: int
    dealer: int
    totals: tuple[int, ...]
    results: tuple[DealSummary, ...]
    over: bool
    daily: bool
    previous_deal: Observation | None
    extra: Annotated[Mapping[str, Any], FLATTENED] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Everything in it changes only when a deal ends, and the previous
        deal's observation in it was most of the cost of every view a server
        sends: it is built once per ``MatchInfo`` (a match keeps one per seat
        and deal) and kept as JSON bytes, and each call reads those into new
        objects, so a caller may change what it gets."""
        built = self.__dict__.get("_json")
        if built is None:
            built = orjson.dumps({
                "deal_number": self.deal_number,
                "dealer": self.dealer,
                "totals": list(self.totals),
                "results": [result.to_json() for result in self.results],
                "over": self.over,
                "daily": self.daily,
                "previous_deal": self.previous_deal.to_json() if self.previous_deal else None,
                **self.extra,
            }, option=orjson.OPT_NON_STR_KEYS)
            object.__setattr__(self, "_json", built)  # a cache, not a field: the value stays immutable
        data: dict[str, Any] = orjson.loads(built)
        return data

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the cached JSON (observations travel to the thinking processes)."""
        return {name: value for name, value in self.__dict__.items() if name != "_json"}
