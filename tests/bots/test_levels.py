"""The levels: easy is the rules bot with a few seeded,
human-like slips; normal and hard are both search."""

from __future__ import annotations

import pytest

from tricktable.bots import make_bot
from tricktable.bots.levels import LEVELS, best_bot
from tricktable.bots.players import SLIP_RATE, SearchBot
from tricktable.catalog import GAMES, entry


def _deals(game: str, deals: int, seed: str) -> tuple[int, int, int]:
    """Easy in all four seats: (card plays with a choice, slips, other decisions that
    differed from the rules).  ``state.act`` refuses an illegal action."""
    spec = entry(game).spec
    options = spec.normalize_options(entry(game).bot_options)
    easy = [make_bot("easy", seed=f"{seed}/{seat}") for seat in range(4)]
    rules = make_bot("heuristic")
    choices = slips = other = 0
    for index in range(deals):
        state = spec.new_deal(spec.deal_from_seed(f"{seed}-{index}", index % 4, options), options)
        while not state.is_terminal():
            if not state.legal_actions():
                state.apply_referee(state.referee_actions()[0])
                continue
            seat = state.to_move
            obs = state.observe(seat)
            text = easy[seat].choose(obs)
            assert easy[seat].choose(obs) == text  # seeded by the position: a replay slips alike
            expected = rules.choose(obs)
            if expected.startswith("play ") and sum(t.startswith("play ") for t in obs.legal) > 1:
                choices += 1
                slips += text != expected
            else:
                other += text != expected
            state.act(seat, text)
    return choices, slips, other


@pytest.mark.parametrize("game", sorted(GAMES))
def test_easy_slips_sometimes_only_at_card_plays_and_never_illegally(game):
    choices, slips, other = _deals(game, 24, "easy-1")
    assert other == 0  # bids, calls and announcements are the rules'
    assert 0 < slips < choices * 3 * SLIP_RATE


def test_normal_and_hard_are_both_search_and_the_default_is_normal():
    from tricktable.bots.levels import DEFAULT_LEVEL

    assert DEFAULT_LEVEL == "normal"
    assert best_bot("euchre", "easy").name == "easy" and LEVELS["easy"][0] == "easy"
    normal, hard = best_bot("doppelkopf", "normal"), best_bot("doppelkopf", "hard")
    assert isinstance(normal, SearchBot) and isinstance(hard, SearchBot) and normal.budget_ms < hard.budget_ms
    assert hard.inference and not normal.inference  # docs/strength.md: inference costs normal's CPU for nothing measured


COURT_PIECE = ["double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]


@pytest.mark.parametrize("game", COURT_PIECE)
def test_court_pieces_hard_level_weighs_every_world_alike(game):
    """Inference at hard's budget measured weaker in Court Piece (docs/strength.md:
    −0.052 ± 0.015 a deal pooled over the five games), so hard plays the unweighted search."""
    hard = best_bot(game, "hard")
    assert isinstance(hard, SearchBot) and not hard.inference and hard.budget_ms == LEVELS["hard"][1]
    assert best_bot(game, "normal").budget_ms < hard.budget_ms


def test_euchres_normal_level_weighs_its_worlds_by_inference_at_the_normal_budget():
    """Euchre's normal is search with inference at normal's 50 ms (docs/strength.md):
    fewer worlds than the unweighted search at the same budget, far fewer than hard's."""
    from tricktable.bots import euchre

    normal, hard = best_bot("euchre", "normal"), best_bot("euchre", "hard")
    assert isinstance(normal, SearchBot) and normal.inference and normal.budget_ms == LEVELS["normal"][1]
    assert isinstance(hard, SearchBot) and hard.inference
    assert euchre.worlds_for(normal.budget_ms, inference=True) < euchre.worlds_for(normal.budget_ms, inference=False)
    assert euchre.worlds_for(normal.budget_ms) < euchre.worlds_for(hard.budget_ms)
    others = [game for game in sorted(GAMES) if game != "euchre"]
    assert all(best_bot(game, "normal").name == "search-noinfer" for game in others)


@pytest.mark.parametrize("game", ["double-sar", "euchre"])
def test_the_hint_searches_as_the_hard_level_does(game, monkeypatch):
    """The page's Hint button shows what the hard computer player would do (README): the
    same budget's worlds (all of them: no clock, so the analysis reproduces it), and worlds
    weighed by inference exactly where hard weighs them."""
    from tricktable.bots import players
    from tricktable.bots.levels import hard_hint

    searched = []
    evaluate = players.evaluate

    def recording(game_search, obs, rng, worlds, hard_ms, actions):
        searched.append((game_search.weight is not None, worlds, hard_ms))
        return evaluate(game_search, obs, rng, worlds, hard_ms, actions)

    monkeypatch.setattr(players, "evaluate", recording)
    spec = entry(game).spec
    options = spec.normalize_options(entry(game).bot_options)
    state = spec.new_deal(spec.deal_from_seed("hint-1", 0, options), options)
    while len(state.legal_actions()) < 2:
        state.act(state.to_move, make_bot("heuristic").choose(state.observe(state.to_move)))
    obs = state.observe(state.to_move)
    hard = best_bot(game, "hard")
    ranked = hard_hint(obs, seed="hint-1")
    assert sorted(r["action"] for r in ranked) == sorted(obs.legal)
    module = players.game_module(game)
    worlds = module.worlds_for(hard.budget_ms, len(obs.legal), inference=hard.inference)
    assert searched == [(hard.inference, worlds, players.NO_CLOCK_MS)]  # the hard level's worlds, with no clock
    assert hard_hint(obs, seed="hint-1") == ranked  # so the same observation and seed give the same values
