"""Be-Ranga, one scenario per rule — shared/rules/court-piece.md, "Relatives:
Be-Ranga", and the decisions in tricktable/games/courtpiece/trump.py (FirstVoid), tricks.py (Pile) and spec.py.

Dealer 0, so seat 3 leads the first trick; play goes 3, 2, 1, 0.  In ``PILE``
everyone follows clubs for three tricks (seat 3 wins them), seat 2 sets trump
with 2D in trick 4 and wins trick 5 with AD.
"""

import pytest

from tricktable.errors import IllegalAction
from tests.games.courtpiece.helpers import block_deal, trick_cards
from tricktable.games.courtpiece import BE_RANGA, DOUBLE_SAR

from ..courtpiece.relatives_helpers import new_state, play
from ..hidden_trump.test_hidden import HANDS

PILE = [
    "4C 7C 10C 2S 4D 6D 7D 8D 9D 10D JD QD KD",
    "3C 6C 9C 2H 3D 7S 8S 9S 10S JS QS KS AS",
    "2C 5C 8C 2D AD JH QH KH AH 3S 4S 5S 6S",
    "AC KC QC JC 5D 3H 4H 5H 6H 7H 8H 9H 10H",
]
FIVE_TRICKS = ("AC", "2C", "3C", "4C", "KC", "5C", "6C", "7C", "QC", "8C", "9C", "10C",
               "JC", "2D", "2H", "2S", "AD", "3D", "4D", "5D")


def test_all_thirteen_cards_are_dealt_and_the_dealers_right_leads_without_a_call():
    """Be-Ranga: no trump is called, all 13 cards are dealt — Decision: the player
    to the dealer's right leads the first trick; no change trump, no timer."""
    state = new_state("be-ranga", PILE)
    assert state.to_move == 3 and state.trump == 4 and state.referee_actions() == ()
    view = state.view(1)
    assert view["phase"] == "play" and view["hand_sizes"] == [13] * 4 and len(view["hand"]) == 13
    assert view["trump"] is None and view["deadline_seconds"] is None
    assert state.legal_texts() == [f"play {c}" for c in ("JC", "QC", "KC", "AC", "5D", "3H", "4H", "5H", "6H",
                                                          "7H", "8H", "9H", "10H")]
    with pytest.raises(IllegalAction):
        state.act(3, "call S")


def test_the_first_card_that_does_not_follow_makes_its_suit_trump_and_counts():
    """Be-Ranga: the first card played by a player who cannot follow suit makes its
    suit trump, and that card already counts as a trump (2D beats AC)."""
    state = new_state("be-ranga", HANDS)
    play(state, "2C", "AC", "2D")
    assert state.view(0)["trump"] == "D" and state.view(0)["trump_by"] == 1 and state.view(0)["trump_trick"] == 1
    play(state, "7H")
    assert state.tricks[-1][2] == 1
    play(state, "3D", "AD", "2S", "3S")  # seat 0 wins with the ace; later discards change nothing
    assert state.trump == 1 and state.tricks[-1][2] == 0


def test_no_capture_before_the_trick_after_the_trump_setting_trick():
    """Be-Ranga: Double Sar pile rules, but no capture before the trick after the
    trump-setting trick — seat 3's three wins in a row stay on the pile; seat 2
    wins the trump-setting trick 4 and trick 5, and captures all five."""
    state = new_state("be-ranga", PILE)
    play(state, *FIVE_TRICKS[:12])
    assert [w for _, _, w in state.tricks] == [3, 3, 3] and state.pile == 3 and state.captured == [0, 0]
    play(state, *FIVE_TRICKS[12:16])
    assert state.trump_trick == 4 and state.pile == 4 and state.captured == [0, 0]
    play(state, *FIVE_TRICKS[16:])
    assert state.captures == [(5, 2, 5)] and state.captured == [5, 0] and state.pile == 0
    twin = DOUBLE_SAR.new_deal(DOUBLE_SAR.deal_from_json({"dealer": 0, "hands": PILE, "rest": ""}),
                               DOUBLE_SAR.normalize_options({}))
    twin.act(3, "call C")
    play(twin, *FIVE_TRICKS[:8])
    assert twin.captures == [(2, 3, 2)]  # Double Sar itself captures at once


def test_the_thirteenth_trick_takes_the_pile_even_without_trump():
    """Double Sar pile (kept in Be-Ranga): the winner of the 13th trick takes what
    is left — here all 13 tricks, since nobody showed out before trick 13."""
    deal = block_deal([0, 1, 2, 3] * 3, 0)
    hands = trick_cards(deal)
    state = BE_RANGA.new_deal(BE_RANGA.deal_from_json(deal), BE_RANGA.normalize_options({}))
    while not state.is_terminal():
        state.act(state.to_move, f"play {hands[state.to_move][len(state.tricks)]}")
    assert state.trump_trick == 13 and state.pile == 0 and sorted(state.captured) == [0, 13]
    assert state.outcome in ("callers_kot", "goon_kot")


def test_house_rules_apply_to_the_be_ranga_pile():
    """Double Sar pile rules, house rules included: with "trump ace" seat 2's pair
    sealed by AD (the ace of the trump set in trick 4) does not capture."""
    for rule, captured, pile in ((False, [5, 0], 0), (True, [0, 0], 5)):
        state = new_state("be-ranga", PILE, trump_ace_cannot_seal=rule)
        play(state, *FIVE_TRICKS)
        assert (state.captured, state.pile) == (captured, pile)


def test_new_cards_from_the_deal_until_the_persons_own_first_card():
    """App extras, new cards (every Court Piece game): from the moment the person
    sees his cards (in Be-Ranga all thirteen at once) until he plays his own first
    card, in turn or out of turn; in Be-Ranga even after a void has set trump."""
    state = new_state("be-ranga", PILE)
    assert state.legal_texts_for(0) == ["new cards"]  # seat 3 leads; the person may ask out of turn
    play(state, "AC", "2C", "3C")
    assert "new cards" in state.legal_texts()  # his own first turn
    state.act(0, "new cards")
    assert state.is_terminal() and state.returns() == [0, 0, 0, 0] and state.outcome == "new_cards"
    state = new_state("be-ranga", HANDS)
    play(state, "2C", "AC", "2D")  # trump is set before the person's first card
    assert state.trump >= 0 and "new cards" in state.legal_texts()
    state = new_state("be-ranga", PILE)
    play(state, *FIVE_TRICKS[:4])  # the person played his first card
    assert "new cards" not in state.legal_texts_for(0)
    assert "new cards" not in new_state("be-ranga", PILE, new_cards="off").legal_texts_for(0)


def test_be_ranga_scores_as_double_sar_with_the_first_leaders_team_as_callers():
    """Decision: Double Sar's table, the first leader's team in the callers' place."""
    # Nobody shows out before trick 13, so its winner (the player after seat 0,
    # who wins trick 12) takes all 13: seat 3, who led the first trick.
    deal = block_deal([1, 3] * 5 + [1, 0], 1)
    hands = trick_cards(deal)
    for counting, points in (("points", 3), ("kots", 1)):
        state = BE_RANGA.new_deal(BE_RANGA.deal_from_json(deal), BE_RANGA.normalize_options({"counting": counting}))
        while not state.is_terminal():
            state.act(state.to_move, f"play {hands[state.to_move][len(state.tricks)]}")
        assert state.outcome == "callers_kot" and state.returns() == [0, points, 0, points]
        assert state.breakdown()[-1].text == "Kot: the first leader's team took all 13 tricks"


def test_the_first_deal_of_a_match_is_led_by_the_draws_winner():
    """Shared rules and Decision: the highest drawn card leads the first deal (no
    call), the player on his left deals."""
    match = BE_RANGA.new_match("draw", BE_RANGA.normalize_options({}))
    winner = max(match.draw[-1], key=lambda drawn: drawn[1] % 13)[0]
    assert match.current.to_move == winner == match.current.caller and match.dealer == (winner + 1) % 4
