"""Court Piece rules as data: seats and direction, dealing packets, rank tables,
scoring tables and match constants.

Spec: ``shared/rules/court-piece.md``.  Seats are numbered as at every table of
the room (0 South, 1 West, 2 North, 3 East, going clockwise), but Court Piece
plays and deals **counter-clockwise**, to the right, so the next player after
seat ``s`` is ``NEXT[s] = (s + 3) % 4`` and the player on ``s``'s left is
``(s + 1) % 4``.

>>> NEXT[0], LEFT_OF[0]          # South's right-hand neighbour is East
(3, 1)
>>> from tricktable.cards import parse_card
>>> POWER[SPADES][parse_card("2S")] > POWER[SPADES][parse_card("AH")]   # any trump beats a plain card
True
>>> SCORE_TABLE["points"][CALLERS_KOT], SCORE_TABLE["kots"][GOON_KOT]
(3, 3)
"""

from __future__ import annotations

from tricktable.cards import CLUBS, DIAMONDS, HEARTS, SPADES, card, mask_of, rank_of, suit_of, suit_mask

SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
NO_TRUMP = 4
"""Index of the rank tables while there is no trump (Be-Ranga, Hidden Trump)."""

DECK: tuple[int, ...] = tuple(card(rank, suit) for suit in SUITS for rank in range(13))
DECK_MASK = mask_of(DECK)
TRICKS = 13
TRICKS_TO_WIN = 7

NEXT = tuple((seat + 3) % 4 for seat in range(4))
"""The next seat in the direction of play (counter-clockwise: to the right)."""
LEFT_OF = tuple((seat + 1) % 4 for seat in range(4))
"""The player on a seat's left — the one who played just before him."""

PACKETS = (5, 4, 4)
"""Cards dealt to each player per round; trump is called after the first round."""
FIRST_PACKET = PACKETS[0]

SUIT_MASKS = tuple(suit_mask(s) for s in SUITS)
SUIT_OF = tuple(suit_of(c) for c in range(52))
ACES = mask_of(card(12, s) for s in SUITS)


def _power(trump: int, c: int) -> int:
    """Higher wins among cards that may win (trumps, or the led suit).  Trumps
    score 100+ so they beat every plain card."""
    return 100 + rank_of(c) if suit_of(c) == trump else rank_of(c)


POWER: tuple[tuple[int, ...], ...] = tuple(tuple(_power(t, c) for c in range(52)) for t in range(5))
"""``POWER[trump][card]``; ``trump`` may be ``NO_TRUMP``."""

# -- calling timers (seconds) --------------------------------------------------
CALL_SECONDS = 20
FIRST_GAME_CALL_SECONDS = 10

# -- outcomes and scoring ----------------------------------------------------------
CALLERS_WON, OTHERS_WON, CALLERS_KOT, GOON_KOT, NEW_CARDS_DEAL = (
    "callers_won", "others_won", "callers_kot", "goon_kot", "new_cards")

SCORE_TABLE: dict[str, dict[str, int]] = {
    "points": {CALLERS_WON: 1, OTHERS_WON: 2, CALLERS_KOT: 3, GOON_KOT: 4},
    "kots": {CALLERS_WON: 0, OTHERS_WON: 0, CALLERS_KOT: 1, GOON_KOT: 3},
}
"""What the winning team scores, per counting mode (the spec's table)."""

STREAK = "streak"
"""The streak bonus's key: its line on a deal's score sheet (``match.py``), read by the statistics."""
STREAK_LENGTH = 7
STREAK_BONUS = {"points": 2, "kots": 1}
"""Bonus for winning ``STREAK_LENGTH`` deals in a row, per counting mode."""

KOTS = frozenset({CALLERS_KOT, GOON_KOT})

TARGET_POINTS = 10
TARGET_KOTS = 2
DAILY_DEALS = 8

SCORE_TEXTS = {
    CALLERS_WON: "The callers won the deal",
    OTHERS_WON: "The other team won the deal",
    CALLERS_KOT: "Callers' kot: all 13 tricks",
    GOON_KOT: "Goon kot: the dealing team took all 13 tricks",
    NEW_CARDS_DEAL: "New cards: dealt again",
    "streak": "Seven deals won in a row",
}


def outcome_of(captured: list[int], callers: int) -> tuple[str, int]:
    """(outcome, winning team) of a finished deal from the tricks each team counts."""
    winners = 0 if captured[0] > captured[1] else 1
    kot = captured[winners] == TRICKS
    if winners == callers:
        return (CALLERS_KOT if kot else CALLERS_WON), winners
    return (GOON_KOT if kot else OTHERS_WON), winners

