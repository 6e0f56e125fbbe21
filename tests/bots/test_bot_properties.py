"""Properties every bot keeps: legal actions only, observations only, determinism."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.bots import euchre as eb
from tricktable.bots import make_bot
from tricktable.bots.search import rollout
from tricktable.core.rng import derive_seed
from tricktable.games.euchre import SPEC, EuchreState

OPTIONS = SPEC.normalize_options({})


def random_position(seed: int, steps: int, farmers: bool = False) -> EuchreState:
    """A deal after ``steps`` uniformly random legal actions (or its end)."""
    options = SPEC.normalize_options({"farmers_hand": farmers})
    state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("prop", seed), seed % 4, options), options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(list(state.legal_actions())))
    return state


@settings(max_examples=150)
@given(st.integers(0, 10**6), st.integers(0, 30), st.booleans())
def test_heuristic_never_produces_an_illegal_action(seed, steps, farmers):
    state = random_position(seed, steps, farmers)
    if state.is_terminal():
        return
    obs = state.observe(state.to_move)
    assert make_bot("heuristic").choose(obs) in obs.legal


@settings(max_examples=25)
@given(st.integers(0, 10**6), st.integers(0, 30))
def test_search_never_produces_an_illegal_action(seed, steps):
    state = random_position(seed, steps)
    if state.is_terminal():
        return
    obs = state.observe(state.to_move)
    assert make_bot("search", budget_ms=10).choose(obs) in obs.legal


def test_search_decides_the_same_for_the_same_observation_and_seed():
    for seed in range(6):
        state = random_position(seed, 3 + seed * 4)
        if state.is_terminal():
            continue
        obs = state.observe(state.to_move)
        choices = {make_bot("search", seed="s", budget_ms=40).choose(obs) for _ in range(2)}
        assert len(choices) == 1


def test_search_cannot_see_hidden_cards():
    """Two deals that differ only in the opponents' hidden cards look the same to
    seat 1, so the search bot (same seed) must decide the same in both."""
    base = {"dealer": 0, "hands": ["9C 10C QC KC AC", "JS JC AD 9H 10D", "9D JD QD KD AH", "10S QS KS AS 10H"],
            "rest": "9S JH QH KH"}
    swapped = {**base, "hands": ["10S QS KS AS 10H", "JS JC AD 9H 10D", "9D JD QD KD AH", "9C 10C QC KC AC"]}
    observations = [SPEC.new_deal(SPEC.deal_from_json(d), OPTIONS).observe(1) for d in (base, swapped)]
    assert observations[0] == observations[1]
    bot = make_bot("search", seed="same", budget_ms=40)
    assert bot.choose(observations[0]) == bot.choose(observations[1])


def brute_force(state: EuchreState, seat: int) -> float:
    if state.is_terminal():
        return eb.seat_value(state, seat)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(brute_force(child, seat))
    return max(values) if state.to_move % 2 == seat % 2 else min(values)


def test_end_of_hand_solver_agrees_with_exhaustive_minimax():
    rng = random.Random(7)
    checked = 0
    for index in range(120):
        state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("solve", index), index % 4, OPTIONS), OPTIONS)
        target = rng.randint(2, 4)
        while not state.is_terminal() and (len(state.tricks) < 2 or len(state.tricks) * 4 + len(state.trick) < target * 4):
            state.apply(eb.heuristic_action(state) if state.phase != eb.PLAYING else rng.choice(list(state.legal_actions())))
        if state.is_terminal():
            continue
        checked += 1
        assert eb.exact_value(state, state.to_move) == brute_force(state, state.to_move)
    assert checked > 60


def test_end_of_hand_solver_agrees_with_exhaustive_minimax_against_a_lone_defender():
    """Option "defend alone": two players a trick, two seats sitting out, a lone
    euchre worth 4."""
    options = SPEC.normalize_options({"defend_alone": True})
    rng = random.Random(8)
    checked = 0
    for index in range(80):
        state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("lone", index), index % 4, options), options)
        tricks = rng.randint(2, 4)
        while not state.is_terminal() and len(state.tricks) < tricks:
            if state.phase == eb.ALONE_CHOICE:
                state.apply(eb.ALONE)
            elif state.phase == eb.DEFEND_CHOICE:
                state.apply(eb.DEFEND_ALONE)
            else:
                state.apply(eb.heuristic_action(state) if state.phase != eb.PLAYING else rng.choice(list(state.legal_actions())))
        if state.is_terminal() or state.lone_defender < 0:
            continue
        checked += 1
        assert eb.exact_value(state, state.to_move) == brute_force(state, state.to_move)
    assert checked > 40


def test_rollouts_play_the_rules_for_two_tricks_and_solve_the_last_three():
    """``SOLVE_TRICKS``: a rollout from the first lead plays the rules' cards for two
    tricks and solves the last three with every hand open, so its value is the exact
    value of the position the rules reach after two tricks, not of the first lead's."""
    assert eb.SOLVE_TRICKS == 3
    differ = 0
    for index in range(60):
        state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("solve-three", index), index % 4, OPTIONS), OPTIONS)
        while state.phase != eb.PLAYING:
            state.apply(eb.heuristic_action(state))
        seat = state.to_move
        after_two = state.clone()
        while len(after_two.tricks) < 2:
            after_two.apply(eb.heuristic_action(after_two))
        assert eb.solved_value(state, seat) is None
        assert eb.solved_value(after_two, seat) == eb.exact_value(after_two, seat)
        assert rollout(state.clone(), eb.SEARCH, seat) == eb.exact_value(after_two, seat)
        differ += eb.exact_value(state, seat) != eb.exact_value(after_two, seat)
    assert differ > 0  # the rules' two tricks are not always best play


def test_rollout_with_the_solver_scores_like_the_deal_played_out():
    """Once trump is made and only a trick is left, solver and play agree."""
    for index in range(40):
        state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("last", index), 0, OPTIONS), OPTIONS)
        while not state.is_terminal() and len(state.tricks) < 4:
            state.apply(eb.heuristic_action(state))
        if state.is_terminal():
            continue
        seat = state.to_move
        exact = rollout(state.clone(), eb.SEARCH, seat)
        played = state.clone()
        while not played.is_terminal():
            played.apply(played.legal_actions()[0])
        assert exact == eb.seat_value(played, seat)


def test_search_falls_back_to_the_rules_when_no_world_can_be_sampled(monkeypatch):
    from tricktable.core.sampling import SamplingError

    def no_world(obs, rng):
        raise SamplingError("the view's constraints cannot all hold")

    state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("fallback", 1), 0, OPTIONS), OPTIONS)
    obs = state.observe(state.to_move)
    monkeypatch.setattr(eb.SEARCH.spec, "sample_world", no_world)
    assert make_bot("search", budget_ms=20).choose(obs) == make_bot("heuristic").choose(obs)
