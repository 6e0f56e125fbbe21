"""Behaviour a player respects (issue 14): rules the search bot keeps to."""

from __future__ import annotations

from tricktable.bots import make_bot
from tricktable.games import entry
from tricktable.games.euchre.observation import Phase


def _alone_choices(count: int) -> list:
    """Observations of the maker's lone-hand choice, from rules-bot deals."""
    spec = entry("euchre").spec
    options = spec.normalize_options({})
    rules = make_bot("heuristic")
    found = []
    index = 0
    while len(found) < count:
        state = spec.new_deal(spec.deal_from_seed(f"alone-{index}", index % 4, options), options)
        while not state.is_terminal():
            obs = state.observe(state.to_move)
            if obs.phase == Phase.ALONE_CHOICE:
                found.append(obs)
            state.act(state.to_move, rules.choose(obs))
        index += 1
    return found


def test_euchre_search_leaves_the_lone_hand_choice_to_the_rules():
    # Left to weigh it, search went alone in 15.5 % of contracts (docs/strength.md).
    search, rules = make_bot("search", budget_ms=20), make_bot("heuristic")
    choices = _alone_choices(30)
    assert {rules.choose(obs) for obs in choices} == {"alone", "with partner"}
    for obs in choices:
        assert search.choose(obs) == rules.choose(obs)
