"""The DDV tournament list (option ``tournament_list``): 24 regular deals with one
compulsory solo (Pflichtsolo) per player.

Spec: ``shared/rules/doppelkopf.md``, "DDV tournament rules", "Tournament list":

* a player's first solo is his compulsory solo (a silent marriage or a marriage
  turned solo is not); the compulsory soloist leads;
* a compulsory solo played by choice is an extra deal: the same dealer deals
  again and it does not count among the 24;
* when the regular deals left equal the compulsory solos missing, the next player
  from the dealer's left who still owes one must play it ("vorgeführt"): he
  chooses the solo type and leads, the deal counts, the deal passes on.

The match keeps who still owes (``TournamentList``); each deal gets the public
facts it needs as a ``TournamentDeal`` (also in every observation, so that a
sampled world replays under the same list).  A deal played alone with the list on
is the list's first deal (``DoppelkopfSpec.new_deal``): a solo in it is compulsory.

>>> table = TournamentList()
>>> table.deal(dealer=3, regular_played=0)
TournamentDeal(owing=(0, 1, 2, 3), regular_left=24, forced=None)
>>> TournamentList(owing=(1, 3)).deal(dealer=1, regular_played=22).forced
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOURNAMENT_DEALS = 24
"""Regular deals of a match with the tournament list."""


@dataclass(frozen=True)
class TournamentDeal:
    """What one deal knows of the list: who still owes a compulsory solo, how many
    regular deals are left (this one included), and who must play his now."""

    owing: tuple[int, ...]
    regular_left: int
    forced: int | None

    def owes(self, seat: int) -> bool:
        return seat in self.owing

    def to_json(self) -> dict[str, Any]:
        return {"owing": list(self.owing), "regular_left": self.regular_left, "forced": self.forced}


@dataclass(frozen=True)
class TournamentList:
    """The match's list: the seats that have not played their compulsory solo yet."""

    owing: tuple[int, ...] = (0, 1, 2, 3)

    def deal(self, dealer: int, regular_played: int) -> TournamentDeal:
        left = TOURNAMENT_DEALS - regular_played
        forced = None
        if self.owing and left <= len(self.owing):
            # Vorgeführt: the first seat from the dealer's left that still owes one.
            forced = next(s for s in ((dealer + k) % 4 for k in range(1, 5)) if s in self.owing)
        return TournamentDeal(self.owing, left, forced)

    def after(self, compulsory_soloist: int | None) -> TournamentList:
        """The list once a deal is over (``compulsory_soloist``: who played his, if anyone)."""
        if compulsory_soloist is None:
            return self
        return TournamentList(tuple(s for s in self.owing if s != compulsory_soloist))
