"""Hidden Trump bots: one expert decision per test (tricktable/bots/relatives.py).

Dealer 0, so seat 3 calls and leads; play goes 3, 2, 1, 0.  Seats 1 and 3 are
partners.  In ``HANDS`` seat 3 holds five spades (first five), clubs and
diamonds, no heart; seat 2 the top hearts and top clubs; seat 1 low hearts,
middle clubs and diamonds; seat 0 middle spades and top diamonds.
"""

from tricktable.bots import make_bot
from tricktable.bots import relatives as rb
from tricktable.cards import card_text, parse_card, parse_cards
from tricktable.games.courtpiece.rules import HEARTS, SPADES

from .relatives_helpers import client_view, decide, face_down, new_state, play, table

HANDS = [
    "5S 6S 7S 8S 9S 10S JS QS 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 6C 7C 8C 9C 6D 7D 8D 9D",
    "AH KH QH JH 10H 9H 8H 7H 10C JC QC KC AC",
    "2S 3S 4S AS KS 2C 3C 4C 5C 2D 3D 4D 5D",
]
BOT = make_bot("heuristic")


def hidden_deal():
    state = new_state("hidden-trump", HANDS)
    state.act(3, BOT.choose(client_view(state)))
    return state


def test_put_down_the_lowest_card_of_the_longest_strongest_suit():
    state = new_state("hidden-trump", HANDS)
    assert BOT.choose(client_view(state)) == "hide 2S"
    assert rb.hide_choice(parse_cards("AH KH 5H 2C 3D"), may_pass=True, mendikot=False) == parse_card("5H")


def test_pass_to_partner_without_a_suit_and_the_partner_must_put_one_down():
    assert rb.hide_choice(parse_cards("2C 5D 7H 9S 3C"), may_pass=True, mendikot=False) is None
    assert rb.hide_choice(parse_cards("2C 5D 7H 9S 3C"), may_pass=False, mendikot=False) == parse_card("2C")


def test_ask_for_the_reveal_when_trumping_wins_the_opponents_trick():
    """Seat 3 put 2S down and has no heart; seat 2's AH leads the trick: the
    reveal gives 2S back, and the cheapest trump takes the trick."""
    state = hidden_deal()
    assert client_view(state).to_json()["hidden_card"] == "2S"
    play(state, "2C", "AC", "6C", "10D")  # seat 2 wins, leads hearts
    play(state, "AH", "2H", "JD")
    assert BOT.choose(client_view(state)) == "reveal"
    play(state, "reveal")
    assert BOT.choose(client_view(state)) == "play 2S"  # last to play: the cheapest trump wins


def test_do_not_ask_for_the_reveal_when_the_partner_holds_the_trick():
    # Seat 0 plays third; his partner's (seat 2) AH is the boss: throw off, no reveal.
    t = face_down(table(0, "5S 6S 10D JD", [(2, "AH"), (1, "2H")]), hider=3)
    assert decide(t, "hidden-trump", reveal=True) != "reveal"


def test_the_hiders_opponents_ask_whenever_the_trick_is_not_theirs():
    """Seat 0 (hider 3's opponent), void in hearts: seat 1's AH holds the trick,
    so he asks to see trump, in an ordinary trick too (not only for the callers'
    seventh: a trump of his may win it).  His partner's KH, still open to an ace
    after him: no reveal."""
    t = face_down(table(0, "5S 6S 10D JD", [(1, "AH")]), hider=3)
    assert decide(t, "hidden-trump", reveal=True) == "reveal"
    t = face_down(table(0, "5S 6S 10D JD", [(2, "KH"), (1, "2H")]), hider=3)
    assert decide(t, "hidden-trump", reveal=True) != "reveal"
    t = face_down(table(1, "5S 6S 10D", [(2, "AH")]), hider=3)  # the hider's partner: it is our suit, ask
    assert decide(t, "hidden-trump", reveal=True) == "reveal"


def test_after_the_reveal_trump_high_when_an_opponent_after_has_shown_out():
    # Seat 1 asked after seat 2's AH (so he must trump); seat 0 (next) has shown out of hearts.
    t = table(1, "2S 9S KS 3C", [(2, "AH")], trump=SPADES, voids={0: HEARTS})
    t.after_reveal = True
    assert decide(t, "hidden-trump", parse_cards("2S 9S KS")) == "KS"
    t = table(1, "2S 9S KS 3C", [(2, "AH")], trump=SPADES)
    t.after_reveal = True
    assert decide(t, "hidden-trump", parse_cards("2S 9S KS")) == "2S"


def test_the_hider_keeps_the_cards_of_his_suit_when_throwing_off():
    """Trump still hidden, the partner's AH holds the trick (no reveal): seat 3
    put 2S down, knows trump is spades and throws off a diamond, though 3S is his
    lowest card; not knowing (his partner hid the card), he throws 3S."""
    trick = [(2, "2H"), (1, "AH"), (0, "3H")]
    t = face_down(table(3, "3S 4S 5D 9D", trick), hider=3, card="2S")
    assert decide(t, "hidden-trump", reveal=True) == "5D"
    t = face_down(table(3, "3S 4S 5D 9D", trick), hider=1)
    assert decide(t, "hidden-trump", reveal=True) == "3S"


def test_do_not_lead_a_boss_into_a_void_while_trump_is_hidden():
    # AC is a boss, but seat 2 has shown out of clubs: he could ask for trump and ruff it.
    t = face_down(table(3, "AC 4D 7D", [], played="2C 3C", voids={2: 0}), hider=0)
    assert decide(t, "hidden-trump") != "AC"
    t = face_down(table(3, "AC 4D 7D", [], played="2C 3C"), hider=0)
    assert decide(t, "hidden-trump") == "AC"


def test_change_trump_to_a_much_longer_suit():
    hand = parse_cards("2C 3C AH KH QH 9H 8H 7H 2D 3D 4D 3S")
    assert card_text(rb.swap_choice(hand, parse_card("2S"))) == "7H"
    assert rb.swap_choice(hand, parse_card("2H")) is None
