"""Be-Ranga bots: setting trump and the pile (tricktable/bots/relatives.py)."""

from tricktable.bots import make_bot
from tricktable.games.courtpiece.rules import SPADES

from .relatives_helpers import client_view, decide, new_state, play, table


def choose(t, trump_trick=0):
    t.trump_trick = trump_trick
    return decide(t, "be-ranga")


def test_set_trump_with_the_longest_strong_suit():
    # Void in clubs while no trump is set: whatever seat 0 plays becomes trump.
    t = table(0, "AS KS QS 4S 2D 3D 4D JH", [(1, "AC")])
    assert choose(t) == "4S"
    t = table(0, "2S 3S 5S 4D KD AD QD JD", [(1, "AC")])
    assert choose(t) == "4D"  # five diamonds with honours beat three low spades


def test_lead_a_boss_while_no_trump_is_set():
    assert choose(table(0, "KH QH JH 9H 2C AD 6D", [])) == "AD"


def test_without_a_boss_lead_the_shortest_suit_to_show_out_first():
    assert choose(table(0, "KH QH JH 9H 2C 5D 6D", [])) == "2C"


def test_no_pair_can_capture_before_the_trick_after_the_trump_trick():
    """Trump set in trick 3: in trick 3 a win only adds to the pile, so the
    opponent's open pair is nothing to break; from trick 4 it is."""
    t = table(0, "QH 3H 2C", [(1, "10H")], trump=SPADES, pile=3, open_seat=1, tricks_played=2)
    assert choose(t, trump_trick=3) == "3H"  # second hand low: little at stake
    t.tricks_played = 3
    assert choose(t, trump_trick=3) == "QH"  # break the opponent's streak


def test_the_bot_sets_trump_in_a_real_deal():
    """Dealer 0: seat 3 leads clubs; seat 2 has none and sets spades, his suit."""
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D",
        "JC QC KC 6D 7D 8D 9D 10D JD 2H 3H 4H 5H",
        "AS KS QS JS 10S 9S QD KD AD 6H 7H 8H 9H",
        "AC 2S 3S 4S 5S 6S 7S 8S 10H JH QH KH AH",
    ]
    state = new_state("be-ranga", hands)
    play(state, "AC")
    choice = make_bot("heuristic").choose(client_view(state))
    assert choice == "play 9S"
    play(state, "9S")
    assert state.trump == SPADES
