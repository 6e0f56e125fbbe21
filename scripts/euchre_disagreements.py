"""Where one Euchre bot gains or loses against a baseline commit's bot, decision by decision.

The deals are the duplicate arena's (``tricktable arena euchre --b-commit``): each deal is
played twice, A's bots on one team, then on the other, B's (the baseline commit's search, in
its worker) on the other.  At every real decision of A's team, B is asked too, from the same
position and with the bot seed the arena gives that seat.  Where they differ, the decision is
attributed two ways:

* ``branch``: the deal played on from there after B's action, by the same bots (A's team A's,
  the other team B's), against the real deal after A's action: points of A's team, A's line
  minus B's line.  On the true cards, so unbiased for "this one decision, then A's play", and
  noisy.
* ``judge``: both actions searched from A's observation by the hard level with many worlds
  (``--judge-worlds``, inference): A's action's estimate minus B's.  Quiet, but it shares
  search's own model of the game.

Phases: bids by round and seat (1 the first seat … 0 the dealer), the dealer's discard, the
card play by trick and side (makers / defenders).  One JSON line per disagreement and per
table in ``--out``; a summary by phase at the end (and with ``--summary FILE`` alone)::

    python scripts/euchre_disagreements.py --seed phases-s10 --deals 200 --out phases.jsonl
    python scripts/euchre_disagreements.py --summary phases.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from typing import Any, Sequence

from tricktable.arena import NO_HARD_STOP_MS, deal_state, table_options
from tricktable.bots import euchre, make_bot
from tricktable.bots.base import Bot
from tricktable.bots.players import search_game
from tricktable.bots.search import evaluate
from tricktable.core.protocol import GameState
from tricktable.games import entry
from tricktable.games.euchre.observation import EuchreObservation, Phase
from tricktable.speed import Worker, baseline_tree

Actions = list[tuple[int, str]]


def phase_of(obs: EuchreObservation) -> str:
    """The decision's phase: bids by round and seat after the dealer, cards by trick and side."""
    if obs.phase == Phase.PLAYING:
        side = "makers" if obs.maker is not None and obs.maker % 2 == obs.seat % 2 else "defenders"
        return f"play, trick {len(obs.tricks) + 1}, {side}"
    if obs.phase in (Phase.ROUND1, Phase.ROUND2):
        return f"{obs.phase.key}, seat {(obs.seat - obs.dealer) % 4}"
    return obs.phase.key


class Table:
    """One table of a duplicate deal: A's bots on ``a_team``, B's in its worker."""

    def __init__(self, args: argparse.Namespace, worker: Worker, index: int, a_team: int):
        self.args, self.worker, self.index, self.a_team = args, worker, index, a_team
        self.a_bots: list[Bot] = [make_bot(args.a, seed=f"{args.seed}/{args.a}/{seat}", budget_ms=args.a_budget_ms,
                                           hard_ms=NO_HARD_STOP_MS) for seat in range(4)]

    def b_action(self, seat: int, actions: Actions) -> str:
        job = {"game": "euchre", "seed": self.args.seed, "index": self.index, "budget_ms": self.args.b_budget_ms,
               "bot": "search", "bot_seed": f"{self.args.seed}/search/{seat}", "prefix": list(actions)}
        return str(self.worker.run(job)["action"])

    def action(self, state: GameState, actions: Actions) -> str:
        seat = state.to_move
        if seat % 2 == self.a_team:
            return self.a_bots[seat].choose(state.observe(seat))
        return self.b_action(seat, actions)

    def play_on(self, state: GameState, actions: Actions) -> float:
        """A's team's points minus the other's after playing ``state`` to its end."""
        while not state.is_terminal():
            text = self.action(state, actions)
            actions.append((state.to_move, text))
            state.act(state.to_move, text)
        points = state.returns()
        return float(points[self.a_team] - points[1 - self.a_team])

    def play(self, out: Any) -> float:
        """The table's result, and a line in ``out`` for each decision where A and B differ."""
        state = deal_state(entry("euchre").spec, self.args.seed, self.index, table_options("euchre"))
        actions: Actions = []
        pending: list[dict[str, Any]] = []
        while not state.is_terminal():
            seat = state.to_move
            obs = state.observe(seat)
            assert isinstance(obs, EuchreObservation)
            text = self.action(state, actions)
            if seat % 2 == self.a_team and len(obs.legal) > 1:
                other = self.b_action(seat, actions)
                self.tally(phase_of(obs), other == text)
                if other != text:
                    pending.append(self.disagreement(state, obs, actions, text, other))
            actions.append((seat, text))
            state.act(seat, text)
        points = state.returns()
        result = float(points[self.a_team] - points[1 - self.a_team])
        for line in pending:
            line["branch"] = result - line.pop("b_line")
            out.write(json.dumps(line) + "\n")
        return result

    def disagreement(self, state: GameState, obs: EuchreObservation, actions: Actions, a: str, b: str) -> dict[str, Any]:
        branch = state.clone()
        branch.act(obs.seat, b)
        b_line = self.play_on(branch, [*actions, (obs.seat, b)])
        game = search_game(euchre, obs)
        estimates = evaluate(game, obs, random.Random(f"judge/{self.index}/{len(actions)}"), self.args.judge_worlds,
                             NO_HARD_STOP_MS, [a, b]).estimates
        value = {e.action: e.value for e in estimates}
        return {"kind": "disagreement", "index": self.index, "a_team": self.a_team, "phase": phase_of(obs),
                "a": a, "b": b, "hand": " ".join(sorted(obs.hand_texts())),
                "b_line": b_line, "judge": value[a] - value[b]}

    def tally(self, phase: str, same: bool) -> None:
        key = (phase, same)
        COUNTS[key] = COUNTS.get(key, 0) + 1


COUNTS: dict[tuple[str, bool], int] = {}


def run(args: argparse.Namespace) -> None:
    worker = Worker(baseline_tree(args.b_commit))
    try:
        with open(args.out, "a") as out:
            for index in range(args.start, args.start + args.deals):
                started = time.process_time()
                results = [Table(args, worker, index, a_team).play(out) for a_team in (0, 1)]
                out.write(json.dumps({"kind": "deal", "index": index, "diff": sum(results) / 2,
                                      "counts": [[p, s, n] for (p, s), n in COUNTS.items()],
                                      "cpu_s": round(time.process_time() - started, 2)}) + "\n")
                out.flush()
                COUNTS.clear()
    finally:
        worker.close()


def summary(path: str) -> dict[str, Any]:
    """By phase: decisions, disagreements, and the branch and judge sums per deal."""
    lines = [json.loads(line) for line in open(path)]
    deals = [line for line in lines if line["kind"] == "deal"]
    done = {line["index"] for line in deals}
    decisions: dict[str, int] = defaultdict(int)
    for line in deals:
        for phase, _, count in line["counts"]:
            decisions[phase] += count
    by_phase: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        if line["kind"] == "disagreement" and line["index"] in done:
            by_phase[line["phase"]].append(line)
    n = len(deals)
    table = {}
    for phase in sorted(decisions):
        found = by_phase.get(phase, [])
        table[phase] = {"decisions": decisions[phase], "differ": len(found),
                        **_per_deal("branch", [d["branch"] for d in found], n),
                        **_per_deal("judge", [d["judge"] for d in found], n)}
    diffs = [line["diff"] for line in deals]
    return {"deals": n, "mean_diff": round(statistics.fmean(diffs), 4) if diffs else 0.0,
            "stderr": round(statistics.stdev(diffs) / n ** 0.5, 4) if n > 1 else 0.0, "phases": table}


def _per_deal(name: str, values: Sequence[float], deals: int) -> dict[str, float]:
    """The sum of ``values`` per deal (a deal is two tables) and its standard error."""
    if not deals:
        return {}
    total = sum(values) / deals
    spread = (sum(v * v for v in values) ** 0.5) / deals  # each disagreement's value as its own noise
    return {f"{name}_per_deal": round(total, 4), f"{name}_se": round(spread, 4)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", default="phases")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--a", default="search-noinfer")
    parser.add_argument("--a-budget-ms", type=float, default=50.0)
    parser.add_argument("--b-commit", default="20c78f4")
    parser.add_argument("--b-budget-ms", type=float, default=250.0)
    parser.add_argument("--judge-worlds", type=int, default=2000)
    parser.add_argument("--out", default="euchre_disagreements.jsonl")
    parser.add_argument("--summary", help="only summarise this file")
    args = parser.parse_args(argv)
    if args.summary is None:
        run(args)
    print(json.dumps(summary(args.summary or args.out), indent=1))


if __name__ == "__main__":
    main()
