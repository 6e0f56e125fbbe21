"""Rules shared by every Court Piece game, one scenario per rule
(shared/rules/court-piece.md, "Rules shared by every Court Piece game",
"Calling trump", "End of a deal", "Scoring", "The app's own extras", "Relatives:
Single Sar")."""

import pytest

from tricktable.cards import parse_card
from tricktable.errors import GameOver, IllegalAction, NotationError
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.core.rng import shuffled
from tricktable.games.courtpiece import DOUBLE_SAR, SINGLE_SAR
from tricktable.games.courtpiece.rules import CALLERS_KOT, CALLERS_WON, DECK, GOON_KOT, OTHERS_WON
from tricktable.games.courtpiece.actions import CALL, CHANGE, NEW_CARDS, PASS, TIMEOUT
from tricktable.games.courtpiece.state import stock_order

from .helpers import block_deal, new_state, play_tricks, scripted, trick_cards

# Seat 3 (the caller, dealer 0) holds every club; seat 2 spades and diamonds;
# seat 1 diamonds and hearts; seat 0 hearts and spades.
SUITED = {
    "dealer": 0,
    "hands": [
        "2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S AC",
        "2D 3D 4D 5D 6D 7D 8D 9H 10H JH QH KH AH",
        "8S 9S 10S JS QS KS AS 9D 10D JD QD KD AD",
        "7S 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    ],
    "rest": "",
}


def seeded(spec=SINGLE_SAR, seed="rules", dealer=0, **options):
    return spec.new_deal(spec.deal_from_seed(seed, dealer, {}), spec.normalize_options(options))


def test_deal_is_5_then_4_then_4_counter_clockwise_from_the_callers_seat():
    """Shared rules: deal 5 cards to everyone, then 4, then 4, to the right
    (counter-clockwise), starting with the player to the dealer's right."""
    deal = SINGLE_SAR.deal_from_seed("packets", 2, {})
    cards = shuffled(DECK, "packets")
    order = [1, 0, 3, 2]  # North deals; to his right sit West, then South, East, North
    expected = {seat: [] for seat in range(4)}
    position = 0
    for size in (5, 4, 4):
        for seat in order:
            expected[seat] += cards[position:position + size]
            position += size
    assert [list(h) for h in deal.hands] == [expected[s] for s in range(4)]
    assert sorted(c for h in deal.hands for c in h) == sorted(DECK) and deal.rest == ()


def test_caller_is_the_player_to_the_dealers_right():
    """Shared rules: every later deal, the player to the dealer's right calls
    (South deals → East, seat 3, calls)."""
    for dealer, caller in ((0, 3), (1, 0), (2, 1), (3, 2)):
        state = seeded(dealer=dealer)
        assert (state.caller, state.to_move) == (caller, caller)


def test_caller_chooses_trump_from_his_first_five_cards_only():
    """Shared rules: the caller chooses trump from his first five cards; the
    other eight are dealt after the call."""
    state = seeded(dealer=1)
    for seat in range(4):
        view = state.view(seat)
        assert view["hand"] == sorted(view["hand"], key=parse_card)
        assert {parse_card(c) for c in view["hand"]} == set(state.deal.hands[seat][:5])
        assert view["hand_sizes"] == [5, 5, 5, 5] and not view["all_dealt"]
    state.act(0, "call D")
    assert len(state.view(0)["hand"]) == 13 and state.view(2)["hand_sizes"] == [13] * 4


def test_caller_leads_and_play_goes_to_the_right():
    """Shared rules: the caller leads the first trick; play goes counter-clockwise."""
    state = new_state("single-sar", block_deal([0, 1] * 6, 0))
    state.act(3, "call S")
    assert state.to_move == 3
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        state.apply(state.legal_actions()[0])
    assert seats == [3, 2, 1, 0]


def test_follow_suit_if_you_can():
    """Shared rules: follow the led suit if you can; an illegal card changes nothing."""
    deal = block_deal([0, 1] * 6, 0)
    hands = trick_cards(deal)
    state = new_state("single-sar", deal)
    state.act(3, "call S")
    state.act(3, f"play {hands[3][0]}")
    clubs = [c for c in hands[2] if c.endswith("C")]
    assert len(clubs) == 3 and sorted(state.legal_texts()) == sorted(f"play {c}" for c in clubs)
    before = state.view(2)
    with pytest.raises(IllegalAction, match="must follow C"):
        state.act(2, f"play {next(c for c in hands[2] if c.endswith('D'))}")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.act(2, f"play {hands[0][1]}")
    assert state.view(2) == before


def test_trumping_is_never_compulsory_and_the_highest_trump_wins():
    """Shared rules: a player who cannot follow plays any card; the trick goes to
    the highest trump, else to the highest card of the led suit."""
    state = new_state("single-sar", SUITED)
    state.act(3, "call S")
    state.act(3, "play 2C")
    assert len(state.legal_actions()) == 13  # seat 2 holds no club: any card
    state.act(2, "play 9D")
    state.act(1, "play AH")
    state.act(0, "play AC")
    assert state.tricks[-1][2] == 0  # no trump fell: the highest club wins, the ace of hearts does not
    state.act(0, "play 2H")
    state.act(3, "play 7S")
    state.act(2, "play 8S")
    state.act(1, "play 9H")
    assert state.tricks[-1][2] == 2  # the higher of two trumps


def test_pass_to_partner():
    """Calling trump: the caller may pass once to his partner, who cannot pass."""
    state = seeded(dealer=0)
    assert "pass to partner" in state.legal_texts()
    state.act(3, "pass to partner")
    assert state.to_move == 1 and "pass to partner" not in state.legal_texts()
    with pytest.raises(IllegalAction):
        state.apply(PASS)
    state.act(1, "call H")
    assert (state.trump, state.trump_by, state.to_move) == (2, 1, 3)
    assert state.view(0)["actions"] == [[3, "pass to partner"], [1, "call H"]]


def test_calling_deadline_is_20_seconds_or_10_in_the_first_game():
    """Calling trump: 20 seconds (10 in the person's very first game); the
    deadline is carried in the view only while trump is being called."""
    assert seeded().view(0)["deadline_seconds"] == 20
    first = seeded(first_game=True)
    assert first.view(3)["deadline_seconds"] == 10
    first.act(3, "call C")
    assert first.view(3)["deadline_seconds"] is None


def test_timeout_is_a_referee_action_no_player_can_send():
    """Calling trump: the timers are enforced by the server: only the referee
    applies a timeout; the caller's timeout passes the choice to his partner."""
    state = seeded()
    assert TIMEOUT not in state.legal_actions() and list(state.referee_actions()) == [TIMEOUT]
    with pytest.raises(IllegalAction, match="referee"):
        state.act(3, "timeout")
    with pytest.raises(IllegalAction):
        state.apply(TIMEOUT)
    state.apply_referee(TIMEOUT)
    assert state.to_move == 1 and state.view(1)["actions"] == [[3, "timeout"]]
    state.act(1, "call S")
    assert state.referee_actions() == ()
    with pytest.raises(IllegalAction):
        state.apply_referee(TIMEOUT)


def test_partner_timeout_turns_a_random_flip_card():
    """Calling trump: after the partner's timeout the dealer turns up a random card
    from the undealt stock and its suit is trump; the flip card is public, and comes
    from the deal's seed, so a record replays to the same flip."""
    flips = set()
    for n in range(40):
        state = seeded(DOUBLE_SAR, seed=f"flip{n}", dealer=n % 4)
        state.apply_referee(TIMEOUT)
        state.apply_referee(TIMEOUT)
        flip = state.flip_card
        assert flip in stock_order(state.deal)  # from the undealt stock...
        assert all(flip not in hand[:5] for hand in state.deal.hands)  # ...never a first-five card
        assert state.trump == flip // 13 and state.to_move == state.caller
        assert all(state.view(s)["flip_card"] == state.view(0)["flip_card"] for s in range(4))
        again = replay(record_of(state).to_json())
        assert again.flip_card == flip and again.view(2) == state.view(2)
        flips.add(flip)
    assert len({f // 13 for f in flips}) == 4 and len(flips) > 20


def test_change_trump_once_by_the_caller_before_the_first_card():
    """App extras, change trump: the caller may change trump once, after seeing
    all 13 cards and before the first card is played."""
    state = seeded(dealer=0)
    state.act(3, "pass to partner")
    state.act(1, "call H")
    assert [t for t in state.legal_texts() if t.startswith("change")] == [
        "change trump C", "change trump D", "change trump S"]
    state.act(3, "change trump D")
    assert state.trump == 1 and state.to_move == 3 and state.view(0)["changed_trump"]
    assert not any(t.startswith("change") for t in state.legal_texts())
    with pytest.raises(IllegalAction):
        state.apply(CHANGE + 0)
    state.apply(state.legal_actions()[0])
    assert not any(t.startswith("change") for t in state.legal_texts())


def test_change_trump_not_after_the_first_card_or_when_switched_off():
    """App extras, change trump: not once a card is played; an option turns it off."""
    state = seeded(dealer=0)
    state.act(3, "call C")
    state.apply(state.legal_actions()[0])
    assert all(a < 52 for a in state.legal_actions())
    off = seeded(dealer=0, change_trump=False)
    off.act(3, "call C")
    assert all(a < 52 for a in off.legal_actions())


def test_new_cards_before_trump_is_called():
    """App extras, new cards: before trump is called the person may ask for a fresh
    deal; the deal is thrown in and scores nothing."""
    state = seeded(dealer=0, person_seat=3)
    assert "new cards" in state.legal_texts()
    state.act(3, "new cards")
    assert state.is_terminal() and state.returns() == [0, 0, 0, 0]
    assert state.view(3)["hand_sizes"] == [5, 5, 5, 5]  # the last packets were never dealt
    assert [line.key for line in state.breakdown()] == ["new_cards"]


def test_new_cards_only_for_the_person_any_seat_or_nobody():
    """App extras, new cards: only the person (``person_seat``, default South) may
    ask; ``new_cards="any seat"`` lets everyone, ``"off"`` nobody."""
    state = seeded(dealer=0)  # seat 3 calls, the person is seat 0
    assert "new cards" not in state.legal_texts() and state.legal_texts_for(0) == ["new cards"]
    with pytest.raises(IllegalAction, match="only the person"):
        state.apply(NEW_CARDS)
    state.act(3, "pass to partner")
    assert "new cards" not in state.legal_texts()  # seat 1 is a computer player
    state = seeded(dealer=0, new_cards="any seat")
    assert all(state.legal_texts_for(seat)[-1:] == ["new cards"] for seat in range(4))
    state = seeded(dealer=1, new_cards="off")
    assert all("new cards" not in state.legal_texts_for(seat) for seat in range(4))


def test_end_at_7_only_when_the_other_team_has_a_trick():
    """End of a deal (Single Sar): 7 tricks end the deal unless the other team has
    none; then play goes on until it wins one."""
    early = scripted("single-sar", [1] + [0, 2] * 3 + [0] + [1, 3, 1, 3], 0)
    assert early.is_terminal() and len(early.tricks) == 8 and early.captured == [7, 1]
    shut_out = scripted("single-sar", [0, 2] * 4 + [1, 3, 1, 3], 0, tricks=8)
    assert shut_out.captured == [8, 0] and not shut_out.is_terminal()
    play_tricks(shut_out, block_deal([0, 2] * 4 + [1, 3, 1, 3], 0))
    assert shut_out.is_terminal() and len(shut_out.tricks) == 9 and shut_out.captured == [8, 1]


def test_single_sar_counts_every_trick_at_once():
    """Relatives, Single Sar: every trick counts for its winner's team at once."""
    state = scripted("single-sar", [0, 1, 0, 1, 2, 3, 2] + [1] * 5, 0, tricks=7)
    assert state.captured == [4, 3] and "pile" not in state.view(0)


@pytest.mark.parametrize("game", ["single-sar", "double-sar"])
@pytest.mark.parametrize("counting", ["points", "kots"])
@pytest.mark.parametrize("winners,last,outcome", [
    ([1, 1, 3, 3] * 3, 1, CALLERS_KOT),
    ([0, 0, 2, 2] * 3, 2, GOON_KOT),
    ([0, 1, 1, 3, 3, 1, 1, 3, 3, 0, 2, 0], 0, CALLERS_WON),
    ([1, 0, 0, 2, 2, 0, 0, 2, 2, 1, 3, 1], 1, OTHERS_WON),
])
def test_kot_and_goon_kot_scoring_in_both_modes(game, counting, winners, last, outcome):
    """Scoring: callers win +1/0, the other team +2/0, callers' kot +3/+1, goon kot
    +4/+3 (points/kots mode), to the winning team."""
    table = {"points": {CALLERS_WON: 1, OTHERS_WON: 2, CALLERS_KOT: 3, GOON_KOT: 4},
             "kots": {CALLERS_WON: 0, OTHERS_WON: 0, CALLERS_KOT: 1, GOON_KOT: 3}}
    state = scripted(game, winners, last, counting=counting)
    assert state.outcome == outcome
    winners_team = 1 if outcome in (CALLERS_WON, CALLERS_KOT) else 0  # dealer 0: callers are team 1
    assert state.winners == winners_team
    expected = table[counting][outcome]
    assert state.returns() == [expected if s % 2 == winners_team else 0 for s in range(4)]
    lines = {line.key: line for line in state.breakdown()}
    assert lines[outcome].points == expected and lines[outcome].team == winners_team
    if outcome in (CALLERS_KOT, GOON_KOT):
        assert state.captured[winners_team] == 13


def test_action_notation_round_trips():
    """Notation: call H, pass to partner, play QS, new cards, change trump D, timeout —
    letters and symbols both parse, and text parses back to the same action."""
    state = seeded()
    actions = list(range(52)) + [CALL + s for s in range(4)] + [CHANGE + s for s in range(4)] + [PASS, NEW_CARDS, TIMEOUT]
    for action in actions:
        assert state.parse_action(state.action_text(action)) == action
    assert state.parse_action("call ♥") == CALL + 2 and state.parse_action("Play Q♠") == parse_card("QS")
    assert state.parse_action("change trump diamonds") == CHANGE + 1
    for bad in ("bid 7", "play", "call X", "change trump", "pass the salt"):
        with pytest.raises(NotationError):
            state.parse_action(bad)


def test_no_action_after_the_deal_is_over():
    """A finished deal refuses every action."""
    state = scripted("single-sar", [1, 1, 3, 3] * 3, 1)
    assert state.is_terminal() and state.legal_actions() == ()
    with pytest.raises(GameOver):
        state.apply(parse_card("2S"))


@pytest.mark.parametrize("spec", [SINGLE_SAR, DOUBLE_SAR])
def test_clone_is_independent(spec):
    """Protocol: a clone plays on without touching the original."""
    state = seeded(spec, dealer=2)
    state.act(state.to_move, "call C")
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    before = [state.view(s) for s in range(4)]
    twin = state.clone()
    while not twin.is_terminal():
        twin.apply(twin.legal_actions()[-1])
    assert [state.view(s) for s in range(4)] == before and twin.history[:len(state.history)] == state.history


@pytest.mark.parametrize("game", ["double-sar", "hidden-trump", "be-ranga"])
def test_clone_copies_every_field_and_owns_its_lists(game):
    """Protocol: a clone is the same state — every slot of the state (the clone
    names them one by one) — and owns every list it may change."""
    from tricktable.catalog import get_spec
    from tricktable.games.courtpiece.state import CourtPieceState

    spec = get_spec(game)
    state = seeded(spec, dealer=1)
    if state.referee_actions():  # the caller's time runs out (Be-Ranga calls nothing)
        state.apply_referee(state.referee_actions()[0])
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    assert not state.is_terminal()
    twin = state.clone()
    for name in CourtPieceState.__slots__:
        original, copied = getattr(state, name), getattr(twin, name)
        assert copied == original, name
        if isinstance(original, list) and name != "first_five":  # the first five cards never change
            assert copied is not original, name


def test_explicit_deals_must_give_thirteen_cards_each():
    """Records: an explicit deal is checked — all 52 cards, 13 to each player."""
    from tricktable.errors import RecordError

    good = block_deal([0, 1] * 6, 0)
    assert SINGLE_SAR.deal_from_json(good).hands[0][0] == parse_card(good["hands"][0].split()[0])
    hands = [h.split() for h in good["hands"]]
    uneven = dict(good, hands=[" ".join(hands[0] + hands[1][:1]), " ".join(hands[1][1:]), *good["hands"][2:]])
    with pytest.raises(RecordError, match="13 cards"):
        DOUBLE_SAR.deal_from_json(uneven)
