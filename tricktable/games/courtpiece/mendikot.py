"""Mendikot — spec ``shared/rules/court-piece.md``, "Relatives", and issue 7's
scoring decision: tens decide.  The team that takes 3 or 4 tens wins the deal
(all four: a **mendikot**); with the tens 2–2, the team with 7 or more tricks
wins; all 13 tricks is a **whitewash**.  Trump is named by the hidden-card method
of Hidden Trump (``hidden.py``: ``hide 7S``, ``reveal``), with the family's
calling (pass once to the partner, timeouts, the flip).

Scores for the winners (issue 7): a deal won 1, a mendikot 2, a whitewash 3 (a
whitewash holds all four tens too: it scores 3, not 2 + 3).  A match ends when a
team reaches ``target_points`` (7 by default); the daily game is 8 deals.

Decisions:

* Every deal is played out to 13 tricks: the tens can lie in the last trick, and
  a whitewash needs all 13.  The family's end at 7 tricks does not apply.
* The dealer rotation is the family's, with the mendikot and the whitewash in
  the place of the kot: the dealing team won → the deal passes to the right; the
  callers won → the same dealer, or his partner after the callers' mendikot or
  whitewash.
* No counting modes, no seven-in-a-row bonus (not part of the issue's table) and
  no change trump (the spec offers it in Single Sar, Double Sar and Hidden Trump
  only).  New cards is offered as in every Court Piece game.
"""

from __future__ import annotations

from typing import Any

from tricktable.cards import TEN
from tricktable.core.protocol import OptionSpec, ScoreLine
from tricktable.games.courtpiece.hidden import HiddenTrumpSpec, HiddenTrumpState
from tricktable.games.courtpiece.match import CourtPieceMatch
from tricktable.games.courtpiece.rules import NEW_CARDS_DEAL, SCORE_TEXTS, TRICKS, TRICKS_TO_WIN
from tricktable.games.courtpiece.spec import COMMON_OPTIONS

WON, ALL_TENS, WHITEWASH = "won", "mendikot", "whitewash"
SCORES = {"points": {WON: 1, ALL_TENS: 2, WHITEWASH: 3}}
TEXTS = {
    WON: "The team with more tens won the deal",
    ALL_TENS: "Mendikot: all four tens",
    WHITEWASH: "Whitewash: all 13 tricks",
    NEW_CARDS_DEAL: SCORE_TEXTS[NEW_CARDS_DEAL],
}
TARGET_POINTS = 7
_IS_TEN = tuple(c % 13 == TEN for c in range(52))


def outcome_of(tens: list[int], tricks: list[int]) -> tuple[str, int]:
    """(outcome, winning team) of a deal played out: 3 or 4 tens win, 2–2 goes to
    the team with 7+ tricks."""
    if tens[0] != tens[1]:
        winners = 0 if tens[0] > tens[1] else 1
    else:
        winners = 0 if tricks[0] >= TRICKS_TO_WIN else 1
    if tricks[winners] == TRICKS:
        return WHITEWASH, winners
    return (ALL_TENS if tens[winners] == 4 else WON), winners


class MendikotState(HiddenTrumpState):
    """One deal of Mendikot: Hidden Trump's calling and play, tens counted per team."""

    CAN_CHANGE_TRUMP = False
    SCORES = SCORES
    TEXTS = TEXTS
    SWEEPS = frozenset({ALL_TENS, WHITEWASH})

    def __init__(self, *args: Any, **kwargs: Any):
        self.tens = [0, 0]
        super().__init__(*args, **kwargs)

    def clone(self) -> "MendikotState":
        twin = super().clone()
        twin.tens = list(self.tens)
        return twin  # type: ignore[return-value]

    def _take_trick(self, winner: int, card: int) -> None:
        super()._take_trick(winner, card)
        cards = self.tricks[-1][1]
        self.tens[winner % 2] += _IS_TEN[cards[0]] + _IS_TEN[cards[1]] + _IS_TEN[cards[2]] + _IS_TEN[cards[3]]

    def _deal_over(self) -> bool:
        return len(self.tricks) == TRICKS

    def _resolve(self) -> None:
        self._finish(*outcome_of(self.tens, self.captured))

    def breakdown(self) -> list[ScoreLine]:
        lines = super().breakdown()
        if self.outcome in SCORES["points"]:  # tens before the result line
            lines[2:2] = [ScoreLine("tens", f"Tens taken: {self.tens[team]}", self.tens[team], team=team)
                          for team in (0, 1)]
        return lines

    def _extra_view(self) -> dict[str, Any]:
        return {"tens": list(self.tens)}


class MendikotMatch(CourtPieceMatch):
    """The family's match with Mendikot's table: points only, no streak bonus."""

    @property
    def counting(self) -> str:
        return "points"

    def _streak_bonus(self, outcome: str, winners: int) -> int:
        return 0


class MendikotSpec(HiddenTrumpSpec):
    name = "mendikot"
    title = "Mendikot"
    rules_version = "mendikot-1"
    option_specs = (OptionSpec("target_points", TARGET_POINTS, (3, 5, 7, 10, 15, 21),
                               "Points that win a match."),) + tuple(
        o for o in COMMON_OPTIONS if o.name not in ("counting", "target_points", "target_kots", "change_trump"))
    state_class = MendikotState
    match_class = MendikotMatch


MENDIKOT = MendikotSpec()

