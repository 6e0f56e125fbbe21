"""The ``tricktable`` command: what a player or an operator uses (play, replay, verify,
schema, serve, check-store).  The measuring tools are ``tricktable-lab`` (``lab/cli.py``)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from tricktable.core.match import MatchState
from tricktable.bots import BOTS, make_bot
from tricktable.catalog import GAMES, get_spec, replay
from tricktable.core.protocol import GameSpec, GameState
from tricktable.core.rng import derive_seed
from tricktable.core.schema import json_schema
from tricktable.errors import GameError

SEAT_NAMES = ("You", "West", "Partner", "East")


def _seed_deal(spec: GameSpec, seed: str, index: int, options: dict[str, Any]) -> GameState:
    deal = spec.deal_from_seed(derive_seed(seed, "deal", index), index % 4, options)
    return spec.new_deal(deal, options)


# -- schema ------------------------------------------------------------------
def observation_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of a seat's ``view`` in ``game`` (see ``core/schema.py``)."""
    spec = get_spec(game)
    options = spec.normalize_options({})
    observation = type(_seed_deal(spec, "schema", 0, options).observe(0))
    return json_schema(observation)


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
    assert isinstance(match, MatchState)
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


# -- check-store -------------------------------------------------------------------
def check_store_command(database: str | None) -> int:
    """Replay every stored record (``store/check.py``); print what failed and a summary."""
    from tricktable.store import Store, default_database_url
    from tricktable.store.check import check_store

    result = check_store(Store(database or default_database_url()))
    for game_id, problem in result.failures:
        print(f"{game_id}: {problem}")
    print(f"{result.games} games, {result.over} of them over, {result.actions} actions: "
          f"{len(result.failures)} failed to replay as stored")
    return 0 if result.ok else 1


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

    c = commands.add_parser("check-store", help="replay every stored game's record; exit 1 if one fails")
    c.add_argument("--database", help="SQLAlchemy URL (default: $TRICKTABLE_DATABASE_URL or SQLite in ./data)")

    j = commands.add_parser("schema", help="the JSON Schema of what the page receives for a game's seat")
    j.add_argument("game", choices=sorted(GAMES))
    return parser


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    return int(text) if text.lstrip("-").isdigit() else text


def print_result(result: dict[str, Any], as_json: bool) -> None:
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
        elif args.command == "replay":
            print_result(replay_file(args.file), args.json)
        elif args.command == "verify":
            from tricktable.server.trust.fairness import verify_file

            ok, report = verify_file(args.file)
            print(report)
            return 0 if ok else 1
        elif args.command == "serve":
            from tricktable.server.process.serve import serve

            return serve(args.host, args.port, args.database, workers=args.workers,
                         think_processes=args.think_processes, steer=args.steer)
        elif args.command == "check-store":
            return check_store_command(args.database)
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
