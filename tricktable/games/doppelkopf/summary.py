"""What a Doppelkopf player's statistics count (``core.summary``): how often
one played Re, Kontra or a solo and won, and the announcements one made and won."""

from __future__ import annotations

from typing import Mapping

from tricktable.core.match import MatchState
from tricktable.core.protocol import GameState
from tricktable.core.summary import DEALS, GameFacts
from tricktable.games.doppelkopf.rules import KONTRA, RE
from tricktable.games.doppelkopf.state import SOLO_GAME, DoppelkopfState


def deal_facts(deal: GameState, seat: int) -> Mapping[str, int]:
    """One finished deal for ``seat``: its side and whether the side won, its
    solo (a declared one; a silent solo counts as Re), its announcements."""
    assert isinstance(deal, DoppelkopfState)
    if deal.settlement is None:
        return {}  # thrown in: nobody played
    side = deal.team[seat]
    won = deal.settlement.winner == side
    solo = deal.contract == SOLO_GAME and deal.declarer == seat
    announced = bool(deal.announced >> seat & 1)
    return {
        "re": int(side == RE),
        "re_won": int(side == RE and won),
        "kontra": int(side == KONTRA),
        "kontra_won": int(side == KONTRA and won),
        "solo": int(solo),
        "solo_won": int(solo and won),
        "announced": int(announced),
        "announced_won": int(announced and won),
    }


def match_won(match: MatchState, seat: int) -> bool:
    """Every seat scores for itself: the seat ended alone at the top."""
    return all(match.totals[seat] > total for other, total in enumerate(match.totals) if other != seat)


FACTS = GameFacts(deal_facts, match_won,
                  counters=("re", "re_won", "kontra", "kontra_won", "solo", "solo_won", "announced", "announced_won"),
                  rates={"re": DEALS, "re_won": "re", "kontra": DEALS, "kontra_won": "kontra", "solo": DEALS,
                         "solo_won": "solo", "announced": DEALS, "announced_won": "announced"})

__all__ = ["FACTS", "deal_facts", "match_won"]
