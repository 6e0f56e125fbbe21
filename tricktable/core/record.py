"""Game records: everything needed to set up a game again and replay it exactly.

A record is JSON::

    {"format": 1, "game": "euchre", "rules_version": "euchre-1",
     "options": {...}, "kind": "deal" | "match",
     "deal": {"dealer": 0, "seed": "…"}            # kind "deal", seeded
          or {"dealer": 0, "hands": ["9C …", …], "rest": "…"},   # explicit
     "seed": "…", "daily": false,                  # kind "match"
     "actions": ["pass", "order up", "with partner", "discard 9C", "play JH", …]}

An action is written in its game's notation.  One taken by a seat that was not
to move (a Doppelkopf announcement out of turn) carries the seat: ``"2: re"``;
every other entry is the seat to move's (or the referee's), so records made
before out-of-turn actions existed replay unchanged.

An explicit deal lets any position (a bug report, a puzzle, another program's
game) be set up and replayed.  ``replay`` rejects a corrupted record with the
number of the offending action and the reason.

The protocol knows no game by name: reading a record takes a spec lookup (a game's
name to its ``GameSpec``; ``tricktable.catalog`` passes the catalog's).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Mapping

from tricktable.errors import GameError, IllegalAction, NotationError, RecordError
from tricktable.core.match import MatchState
from tricktable.core.protocol import NUM_SEATS, Deal, GameSpec, GameState

RECORD_FORMAT = 1

SpecLookup = Callable[[object], GameSpec]
"""A game's name to its spec; raises ``GameError`` for a name it does not know."""


@dataclass
class GameRecord:
    game: str
    rules_version: str
    options: dict[str, Any]
    kind: str
    deal: Deal | None = None
    seed: str | None = None
    daily: bool = False
    actions: list[str] = field(default_factory=list)
    spec: GameSpec | None = field(default=None, compare=False, repr=False)
    """The game's spec (set by ``parse_record`` and ``record_of``): what ``start`` sets up."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "kind": self.kind,
        }
        if self.kind == "deal":
            assert self.deal is not None
            data["deal"] = self.deal.to_json()
        else:
            data["seed"] = self.seed
            data["daily"] = self.daily
        data["actions"] = list(self.actions)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def start(self) -> GameState:
        """The game's initial state (before any action)."""
        spec = self.spec
        if spec is None:
            raise RecordError("a record needs its game's spec to start (parse_record gives it one)")
        options = spec.normalize_options(self.options)
        if self.kind == "deal":
            assert self.deal is not None
            return spec.new_deal(self.deal, options)
        assert self.seed is not None
        return spec.new_match(self.seed, options, daily=self.daily)


def record_of(state: GameState) -> GameRecord:
    """The record of a state played from its start."""
    spec = state.spec
    scratch = _initial_twin(state)
    out_of_turn = state.out_of_turn_history()
    actions = []
    for index, action in enumerate(state.history):
        seat = out_of_turn.get(index)
        if seat is None:
            actions.append(scratch.action_text(action))
            scratch.apply_any(action)
        else:
            actions.append(f"{seat}: {scratch.action_text(action)}")
            scratch.apply_for(seat, action)
    options = dict(state.options)
    if isinstance(state, MatchState):
        return GameRecord(spec.name, spec.rules_version, options, "match", seed=state.seed, daily=state.daily,
                          actions=actions, spec=spec)
    deal: Deal = getattr(state, "deal")  # every deal state keeps its Deal (not part of the GameState protocol)
    return GameRecord(spec.name, spec.rules_version, options, "deal", deal=deal, actions=actions, spec=spec)


def _initial_twin(state: GameState) -> GameState:
    if isinstance(state, MatchState):
        return state.spec.new_match(state.seed, state.options, daily=state.daily)
    deal: Deal = getattr(state, "deal")  # every deal state keeps its Deal (not part of the GameState protocol)
    return state.spec.new_deal(deal, state.options)


def parse_record(data: Any, spec_of: SpecLookup) -> GameRecord:
    """Check a record's header and build a ``GameRecord`` (actions unchecked);
    ``spec_of`` finds the spec of the record's game."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(f"unknown record format {data.get('format')!r}")
    try:
        spec = spec_of(data.get("game"))
    except GameError as error:
        raise RecordError(str(error)) from None
    version = data.get("rules_version")
    if version != spec.rules_version and version not in spec.legacy_rules:
        raise RecordError(f"record was made under rules {version!r}, this is {spec.rules_version!r}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("options must be an object")
    try:
        options = spec.normalize_options({**options, **spec.legacy_rules.get(str(version), {})})
    except GameError as error:
        raise RecordError(str(error)) from None
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions must be a list of strings")
    kind = data.get("kind")
    if kind == "deal":
        deal_data = data.get("deal")
        if not isinstance(deal_data, Mapping):
            raise RecordError("a deal record needs a 'deal' object")
        deal = spec.deal_from_json(deal_data)
        if deal.seed is not None:  # dealt under the record's options (one may change the deck: without nines)
            deal = spec.deal_from_seed(deal.seed, deal.dealer, options)
        return GameRecord(spec.name, str(version), options, "deal", deal=deal, actions=list(actions), spec=spec)
    if kind == "match":
        seed, daily = data.get("seed"), data.get("daily", False)
        if not isinstance(seed, str) or not seed:
            raise RecordError("a match record needs a non-empty 'seed' string")
        if not isinstance(daily, bool):
            raise RecordError("'daily' must be true or false")
        return GameRecord(spec.name, str(version), options, "match", seed=seed, daily=daily, actions=list(actions),
                          spec=spec)
    raise RecordError(f"kind must be 'deal' or 'match', not {kind!r}")


def replay(record: GameRecord | Mapping[str, Any] | str, spec_of: SpecLookup) -> GameState:
    """Replay a record to its final state; ``RecordError`` names the bad action.
    ``spec_of`` finds the spec of the record's game (see ``parse_record``)."""
    state = None
    for state, _number, _seat in replay_steps(record, spec_of):
        pass
    assert state is not None
    return state


def replay_deals(record: GameRecord | Mapping[str, Any] | str, spec_of: SpecLookup) -> tuple[GameState, list[GameState]]:
    """``replay``, and every deal of a match record as it finished, in order
    (the match itself keeps only the last: its statistics read them all)."""
    state = None
    deals: list[GameState] = []
    for state, _number, _seat in replay_steps(record, spec_of):
        if isinstance(state, MatchState) and state.previous_deal is not None \
                and (not deals or deals[-1] is not state.previous_deal):
            deals.append(state.previous_deal)  # a deal just ended: the match moved on to the next
    assert state is not None
    return state, deals


def replay_steps(record: GameRecord | Mapping[str, Any] | str,
                 spec_of: SpecLookup) -> Iterator[tuple[GameState, int, int | None]]:
    """Replay a record one entry at a time: the start (number 0, seat None),
    then the state after each action with the action's number (1-based) and
    the seat that took it (-1: the referee).  The same state object each time,
    moved on (a caller that keeps one clones it); ``RecordError`` names the
    bad action."""
    if not isinstance(record, GameRecord):
        record = parse_record(record, spec_of)
    elif record.spec is None:
        record = replace(record, spec=spec_of(record.game))
    state = record.start()
    yield state, 0, None
    for number, text in enumerate(record.actions, start=1):
        try:
            seat = _replay_entry(state, text)
        except GameError as error:
            raise RecordError(f"{text!r}: {error}", number) from None
        yield state, number, seat


_OUT_OF_TURN = re.compile(r"([0-9]{1,9}):\s*(.*)", re.DOTALL)  # (digits enough for a seat; int() refuses thousands)


def entry_action(entry: str) -> str:
    """A record entry's action text, without the seat an out-of-turn entry carries."""
    found = _OUT_OF_TURN.fullmatch(entry)
    return found.group(2) if found else entry


def _replay_entry(state: GameState, text: str) -> int:
    """Apply one record entry: ``"<seat>: <text>"`` for a seat that is not to
    move, plain text for the seat to move or the referee; the seat that acted."""
    match = _OUT_OF_TURN.fullmatch(text)
    if match is None:
        action = state.parse_action(text)
        seat = -1 if action in state.referee_actions() else state.to_move
        state.apply_any(action)
        return seat
    seat = int(match.group(1))
    if not 0 <= seat < NUM_SEATS:
        raise NotationError(f"there is no seat {seat}")
    if seat == state.to_move:
        raise IllegalAction(f"seat {seat} is to move: its action is written without the seat")
    state.apply_for(seat, state.parse_action(match.group(2)))
    return seat
