"""Court Piece calling and changing trump: where search and the rules disagree, and
what each choice is worth (docs/strength.md, session 8).

``positions``: the deals of a selfplay seed, played by ``search-noinfer`` (the
selfplay's bots and seeds) up to the first card; at every call, pass and change of
trump, the rules' action, search's action and search's own estimates: each
candidate's paired advantage over the rules' action (mean and standard error), at
the bot's worlds and again at ``--many`` worlds (what the rollout policy believes
once the noise is gone).  One JSON line per decision::

    python scripts/courtpiece_calling.py positions double-sar --deals 300 --many 1000

``playout``: one such decision replayed: the deciding seat's position fixed, the
hidden cards dealt again consistently with it, each deal played once per action
(``--actions``; default the rules' and search's) from the same cards, every later
decision by the same bots; the result is the decider's team points minus the
other team's.  Prints each action's mean and the paired difference of each against
the first, with its standard error::

    python scripts/courtpiece_calling.py playout double-sar --deal 17 --kind change \\
        --bot search-noinfer --budget-ms 50 --deals 200
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from dataclasses import replace
from typing import Any, Iterator

from tricktable.arena import bot_settings
from tricktable.bots import make_bot
from tricktable.bots.players import SearchBot, candidates, game_module, search_game
from tricktable.bots.search import evaluate
from tricktable.cli import _seed_deal
from tricktable.games import get_spec
from tricktable.games.courtpiece.state import CALLING, PARTNER_CALLING, CourtPieceState

CALLING_PHASES = (CALLING, PARTNER_CALLING)


def decision_kind(state: CourtPieceState) -> str | None:
    """``call``, ``partner call`` or ``change`` for the calling and changing decisions,
    None for a card without a change of trump on offer."""
    if state.phase == CALLING:
        return "call"
    if state.phase == PARTNER_CALLING:
        return "partner call"
    texts = state.legal_texts()
    return "change" if any(t.startswith("change trump") for t in texts) else None


def paired(values: list[tuple[float, float]]) -> tuple[float, float]:
    """Mean and standard error of a - b over the pairs."""
    diffs = [a - b for a, b in values]
    if len(diffs) < 2:
        return (diffs[0] if diffs else 0.0), float("nan")
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def advantages(game: Any, obs: Any, rng: random.Random, worlds: int, actions: list[str],
               default: str) -> dict[str, Any]:
    """Each candidate's paired advantage over ``default`` (rollout values on the same
    worlds, every candidate on every world: no successive halving here)."""
    from tricktable.bots import search

    rows: list[list[float]] = []
    codes: dict[str, int] = {}
    for _ in range(worlds):
        world = game.spec.sample_world(obs, rng)
        values = search._try_all(game, world, obs.seat, actions, None, codes)
        assert values is not None
        rows.append(values)
    d = actions.index(default)
    out = {}
    for i, action in enumerate(actions):
        mean, se = paired([(row[i], row[d]) for row in rows])
        out[action] = {"mean": round(statistics.fmean(row[i] for row in rows), 3),
                       "vs_rules": round(mean, 3), "se": round(se, 3)}
    return out


def decisions(game_name: str, seed: str, index: int, budget_ms: float) -> Iterator[tuple[CourtPieceState, int]]:
    """The deal's states at its calling and changing decisions, as selfplay's
    ``search-noinfer`` bots play it (the state is handed out before the bot acts)."""
    spec = get_spec(game_name)
    state = _seed_deal(spec, seed, index, spec.normalize_options({}))
    assert isinstance(state, CourtPieceState)
    bots = [make_bot("search-noinfer", seed=f"{seed}/seat{seat}", budget_ms=budget_ms) for seat in range(4)]
    while not state.is_terminal() and not state.tricks and not state.trick:
        seat = state.to_move
        if decision_kind(state) is not None:
            yield state, seat
        state.act(seat, bots[seat].choose(state.observe(seat)))
        if state.phase not in CALLING_PHASES and decision_kind(state) is None:
            return


def positions(args: argparse.Namespace) -> None:
    module = game_module(args.game)
    for index in range(args.start, args.start + args.deals):
        for state, seat in decisions(args.game, args.seed, index, args.budget_ms):
            obs = state.observe(seat)
            actions = candidates(module, obs)
            if len(actions) < 2:
                continue
            bot = make_bot("search-noinfer", seed=f"{args.seed}/seat{seat}", budget_ms=args.budget_ms)
            assert isinstance(bot, SearchBot)
            worlds = module.worlds_for(args.budget_ms, len(actions), inference=False)
            game = replace(search_game(module, obs), weight=None)
            rules = module.heuristic_text(obs)
            chosen = evaluate(game, obs, bot.rng_for(obs), worlds, 1e9, actions)
            line: dict[str, Any] = {"deal": index, "kind": decision_kind(state), "seat": seat,
                                    "hand": obs.hand_texts(), "rules": rules, "search": chosen.choice,
                                    "worlds": worlds, "candidates": len(actions),
                                    "rules_is_candidate": rules in actions}
            if rules not in actions:
                actions.append(rules)
            if chosen.choice != rules or args.all:
                line["at_worlds"] = {e.action: {"mean": round(e.value, 3), "worlds": e.worlds}
                                     for e in chosen.estimates}
                if args.many:
                    line["many"] = advantages(game, obs, random.Random(f"many/{index}/{seat}"), args.many,
                                              actions, rules)
            print(json.dumps(line), flush=True)


def decision_state(game_name: str, seed: str, index: int, kind: str, budget_ms: float) -> CourtPieceState:
    for state, _ in decisions(game_name, seed, index, budget_ms):
        if decision_kind(state) == kind:
            return state.clone()
    raise SystemExit(f"deal {index} has no {kind} decision")


def consistent_world(state: CourtPieceState, seat: int, rng: random.Random) -> CourtPieceState:
    """A world for ``seat``'s observation in which every earlier call of another seat is
    the one the rules make on that world's first five cards (the bots that made them are
    search, whose calls follow the rules in most deals; this keeps e.g. a partner's call
    consistent with his hand); a plain sample when 2,000 tries find none (a call the
    rules would not make)."""
    module = game_module(state.spec.name)
    obs = state.observe(seat)
    texts = [state.action_text(a) for a in state.history]
    for _ in range(2000):
        world = state.spec.sample_world(obs, rng)
        assert isinstance(world, CourtPieceState)
        replay = state.spec.new_deal(world.deal, world.options)
        assert isinstance(replay, CourtPieceState)
        if all(replay_step(replay, module, actor, text, seat) for actor, text in zip(state.actors, texts)):
            return world
    fallback = state.spec.sample_world(obs, rng)
    assert isinstance(fallback, CourtPieceState)
    return fallback


def replay_step(replay: CourtPieceState, module: Any, actor: int, text: str, seat: int) -> bool:
    ok = actor == seat or replay.phase not in CALLING_PHASES or module.heuristic_text(replay.observe(actor)) == text
    replay.act(actor, text)
    return ok


def playout(args: argparse.Namespace) -> None:
    state = decision_state(args.game, args.seed, args.deal, args.kind, args.budget_ms)
    seat = state.to_move
    obs = state.observe(seat)
    module = game_module(args.game)
    firsts = args.actions.split(",") if args.actions else None
    if firsts is None:
        rules = module.heuristic_text(obs)
        bot = make_bot("search-noinfer", seed=f"{args.seed}/seat{seat}", budget_ms=args.budget_ms)
        firsts = [rules, bot.choose(obs)]
    settings = bot_settings(args.bot, args.play_budget_ms, hard_stop=False)
    bots = [make_bot(args.bot, seed=f"{args.seed}/playout/{s}", **settings) for s in range(4)]
    rng = random.Random(f"{args.seed}/playout/{args.deal}/{args.kind}")
    margins: dict[str, list[float]] = {first: [] for first in firsts}
    for n in range(1, args.deals + 1):
        world = consistent_world(state, seat, rng) if args.consistent else state.spec.sample_world(obs, rng)
        for first in firsts:
            margins[first].append(margin_after(world, seat, first, bots))
        if n % 25 == 0 or n == args.deals:
            print(json.dumps(playout_report(args, obs, margins, firsts)), flush=True)


def margin_after(world: Any, seat: int, first: str, bots: list[Any]) -> float:
    """``world`` played to its end by ``bots`` after ``seat`` takes ``first``:
    the points of ``seat``'s team minus the other team's."""
    trial = world.clone()
    trial.act(seat, first)
    while not trial.is_terminal():
        mover = trial.to_move
        trial.act(mover, bots[mover].choose(trial.observe(mover)))
    points = trial.returns()
    return points[seat] - points[(seat + 1) % 4]


def batch(args: argparse.Namespace) -> None:
    """``playout`` for every disagreement of ``--kind`` in a ``positions`` file:
    ``--deals`` worlds each, the rules' action against search's; one line per
    position and a summary over all the pairs."""
    settings = bot_settings(args.bot, args.play_budget_ms, hard_stop=False)
    bots = [make_bot(args.bot, seed=f"{args.seed}/playout/{s}", **settings) for s in range(4)]
    rows = [json.loads(line) for line in open(args.positions)]
    wanted = [r for r in rows if r["kind"] == args.kind and r["rules"] != r["search"]
              and (not args.only or args.only in (r["rules"].split()[0], r["search"].split()[0]))]
    diffs: list[float] = []
    for row in wanted[:args.limit]:
        state = decision_state(args.game, args.seed, row["deal"], args.kind, args.budget_ms)
        seat = state.to_move
        rng = random.Random(f"{args.seed}/batch/{row['deal']}/{args.kind}")
        here: list[tuple[float, float]] = []
        for _ in range(args.deals):
            world = consistent_world(state, seat, rng) if state.history else state.spec.sample_world(
                state.observe(seat), rng)
            here.append((margin_after(world, seat, row["search"], bots), margin_after(world, seat, row["rules"], bots)))
        diffs += [a - b for a, b in here]
        mean, se = paired(here)
        estimate = row.get("many", {}).get(row["search"], {})
        print(json.dumps({"deal": row["deal"], "rules": row["rules"], "search": row["search"], "n": len(here),
                          "search_minus_rules": round(mean, 3), "se": round(se, 3),
                          "rollout_estimate": estimate.get("vs_rules")}), flush=True)
    mean, se = paired([(d, 0.0) for d in diffs])
    print(json.dumps({"summary": args.kind, "bot": args.bot, "positions": min(len(wanted), args.limit),
                      "pairs": len(diffs), "search_minus_rules": round(mean, 4), "se": round(se, 4)}), flush=True)


def playout_report(args: argparse.Namespace, obs: Any, margins: dict[str, list[float]],
                   firsts: list[str]) -> dict[str, Any]:
    base = margins[firsts[0]]
    report: dict[str, Any] = {"deal": args.deal, "kind": args.kind, "hand": obs.hand_texts(), "bot": args.bot,
                              "n": len(base), "means": {f: round(statistics.fmean(m), 3) for f, m in margins.items()}}
    report["vs_first"] = {f: [round(x, 3) for x in paired(list(zip(margins[f], base)))] for f in firsts[1:]}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    pos = sub.add_parser("positions")
    pos.add_argument("game")
    pos.add_argument("--seed", default="behave-s7")
    pos.add_argument("--start", type=int, default=0)
    pos.add_argument("--deals", type=int, default=300)
    pos.add_argument("--budget-ms", type=float, default=50.0)
    pos.add_argument("--many", type=int, default=0, help="worlds for the noise-free estimates (0: none)")
    pos.add_argument("--all", action="store_true", help="estimates where they agree too")
    play = sub.add_parser("playout")
    play.add_argument("game")
    play.add_argument("--seed", default="behave-s7")
    play.add_argument("--deal", type=int, required=True)
    play.add_argument("--kind", choices=["call", "partner call", "change"], default="call")
    play.add_argument("--budget-ms", type=float, default=50.0, help="the deciding search bot's budget")
    play.add_argument("--actions", default="", help="the actions compared, comma-separated (default: rules, search)")
    play.add_argument("--bot", default="search-noinfer", help="who plays every later decision")
    play.add_argument("--play-budget-ms", type=float, default=50.0)
    play.add_argument("--deals", type=int, default=200)
    play.add_argument("--consistent", action="store_true",
                      help="earlier calls consistent with the rules on the world's cards")
    many = sub.add_parser("batch")
    many.add_argument("game")
    many.add_argument("positions", help="a positions file (JSON lines)")
    many.add_argument("--seed", default="behave-s7")
    many.add_argument("--kind", choices=["call", "partner call", "change"], default="call")
    many.add_argument("--only", default="", help="only disagreements where one side plays this verb (pass, change)")
    many.add_argument("--budget-ms", type=float, default=50.0)
    many.add_argument("--bot", default="search-noinfer")
    many.add_argument("--play-budget-ms", type=float, default=50.0)
    many.add_argument("--deals", type=int, default=20)
    many.add_argument("--limit", type=int, default=1000)
    args = parser.parse_args()
    {"positions": positions, "playout": playout, "batch": batch}[args.command](args)


if __name__ == "__main__":
    main()
