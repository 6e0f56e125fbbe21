"""Duplicate matches between two bots: ``tricktable arena``.

Luck of the cards is taken out by replaying every deal so that both bots hold
the same cards in the same seats:

* partners opposite (Euchre, Court Piece; ``Seating`` in the registry): the deal is played twice, A's team in
  seats 0/2 against B's team in 1/3, then with the teams swapped.  A deal's score
  difference is the mean over the two tables of (A's team points − B's team points).
* teams per deal (Doppelkopf): A sits in each seat in turn against three
  copies of B, and each of those four results is compared with the same seat's
  result when B plays all four seats.  A deal's difference is the mean over the
  four seats of (A's points − B's points in that seat).

Decision times count only real decisions (two or more legal actions), measured
around ``Bot.choose``; bots are handed observations only.
"""

from __future__ import annotations

import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from tricktable.bots import Bot, make_bot
from tricktable.core.protocol import GameSpec, GameState
from tricktable.core.rng import derive_seed
from tricktable.games import Seating, entry


@dataclass
class DealResult:
    diff: float
    a_ms: list[float] = field(default_factory=list)
    b_ms: list[float] = field(default_factory=list)


def deal_state(spec: GameSpec, seed: str, index: int, options: dict[str, Any]) -> GameState:
    """Deal ``index`` of an arena run (the dealer rotates with the index)."""
    deal = spec.deal_from_seed(derive_seed(seed, "deal", index), index % 4, options)
    return spec.new_deal(deal, options)


def play_table(state: GameState, bots: Sequence[Bot], times: Sequence[list[float]]) -> GameState:
    """Play a deal to its end; ``times[seat]`` collects that seat's decision times."""
    while not state.is_terminal():
        seat = state.to_move
        legal = state.legal_actions()
        if not legal:  # only the referee can act (a timeout rule)
            state.apply_referee(state.referee_actions()[0])
            continue
        obs = state.observe(seat)
        start = time.perf_counter()
        text = bots[seat].choose(obs)
        elapsed = (time.perf_counter() - start) * 1000
        if len(legal) > 1:
            times[seat].append(elapsed)
        state.act(seat, text)
    return state


NO_HARD_STOP_MS = 1e9


def _bots(name: str, seed: str, budget_ms: float | None, hard_stop: bool = True) -> list[Bot]:
    settings: dict[str, Any] = {} if budget_ms is None else {"budget_ms": budget_ms}
    if not hard_stop and name == "search":
        settings["hard_ms"] = NO_HARD_STOP_MS
    return [make_bot(name, seed=f"{seed}/{name}/{seat}", **settings) for seat in range(4)]


def duplicate_deal(game: str, a: str, b: str, seed: str, index: int, budget_ms: float | None = None,
                   hard_stop: bool = True) -> DealResult:
    game_entry = entry(game)
    spec = game_entry.spec
    options = spec.normalize_options(game_entry.bot_options)
    bots_a, bots_b = _bots(a, seed, budget_ms, hard_stop), _bots(b, seed, budget_ms, hard_stop)
    result = DealResult(0.0)
    if game_entry.seating is Seating.PARTNERS_OPPOSITE:
        diffs = []
        for a_team in (0, 1):
            seats = [bots_a[s] if s % 2 == a_team else bots_b[s] for s in range(4)]
            times: list[list[float]] = [[] for _ in range(4)]
            points = play_table(deal_state(spec, seed, index, options), seats, times).returns()
            diffs.append(points[a_team] - points[1 - a_team])
            _collect(result, times, lambda s: s % 2 == a_team)
        result.diff = sum(diffs) / 2
        return result
    times_b: list[list[float]] = [[] for _ in range(4)]
    baseline = play_table(deal_state(spec, seed, index, options), bots_b, times_b).returns()
    _collect(result, times_b, lambda s: False)
    diffs = []
    for a_seat in range(4):
        seats = [bots_a[s] if s == a_seat else bots_b[s] for s in range(4)]
        times = [[] for _ in range(4)]
        points = play_table(deal_state(spec, seed, index, options), seats, times).returns()
        diffs.append(points[a_seat] - baseline[a_seat])
        _collect(result, times, lambda s: s == a_seat)
    result.diff = sum(diffs) / 4
    return result


def _collect(result: DealResult, times: Sequence[list[float]], is_a: Callable[[int], bool]) -> None:
    for seat, seat_times in enumerate(times):
        (result.a_ms if is_a(seat) else result.b_ms).extend(seat_times)


def _run_chunk(args: tuple[str, str, str, str, int, int, float | None, bool]) -> list[DealResult]:
    game, a, b, seed, start, stop, budget_ms, hard_stop = args
    return [duplicate_deal(game, a, b, seed, i, budget_ms, hard_stop) for i in range(start, stop)]


def percentiles(times: Sequence[float]) -> dict[str, float]:
    if not times:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2), "max": round(ordered[-1], 2)}


def arena(game: str, a: str, b: str, deals: int, seed: str, jobs: int = 1,
          budget_ms: float | None = None, progress: Callable[[dict[str, Any]], None] | None = None,
          hard_stop: bool = True) -> dict[str, Any]:
    """Play ``deals`` duplicate deals; see the module docstring for the scoring.
    ``progress`` gets the summary so far after every chunk of deals.  Without
    ``hard_stop`` a search always uses all its worlds, so the result does not
    depend on how loaded the machine is (the decision times still do)."""
    entry(game)  # fail early on an unknown game
    chunk = max(1, min(10, deals // max(1, jobs * 4)))
    tasks = [(game, a, b, seed, start, min(deals, start + chunk), budget_ms, hard_stop)
             for start in range(0, deals, chunk)]
    results: list[DealResult] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done in pool.map(_run_chunk, tasks):
                results += done
                if progress:
                    progress(summary(game, a, b, results))
    else:
        for task in tasks:
            results += _run_chunk(task)
            if progress:
                progress(summary(game, a, b, results))
    return summary(game, a, b, results)


def summary(game: str, a: str, b: str, results: Sequence[DealResult]) -> dict[str, Any]:
    diffs = [r.diff for r in results]
    mean = statistics.fmean(diffs) if diffs else 0.0
    stderr = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {
        "game": game,
        "a": a,
        "b": b,
        "deals": len(results),
        "mean_diff": round(mean, 4),
        "stderr": round(stderr, 4),
        "a_ms": percentiles([t for r in results for t in r.a_ms]),
        "b_ms": percentiles([t for r in results for t in r.b_ms]),
    }
