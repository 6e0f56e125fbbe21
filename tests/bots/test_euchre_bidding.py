"""Euchre's bidding rules on masks (``euchre_kernel.hand_points``, ``best_discard``,
``best_call``, ``alone_tricks``; the cost of inference: every sampled
world's bids are asked of them) are the card-by-card rules they replaced, to the last
bit of the float, on every hand of the deck and every trump (the thresholds compare
the floats with >=), compiled (the kernel ``make install`` builds) and pure Python;
and the decisions built on them (order up, name a suit, go or defend alone) are the
same compiled and pure."""

from __future__ import annotations

from itertools import combinations
from types import ModuleType

import pytest

from tricktable import speedups
from tricktable.bots import euchre as eb
from tricktable.bots import euchre_kernel as pure
from tricktable.cards import ACE, KING, cards_of, rank_of
from tricktable.games.euchre.rules import DECK_MASK, EFFECTIVE_SUIT, POWER, SUITS


@pytest.fixture(scope="module")
def kernels() -> tuple[ModuleType, ModuleType]:
    """The compiled kernel the bots run (fresh) and its pure-Python source, both with the tables."""
    fresh, why = speedups.compiled_is_fresh(pure.__name__)
    assert fresh, why
    assert eb.kernel is not pure, speedups.status()
    eb.install_tables(pure)
    return eb.kernel, pure


def card_by_card(hand: int, trump: int) -> float:
    """The strength as the rules first wrote it: each card's points in card order,
    then each other suit's void, ace and guarded king."""
    effective = EFFECTIVE_SUIT[trump]
    cards = cards_of(hand)
    points = sum(eb.TRUMP_POINTS[trump].get(c, 0.0) for c in cards)
    trumps = sum(1 for c in cards if effective[c] == trump)
    for suit in SUITS:
        if suit == trump:
            continue
        in_suit = [c for c in cards if effective[c] == suit]
        if not in_suit and trumps >= 2:
            points += eb.VOID_POINTS
        ranks = {rank_of(c) for c in in_suit}
        if ACE in ranks:
            points += eb.OFF_ACE_POINTS
            if KING in ranks:
                points += eb.GUARDED_KING_POINTS
    return points


def test_hand_points_on_masks_equals_the_card_by_card_sum_on_every_hand(kernels):
    compiled, _ = kernels
    deck = cards_of(DECK_MASK)
    assert len(deck) == 24
    strengths = set()
    for size in (5, 6):  # a hand, and the dealer's six before his discard
        for cards in combinations(deck, size):
            hand = sum(1 << c for c in cards)
            for trump in SUITS:
                expected = card_by_card(hand, trump)
                assert compiled.hand_points(hand, trump) == expected == pure.hand_points(hand, trump), (cards, trump)
                strengths.add(expected)
    assert len(strengths) > 100  # the hands really differ


def discard_card_by_card(hand: int, trump: int) -> int:
    """The dealer's discard as the rules first wrote it: of the plain cards the first
    cheapest by (an ace, not a singleton, power), else the first lowest trump."""
    effective, power = EFFECTIVE_SUIT[trump], POWER[trump]
    cards = cards_of(hand)
    plain = [c for c in cards if effective[c] != trump]
    if not plain:
        return min(cards, key=lambda c: power[c])

    def cost(c: int) -> tuple[bool, bool, int]:
        length = sum(1 for d in cards if effective[d] == effective[c])
        return (rank_of(c) == ACE, length != 1, power[c])

    return min(plain, key=cost)


def alone_tricks_card_by_card(hand: int, trump: int, out_of_play: int) -> float:
    effective = EFFECTIVE_SUIT[trump]
    run = 0
    for c in eb.TRUMP_LADDER[trump]:
        if out_of_play >> c & 1:
            continue
        if not hand >> c & 1:
            break
        run += 1
    trumps = sum(1 for c in cards_of(hand) if effective[c] == trump)
    aces = sum(1 for c in cards_of(hand) if effective[c] != trump and rank_of(c) == ACE)
    return run + 0.7 * (trumps - run) + 0.8 * aces


def test_the_discard_call_and_lone_tricks_on_masks_are_the_card_by_card_rules_on_every_hand(kernels):
    deck = cards_of(DECK_MASK)
    discards = set()
    for size in (5, 6):  # a hand (a call, a lone hand), the dealer's six (his discard)
        for cards in combinations(deck, size):
            hand = sum(1 << c for c in cards)
            for trump in SUITS:
                for kernel in kernels:
                    if size == 6:
                        expected = discard_card_by_card(hand, trump)
                        assert kernel.best_discard(hand, trump) == expected, (cards, trump)
                        discards.add(expected)
                        continue
                    out_of_play = 1 << eb.TRUMP_LADDER[trump][hand % 7]  # now and then one of the hand's trumps
                    lone = alone_tricks_card_by_card(hand, trump, out_of_play)
                    assert kernel.alone_tricks(hand, trump, out_of_play) == lone
                    points = [(s, kernel.hand_points(hand, s)) for s in SUITS if s != trump]
                    assert kernel.best_call(hand, trump) == max(points, key=lambda item: item[1]), (cards, trump)
    assert len(discards) == len(deck)  # every card is the discard of some hand


def test_the_bids_are_the_same_compiled_and_pure_on_every_hand(kernels):
    """Every decision before the card play, for every hand, up-card suit and seat."""
    compiled, _ = kernels
    deck = cards_of(DECK_MASK)
    bids: set[tuple[object, ...]] = set()
    for cards in combinations(deck, 5):
        hand = sum(1 << c for c in cards)
        free = [c for c in deck if not hand >> c & 1]
        up = free[hand % len(free)]  # an up-card not in the hand
        seat = hand % 4
        for suit in SUITS:
            answers = [(k.should_order(hand, up, seat, 0, False), k.should_order(hand, up, 2, 0, True),
                        k.call_choice(hand, suit, False), k.call_choice(hand, suit, True),
                        k.should_go_alone(hand, suit, seat, 0, up if suit == up // 13 else -1),
                        k.should_defend_alone(hand, suit)) for k in kernels]
            assert answers[0] == answers[1], (cards, up, seat, suit)
            bids.add(answers[0])
    assert len(bids) > 50  # every kind of answer occurs
