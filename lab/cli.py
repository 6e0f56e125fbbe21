"""``tricktable-lab``: the measuring tools (selfplay, bench, arena, timing), for
developers.  They import the product and are never imported by it; the player's and
the operator's commands are ``tricktable`` (``tricktable/cli.py``)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

from lab.arena import deal_state
from lab.timing import add_timing_arguments, timing_of
from lab.stats import DoppelkopfStats, stats_for
from tricktable.cli import print_result
from tricktable.bots import BOTS, make_bot
from tricktable.catalog import GAMES, get_spec, replay
from tricktable.core.protocol import GameState
from tricktable.core.record import record_of
from tricktable.errors import GameError


def random_playout(state: GameState, rng: random.Random) -> None:
    """Finish a game with uniformly random actions (the referee acts only when
    the player has no choice of his own)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        if legal:
            state.apply(rng.choice(legal))
        else:
            state.apply_referee(rng.choice(state.referee_actions()))



# -- bench -------------------------------------------------------------------
def bench(game: str, seconds: float, rounds: int = 5) -> dict[str, Any]:
    """Random full deals per CPU second (``time.process_time``: on a shared machine
    the wall clock counts the others' work) through the public protocol; the median
    of ``rounds`` rounds of equal CPU time is reported."""
    spec = get_spec(game)
    options = spec.normalize_options({})
    rng = random.Random(0)
    rates, total_deals, index = [], 0, 0
    for _ in range(rounds):
        deals, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            random_playout(deal_state(spec, "bench", index, options), rng)
            deals += 1
            index += 1
        rates.append(deals / elapsed)
        total_deals += deals
    return {
        "game": game,
        "deals": total_deals,
        "seconds": round(seconds, 2),
        "per_second": round(statistics.median(rates), 1),
        "rounds": [round(r, 1) for r in rates],
    }



# -- selfplay ------------------------------------------------------------------
def selfplay(game: str, deals: int, seed: str, bot: str, records: Path | None,
             stats: bool = False, budget_ms: float | None = None, declared_solos: bool = False,
             progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """``declared_solos`` (Doppelkopf): each deal is played until its reservations are
    settled and then only if a player declared a solo, so that the solos' win rate
    is measured on many solos at the cost of few whole deals; ``deals`` then counts
    the deals looked at, ``played`` the ones played out.  ``progress`` gets the
    running count (``done`` of ``deals``, ``played``) after every hundredth of the
    deals and the last."""
    collector = stats_for(game) if stats or declared_solos else None
    if declared_solos and not isinstance(collector, DoppelkopfStats):
        raise GameError("--declared-solos is for Doppelkopf")
    keep = DoppelkopfStats.declared_solo if declared_solos else None
    spec = get_spec(game)
    options = spec.normalize_options({})
    settings = {"budget_ms": budget_ms} if budget_ms is not None else {}
    bots = [make_bot(bot, seed=f"{seed}/seat{seat}", **settings) for seat in range(4)]
    totals = [0, 0, 0, 0]
    outcomes: Counter[str] = Counter()
    if records:
        records.mkdir(parents=True, exist_ok=True)
    played = 0
    report_every = max(1, deals // 100)
    for index in range(deals):
        state = deal_state(spec, seed, index, options)
        finished = play_bots(state, bots, keep)
        if progress and ((index + 1) % report_every == 0 or index + 1 == deals):
            progress({"game": game, "done": index + 1, "deals": deals, "played": played + finished})
        if not finished:
            continue
        played += 1
        totals = [t + r for t, r in zip(totals, state.returns())]
        outcomes.update(line.key for line in state.breakdown())
        if collector:
            collector.add(state)
        if records:
            (records / f"{game}-{index:05d}.json").write_text(record_of(state).dumps(), encoding="utf-8")
    return {
        "game": game,
        "bot": bot,
        "deals": deals,
        "seed": seed,
        **({"played": played} if declared_solos else {}),
        "mean_points": [round(t / max(played, 1), 4) for t in totals],
        "outcomes": dict(sorted(outcomes.items())),
        **({"stats": collector.summary()} if collector else {}),
    }


def stats_of_records(game: str, folders: Sequence[Path]) -> dict[str, Any]:
    """The behaviour statistics of every record in ``folders`` (as ``selfplay --records``
    writes them), as ``selfplay --stats --json`` prints them."""
    collector = stats_for(game)
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            collector.add(replay(path.read_text(encoding="utf-8")))
    return collector.summary()


def play_bots(state: GameState, bots: Sequence[Any],
              keep: Callable[[GameState], bool | None] | None = None) -> bool:
    """Let ``bots`` finish ``state``; ``keep`` may stop it early: asked before each
    action until it answers, False stops the deal (the result is whether it was finished)."""
    while not state.is_terminal():
        if keep is not None:
            verdict = keep(state)
            if verdict is False:
                return False
            if verdict:
                keep = None
        seat = state.to_move
        state.act(seat, bots[seat].choose(state.observe(seat)))
    return True



# -- entry point ---------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tricktable-lab", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    s = commands.add_parser("selfplay", help="bots play deals; print a summary")
    s.add_argument("game", choices=sorted(GAMES))
    s.add_argument("--deals", type=int, default=100)
    s.add_argument("--seed", default="selfplay")
    s.add_argument("--bot", default="random", choices=sorted(BOTS))
    s.add_argument("--json", action="store_true")
    s.add_argument("--records", type=Path, help="write each deal's record into this folder")
    s.add_argument("--stats", action="store_true", help="add behaviour statistics (bidding, lone hands, …)")
    s.add_argument("--budget-ms", type=float, help="the search bot's budget per decision (default: hard, 250 ms)")
    s.add_argument("--declared-solos", action="store_true",
                   help="Doppelkopf: play out only the deals in which a player declares a solo (with --stats)")
    s.add_argument("--progress", action="store_true", help="print the running count of deals to stderr")

    a = commands.add_parser("arena", help="duplicate deals between two bots (A minus B)")
    a.add_argument("game", choices=sorted(GAMES))
    a.add_argument("--a", required=True, choices=sorted(BOTS))
    a.add_argument("--b", required=True, choices=sorted(BOTS))
    a.add_argument("--deals", type=int, default=200)
    a.add_argument("--seed", default="arena")
    a.add_argument("--jobs", type=int, default=1)
    a.add_argument("--budget-ms", type=float, help="time budget per decision of both bots")
    a.add_argument("--progress", action="store_true", help="print the running result to stderr")
    a.add_argument("--no-hard-stop", action="store_true",
                   help="let search use all its worlds however loaded the machine is")
    a.add_argument("--b-commit", help="B is --b of this commit (a frozen baseline, e.g. 20c78f4, whose bot is search)")
    a.add_argument("--b-budget-ms", type=float, help="with --b-commit: the baseline's budget (default --budget-ms)")
    a.add_argument("--preset", help="both bots play under this option preset of the game (e.g. doppelkopf ddv)")
    a.add_argument("--rules-version", help="both bots play this older rules version of the game (e.g. double-sar-1, "
                   "the rules of a --b-commit that predates the current ones)")
    a.add_argument("--results", type=Path, metavar="FILE",
                   help="append each finished deal to FILE at once (JSON lines after a header naming the experiment "
                        "and the bots' code), so that a stopped run loses only the deals in play; the same command "
                        "resumes: it plays only the deals FILE lacks (--deals is the total) and sums up all of them. "
                        "A FILE of another experiment or of other bots is refused (exit 2)")
    a.add_argument("--json", action="store_true")

    b = commands.add_parser("bench", help="random full deals per CPU second through the protocol; with --search, "
                            "the search bot's speed side by side with a baseline commit's")
    b.add_argument("game", choices=sorted(GAMES))
    b.add_argument("--seconds", type=float, default=5.0, help="CPU seconds to play random deals for")
    b.add_argument("--json", action="store_true")
    b.add_argument("--search", action="store_true", help="rollouts per CPU second and CPU ms per decision")
    b.add_argument("--decisions", type=int, default=30, help="with --search: how many decisions")
    b.add_argument("--budget-ms", type=float, default=250.0, help="with --search: the search budget")
    b.add_argument("--baseline-commit", default=None, help="with --search: the frozen baseline (default 20c78f4)")
    b.add_argument("--inference", action="store_true",
                   help="how often the sampled worlds put the unseen cards with their true holders, weighted by "
                        "inference and uniformly (random positions of deals the rules bot plays)")
    b.add_argument("--positions", type=int, default=100, help="with --inference: how many positions")
    b.add_argument("--worlds", type=int, default=40, help="with --inference: worlds sampled per position")
    b.add_argument("--players", default="heuristic", choices=sorted(BOTS),
                   help="with --inference: the bot that plays the deals (every seat)")
    b.add_argument("--analysis", action="store_true",
                   help="a finished game's analysis time per deal (p50, max; wall and CPU seconds)")
    b.add_argument("--deals", type=int, default=3, help="with --analysis: how many deals of a match")
    b.add_argument("--served", action="store_true",
                   help="with --analysis: through a server of its own (POST, then GET until done), wall seconds")
    b.add_argument("--load-people", type=int, default=0,
                   help="with --served: scripts/load.py plays this many people against that server meanwhile")

    st = commands.add_parser("stats", help="selfplay --stats of deals already played, from selfplay --records "
                             "folders (figures added to the statistics later, without playing the deals again)")
    st.add_argument("game", choices=sorted(GAMES))
    st.add_argument("folders", nargs="+", type=Path)

    t = commands.add_parser("timing", help="a bot's decision times, wall clock and CPU (also python -m lab.timing)")
    add_timing_arguments(t)
    return parser


def _progress_printer() -> Callable[[dict[str, Any]], None]:
    """``--progress``: each running result as a JSON line on stderr (stdout keeps the result)."""
    return lambda partial: print(json.dumps(partial), file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "selfplay":
            print_result(selfplay(args.game, args.deals, args.seed, args.bot, args.records, args.stats, args.budget_ms,
                            args.declared_solos, _progress_printer() if args.progress else None),
                   args.json)
        elif args.command == "arena":
            from lab.arena import Baseline, arena

            report = _progress_printer() if args.progress else None
            baseline = Baseline(args.b_commit, args.b_budget_ms, args.b) if args.b_commit else None
            print_result(arena(args.game, args.a, args.b, args.deals, args.seed, args.jobs, args.budget_ms, report,
                         not args.no_hard_stop, baseline, args.preset, args.rules_version, args.results), args.json)
        elif args.command == "bench" and args.analysis:
            from lab.analysis_bench import analysis_times, served_analysis_times

            print_result(served_analysis_times(args.game, args.deals, load_people=args.load_people) if args.served
                         else analysis_times(args.game, args.deals), args.json)
        elif args.command == "bench" and args.inference:
            from lab.inference_check import measure

            print_result(measure(args.game, args.positions, args.worlds, players=args.players), args.json)
        elif args.command == "bench" and args.search:
            from lab.speed import BASELINE_COMMIT, bench_search

            print_result(bench_search(args.game, args.decisions, args.budget_ms, args.baseline_commit or BASELINE_COMMIT),
                   args.json)
        elif args.command == "bench":
            print_result(bench(args.game, args.seconds), args.json)
        elif args.command == "stats":
            print(json.dumps(stats_of_records(args.game, args.folders)))
        elif args.command == "timing":
            print(json.dumps(timing_of(args)))
    except GameError as error:
        print(f"tricktable-lab: {error}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
