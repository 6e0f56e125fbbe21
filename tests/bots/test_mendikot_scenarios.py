"""Mendikot bots: the tens (tricktable/bots/relatives.py), one decision per test."""

from tricktable.bots import relatives as rb
from tricktable.cards import parse_card, parse_cards
from tricktable.games.courtpiece.rules import CLUBS, SPADES

from ..games.courtpiece.helpers import observation_of
from .relatives_helpers import decide, face_down, table


def choose(t, mendikot=True):
    return decide(t, "mendikot" if mendikot else "hidden-trump")


def test_put_a_ten_on_the_partners_sure_winner():
    # Seat 2 (partner) leads AH, the boss; seat 0 plays third and holds 10H.
    t = table(0, "10H 4H 2C", [(2, "AH"), (1, "5H")], trump=SPADES)
    assert choose(t) == "10H"
    assert choose(t, mendikot=False) == "4H"  # Hidden Trump: tens are ordinary cards


def test_throw_a_ten_on_the_partners_sure_winner_when_void():
    t = table(0, "10C 4C 2D", [(2, "AH"), (1, "5H")], trump=SPADES)
    assert choose(t) == "10C"


def test_do_not_trump_the_partners_sure_winner_with_the_ten_of_trump():
    """Void in hearts, the partner's AH sure: 10C goes on it, but never 10S (a
    trump on a trick the partner holds); without another ten, the family's card."""
    t = table(0, "10S 10C 4D", [(2, "AH"), (1, "5H")], trump=SPADES)
    assert choose(t) == "10C"
    t = table(0, "10S 4D 7D", [(2, "AH"), (1, "5H")], trump=SPADES)
    assert choose(t) == "4D"
    t = table(0, "10S 4S 7D", [(2, "AS"), (1, "5S")], trump=SPADES)
    assert choose(t) == "10S"  # trump led: following with the ten is no ruff


def test_keep_the_ten_back_when_the_partners_trick_is_not_sure():
    # Partner's KH can still be beaten by AH in seat 3's hand.
    t = table(0, "10H 4H 2C", [(2, "KH"), (1, "5H")], trump=SPADES)
    assert choose(t) == "4H"


def test_keep_the_ten_under_an_opponents_ace():
    """10H KH under the opponents' AH: give the king, keep the ten."""
    t = table(0, "10H KH 2C", [(1, "AH")], trump=SPADES)
    assert choose(t) == "KH"
    assert choose(t, mendikot=False) == "10H"


def test_do_not_throw_a_ten_on_the_opponents_trick():
    # Void in hearts, no trump: 10C, the lowest card, would be the family's discard.
    t = table(0, "10C JD QD KD", [(1, "AH")], trump=SPADES)
    assert choose(t) == "JD"
    assert choose(t, mendikot=False) == "10C"


def test_take_an_opponents_ten_with_a_sure_winner():
    t = table(0, "AH JH 2C", [(1, "10H")], trump=SPADES)
    assert choose(t) == "AH"


def test_ruff_a_trick_that_holds_a_ten():
    t = table(0, "2S 9S 3C", [(1, "10H")], trump=SPADES)
    assert choose(t) == "2S"


def test_do_not_lead_an_unsafe_ten():
    t = table(0, "10H 4H 9C", [], trump=SPADES)
    assert choose(t) != "10H"
    t = table(0, "10H 4D", [], trump=SPADES, played="AH KH QH JH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert choose(t) == "10H"  # the boss, and no trump left out


def test_the_hiders_opponent_asks_for_trump_with_or_without_a_ten():
    """As in Hidden Trump: the opponents' trick is worth a reveal whether a ten is in it or not."""
    t = face_down(table(0, "5S 6S 10D JD", [(1, "10C")]), hider=3)
    assert decide(t, "mendikot", reveal=True) == "reveal"
    t = face_down(table(0, "5S 6S 10D JD", [(1, "9C")]), hider=3)
    assert decide(t, "mendikot", reveal=True) == "reveal"


def test_put_the_ten_of_trump_face_down():
    five = parse_cards("10S 4S 7S AH 2C")
    assert rb.hide_choice(five, may_pass=True, mendikot=True) == parse_card("10S")
    assert rb.hide_choice(five, may_pass=True, mendikot=False) == parse_card("4S")


def test_a_ten_makes_a_suit_a_better_trump():
    five = parse_cards("10C 3C 4D JD 2H")
    assert rb.best_suit(five, mendikot=True)[0] == CLUBS
    assert rb.best_suit(five, mendikot=False)[0] != CLUBS


def test_search_tries_a_ten_and_its_touching_cards_apart():
    legal = ["play 9H", "play 10H", "play JH", "play 2C"]
    assert rb.distinct_actions(observation_of("mendikot", legal, "9H 10H JH 2C")) == legal
    assert rb.distinct_actions(observation_of("hidden-trump", legal, "9H 10H JH 2C")) == ["play 9H", "play 2C"]
