"""What a won trick is worth in a Court Piece game: one small rule object per way,
composed into a variant (``variants.py``).  The state hands every finished trick
to its trick value, which writes the tricks each team counts (``captured``) and
its own pile fields.

* ``SingleTricks`` — Single Sar, Hidden Trump, Mendikot: every trick counts for
  its winner's team at once.
* ``Pile`` — Double Sar and Be-Ranga (spec "Double Sar — the pile" and its house
  rules): won tricks go face down onto a pile in the middle; the same player
  winning two tricks in a row takes the whole pile for his team.

The open half of a pair is ``open_seat`` (who won the last trick, if that win can
still start a pair) and ``open_card`` (the card it was won with, for "ace on
ace").  A capture closes the pair, so a third win in a row only opens a new one.
A rule that blocks a capture leaves the pile where it is and keeps the streak
going: the blocked second win opens the next pair (spec **Decision**).  The 13th
trick always takes the rest of the pile; the house rules only block pair captures.

Be-Ranga (``wait_for_trump``): no capture before the trick after the
trump-setting trick.  A pair whose second win is the trump-setting trick or
earlier does not capture; the pile stays and the streak goes on, so winning the
trump-setting trick and the next one captures.  The 13th trick still takes
whatever is left, even when nobody has shown out before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from tricktable.cards import ACE, card
from tricktable.games.courtpiece.observation import Capture, OpenPair, PileFacts
from tricktable.games.courtpiece.rules import ACES, NO_TRUMP, TRICKS
from tricktable.games.courtpiece.state import TrickTable, TrickValue

NO_PILE_TRICKS = (11, 12)


@dataclass(frozen=True)
class SingleTricks(TrickValue):
    """Every trick counts for its winner's team at once."""

    def take(self, state: TrickTable, winner: int, card: int) -> None:
        state.captured[winner % 2] += 1


@dataclass(frozen=True)
class Pile(TrickValue):
    """Double Sar's pile, with its house rules (options, all off by default)."""

    is_pile = True

    wait_for_trump: bool = False
    """Be-Ranga: no capture up to the trick that set trump."""

    def take(self, state: TrickTable, winner: int, card: int) -> None:
        state.pile += 1
        number = len(state.tricks)
        if number == TRICKS:
            self._capture(state, winner, number)  # the 13th trick's winner takes the rest
        elif state.open_seat != winner:
            state.open_seat, state.open_card = winner, card
        elif self._capture_blocked(state, state.open_card, card, number):
            state.open_card = card  # the pile stays; this win opens the next pair
        else:
            self._capture(state, winner, number)

    @staticmethod
    def _capture(state: TrickTable, seat: int, number: int) -> None:
        state.captured[seat % 2] += state.pile
        state.captures.append((number, seat, state.pile))
        state.pile = 0
        state.open_seat = state.open_card = -1

    def _capture_blocked(self, state: TrickTable, first: int, second: int, number: int) -> bool:
        """``first`` and ``second`` are the cards that won the pair's two tricks;
        ``number`` is the second trick's."""
        if self.wait_for_trump and (not state.trump_trick or number <= state.trump_trick):
            return True
        options = state.options
        if options.get("ace_on_ace") and ACES >> first & 1 and ACES >> second & 1:
            return True
        if options.get("trump_ace_cannot_seal") and state.trump != NO_TRUMP and second == card(ACE, state.trump):
            return True
        return bool(options.get("no_pile_on_11_12")) and number in NO_PILE_TRICKS

    def facts(self, state: TrickTable) -> PileFacts:
        """The pile is face down: only how many tricks lie in it is shown (the
        cards themselves were seen as they were played, see ``tricks``)."""
        open_pair = OpenPair(state.open_seat, state.open_card) if state.open_seat >= 0 else None
        return PileFacts(state.pile, open_pair, tuple(Capture(*capture) for capture in state.captures))
