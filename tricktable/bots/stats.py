"""Behaviour statistics of finished deals, for ``tricktable selfplay --stats``.

They show whether the bots bid and play sensibly over many deals: in Euchre a
lone hand should be rare and usually succeed, the stuck dealer should often be
euchred but not always, and makers should make most contracts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tricktable.core.protocol import GameState
from tricktable.games import entry
from tricktable.games.doppelkopf.observation import Team, doppelkopf_observation


class Stats:
    """Counts over deals; ``summary`` turns them into rates."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def add(self, state: GameState) -> None:
        self.counts["deals"] += 1
        self.counts.update(f"outcome {line.key}" for line in state.breakdown())

    def summary(self) -> dict[str, Any]:
        return dict(sorted(self.counts.items()))


def rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


class EuchreStats(Stats):
    def add(self, state: GameState) -> None:
        from tricktable.games.euchre.state import PASS

        counts = self.counts
        counts["deals"] += 1
        maker = getattr(state, "maker")
        if maker < 0:
            counts["no trump"] += 1
            return
        counts["contracts"] += 1
        passes = sum(1 for a in state.history if a == PASS)
        outcome = getattr(state, "outcome")
        alone = getattr(state, "alone")
        counts["round 2"] += getattr(state, "turned_down") >= 0
        counts["stuck dealer"] += passes == 7
        counts["stuck dealer euchred"] += passes == 7 and outcome == "euchred"
        counts["alone"] += alone
        counts["alone made"] += alone and outcome != "euchred"
        counts["alone march"] += outcome == "alone_march"
        counts["euchred"] += outcome == "euchred"
        counts["march"] += outcome in ("march", "alone_march")

    def summary(self) -> dict[str, Any]:
        c = self.counts
        contracts = c["contracts"]
        return {
            "deals": c["deals"],
            "contracts": contracts,
            "round2_rate": rate(c["round 2"], contracts),
            "alone_rate": rate(c["alone"], contracts),
            "alone_success": rate(c["alone made"], c["alone"]),
            "alone_march_rate": rate(c["alone march"], c["alone"]),
            "stuck_dealer_rate": rate(c["stuck dealer"], contracts),
            "stuck_dealer_euchred": rate(c["stuck dealer euchred"], c["stuck dealer"]),
            "euchred_rate": rate(c["euchred"], contracts),
            "march_rate": rate(c["march"], contracts),
            "makers_success": rate(contracts - c["euchred"], contracts),
        }


class DoppelkopfStats(Stats):
    def add(self, state: GameState) -> None:
        counts = self.counts
        counts["deals"] += 1
        # The finished deal as a seat sees it: everything is public at the end.
        obs = doppelkopf_observation(state.observe(0))
        contract = obs.contract
        counts[f"contract {'solo' if contract and contract.is_solo else contract.value if contract else 'none'}"] += 1
        winner = obs.result.winner if obs.result else None
        for team, level in zip(Team, obs.levels):
            if level >= 0:
                counts["announcements"] += 1
                counts["announcements won"] += winner == team
                counts["further announcements"] += level >= 1

    def summary(self) -> dict[str, Any]:
        c = self.counts
        deals = c["deals"]
        return {
            "deals": deals,
            "solo_rate": rate(c["contract solo"], deals),
            "silent_solo_rate": rate(c["contract silent solo"], deals),
            "marriage_rate": rate(c["contract marriage"], deals),
            "poverty_rate": rate(c["contract poverty"], deals),
            "announcement_rate": rate(c["announcements"], deals),
            "announcement_success": rate(c["announcements won"], c["announcements"]),
            "further_announcement_rate": rate(c["further announcements"], deals),
        }


class CourtPieceStats(Stats):
    def add(self, state: GameState) -> None:
        from tricktable.games.courtpiece.actions import CHANGE, PASS

        counts = self.counts
        counts["deals"] += 1
        outcome = getattr(state, "outcome")
        counts[outcome] += 1
        counts["passed to partner"] += PASS in state.history
        counts["changed trump"] += any(CHANGE <= a < CHANGE + 4 for a in state.history)

    def summary(self) -> dict[str, Any]:
        c = self.counts
        deals = c["deals"]
        return {
            "deals": deals,
            "callers_win_rate": rate(c["callers_won"] + c["callers_kot"], deals),
            "kot_rate": rate(c["callers_kot"], deals),
            "goon_kot_rate": rate(c["goon_kot"], deals),
            "pass_to_partner_rate": rate(c["passed to partner"], deals),
            "change_trump_rate": rate(c["changed trump"], deals),
        }


def stats_for(game: str) -> Stats:
    """The statistics the registry names for ``game``."""
    collector: Stats = globals()[entry(game).stats]()
    return collector
