"""Euchre's bidding strength on masks (``bots.euchre.hand_points``, issue 14, the cost
of inference: every sampled world's bids are asked of it) is the card-by-card sum it
replaced, to the last bit of the float, on every hand of the deck and every trump
(the thresholds compare it with >=)."""

from __future__ import annotations

from itertools import combinations

from tricktable.bots import euchre as eb
from tricktable.cards import ACE, KING, cards_of, rank_of
from tricktable.games.euchre.rules import DECK_MASK, EFFECTIVE_SUIT, SUITS


def card_by_card(hand: int, trump: int) -> float:
    """The strength as the rules first wrote it: each card's points in card order,
    then each other suit's void, ace and guarded king."""
    effective = EFFECTIVE_SUIT[trump]
    cards = cards_of(hand)
    points = sum(eb.card_points(trump, c) for c in cards)
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


def test_hand_points_on_masks_equals_the_card_by_card_sum_on_every_hand():
    deck = cards_of(DECK_MASK)
    assert len(deck) == 24
    strengths = set()
    for size in (5, 6):  # a hand, and the dealer's six before his discard
        for cards in combinations(deck, size):
            hand = sum(1 << c for c in cards)
            for trump in SUITS:
                expected = card_by_card(hand, trump)
                assert eb.hand_points(hand, trump) == expected, (cards_of(hand), trump)
                strengths.add(expected)
    assert len(strengths) > 100  # the hands really differ
