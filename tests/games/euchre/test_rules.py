"""One scenario per rule of shared/rules/euchre.md, named after the rule."""

import pytest

from tricktable.cards import parse_card, parse_cards
from tricktable.errors import GameOver, IllegalAction, NotationError, NotYourTurn
from tricktable.games.euchre import SPEC
from tricktable.games.euchre.rules import DECK, deal_score
from tricktable.games.euchre.state import DISCARDING, PLAYING

from .helpers import DEAL_A, DEAL_B, position

# Deal B played out with hearts trump: seat 0 takes the first three tricks with
# JH, JD, AH; seat 1 takes the last two with AC and KC.
DEAL_B_PLAY = [
    "play JH", "play 10C", "play 10S", "play 9H",
    "play JD", "play QC", "play JS", "play 10D",
    "play AH", "play JC", "play QS", "play QD",
    "play 9C", "play AC", "play KS", "play KD",
    "play KC", "play AS", "play AD", "play 9S",
]


# -- Table and deck --------------------------------------------------------------
def test_deck_is_24_cards_nine_to_ace():
    """Table and deck: 24 cards, 9, 10, J, Q, K, A of each suit."""
    assert sorted(DECK) == sorted(parse_cards(
        "9C 10C JC QC KC AC 9D 10D JD QD KD AD 9H 10H JH QH KH AH 9S 10S JS QS KS AS"))


def test_deal_is_five_each_in_packets_of_3_2_then_2_3_and_an_up_card():
    """Table and deck: 3 then 2, then 2 then 3, from the dealer's left; next card turned up."""
    from tricktable.core.rng import shuffled

    deal = SPEC.deal_from_seed("packets", 2, {})
    order = shuffled(DECK, "packets")
    # Dealer 2: seats 3, 0, 1, 2 receive 3, 2, 3, 2 cards, then 2, 3, 2, 3.
    assert deal.hands[3] == tuple(order[0:3] + order[10:12])
    assert deal.hands[0] == tuple(order[3:5] + order[12:15])
    assert deal.hands[1] == tuple(order[5:8] + order[15:17])
    assert deal.hands[2] == tuple(order[8:10] + order[17:20])
    assert deal.rest == tuple(order[20:24])
    state = SPEC.new_deal(deal, SPEC.normalize_options({}))
    assert state.view(0)["up_card"] == __import__("tricktable.cards").cards.card_text(order[20])


def test_first_dealer_is_drawn_from_the_seed_then_the_deal_passes_left():
    """Table and deck: first dealer at random; afterwards the deal passes to the left."""
    import random

    first_dealers = {SPEC.new_match(f"m{i}", SPEC.normalize_options({})).dealer for i in range(40)}
    assert first_dealers == {0, 1, 2, 3}
    match = SPEC.new_match("passes-left", SPEC.normalize_options({}))
    rng = random.Random(1)
    dealers = [match.dealer]
    while len(match.results) < 4:
        match.apply(rng.choice(match.legal_actions()))
        if match.results and len(dealers) == len(match.results):
            dealers.append(match.dealer)
    assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:]))


def test_play_goes_clockwise_from_the_dealers_left():
    """Table and deck / Making trump: bidding starts left of the dealer and goes clockwise."""
    state = position(DEAL_A)
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        state.act(state.to_move, "pass")
    assert seats == [0, 1, 2, 3]


# -- Making trump -----------------------------------------------------------------
def test_order_up_ends_round_one_and_the_dealer_picks_up_and_discards():
    """Making trump, round 1: order it up → trump is the up-card's suit, dealer discards."""
    state = position(DEAL_A, ["order up", "with partner"])
    assert state.trump == parse_card("9H") // 13
    assert state.to_move == 3
    assert set(state.view(3)["hand"]) == {"KS", "AS", "9D", "10D", "QD", "9H"}
    assert all(text.startswith("discard") for text in state.legal_texts())
    state.act(3, "discard 9D")
    assert state.view(3)["hand"] == ["10D", "QD", "9H", "KS", "AS"]
    assert state.to_move == 0  # play begins


def test_dealer_may_order_it_up_himself():
    """Making trump: the dealer may order it up too ("pick it up")."""
    state = position(DEAL_A, ["pass", "pass", "pass", "order up", "with partner"])
    assert state.maker == 3 and state.to_move == 3 and state.phase == DISCARDING


def test_round_two_excludes_the_turned_down_suit():
    """Making trump, round 2: name any suit except the turned-down one."""
    state = position(DEAL_A, ["pass"] * 4)
    assert state.view(0)["up_card_status"] == "turned down"
    assert state.legal_texts() == ["pass", "call C", "call D", "call S"]
    with pytest.raises(IllegalAction):
        state.act(0, "call H")


def test_stuck_dealer_must_name_a_suit():
    """Making trump: if the first three pass in round 2, the dealer must name a suit."""
    state = position(DEAL_A, ["pass"] * 7)
    assert state.to_move == 3
    assert "pass" not in state.legal_texts()
    with pytest.raises(IllegalAction):
        state.act(3, "pass")
    state.act(3, "call S")
    assert state.maker == 3


def test_without_stick_the_dealer_the_hand_is_thrown_in():
    """Options, stick the dealer off: everyone passes twice → hand thrown in, 0 points."""
    state = position(DEAL_A, ["pass"] * 8, stick_the_dealer=False)
    assert state.is_terminal()
    assert state.returns() == [0, 0, 0, 0]
    assert [line.key for line in state.breakdown()] == ["thrown_in"]


def test_maker_is_who_ordered_up_or_named_trump():
    """Making trump: the maker is who ordered up or named trump; his team the Makers."""
    assert position(DEAL_A, ["pass", "order up"]).maker == 1
    assert position(DEAL_A, ["pass"] * 5 + ["call D"]).maker == 1


# -- Going alone --------------------------------------------------------------------
def test_only_the_maker_decides_to_go_alone_when_making_trump():
    """Going alone: only the maker may go alone, deciding when making trump."""
    state = position(DEAL_A, ["order up"])
    assert state.to_move == 0 and state.legal_texts() == ["alone", "with partner"]
    state.act(0, "with partner")
    state.act(3, "discard 9D")
    # Nobody is ever offered "alone" again: defenders never go alone.
    while not state.is_terminal():
        assert "alone" not in state.legal_texts()
        state.apply(state.legal_actions()[0])


def test_lone_makers_partner_sits_out_and_tricks_have_three_cards():
    """Going alone: his partner lays his cards down and sits out the hand."""
    state = position(DEAL_A, ["order up", "alone", "discard 9D"])
    assert state.sitting_out == 2
    while not state.is_terminal():
        assert state.to_move != 2
        state.apply(state.legal_actions()[0])
    assert all(len(cards) == 3 for _, cards, _ in state.tricks)
    assert state.view(0)["hand_sizes"][2] == 5


def test_lone_maker_with_dealer_partner_dealer_neither_picks_up_nor_discards():
    """Going alone, Decision: the sitting-out dealer neither picks up nor discards."""
    state = position(DEAL_A, ["pass", "order up", "alone"])
    assert state.sitting_out == 3 == state.dealer
    assert state.phase == PLAYING  # straight to play, no discard
    assert state.view(0)["hand_sizes"][3] == 5
    assert state.view(0)["up_card_status"] == "taken out of play"


# -- Card ranking -------------------------------------------------------------------
def test_right_bower_beats_left_bower_beats_ace_of_trumps():
    """Card ranking: right bower, left bower, then A, K, Q, 10, 9 of trumps."""
    state = position(DEAL_B, ["pass", "pass", "pass", "pass", "pass", "call S", "with partner"])
    # Spades trump, seat 0 leads.  Seat 0: JH JD AH 9C 9S; seat 1: clubs; seat 2: spades.
    state.act(0, "play 9S")
    state.act(1, "play JC")   # left bower of spades
    state.act(2, "play AS")
    state.act(3, "play 9D")
    assert state.tricks[-1][2] == 1


# Deal C: hearts trump after ordering up AH; seat 1's only "diamond" is JD, the left bower.
DEAL_C = {
    "dealer": 3,
    "hands": ["AD 9C 9S 10S QS", "JD 10C JC QC KC", "AC KS AS 9H 10H", "9D 10D QD KD JS"],
    "rest": "AH JH QH KH",
}


def test_left_bower_does_not_follow_its_printed_suit():
    """Card ranking: the left bower is a trump in every respect — not a diamond."""
    state = position(DEAL_C, ["order up", "with partner", "discard JS"])
    state.act(0, "play AD")
    assert state.legal_texts() == ["play 10C", "play JC", "play QC", "play KC", "play JD"]  # void: any card
    state.act(1, "play 10C")
    state.act(2, "play AC")
    assert state.legal_texts() == ["play 9D", "play 10D", "play QD", "play KD"]  # AH is not a diamond
    state.act(3, "play 9D")
    assert state.tricks[-1][2] == 0


def test_left_bower_follows_trump():
    """Card ranking: the left bower follows trump when trump is led."""
    state = position(DEAL_C, ["order up", "with partner", "discard JS",
                              "play AD", "play 10C", "play AC", "play 9D",
                              "play 9C"])
    assert state.legal_texts() == ["play JC", "play QC", "play KC"]  # JD is not a club
    state.act(1, "play KC")
    state.act(2, "play 9H")
    state.act(3, "play 10D")
    assert state.tricks[-1][2] == 2
    state.act(2, "play 10H")
    assert state.legal_texts() == ["play AH"]
    state.act(3, "play AH")
    state.act(0, "play 9S")
    assert state.legal_texts() == ["play JD"]
    state.act(1, "play JD")
    assert state.tricks[-1][2] == 1  # left bower beats the ace of trumps


def test_plain_suits_rank_ace_king_queen_jack_ten_nine():
    """Card ranking: other suits A, K, Q, J, 10, 9."""
    from tricktable.games.euchre.rules import POWER

    order = [parse_card(t) for t in ("AC", "KC", "QC", "JC", "10C", "9C")]
    powers = [POWER[1][c] for c in order]  # diamonds trump: clubs is a plain suit
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 6


# -- Play -------------------------------------------------------------------------------
def test_player_left_of_dealer_leads_first():
    """Play, Decision: the player to the dealer's left leads the first trick."""
    state = position(DEAL_A, ["order up", "with partner", "discard 9D"])
    assert state.to_move == 0 and state.leader == 0


def test_if_the_leader_sits_out_the_next_player_leads():
    """Play, Decision: if that player sits out, the next player to the left leads."""
    state = position(DEAL_A, ["pass", "pass", "order up", "alone", "discard 9D"])
    assert state.sitting_out == 0
    assert state.to_move == 1 == state.leader


def test_must_follow_suit_and_illegal_card_changes_nothing():
    """Play: follow the led suit if you can; an illegal card is refused, state untouched."""
    state = position(DEAL_A, ["order up", "with partner", "discard 9D"])
    state.act(0, "play JH")
    before = state.view(1), list(state.history)
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.act(1, "play AS")
    assert state.view(1) == before[0] and state.history == before[1]
    state.act(1, "play 9C")  # no trump in hand: any card
    state.act(2, "play AC")
    with pytest.raises(IllegalAction, match="must follow trump"):
        state.act(3, "play AS")  # seat 3 holds the picked-up 9H
    assert state.view(3)["hand"] == ["10D", "QD", "9H", "KS", "AS"]
    state.act(3, "play 9H")


def test_trick_goes_to_highest_trump_else_highest_of_led_suit():
    """Play: highest trump wins, else the highest card of the led suit."""
    state = position(DEAL_B, ["order up", "with partner", "discard 9D"])
    state.act(0, "play 9C")
    state.act(1, "play KC")
    state.act(2, "play AS")  # off-suit ace does not win
    state.act(3, "play 9H")  # the only trump wins
    assert state.tricks[-1][2] == 3
    state.act(3, "play AD")
    state.act(0, "play 9S")
    state.act(1, "play AC")
    state.act(2, "play KS")
    assert state.tricks[-1][2] == 3  # nobody followed diamonds or trumped


def test_the_winner_leads_the_next_trick():
    """Play: the winner leads the next trick."""
    state = position(DEAL_B, ["order up", "with partner", "discard 9D"] + DEAL_B_PLAY[:16])
    assert state.leader == 1 == state.to_move


# -- Scoring ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "tricks, alone, expected",
    [(3, False, ("made", 1, 0)), (4, False, ("made", 1, 0)), (5, False, ("march", 2, 0)),
     (3, True, ("alone_made", 1, 0)), (4, True, ("alone_made", 1, 0)), (5, True, ("alone_march", 4, 0)),
     (2, False, ("euchred", 0, 2)), (0, True, ("euchred", 0, 2))],
)
def test_scoring_table_rows(tricks, alone, expected):
    """Scoring: every row of the table."""
    assert deal_score(tricks, alone) == expected


def test_makers_win_three_tricks_score_one():
    """Scoring: Makers win 3 or 4 tricks → 1."""
    state = position(DEAL_B, ["order up", "with partner", "discard 9D"] + DEAL_B_PLAY)
    assert state.tricks_won == [3, 2]
    assert state.returns() == [1, 0, 1, 0]


def test_makers_win_all_five_march_scores_two():
    """Scoring: Makers win all 5 (march) → 2."""
    state = position(DEAL_A, ["order up", "with partner", "discard 9D"])
    for lead in ("JH", "JD", "AH", "KH", "QH"):
        state.act(0, f"play {lead}")
        while state.trick:
            state.apply(state.legal_actions()[0])
    assert state.returns() == [2, 0, 2, 0]
    assert state.breakdown()[-1].key == "march"


def test_maker_alone_wins_three_scores_one():
    """Scoring: Maker alone wins 3 or 4 tricks → 1."""
    plays = ["play JH", "play 10C", "play 9H", "play JD", "play QC", "play 10D", "play AH", "play JC",
             "play QD", "play 9C", "play AC", "play KD", "play KC", "play AD", "play 9S"]
    state = position(DEAL_B, ["order up", "alone", "discard 9D"] + plays)
    assert state.is_terminal() and state.tricks_won == [3, 2]
    assert state.returns() == [1, 0, 1, 0]
    assert state.breakdown()[-1].key == "alone_made"


def test_maker_alone_wins_all_five_scores_four():
    """Scoring: Maker alone wins all 5 → 4."""
    state = position(DEAL_A, ["order up", "alone", "discard 9D"])
    for lead in ("JH", "JD", "AH", "KH", "QH"):
        state.act(0, f"play {lead}")
        while state.trick:
            state.apply(state.legal_actions()[0])
    assert state.returns() == [4, 0, 4, 0]


def test_defenders_win_three_euchre_scores_two():
    """Scoring: Defenders win 3 or more (euchre) → 2 for the Defenders."""
    state = position(DEAL_B, ["pass", "order up", "with partner", "discard 9D"] + DEAL_B_PLAY)
    assert state.maker == 1
    assert state.returns() == [2, 0, 2, 0]
    assert state.breakdown()[-1].key == "euchred"


def test_game_is_won_by_the_first_team_to_reach_ten():
    """Scoring: the first team to reach 10 points wins the game."""
    import random

    for seed in range(5):
        match = SPEC.new_match(f"to-ten-{seed}", SPEC.normalize_options({}))
        rng = random.Random(seed)
        while not match.is_terminal():
            before = [match.totals[0], match.totals[1]]
            match.apply(rng.choice(match.legal_actions()))
        assert max(match.totals) >= 10 and max(before) < 10
        assert match.view(0)["match"]["winner_team"] == (0 if match.totals[0] >= 10 else 1)
        with pytest.raises(GameOver):
            match.apply(0)


# -- Options and modes -------------------------------------------------------------------
FARMER_DEAL = {
    "dealer": 3,
    "hands": ["9C 10C 9S 10S 9D", "JC QC KC AC 10D", "JS QS KS AS JD", "QD KD AD 9H 10H"],
    "rest": "JH QH KH AH",
}


def test_farmers_hand_may_ask_for_a_redeal_only_with_the_option():
    """Options, farmer's hand: a player dealt only nines and tens may ask for a redeal."""
    assert "farmer's hand" not in position(FARMER_DEAL).legal_texts()
    state = position(FARMER_DEAL, farmers_hand=True)
    assert "farmer's hand" in state.legal_texts()
    state.act(0, "farmer's hand")
    assert state.is_terminal() and state.returns() == [0, 0, 0, 0]
    # Seat 1 holds a jack: never offered.
    assert "farmer's hand" not in position(FARMER_DEAL, ["pass"], farmers_hand=True).legal_texts()


def test_farmers_redeal_is_dealt_by_the_same_dealer_and_is_not_counted():
    """Options, farmer's hand (Decision: the same dealer deals again, same deal number)."""
    for i in range(400):
        match = SPEC.new_match(f"farmer-{i}", SPEC.normalize_options({"farmers_hand": True}))
        if "farmer's hand" in match.current.legal_texts():
            dealer = match.dealer
            match.act(match.to_move, "farmer's hand")
            assert match.dealer == dealer and match.deals_played == 0
            assert match.view(0)["match"]["deal_number"] == 1
            return
    pytest.fail("no farmer's hand in 400 deals")


def test_daily_is_exactly_eight_deals_ranked_by_points_difference():
    """Modes, Daily: the same 8 deals; the score is your team's points minus theirs."""
    import random

    match = SPEC.new_match("daily-2026-11-29", SPEC.normalize_options({}), daily=True)
    twin = SPEC.new_match("daily-2026-11-29", SPEC.normalize_options({}), daily=True)
    assert match.current.view(0)["hand"] == twin.current.view(0)["hand"]
    rng = random.Random(0)
    while not match.is_terminal():
        match.apply(rng.choice(match.legal_actions()))
    assert match.deals_played == 8
    assert match.view(0)["match"]["daily_score"] == match.totals[0] - match.totals[1]


# -- Protocol behaviour on bad input ------------------------------------------------------
def test_wrong_seat_and_gibberish_are_refused_without_change():
    state = position(DEAL_A)
    with pytest.raises(NotYourTurn):
        state.act(2, "pass")
    with pytest.raises(NotationError):
        state.act(0, "bid seven no trump")
    assert state.history == [] and state.to_move == 0
