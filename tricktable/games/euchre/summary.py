"""What a Euchre player's statistics count (``core.summary``): the calls one
made, how many of them were euchred, and the hands one went alone (and made)."""

from __future__ import annotations

from typing import Mapping

from tricktable.core.match import MatchState
from tricktable.core.protocol import GameState
from tricktable.core.summary import DEALS, GameFacts
from tricktable.games.euchre.rules import Outcome
from tricktable.games.euchre.state import EuchreState

EUCHRED = frozenset({Outcome.EUCHRED, Outcome.LONE_EUCHRE})
ALONE_MADE = frozenset({Outcome.ALONE_MADE, Outcome.ALONE_MARCH})
MARCHES = frozenset({Outcome.MARCH, Outcome.ALONE_MARCH})


def deal_facts(deal: GameState, seat: int) -> Mapping[str, int]:
    """One finished hand for ``seat``: did it call trump (order up or name a
    suit), was it euchred, did it go alone and make it, did it march."""
    assert isinstance(deal, EuchreState)
    called = deal.maker == seat
    outcome = deal.outcome
    return {
        "called": int(called),
        "called_euchred": int(called and outcome in EUCHRED),
        "alone": int(called and deal.alone),
        "alone_made": int(called and deal.alone and outcome in ALONE_MADE),
        "marches": int(deal.maker >= 0 and deal.maker % 2 == seat % 2 and outcome in MARCHES),
        "euchred_them": int(deal.maker >= 0 and deal.maker % 2 != seat % 2 and outcome in EUCHRED),
    }


def match_won(match: MatchState, seat: int) -> bool:
    """The seat's team ended with more points than the other."""
    return match.totals[seat] > match.totals[(seat + 1) % 4]


FACTS = GameFacts(deal_facts, match_won,
                  counters=("called", "called_euchred", "alone", "alone_made", "marches", "euchred_them"),
                  rates={"called": DEALS, "called_euchred": "called", "alone": "called", "alone_made": "alone",
                         "marches": DEALS, "euchred_them": DEALS})

__all__ = ["FACTS", "deal_facts", "match_won"]
