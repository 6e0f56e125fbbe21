"""Euchre's rules as data: the deck, the rank tables per trump suit, the scores.

Spec: ``shared/rules/euchre.md``.  Everything here is a table computed once, so
the state machine only looks things up.

>>> from tricktable.cards import parse_card
>>> EFFECTIVE_SUIT[HEARTS][parse_card("JD")] == HEARTS   # the left bower is a trump
True
>>> sorted(DECK, key=lambda c: -POWER[SPADES][c])[:3] == [parse_card(t) for t in ("JS", "JC", "AS")]
True
"""

from __future__ import annotations

from enum import StrEnum

from tricktable.cards import ACE, CLUBS, DIAMONDS, HEARTS, JACK, NINE, SPADES, card, mask_of, rank_of, suit_of

NO_TRUMP = 4
"""Index of the rank tables used before trump is made."""

SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
DECK: tuple[int, ...] = tuple(card(rank, suit) for suit in SUITS for rank in range(NINE, ACE + 1))
DECK_MASK = mask_of(DECK)
HAND_SIZE = 5
TRICKS = 5
GAME_TARGET = 10
GAME_TARGETS = (5, 7, 10, 11)
"""The targets a game may be played to (option ``game_target``)."""
DAILY_DEALS = 8

# Dealt from the dealer's left: first round 3-2-3-2, second round 2-3-2-3.
DEAL_PACKETS = ((3, 2, 3, 2), (2, 3, 2, 3))


def same_colour(suit: int) -> int:
    """♣↔♠ and ♦↔♥ (suit ids are chosen so that this is 3 - suit)."""
    return 3 - suit


def _effective_suit(trump: int, c: int) -> int:
    if trump != NO_TRUMP and rank_of(c) == JACK and suit_of(c) == same_colour(trump):
        return trump
    return suit_of(c)


def _power(trump: int, c: int) -> int:
    """Higher wins.  Trumps score 100+ so they beat every plain card."""
    if trump == NO_TRUMP or _effective_suit(trump, c) != trump:
        return rank_of(c)
    if rank_of(c) == JACK:
        return 130 if suit_of(c) == trump else 125  # right bower, then left bower, above the ace (112)
    return 100 + rank_of(c)


# Tables indexed [trump][card]; trump NO_TRUMP means "no trump yet".
EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(t, c) if c in DECK else -1 for c in range(52)) for t in range(5)
)
POWER: tuple[tuple[int, ...], ...] = tuple(tuple(_power(t, c) for c in range(52)) for t in range(5))
SUIT_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask_of(c for c in DECK if EFFECTIVE_SUIT[t][c] == s) for s in SUITS) for t in range(5)
)
"""``SUIT_CARDS[trump][suit]``: the cards that follow ``suit`` (bowers move to trump)."""

LOW_CARDS = mask_of(c for c in DECK if rank_of(c) <= 8)  # nines and tens: a farmer's hand


class Outcome(StrEnum):
    """How a hand ended; the value is the stable key of its score line."""

    MADE = "made"
    MARCH = "march"
    ALONE_MADE = "alone_made"
    ALONE_MARCH = "alone_march"
    EUCHRED = "euchred"
    LONE_EUCHRE = "lone_euchre"
    THROWN_IN = "thrown_in"
    FARMERS_HAND = "farmers_hand"


def deal_score(makers_tricks: int, alone: bool, defended_alone: bool = False) -> tuple[Outcome, int, int]:
    """(outcome, makers' points, defenders' points) — the scoring table, and the
    option "defend alone": a lone defender who euchres scores 4."""
    if makers_tricks == TRICKS:
        return (Outcome.ALONE_MARCH, 4, 0) if alone else (Outcome.MARCH, 2, 0)
    if makers_tricks >= 3:
        return (Outcome.ALONE_MADE, 1, 0) if alone else (Outcome.MADE, 1, 0)
    return (Outcome.LONE_EUCHRE, 0, 4) if defended_alone else (Outcome.EUCHRED, 0, 2)


SCORE_TEXTS = {
    Outcome.MADE: "Makers won 3 or 4 tricks",
    Outcome.MARCH: "Makers won all 5 tricks (march)",
    Outcome.ALONE_MADE: "Maker alone won 3 or 4 tricks",
    Outcome.ALONE_MARCH: "Maker alone won all 5 tricks",
    Outcome.EUCHRED: "Defenders won 3 or more tricks (euchre)",
    Outcome.LONE_EUCHRE: "Lone defender won 3 or more tricks (euchre)",
    Outcome.THROWN_IN: "Everyone passed: hand thrown in",
    Outcome.FARMERS_HAND: "Farmer's hand: redeal",
}
