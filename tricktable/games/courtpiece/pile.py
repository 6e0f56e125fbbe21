"""Double Sar: won tricks go face down onto a pile in the middle; the same player
winning two tricks in a row takes the whole pile for his team — spec section
"Double Sar — the pile" and its house rules.

The open half of a pair is ``open_seat`` (who won the last trick, if that win
can still start a pair) and ``open_card`` (the card it was won with, for "ace on
ace").  A capture closes the pair, so a third win in a row only opens a new one.
A house rule that blocks a capture leaves the pile where it is and keeps the
streak going: the blocked second win opens the next pair (spec **Decision**).
"""

from __future__ import annotations

from typing import Any

from tricktable.cards import ACE, card, card_text
from tricktable.games.courtpiece.rules import ACES, NO_TRUMP, TRICKS
from tricktable.games.courtpiece.state import CourtPieceState

NO_PILE_TRICKS = (11, 12)


class DoubleSarState(CourtPieceState):
    """One deal of Double Sar."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.pile = 0  # tricks lying face down in the middle
        self.open_seat = -1
        self.open_card = -1
        self.captures: list[tuple[int, int, int]] = []  # (trick number, seat, tricks taken)
        super().__init__(*args, **kwargs)

    def clone(self) -> "DoubleSarState":
        twin = super().clone()
        twin.captures = list(self.captures)
        return twin  # type: ignore[return-value]

    def _take_trick(self, winner: int, card: int) -> None:
        self.pile += 1
        number = len(self.tricks)
        if number == TRICKS:
            self._capture(winner, number)  # the 13th trick's winner takes the rest
        elif self.open_seat != winner:
            self.open_seat, self.open_card = winner, card
        elif self._capture_blocked(self.open_card, card, number):
            self.open_card = card  # the pile stays; this win opens the next pair
        else:
            self._capture(winner, number)

    def _capture(self, seat: int, number: int) -> None:
        self.captured[seat % 2] += self.pile
        self.captures.append((number, seat, self.pile))
        self.pile = 0
        self.open_seat = self.open_card = -1

    def _capture_blocked(self, first: int, second: int, number: int) -> bool:
        """The house rules (all off by default).  ``first`` and ``second`` are the
        cards that won the pair's two tricks; ``number`` is the second trick's."""
        options = self.options
        if options.get("ace_on_ace") and ACES >> first & 1 and ACES >> second & 1:
            return True
        if options.get("trump_ace_cannot_seal") and self.trump != NO_TRUMP and second == card(ACE, self.trump):
            return True
        return bool(options.get("no_pile_on_11_12")) and number in NO_PILE_TRICKS

    def _extra_view(self) -> dict[str, Any]:
        """The pile is face down: only how many tricks lie in it is shown (the
        cards themselves were seen as they were played, see ``tricks``)."""
        return {
            "pile": self.pile,
            "open_pair": {"seat": self.open_seat, "card": card_text(self.open_card)} if self.open_seat >= 0 else None,
            "captures": [{"trick": n, "seat": s, "tricks": t} for n, s, t in self.captures],
        }
