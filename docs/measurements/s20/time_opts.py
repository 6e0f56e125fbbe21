"""CPU ms per real decision of BOT (default: search at 250 ms, the hard level) in all four seats
of DEALS deals, under RULES_VERSION's options ("-" or none: the current rules), by kind of action:
python docs/measurements/s20/time_opts.py GAME DEALS [RULES_VERSION [BOT BUDGET_MS]]"""
import collections, json, sys, time
from tricktable.arena import deal_state, percentiles, table_options
from tricktable.bots import make_bot
from tricktable.games import entry

game, deals = sys.argv[1], int(sys.argv[2])
version = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
bot, budget = (sys.argv[4], float(sys.argv[5])) if len(sys.argv) > 5 else ("search", 250.0)
spec = entry(game).spec
options = table_options(game, rules_version=version)
bots = [make_bot(bot, seed=f"timing/{seat}", budget_ms=budget) for seat in range(4)]
by_kind = collections.defaultdict(list)
for index in range(deals):
    state = deal_state(spec, "timing", index, options)
    while not state.is_terminal():
        seat = state.to_move
        obs = state.observe(seat)
        start = time.process_time()
        text = bots[seat].choose(obs)
        if len(obs.legal) > 1:
            by_kind[text.split()[0]].append((time.process_time() - start) * 1000)
            by_kind["all"].append(by_kind[text.split()[0]][-1])
        state.act(seat, text)
print(json.dumps({"game": game, "version": version, "bot": bot, "budget_ms": budget, "tricktable": __import__("tricktable").__file__,
                  "cpu_ms": {k: {"n": len(v), **percentiles(v)} for k, v in by_kind.items()}}))
