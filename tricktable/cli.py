"""The ``tricktable`` command: play, selfplay, replay, verify, bench, schema, serve, arena."""

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

from tricktable.bots import BOTS, make_bot
from tricktable.core.errors import GameError
from tricktable.core.protocol import GameSpec, GameState
from tricktable.core.record import record_of, replay
from tricktable.core.schema import json_schema
from tricktable.core.rng import derive_seed
from tricktable.games import GAMES, get_spec

SEAT_NAMES = ("You", "West", "Partner", "East")


def _seed_deal(spec: GameSpec, seed: str, index: int, options: dict[str, Any]) -> GameState:
    deal = spec.deal_from_seed(derive_seed(seed, "deal", index), index % 4, options)
    return spec.new_deal(deal, options)


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
            random_playout(_seed_deal(spec, "bench", index, options), rng)
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


# -- schema ------------------------------------------------------------------
def observation_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of a seat's ``view`` in ``game`` (see ``core/schema.py``)."""
    spec = get_spec(game)
    options = spec.normalize_options({})
    observation = type(_seed_deal(spec, "schema", 0, options).observe(0))
    return json_schema(observation)


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
    from tricktable.bots.stats import DoppelkopfStats, stats_for

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
        state = _seed_deal(spec, seed, index, options)
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


# -- play ------------------------------------------------------------------------
_NOT_SHOWN = {"game", "seat", "to_move", "hand", "hand_sizes", "actions", "legal", "terminal", "options",
              "match", "trick", "tricks", "result"}
_SEAT_KEYS = {"dealer", "maker", "sitting_out", "lone_defender", "caller", "declarer", "leader", "trump_by"}


def render(view: dict[str, Any]) -> str:
    """The table in plain text, from the person's view only: every public fact the
    game's view carries (trump, contract, pile, announcements …), then the trick."""
    lines = []
    for key, value in view.items():
        if key in _NOT_SHOWN or value in (None, False, "", [], {}):
            continue
        if key in _SEAT_KEYS and isinstance(value, int):
            value = SEAT_NAMES[value]
        lines.append(f"  {key.replace('_', ' ')}: {value}")
    match = view.get("match")
    if match:
        lines.append(f"  deal {match['deal_number']}, totals: {match['totals']}")
    if view.get("trick"):
        lines.append("  trick: " + ", ".join(f"{SEAT_NAMES[s]} {c}" for s, c in view["trick"]))
    elif view.get("tricks"):
        last = view["tricks"][-1]
        lines.append("  last trick: " + ", ".join(f"{SEAT_NAMES[s]} {c}" for s, c in last["cards"])
                     + f" -> {SEAT_NAMES[last['winner']]}")
    lines.append("  your hand: " + " ".join(view["hand"]))
    return "\n".join(lines)


def play(game: str, seed: str | None, bot: str, options: dict[str, Any]) -> None:
    spec = get_spec(game)
    seed = seed or f"{time.time_ns()}"
    match = spec.new_match(seed, spec.normalize_options(options))
    bots = [make_bot(bot, seed=f"{seed}/seat{seat}") for seat in range(4)]
    seen_actions = 0
    print(f"{spec.title}: you (South) and Partner (North) against West and East. Seed {seed}.")
    while not match.is_terminal():
        view = match.view(0)
        for seat, text in view["actions"][seen_actions:]:
            print(f"  {SEAT_NAMES[seat]}: {text}")
        seen_actions = len(view["actions"])
        seat = match.to_move
        if seat != 0:
            deal_before = match.current
            match.act(seat, bots[seat].choose(match.observe(seat)))
            if match.current is not deal_before or match.is_terminal():
                seen_actions = _announce_deal_end(match)
            continue
        print(render(view))
        for number, text in enumerate(view["legal"], start=1):
            print(f"   {number}. {text}")
        answer = input("your choice (number or text, q to quit): ").strip()
        if answer.lower() in ("q", "quit"):
            return
        choice = view["legal"][int(answer) - 1] if answer.isdigit() and 0 < int(answer) <= len(view["legal"]) else answer
        deal_before = match.current
        try:
            match.act(0, choice)
        except GameError as error:
            print(f"  ! {error}")
            continue
        if match.current is not deal_before or match.is_terminal():
            seen_actions = _announce_deal_end(match)
    print(f"Match over. Totals (you, West, Partner, East): {match.returns()}")


def _announce_deal_end(match: Any) -> int:
    result = match.results[-1]
    print(f"--- deal {result['number']} over: " + "; ".join(f"{l['text']}: {l['points']}" for l in result["lines"]))
    print(f"--- totals (you, West, Partner, East): {match.totals}")
    return 0


# -- replay ------------------------------------------------------------------------
def replay_file(path: Path) -> dict[str, Any]:
    state = replay(path.read_text(encoding="utf-8"))
    return {
        "game": state.spec.name,
        "terminal": state.is_terminal(),
        "actions": len(state.history),
        "scores": state.returns(),
        "breakdown": [line.to_json() for line in state.breakdown()],
    }


# -- entry point ---------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tricktable", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("play", help="play a match in the terminal against three computer players")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--seed")
    p.add_argument("--bot", default="random", choices=sorted(BOTS))
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option, e.g. stick_the_dealer=false (repeatable)")

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

    r = commands.add_parser("replay", help="replay and verify a game record")
    r.add_argument("file", type=Path)
    r.add_argument("--json", action="store_true")

    v = commands.add_parser("verify", help="check a revealed game record: commitment, seeds and every deal")
    v.add_argument("file", type=Path, help="the record as GET /api/games/ID/record gives it")

    w = commands.add_parser("serve", help="serve the web card room (default http://127.0.0.1:8000)")
    w.add_argument("--host", default="127.0.0.1")
    w.add_argument("--port", type=int, default=8000)
    w.add_argument("--database", help="SQLAlchemy URL (default: $TRICKTABLE_DATABASE_URL or SQLite in ./data)")
    w.add_argument("--workers", type=int, default=None,
                   help="server processes on the one port (default: the number of cores)")
    w.add_argument("--think-processes", type=int, default=None,
                   help="processes each server's computer players think in (default: cores / workers, at least 1)")
    w.add_argument("--steer", choices=("address", "none"), default="address",
                   help="with several workers: send each client's connections to one worker by her address "
                   "(default), or let the system spread them (none: behind a load balancer on another machine)")

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

    j = commands.add_parser("schema", help="the JSON Schema of what the page receives for a game's seat")
    j.add_argument("game", choices=sorted(GAMES))
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
    return parser


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    return int(text) if text.lstrip("-").isdigit() else text


def _progress_printer() -> Callable[[dict[str, Any]], None]:
    """``--progress``: each running result as a JSON line on stderr (stdout keeps the result)."""
    return lambda partial: print(json.dumps(partial), file=sys.stderr, flush=True)


def _print(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            options = dict(item.split("=", 1) for item in args.option)
            play(args.game, args.seed, args.bot, {k: _option_value(v) for k, v in options.items()})
        elif args.command == "selfplay":
            _print(selfplay(args.game, args.deals, args.seed, args.bot, args.records, args.stats, args.budget_ms,
                            args.declared_solos, _progress_printer() if args.progress else None),
                   args.json)
        elif args.command == "replay":
            _print(replay_file(args.file), args.json)
        elif args.command == "verify":
            from tricktable.server.fairness import verify_file

            ok, report = verify_file(args.file)
            print(report)
            return 0 if ok else 1
        elif args.command == "serve":
            from tricktable.server.serve import serve

            return serve(args.host, args.port, args.database, workers=args.workers,
                         think_processes=args.think_processes, steer=args.steer)
        elif args.command == "arena":
            from tricktable.arena import Baseline, arena

            report = _progress_printer() if args.progress else None
            baseline = Baseline(args.b_commit, args.b_budget_ms, args.b) if args.b_commit else None
            _print(arena(args.game, args.a, args.b, args.deals, args.seed, args.jobs, args.budget_ms, report,
                         not args.no_hard_stop, baseline, args.preset, args.rules_version, args.results), args.json)
        elif args.command == "bench" and args.inference:
            from tricktable.inference_check import measure

            _print(measure(args.game, args.positions, args.worlds, players=args.players), args.json)
        elif args.command == "bench" and args.search:
            from tricktable.speed import BASELINE_COMMIT, bench_search

            _print(bench_search(args.game, args.decisions, args.budget_ms, args.baseline_commit or BASELINE_COMMIT),
                   args.json)
        elif args.command == "bench":
            _print(bench(args.game, args.seconds), args.json)
        elif args.command == "schema":
            print(json.dumps(observation_schema(args.game), indent=2))
    except GameError as error:
        print(f"tricktable: {error}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
