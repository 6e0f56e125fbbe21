"""Court Piece (Double Sar, Single Sar): one expert decision per test."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.bots import make_bot
from tricktable.bots import courtpiece as cb
from tricktable.cards import card_text, parse_cards
from tricktable.core.observation import Observation
from tricktable.core.rng import derive_seed
from tricktable.games.courtpiece import DOUBLE_SAR, SINGLE_SAR
from tricktable.games.courtpiece.rules import HEARTS, SPADES

from ..games.courtpiece.helpers import observation_of
from .relatives_helpers import table as table_with_trump

SPECS = {"double-sar": DOUBLE_SAR, "single-sar": SINGLE_SAR}


def table(seat: int, hand: str, trick: list[tuple[int, str]], **known: Any) -> cb.Table:
    """What ``seat`` knows, with spades trump (``relatives_helpers.table``, the family's one builder)."""
    return table_with_trump(seat, hand, trick, SPADES, **known)


def play(t: cb.Table) -> str:
    legal = [c for c in cb.cards_in(t.hand)]
    if t.trick:
        led = cb.SUIT_OF[t.trick[0][1]]
        legal = [c for c in legal if cb.SUIT_OF[c] == led] or legal
    return card_text(cb.choose_card(t, legal))


def test_second_hand_low_when_nothing_is_at_stake():
    # Seat 1 leads 10H; seat 0 plays second (play goes to the right) holding QH 3H.
    assert play(table(0, "QH 3H 2C", [(1, "10H")], pile=0)) == "3H"


def test_break_an_opponents_streak_when_he_has_just_won_a_trick():
    # The same cards, but seat 1 won the last trick: another win captures the pile.
    assert play(table(0, "QH 3H 2C", [(1, "10H")], pile=3, open_seat=1)) == "QH"


def test_do_not_overtake_a_partner_about_to_capture_the_pile():
    # Partner (seat 2) won the last trick and leads 10H: if it holds, he takes
    # the pile; our AH would win the trick but only open a new pair.
    trick = [(2, "10H"), (1, "4H")]
    assert play(table(0, "AH 5H 2C", trick, pile=2, open_seat=2)) == "5H"
    assert play(table(0, "AH 5H 2C", trick, pile=-1)) == "AH"  # Single Sar: make sure of the trick


def test_do_not_trump_partners_winning_trick():
    t = table(0, "2S 9S 3C", [(2, "AH"), (1, "4H")], pile=-1)
    assert play(t) == "3C"


def test_trump_an_opponents_trick_with_the_cheapest_trump():
    assert play(table(0, "2S 9S 3C", [(1, "AH")], pile=-1)) == "2S"


def test_ruff_with_the_cheapest_trump_not_the_ace():
    # Seat 1 leads 4H, seat 0 is void in hearts: only an opponent after him (seat 3) void in
    # hearts too could overruff, and none has shown out, so 2S wins as surely as AS (the
    # rules ruffed with the ace: about 190 times in 300 Double Sar deals, rules in all seats).
    assert play(table(0, "2S 9S AS 3D", [(1, "4H")], pile=-1)) == "2S"
    assert play(table(0, "2S 9S AS 3D", [(1, "4H")], pile=1, open_seat=1)) == "2S"  # stop his capture, cheaply
    # Once seat 3 has shown out of hearts he may overruff: the sure winner, the ace.
    assert play(table(0, "2S 9S AS 3D", [(1, "4H")], pile=-1, voids={3: HEARTS})) == "AS"


def test_keep_a_winner_for_trick_13():
    # Trick 12 of Double Sar: AS is our last trump; cash it now and the 13th
    # trick (which takes the pile) goes to whoever still has a trump.
    spades = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"  # only KS is still out
    assert play(table(0, "AS 3C", [], played=spades, pile=4, tricks_played=11)) == "3C"
    assert play(table(0, "AS 3C", [], played=spades, pile=-1, tricks_played=11)) == "AS"  # Single Sar


def test_call_the_longest_suit_with_honours():
    assert cb.call_action(parse_cards("AH KH 5H 2C 3D"), may_pass=True) == cb.CALL + 2


def test_pass_to_partner_without_a_suit():
    assert cb.call_action(parse_cards("2C 5D 7H 9S 3C"), may_pass=True) == cb.PASS
    assert cb.call_action(parse_cards("2C 5D 7H 9S 3C"), may_pass=False) == cb.CALL + 0  # the partner must call


def test_change_trump_to_a_much_longer_suit():
    cards = parse_cards("2C 3C AH KH QH 9H 8H 7H 2D 3D 4D 2S 3S")
    assert cb.change_choice(cards, trump=0) == 2
    assert cb.change_choice(cards, trump=2) is None


def random_view(game: str, seed: int, steps: int) -> Observation | None:
    spec = SPECS[game]
    options = spec.normalize_options({"new_cards": "any seat"})
    state = spec.new_deal(spec.deal_from_seed(derive_seed("cp", seed), seed % 4, options), options)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = [a for a in state.legal_actions() if state.action_text(a) != "new cards"]
        if state.is_terminal() or not legal:
            break
        state.apply(rng.choice(legal))
    if state.is_terminal():
        return None
    return state.observe(state.to_move)


@settings(max_examples=60)
@given(st.sampled_from(sorted(SPECS)), st.integers(0, 10**6), st.integers(0, 50))
def test_heuristic_never_produces_an_illegal_action(game, seed, steps):
    view = random_view(game, seed, steps)
    if view is not None:
        choice = make_bot("heuristic").choose(view)
        assert choice in view.legal and choice != "new cards"


@settings(max_examples=8)
@given(st.sampled_from(sorted(SPECS)), st.integers(0, 10**6), st.integers(0, 50))
def test_search_never_produces_an_illegal_action(game, seed, steps):
    view = random_view(game, seed, steps)
    if view is not None:
        assert make_bot("search", budget_ms=15).choose(view) in view.legal


def test_equivalent_cards_are_tried_once():
    obs = observation_of("double-sar", ["play 9H", "play 10H", "play QH", "play 2C"], "9H 10H QH 2C", ["JH 2H 3H 4H"])
    assert cb.distinct_actions(obs) == ["play 9H", "play 2C"]  # 9H, 10H and QH touch once JH is gone


def test_equivalent_cards_are_tried_as_the_rules_card():
    # Deal 6 of the selfplay seed behave-s7, the rules in every seat, 3S led: 8S and 9S
    # touch, and so do 2S and 4S (3S is on the table).  The rules play 9S.  Tried as 8S (the
    # lower), search had no default to beat and played its best mean with no bar.
    obs = _double_sar_position(6, ("pass to partner", "call H", "play 2D", "play 5D", "play AD", "play 3D",
                                   "play 3S"))
    assert obs.hand_texts() == ["3C", "10C", "JC", "KC", "AC", "6D", "10D", "AH", "2S", "4S", "8S", "9S"]
    assert cb.heuristic_text(obs) == "play 9S"
    assert cb.distinct_actions(obs) == ["play 2S", "play 9S"]


COURT_PIECE_GAMES = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


def _rules_card_left_out(game: str, deals: int) -> list[tuple[int, str, list[str]]]:
    """The card decisions of ``deals`` deals, the rules in every seat, whose rules' action
    is not among search's candidates (``distinct_actions``), other than a trump the rules
    put on a trick the partner holds in last seat (search never plays one:
    ``sparing_partner``)."""
    from tricktable.bots.players import candidates, game_module
    from tricktable.catalog import get_spec

    spec, module = get_spec(game), game_module(game)
    options = spec.normalize_options({})
    left_out = []
    for deal in range(deals):
        state = spec.new_deal(spec.deal_from_seed(derive_seed("candidates", "deal", deal), deal % 4, options), options)
        while not state.is_terminal():
            obs = state.observe(state.to_move)
            rules = module.heuristic_text(obs)
            tried = candidates(module, obs)
            if rules not in tried and rules in cb.sparing_partner(obs, cb.bot_actions(obs)):
                left_out.append((deal, rules, tried))
            state.act(state.to_move, rules)
    return left_out


@pytest.mark.parametrize("game", COURT_PIECE_GAMES)
def test_the_rules_action_is_always_a_candidate(game):
    # Search plays another action than the rules' only with switch_z standard errors of
    # advantage over it, so the rules' action must be tried.  Before, in 0.6-1.9 % of the
    # card decisions (60 deals per game) the rules played the higher of two equivalent
    # cards and search tried only the lower one.
    assert _rules_card_left_out(game, 15) == []


# -- calling and changing trump: where search is right to leave the rules ---------------
# docs/strength.md: at the disagreements of 300 Double Sar deals, each played
# out both ways with search in every seat, search's pass gained +0.10 ± 0.07 points over
# the rules' call, and its change of trump gained over the rules' choice.  These pin two
# such positions, so that a bar for leaving the rules there (like Euchre's) would show.
def _double_sar_position(deal: int, actions: tuple[str, ...] = ()) -> Observation:
    """The position after ``actions`` in deal ``deal`` of the selfplay seed behave-s7."""
    options = DOUBLE_SAR.normalize_options({})
    state = DOUBLE_SAR.new_deal(DOUBLE_SAR.deal_from_seed(derive_seed("behave-s7", "deal", deal), deal % 4, options),
                                options)
    for text in actions:
        state.act(state.to_move, text)
    return state.observe(state.to_move)


def _search_choice(obs: Observation, worlds: int = 400) -> str | None:
    from dataclasses import replace

    from tricktable.bots.search import evaluate

    game = replace(cb.search_game(obs), weight=None)
    return evaluate(game, obs, random.Random("scenario"), worlds, 1e9, cb.distinct_actions(obs)).choice


def test_calling_trump_pass_to_the_partner_with_only_an_ace_jack_doubleton():
    # Rules "Calling trump": he may pass once to his partner.  The rules call ♦ on A J;
    # passing lets the partner name his best suit of five, and the caller may still change
    # trump once he sees his thirteen cards.  Rollouts: pass +0.33 ± 0.08 over the rules'
    # call (400 worlds); played out with search in every seat, +1.6 ± 0.6 (12 deals).
    obs = _double_sar_position(194)
    assert obs.hand_texts() == ["KC", "JD", "AD", "6S", "10S"]
    assert cb.heuristic_text(obs) == "call D"
    assert _search_choice(obs) == "pass to partner"


def test_change_trump_to_six_hearts_over_the_partners_spades():
    # Rules "Change trump": the caller may change once, after seeing all 13 cards.  His
    # partner named ♠ (the caller holds A 9 7 2 of them); six hearts to the queen are not
    # enough for the rules (19 points against 15 + 6), search changes: +2.2 ± 0.1 in the
    # rollouts (400 worlds).
    obs = _double_sar_position(62, ("pass to partner", "call S"))
    assert obs.hand_texts() == ["3C", "7C", "QD", "3H", "4H", "8H", "9H", "10H", "QH", "2S", "7S", "9S", "AS"]
    assert cb.heuristic_text(obs) == "play 3H"
    assert _search_choice(obs) == "change trump H"


def test_change_trump_search_keeps_the_rules_change_unless_it_is_clearly_worse():
    # Rules "Change trump".  The caller named ♦ (9 6 2) and sees five clubs to the ace
    # king: the rules change to ♣.  At the normal level (about 21 worlds for 15 candidates)
    # ♥ J led without a change looked best by luck (+0.95 over the change); at 1,000 worlds it
    # is -0.03 ± 0.09 against it.  Leaving the rules' change needs CHANGE_SWITCH_Z.
    from tricktable.bots.search import SWITCH_Z

    obs = _double_sar_position(0, ("call D",))
    assert obs.hand_texts() == ["3C", "5C", "7C", "KC", "AC", "2D", "6D", "9D", "2H", "5H", "9H", "JH", "QS"]
    assert cb.heuristic_text(obs) == "change trump C"
    normal = make_bot("search-noinfer", seed=f"behave-s7/seat{obs.seat}", budget_ms=50)
    assert normal.choose(obs) == "change trump C"
    assert cb.switch_z(obs, "play JH", "change trump C") == cb.CHANGE_SWITCH_Z == 2.0 > SWITCH_Z
    assert cb.switch_z(obs, "change trump H", "change trump C") == cb.CHANGE_SWITCH_Z
    assert cb.switch_z(obs, "change trump H", "play 3C") == SWITCH_Z  # a change the rules do not make
