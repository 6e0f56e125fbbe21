"""Shared machinery of the games' fast playouts (``SearchGame.playout``).

A fast playout finishes a sampled world on compact data (hands as masks, the
policy's table updated card by card) instead of ``GameState.apply`` and a table
rebuilt from the state at every step.  It models the game as its default options
play it, plus the options it names: with any other option away from its default
(another engineer's new rule, say) it declines, and the rollout stays in the real
game, which is always right.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping

from tricktable.core.protocol import GameSpec

_DEFAULTS: dict[str, Mapping[str, Any]] = {}


def defaults_of(spec: GameSpec) -> Mapping[str, Any]:
    """The game's default options (normalised once per game)."""
    known = _DEFAULTS.get(spec.name)
    if known is None:
        known = _DEFAULTS[spec.name] = dict(spec.normalize_options({}))
    return known


def models_options(spec: GameSpec, options: Mapping[str, Any], modelled: Collection[str]) -> bool:
    """Whether a playout that models ``modelled`` (and every default) plays by ``options``."""
    defaults = defaults_of(spec)
    for name, value in options.items():  # a plain loop: every rollout and rollout decision asks
        if name not in modelled and (name not in defaults or value != defaults[name]):
            return False
    return True
