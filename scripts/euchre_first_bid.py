"""Which first bid scores better with one Euchre hand, by direct simulation.

The bidding seat holds a fixed hand under a fixed up-card; the other 18 cards are dealt
at random.  Every deal is played once per first action (e.g. ``pass`` and ``order up``)
from the same cards, every later decision of every seat (the bidder's too) by the same
bot, and the result is the bidder's team points minus the other team's.  Prints the
running means and the paired difference of each action against the last one, with its
standard error (docs/strength.md, session 7)::

    python scripts/euchre_first_bid.py --hand "JS JC AD 9H 10D" --up 9S --seat 1 \\
        --bot search --budget-ms 250 --deals 1000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from tricktable.arena import bot_settings
from tricktable.bots import Bot, make_bot
from tricktable.cards import card_text
from tricktable.games.euchre import SPEC
from tricktable.games.euchre.rules import DECK


def random_deal(rng: random.Random, free: list[str], seat: int, hand: list[str], up: str,
                dealer: int) -> dict[str, Any]:
    """``seat`` holds ``hand``, ``up`` is turned, the other cards (``free``, shuffled in
    place) are dealt in packets of five and the rest."""
    rng.shuffle(free)
    packets = iter([free[i:i + 5] for i in range(0, 15, 5)])
    hands = [" ".join(hand if s == seat else next(packets)) for s in range(4)]
    return {"dealer": dealer, "hands": hands, "rest": " ".join([up, *free[15:]])}


def play(deal: dict[str, Any], seat: int, first: str, bots: list[Bot], times: list[float]) -> int:
    """The deal played with ``seat``'s first action forced: ``seat``'s team margin."""
    options = SPEC.normalize_options({})
    state = SPEC.new_deal(SPEC.deal_from_json(deal), options)
    if state.to_move != seat:
        raise SystemExit(f"seat {seat} does not bid first under dealer {deal['dealer']}")
    state.act(seat, first)
    while not state.is_terminal():
        mover = state.to_move
        start = time.process_time()
        state.act(mover, bots[mover].choose(state.observe(mover)))
        times.append((time.process_time() - start) * 1000)
    points = state.returns()
    return points[seat] - points[(seat + 1) % 4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hand", required=True)
    parser.add_argument("--up", required=True)
    parser.add_argument("--seat", type=int, default=1, help="the bidder (the first to bid: left of the dealer)")
    parser.add_argument("--actions", default="pass,order up", help="the first actions compared, comma-separated")
    parser.add_argument("--bot", default="search")
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="first-bid")
    args = parser.parse_args()
    hand, firsts = args.hand.split(), args.actions.split(",")
    settings = bot_settings(args.bot, args.budget_ms, hard_stop=False)
    bots = [make_bot(args.bot, seed=f"{args.seed}/{s}", **settings) for s in range(4)]
    rng = random.Random(args.seed)
    margins: dict[str, list[int]] = {first: [] for first in firsts}
    times: list[float] = []
    free = [card_text(c) for c in DECK if card_text(c) not in hand and card_text(c) != args.up]
    for index in range(1, args.deals + 1):
        deal = random_deal(rng, free, args.seat, hand, args.up, (args.seat + 3) % 4)
        for first in firsts:
            margins[first].append(play(deal, args.seat, first, bots, times))
        if index % 50 == 0 or index == args.deals:
            print(json.dumps(report(margins, firsts, times)), flush=True)


def report(margins: dict[str, list[int]], firsts: list[str], times: list[float]) -> dict[str, Any]:
    line: dict[str, Any] = {"deals": len(margins[firsts[0]])}
    line.update({first: round(statistics.fmean(margins[first]), 4) for first in firsts})
    base = margins[firsts[-1]]
    for first in firsts[:-1]:
        diffs = [a - b for a, b in zip(margins[first], base)]
        line[f"{first} - {firsts[-1]}"] = round(statistics.fmean(diffs), 4)
        line[f"stderr ({first})"] = round(statistics.stdev(diffs) / math.sqrt(len(diffs)), 4) if len(diffs) > 1 else 0
    line["cpu_ms_p50"] = round(statistics.median(times), 1) if times else 0.0
    return line


if __name__ == "__main__":
    main()
