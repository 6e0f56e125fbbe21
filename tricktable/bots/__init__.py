"""Computer players.  A bot gets a seat's view (a dict, never a state) and
returns an action in text notation."""

from __future__ import annotations

from tricktable.bots.base import BOTS, Bot, RandomBot, make_bot

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
