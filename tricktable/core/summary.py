"""A finished game summarised for one seat's statistics, and many such summaries
added up.

A game's summary is computed once, from its record (``summarize``), and kept:
statistics are then sums over summaries, never replays.  What a game's players
care about (Re or Kontra, euchred, kots ...) is read from each finished deal by
the game's own ``GameFacts`` (each game family offers one through the catalog);
this module only replays, adds up and turns sums into rates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from tricktable.core.match import MatchState
from tricktable.core.protocol import GameState

DEALS = "deals"
"""In ``GameFacts.rates``: a share of every deal played."""
SUMMARY_FORMAT = 2
"""Stored with every summary: a summary of another format is computed again
(2: the counters read from the match's score sheets, such as Court Piece's
streak bonuses)."""


@dataclass(frozen=True)
class GameFacts:
    """What a game family reads from its finished deals and matches.

    ``deal`` gives one finished (counted) deal's counters for a seat, e.g.
    ``{"called": 1, "called_won": 0}``; every counter a game can report is
    named in ``counters`` (in the order a statistics page shows them), and
    ``rates`` pairs a counter with the counter it is a share of
    (``"called_won": "called"``: how many calls were won), or with
    ``DEALS``, the deals played (``"re": DEALS``: how often one was Re).  ``won`` says
    whether the seat won the match.  ``sheet`` (where a game has one) gives
    a counted deal's counters that the match, not the deal, decides: read
    from the finished deal and the match's result of it (its score sheet:
    Court Piece's streak bonus is a line the match adds there)."""

    deal: Callable[[GameState, int], Mapping[str, int]]
    won: Callable[[MatchState, int], bool]
    counters: tuple[str, ...]
    rates: Mapping[str, str] = field(default_factory=dict)
    sheet: Callable[[GameState, Mapping[str, Any], int], Mapping[str, int]] | None = None


@dataclass(frozen=True)
class GameSummary:
    """One finished game as one seat saw it."""

    deals: int
    points: tuple[int, ...]
    """The seat's points in each counted deal, in order."""
    won: bool
    counters: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"format": SUMMARY_FORMAT, "deals": self.deals, "points": list(self.points), "won": self.won,
                "counters": dict(self.counters)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "GameSummary":
        return cls(int(data["deals"]), tuple(int(p) for p in data["points"]), bool(data["won"]),
                   {str(k): int(v) for k, v in data["counters"].items()})


def summarize(match: MatchState, deals: Sequence[GameState], seat: int, facts: GameFacts) -> GameSummary:
    """The summary of a finished ``match`` for ``seat``; ``deals``: its finished
    deals in order (``core.record.replay_deals``), thrown-in ones included."""
    counters: dict[str, int] = {}
    points = []
    for result, deal in zip(match.results, deals, strict=True):
        if not result["counts"]:
            continue  # dealt again under the same number: not a deal played
        points.append(int(result["points"][seat]))
        found = {**facts.deal(deal, seat), **(facts.sheet(deal, result, seat) if facts.sheet is not None else {})}
        for name, value in found.items():
            counters[name] = counters.get(name, 0) + value
    return GameSummary(len(points), tuple(points), facts.won(match, seat), counters)


@dataclass(frozen=True)
class Finished:
    """A stored summary with its game and when that ended (Unix seconds)."""

    game_id: str
    finished_at: float
    summary: GameSummary


def statistics(finished: Iterable[Finished], facts: GameFacts, recent: int) -> dict[str, Any]:
    """The sums and rates of many summaries, and the ``recent`` last games'
    average points per deal (oldest first) for a chart."""
    games = sorted(finished, key=lambda f: f.finished_at)
    deals = sum(f.summary.deals for f in games)
    points = sum(sum(f.summary.points) for f in games)
    wins = sum(1 for f in games if f.summary.won)
    # Only the counters these games report: a family's games differ (Be-Ranga has no calls).
    counters = {name: 0 for name in facts.counters if any(name in f.summary.counters for f in games)}
    for f in games:
        for name, value in f.summary.counters.items():
            if name in counters:
                counters[name] += value
    wholes = {**counters, DEALS: deals}
    return {
        "games": len(games),
        "deals": deals,
        "wins": wins,
        "win_rate": _share(wins, len(games)),
        "points_per_deal": _share(points, deals),
        "counters": [{"name": name, "count": counters[name],
                      **({"of": facts.rates[name], "rate": _share(counters[name], wholes[facts.rates[name]])}
                         if facts.rates.get(name) in wholes else {})}
                     for name in counters],
        "recent": [{"game_id": f.game_id, "finished_at": f.finished_at, "deals": f.summary.deals,
                    "points_per_deal": _share(sum(f.summary.points), f.summary.deals), "won": f.summary.won}
                   for f in games[-recent:]],
    }


def _share(part: int, whole: int) -> float | None:
    """``part / whole`` rounded for display; None where there is nothing to divide."""
    return round(part / whole, 3) if whole else None


__all__ = ["DEALS", "Finished", "GameFacts", "GameSummary", "SUMMARY_FORMAT", "statistics", "summarize"]
