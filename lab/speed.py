"""Search speed side by side with a frozen baseline: ``tricktable-lab bench GAME --search``.

The decisions are fixed first: deals of the bench seed played by the rules bot,
and every few real decisions (two or more legal actions) one is kept, written as
seed, deal index and public action prefix.  Two worker processes
(``speed_worker.py``, started by ``lab.baseline.Worker``) then time the search bot on
exactly those decisions, alternating decision by decision so that the machine's load
hits both alike: one runs this checkout, the other the same worker on a baseline
commit's tree (``lab.baseline.baseline_tree``).  Both
search without the hard stop, so each uses its full budget whatever the load.

A rollout is one sampled world finished for one candidate action, by policy or
solver; ``rollouts_per_cpu_s`` is all of them over all the CPU seconds spent.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Sequence

from lab.arena import deal_state
from lab.baseline import ROOT, Worker, baseline_tree
from tricktable.bots import make_bot
from tricktable.catalog import entry
from tricktable.errors import GameError

BASELINE_COMMIT = "20c78f4"
"""Main before the search's speed work began: the frozen baseline every speed figure is
compared with (docs/performance.md)."""
STRIDE = 5
"""Keep one real decision in this many, so that the decisions spread over a deal."""


def decisions(game: str, count: int, seed: str = "bench") -> list[dict[str, Any]]:
    """``count`` decisions from rules-bot deals of ``seed``, in stable notation."""
    game_entry = entry(game)
    spec = game_entry.spec
    options = spec.normalize_options(game_entry.bot_options)
    bots = [make_bot("heuristic", seed=f"{seed}/{seat}") for seat in range(4)]
    found: list[dict[str, Any]] = []
    index = seen = 0
    while len(found) < count:
        state = deal_state(spec, seed, index, options)
        prefix: list[tuple[int, str]] = []
        while not state.is_terminal() and len(found) < count:
            if not state.legal_actions():
                raise GameError("the speed bench plays games without referee actions")
            seat = state.to_move
            obs = state.observe(seat)
            if len(obs.legal) > 1:
                if seen % STRIDE == 0:
                    found.append({"game": game, "seed": seed, "index": index, "prefix": list(prefix)})
                seen += 1
            text = bots[seat].choose(obs)
            state.act(seat, text)
            prefix.append((seat, text))
        index += 1
    return found


def summary(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``rollouts_per_cpu_s`` and the per-decision CPU percentiles of one side, and the
    wall-clock ones (on a loaded machine the wall clock counts the others' work too)."""
    cpu = [r["cpu_ms"] for r in results]
    rollouts = sum(r["rollouts"] for r in results)
    return {"rollouts_per_cpu_s": round(rollouts / (sum(cpu) / 1000), 1),
            "cpu_ms_per_decision": _percentiles(cpu),
            "wall_ms_per_decision": _percentiles([r.get("wall_ms", 0.0) for r in results]),
            "rollouts": rollouts}


def _percentiles(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2)}


def bench_search(game: str, count: int = 30, budget_ms: float = 250.0, baseline_commit: str = BASELINE_COMMIT,
                 seed: str = "bench") -> dict[str, Any]:
    """This checkout's search and the baseline's on the same ``count`` decisions."""
    jobs = [dict(job, budget_ms=budget_ms) for job in decisions(game, count, seed)]
    new, old = Worker(ROOT), Worker(baseline_tree(baseline_commit))
    new_results, old_results = [], []
    try:
        for job in jobs:  # alternate, so that a change of load hits both sides
            new_results.append(new.run(job))
            old_results.append(old.run(job))
    finally:
        new.close()
        old.close()
    same = sum(a["action"] == b["action"] for a, b in zip(new_results, old_results))
    return {"game": game, **summary(new_results), "decisions": len(jobs), "budget_ms": budget_ms,
            "same_choice": same, "kernels": new_results[-1].get("kernels", {}) if new_results else {},
            "baseline": {"commit": baseline_commit, **summary(old_results),
                         "kernels": old_results[-1].get("kernels", {}) if old_results else {}}}
