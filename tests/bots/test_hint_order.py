"""The hint's list is ordered by the value it shows, in every game, and its values are on
one scale: a candidate dropped early by the search is compared world by world with
the leader, not by the mean of its own first (luckier or unluckier) worlds."""

from __future__ import annotations

import pytest

from tricktable.bots import make_bot
from tricktable.bots.levels import hard_hint
from tricktable.bots.search import Estimate, _comparable
from tricktable.catalog import GAMES, entry


def _observations(game: str, wanted: int, seed: str) -> list:
    """The first ``wanted`` decisions with at least three choices, of any seat, in
    deals played by the rules bot."""
    spec = entry(game).spec
    options = spec.normalize_options(entry(game).bot_options)
    rules = make_bot("heuristic")
    found = []
    for index in range(6):
        state = spec.new_deal(spec.deal_from_seed(f"{seed}-{index}", index % 4, options), options)
        while not state.is_terminal() and len(found) < wanted:
            if not state.legal_actions():
                state.apply_referee(state.referee_actions()[0])
                continue
            obs = state.observe(state.to_move)
            if len(obs.legal) >= 3 and len(found) < wanted and (not found or obs.legal[0].startswith("play ")):
                found.append(obs)
            state.act(state.to_move, rules.choose(obs))
        if len(found) >= wanted:
            break
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hint_is_sorted_by_the_value_it_shows(game: str) -> None:
    observations = _observations(game, 3, "hint-order")
    assert observations
    for obs in observations:
        hints = hard_hint(obs, seed="hint-order")
        values = [h["value"] for h in hints]
        assert values == sorted(values, reverse=True), (obs.legal, hints)
        assert sorted(h["action"] for h in hints) == sorted(obs.legal)
        assert sum(h["chosen"] for h in hints) == 1  # what the hard player would play is marked


def test_a_dropped_candidate_is_valued_against_the_leader_world_by_world() -> None:
    # Four worlds for all three actions, then eight more for the two live ones.  "c"
    # was dropped after four lucky worlds (its own mean +1.0) in which it lost 1.0 to
    # the leader "a" each time; "a" averages 0.0 over all twelve.
    early: list[tuple[float, list[float | None]]] = [(1.0, [2.0, 1.5, 1.0])] * 4
    late: list[tuple[float, list[float | None]]] = [(1.0, [-1.0, -1.2, None])] * 8
    samples = early + late
    raw = [Estimate("a", 0.0, 12), Estimate("b", (4 * 1.5 - 8 * 1.2) / 12, 12), Estimate("c", 1.0, 4)]
    fair = _comparable(raw, samples, live=[0, 1])
    assert fair[0] == raw[0] and fair[1] == raw[1]
    assert fair[2].value == pytest.approx(-1.0) and fair[2].worlds == 4
