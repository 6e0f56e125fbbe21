"""One side of ``tricktable-lab bench GAME --search``: times the search bot of whatever
``tricktable`` is first on ``sys.path`` (this checkout, or a frozen baseline
commit unpacked by ``lab.baseline``) on decisions read from stdin.

It is run as a script in its own process, so it imports only what every commit
since the protocol rewrite has: the registry of games, ``deal_state`` of the arena,
``make_bot`` and ``bots.search``; the registry and the arena are looked for where the
tree has them (``tricktable.catalog`` and ``lab.arena`` since the lab has a package of
its own, ``tricktable.games`` and ``tricktable.arena`` before).  A decision is given in stable notation: the
deal (seed and index) and the public action prefix as ``[seat, text]`` pairs.

Protocol, one JSON object per line: in ``{"game", "seed", "index", "prefix",
"budget_ms"}`` (and the ``bot``, default ``search``, and its ``bot_seed``; a prefix entry ``["referee", action]`` is
a referee's action), out ``{"cpu_ms", "wall_ms", "rollouts", "action", "kernels"}`` (``kernels``: how each
compiled kernel loaded, ``speedups.status()``).

A rollout is one sampled world finished for one candidate action (by policy or
solver).  A search that counts them itself says so in ``search.ROLLOUT_COUNTER``;
for older code each call of ``search.rollout`` is one.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Callable


def _rollout_counter() -> Callable[[], int]:
    from tricktable.bots import search

    counter = getattr(search, "ROLLOUT_COUNTER", None)
    if counter is not None:
        return lambda: int(counter.count)
    calls = [0]
    original = search.rollout

    def counted(*args: Any, **kwargs: Any) -> float:
        calls[0] += 1
        return float(original(*args, **kwargs))

    search.rollout = counted  # _try_all looks it up by name at each call
    return lambda: calls[0]


def _kernels() -> dict[str, str]:
    """How the compiled kernels loaded (compiled, or pure Python and why); none before they existed."""
    try:
        from tricktable import speedups
    except ImportError:
        return {}
    return speedups.status()


def _tree_names() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The tree's ``entry`` (a game's registry entry) and ``deal_state``."""
    try:
        from tricktable.catalog import entry
    except ImportError:  # a tree from before the catalog
        from tricktable.games import entry  # type: ignore[attr-defined,no-redef]
    try:
        from tricktable.arena import deal_state  # type: ignore[import-not-found]
    except ImportError:  # a tree with the lab apart
        from lab.arena import deal_state
    return entry, deal_state


def _unclocked_bot(make_bot: Callable[..., Any], name: str, seed: str, budget_ms: float) -> Any:
    """Bot ``name`` at ``budget_ms`` that samples its budget's worlds however long
    they take (only search bots have a clock).  Trees before ``clock=False``
    switched the clock off with a stop time in ms (``hard_ms``)."""
    if not name.startswith("search"):
        return make_bot(name, seed=seed, budget_ms=budget_ms)
    try:
        return make_bot(name, seed=seed, budget_ms=budget_ms, clock=False)
    except TypeError:
        return make_bot(name, seed=seed, budget_ms=budget_ms, hard_ms=1e9)


def main() -> None:
    from tricktable.bots import make_bot

    entry, deal_state = _tree_names()

    rollouts = _rollout_counter()
    for line in sys.stdin:
        job = json.loads(line)
        game_entry = entry(job["game"])
        spec = game_entry.spec
        options = spec.normalize_options(game_entry.bot_options)
        state = deal_state(spec, job["seed"], job["index"], options)
        for seat, text in job["prefix"]:
            if seat == "referee":
                state.apply_referee(int(text))
            else:
                state.act(seat, text)
        obs = state.observe(state.to_move)
        name = job.get("bot", "search")
        bot = _unclocked_bot(make_bot, name, job.get("bot_seed", "bench"), job["budget_ms"])
        before, start, wall = rollouts(), time.process_time(), time.perf_counter()
        action = bot.choose(obs)
        cpu_ms, wall_ms = (time.process_time() - start) * 1000, (time.perf_counter() - wall) * 1000
        print(json.dumps({"cpu_ms": cpu_ms, "wall_ms": wall_ms, "rollouts": rollouts() - before, "action": action,
                          "kernels": _kernels()}), flush=True)


if __name__ == "__main__":
    main()
