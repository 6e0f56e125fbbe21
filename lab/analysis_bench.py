"""``tricktable-lab bench --analysis``: how long a finished game's analysis takes
per deal, every game: the rules bot plays the first deals of a match in every
seat, then each decision of seat 0 is searched as the server's analysis
searches it (``hard_hint`` on the hint's fixed worlds, one decision after the
other, as one analysis runs in the thinking processes), timed by the wall clock
and by CPU time (on a shared machine the wall clock counts the others' work)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from tricktable.bots import make_bot
from tricktable.bots.levels import hard_hint
from tricktable.catalog import get_spec
from tricktable.core.match import MatchState
from tricktable.core.record import record_of
from tricktable.server.play.analysis import decisions_of


def played_record(game: str, deals: int, seed: str) -> dict[str, Any]:
    """The record of a match's first ``deals`` deals, the rules bot in every seat."""
    spec = get_spec(game)
    state = spec.new_match(seed, spec.normalize_options({}))
    assert isinstance(state, MatchState)
    rules = make_bot("heuristic")
    while not state.is_terminal() and state.deal_index < deals:
        if not state.legal_actions():
            state.apply_referee(state.referee_actions()[0])
            continue
        state.act(state.to_move, rules.choose(state.observe(state.to_move)))
    return record_of(state).to_json()


def analysis_times(game: str, deals: int = 3, seed: str = "analysis-bench") -> dict[str, Any]:
    """Each deal's analysis time (wall and CPU seconds) and decision count."""
    record = played_record(game, deals, seed)
    per_deal: dict[int, dict[str, float]] = {}
    for decision in decisions_of(record):
        wall, cpu = time.perf_counter(), time.process_time()
        hard_hint(decision.observation, decision.seed)
        spent = per_deal.setdefault(decision.deal, {"wall": 0.0, "cpu": 0.0, "decisions": 0})
        spent["wall"] += time.perf_counter() - wall
        spent["cpu"] += time.process_time() - cpu
        spent["decisions"] += 1
    walls = [d["wall"] for d in per_deal.values()]
    cpus = [d["cpu"] for d in per_deal.values()]
    return {"game": game, "deals": len(per_deal), "decisions": int(sum(d["decisions"] for d in per_deal.values())),
            "wall_p50_s": round(statistics.median(walls), 2), "wall_max_s": round(max(walls), 2),
            "cpu_p50_s": round(statistics.median(cpus), 2), "cpu_max_s": round(max(cpus), 2)}


__all__ = ["analysis_times", "played_record"]
