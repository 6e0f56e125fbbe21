"""Inference: sampled worlds weighted by what the others' decisions reveal.

Each scenario plays deals with the rules bot in every seat to a position where a
seat has just revealed something, samples worlds for another seat, and compares
the share of worlds where a fact holds: uniformly (hard constraints only) and
weighted by ``bots.inference``."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from lab.arena import deal_state
from tricktable.bots import doppelkopf as db
from tricktable.bots import euchre as eb
from tricktable.bots import inference, make_bot
from tricktable.bots.players import SearchBot, game_module, search_game
from tricktable.bots.levels import LEVELS
from tricktable.cards import CLUBS, COPY_OFFSET, JACK, KING, QUEEN, card, cards_of, rank_of, suit_of
from tricktable.core.protocol import GameState
from tricktable.catalog import entry
from tricktable.games.courtpiece.state import PLAYING
from tricktable.games.doppelkopf.rules import NORMAL
from tricktable.games.euchre import SPEC as EUCHRE
from lab.inference_check import measure

WORLDS = 60
Stop = Callable[[GameState, list[tuple[int, str]]], "int | None"]
"""After each action of a rules-played deal: the seat whose decision the scenario is
about (the position is reached), or None to play on."""


def positions(game: str, stop: Stop, count: int) -> list[tuple[GameState, int]]:
    """The first ``count`` deals of ``game`` that reach ``stop``: (state, the seat it names)."""
    game_entry = entry(game)
    options = game_entry.spec.normalize_options(game_entry.bot_options)
    rules = make_bot("heuristic")
    found = []
    for index in range(200):
        state = deal_state(game_entry.spec, "inference-scenarios", index, options)
        actions: list[tuple[int, str]] = []
        while not state.is_terminal() and state.legal_actions():
            seat = state.to_move
            text = rules.choose(state.observe(seat))
            state.act(seat, text)
            actions.append((seat, text))
            revealer = stop(state, actions)
            if revealer is not None:
                found.append((state, revealer))
                break
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} {game} deals reach the scenario")


def shares(state: GameState, me: int, fact: Callable[[GameState], bool]) -> tuple[float, float]:
    """The share of sampled worlds (for ``me``) in which ``fact`` holds: (uniform, weighted)."""
    obs = state.observe(me)
    game = search_game(game_module(obs.game), obs)
    assert game.weight is not None
    rng = random.Random(f"shares/{obs.actions}")
    rows = []
    for _ in range(WORLDS):
        world = game.spec.sample_world(obs, rng)
        rows.append((game.weight(world, obs, me), fact(world)))
    total = sum(w for w, _ in rows)
    return sum(f for _, f in rows) / len(rows), sum(w for w, f in rows if f) / total


def mean_shares(found: list[tuple[GameState, int]], observer: Callable[[GameState, int], int],
                fact: Callable[[GameState, int], bool]) -> tuple[float, float]:
    """``shares`` averaged over the positions: ``observer(state, revealer)`` is the seat
    that samples, ``fact(world, revealer)`` what is counted."""
    pairs = [shares(state, observer(state, seat), lambda world: fact(world, seat)) for state, seat in found]
    return sum(u for u, _ in pairs) / len(pairs), sum(w for _, w in pairs) / len(pairs)


def holds(world: GameState, seat: int, cards: set[int]) -> bool:
    return any(c in cards for c in cards_of(world.hands[seat]))


def next_seat(state: GameState, seat: int) -> int:
    return (seat + 1) % 4


QUEEN_OF_CLUBS = card(QUEEN, CLUBS)


def faces(world: GameState, seat: int) -> list[int]:
    """A Doppelkopf hand as card faces (both copies of a card are one face)."""
    return [c % COPY_OFFSET for c in cards_of(world.hands[seat])]


# -- Euchre: bids ----------------------------------------------------------------------
def _second_pass(state: GameState, actions: list[tuple[int, str]]) -> int | None:
    """The dealer's partner passing in round 1 (second to bid, after the first seat's pass).
    Not the first seat: the rules pass some of its hands with the right
    bower to call next (its pass moved the share only from 0.1375 to 0.125)."""
    return actions[1][0] if len(actions) == 2 and all(text == "pass" for _, text in actions) else None


def _right_bower(world: GameState) -> set[int]:
    return {card(JACK, suit_of(world.up_card))}


def test_a_euchre_defender_who_did_not_order_up_is_less_likely_to_hold_the_right_bower():
    found = positions("euchre", _second_pass, 16)
    uniform, weighted = mean_shares(found, lambda state, seat: (seat + 2) % 4,
                                    lambda world, seat: holds(world, seat, _right_bower(world)))
    assert weighted < 0.9 * uniform


def test_a_euchre_pass_with_both_bowers_and_an_ace_weighs_the_bid_floor():
    """Seat 1 passed in round 1: a world that gives him both bowers, the ace and the king
    of the up-card's suit (he would have ordered up) counts ``bid_floor``, one that gives
    him nothing 1."""
    strong = {"dealer": 0, "hands": ["9C 10C QC KC AC", "JS JC AS KS 10D", "9D JD QD KD AH", "10S QS AD 9H 10H"],
              "rest": "9S JH QH KH"}
    weak = {**strong, "hands": ["JS JC AS KS 10D", "9C 10C QC KC AC", "9D JD QD KD AH", "10S QS AD 9H 10H"]}
    options = EUCHRE.normalize_options({})
    weights = []
    for deal in (strong, weak):
        state = EUCHRE.new_deal(EUCHRE.deal_from_json(deal), options)
        state.act(1, "pass")
        weights.append(eb.SEARCH.weight(state, state.observe(2), 2))
    assert weights == [inference.DEFAULT.bid_floor, 1.0]


def _round_two_call(state: GameState, actions: list[tuple[int, str]]) -> int | None:
    """A seat that named trump in round 2 without being forced (not the dealer)."""
    seat, text = actions[-1]
    return seat if text.startswith("call ") and seat != state.dealer else None


def test_a_euchre_round_two_caller_is_more_likely_long_in_the_suit_he_named():
    def long_in_trump(world: GameState, seat: int) -> bool:
        trump = world.trump
        return sum(1 for c in cards_of(world.hands[seat]) if eb.EFFECTIVE_SUIT[trump][c] == trump) >= 3

    found = positions("euchre", _round_two_call, 8)
    uniform, weighted = mean_shares(found, next_seat, long_in_trump)
    assert weighted > 1.2 * uniform


# -- Doppelkopf: reservations and announcements ------------------------------------------
def _announced_re(state: GameState, actions: list[tuple[int, str]]) -> int | None:
    seat, text = actions[-1]
    return seat if text == "re" else None


def test_a_re_announcement_makes_worlds_with_the_re_player_holding_many_trumps_more_likely():
    def many_trumps(world: GameState, seat: int) -> bool:
        return db.trump_count(faces(world, seat), NORMAL) >= db.ANNOUNCE_TRUMPS

    found = positions("doppelkopf", _announced_re, 8)
    uniform, weighted = mean_shares(found, next_seat, many_trumps)
    assert weighted > 1.2 * uniform


def _all_healthy(state: GameState, actions: list[tuple[int, str]]) -> int | None:
    """Four healthy reservations: a normal game (the seat returned is the last to speak)."""
    texts = [text for _, text in actions]
    return actions[-1][0] if texts == ["healthy"] * 4 else None


def test_a_healthy_reservation_makes_worlds_with_both_queens_of_clubs_in_one_hand_less_likely():
    """Both Q♣ make a marriage by the rules (unless the hand is strong enough for a
    silent solo): after four healthy reservations, a world that puts both with one
    other seat explains them worse."""
    def both_queens_elsewhere(world: GameState, seat: int) -> bool:
        me = next_seat(world, seat)
        return any(faces(world, s).count(QUEEN_OF_CLUBS) == 2 for s in range(4) if s != me)

    found = positions("doppelkopf", _all_healthy, 8)
    uniform, weighted = mean_shares(found, next_seat, both_queens_elsewhere)
    assert weighted < 0.8 * uniform


# -- Court Piece family: trump calls and card choices -------------------------------------
def _before_the_first_card(prefix: str) -> Callable[[GameState, list[tuple[int, str]]], int | None]:
    """A finder of the seat whose action starts with ``prefix`` (a call, a card put face
    down), once every hand is dealt and before the first card."""
    def seat_that_acted(state: GameState, actions: list[tuple[int, str]]) -> int | None:
        if state.phase != PLAYING or state.trick or state.tricks:
            return None
        return next((seat for seat, text in actions if text.startswith(prefix)), None)
    return seat_that_acted


def _a_suit_longer_than(cards: int, suit: int) -> bool:
    """Whether ``cards`` (a mask) hold more of some suit than of ``suit``."""
    counts = [0] * 4
    for c in cards_of(cards):
        counts[suit_of(c)] += 1
    return max(counts) > counts[suit]


@pytest.mark.parametrize("game", ["double-sar", "single-sar"])
def test_a_court_piece_trump_call_makes_worlds_where_the_caller_had_a_longer_suit_less_likely(game):
    """The caller named trump from his first five cards (the sampler already gives
    him one of the suit there): the rules name the longest suit with honours."""
    def longer_suit(world: GameState, seat: int) -> bool:
        return _a_suit_longer_than(world.first_five[seat], world.trump)

    found = positions(game, _before_the_first_card("call "), 8)
    uniform, weighted = mean_shares(found, next_seat, longer_suit)
    assert weighted < 0.8 * uniform


@pytest.mark.parametrize("game", ["hidden-trump", "mendikot"])
def test_a_card_set_aside_face_down_is_more_likely_of_the_callers_longest_suit(game):
    """The others see "hide ?": the worlds differ in which card lies face down (so in
    trump), and the rules hide a card of the longest suit among the first five."""
    def longer_suit(world: GameState, seat: int) -> bool:
        return _a_suit_longer_than(world.first_five[seat] | 1 << world.down, suit_of(world.down))

    found = positions(game, _before_the_first_card("hide "), 8)
    uniform, weighted = mean_shares(found, next_seat, longer_suit)
    assert weighted < 0.8 * uniform


def _fourth_hand_ducked(state: GameState, actions: list[tuple[int, str]]) -> int | None:
    """A fourth hand followed suit below an opponent's winning card, no trump in the trick."""
    if not state.tricks or len(state.trick) or not actions[-1][1].startswith("play "):
        return None
    leader, cards = state.tricks[-1][0], state.tricks[-1][1]
    seats = [(leader + i) % 4 for i in range(4)]
    led = suit_of(cards[0])
    if any(suit_of(c) != led for c in cards):
        return None
    best = max(range(4), key=lambda i: rank_of(cards[i]))
    fourth = seats[3]
    beatable = rank_of(cards[best]) < KING  # some higher card may be out there
    return fourth if beatable and seats[best] % 2 != fourth % 2 and rank_of(cards[3]) < rank_of(cards[best]) else None


def test_a_court_piece_fourth_hand_that_did_not_beat_the_trick_is_less_likely_to_hold_a_higher_card():
    def higher_card(world: GameState, seat: int) -> bool:
        cards = world.tricks[-1][1]
        led, top = suit_of(cards[0]), max(rank_of(c) for c in cards)
        return any(suit_of(c) == led and rank_of(c) > top for c in cards_of(world.hands[seat]))

    found = positions("double-sar", _fourth_hand_ducked, 8)
    uniform, weighted = mean_shares(found, next_seat, higher_card)
    assert weighted < 0.8 * uniform


# -- every game ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga",
                                  "mendikot"])
def test_weighted_worlds_put_more_unseen_cards_with_their_true_holder(game):
    figures = measure(game, positions=12, worlds=24)
    assert figures["positions"] >= 10
    assert figures["weighted"] > figures["uniform"]
    assert figures["top"] > figures["uniform"]


def test_a_world_never_weighs_less_than_the_floor_of_the_product():
    evidence = inference.Evidence(bid_floor=0.1, card_floor=0.1, min_weight=0.05)
    state, seat = positions("double-sar", _fourth_hand_ducked, 1)[0]
    def never_agrees(position: GameState) -> int:
        return -1

    assert inference.likelihood(state, next_seat(state, seat), never_agrees, evidence) == 0.05


def test_the_decisions_replayed_are_the_others_choices_only():
    state, seat = positions("double-sar", _fourth_hand_ducked, 1)[0]
    me = next_seat(state, seat)
    replayed = 0
    for decision in inference.decisions(state, me):  # the state is the replay's, valid until the next one
        replayed += 1
        assert decision.seat != me and decision.state.to_move == decision.seat
        assert state.history[decision.position] == decision.action and len(decision.state.legal_actions()) > 1
        assert len(decision.state.history) == decision.position
    assert replayed


def test_search_without_inference_weighs_every_world_alike_and_is_the_normal_level():
    bot = make_bot("search-noinfer", budget_ms=20)
    assert isinstance(bot, SearchBot) and not bot.inference and make_bot("search").inference
    assert LEVELS["normal"][0] == "search-noinfer" and LEVELS["hard"][0] == "search-noinfer"
