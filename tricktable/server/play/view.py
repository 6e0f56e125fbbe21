"""Response shaping: what a person's seat receives, and nothing more.

Every response carries only the view of the seat it is for (``view(0)`` in a
game of one person; at a table, each person's own seat) and the public steps,
never the record (its seed would reveal every hand).
"""

from __future__ import annotations

import threading
import time
import weakref
from functools import partial
from typing import Any

import orjson

from tricktable.bots.levels import LEVELS
from tricktable.core.observation import MatchInfo
from tricktable.core.protocol import GameState
from tricktable.core.step import Step
from tricktable.server.live.channel import Event
from tricktable.server.trust.fairness import fairness_of
from tricktable.store import GameRow

HUMAN = 0
"""The person's seat in a game of one person; seats 1..3 are computer players.
A table's game seats people where its seats say (``people_at``)."""
SOLO = frozenset({HUMAN})
AUTO = "auto"
"""The record's list of the versions a computer player decided for a person whose turn clock ran out."""
AUTO_SEATS = "auto_seats"
"""The record's seats whose last decision the turn clock made (a computer
player's, for a person whose time ran out): a page that loads the game marks
them "(auto)", as the steps' ``auto`` marks them live, until they decide again."""
PREVIOUS_DEAL = "previous_deal"
"""The match part's key of the previous deal's observation, which step frames
leave out except where their step ended a deal (``step_view``)."""


class SharedMatches:
    """The JSON of a ``MatchInfo`` read once and shared by every view of its
    deal, with its bytes for ``encode``; and the same without the previous
    deal's observation, as step frames carry it (``step_view``).
    ``MatchInfo.to_json`` reads its kept JSON into new objects at every call
    (a view a caller may change); the server never changes a view it built,
    and that read was a fifth of a busy server's CPU (the previous deal's
    observation is in every view, about two thirds of its bytes).

    An entry lives exactly as long as its ``MatchInfo``: a match keeps one per
    seat and deal (its clones too), so the entries are those of the deals the
    process's states are at (the referee's state cache, the requests under
    way) and go with the game or its deal.  (A least-recently-used bound of
    256 entries, some 60 KB each with their ``MatchInfo``, kept finished games'
    entries until it was full, some 7 minutes into a soak: each server worker
    grew by 15 MB and more after the soak's warm-up.)  Keyed by the object's
    identity and let go by a weak reference's callback, which runs as the
    object is freed, before its id can be taken by another; the same for the
    shared JSON objects, by which ``encode`` finds the bytes and ``step_view``
    the frame's form, and which their entry keeps alive."""

    def __init__(self) -> None:
        self._items: dict[int, tuple[weakref.ref[MatchInfo], _SharedMatch]] = {}
        self._by_json: dict[int, _SharedMatch] = {}
        # Re-entrant: a MatchInfo freed by this thread while it holds the lock
        # (say by the garbage collector) calls ``_forget`` in the same thread.
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._items)

    def json(self, match: MatchInfo) -> dict[str, Any]:
        key = id(match)
        with self._lock:
            found = self._items.get(key)
        if found is not None and found[0]() is match:
            return found[1].full
        shared = _SharedMatch(match.to_json())
        reference = weakref.ref(match, partial(self._forget, key))
        with self._lock:
            found = self._items.get(key)
            if found is not None and found[0]() is match:  # another thread was first
                return found[1].full
            self._items[key] = (reference, shared)
            self._by_json[id(shared.full)] = self._by_json[id(shared.lean)] = shared
        return shared.full

    def _forget(self, key: int, reference: weakref.ref[MatchInfo]) -> None:
        """The entry of a ``MatchInfo`` that is being freed, let go."""
        with self._lock:
            found = self._items.get(key)
            if found is not None and found[0] is reference:
                del self._items[key]
                self._by_json.pop(id(found[1].full), None)
                self._by_json.pop(id(found[1].lean), None)

    def _shared(self, data: Any) -> _SharedMatch | None:
        with self._lock:
            found = self._by_json.get(id(data))
        return found if found is not None and (found.full is data or found.lean is data) else None

    def encoded(self, data: Any) -> orjson.Fragment | None:
        """The bytes of a shared match JSON object (None: not one of them)."""
        found = self._shared(data)
        if found is None:
            return None
        return found.full_bytes if found.full is data else found.lean_bytes

    def lean(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` (a view's match part) without the previous deal: the
        shared one where ``data`` is shared, else a new one."""
        found = self._shared(data)
        if found is not None:
            return found.lean
        return _without_previous_deal(data)


class _SharedMatch:
    """A match JSON object, the same without ``previous_deal``, and their bytes."""

    __slots__ = ("full", "full_bytes", "lean", "lean_bytes")

    def __init__(self, full: dict[str, Any]):
        self.full = full
        self.full_bytes = orjson.Fragment(orjson.dumps(full, option=orjson.OPT_NON_STR_KEYS))
        self.lean = _without_previous_deal(full)
        self.lean_bytes = orjson.Fragment(orjson.dumps(self.lean, option=orjson.OPT_NON_STR_KEYS))


def _without_previous_deal(match: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in match.items() if name != PREVIOUS_DEAL}


_shared_matches = SharedMatches()


def people_at(row: GameRow) -> frozenset[int]:
    """The seats people hold in ``row``'s game: its table's, else the one person's."""
    if row.seats is None:
        return SOLO
    return frozenset(seat for seat, holder in enumerate(row.seats) if holder is not None)


def hints_offered(row: GameRow) -> bool:
    """Whether the hint is offered in ``row``'s game: never in the daily deal;
    at a table of more than one person only where its host allows it; alone
    (by oneself, or one person at a table) always."""
    if row.daily_day:
        return False
    return len(people_at(row)) <= 1 or bool(row.hints)


def auto_seats(row: GameRow) -> list[int]:
    """The seats whose last decision the turn clock made (``AUTO_SEATS``)."""
    return list(row.record.get(AUTO_SEATS, ()))


def auto_marks_after(record: dict[str, Any], seats: list[int], auto: bool) -> list[int]:
    """``AUTO_SEATS`` after steps of ``seats`` (in order; a referee's step of
    no seat is -1), the last of them ``auto`` or not: a seat's mark lasts
    until it decides again, as the page's live marks do."""
    marked = set(record.get(AUTO_SEATS, ())) - set(seats)
    if auto:
        marked.add(seats[-1])
    return sorted(marked)


def person_view(state: GameState, seat: int = HUMAN) -> dict[str, Any]:
    """``state.view(seat)`` with its ``match`` part shared with the other
    views of the deal (``SharedMatches``): equal to it, but not the caller's
    to change."""
    observed = state.observe(seat)
    match = observed.match
    if match is None:
        return observed.to_json()
    # The observation without its match (a shallow copy: it is a frozen
    # dataclass, and ``dataclasses.replace`` would build and check it anew).
    bare = object.__new__(type(observed))
    bare.__dict__.update(observed.__dict__)
    bare.__dict__["match"] = None
    data = bare.to_json()
    data["match"] = _shared_matches.json(match)
    return data


def encode(response: dict[str, Any]) -> bytes:
    """A response as JSON, its view's shared match part written as the bytes
    kept for it (``SharedMatches``) rather than again."""
    view = response.get("view")
    if isinstance(view, dict):
        encoded = _shared_matches.encoded(view.get("match"))
        if encoded is not None:  # (shallow copies: the caller's objects stay as they are)
            response = {**response, "view": {**view, "match": encoded}}
    return orjson.dumps(response, option=orjson.OPT_NON_STR_KEYS)


def step_view(view: dict[str, Any], deal_over: bool) -> dict[str, Any]:
    """The person's view as a step frame carries it (the action's answer and
    the streams' ``step`` events): without the match's ``previous_deal``,
    except in the frame whose step ended a deal (the one that tells the deal's
    end, with its score sheet).  The previous deal changes only there, so the
    page keeps the one that frame brought (or a whole state: the game's load,
    a stream's ``state`` event, which always carry it) for the frames after
    it; every frame used to carry it again, about two thirds of its bytes.
    Shared, not the caller's to change (``SharedMatches``)."""
    match = view.get("match")
    if deal_over or match is None:
        return view
    return {**view, "match": _shared_matches.lean(match)}


def step_json(step: Step, view: dict[str, Any], seat: int = HUMAN, auto: bool = False) -> dict[str, Any]:
    """A step as ``seat`` sees it, from what the game reported (``Step``) and
    ``seat``'s view after it (``view``): who acted, the action's text as the
    seat reads it, the trick on the table, the trick it completed, whether it
    ended the deal; ``auto``: a computer player decided it for a person whose
    turn clock ran out.  The tricks are the view's own JSON (the finished
    deal's, where the step ended it), so nothing is spelled twice."""
    deal = view["match"][PREVIOUS_DEAL] if step.deal_over else view
    out = {
        "seat": step.seat,
        "text": step.text_for(seat),
        "trick": deal.get("trick", []),
        "completed": deal["tricks"][-1] if step.completed is not None else None,
        "deal_over": step.deal_over,
    }
    if auto:
        out["auto"] = True
    return out


def shape_step(row: GameRow, state: GameState, view: dict[str, Any], step: Step, version: int,
               daily: int | None, seat: int = HUMAN) -> Event:
    """The event of ``step``, which led to ``state`` at ``version`` (the stored
    one, or an earlier one told with it), encoded but not published: the
    action's answer and the streams' ``step`` for ``seat``.  ``view``: the
    seat's view of ``state``, carried as the step frame carries it
    (``step_view``: the previous deal only where the step ended a deal);
    ``daily``: the daily score."""
    frame = step_view(view, step.deal_over)
    auto = version in row.record.get(AUTO, ())
    data = shape(row, state, [step_json(step, view, seat, auto)], daily, version=version, view=frame)
    event = Event(row.id, "step", version, data, encoder=encode, seat=seat)
    _ = event.json
    return event


def bot_to_move(state: GameState, people: frozenset[int] = SOLO) -> int | None:
    """The computer player whose turn it is, if any (it is thinking, or about
    to); ``people``: the seats people hold (``people_at``)."""
    seat = state.to_move
    return seat if not state.is_terminal() and seat not in people and seat >= 0 else None


LEGACY_LEVEL = "hard"
"""The level of games stored before records named one: they were played by the
strongest players, so they go on with those."""


def level_of(row: GameRow) -> str:
    """The computer players' level of a stored game."""
    level = row.record.get("level", LEGACY_LEVEL)
    return level if level in LEVELS else LEGACY_LEVEL


def shape(row: GameRow, state: GameState, steps: list[dict[str, Any]], daily_score: int | None,
          version: int | None = None, view: dict[str, Any] | None = None, seat: int = HUMAN) -> dict[str, Any]:
    """The response for ``state`` as ``seat`` sees it: the stored game's
    current one, or (with ``version``) an earlier version told again, whose
    clock is long gone.  ``view``: the seat's view of ``state`` if the caller has it."""
    daily = {"day": row.daily_day, "score": daily_score, "ranked": row.counts_on_leaderboard,
             "deals_day": row.record.get("deals_day", row.daily_day)} if row.daily_day else None
    current = version is None or version == row.version
    deadline_in = max(0.0, row.deadline - time.time()) if current and row.deadline is not None else None
    return {"id": row.id, "version": row.version if version is None else version, "game": row.game, "daily": daily,
            "level": level_of(row), "hints": hints_offered(row),
            "view": view if view is not None else person_view(state, seat), "steps": steps,
            "deadline_in": deadline_in, "thinking": bot_to_move(state, people_at(row)), "auto_seats": auto_seats(row),
            "fairness": fairness_of(row, state), "copy_of": row.record.get("copy_of"), "next_id": row.next_id}


__all__ = ["AUTO", "AUTO_SEATS", "HUMAN", "auto_marks_after", "auto_seats", "PREVIOUS_DEAL", "SOLO", "hints_offered", "people_at", "bot_to_move", "encode", "person_view", "level_of", "shape", "shape_step",
           "step_json", "step_view"]
