"""Search shared by every game: sample worlds consistent with an observation, try each
legal action in each world, finish the deal with a fast policy (or an exact
solver near the end), and average the results.

This is perfect-information Monte Carlo: each world is a guess at the hidden
cards, weighted by how well it explains what the others did (a game supplies
the weight).  Every action is tried on the same worlds, so differences between
actions are not drowned in the luck of the sampled deals.

The game's rules (its heuristic) are the default: search plays another action
only when that action's advantage over the rules' one, world by world, exceeds
``SWITCH_Z`` standard errors (or the game's own bar for that decision,
``SearchGame.switch_z``).  With a small budget the best-looking average is
often luck, and following it blindly played worse than the rules alone (Single
Sar at 50 ms: −0.06 ± 0.03 points per deal over 780 duplicate deals).

The card play of a rollout runs through the game's fast playout where it has one
(``SearchGame.playout``: the same rules on compact data, declining positions and
options it does not model).

Candidates that are clearly worse than the leader after a quarter of the worlds
stop there (successive halving, ``evaluate``): the remaining worlds go to the close
ones, which is where more worlds change the choice.

Determinism: the number of worlds is fixed by the budget (``worlds``), not by the
clock, so the same observation and seed give the same choice on any machine.  The clock
is only a safety stop (``hard_ms``): under a heavily loaded machine the search
ends early rather than keep a person waiting.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Callable, Sequence

from tricktable.errors import GameError
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameSpec, GameState

Policy = Callable[[GameState], int]
"""The action a fast policy takes for the seat to move in a full state."""

Leaf = Callable[[GameState, int], "float | None"]
"""An exact value for ``seat`` of a position, or None when it is too early to solve."""

Value = Callable[[GameState, int], float]
"""The value of a finished deal for ``seat``."""

Weight = Callable[[GameState, Observation, int], float]
"""How likely a sampled world is, given the observation (1 when nothing is known)."""

Playout = Callable[[GameState, int], "float | None"]
"""Finish a (sampled) state on the game's compact data and return its value for
``seat``; None when the position or the options are not modelled (the rollout then
goes on through the real game and asks again after the next action)."""

SwitchBar = Callable[[Observation, str, str], float]
"""How many standard errors of its paired advantage ``action`` needs to replace the rules'
``default`` action in this observation (a game's bar where its rules deserve more trust
than the noise of a few hundred worlds; ``SWITCH_Z`` elsewhere)."""

Veto = Callable[[Observation, str, str, Sequence[tuple[float, float]]], bool]
"""Whether ``action`` may not replace the rules' ``default`` at all, given ``action``'s
(weight, value) in each world: a risk its average hides, where the game knows its rollouts
misjudge it (a game's own rule; none by default)."""

Trial = Callable[[GameState, int, int], "float | None"]
"""The rollout value for ``seat`` of taking ``action`` in a sampled world, the world
left unchanged (a game's fast path: no clone, no ``GameState.apply``); None where the
game does not model it (then a clone takes the action and ``rollout`` finishes it)."""


@dataclass(frozen=True)
class SearchGame:
    """What search needs to know about one game."""

    spec: GameSpec
    policy: Policy
    value: Value
    leaf: Leaf | None = None
    weight: Weight | None = None
    rules: Callable[[Observation], str] | None = None
    """The game's heuristic on an observation: the default choice, and the fallback when
    no world can be sampled."""
    playout: Playout | None = None
    """The game's fast playout (the same policy and solver on compact data, without
    ``GameState.apply`` and the observation-shaped tables), where it has one."""
    trial: Trial | None = None
    """The game's fast path for a whole rollout (the action taken on its compact data,
    then its playout), where it has one: the same value as ``rollout`` after the action."""
    switch_z: SwitchBar | None = None
    """The game's bar for replacing the rules' action, where it has one (else ``SWITCH_Z``)."""
    veto: Veto | None = None
    """The game's veto on a departure from the rules that cleared the bar, where it has one."""


@dataclass
class Counter:
    count: int = 0


ROLLOUT_COUNTER = Counter()
"""Rollouts run in this process (``tricktable-lab bench --search`` reads it): one per
sampled world and candidate action, however it was finished (``_try_all``)."""


SWITCH_Z = 1.0
"""How many standard errors of its paired advantage an action needs to replace
the rules' action."""


@dataclass(frozen=True)
class Estimate:
    """An action's expected value (in the game's points for the seat's side)."""

    action: str
    value: float
    worlds: int


@dataclass(frozen=True)
class Evaluation:
    """Every candidate's estimate (best average first) and the action search plays:
    the rules' one unless another is clearly better; None when no world could be
    sampled."""

    estimates: list[Estimate]
    choice: str | None


def team_value(state: GameState, seat: int) -> float:
    """A finished deal of a partnership game for ``seat``: his team's points
    minus the other team's (partners sit opposite)."""
    points = state.returns()
    return float(points[seat] - points[(seat + 1) % 4])


def rollout(state: GameState, game: SearchGame, seat: int) -> float:
    """Finish ``state`` with the policy (in place) and return its value for ``seat``:
    through the game's fast playout from the first position it models."""
    leaf, policy, playout = game.leaf, game.policy, game.playout
    while not state.is_terminal():
        if playout is not None:
            fast = playout(state, seat)
            if fast is not None:
                return fast
        if leaf is not None:
            exact = leaf(state, seat)
            if exact is not None:
                return exact
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])  # a forced move needs no policy (every policy plays it)
        elif legal:
            state.apply(policy(state))
        else:  # only the referee can act (a timeout rule)
            state.apply_referee(state.referee_actions()[0])
    return game.value(state, seat)


HALVING_SHARE = 4
"""Every candidate is tried on the first ``worlds // HALVING_SHARE`` worlds (at least
``HALVING_MIN``); after that only those not clearly worse than the leader go on."""
HALVING_MIN = 8
DROP_Z = 2.0
"""A candidate whose paired deficit to the leader exceeds this many standard errors
is dropped (the rules' action never is)."""


def evaluate(
    game: SearchGame,
    obs: Observation,
    rng: random.Random,
    worlds: int,
    hard_ms: float = 900.0,
    actions: Sequence[str] | None = None,
) -> Evaluation:
    """Expected value of each action (default: every legal one) and the choice.

    Successive halving: once every candidate has its share of worlds, the ones
    clearly worse than the leader stop there (their estimates keep the worlds they
    had), and the remaining worlds go to the close ones only."""
    deadline = time.perf_counter() + hard_ms / 1000
    seat = obs.seat
    actions = list(actions if actions is not None else obs.legal)
    default = game.rules(obs) if game.rules else None
    keep = actions.index(default) if default in actions else -1
    live = list(range(len(actions)))
    checkpoint = max(HALVING_MIN, worlds // HALVING_SHARE)
    samples: list[tuple[float, list[float | None]]] = []  # (weight, each action's value) per world
    codes: dict[str, int] = {}  # each candidate parsed once: the worlds share the game and its options
    for _ in range(worlds):
        if samples and time.perf_counter() > deadline:
            break  # past the hard stop: do not even sample another world
        world = _sample(game, obs, rng)
        if world is None:
            break
        weight = game.weight(world, obs, seat) if game.weight else 1.0
        values = _try_all(game, world, seat, [actions[i] for i in live], deadline if samples else None, codes)
        if values is None:
            break  # past the hard stop: this world is dropped, the others stand
        row: list[float | None] = [None] * len(actions)
        for i, value in zip(live, values):
            row[i] = value
        samples.append((weight, row))
        if len(samples) == checkpoint and len(live) > 2:
            live = _close_ones(samples, live, keep)
    estimates = [_estimate(a, i, samples) for i, a in enumerate(actions)]
    if len(live) < len(actions) and samples:
        estimates = _comparable(estimates, samples, live)
    # Ties go to the earlier legal action, so the order is deterministic.
    order = {a: i for i, a in enumerate(actions)}
    estimates.sort(key=lambda e: (-round(e.value, 9), order[e.action]))
    if not samples:
        return Evaluation(estimates, None)
    best = next(e.action for e in estimates if order[e.action] in live)
    bar = game.switch_z(obs, best, default) if game.switch_z is not None and default is not None else SWITCH_Z
    choice = _choose(actions, samples, best, default, bar)
    if default is not None and choice != default and _vetoed(game, obs, actions, samples, choice, default):
        choice = default
    return Evaluation(estimates, choice)


def _vetoed(game: SearchGame, obs: Observation, actions: Sequence[str],
            samples: Sequence[tuple[float, list[float | None]]], choice: str, default: str) -> bool:
    """The game's ``veto`` on ``choice`` replacing ``default``, given ``choice``'s values."""
    if game.veto is None:
        return False
    index = actions.index(choice)
    return game.veto(obs, choice, default, [(w, tried) for w, v in samples if (tried := v[index]) is not None])


def _estimate(action: str, i: int, samples: Sequence[tuple[float, list[float | None]]]) -> Estimate:
    """The weighted mean of action ``i`` over the worlds it was tried in."""
    tried = [(w, v[i]) for w, v in samples if v[i] is not None]
    weight_sum = sum(w for w, _ in tried)
    scale = 1.0 / weight_sum if weight_sum else 0.0
    return Estimate(action, scale * sum(w * value for w, value in tried if value is not None), len(tried))


def _comparable(estimates: list[Estimate], samples: Sequence[tuple[float, list[float | None]]],
                live: Sequence[int]) -> list[Estimate]:
    """The dropped candidates' estimates on the live leader's scale: the leader's mean
    over all its worlds plus the candidate's paired difference to it over the worlds
    both were tried in.  A dropped candidate's own mean covers only the first worlds,
    whose luck differs from the rest: compared raw with the others it could look better
    than an action that beat it world by world (the hint's list was then out of order).
    The live candidates share every world and keep their means; a dropped one's paired
    deficit was clearly negative, so it stays below the leader and no choice changes."""
    leader = max(live, key=lambda i: (round(estimates[i].value, 9), -i))
    out = list(estimates)
    for i, estimate in enumerate(estimates):
        if i in live:
            continue
        pairs = [(w, a - b) for w, v in samples if (a := v[i]) is not None and (b := v[leader]) is not None]
        total = sum(w for w, _ in pairs)
        if total > 0:
            difference = sum(w * d for w, d in pairs) / total
            out[i] = Estimate(estimate.action, estimates[leader].value + difference, estimate.worlds)
    return out


def _paired(samples: Sequence[tuple[float, list[float | None]]], i: int, j: int) -> tuple[float, float] | None:
    """The weighted mean of (action i − action j) over the worlds and its standard
    error; None with fewer than two effective worlds."""
    pairs = [(w, a - b) for w, v in samples if (a := v[i]) is not None and (b := v[j]) is not None]
    total = sum(w for w, _ in pairs)
    squares = sum(w * w for w, _ in pairs)
    effective = total * total / squares if squares else 0.0
    if effective < 2:
        return None
    mean = sum(w * d for w, d in pairs) / total
    variance = sum(w * (d - mean) ** 2 for w, d in pairs) / total
    return mean, math.sqrt(variance / (effective - 1))


def _close_ones(samples: Sequence[tuple[float, list[float | None]]], live: Sequence[int], keep: int) -> list[int]:
    """The candidates of ``live`` not clearly worse than the leader, and ``keep``."""
    means = {i: _estimate("", i, samples).value for i in live}
    leader = max(live, key=lambda i: (round(means[i], 9), -i))
    close = []
    for i in live:
        paired = _paired(samples, i, leader) if i not in (leader, keep) else None
        if paired is None or paired[0] + DROP_Z * paired[1] >= 0:
            close.append(i)
    return close


def _choose(actions: Sequence[str], samples: Sequence[tuple[float, Sequence[float | None]]], best: str,
            default: str | None, bar: float = SWITCH_Z) -> str:
    """``best`` if its paired advantage over ``default`` exceeds ``bar`` standard errors,
    else ``default``."""
    if default is None or default not in actions or best == default:
        return best
    paired = _paired([(w, list(v)) for w, v in samples], actions.index(best), actions.index(default))
    if paired is None:
        return default
    mean, stderr = paired
    return best if mean > bar * stderr else default


SAMPLE_TRIES = 1


def _sample(game: SearchGame, obs: Observation, rng: random.Random) -> GameState | None:
    """A sampled world, or None when the game's sampler finds none (then the
    search stands on the worlds it has, or the caller falls back to the rules)."""
    for _ in range(SAMPLE_TRIES):
        try:
            return game.spec.sample_world(obs, rng)
        except GameError:
            continue
    return None


def _try_all(game: SearchGame, world: GameState, seat: int, actions: Sequence[str],
             deadline: float | None, codes: dict[str, int]) -> list[float] | None:
    """Each action's rollout value in one world; None once past ``deadline``.
    ``codes`` caches the actions' parsed codes across the worlds of one search.
    The game's ``trial`` leaves the world as it is; otherwise the last action is tried
    on the world itself (nobody reads it afterwards)."""
    values = []
    last = len(actions) - 1
    for index, text in enumerate(actions):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        code = codes.get(text)
        if code is None:
            code = codes[text] = world.parse_action(text)
        value = game.trial(world, seat, code) if game.trial is not None else None
        if value is None:
            trial = world.clone() if index < last else world
            trial.apply_for(seat, code)
            value = rollout(trial, game, seat)
        values.append(value)
        ROLLOUT_COUNTER.count += 1
    return values


def best_action(game: SearchGame, obs: Observation, rng: random.Random, worlds: int,
                hard_ms: float = 900.0, actions: Sequence[str] | None = None) -> str:
    actions = list(actions if actions is not None else obs.legal)
    if len(actions) == 1:
        return actions[0]
    choice = evaluate(game, obs, rng, worlds, hard_ms, actions).choice
    return choice if choice is not None else fallback(game, obs, actions)


def fallback(game: SearchGame, obs: Observation, actions: Sequence[str]) -> str:
    """No world could be sampled: the game's rules decide (``game.rules``), else
    the first candidate."""
    return game.rules(obs) if game.rules else actions[0]
