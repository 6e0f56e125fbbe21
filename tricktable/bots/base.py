"""The bot interface and the uniform random bot."""

from __future__ import annotations

import random
from typing import Any, Callable

from tricktable.core.errors import GameError
from tricktable.core.observation import Observation


class Bot:
    """Decides from an observation alone.  The same observation and seed give
    the same choice."""

    name = "bot"

    def __init__(self, seed: str = "bot", budget_ms: float = 250.0):
        self.seed = seed
        self.budget_ms = budget_ms

    def rng_for(self, obs: Observation) -> random.Random:
        """A generator fixed by the seed and the position (not by call order)."""
        position = f"{self.seed}|{obs.seat}|{len(obs.actions)}|{obs.hand_texts()}"
        return random.Random(position)

    def choose(self, obs: Observation) -> str:
        raise NotImplementedError


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, obs: Observation) -> str:
        if not obs.legal:
            raise GameError("the bot was asked to move but has no legal action")
        return self.rng_for(obs).choice(obs.legal)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: str = "bot", **settings: Any) -> Bot:
    if name not in BOTS:
        raise GameError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    return BOTS[name](seed=seed, **settings)
