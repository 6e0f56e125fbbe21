"""The registry of games: name -> the module attribute holding its ``GameSpec``.

Games are imported lazily so that a command for one game does not pay for the
others.
"""

from __future__ import annotations

import importlib

from tricktable.core.errors import GameError
from tricktable.core.protocol import GameSpec

GAMES: dict[str, str] = {
    "euchre": "tricktable.games.euchre:SPEC",
    "doppelkopf": "tricktable.games.doppelkopf:SPEC",
    "double-sar": "tricktable.games.courtpiece:DOUBLE_SAR",
    "single-sar": "tricktable.games.courtpiece:SINGLE_SAR",
    "hidden-trump": "tricktable.games.courtpiece:HIDDEN_TRUMP",
    "be-ranga": "tricktable.games.courtpiece:BE_RANGA",
    "mendikot": "tricktable.games.courtpiece:MENDIKOT",
}


class UnknownGame(GameError):
    pass


def get_spec(name: object) -> GameSpec:
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    module_name, attribute = GAMES[name].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            raise UnknownGame(f"{name} is not available yet") from None
        raise
    spec = getattr(module, attribute, None)
    if spec is None:
        raise UnknownGame(f"{name} is not available yet")
    return spec


def available_games() -> list[str]:
    names = []
    for name in GAMES:
        try:
            get_spec(name)
        except UnknownGame:
            continue
        names.append(name)
    return names
