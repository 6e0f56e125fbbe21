"""How well search's rollouts judge the Euchre contracts it makes, from selfplay records.

For every contract of a folder of records (``tricktable selfplay euchre --records DIR``)
whose maker had the choice to pass, the making bid's position is searched again as the
hard level would (``worlds_for(250)`` worlds, inference) and its rollouts are compared
with what happened: the share of the worlds in which the bid was euchred against the real euchre
rate, the estimated value of the bid and of passing against the bid's real points.
Contracts are grouped by the rollouts' euchre share, and by whether the rules would
have made the bid ("departure": search made trump where the rules pass) with the
round and the maker's seat (docs/strength.md, session 9)::

    python scripts/euchre_bid_calibration.py RECORDS_DIR [RECORDS_DIR ...]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from tricktable.bots import euchre, search
from tricktable.bots.players import candidates, search_game
from tricktable.core.record import parse_record
from tricktable.games.euchre.state import PASS, ROUND1, ROUND2, EuchreState, action_text

SEATS = {1: "first", 2: "dealer's partner", 3: "third", 0: "dealer"}
RISK_BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 1.01)


def weighted_mean(pairs: Sequence[tuple[float, float]]) -> float:
    total = sum(w for w, _ in pairs)
    return sum(w * v for w, v in pairs) / total


def world_rows(obs: Any, worlds: int, seed: str) -> tuple[list[str], list[tuple[float, list[float | None]]]]:
    """The candidates searched at ``obs`` and each sampled world's (weight, candidate values),
    read from the search's own choice step (``scripts/euchre_lone_value.py`` uses it too)."""
    seen: dict[str, Any] = {}
    choose = search._choose

    def keep(actions: Sequence[str], samples: Any, best: str, default: str | None, bar: float = search.SWITCH_Z) -> str:
        seen["actions"], seen["samples"] = list(actions), list(samples)
        return choose(actions, samples, best, default, bar)

    actions = candidates(euchre, obs)
    search._choose = keep
    try:
        search.evaluate(search_game(euchre, obs), obs, random.Random(seed), worlds, 10_000.0, actions)
    finally:
        search._choose = choose
    return seen["actions"], seen["samples"]


def searched_again(obs: Any, bid: str, seed: str) -> dict[str, float]:
    """The bid's and the pass's rollout values at ``obs``, as the hard level searches it."""
    actions, samples = world_rows(obs, euchre.worlds_for(250.0), seed)
    bid_at, pass_at = actions.index(bid), actions.index(action_text(PASS))
    bids = [(w, v[bid_at]) for w, v in samples if v[bid_at] is not None]
    passes = [(w, v[pass_at]) for w, v in samples if v[pass_at] is not None]
    return {"est_bid": weighted_mean(bids), "est_pass": weighted_mean(passes),
            "est_euchre": weighted_mean([(w, 1.0 if v < 0 else 0.0) for w, v in bids])}


def contract(path: Path) -> dict[str, Any] | None:
    """The making bid of one record, searched again, and what happened."""
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    state = record.start()
    assert isinstance(state, EuchreState)
    found: dict[str, Any] | None = None
    for text in record.actions:
        if found is None and state.phase in (ROUND1, ROUND2) and state.parse_action(text) != PASS:
            seat = state.to_move
            obs = state.observe(seat)
            if action_text(PASS) not in obs.legal:
                return None  # the stuck dealer had no choice
            found = {"path": str(path), "seat": seat, "round": 1 if state.phase == ROUND1 else 2,
                     "where": SEATS[(seat - state.dealer) % 4], "bid": text,
                     "departure": euchre.heuristic_text(obs) == action_text(PASS),
                     **searched_again(obs, text, str(path))}
        state.apply_any(state.parse_action(text))
    if found is None:
        return None
    points = state.returns()
    found["real"] = points[found["seat"]] - points[(found["seat"] + 1) % 4]
    found["euchred"] = state.outcome == "euchred"
    return found


def line(label: str, group: list[dict[str, Any]]) -> str:
    n = len(group)

    def mean(key: str) -> float:
        return sum(float(r[key]) for r in group) / n

    return (f"{label:42s} n={n:4d}  euchred: rollouts {mean('est_euchre'):.2f} real {mean('euchred'):.2f}  "
            f"bid: est {mean('est_bid'):+.2f} real {mean('real'):+.2f}  pass est {mean('est_pass'):+.2f}  "
            f"departures {sum(r['departure'] for r in group)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="also write every contract's row here")
    args = parser.parse_args()
    rows = [row for folder in args.records for path in sorted(folder.glob("*.json")) if (row := contract(path))]
    if args.json:
        args.json.write_text(json.dumps(rows), encoding="utf-8")
    print(line("all contracts with a choice", rows))
    for low, high in zip(RISK_BINS, RISK_BINS[1:]):
        group = [r for r in rows if low <= r["est_euchre"] < high]
        if group:
            print(line(f"rollouts euchred in {low:.0%}-{min(high, 1.0):.0%}", group))
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[("departure" if r["departure"] else "rules' bid", r["round"], r["where"])].append(r)
    for (kind, round_, where), group in sorted(groups.items()):
        print(line(f"{kind}, round {round_}, {where}", group))


if __name__ == "__main__":
    main()
