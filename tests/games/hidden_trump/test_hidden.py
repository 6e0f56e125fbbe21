"""Hidden Trump (Chhupa Rang), one scenario per rule — shared/rules/court-piece.md,
"Relatives: Hidden Trump", and the decisions in tricktable/games/courtpiece/trump.py (HiddenCard).

Dealer 0, so seat 3 calls and leads; play goes 3, 2, 1, 0.  In ``HANDS`` seat 3
holds twelve clubs and 2S, seat 2 the ace of clubs, spades and low hearts, seat 1
AS and diamonds, seat 0 four high spades, AD and high hearts.
"""

import random

import pytest

from tricktable.cards import parse_card
from tricktable.errors import IllegalAction, NotationError
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.courtpiece import HIDDEN_TRUMP
from tricktable.games.courtpiece.actions import CHANGE, HIDE, REVEAL, SWAP, TIMEOUT

from ..courtpiece.relatives_helpers import new_state, play

HANDS = [
    "10S JS QS KS AD 7H 8H 9H 10H JH QH KH AH",
    "AS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    "AC 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H",
    "2C 3C 4C 5C 2S 6C 7C 8C 9C 10C JC QC KC",
]


def hidden(card="2S", **options):
    state = new_state("hidden-trump", HANDS, **options)
    state.act(3, f"hide {card}")
    return state


def test_the_caller_puts_a_card_of_his_first_five_face_down():
    """Hidden Trump: the caller puts a card of the chosen suit face down (from his
    first five, as trump is chosen); only he sees it; he holds twelve cards."""
    state = new_state("hidden-trump", HANDS)
    assert state.legal_texts() == ["hide 2C", "hide 3C", "hide 4C", "hide 5C", "hide 2S", "pass to partner"]
    with pytest.raises(IllegalAction):
        state.act(3, "hide 6C")  # dealt in the second packet
    with pytest.raises(IllegalAction):
        state.act(3, "call S")  # no open call in Hidden Trump
    state.act(3, "hide 2S")
    mine, others = state.view(3), [state.view(s) for s in range(3)]
    assert mine["hidden_card"] == "2S" and "2S" not in mine["hand"] and mine["hand_sizes"] == [13, 13, 13, 12]
    assert mine["actions"] == [[3, "hide 2S"]] and mine["trump"] is None and mine["trump_hidden"]
    for view in others:
        assert view["hidden_card"] is None and view["trump"] is None and view["trump_hidden"]
        assert view["actions"] == [[3, "hide ?"]] and view["trump_by"] == 3


def test_after_a_pass_the_partner_puts_the_card_down_from_his_first_five():
    """Calling trump (shared): the caller may pass once; the partner then chooses,
    here by putting one of his own first five cards face down."""
    state = new_state("hidden-trump", HANDS)
    state.act(3, "pass to partner")
    assert state.legal_texts() == ["hide 2D", "hide 3D", "hide 4D", "hide 5D", "hide AS"]
    state.act(1, "hide AS")
    assert state.to_move == 3 and state.view(1)["hidden_card"] == "AS" and state.view(3)["hidden_card"] is None


def test_no_trump_until_it_is_revealed():
    """Hidden Trump: until it is revealed there is no trump — a card of the hidden
    suit thrown on another suit is a plain discard."""
    state = hidden()
    play(state, "2C", "AC", "AS", "AD")
    assert state.tricks[-1][2] == 2 and state.trump == 4  # the ace of clubs holds: AS is no trump


def test_only_a_player_who_cannot_follow_may_ask_to_see_it():
    """Hidden Trump: a player who cannot follow suit may ask to see it — not one
    who can follow, nor the leader."""
    state = hidden()
    assert "reveal" not in state.legal_texts()  # seat 3 leads
    play(state, "2C")
    assert "reveal" not in state.legal_texts()  # seat 2 holds AC
    with pytest.raises(IllegalAction):
        state.apply(REVEAL)
    play(state, "AC")
    assert "reveal" in state.legal_texts()  # seat 1 has no club


def test_the_revealed_card_is_shown_to_all_and_returns_to_the_callers_hand():
    """Hidden Trump: when asked, the card is shown to all and returns to the
    caller's hand; from then on its suit is trump."""
    state = hidden()
    play(state, "2C", "AC", "2D", "reveal")
    for seat in range(4):
        view = state.view(seat)
        assert (view["revealed_card"], view["revealed_by"], view["revealed_trick"]) == ("2S", 0, 1)
        assert view["trump"] == "S" and not view["trump_hidden"] and view["hidden_card"] is None
        assert view["hand_sizes"] == [13, 12, 12, 12]  # 2S is back, 2C played
    assert "2S" in state.view(3)["hand"] and state.view(1)["actions"][-1] == [0, "reveal"]


def test_the_asker_must_play_a_trump_if_he_has_one():
    """Hidden Trump: the player who asked must then play a trump if he has one."""
    state = hidden()
    play(state, "2C", "AC", "2D", "reveal")
    # (New cards stays offered until the person's own first card.)
    assert state.legal_texts() == ["play 10S", "play JS", "play QS", "play KS", "new cards"]
    with pytest.raises(IllegalAction, match="must play a trump"):
        state.act(0, "play AD")
    play(state, "10S")
    assert state.tricks[-1][2] == 0  # the trump wins


def test_an_asker_without_trumps_plays_any_card():
    """Hidden Trump: "must play a trump if he has one" — without one, any card."""
    state = hidden()
    play(state, "2C", "AC", "reveal")
    assert state.legal_texts() == ["play AS"]  # seat 1's only spade
    state = hidden()
    play(state, "2C", "AC", "AS", "AD")  # no asking: seat 2 wins and leads
    play(state, "2H", "reveal")  # seat 1 has neither hearts nor spades now
    assert len(state.legal_actions()) == 12


def test_only_trumps_played_from_the_reveal_on_count():
    """Hidden Trump: only trumps played from the reveal on count as trumps — AS
    thrown before the reveal loses to 10S played after it."""
    state = hidden()
    play(state, "2C", "AC", "AS", "reveal", "10S")
    assert state.tricks[-1][2] == 0 and state.trump == 3


def test_following_a_led_trump_suit_is_not_punished_by_a_reveal():
    """Decision: when the led suit turns out to be trump, the cards that followed
    it before the reveal still rank with it: AS (before) beats 2S (after)."""
    state = hidden()
    play(state, "2C", "AC", "2D", "AD")  # no asking; seat 2 wins and leads
    play(state, "3S", "AS", "10S", "reveal")
    assert state.legal_texts() == ["play 2S"]  # seat 3 took his card back and must trump
    play(state, "2S")
    assert state.tricks[-1][2] == 1


def test_the_face_down_card_as_the_last_card_must_be_revealed():
    """Decision: when the face-down card is its owner's last card, asking to see
    it is all he can do (Mendikot plays all 13 tricks, so the hider runs out)."""
    state = new_state("mendikot", HANDS)
    state.act(3, "hide 2S")
    while not state.is_terminal() and state.hands[3]:
        legal = [a for a in state.legal_actions() if a != REVEAL]
        state.apply(legal[0])
    while state.to_move != 3:
        state.apply(state.legal_actions()[0])
    assert state.legal_texts() == ["reveal"] and len(state.tricks) == 12
    state.act(3, "reveal")
    assert state.legal_texts() == ["play 2S"]
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.revealed_trick == 13 and parse_card("2S") in state.tricks[-1][1]


def test_change_trump_puts_a_card_of_another_suit_down_instead():
    """App extras, change trump (in Hidden Trump): the caller, once, with all 13
    cards seen and before the first card — Decision: he takes the face-down card
    back and puts a card of another suit down instead."""
    state = hidden()
    changes = [t for t in state.legal_texts() if t.startswith("change")]
    assert changes == [f"change trump {r}C" for r in "2 3 4 5 6 7 8 9 10 J Q K".split()]
    with pytest.raises(IllegalAction):
        state.act(3, "change trump 3S")
    state.act(3, "change trump 3C")
    assert state.view(3)["hidden_card"] == "3C" and "2S" in state.view(3)["hand"] and state.changed_trump
    assert state.view(0)["actions"] == [[3, "hide ?"], [3, "change trump ?"]]
    assert not any(t.startswith("change") for t in state.legal_texts())
    play(state, "2C", "AC", "reveal")
    assert state.view(2)["revealed_card"] == "3C" and state.trump == 0


def test_change_trump_not_for_a_card_the_caller_did_not_choose_and_not_when_off():
    """Decision: the caller cannot change his partner's face-down card (he does
    not know it); the option switches change trump off."""
    state = new_state("hidden-trump", HANDS)
    state.act(3, "pass to partner")
    state.act(1, "hide 2D")
    assert all(a < 52 for a in state.legal_actions())
    assert all(a < 52 for a in hidden(change_trump=False).legal_actions())


def test_a_flip_after_the_partners_timeout_is_an_open_trump():
    """Calling trump (shared) and Decision: after both timeouts the dealer turns up
    a stock card; it is face up, so trump is open from the start and changes as
    in Single Sar."""
    state = new_state("hidden-trump", HANDS)
    state.apply_referee(TIMEOUT)
    state.apply_referee(TIMEOUT)
    assert state.trump == state.flip_card // 13 and not state.view(0)["trump_hidden"]
    assert [t for t in state.legal_texts() if t.startswith("change")] == [
        f"change trump {s}" for s in "CDHS" if s != "CDHS"[state.trump]]


def test_other_seats_cannot_tell_which_card_is_face_down():
    """Views: until the reveal, nobody but the caller can tell the face-down card,
    nor its suit — the other seats see the same whichever card lies there."""
    spade, club = hidden("2S"), hidden("2C")
    for state in (spade, club):
        play(state, "3C", "AC", "2D", "AD")
    for seat in range(3):
        assert spade.view(seat) == club.view(seat)
    assert spade.view(3) != club.view(3)


def test_sampled_worlds_spread_the_face_down_card_over_the_suits():
    """World sampling: for the other seats the face-down card is any unseen card
    (they do not know its suit); the caller's own worlds keep his card."""
    state = hidden()
    play(state, "3C", "AC", "2D", "AD")
    rng = random.Random(7)
    suits = set()
    for _ in range(60):
        world = HIDDEN_TRUMP.sample_world(state.observe(0), rng)
        assert world.view(0) == state.view(0) and world.down in world.deal.hands[3][:5]
        suits.add(world.down // 13)
    assert len(suits) == 4
    assert all(HIDDEN_TRUMP.sample_world(state.observe(3), rng).down == state.down for _ in range(10))


def test_sampled_worlds_after_a_change_of_card_and_a_reveal():
    """World sampling: the card first put down (unknown after a change) lies in the
    caller's first five; the revealed card is in the caller's hand."""
    state = hidden()
    state.act(3, "change trump 3C")
    play(state, "2C", "AC", "reveal", "2D", "AD")
    rng = random.Random(3)
    for seat in range(4):
        for _ in range(20):
            world = HIDDEN_TRUMP.sample_world(state.observe(seat), rng)
            assert world.view(seat) == state.view(seat) and world.revealed == state.revealed


def test_records_replay_the_hidden_card():
    """Records: the record holds the real card (``hide 2S``), the views do not."""
    state = hidden()
    state.act(3, "change trump 5C")
    play(state, "2C", "AC", "reveal")
    record = record_of(state)
    assert record.actions == ["hide 2S", "change trump 5C", "play 2C", "play AC", "reveal"]
    again = replay(record.dumps())
    assert all(again.view(s) == state.view(s) for s in range(4))


def test_notation_round_trips():
    """Notation: hide 7S, reveal, change trump 9H (a card) or change trump D (after a flip)."""
    state = hidden()
    actions = [HIDE + c for c in range(52)] + [SWAP + c for c in range(52)] + [REVEAL] + [CHANGE + s for s in range(4)]
    for action in actions:
        assert state.parse_action(state.action_text(action)) == action
    assert state.parse_action("Hide 7♠") == HIDE + parse_card("7S")
    assert state.parse_action("change trump ♦") == CHANGE + 1
    for bad in ("hide", "hide X", "reveal now", "change trump"):
        with pytest.raises(NotationError):
            state.parse_action(bad)


def test_clone_is_independent():
    """Protocol: a clone plays on without touching the original (Mendikot's tens too)."""
    for game in ("hidden-trump", "mendikot"):
        state = new_state(game, HANDS)
        state.act(3, "hide 2S")
        play(state, "2C", "AC", "reveal", "AS")
        before = [state.view(s) for s in range(4)]
        twin = state.clone()
        while not twin.is_terminal():
            twin.apply(twin.legal_actions()[-1])
        assert [state.view(s) for s in range(4)] == before
