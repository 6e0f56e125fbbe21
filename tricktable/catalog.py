"""The catalog of games: each game's spec, seating, page renderer and rules page, in
one ``GameEntry`` per game, and how to replay a record of any of them.

It sits above the games and the computer players: it names both.  Adding a game is
its folder (``tricktable/games/<game>/``), its bots module (named in
``tricktable.bots.players.GAME_BOTS``), its page renderer and rules pages, plus one
line in ``ENTRIES``.  Specs are named by module path and imported on first use, so
a command for one game does not pay for the others.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType, ModuleType
from typing import Any, Mapping

from tricktable.core import record as records
from tricktable.core.match import MatchState
from tricktable.core.protocol import GameSpec, GameState
from tricktable.core.summary import GameFacts, GameSummary, summarize
from tricktable.errors import UnknownGame as UnknownGame  # the catalog's error, at the ground with the others
from tricktable.errors import RecordError


class Seating(Enum):
    """Who plays with whom: how duplicate matches seat two bots, and what
    "my side" means."""

    PARTNERS_OPPOSITE = "partners opposite"
    """Fixed teams: seats 0 and 2 against 1 and 3."""
    TEAMS_PER_DEAL = "teams per deal"
    """The deal decides the teams (Doppelkopf); every seat scores for itself."""


NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})
BOTS_NO_NEW_CARDS: Mapping[str, Any] = MappingProxyType({"new_cards": "off"})
"""Court Piece's "new cards" is a person's privilege, not a bot's: the lab's arena
and timing tool play without it."""


@dataclass(frozen=True)
class GameEntry:
    """Everything the rest of the program needs to know to offer one game."""

    name: str
    spec_path: str
    """``module:attribute`` of the game's ``GameSpec``."""
    seating: Seating
    renderer: str
    """The page's renderer module, ``web/js/games/<renderer>.js``."""
    rules_page: str
    """The rules page, ``web/rules/<lang>/<rules_page>.md``."""
    bot_options: Mapping[str, Any] = field(default_factory=lambda: NO_OPTIONS)
    """Options the lab's arena and timing tool play with."""
    zero_sum: bool = False
    """The rules say a deal's scores always sum to zero (the contract suite checks it)."""
    facts_path: str = ""
    """``module:attribute`` of the ``core.summary.GameFacts`` its statistics count
    (the game family's ``summary`` module)."""

    @property
    def spec(self) -> GameSpec:
        module_name, attribute = self.spec_path.split(":")
        spec: GameSpec = getattr(importlib.import_module(module_name), attribute)
        return spec

    @property
    def facts(self) -> GameFacts:
        module_name, attribute = self.facts_path.split(":")
        facts: GameFacts = getattr(importlib.import_module(module_name), attribute)
        return facts

    def bots(self) -> ModuleType:
        """The module of its computer players (see ``tricktable.bots.players``)."""
        from tricktable.bots.players import game_module  # imported on first use, as the specs are

        return game_module(self.name)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seating": self.seating.value, "renderer": self.renderer,
                "rules_page": self.rules_page}


_PARTNERS, _PER_DEAL = Seating.PARTNERS_OPPOSITE, Seating.TEAMS_PER_DEAL
_EUCHRE_FACTS = "tricktable.games.euchre.summary:FACTS"
_DOPPELKOPF_FACTS = "tricktable.games.doppelkopf.summary:FACTS"
_COURT_PIECE_FACTS = "tricktable.games.courtpiece.summary:FACTS"
ENTRIES: tuple[GameEntry, ...] = (
    GameEntry("euchre", "tricktable.games.euchre:SPEC", _PARTNERS, "euchre", "euchre", facts_path=_EUCHRE_FACTS),
    GameEntry("doppelkopf", "tricktable.games.doppelkopf:SPEC", _PER_DEAL,
              "doppelkopf", "doppelkopf", zero_sum=True, facts_path=_DOPPELKOPF_FACTS),
    GameEntry("double-sar", "tricktable.games.courtpiece:DOUBLE_SAR", _PARTNERS,
              "courtpiece", "double-sar", BOTS_NO_NEW_CARDS, facts_path=_COURT_PIECE_FACTS),
    GameEntry("single-sar", "tricktable.games.courtpiece:SINGLE_SAR", _PARTNERS,
              "courtpiece", "single-sar", BOTS_NO_NEW_CARDS, facts_path=_COURT_PIECE_FACTS),
    GameEntry("hidden-trump", "tricktable.games.courtpiece:HIDDEN_TRUMP", _PARTNERS,
              "courtpiece", "hidden-trump", BOTS_NO_NEW_CARDS, facts_path=_COURT_PIECE_FACTS),
    GameEntry("be-ranga", "tricktable.games.courtpiece:BE_RANGA", _PARTNERS,
              "courtpiece", "be-ranga", BOTS_NO_NEW_CARDS, facts_path=_COURT_PIECE_FACTS),
    GameEntry("mendikot", "tricktable.games.courtpiece:MENDIKOT", _PARTNERS,
              "courtpiece", "mendikot", BOTS_NO_NEW_CARDS, facts_path=_COURT_PIECE_FACTS),
)
REGISTRY: Mapping[str, GameEntry] = MappingProxyType({entry.name: entry for entry in ENTRIES})
GAMES: tuple[str, ...] = tuple(REGISTRY)
"""Every game's name, in the order the page offers them."""


def entry(name: object) -> GameEntry:
    if not isinstance(name, str) or name not in REGISTRY:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    return REGISTRY[name]


def get_spec(name: object) -> GameSpec:
    return entry(name).spec


def parse_record(data: Any) -> records.GameRecord:
    """``core.record.parse_record`` with the specs of every game in the catalog."""
    return records.parse_record(data, get_spec)


def replay(record: records.GameRecord | Mapping[str, Any] | str) -> GameState:
    """``core.record.replay`` with the specs of every game in the catalog."""
    return records.replay(record, get_spec)


def summarize_record(record: records.GameRecord | Mapping[str, Any] | str, seat: int) -> GameSummary:
    """A finished match record summarised for ``seat``'s statistics, by its
    game's own ``GameFacts``: the one replay its statistics ever cost."""
    parsed = record if isinstance(record, records.GameRecord) else parse_record(record)
    match, deals = records.replay_deals(parsed, get_spec)
    if not isinstance(match, MatchState) or not match.over:
        raise RecordError("only a finished match is summarised")
    return summarize(match, deals, seat, entry(parsed.game).facts)
