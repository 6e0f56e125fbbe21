"""A game told again action by action with every hand face up: what the
replay viewer steps through.

It is built from the record by replaying it with the game's own state and
asking every seat's view after each action (``state.view(seat)``), so the
server knows no game: the part of the views that all four seats see alike is
the table's public part, the rest (the hand first of all) is each seat's own.
A frame is the table after one action; where an action ends a deal in the
middle of a match, the finished deal gets its frame (each seat's
``previous_deal``, with the match's score sheet) and the next deal a start
frame of its own (``action`` null), so the viewer shows both the sheet and
the new hands.

Frames are sent as changes (``diff``): a match of eight Doppelkopf deals is
some 460 frames, whose whole views would be megabytes; as changes it is tens
of kilobytes before gzip (docs/decisions/replay-frames.md has the figures).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Mapping

import orjson

from tricktable.catalog import get_spec
from tricktable.core.protocol import NUM_SEATS, GameState
from tricktable.core.record import GameRecord, entry_action, parse_record, replay_steps
from tricktable.server.play.view import PREVIOUS_DEAL

LEFT_OUT = frozenset({"legal", "seat", "actions"})
"""View fields a frame leaves out: what a seat may do (the viewer acts for
nobody), whose view it is, and the action list (each frame carries its own
action, with its true text)."""
Ops = list[list[Any]]


def diff(old: Mapping[str, Any], new: Mapping[str, Any], path: str = "") -> Ops:
    """The changes from ``old`` to ``new`` (JSON objects): ``["=", path, value]``
    sets, ``["+", path, items]`` appends to a list that grew at its end,
    ``["-", path]`` removes; a path is the keys joined by ``/`` (view keys
    have none).  The page applies them in order (``web/js/replay.js``)."""
    ops: Ops = [["-", path + key] for key in old if key not in new]
    for key, value in new.items():
        where, before = path + key, old.get(key, _MISSING)
        if before == value:
            continue
        if isinstance(value, dict) and isinstance(before, dict):
            ops += diff(before, value, where + "/")
        elif isinstance(value, list) and isinstance(before, list) and len(value) > len(before) \
                and value[:len(before)] == before:
            ops.append(["+", where, value[len(before):]])
        else:
            ops.append(["=", where, value])
    return ops


_MISSING = object()


def apply_ops(target: dict[str, Any], ops: Ops) -> dict[str, Any]:
    """``ops`` applied to ``target`` in place (the page's ``applyOps``, for tests
    and for telling a frame whole)."""
    for op in ops:
        *parents, last = op[1].split("/")
        node = target
        for key in parents:
            node = node.setdefault(key, {})
        if op[0] == "-":
            node.pop(last, None)
        elif op[0] == "+":
            node[last] = [*node[last], *op[2]]
        else:
            node[last] = op[2]
    return target


def split_views(views: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The part every seat sees alike, and each seat's own rest."""
    return _split([{key: value for key, value in view.items() if key not in LEFT_OUT} for view in views])


def _split(shown: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``split_views`` on objects: a field all seats see alike is public; one
    that is an object in every view is split in turn (the match part: only
    each seat's own daily score differs); the rest is each seat's own."""
    public: dict[str, Any] = {}
    own: list[dict[str, Any]] = [{} for _ in shown]
    for key in dict.fromkeys(key for seat in shown for key in seat):
        values = [seat.get(key, _MISSING) for seat in shown]
        if all(value == values[0] for value in values[1:]):
            public[key] = values[0]
        elif all(isinstance(value, dict) for value in values):
            public[key], parts = _split(values)
            for mine, part in zip(own, parts):
                if part:
                    mine[key] = part
        else:
            for mine, value in zip(own, values):
                if value is not _MISSING:
                    mine[key] = value
    return public, own


def _without_previous_deal(view: dict[str, Any]) -> dict[str, Any]:
    match = view.get("match")
    if not isinstance(match, dict):
        return view
    return {**view, "match": {key: value for key, value in match.items() if key != PREVIOUS_DEAL}}


def _finished_deal(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view of the deal that has just ended, with the match as it is
    now (its score sheet is the match's last result)."""
    return {**view["match"][PREVIOUS_DEAL], "match": _without_previous_deal(view)["match"]}


def _results(view: dict[str, Any]) -> int:
    match = view.get("match")
    return len(match.get("results", [])) if isinstance(match, dict) else 0


class _Frames:
    """Frames as changes from the one before."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.public: dict[str, Any] = {}
        self.own: list[dict[str, Any]] = [{} for _ in range(NUM_SEATS)]

    def add(self, views: list[dict[str, Any]], at: int, deal: int, **about: Any) -> None:
        public, own = split_views(views)
        frame: dict[str, Any] = {"at": at, "deal": deal, **{k: v for k, v in about.items() if v is not None}}
        public_ops = diff(self.public, public)
        own_ops = {str(seat): ops for seat in range(NUM_SEATS) if (ops := diff(self.own[seat], own[seat]))}
        if public_ops:
            frame["pub"] = public_ops
        if own_ops:
            frame["own"] = own_ops
        self.public, self.own = public, own
        self.frames.append(frame)


def walkthrough(record: GameRecord | Mapping[str, Any] | str) -> dict[str, Any]:
    """Every frame of a record's game (``RecordError`` for a record that does
    not replay): ``frames`` (each: ``at``, the actions applied, as play-on's
    ``at`` counts them; ``deal``, 0-based; ``action``, the record index of its
    action, ``seat`` (-1: the referee) and ``text``; ``end`` where a deal ended;
    ``pub`` and ``own`` the changes), and ``deals``: the index of each deal's
    first frame."""
    if not isinstance(record, GameRecord):
        record = parse_record(record, get_spec)
    frames = _Frames()
    deal, deals, results = 0, [0], 0
    for state, number, seat in replay_steps(record, get_spec):
        fulls = _all_views(state)
        views = [_without_previous_deal(full) for full in fulls]
        if number == 0:
            frames.add(views, 0, deal)
            results = _results(views[0])
            continue
        entry = record.actions[number - 1]
        about = {"action": number - 1, "seat": seat, "text": entry_action(entry)}
        ended = _results(views[0]) > results
        results = _results(views[0])
        if ended and not state.is_terminal():
            frames.add([_finished_deal(full) for full in fulls], number, deal, end=True, **about)
            deal += 1
            deals.append(len(frames.frames))
            frames.add(views, number, deal)
        else:
            frames.add(views, number, deal, end=True if state.is_terminal() else None, **about)
    return {"frames": frames.frames, "deals": deals, "actions": len(record.actions)}


def _all_views(state: GameState) -> list[dict[str, Any]]:
    return [state.view(seat) for seat in range(NUM_SEATS)]


class Walkthroughs:
    """The walkthroughs of the stored games last asked for: a finished game
    never changes, and one costs a few hundred milliseconds of views.  Their
    frames are kept as the JSON bytes they are sent in (``orjson.Fragment``):
    some 130 KB for a Doppelkopf match, where the objects held 900 KB."""

    def __init__(self, kept: int = 16):
        self.kept = kept
        self._items: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, game_id: str, version: int, record: Mapping[str, Any]) -> dict[str, Any]:
        key = (game_id, version)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        told = walkthrough(record)
        made = {**told, "frames": orjson.Fragment(orjson.dumps(told["frames"]))}
        with self._lock:
            self._items[key] = made
            while len(self._items) > self.kept:
                self._items.popitem(last=False)
        return made


__all__ = ["LEFT_OUT", "Walkthroughs", "apply_ops", "diff", "split_views", "walkthrough"]
