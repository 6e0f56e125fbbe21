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
    """Whether a playout that models ``modelled`` (and every default) plays by ``options``.
    Every rollout asks, almost always about the one options dict a search's worlds share:
    the last answer is kept with a copy of the options it was for (so a dict changed in
    place is asked again)."""
    last = _LAST_ANSWER[0]
    if last is not None and last[0] is options and last[1] is modelled and last[2] is spec and last[3] == options:
        return last[4]
    defaults = defaults_of(spec)
    answer = True
    for name, value in options.items():
        if name not in modelled and (name not in defaults or value != defaults[name]):
            answer = False
            break
    _LAST_ANSWER[0] = (options, modelled, spec, dict(options), answer)
    return answer


_LAST_ANSWER: list[tuple[Mapping[str, Any], Collection[str], GameSpec, dict[str, Any], bool] | None] = [None]
"""(options, modelled, spec, a copy of the options, the answer) of the last question."""
