"""Decision times of a bot, in wall-clock and in CPU time.

On a shared machine the wall-clock time of a decision depends on everybody
else's load; the CPU time the decision itself used does not (much), and is what
the decision would take on an otherwise idle core.  ``docs/strength.md`` reports
both, with the load average, and the CPU time by kind of action (the first
word of the chosen action: a card play, a bid, an announcement...).

    tricktable-lab timing euchre --bot search --deals 20 [--no-hard-stop] [--budget-ms 50]
        [--rules-version euchre-1]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from typing import Any, Sequence

from lab.arena import bot_settings, deal_state, percentiles, table_options
from tricktable.bots import make_bot
from tricktable.catalog import entry


def measure(game: str, bot: str, deals: int, seed: str = "timing", hard_stop: bool = True,
            budget_ms: float | None = None, rules_version: str | None = None) -> dict[str, Any]:
    """The bot plays every seat of ``deals`` deals; only real decisions (two or
    more legal actions) are timed.  Without ``hard_stop`` a search uses all its
    worlds, so its CPU time is the full budget's even on a loaded machine.
    ``budget_ms``: the bot's budget (default: its own, the hard level's).
    ``rules_version``: play an older version's rules, as ``arena --rules-version``
    does against a baseline commit (default: today's)."""
    spec = entry(game).spec
    options = table_options(game, rules_version=rules_version)
    settings = bot_settings(bot, budget_ms, hard_stop)
    bots = [make_bot(bot, seed=f"{seed}/{seat}", **settings) for seat in range(4)]
    wall: list[float] = []
    cpu: list[float] = []
    cpu_by_kind: defaultdict[str, list[float]] = defaultdict(list)
    for index in range(deals):
        state = deal_state(spec, seed, index, options)
        while not state.is_terminal():
            seat = state.to_move
            obs = state.observe(seat)
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            text = bots[seat].choose(obs)
            if len(obs.legal) > 1:
                wall.append((time.perf_counter() - start_wall) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                cpu_by_kind[text.split()[0]].append(cpu[-1])
            state.act(seat, text)
    return {"game": game, "bot": bot, "budget_ms": budget_ms, "rules_version": rules_version or spec.rules_version,
            "deals": deals, "decisions": len(wall), "wall_ms": percentiles(wall), "cpu_ms": percentiles(cpu),
            "cpu_ms_by_kind": {kind: {"n": len(times), **percentiles(times)} for kind, times in sorted(cpu_by_kind.items())},
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def add_timing_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tricktable-lab timing`` and of ``python -m lab.timing``."""
    parser.add_argument("game")
    parser.add_argument("--bot", default="search")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", default="timing")
    parser.add_argument("--no-hard-stop", action="store_true", help="search uses all its worlds")
    parser.add_argument("--budget-ms", type=float, help="the bot's budget (default: its own, the hard level's)")
    parser.add_argument("--rules-version", help="an older rules version's options, as in arena (default: today's)")


def timing_of(args: argparse.Namespace) -> dict[str, Any]:
    return measure(args.game, args.bot, args.deals, args.seed, not args.no_hard_stop, args.budget_ms,
                   args.rules_version)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m lab.timing", description=__doc__)
    add_timing_arguments(parser)
    args = parser.parse_args(argv)
    try:
        result = timing_of(args)
    except ValueError as error:
        parser.error(str(error))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
