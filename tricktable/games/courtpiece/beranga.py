"""Be-Ranga — spec ``shared/rules/court-piece.md``, "Relatives": no trump is called.
All 13 cards are dealt and play starts at once; the first card played by a
player who cannot follow suit makes its suit trump, and that card already counts
as a trump.  Double Sar pile rules (and its house rules), but no capture before
the trick after the trump-setting trick.

Decisions (the spec leaves them open), kept as close to the family as possible:

* The player to the dealer's right leads the first trick, as the caller does in
  the family; he keeps the name ``caller`` and his team is the "callers" of the
  score table (+1 / +2 for the dealing team / kots as in Double Sar) and of the
  dealer rotation (the dealer stays on the team that lost the last deal).  In the
  first deal of a match the draw's winner leads and the player on his left deals.
* "No capture before the trick after the trump-setting trick": a pair whose second
  win is the trump-setting trick or earlier does not capture; as with the house
  rules the pile stays and the streak goes on, so winning the trump-setting trick
  and the next one captures.  (The trump-setting trick itself can never complete
  a pair: it is led by the last trick's winner, and a trump falls on his lead.
  In effect no pair captures while no trump is set.)  The 13th trick still takes
  whatever is left, even when nobody has shown out before it.
* **New cards** ("before trump is called"): the person may ask on his own first
  turn, while the first trick is being played and no trump is set.
* No **change trump** (the spec offers it only where trump is called), no
  calling timer.
"""

from __future__ import annotations

from typing import Any, Sequence

from tricktable.core.protocol import OptionSpec
from tricktable.games.courtpiece.pile import DoubleSarState
from tricktable.games.courtpiece.rules import NO_TRUMP, SUIT_OF
from tricktable.games.courtpiece.spec import COMMON_OPTIONS, PILE_HOUSE_RULES, CourtPieceSpec
from tricktable.games.courtpiece.state import NEW_CARDS, PLAYING

TEXTS = {
    "callers_won": "The first leader's team won the deal",
    "others_won": "The dealing team won the deal",
    "callers_kot": "Kot: the first leader's team took all 13 tricks",
    "goon_kot": "Goon kot: the dealing team took all 13 tricks",
}


class BeRangaState(DoubleSarState):
    """One deal of Be-Ranga; ``trump_trick`` is the number of the trick that set trump."""

    CAN_CHANGE_TRUMP = False
    TEXTS = {**DoubleSarState.TEXTS, **TEXTS}

    def __init__(self, *args: Any, **kwargs: Any):
        self.trump_trick = 0
        super().__init__(*args, **kwargs)

    def _start(self) -> None:
        """No calling: everyone holds 13 cards and the caller's seat leads."""
        self.phase = PLAYING
        self.leader = self.turn = self.caller

    @property
    def all_dealt(self) -> bool:
        return True

    def legal_actions(self) -> Sequence[int]:
        actions = super().legal_actions()
        if self.phase == PLAYING and not self.tricks and self.trump == NO_TRUMP and self._may_ask_new_cards():
            return (*actions, NEW_CARDS)
        return actions

    def _play(self, card: int, turn: int) -> None:
        trick = self.trick
        if self.trump == NO_TRUMP and trick and SUIT_OF[card] != SUIT_OF[trick[0]]:
            self.trump, self.trump_by, self.trump_trick = SUIT_OF[card], turn, len(self.tricks) + 1
        super()._play(card, turn)

    def _capture_blocked(self, first: int, second: int, number: int) -> bool:
        if not self.trump_trick or number <= self.trump_trick:
            return True
        return super()._capture_blocked(first, second, number)

    def _extra_view(self) -> dict[str, Any]:
        return {**super()._extra_view(), "trump_trick": self.trump_trick or None}


NEW_CARDS_OPTION = OptionSpec("new_cards", "person", ("person", "any seat", "off"),
                              "Who may ask for new cards on his first turn, before trump is set: "
                              "the person (person_seat), any seat, nobody.")


class BeRangaSpec(CourtPieceSpec):
    name = "be-ranga"
    title = "Be-Ranga"
    rules_version = "be-ranga-1"
    option_specs = tuple(NEW_CARDS_OPTION if o.name == "new_cards" else o for o in COMMON_OPTIONS
                         if o.name not in ("change_trump", "first_game")) + PILE_HOUSE_RULES
    presets = {"all house rules": {rule.name: True for rule in PILE_HOUSE_RULES}}
    state_class = BeRangaState


BE_RANGA = BeRangaSpec()
