"""Playing cards as small ints and card sets as bitmasks.

A card is ``suit * 13 + rank`` with suits ♣ ♦ ♥ ♠ (0..3) and ranks 2..A (0..12),
so every French-suited card fits in 0..51 and a set of cards is an int whose bit
``c`` is set when card ``c`` is in the set.  Games with duplicate cards
(Doppelkopf) give the second copy its own id, ``card + COPY_OFFSET``; its face is
``card % COPY_OFFSET``.

Both the letter form (``QC``, ``10H``, ``TH``) and the symbol form (``Q♣``) parse:

>>> parse_card("Q♣") == parse_card("qc") == card(QUEEN, CLUBS)
True
>>> card_text(parse_card("TH")), card_text(parse_card("10h"), symbols=True)
('10H', '10♥')
>>> cards_text(mask_of(parse_cards("AS 9C JD")))
'9C JD AS'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from tricktable.errors import NotationError

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

RANK_TEXTS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
(TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE) = range(13)

COPY_OFFSET = 64
"""Id offset of the second copy of a card in double decks."""

_RANK_BY_TEXT = {text: rank for rank, text in enumerate(RANK_TEXTS)}
_RANK_BY_TEXT["T"] = TEN
_SUIT_BY_TEXT = {letter: suit for suit, letter in enumerate(SUIT_LETTERS)}
_SUIT_BY_TEXT.update({symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_TEXT.update({"♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES})


def card(rank: int, suit: int) -> int:
    """The card id of ``rank`` in ``suit``."""
    return suit * 13 + rank


def face(card_id: int) -> int:
    """The printed card of an id (drops the copy of a double deck)."""
    return card_id % COPY_OFFSET


def suit_of(card_id: int) -> int:
    return face(card_id) // 13


def rank_of(card_id: int) -> int:
    return face(card_id) % 13


def card_text(card_id: int, symbols: bool = False) -> str:
    """``QC`` (or ``Q♣`` with ``symbols``); copies print like the original."""
    suit = suit_of(card_id)
    return RANK_TEXTS[rank_of(card_id)] + (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[suit]


def parse_card(text: str) -> int:
    """Parse ``QC``, ``Q♣``, ``10H``, ``TH`` (any case) into a card id.

    >>> parse_card("XX")
    Traceback (most recent call last):
    ...
    tricktable.errors.NotationError: 'XX' is not a card (write it like QC, 10H or Q♣)
    """
    cleaned = text.strip().upper()
    if len(cleaned) >= 2 and cleaned[:-1] in _RANK_BY_TEXT and cleaned[-1] in _SUIT_BY_TEXT:
        return card(_RANK_BY_TEXT[cleaned[:-1]], _SUIT_BY_TEXT[cleaned[-1]])
    raise NotationError(f"{text!r} is not a card (write it like QC, 10H or Q♣)")


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas."""
    return [parse_card(part) for part in text.replace(",", " ").split()]


def parse_suit(text: str) -> int:
    """Parse a suit given as a letter, a symbol or a name (``S``, ``♠``, ``spades``)."""
    cleaned = text.strip()
    if cleaned.upper() in _SUIT_BY_TEXT:
        return _SUIT_BY_TEXT[cleaned.upper()]
    if cleaned.lower() in SUIT_NAMES:
        return SUIT_NAMES.index(cleaned.lower())
    raise NotationError(f"{text!r} is not a suit (write C, D, H or S)")


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card_id in cards:
        mask |= 1 << card_id
    return mask


CARDS_OF_KEPT = 4096
"""How many card sets ``cards_of`` keeps, the least recently asked going first (1.3 MB
when full, measured; it used to keep up to a million, which a server process reached
over days).  Euchre's search asks ~14,000 times a CPU-second, for ~7,700 sets in the
bench's 30 decisions: 79.5 % hits with 4,096 kept, 79.7 % with every set kept;
Doppelkopf's asks ~850 times a CPU-second, Court Piece's never."""


@lru_cache(maxsize=CARDS_OF_KEPT)
def cards_of(mask: int) -> tuple[int, ...]:
    """The card ids in a set, lowest id first."""
    ids = []
    while mask > 0:
        lowest = mask & -mask
        ids.append(lowest.bit_length() - 1)
        mask ^= lowest
    return tuple(ids)


def count(mask: int) -> int:
    return mask.bit_count()


def suit_mask(suit: int) -> int:
    """All 13 cards of a suit (first copies only)."""
    return ((1 << 13) - 1) << (suit * 13)


def cards_text(mask_or_cards: int | Iterable[int], symbols: bool = False) -> str:
    """Cards as text, sorted by id (suit, then rank)."""
    cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else sorted(mask_or_cards)
    return " ".join(card_text(c, symbols) for c in cards)
