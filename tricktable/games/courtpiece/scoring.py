"""How a Court Piece deal is decided and scored: one small rule object per way,
composed into a variant (``variants.py``).  After every trick the state asks its
scoring whether the deal is over, then for the outcome and the winning team; the
scoring owns the score table, the score sheet's words and the outcomes that
count as sweeps for the dealer rotation and the streak bonus.

* ``SevenTricks`` — the family (spec "Scoring"): 7 counted tricks end the deal,
  unless the other team has none yet; kot and goon kot.
* ``Tens`` — Mendikot (spec "Relatives"): tens decide.  The team that
  takes 3 or 4 tens wins the deal (all four: a **mendikot**); with the tens 2–2,
  the team with 7 or more tricks wins; all 13 tricks is a **whitewash**.  Every
  deal is played out to 13 tricks (the tens can lie in the last trick).  A deal
  won scores 1, a mendikot 2, a whitewash 3 (it holds all four tens too: 3, not
  2 + 3); no counting modes and no seven-in-a-row bonus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from tricktable.cards import TEN
from tricktable.core.protocol import ScoreLine
from tricktable.games.courtpiece.rules import (
    KOTS,
    NEW_CARDS_DEAL,
    SCORE_TABLE,
    SCORE_TEXTS,
    TRICKS,
    TRICKS_TO_WIN,
    outcome_of,
)
from tricktable.games.courtpiece.state import Scoring, ScoreTable

WON, ALL_TENS, WHITEWASH = "won", "mendikot", "whitewash"
TENS_SCORES = {"points": {WON: 1, ALL_TENS: 2, WHITEWASH: 3}}
TENS_TEXTS = {
    WON: "The team with more tens won the deal",
    ALL_TENS: "Mendikot: all four tens",
    WHITEWASH: "Whitewash: all 13 tricks",
    NEW_CARDS_DEAL: SCORE_TEXTS[NEW_CARDS_DEAL],
}
_IS_TEN = tuple(c % 13 == TEN for c in range(52))


@dataclass(frozen=True)
class SevenTricks(Scoring):
    scores: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: SCORE_TABLE)
    texts: Mapping[str, str] = field(default_factory=lambda: SCORE_TEXTS)
    sweeps: frozenset[str] = KOTS
    streak_bonus: bool = True

    def count_trick(self, state: ScoreTable) -> bool:
        a, b = state.captured
        return len(state.tricks) == TRICKS or (a >= TRICKS_TO_WIN and b > 0) or (b >= TRICKS_TO_WIN and a > 0)

    def resolve(self, state: ScoreTable) -> tuple[str, int]:
        return outcome_of(state.captured, state.callers)


@dataclass(frozen=True)
class Tens(Scoring):
    scores: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: TENS_SCORES)
    texts: Mapping[str, str] = field(default_factory=lambda: TENS_TEXTS)
    sweeps: frozenset[str] = frozenset({ALL_TENS, WHITEWASH})
    streak_bonus: bool = False

    def count_trick(self, state: ScoreTable) -> bool:
        cards = state.tricks[-1][1]
        state.tens[state.tricks[-1][2] % 2] += _IS_TEN[cards[0]] + _IS_TEN[cards[1]] + _IS_TEN[cards[2]] + _IS_TEN[cards[3]]
        return len(state.tricks) == TRICKS

    def resolve(self, state: ScoreTable) -> tuple[str, int]:
        """3 or 4 tens win, 2–2 goes to the team with 7+ tricks."""
        tens, tricks = state.tens, state.captured
        if tens[0] != tens[1]:
            winners = 0 if tens[0] > tens[1] else 1
        else:
            winners = 0 if tricks[0] >= TRICKS_TO_WIN else 1
        if tricks[winners] == TRICKS:
            return WHITEWASH, winners
        return (ALL_TENS if tens[winners] == 4 else WON), winners

    def lines(self, state: ScoreTable) -> list[ScoreLine]:
        return [ScoreLine("tens", f"Tens taken: {state.tens[team]}", state.tens[team], team=team) for team in (0, 1)]

    def facts(self, state: ScoreTable) -> tuple[int, int]:
        return (state.tens[0], state.tens[1])
