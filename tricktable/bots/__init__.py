"""Computer players.  A bot gets a seat's ``Observation`` (never a state) and
returns an action in text notation."""

from __future__ import annotations

from tricktable.bots.base import BOTS, Bot, RandomBot, make_bot
from tricktable.bots.players import EasyBot, HeuristicBot, SearchBot, SearchWithoutInferenceBot, hint

BOTS.update({"heuristic": HeuristicBot, "easy": EasyBot, "search": SearchBot,
             "search-noinfer": SearchWithoutInferenceBot})

__all__ = ["BOTS", "Bot", "EasyBot", "HeuristicBot", "RandomBot", "SearchBot", "SearchWithoutInferenceBot", "hint", "make_bot"]
