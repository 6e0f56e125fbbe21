"""What a Court Piece player's statistics count (``core.summary``), in each of
the five games as far as it has them: the trump calls one made and won, the
deals one's team won, and its sweeps made and suffered (kots and goon kots; in
Mendikot all four tens and the whitewash), with Mendikot's tens, and the streak
bonuses one's team won (seven deals in a row, where the game has the bonus)."""

from __future__ import annotations

from typing import Any, Mapping

from tricktable.core.match import MatchState
from tricktable.core.protocol import GameState
from tricktable.core.summary import DEALS, GameFacts
from tricktable.games.courtpiece.rules import CALLERS_KOT, GOON_KOT, STREAK
from tricktable.games.courtpiece.scoring import ALL_TENS, WHITEWASH, Tens
from tricktable.games.courtpiece.state import CourtPieceState

SWEEPS = (CALLERS_KOT, GOON_KOT, ALL_TENS, WHITEWASH)


def deal_facts(deal: GameState, seat: int) -> Mapping[str, int]:
    """One finished deal for ``seat``: a call it made (where trump is called),
    its team's win, a sweep either way, the tens its team took (Mendikot)."""
    assert isinstance(deal, CourtPieceState)
    team = seat % 2
    won = deal.winners == team
    facts = {"deals_won": int(won)}
    if deal.variant.trump.calls_trump:
        called = deal.trump_by == seat
        facts |= {"called": int(called), "called_won": int(called and won)}
    for sweep in deal.variant.scoring.sweeps:
        facts |= {sweep: int(won and deal.outcome == sweep), f"{sweep}_against": int(not won and deal.outcome == sweep)}
    if isinstance(deal.variant.scoring, Tens):
        facts["tens"] = deal.tens[team]
    return facts


def sheet_facts(deal: GameState, result: Mapping[str, Any], seat: int) -> Mapping[str, int]:
    """The streak bonus of a counted deal, where the game has one: whether
    the match's result of it gave the seat's team the bonus (the line
    ``match.py`` adds to the deal's score sheet)."""
    assert isinstance(deal, CourtPieceState)
    if not deal.variant.scoring.streak_bonus:
        return {}
    team = seat % 2
    return {"streaks": sum(1 for line in result.get("lines", []) if line.get("key") == STREAK and line.get("team") == team)}


def match_won(match: MatchState, seat: int) -> bool:
    """The seat's team ended with more points (or kots) than the other."""
    return match.totals[seat] > match.totals[(seat + 1) % 4]


FACTS = GameFacts(deal_facts, match_won,
                  counters=("deals_won", "called", "called_won",
                            *(name for sweep in SWEEPS for name in (sweep, f"{sweep}_against")), "tens", "streaks"),
                  rates={"deals_won": DEALS, "called": DEALS, "called_won": "called"}, sheet=sheet_facts)

__all__ = ["FACTS", "deal_facts", "match_won", "sheet_facts"]
