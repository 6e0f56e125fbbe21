"""The bot interface and the uniform random bot."""

from __future__ import annotations

import random
from typing import Any, Callable, Collection, Sequence

from tricktable.errors import GameError
from tricktable.core.observation import Observation


class Bot:
    """Decides from an observation alone.  The same observation and seed give
    the same choice.  ``choose(obs, among)`` picks one of ``among`` (a subset
    of ``obs.legal``) where given: an outside referee may allow fewer actions."""

    name = "bot"

    def __init__(self, seed: str = "bot", budget_ms: float = 250.0):
        self.seed = seed
        self.budget_ms = budget_ms

    def rng_for(self, obs: Observation) -> random.Random:
        """A generator fixed by the seed and the position (not by call order)."""
        position = f"{self.seed}|{obs.seat}|{len(obs.actions)}|{obs.hand_texts()}"
        return random.Random(position)

    def choose(self, obs: Observation, among: Sequence[str] | None = None) -> str:
        raise NotImplementedError


def allowed(obs: Observation, among: Sequence[str] | None) -> list[str]:
    """The actions a bot may choose from: ``among`` (each of them legal), else every legal one."""
    if among is None:
        choices = list(obs.legal)
    else:
        choices = list(among)
        illegal = [text for text in choices if text not in obs.legal]
        if illegal:
            raise GameError(f"not legal here: {', '.join(illegal)}")
    if not choices:
        raise GameError("the bot was asked to move but has no action to choose from")
    return choices


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, obs: Observation, among: Sequence[str] | None = None) -> str:
        return self.rng_for(obs).choice(allowed(obs, among))


def note_trick(voids: list[int], plays: Sequence[tuple[int, int]], suit_of: Sequence[int]) -> int:
    """Mark in ``voids[seat]`` (bit = suit) every seat that did not follow the led
    suit of ``plays`` ((seat, card) in play order; ``suit_of[card]`` is the suit a
    card follows, e.g. with the bowers moved to trump); the trick's cards as a mask."""
    led = suit_of[plays[0][1]]
    mask = 0
    for seat, c in plays:
        mask |= 1 << c
        if suit_of[c] != led:
            voids[seat] |= 1 << led
    return mask


def strongest_play(beats: Callable[[int, int, int], bool], table: int,
                   trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The (seat, card) that holds ``trick`` so far: a later play wins only if
    ``beats(table, card, best)`` (``table`` is the game's trump or contract index)."""
    best = trick[0]
    for play in trick[1:]:
        if beats(table, play[1], best[1]):
            best = play
    return best


def opponents(seat: int, seats: Sequence[int]) -> list[int]:
    """Those of ``seats`` on the other team (partners sit opposite)."""
    return [s for s in seats if s % 2 != seat % 2]


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: str = "bot", **settings: Any) -> Bot:
    if name not in BOTS:
        raise GameError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    return BOTS[name](seed=seed, **settings)


def spare_partners_trick(legal: Sequence[str], seat: int, holder: int, last: bool,
                         trumps: Collection[str]) -> list[str]:
    """The candidates without the ``trumps`` among them when ``seat`` plays ``last`` to
    a trick its partner (``holder``, opposite) holds and could throw off instead:
    trumping a partner's sure trick spends a trump and wins nothing for the team, and
    players count it a fault however search's sampled worlds weigh it (a behaviour a player
    respects; search did so now and then in Be-Ranga and Double Sar)."""
    kept = [text for text in legal if text not in trumps]
    if last and holder == (seat + 2) % 4 and any(text.startswith("play ") for text in kept):
        return kept
    return list(legal)
