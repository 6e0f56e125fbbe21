"""What one seat of a Doppelkopf deal may know: ``DoppelkopfObservation``.

Never shown: another hand; a reservation other than "healthy" before it wins
(others read "Vorbehalt", and a losing one stays hidden); the three poverty
cards (only giver and taker see them, the taker once he has accepted) and the
three returned (giver and taker); a team before it is public (a played Q♣, an
announcement, or a contract that fixes the teams); a silent solo before the
deal ends (it looks like a normal game to the others).

Phases, contracts, teams and outcomes are enums whose values are the stable
keys the web page receives; ``to_json()`` is the wire shape (unchanged from the
dict views of before: ``phase`` "poverty: give", ``contract`` "solo hearts" …).
Cards are faces (0..51): which copy of a double deck a seat holds is not
observable.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Iterable, Literal, Mapping

from tricktable.cards import COPY_OFFSET
from tricktable.errors import GameError
from tricktable.core.observation import Card, Observation, Play, card_texts, plays_json
from tricktable.core.protocol import ScoreLine
from tricktable.games.doppelkopf.house import table_known
from tricktable.games.doppelkopf.rules import (
    ANNOUNCE_NAMES,
    NORMAL,
    SOLO_NAMES,
    SOLO_TABLE,
    SUIT,
    TEAM_NAMES,
    TRUMP,
    TRUMP_ORDER,
)
from tricktable.games.doppelkopf.tournament import TournamentDeal


class Phase(enum.Enum):
    RESERVATIONS = "reservations"
    GIVING = "poverty: give"
    OFFERING = "poverty: offer"
    RETURNING = "poverty: return"
    PLAYING = "play"
    DONE = "done"


class Contract(enum.Enum):
    """The contract as a seat sees it (a silent solo looks ``NORMAL`` to the others)."""

    NORMAL = "normal"
    SILENT_SOLO = "silent solo"
    MARRIAGE = "marriage"
    POVERTY = "poverty"
    SOLO_CLUBS = "solo clubs"
    SOLO_SPADES = "solo spades"
    SOLO_HEARTS = "solo hearts"
    SOLO_DIAMONDS = "solo diamonds"
    SOLO_QUEENS = "solo queens"
    SOLO_JACKS = "solo jacks"
    SOLO_ACES = "solo aces"

    @classmethod
    def solo(cls, index: int) -> Contract:
        """The solo ``SOLO_NAMES[index]``."""
        return cls(f"solo {SOLO_NAMES[index]}")

    @property
    def is_solo(self) -> bool:
        return self.value.startswith("solo ")

    @property
    def table(self) -> int:
        """The rank table the contract plays with (``rules.NORMAL`` or a solo's)."""
        return SOLO_TABLE[SOLO_NAMES.index(self.value[5:])] if self.is_solo else NORMAL


class Team(enum.Enum):
    RE = "re"
    KONTRA = "kontra"


class Outcome(enum.Enum):
    RE_WON = "re_won"
    KONTRA_WON = "kontra_won"
    NOBODY_WON = "nobody_won"
    THROWN_IN = "thrown_in"


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards as (seat, face), who won, its card points."""

    leader: int
    cards: tuple[Play, ...]
    winner: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": plays_json(self.cards), "winner": self.winner, "points": self.points}


@dataclass(frozen=True)
class Marriage:
    player: int
    partner: int | None
    pending: bool
    decided_in_trick: int | None
    alone: bool

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Poverty:
    """The exchange; ``given``/``returned`` are faces, shown only to giver and taker."""

    player: int
    declined: tuple[int, ...]
    taker: int | None
    given: tuple[Card, ...] | None
    returned: tuple[Card, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "declined": list(self.declined), "taker": self.taker,
                "given": _texts(self.given), "returned": _texts(self.returned)}


@dataclass(frozen=True)
class Result:
    """A finished deal: outcome, winning team, deal value, each seat's game points, the lines."""

    outcome: Outcome
    winner: Team | None
    value: int
    points: tuple[int, ...]
    lines: tuple[ScoreLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.value, "winner": self.winner.value if self.winner else None,
                "value": self.value, "points": list(self.points), "lines": [line.to_json() for line in self.lines]}


Announced = Literal["re", "kontra", "no 90", "no 60", "no 30", "schwarz"]


@dataclass(frozen=True)
class AnnouncementsWire:
    """Each team's highest announcement on the wire (``null``: none)."""

    re: Announced | None
    kontra: Announced | None


@dataclass(frozen=True)
class DoppelkopfObservation(Observation):
    """One seat's knowledge of a deal (see the module docstring).

    ``hand`` holds faces in face order; ``reservations`` the texts as the seat
    sees them (``None``: not spoken yet, "Vorbehalt": hidden); ``levels`` the
    highest announcement per team (``RE``, ``KONTRA``; -1 for none, 0 for Re or
    Kontra, 1..4 for no 90 .. schwarz)."""

    dealer: int
    phase: Phase
    hand_sizes: tuple[int, ...]
    reservations: tuple[str | None, ...]
    contract: Contract | None
    declarer: int | None
    teams: tuple[Team | None, ...]
    levels: tuple[int, int]
    marriage: Marriage | None
    poverty: Poverty | None
    leader: int | None
    trick: tuple[Play, ...]
    tricks: tuple[Trick, ...]
    points_won: tuple[int, ...]
    tricks_won: tuple[int, ...]
    options: Mapping[str, Any]
    result: Result | None = None  # sent once the deal is over
    pigs: int | None = None  # house rules: the seat known to this seat to hold both ♦A
    superpigs: int | None = None  # and both ♦9 (without nines: ♦K), ranked above the pigs
    tournament: TournamentDeal | None = None  # the tournament list's facts (a match with the list)

    wire_hidden: ClassVar[frozenset[str]] = frozenset({"levels"})
    wire_properties: ClassVar[Mapping[str, Any]] = {
        "trumps": tuple[Card, ...] | None,  # the contract's trumps, highest first
        "announcements": AnnouncementsWire,  # ``levels`` as each team's highest announcement
    }

    @property
    def table(self) -> int:
        """The rank table of the contract as this seat sees it (normal before it is known),
        with the pigs and superpigs it knows of (house rules)."""
        if not self.contract:
            return NORMAL
        return table_known(self.contract.table, self.pigs, self.superpigs, self.options)

    def hand_json(self) -> list[str]:
        return _face_texts(self.hand)

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data.update({
            "dealer": self.dealer,
            "phase": self.phase.value,
            "hand_sizes": list(self.hand_sizes),
            "reservations": list(self.reservations),
            "contract": self.contract.value if self.contract else None,
            "trumps": card_texts(TRUMP_ORDER[self.table]) if self.contract else None,
            "declarer": self.declarer,
            "teams": [team.value if team else None for team in self.teams],
            "announcements": {name: (ANNOUNCE_NAMES[level] if level > 0 else name) if level >= 0 else None
                              for name, level in zip(TEAM_NAMES, self.levels)},
            "marriage": self.marriage.to_json() if self.marriage else None,
            "poverty": self.poverty.to_json() if self.poverty else None,
            "leader": self.leader,
            "trick": plays_json(self.trick),
            "tricks": [trick.to_json() for trick in self.tricks],
            "points_won": list(self.points_won),
            "tricks_won": list(self.tricks_won),
            "options": dict(self.options),
            "pigs": self.pigs,
            "superpigs": self.superpigs,
        })
        if self.result is not None:
            data["result"] = self.result.to_json()
        if self.tournament is not None:
            data["tournament"] = self.tournament.to_json()
        return data


def doppelkopf_observation(obs: Observation) -> DoppelkopfObservation:
    """``obs`` as a Doppelkopf observation (a ``GameError`` for another game's)."""
    if not isinstance(obs, DoppelkopfObservation):
        raise GameError(f"not a Doppelkopf observation: {type(obs).__name__}")
    return obs


def frozen_options(options: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(options))


def _texts(faces: tuple[int, ...] | None) -> list[str] | None:
    """Card texts in face order (which copy a player holds is not observable)."""
    return _face_texts(faces) if faces is not None else None


def _face_texts(faces: Iterable[int]) -> list[str]:
    return card_texts(sorted(c % COPY_OFFSET for c in faces))


@dataclass(frozen=True)
class Situation:
    """What the expert rules decide from: a seat's hand and what it has seen — all
    of it in that seat's observation (``Situation.of``); ``DoppelkopfState.situation``
    builds the same thing fast for search rollouts."""

    seat: int
    phase: Phase
    contract: Contract | None
    table: int
    hand: tuple[int, ...]  # faces in face order, a face twice when both copies are held
    trick: tuple[tuple[int, int], ...]  # (seat, face)
    seen: int  # the cards played so far or in this hand: bit f once a copy of face f, bit f + 64 both
    led_suits: int  # bit s: plain suit s led in a finished trick
    partners: frozenset[int]  # seats known to be on this seat's team (itself excluded)

    def seen_twice(self) -> int:
        """The faces of which both copies were seen."""
        return self.seen >> COPY_OFFSET

    @classmethod
    def of(cls, obs: DoppelkopfObservation) -> Situation:
        table = obs.table
        seen = seen_mask([f for trick in obs.tricks for _, f in trick.cards] + [f for _, f in obs.trick]
                         + list(obs.hand))
        led = 0
        for trick in obs.tricks:
            suit = SUIT[table][trick.cards[0][1]]
            if suit != TRUMP:
                led |= 1 << suit
        hand = tuple(sorted(c % COPY_OFFSET for c in obs.hand))
        return cls(obs.seat, obs.phase, obs.contract, table, hand, obs.trick, seen, led,
                   partners_of(obs.seat, obs.teams))


def seen_mask(cards: Iterable[int]) -> int:
    """``Situation.seen`` of these cards (ids or faces)."""
    seen = 0
    for face in cards:
        face %= COPY_OFFSET
        seen |= 1 << (face + COPY_OFFSET if seen >> face & 1 else face)
    return seen


def partners_of(seat: int, teams: tuple[Team | None, ...]) -> frozenset[int]:
    """The seats known to share ``seat``'s team."""
    mine = teams[seat]
    return frozenset(s for s in range(4) if s != seat and mine is not None and teams[s] == mine)
