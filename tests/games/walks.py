"""A random walk through a deal that checks a state's kept parts as it goes (the
``test_seen`` modules of the games that keep their views' texts and tricks)."""

from __future__ import annotations

import random
from typing import Callable, TypeVar

from tricktable.core.protocol import GameState

State = TypeVar("State", bound=GameState)


def walk_with_clones(state: State, rng: random.Random, step: Callable[[State, random.Random], None],
                     check: Callable[[State], None], clone_share: float, clone_steps: int) -> int:
    """Play ``state`` to its end with ``step``, calling ``check`` at about half the
    steps (observed at some steps only, the kept part grows by several actions at
    once) and on clones, at ``clone_share`` of the steps, that share what was kept and
    then go their own way for up to ``clone_steps`` actions; then once at the end.
    How many times ``state`` itself was checked before its end."""
    checked = 0
    while not state.is_terminal():
        if rng.random() < 0.5:
            check(state)
            checked += 1
        if rng.random() < clone_share:
            twin = state.clone()
            for _ in range(rng.randrange(1, clone_steps)):
                if twin.is_terminal():
                    break
                step(twin, rng)
            check(twin)
        step(state, rng)
    check(state)
    return checked
