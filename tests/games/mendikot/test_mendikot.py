"""Mendikot, one scenario per rule — shared/rules/court-piece.md, "Relatives:
Mendikot", the scoring decision, and the decisions in
tricktable/games/courtpiece/scoring.py (Tens) and spec.py (MendikotSpec).

Deals are ``block_deal``s (everyone follows in tricks 1-12; the tens are won in
tricks 2, 5, 8 and 11, one suit each).  The caller puts his trick-13 card (2S)
face down, so nobody can ask for it before trick 13, where he must show it and
wins the trick with it: trick 13 always goes to the caller.
"""

import random

import pytest

from tests.games.courtpiece.helpers import block_deal, trick_cards
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.courtpiece import MENDIKOT
from tricktable.games.courtpiece.rules import NEXT

TENS_TRICKS = (2, 5, 8, 11)


def plan(team: int, won: set[int]) -> list[int]:
    """Winners of tricks 1..12: ``team`` wins the tricks numbered in ``won``, the
    other team the rest; partners take turns."""
    return [(team if number in won else 1 - team) + 2 * (number % 2) for number in range(1, 13)]


def start(winners: list[int], dealer: int = 0, state=None, **options):
    """A Mendikot block deal (or the match's current deal replaced by it) with the
    caller's 2S face down; returns the game and the cards per seat and trick."""
    caller = NEXT[dealer]
    deal = block_deal(winners, caller, dealer)
    cards = trick_cards(deal)
    deal["hands"][caller] = " ".join([cards[caller][12]] + cards[caller][:12])  # 2S among the first five
    if state is None:
        state = MENDIKOT.new_deal(MENDIKOT.deal_from_json(deal), MENDIKOT.normalize_options(options))
    else:  # a match: replace its current deal, the match logic runs unchanged
        state.current = MENDIKOT.new_deal(MENDIKOT.deal_from_json(deal), state.options)
    state.act(caller, "hide 2S")
    return state, cards


def play_out(game, cards) -> None:
    deal = getattr(game, "current", game)
    while not deal.is_terminal():
        seat = game.to_move
        game.act(seat, "reveal" if game.legal_texts() == ["reveal"] else f"play {cards[seat][len(deal.tricks)]}")


def played(winners, dealer=0, **options):
    state, cards = start(winners, dealer, **options)
    play_out(state, cards)
    return state


def test_three_tens_win_the_deal_with_fewer_tricks():
    """Mendikot: the team that captures 3 tens wins the deal (1 point), here with
    3 tricks against 10."""
    state = played(plan(0, {2, 5, 8}))
    assert state.tens == [3, 1] and state.captured == [3, 10]
    assert (state.outcome, state.winners) == ("won", 0) and state.returns() == [1, 0, 1, 0]


@pytest.mark.parametrize("won,winners", [({1, 2, 3, 4, 5, 6, 7}, 0), ({1, 2, 3, 4, 5, 6}, 1)])
def test_two_tens_each_the_team_with_seven_tricks_wins(won, winners):
    """Mendikot: with 2 tens each, the team with 7+ tricks wins."""
    state = played(plan(0, won))
    assert state.tens == [2, 2] and state.captured[winners] >= 7
    assert (state.outcome, state.winners) == ("won", winners)


def test_every_deal_is_played_out_to_thirteen_tricks():
    """Decision: a Mendikot deal is played out (the tens may lie in the last
    tricks): 7 tricks end nothing."""
    state, cards = start(plan(0, {1, 2, 3, 4, 5, 6, 7}))
    while len(state.tricks) < 8:
        state.act(state.to_move, f"play {cards[state.to_move][len(state.tricks)]}")
    assert state.captured == [7, 1] and not state.is_terminal()
    play_out(state, cards)
    assert len(state.tricks) == 13


def test_mendikot_all_four_tens_scores_two():
    """Mendikot: all four tens is a mendikot — 2 points, shown in the breakdown."""
    state = played(plan(0, set(TENS_TRICKS)))
    assert state.tens == [4, 0] and state.captured == [4, 9]
    assert (state.outcome, state.winners) == ("mendikot", 0) and state.returns() == [2, 0, 2, 0]
    lines = [(line.key, line.team, line.points) for line in state.breakdown()]
    assert lines == [("tricks", 0, 4), ("tricks", 1, 9), ("tens", 0, 4), ("tens", 1, 0), ("mendikot", 0, 2)]
    assert state.view(2)["result"]["lines"][-1]["text"] == "Mendikot: all four tens"


def test_whitewash_all_thirteen_tricks_scores_three():
    """Mendikot: all 13 tricks is a whitewash — 3 points (not 2 + 3), shown in the breakdown."""
    state = played(plan(1, set(range(1, 13))))
    assert state.captured == [0, 13] and state.tens == [0, 4]
    assert (state.outcome, state.winners) == ("whitewash", 1) and state.returns() == [0, 3, 0, 3]
    assert state.breakdown()[-1].text == "Whitewash: all 13 tricks"


def test_trump_by_the_hidden_card_method_without_change_trump():
    """Mendikot: trump by the hidden-card method (hide from the first five, reveal on
    request); no change trump (offered only in Single Sar, Double Sar, Hidden Trump)."""
    state, _ = start(plan(0, {2}))
    assert state.view(0)["trump_hidden"] and state.view(0)["actions"] == [[3, "hide ?"]]
    assert all(a < 52 for a in state.legal_actions())
    assert "change_trump" not in MENDIKOT.normalize_options({})


# -- the match ----------------------------------------------------------------------------
def new_match(seed="mendikot", daily=False, **options):
    return MENDIKOT.new_match(seed, MENDIKOT.normalize_options(options), daily=daily)


def play_deal(match, winners) -> None:
    _, cards = start(winners, match.dealer, state=match)
    play_out(match, cards)


@pytest.mark.parametrize("case,outcome,dealer_after", [
    ("dealing team wins", "won", lambda d: NEXT[d]),
    ("callers win", "won", lambda d: d),
    ("callers' mendikot", "mendikot", lambda d: (d + 2) % 4),
    ("callers' whitewash", "whitewash", lambda d: (d + 2) % 4),
])
def test_dealer_rotation_with_mendikot_and_whitewash_in_the_kots_place(case, outcome, dealer_after):
    """Decision (family rotation): dealing team won → the deal passes to the right;
    callers won → same dealer; callers' mendikot or whitewash → the dealer's partner."""
    match = new_match()
    dealer = match.dealer
    callers = NEXT[dealer] % 2
    team = 1 - callers if case == "dealing team wins" else callers
    won = {"won": {2, 5, 8}, "mendikot": set(TENS_TRICKS), "whitewash": set(range(1, 13))}[outcome]
    play_deal(match, plan(team, won))
    assert match.previous_deal.outcome == outcome and match.dealer == dealer_after(dealer)


def test_match_ends_at_seven_points_or_the_chosen_target_without_streak_bonus():
    """A match ends at 7 points (configurable); a deal scores 1, 2 or 3 and
    there is no seven-in-a-row bonus (not in Mendikot's table)."""
    match = new_match()
    for _ in range(7):
        play_deal(match, plan(0, {2, 5, 8}))  # team 0 wins every deal by one point
    assert match.is_terminal() and match.team_totals() == [7, 0] and match.deals_played == 7
    assert all(line["key"] != "streak" for result in match.results for line in result["lines"])
    short = new_match(target_points=3)
    play_deal(short, plan(1, set(TENS_TRICKS)))
    assert not short.is_terminal()
    play_deal(short, plan(1, {2, 5, 8}))
    assert short.is_terminal() and short.team_totals() == [0, 3]
    assert short.view(0)["match"]["target"] == 3 and short.view(0)["match"]["counting"] == "points"


@pytest.mark.parametrize("game", ["hidden-trump", "be-ranga", "mendikot"])
def test_daily_is_eight_deals_and_replays(game):
    """Daily (family Decision): the same 8 deals for everyone, no new cards, counted
    in points (Mendikot has no counting mode to fix); the record replays."""
    from tricktable.catalog import get_spec

    spec = get_spec(game)
    match = spec.new_match("2026-11-29", spec.normalize_options({}), daily=True)
    assert match.options["new_cards"] == "off" and match.options.get("counting", "points") == "points"
    assert set(match.options) == {o.name for o in spec.option_specs}
    rng = random.Random(1)
    while not match.is_terminal():
        if match.referee_actions() and rng.random() < 0.2:
            match.apply_referee(match.referee_actions()[0])
        else:
            match.apply(rng.choice(match.legal_actions()))
    assert match.deals_played == 8 and all(sum(r["points"]) > 0 for r in match.results)
    again = replay(record_of(match).dumps())
    assert again.returns() == match.returns() and again.view(1) == match.view(1)


@pytest.mark.parametrize("game", ["hidden-trump", "be-ranga", "mendikot"])
def test_random_matches_replay_and_sampled_worlds_agree_with_match_views(game):
    """Records and world sampling over whole matches (timeouts and new cards included)."""
    from tricktable.catalog import get_spec

    spec = get_spec(game)
    match = spec.new_match(f"match-{game}", spec.normalize_options({"new_cards": "any seat"}))
    rng = random.Random(11)
    while not match.is_terminal():
        view = match.view(match.to_move)
        if rng.random() < 0.2:
            world = spec.sample_world(match.observe(match.to_move), rng)
            assert world.view(match.to_move) == {k: v for k, v in view.items() if k != "match"}
        if match.referee_actions() and rng.random() < 0.2:
            match.apply_referee(match.referee_actions()[0])
        else:
            match.apply(rng.choice(match.legal_actions()))
    again = replay(record_of(match).dumps())
    assert again.returns() == match.returns() and again.view(3) == match.view(3)
