#!/usr/bin/env python3
"""The games' views: a digest to show two checkouts build the same bytes, and
their cost per step.

``digest`` plays seeded random matches of every registered game (default
options, each preset, each legacy rules version, a daily match, new cards for
any seat) where any seat acts whenever it may, in turn or out of turn, and the
referee's timeouts come now and then; at every step it hashes (SHA-256) the
person's view as the server builds it (``responses.person_view``), every seat's
observation JSON and its ``repr`` (the typed fields the bots get), and now and
then the same of a clone that takes another action (a clone must not share
anything its original changes).  Run it with ``PYTHONPATH`` at each checkout
and compare the digests: equal digests mean byte-identical views.

``bench`` times, per step of such a walk, what the server computes around one
step: the state's clone (each request works on a copy of the cached state),
the action, the person's view and the observation of the computer player to
move next.  It prints the mean µs per step of each game (CPU time, the best of
``--repeat`` passes) as JSON; alternate two checkouts (A B A B) and compare.

    PYTHONPATH=. .venv/bin/python scripts/views.py digest
    PYTHONPATH=/work/wt/views-base .venv/bin/python scripts/views.py bench
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from typing import Any, Iterator

import orjson

from tricktable.core.protocol import GameSpec, GameState
try:
    from tricktable.catalog import ENTRIES
except ImportError:  # a checkout from before the catalog moved out of the games package
    from tricktable.games import ENTRIES  # type: ignore[attr-defined,no-redef]
from tricktable.server.play.view import person_view

CLONE_RATE = 0.05
"""The share of steps at which a clone takes an action of its own as well."""
TIMEOUT_RATE = 0.3
"""How often the referee's timeout is taken where one is possible (else a player acts)."""


def option_sets(spec: GameSpec) -> list[tuple[str, dict[str, Any], bool]]:
    """(name, options, daily) of every case played: the defaults, each preset,
    each legacy rules version, a daily match, and new cards for any seat."""
    cases: list[tuple[str, dict[str, Any], bool]] = [("default", spec.normalize_options({}), False)]
    cases += [(f"preset {name}", spec.normalize_options({"preset": name}), False) for name in spec.presets]
    cases += [(f"legacy {version}", spec.normalize_options(dict(options)), False)
              for version, options in spec.legacy_rules.items()]
    cases.append(("daily", spec.normalize_options({}), True))
    if any(option.name == "new_cards" for option in spec.option_specs):
        cases.append(("new cards any seat", spec.normalize_options({"new_cards": "any seat"}), False))
    return cases


def random_step(state: GameState, rng: random.Random) -> None:
    """One action: the referee's timeout now and then where it may act, else a
    random action of any seat that may act (in turn or out of turn)."""
    if state.referee_actions() and rng.random() < TIMEOUT_RATE:
        state.apply_referee(state.referee_actions()[0])
        return
    choices = [(seat, action) for seat in range(4) for action in state.legal_actions_for(seat)]
    if not choices:  # only the referee may act
        state.apply_referee(state.referee_actions()[0])
        return
    seat, action = rng.choice(choices)
    state.apply_for(seat, action)


def walk(spec: GameSpec, options: dict[str, Any], daily: bool, seed: str,
         steps: int) -> Iterator[tuple[GameState, random.Random]]:
    """The states of random matches after each step (a new match when one
    ends), ``steps`` in all; each yielded state is the live one."""
    rng = random.Random(seed)
    state = spec.new_match(f"{seed}/0", options, daily=daily)
    matches = 0
    yield state, rng
    for _ in range(steps):
        if state.is_terminal():
            matches += 1
            state = spec.new_match(f"{seed}/{matches}", options, daily=daily)
        else:
            random_step(state, rng)
        yield state, rng


def fingerprint(state: GameState) -> bytes:
    """The person's view and every seat's observation, as bytes."""
    parts = [orjson.dumps(person_view(state), option=orjson.OPT_NON_STR_KEYS)]
    for seat in range(4):
        observed = state.observe(seat)
        parts.append(orjson.dumps(observed.to_json(), option=orjson.OPT_NON_STR_KEYS))
        parts.append(repr(observed).encode())
    return b"\n".join(parts)


def digest(steps: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    total = hashlib.sha256()
    for entry in ENTRIES:
        spec = entry.spec
        for name, options, daily in option_sets(spec):
            case = hashlib.sha256()
            count = 0
            for state, rng in walk(spec, options, daily, f"views/{entry.name}/{name}", steps):
                case.update(fingerprint(state))
                count += 1
                if not state.is_terminal() and rng.random() < CLONE_RATE:
                    twin = state.clone()
                    random_step(twin, rng)
                    case.update(b"clone\n" + fingerprint(twin))
            out[f"{entry.name} / {name}"] = {"steps": count, "sha256": case.hexdigest()}
            total.update(case.digest())
    out["all"] = total.hexdigest()
    return out


def bench(steps: int, repeat: int) -> dict[str, Any]:
    """Mean µs per step of each game's default options (see the module docstring)."""
    out: dict[str, Any] = {}
    for entry in ENTRIES:
        spec = entry.spec
        options = spec.normalize_options({})
        best = None
        for _ in range(repeat):
            rng = random.Random(f"bench/{entry.name}")
            cached = spec.new_match(f"bench/{entry.name}", options)
            spent, count = 0.0, 0
            while count < steps:
                if cached.is_terminal():
                    cached = spec.new_match(f"bench/{entry.name}/{count}", options)
                # the choice is made outside the clock, on its own copy
                chooser = cached.clone()
                random_step(chooser, rng)
                action_at = len(chooser.history)
                started = time.process_time()
                state = cached.clone()
                replay_last(state, chooser, action_at)
                person_view(state)
                seat = state.to_move
                if seat > 0:
                    state.observe(seat)
                spent += time.process_time() - started
                cached, count = state, count + 1
            best = spent if best is None else min(best, spent)
        assert best is not None
        out[entry.name] = round(best / steps * 1e6, 1)
    out["mean"] = round(sum(out.values()) / len(out), 1)
    return out


def replay_last(state: GameState, chooser: GameState, length: int) -> None:
    """Apply to ``state`` the action ``chooser`` took last (its history is one
    longer), by the same kind of call (referee, in turn, out of turn)."""
    action = chooser.history[length - 1]
    out_of_turn = chooser.out_of_turn_history().get(length - 1)
    if out_of_turn is not None:
        state.apply_for(out_of_turn, action)
    elif action in state.referee_actions() and action not in state.legal_actions():
        state.apply_referee(action)
    else:
        state.apply(action)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("digest", "bench"))
    parser.add_argument("--steps", type=int, default=None,
                        help="steps per case (digest, default 600) or per game (bench, default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="bench: passes per game, the best counts")
    args = parser.parse_args(argv)
    if args.what == "digest":
        result = digest(args.steps or 600)
    else:
        result = bench(args.steps or 2000, args.repeat)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
