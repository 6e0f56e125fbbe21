"""Behaviour statistics of finished deals, for ``tricktable-lab selfplay --stats``.

They show whether the bots bid and play sensibly over many deals: in Euchre a
lone hand should be rare and usually succeed, the stuck dealer should often be
euchred but not always, and makers should make most contracts; in Doppelkopf
announcements and solos should mostly win; in the Court Piece family the calling
team should usually keep its trump, and passing or changing trump should pay.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tricktable.core.protocol import GameState
from tricktable.catalog import entry
from tricktable.games.doppelkopf.observation import Team, doppelkopf_observation
from tricktable.games.doppelkopf.rules import ANNOUNCE_NAMES


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
    """Contracts, solos and whether the soloist won them, and announcements: a team's
    announcement succeeds when the team wins (its target is that of its highest
    announcement), counted in all, by that highest level, and by contract and team."""

    def __init__(self) -> None:
        super().__init__()
        self.announced: Counter[tuple[str, str, bool]] = Counter()  # (contract, team, won)

    @staticmethod
    def declared_solo(state: GameState) -> bool | None:
        """Whether a player declared a solo in ``state``'s deal: None while the
        reservations are open (for ``selfplay --declared-solos``, which plays on
        only those deals)."""
        from tricktable.games.doppelkopf.state import SOLO_GAME

        contract: str = getattr(state, "contract")
        if not contract and not state.is_terminal():
            return None
        return contract == SOLO_GAME

    def add(self, state: GameState) -> None:
        counts = self.counts
        counts["deals"] += 1
        # The finished deal as a seat sees it: everything is public at the end.
        obs = doppelkopf_observation(state.observe(0))
        contract = obs.contract
        kind = "solo" if contract and contract.is_solo else contract.value if contract else "none"
        counts[f"contract {kind}"] += 1
        winner = obs.result.winner if obs.result else None
        if kind in ("solo", "silent solo"):
            counts[f"contract {kind} won"] += winner == Team.RE  # the soloist is Re
        for team, level in zip(Team, obs.levels):
            if level >= 0:
                won = winner == team
                counts["announcements"] += 1
                counts["announcements won"] += won
                counts["further announcements"] += level >= 1
                counts[f"highest {ANNOUNCE_NAMES[level]}"] += 1
                counts[f"highest {ANNOUNCE_NAMES[level]} won"] += won
                self.announced[kind, team.name.lower(), won] += 1
                if kind == "solo" and team == Team.KONTRA:
                    counts["against a solo"] += 1
                    counts["against a solo won"] += won

    def summary(self) -> dict[str, Any]:
        c = self.counts
        deals = c["deals"]
        return {
            "deals": deals,
            "solo_rate": rate(c["contract solo"], deals),
            "solo_win_rate": rate(c["contract solo won"], c["contract solo"]),
            "silent_solo_rate": rate(c["contract silent solo"], deals),
            "silent_solo_win_rate": rate(c["contract silent solo won"], c["contract silent solo"]),
            "marriage_rate": rate(c["contract marriage"], deals),
            "poverty_rate": rate(c["contract poverty"], deals),
            "announcement_rate": rate(c["announcements"], deals),
            "announcement_success": rate(c["announcements won"], c["announcements"]),
            "further_announcement_rate": rate(c["further announcements"], deals),
            "announcements_by_highest_level": {
                name: {"n": c[f"highest {name}"], "success": rate(c[f"highest {name} won"], c[f"highest {name}"])}
                for name in ANNOUNCE_NAMES},
            "announcements_against_solos": {"n": c["against a solo"],
                                            "success": rate(c["against a solo won"], c["against a solo"])},
            "announcements_by_contract": self.by_contract(),
        }

    def by_contract(self) -> dict[str, dict[str, dict[str, float]]]:
        """Announcements and their success by contract and announcing team (Kontra's are
        the rarer and the harder to win), e.g. ``{"normal": {"re": {"n": 550, "success": 0.81}}}``."""
        table: dict[str, dict[str, dict[str, float]]] = {}
        for kind, team in sorted({(kind, team) for kind, team, _ in self.announced}):
            won, lost = self.announced[kind, team, True], self.announced[kind, team, False]
            table.setdefault(kind, {})[team] = {"n": won + lost, "success": rate(won, won + lost)}
        return table


class CourtPieceStats(Stats):
    """The whole Court Piece family: how often the calling team keeps its trump call
    (wins the deal), how deals end (kots, Mendikot's tens, whitewashes), and whether
    passing the call to the partner, changing trump and (hidden trump) asking to see
    it happen often and pay."""

    def add(self, state: GameState) -> None:
        from tricktable.games.courtpiece.actions import CHANGE, NEW_CARDS, PASS

        counts = self.counts
        counts["deals"] += 1
        counts[f"outcome {getattr(state, 'outcome')}"] += 1
        callers = getattr(state, "callers")
        callers_won = getattr(state, "winners") == callers
        passed = PASS in state.history
        changed = any(CHANGE <= a < CHANGE + 4 for a in state.history)
        revealed_by = getattr(state, "revealed_by")
        counts["callers won"] += callers_won
        counts["passed to partner"] += passed
        counts["passed to partner, callers won"] += passed and callers_won
        counts["changed trump"] += changed
        counts["changed trump, callers won"] += changed and callers_won
        counts["new cards"] += NEW_CARDS in state.history
        counts["revealed"] += revealed_by >= 0
        counts["revealed by the callers"] += revealed_by >= 0 and revealed_by % 2 == callers

    def summary(self) -> dict[str, Any]:
        c = self.counts
        deals = c["deals"]
        outcomes = {key[len("outcome "):]: rate(n, deals) for key, n in sorted(c.items()) if key.startswith("outcome ")}
        return {
            "deals": deals,
            "callers_win_rate": rate(c["callers won"], deals),
            "outcome_rates": outcomes,
            "kot_rate": outcomes.get("callers_kot", 0.0),
            "goon_kot_rate": outcomes.get("goon_kot", 0.0),
            "pass_to_partner_rate": rate(c["passed to partner"], deals),
            "pass_to_partner_callers_win": rate(c["passed to partner, callers won"], c["passed to partner"]),
            "change_trump_rate": rate(c["changed trump"], deals),
            "change_trump_callers_win": rate(c["changed trump, callers won"], c["changed trump"]),
            "new_cards_rate": rate(c["new cards"], deals),
            "reveal_rate": rate(c["revealed"], deals),
            "reveal_by_callers_share": rate(c["revealed by the callers"], c["revealed"]),
        }


STATS: dict[str, type[Stats]] = {
    "euchre": EuchreStats,
    "doppelkopf": DoppelkopfStats,
    **{game: CourtPieceStats for game in ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")},
}
"""Each game's statistics (a game missing here gets the outcomes only, ``Stats``)."""


def stats_for(game: str) -> Stats:
    """The statistics that summarise self-play of ``game``."""
    entry(game)  # an unknown game is refused with the known ones
    return STATS.get(game, Stats)()
