"""A Court Piece match: the first-deal draw, the dealer rotation, points or kots,
the seven-in-a-row bonus, the match targets and the daily variant.

Spec: ``shared/rules/court-piece.md`` (sections "Rules shared by every Court Piece
game" and "Scoring").  Decisions taken here (the spec leaves them open):

* The draw is dealt from ``derive_seed(match seed, "draw", round)``; only the
  players tied for the highest rank draw again.
* After a streak bonus the winners' count starts again from zero, so every
  further seven wins in a row earn it again.  A kot deal leaves both counts at
  zero (the spec: "any kot resets both teams' count").
* "New cards" throws the deal in: the same dealer deals again (a fresh seed),
  the redeal does not count as a deal and nobody may ask for new cards again.
"""

from __future__ import annotations

from typing import Any, Mapping, cast

from tricktable.cards import card_text, rank_of
from tricktable.core.match import MatchState
from tricktable.core.protocol import GameSpec, GameState, ScoreLine
from tricktable.core.rng import derive_seed, shuffled
from tricktable.games.courtpiece.rules import (
    DAILY_DEALS,
    DECK,
    LEFT_OF,
    NEW_CARDS_DEAL,
    NEXT,
    SCORE_TEXTS,
    STREAK,
    STREAK_BONUS,
    STREAK_LENGTH,
)
from tricktable.games.courtpiece.state import CourtPieceState, FamilySpec


def first_draw(seed: str) -> list[list[tuple[int, int]]]:
    """Everyone draws a card; ties for the highest rank draw again (suits do not
    rank).  Returns the rounds as ``[(seat, card), …]``; the last round has one
    highest card, whose seat chooses trump."""
    rounds: list[list[tuple[int, int]]] = []
    drawing = [0, 1, 2, 3]
    while True:
        cards = shuffled(DECK, derive_seed(seed, "draw", len(rounds)))
        drawn = list(zip(drawing, cards))
        rounds.append(drawn)
        top = max(rank_of(c) for _, c in drawn)
        drawing = [seat for seat, c in drawn if rank_of(c) == top]
        if len(drawing) == 1:
            return rounds


class CourtPieceMatch(MatchState):
    """Deals until a team reaches the target (points or kots), or 8 deals daily."""

    def __init__(self, spec: GameSpec, seed: str, options: Mapping[str, Any], daily: bool = False):
        self.draw = first_draw(seed)
        self.streaks = [0, 0]  # deals won in a row, per team
        self._redeal = False
        self._bonus: ScoreLine | None = None
        super().__init__(spec, seed, options, daily)

    @property
    def counting(self) -> str:
        """Points or kots; a daily game, and a game without counting modes, counts points."""
        return "points" if self.daily else self.options.get("counting", "points")

    def first_dealer(self) -> int:
        """The draw's winner calls trump; the player on his left deals."""
        winner = max(self.draw[-1], key=lambda drawn: rank_of(drawn[1]))[0]
        return LEFT_OF[winner]

    def start_deal(self) -> CourtPieceState:
        deal = self.spec.deal_from_seed(self.deal_seed(self.deal_index), self.dealer, self.options)
        return self._spec.new_deal(deal, self.options, new_cards_allowed=not (self.daily or self._redeal))

    @property
    def _spec(self) -> FamilySpec:
        return cast(FamilySpec, self.spec)  # the family's spec made this match

    @staticmethod
    def _deal(deal: GameState) -> CourtPieceState:
        assert isinstance(deal, CourtPieceState)  # the match only ever starts Court Piece deals
        return deal

    def counts_as_deal(self, deal: GameState) -> bool:
        return self._deal(deal).outcome != NEW_CARDS_DEAL

    def deal_points(self, deal: GameState) -> list[int]:
        self._bonus = None
        if not self.counts_as_deal(deal):
            return [0, 0, 0, 0]
        outcome, winners = self._deal(deal).outcome, self._deal(deal).winners
        # The variant's table, with the match's mode (a daily game counts points).
        points = self._spec.variant.scoring.scores[self.counting][outcome] + self._streak_bonus(outcome, winners)
        return [points if seat % 2 == winners else 0 for seat in range(4)]

    def _streak_bonus(self, outcome: str, winners: int) -> int:
        scoring = self._spec.variant.scoring
        if not scoring.streak_bonus:
            return 0
        if outcome in scoring.sweeps:
            self.streaks = [0, 0]
            return 0
        self.streaks[winners] += 1
        self.streaks[1 - winners] = 0
        if self.streaks[winners] < STREAK_LENGTH:
            return 0
        self.streaks[winners] = 0
        bonus = STREAK_BONUS[self.counting]
        self._bonus = ScoreLine(STREAK, SCORE_TEXTS[STREAK], bonus, team=winners)
        return bonus

    def _finish_deal(self) -> None:
        super()._finish_deal()
        if self._bonus is not None:
            self.results[-1]["lines"].append(self._bonus.to_json())

    def next_dealer(self, deal: GameState) -> int:
        """The dealer is always on the team that lost the last deal: the dealing
        team won → the deal passes to the right; the callers won → the same dealer,
        or his partner after the callers' kot."""
        outcome, winners = self._deal(deal).outcome, self._deal(deal).winners
        self._redeal = outcome == NEW_CARDS_DEAL  # read by the next start_deal
        if self._redeal:
            return self.dealer
        if winners == self.dealer % 2:
            return NEXT[self.dealer]
        return (self.dealer + 2) % 4 if outcome in self._spec.variant.scoring.sweeps else self.dealer

    def team_totals(self) -> list[int]:
        return [self.totals[0], self.totals[1]]

    def target(self) -> int:
        return int(self.options["target_kots"] if self.counting == "kots" else self.options["target_points"])

    def is_over(self) -> bool:
        if self.daily:
            return self.deals_played >= DAILY_DEALS
        return max(self.team_totals()) >= self.target()

    def match_view(self, seat: int) -> dict[str, Any]:
        team = seat % 2
        totals = self.team_totals()
        return {
            "team_points": totals,
            "counting": self.counting,
            "target": None if self.daily else self.target(),
            "deals_total": DAILY_DEALS if self.daily else None,
            "streaks": list(self.streaks),
            "first_draw": [[[s, card_text(c)] for s, c in drawn] for drawn in self.draw],
            "winner_team": (0 if totals[0] > totals[1] else 1) if self.over and not self.daily else None,
            "daily_score": totals[team] - totals[1 - team],
        }

    def clone(self) -> "CourtPieceMatch":
        twin = cast(CourtPieceMatch, super().clone())
        twin.streaks = list(self.streaks)
        return twin
