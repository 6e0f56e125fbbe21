"""Scripted Court Piece deals for scenario tests.

``block_deal`` builds a deal in which the test decides who wins every trick:
tricks 1-3 are played in clubs, 4-6 in diamonds, 7-9 in hearts, 10-12 in spades
(everybody follows), and the winner of each holds the highest of its four cards.
In each suit block one trick is won by the ace (the block's last, unless
``ace_tricks`` names another).  Trick 13 is the four 2s: with spades trump, the
holder of 2S (``last``) wins it.  Each hand is dealt with its trick-10 spade
first, so that everybody may call spades from his first five cards; seat ``s``
plays ``trick_cards(deal)[s][t]`` at trick ``t``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from tricktable.cards import parse_card, parse_cards
from tricktable.core.observation import Trick
from tricktable.core.rng import derive_seed

from tricktable.catalog import get_spec
from tricktable.games.courtpiece import DOUBLE_SAR, SINGLE_SAR
from tricktable.games.courtpiece.observation import CourtPieceObservation
from tricktable.games.courtpiece.state import CourtPieceState

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
SPECS = {"double-sar": DOUBLE_SAR, "single-sar": SINGLE_SAR}


def block_deal(winners: Sequence[int], last: int, dealer: int = 0, ace_tricks: Sequence[int] = ()) -> dict[str, Any]:
    """``winners``: the seats that win tricks 1..12; ``last``: the seat that wins trick 13."""
    assert len(winners) == 12
    plan: list[dict[int, str]] = [{} for _ in range(13)]
    for block, suit in enumerate("CDHS"):
        tricks = [3 * block + j for j in range(3)]
        ace_trick = next((t - 1 for t in ace_tricks if (t - 1) // 3 == block), tricks[-1])
        order = [t for t in tricks if t != ace_trick] + [ace_trick]
        for t, group in zip(order, (RANKS[1:5], RANKS[5:9], RANKS[9:13])):
            losers = [s for s in range(4) if s != winners[t]]
            plan[t][winners[t]] = group[-1] + suit
            for seat, rank in zip(losers, group[:-1]):
                plan[t][seat] = rank + suit
    twos = iter(["2C", "2D", "2H"])
    for seat in range(4):
        plan[12][seat] = "2S" if seat == last else next(twos)
    dealt = [9, *range(9), 10, 11, 12]  # the trick-10 spade among the first five
    return {"dealer": dealer, "hands": [" ".join(plan[t][s] for t in dealt) for s in range(4)], "rest": ""}


def trick_cards(deal: dict[str, Any]) -> list[list[str]]:
    """Per seat, the cards of a ``block_deal`` in the order of the tricks they are played to."""
    hands = [hand.split() for hand in deal["hands"]]
    return [hand[1:10] + hand[:1] + hand[10:] for hand in hands]


def new_state(game: str, deal: dict[str, Any], **options: Any) -> CourtPieceState:
    spec = SPECS[game]
    return spec.new_deal(spec.deal_from_json(deal), spec.normalize_options(options))


def play_tricks(state: CourtPieceState, deal: dict[str, Any], tricks: int = 13) -> None:
    """Play the scripted cards until ``tricks`` tricks are complete or the deal ends."""
    hands = trick_cards(deal)
    while not state.is_terminal() and len(state.tricks) < tricks:
        seat = state.to_move
        state.act(seat, f"play {hands[seat][len(state.tricks)]}")


def scripted(game: str, winners: Sequence[int], last: int, dealer: int = 0, tricks: int = 13,
             ace_tricks: Sequence[int] = (), **options: Any) -> CourtPieceState:
    """A block deal with spades called by the caller, played for ``tricks`` tricks."""
    deal = block_deal(winners, last, dealer, ace_tricks)
    state = new_state(game, deal, **options)
    state.act(state.to_move, "call S")
    play_tricks(state, deal, tricks)
    return state


def random_deal(spec, seed: str, dealer: int, options: dict, rng_seed: int, stop_after: int | None = None,
                check: Callable[[CourtPieceState], None] | None = None, *, seed_label: str = "property",
                referee_rate: float = 0.25) -> CourtPieceState:
    """Play a seeded deal with random actions; the referee times out now and then
    (with probability ``referee_rate`` whenever a timeout is possible)."""
    # A derived seed is long enough that finding it in a view would mean a leak.
    deal = spec.deal_from_seed(derive_seed(seed_label, seed), dealer, options)
    state = spec.new_deal(deal, spec.normalize_options(options))
    rng = random.Random(rng_seed)
    steps = 0
    while not state.is_terminal() and (stop_after is None or steps < stop_after):
        referee = state.referee_actions()
        if referee and rng.random() < referee_rate:
            state.apply_referee(rng.choice(referee))
        else:
            state.apply(rng.choice(state.legal_actions()))
        steps += 1
        if check:
            check(state)
    return state


def pile_counts(tricks: Sequence[tuple[int, str]], house_rules: Mapping[str, bool] | None, trump: str | None,
                may_capture: Callable[[int], bool] = lambda number: True) -> tuple[list[int], int]:
    """The pile, restated from the spec (court-piece.md, "Double Sar — the pile" and its
    house rules), independently of the state machine: ``tricks`` are (winner, the winning
    card's text) in order; the same winner twice in a row captures the pile unless a house
    rule (or ``may_capture(trick number)`` false: Be-Ranga before trump is set) blocks it,
    and then the pile stays and the streak goes on; the 13th trick's winner takes what is
    left.  ``house_rules`` None: no pile (Single Sar), every trick counts for its winner.
    Returns (tricks counted per team, the trick after which the deal ends: a team has 7
    and the other has one, or the 13th)."""
    counted, pile, opener, opener_card = [0, 0], 0, None, ""
    for number, (winner, card) in enumerate(tricks, start=1):
        if house_rules is None:
            counted[winner % 2] += 1
        else:
            pile += 1
            if number == 13:
                counted[winner % 2] += pile
            elif opener == winner:
                blocked = (not may_capture(number)
                           or (house_rules["ace_on_ace"] and card[0] == "A" and opener_card[0] == "A")
                           or (house_rules["trump_ace_cannot_seal"] and card == f"A{trump}")
                           or (house_rules["no_pile_on_11_12"] and number in (11, 12)))
                if blocked:
                    opener_card = card
                else:
                    counted[winner % 2] += pile
                    pile, opener = 0, None
            else:
                opener, opener_card = winner, card
        if max(counted) >= 7 and min(counted) > 0:
            return counted, number
    return counted, 13


def card_words(value: Any) -> set[int]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*(card_words(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_words(v) for v in value)) if value else set()
    found = set()
    if isinstance(value, str):
        for word in value.split():
            try:
                found.add(parse_card(word))
            except ValueError:
                pass
    return found


def observation_of(game: str, legal: list[str], hand: str, tricks: Sequence[str] = ()) -> CourtPieceObservation:
    """A play-phase observation with these legal actions, hand and finished tricks
    (each led by seat 1, the cards in play order)."""
    spec = get_spec(game)
    base = spec.new_deal(spec.deal_from_seed("observation", 0, {}), spec.normalize_options({})).observe(0)
    seats = (1, 0, 3, 2)
    return replace(base, legal=tuple(legal), hand=tuple(parse_cards(hand)),
                   tricks=tuple(Trick(1, tuple(zip(seats, parse_cards(t))), 1) for t in tricks), trick=())
