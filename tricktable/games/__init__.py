"""The one registry of games: each game's spec, computer players, seating,
page renderer and rules page, in one ``GameEntry`` per game.

Adding a game is its folder (``tricktable/games/<game>/``, its bots module, its
page renderer and rules pages) plus one line in ``ENTRIES``.  Specs and bots are
named by module path and imported on first use, so a command for one game does
not pay for the others (and games stay below bots in the layers).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType, ModuleType
from typing import Any, Mapping

from tricktable.core.errors import GameError
from tricktable.core.protocol import GameSpec


class Seating(Enum):
    """Who plays with whom: how duplicate matches seat two bots, and what
    "my side" means."""

    PARTNERS_OPPOSITE = "partners opposite"
    """Fixed teams: seats 0 and 2 against 1 and 3."""
    TEAMS_PER_DEAL = "teams per deal"
    """The deal decides the teams (Doppelkopf); every seat scores for itself."""


NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})
BOTS_NO_NEW_CARDS: Mapping[str, Any] = MappingProxyType({"new_cards": "off"})
"""Court Piece's "new cards" is a person's privilege, not a bot's: the arena and
the timing tool play without it."""


@dataclass(frozen=True)
class GameEntry:
    """Everything the rest of the program needs to know to offer one game."""

    name: str
    spec_path: str
    """``module:attribute`` of the game's ``GameSpec``."""
    bots_path: str
    """The module of its computer players (see ``tricktable.bots.players``)."""
    seating: Seating
    renderer: str
    """The page's renderer module, ``web/js/games/<renderer>.js``."""
    rules_page: str
    """The rules page, ``web/rules/<lang>/<rules_page>.md``."""
    bot_options: Mapping[str, Any] = field(default_factory=lambda: NO_OPTIONS)
    """Options the arena and the timing tool play with."""
    stats: str = "Stats"
    """The ``tricktable.bots.stats`` class that summarises self-play."""
    zero_sum: bool = False
    """The rules say a deal's scores always sum to zero (the contract suite checks it)."""

    @property
    def spec(self) -> GameSpec:
        module_name, attribute = self.spec_path.split(":")
        spec: GameSpec = getattr(importlib.import_module(module_name), attribute)
        return spec

    def bots(self) -> ModuleType:
        return importlib.import_module(self.bots_path)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seating": self.seating.value, "renderer": self.renderer,
                "rules_page": self.rules_page}


_PARTNERS, _PER_DEAL = Seating.PARTNERS_OPPOSITE, Seating.TEAMS_PER_DEAL
ENTRIES: tuple[GameEntry, ...] = (
    GameEntry("euchre", "tricktable.games.euchre:SPEC", "tricktable.bots.euchre", _PARTNERS, "euchre", "euchre",
              stats="EuchreStats"),
    GameEntry("doppelkopf", "tricktable.games.doppelkopf:SPEC", "tricktable.bots.doppelkopf", _PER_DEAL,
              "doppelkopf", "doppelkopf", stats="DoppelkopfStats", zero_sum=True),
    GameEntry("double-sar", "tricktable.games.courtpiece:DOUBLE_SAR", "tricktable.bots.courtpiece", _PARTNERS,
              "courtpiece", "double-sar", BOTS_NO_NEW_CARDS, stats="CourtPieceStats"),
    GameEntry("single-sar", "tricktable.games.courtpiece:SINGLE_SAR", "tricktable.bots.courtpiece", _PARTNERS,
              "courtpiece", "single-sar", BOTS_NO_NEW_CARDS, stats="CourtPieceStats"),
    GameEntry("hidden-trump", "tricktable.games.courtpiece:HIDDEN_TRUMP", "tricktable.bots.relatives", _PARTNERS,
              "courtpiece", "hidden-trump", BOTS_NO_NEW_CARDS, stats="CourtPieceStats"),
    GameEntry("be-ranga", "tricktable.games.courtpiece:BE_RANGA", "tricktable.bots.relatives", _PARTNERS,
              "courtpiece", "be-ranga", BOTS_NO_NEW_CARDS, stats="CourtPieceStats"),
    GameEntry("mendikot", "tricktable.games.courtpiece:MENDIKOT", "tricktable.bots.relatives", _PARTNERS,
              "courtpiece", "mendikot", BOTS_NO_NEW_CARDS, stats="CourtPieceStats"),
)
REGISTRY: Mapping[str, GameEntry] = MappingProxyType({entry.name: entry for entry in ENTRIES})
GAMES: tuple[str, ...] = tuple(REGISTRY)
"""Every game's name, in the order the page offers them."""


class UnknownGame(GameError):
    pass


def entry(name: object) -> GameEntry:
    if not isinstance(name, str) or name not in REGISTRY:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    return REGISTRY[name]


def get_spec(name: object) -> GameSpec:
    return entry(name).spec
