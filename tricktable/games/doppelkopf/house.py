"""Doppelkopf house rules (spec ``shared/rules/doppelkopf.md``, "House rules"), each an
option that is off by default so that older records replay unchanged:

* **Schweinchen** (``schweinchen``): in a contract whose trumps include the ♦ aces, the
  one holder of both ♦A has pigs, ranked above 10♥.  Both copies of a face are his, so
  the deal simply plays with a rank table in which ♦A is the top trump
  (``rules.PIGS_TABLE``); of the two the first played wins, as for any equal cards.
  Others learn of the pigs when the first is played.  A pig is no fox.
* **Superschweinchen** (``superschweinchen``, only with pigs held): the holder of both
  ♦9 (without nines: ♦K) has superpigs above the pigs; public when the first is played.
  The superpig holder learns from his own cards only that he holds both; whether pigs
  are held he knows once they are shown (or when they are his).
* **Throwing in** (``throwing_in``): with five or more nines, or five or more kings, a
  reservation below every solo and above poverty; the same dealer deals again under the
  same deal number (as after a poverty all declined).
* **Without nines** (``without_nines``): 40 cards, 10 each (the eight nines are set
  aside as the deal's ``rest``); every announcement card count is lowered by 2.
* **Bock rounds** (``bock``): the match's part (``BockQueue``); a deal's points are
  multiplied there, the deal itself is scored as ever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

from tricktable.cards import COPY_OFFSET, DIAMONDS, KING, NINE, card, cards_of, rank_of
from tricktable.games.doppelkopf.rules import (
    AD,
    DECK,
    FACES,
    KONTRA,
    NORMAL,
    PIGS_TABLE,
    SOLO_NAMES,
    SOLO_TABLE,
    SUPERPIG_KINGS_TABLE,
    SUPERPIGS_TABLE,
    DealFacts,
    Settlement,
)

PIG_CONTRACT_TABLES = (NORMAL, SOLO_TABLE[SOLO_NAMES.index("diamonds")])
"""Contracts whose trumps include the ♦ aces: normal, marriage, poverty, silent solo (all
``NORMAL``) and the diamonds solo."""
NINE_DIAMONDS, KING_DIAMONDS = card(NINE, DIAMONDS), card(KING, DIAMONDS)
THROW_IN_CARDS = 5
"""Nines or kings a hand needs to be thrown in."""
BOCK_DEALS = 4
"""Deals one bock covers."""
WITHOUT_NINES_LOWERING = 2
"""Without nines every announcement needs two cards fewer."""

NINES = tuple(c for c in DECK if rank_of(c % COPY_OFFSET) == NINE)
DECK_WITHOUT_NINES = tuple(c for c in DECK if rank_of(c % COPY_OFFSET) != NINE)
FACES_WITHOUT_NINES = tuple(f for f in FACES if rank_of(f) != NINE)


# -- the deck ---------------------------------------------------------------------------
def without_nines(options: Mapping[str, Any]) -> bool:
    return bool(options.get("without_nines", False))


def deck(options: Mapping[str, Any]) -> tuple[int, ...]:
    """The cards dealt: 48, or 40 without nines."""
    return DECK_WITHOUT_NINES if without_nines(options) else DECK


def deck_faces(options: Mapping[str, Any]) -> tuple[int, ...]:
    """The faces in play (two copies of each)."""
    return FACES_WITHOUT_NINES if without_nines(options) else FACES


def set_aside(options: Mapping[str, Any]) -> tuple[int, ...]:
    """The cards not dealt (a deal's ``rest``): the nines in a game without nines."""
    return NINES if without_nines(options) else ()


def hand_size(options: Mapping[str, Any]) -> int:
    return len(deck(options)) // 4


def announcement_lowering(options: Mapping[str, Any]) -> int:
    """Cards fewer every announcement needs before any marriage lowering."""
    return WITHOUT_NINES_LOWERING if without_nines(options) else 0


# -- pigs and superpigs -------------------------------------------------------------------
def superpig_face(options: Mapping[str, Any]) -> int:
    return KING_DIAMONDS if without_nines(options) else NINE_DIAMONDS


def holder_of_both(hands: Sequence[int], card_face: int) -> int:
    """The seat holding both copies of a face (id masks), or -1."""
    both = 1 << card_face | 1 << (card_face + COPY_OFFSET)
    for seat, hand in enumerate(hands):
        if hand & both == both:
            return seat
    return -1


class HouseDeal(Protocol):
    """What the house rules read and write of a deal (``state.DoppelkopfState``): its
    options and hands, the rank table, who holds pigs and superpigs and whether they
    are shown, and the result."""

    table: int
    pigs: int
    superpigs: int
    pigs_shown: bool
    superpigs_shown: bool

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def hands(self) -> list[int]: ...

    @property
    def lone(self) -> bool: ...

    @property
    def settlement(self) -> Settlement | None: ...

    def facts(self) -> DealFacts: ...


def find_pigs(state: HouseDeal) -> None:
    """When the play begins (in a poverty: after the exchange), decide who holds pigs
    and superpigs, and rank the deal's trumps accordingly."""
    options = state.options
    if not options["schweinchen"] or state.table not in PIG_CONTRACT_TABLES:
        return
    state.pigs = holder_of_both(state.hands, AD)
    if state.pigs < 0:
        return
    state.table = PIGS_TABLE
    if options["superschweinchen"]:
        state.superpigs = holder_of_both(state.hands, superpig_face(options))
        if state.superpigs >= 0:
            state.table = SUPERPIG_KINGS_TABLE if without_nines(options) else SUPERPIGS_TABLE


def note_play(state: HouseDeal, seat: int, card_face: int) -> None:
    """A pig or superpig played shows its holder's pigs (called only when pigs are held)."""
    if seat == state.pigs and card_face == AD:
        state.pigs_shown = True
    elif seat == state.superpigs and card_face == superpig_face(state.options):
        state.superpigs_shown = True


def known_pigs(state: HouseDeal, seat: int) -> tuple[int | None, int | None]:
    """(pig holder, superpig holder) as far as ``seat`` knows: shown, or his own (his
    superpigs only once he knows that pigs are held)."""
    if state.pigs < 0:
        return None, None
    pigs = state.pigs if state.pigs_shown or seat == state.pigs else None
    superpigs = None
    if state.superpigs >= 0 and (state.superpigs_shown or (seat == state.superpigs and pigs is not None)):
        superpigs = state.superpigs
    return pigs, superpigs


def table_known(table: int, pigs: int | None, superpigs: int | None, options: Mapping[str, Any]) -> int:
    """The rank table of a contract's ``table`` once a seat knows of pigs (superpigs are
    only ever held together with pigs, so knowing them means pigs are in play)."""
    if table not in PIG_CONTRACT_TABLES:
        return table
    if superpigs is not None:
        return SUPERPIG_KINGS_TABLE if without_nines(options) else SUPERPIGS_TABLE
    return PIGS_TABLE if pigs is not None else table


def known_table(state: HouseDeal, seat: int, contract_table: int) -> int:
    """The rank table ``seat`` plays by (``contract_table``: the contract's as it sees it)."""
    pigs, superpigs = known_pigs(state, seat)
    return table_known(contract_table, pigs, superpigs, state.options)


# -- throwing in --------------------------------------------------------------------------
def can_throw_in(hand: int, options: Mapping[str, Any]) -> bool:
    """Five or more nines or five or more kings (without nines: kings only)."""
    ranks = [rank_of(c % COPY_OFFSET) for c in cards_of(hand)]
    return ranks.count(KING) >= THROW_IN_CARDS or (
        not without_nines(options) and ranks.count(NINE) >= THROW_IN_CARDS)


# -- bock rounds ----------------------------------------------------------------------------
def makes_bock(state: HouseDeal) -> bool:
    """A deal that ends 120 : 120, or a lost solo (silent solo and lone marriage included)."""
    settlement = state.settlement
    if settlement is None:
        return False
    facts = state.facts()
    return facts.card_points == (120, 120) or (state.lone and settlement.winner == KONTRA)


@dataclass
class BockQueue:
    """Per coming regular deal, how many bocks cover it (the first entry: the current deal)."""

    covers: list[int] = field(default_factory=list)

    def multiplier(self) -> int:
        """Each bock covering the current deal doubles it."""
        return 2 ** self.covers[0] if self.covers else 1

    def queued(self) -> int:
        """Deals after the current one that count double or more."""
        return sum(1 for n in self.covers[1:] if n)

    def after_deal(self, counted: bool, bock: bool, deals_left: int) -> None:
        """A finished deal: a regular one uses up its bock; one that makes a bock adds one
        to each of the next four regular deals; nothing beyond the match's last deal."""
        if counted and self.covers:
            self.covers.pop(0)
        if bock:
            self.covers += [0] * (BOCK_DEALS - len(self.covers))
            for index in range(BOCK_DEALS):
                self.covers[index] += 1
        del self.covers[max(deals_left, 0):]
        while self.covers and not self.covers[-1]:
            self.covers.pop()

    def copy(self) -> BockQueue:
        return BockQueue(list(self.covers))
