"""The shared search: the rules' action unless another is clearly better, and the hard stop."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tricktable.bots import search
from tricktable.bots.search import SWITCH_Z, _choose
from tricktable.core.observation import Observation

ACTIONS = ["play AS", "play 9S"]


def samples(diffs: list[float], weights: list[float] | None = None) -> list[tuple[float, list[float]]]:
    """Worlds where ``play 9S`` (the rules' action) scores 0 and ``play AS`` the diff."""
    return [(w, [d, 0.0]) for w, d in zip(weights or [1.0] * len(diffs), diffs)]


def test_a_clear_advantage_replaces_the_rules_action():
    assert _choose(ACTIONS, samples([1.0, 2.0, 1.0, 1.0]), "play AS", "play 9S") == "play AS"


def test_an_advantage_within_the_noise_keeps_the_rules_action():
    # Mean +0.4 from diffs ±2: far less than one standard error.
    assert _choose(ACTIONS, samples([2.0, -2.0, 2.0, -2.0, 2.0]), "play AS", "play 9S") == "play 9S"


def test_the_threshold_is_one_standard_error_of_the_paired_advantage():
    assert SWITCH_Z == 1.0
    # Mean +0.25, standard deviation 0.75: with 8 worlds the standard error is
    # 0.75 / √7 = 0.28 (not clear), with 16 worlds 0.75 / √15 = 0.19 (clear).
    assert _choose(ACTIONS, samples([1.0, -0.5] * 4), "play AS", "play 9S") == "play 9S"
    assert _choose(ACTIONS, samples([1.0, -0.5] * 8), "play AS", "play 9S") == "play AS"


def test_one_heavy_world_is_not_evidence():
    # Effective number of worlds below two: keep the rules.
    assert _choose(ACTIONS, samples([3.0, -1.0], [1.0, 0.001]), "play AS", "play 9S") == "play 9S"


def test_without_rules_or_when_they_agree_the_best_average_plays():
    assert _choose(ACTIONS, samples([0.1, -5.0]), "play AS", None) == "play AS"
    assert _choose(ACTIONS, samples([0.1, -5.0]), "play AS", "play AS") == "play AS"
    assert _choose(ACTIONS, samples([0.1, -5.0]), "play AS", "play KS") == "play AS"  # not a candidate


class Clock:
    """A fake ``time.perf_counter``: sampling a world takes 1 ms, a rollout 10 ms."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_hard_stop_samples_no_world_after_it(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(search.time, "perf_counter", clock)
    calls = []

    class Spec:
        def sample_world(self, obs, rng):
            calls.append(clock.now)
            clock.now += 0.001
            return Finished()

    class Finished:
        def clone(self):
            return self

        def parse_action(self, text):
            return text

        def apply_for(self, seat, action):
            clock.now += 0.010

        def is_terminal(self):
            return True

    game = search.SearchGame(Spec(), policy=lambda s: 0, value=lambda s, seat: 0.0)
    obs = Observation("test", seat=0, to_move=0, hand=(), actions=(), legal=("a", "b"), terminal=False)
    evaluation = search.evaluate(game, obs, random.Random(1), worlds=100, hard_ms=35, actions=["a", "b"])
    # World 1: sampled at 0 ms, rolled out until 21 ms.  World 2: sampled at
    # 21 ms, its second rollout ends at 42 ms, past the 35 ms stop: no third
    # world is sampled (its rollouts would be dropped anyway).
    assert evaluation.estimates[0].worlds == 2
    assert calls == pytest.approx([0.0, 0.021])


def test_a_higher_bar_keeps_the_rules_action_at_an_advantage_one_standard_error_clears():
    # Mean +0.25, standard error 0.19 over 16 worlds (1.3 standard errors); over 64
    # worlds 0.75 / √63 = 0.094 (2.7 standard errors).
    assert _choose(ACTIONS, samples([1.0, -0.5] * 8), "play AS", "play 9S", bar=2.0) == "play 9S"
    assert _choose(ACTIONS, samples([1.0, -0.5] * 32), "play AS", "play 9S", bar=2.0) == "play AS"


class Alternating:
    """A finished world where ``bid`` scores +1 or -0.5 (alternately by world) and ``pass`` 0."""

    count = 0

    def __init__(self, index: int) -> None:
        self.index, self.action = index, ""

    def clone(self) -> "Alternating":
        return Alternating(self.index)

    def parse_action(self, text: str) -> str:
        return text

    def apply_for(self, seat: int, action: str) -> None:
        self.action = action

    def is_terminal(self) -> bool:
        return True

    def value(self) -> float:
        return 0.0 if self.action == "pass" else (1.0 if self.index % 2 else -0.5)


def _alternating_game(switch_z=None) -> search.SearchGame:
    class Spec:
        def sample_world(self, obs, rng):
            Alternating.count += 1
            return Alternating(Alternating.count)

    return search.SearchGame(Spec(), policy=lambda s: 0, value=lambda state, seat: state.value(),
                             rules=lambda obs: "pass", switch_z=switch_z)


def test_the_games_bar_decides_whether_search_departs_from_the_rules():
    obs = Observation("test", seat=0, to_move=0, hand=(), actions=(), legal=("pass", "bid"), terminal=False)
    asked = []

    def bar(seen, action, default):
        asked.append((seen, action, default))
        return 2.0

    # +0.25 ± 0.19 over 16 worlds: one standard error is cleared, two are not.
    assert search.evaluate(_alternating_game(), obs, random.Random(1), worlds=16).choice == "bid"
    assert search.evaluate(_alternating_game(bar), obs, random.Random(1), worlds=16).choice == "pass"
    assert asked == [(obs, "bid", "pass")]
    assert search.evaluate(_alternating_game(bar), obs, random.Random(1), worlds=64).choice == "bid"


def test_the_games_veto_keeps_the_rules_action_after_the_bar_is_cleared():
    # "bid" clears the default bar over 64 worlds (+0.25 ± 0.09); a veto that refuses it
    # leaves the rules' "pass", and it is asked with the bid's (weight, value) per world.
    obs = Observation("test", seat=0, to_move=0, hand=(), actions=(), legal=("pass", "bid"), terminal=False)
    asked = []

    def veto(seen, action, default, values):
        asked.append((seen, action, default, sorted(set(values))))
        return True

    vetoing = replace(_alternating_game(), veto=veto)
    assert search.evaluate(_alternating_game(), obs, random.Random(1), worlds=64).choice == "bid"
    assert search.evaluate(vetoing, obs, random.Random(1), worlds=64).choice == "pass"
    assert asked == [(obs, "bid", "pass", [(1.0, -0.5), (1.0, 1.0)])]
