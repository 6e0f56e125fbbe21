"""One scenario per option of shared/rules/euchre.md ("Options"), named after the
rule, with hand-computed scores: game target, defend alone, dealer's partner
must go alone.  Every option is off (the target 10) by default."""

import random

import pytest

from tricktable.bots import make_bot
from tricktable.errors import IllegalAction
from tricktable.games.euchre import SPEC
from tricktable.games.euchre.state import DISCARDING, PLAYING

from .helpers import DEAL_A, position

# Dealer 3, up-card 9H.  Seat 1 holds the bowers and three aces; seat 0 the
# middle hearts and two kings.
DEAL_LONE_DEFENCE = {
    "dealer": 3,
    "hands": ["KH QH 10H KC KS", "JH JD AH AC AS", "9C 10C JC QC 9D", "10D QD KD AD 9S"],
    "rest": "9H 10S JS QS",
}
# The same hands moved two seats on: seat 2 holds the middle hearts, seat 3 (the
# dealer) the bowers and aces.
DEAL_LONE_DEALER = {**DEAL_LONE_DEFENCE, "hands": [DEAL_LONE_DEFENCE["hands"][(s + 2) % 4] for s in range(4)]}


def play_out(state, cards: list[str]) -> None:
    for text in cards:
        state.act(state.to_move, f"play {text}")


def test_options_default_to_todays_rules():
    """Options: off unless said; the game target is 10 by default."""
    options = SPEC.normalize_options({})
    assert options["game_target"] == 10
    assert options["defend_alone"] is False and options["dealers_partner_alone"] is False
    state = position(DEAL_LONE_DEFENCE, ["order up", "alone"])
    assert state.phase == DISCARDING and state.to_move == 3  # no defender is asked


# -- Game target ------------------------------------------------------------------------
@pytest.mark.parametrize("target", [5, 7, 10, 11])
def test_game_target_ends_the_game_when_a_team_reaches_it(target):
    """Game target: 10 points by default; 5, 7 or 11 on request."""
    match = SPEC.new_match(f"target {target}", SPEC.normalize_options({"game_target": target}))
    bot = make_bot("heuristic", seed="target")
    totals_seen = []
    while not match.is_terminal():
        before = len(match.results)
        match.apply(match.parse_action(bot.choose(match.observe(match.to_move))))
        if len(match.results) > before:
            totals_seen.append(max(match.totals))
    assert totals_seen[-1] >= target and all(t < target for t in totals_seen[:-1])
    view = match.view(0)["match"]
    assert view["target"] == target


def test_game_target_takes_only_5_7_10_or_11():
    """Game target: 5, 7, 10 or 11, nothing else."""
    with pytest.raises(ValueError):
        SPEC.normalize_options({"game_target": 9})


# -- Defend alone -----------------------------------------------------------------------
def test_defend_alone_defenders_are_asked_in_turn_from_the_makers_left():
    """Defend alone: after the maker goes alone the defenders are asked in turn
    from the maker's left."""
    state = position(DEAL_LONE_DEFENCE, ["order up", "alone"], defend_alone=True)
    assert state.to_move == 1 and state.legal_texts() == ["pass", "defend alone"]
    state.act(1, "pass")
    assert state.to_move == 3 and state.legal_texts() == ["pass", "defend alone"]
    state.act(3, "pass")
    assert state.phase == DISCARDING and state.to_move == 3 and state.lone_defender == -1


def test_defend_alone_is_not_asked_when_the_maker_plays_with_his_partner():
    """Defend alone: only after the maker goes alone."""
    state = position(DEAL_LONE_DEFENCE, ["order up", "with partner"], defend_alone=True)
    assert state.phase == DISCARDING
    with pytest.raises(IllegalAction):
        state.act(3, "defend alone")


def test_defend_alone_the_first_to_say_so_defends_and_his_partner_sits_out():
    """Defend alone: the first to say so defends alone and his partner sits out;
    the dealer who sits out neither picks up nor discards; tricks of two cards."""
    state = position(DEAL_LONE_DEFENCE, ["order up", "alone", "defend alone"], defend_alone=True)
    assert state.lone_defender == 1 and state.sitting_out == 2
    assert state.phase == PLAYING  # the dealer (seat 3) sits out: no pick-up, no discard
    view = state.view(0)
    assert view["lone_defender"] == 1 and view["sitting_out"] == 2
    assert view["up_card_status"] == "taken out of play" and view["hand_sizes"] == [5, 5, 5, 5]
    assert state.to_move == 0  # the dealer's left does not sit out: he leads


def test_defend_alone_a_lone_defender_who_euchres_scores_4():
    """Defend alone: a lone defender who euchres scores 4 (here all five tricks:
    still 4, a march is the makers')."""
    state = position(DEAL_LONE_DEFENCE, ["order up", "alone", "defend alone"], defend_alone=True)
    play_out(state, ["KH", "JH", "JD", "QH", "AH", "10H", "AC", "KC", "AS", "KS"])
    assert all(len(cards) == 2 for _, cards, _ in state.tricks)
    assert state.tricks_won == [0, 5]
    assert state.returns() == [0, 4, 0, 4]
    assert state.view(1)["result"]["outcome"] == "lone_euchre"


def test_defend_alone_a_lone_maker_who_makes_3_against_a_lone_defender_scores_1():
    """Defend alone: the makers' side of the table is unchanged (3 or 4 tricks: 1)."""
    deal = {"dealer": 3, "hands": ["JH JD AH AC 9S", "KH QH 10H KC AS", "9C 10C JC QC 9D", "10D QD KD AD KS"],
            "rest": "9H 10S JS QS"}
    state = position(deal, ["order up", "alone", "defend alone"], defend_alone=True)
    # Seat 0 draws trump three times, loses 9S to AS and takes KC with AC.
    play_out(state, ["JH", "10H", "JD", "QH", "AH", "KH", "9S", "AS", "KC", "AC"])
    assert state.tricks_won == [4, 1]
    assert state.returns() == [1, 0, 1, 0]


def test_defend_alone_the_leader_is_the_first_from_the_dealers_left_who_does_not_sit_out():
    """Defend alone: the leader is the first player from the dealer's left who
    does not sit out (here seats 0 and 1 both sit out: seat 2 leads)."""
    state = position(DEAL_LONE_DEALER, ["pass", "pass", "order up", "alone", "defend alone"], defend_alone=True)
    assert (state.maker, state.sitting_out, state.lone_defender) == (2, 0, 3)
    assert state.phase == DISCARDING and state.to_move == 3  # the lone defender deals: he picks up
    state.act(3, "discard AS")
    assert state.to_move == 2 and state.leader == 2


def test_defend_alone_the_second_defender_may_defend_after_the_first_passes():
    """Defend alone: asked in turn; the second defender may say so."""
    state = position(DEAL_LONE_DEFENCE, ["order up", "alone", "pass", "defend alone"], defend_alone=True)
    assert state.lone_defender == 3 and state.sitting_out == 2
    assert state.phase == DISCARDING and state.to_move == 3  # the dealer defends: he picks up
    state.act(3, "discard 9S")
    assert state.to_move == 0  # seat 1 (the dealer's partner) sits out; seat 0 is to the dealer's left
    play_out(state, ["KH", "9H"])
    assert state.tricks[0][2] == 0 and len(state.tricks[0][1]) == 2


# -- Dealer's partner must go alone --------------------------------------------------------
def test_dealers_partner_must_go_alone_when_ordering_up_in_round_1():
    """Dealer's partner must go alone: ordering up one's partner the dealer in
    round 1 means going alone; the dealer sits out and neither picks up nor discards."""
    state = position(DEAL_A, ["pass", "order up"], dealers_partner_alone=True)
    assert state.maker == 1 and state.alone and state.sitting_out == 3
    assert state.phase == PLAYING and state.view(0)["up_card_status"] == "taken out of play"
    # Seat 1 holds no heart: seat 0's hearts take every trick, a euchre for 2.
    play_out(state, ["JH", "9C", "9S", "JD", "10C", "10S", "AH", "JC", "JS", "KH", "QC", "QS", "QH", "KC", "AC"])
    assert state.tricks_won == [5, 0]
    assert state.returns() == [2, 0, 2, 0]


def test_dealers_partner_must_go_alone_only_in_round_1_and_only_the_dealers_partner():
    """Dealer's partner must go alone: the others order up as usual, and a suit
    named in round 2 leaves the choice."""
    state = position(DEAL_A, ["order up"], dealers_partner_alone=True)
    assert state.legal_texts() == ["alone", "with partner"]
    state = position(DEAL_A, ["pass"] * 5 + ["call D"], dealers_partner_alone=True)
    assert state.maker == 1 and state.legal_texts() == ["alone", "with partner"]
    state = position(DEAL_A, ["pass", "order up"])
    assert state.legal_texts() == ["alone", "with partner"]  # off: the choice as always


def test_all_options_together_replay_identically():
    """Options: remembered in the record; a hand with every option replays."""
    from tricktable.catalog import replay
    from tricktable.core.record import record_of

    options = {"defend_alone": True, "dealers_partner_alone": True, "game_target": 5}
    rng = random.Random(5)
    for index in range(30):
        state = SPEC.new_deal(SPEC.deal_from_seed(f"all {index}", index % 4, {}), SPEC.normalize_options(options))
        while not state.is_terminal():
            state.apply(rng.choice(list(state.legal_actions())))
        again = replay(record_of(state).to_json())
        assert again.history == state.history and again.returns() == state.returns()
