"""The referee: games as stored records, the person's actions, the computer
players' answers, and the daily deals.

The person always sits at seat 0 (South); seats 1..3 are computer players, at
the level the person chose for a new game (``bots/levels.py``; the daily deal is
always played against the default level, so its leaderboard compares like with
like).  The stored record carries that ``level`` beside the game's own fields
(replay ignores it).  Every response carries only ``view(0)`` and the public
steps since the person's last action, never the record (its seed would reveal
every hand).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import OrderedDict
from datetime import datetime, timezone
from typing import Any

from sqlalchemy.exc import IntegrityError

from tricktable.bots import BOTS, Bot, hint, make_bot
from tricktable.bots.levels import DEFAULT_LEVEL, LEVELS, best_bot
from tricktable.core.errors import GameError, NotYourTurn
from tricktable.core.protocol import GameState
from tricktable.core.record import RECORD_FORMAT, parse_record, replay
from tricktable.games import get_spec
from tricktable.server.fairness import Commitments, commitment_of, match_seed
from tricktable.store import GameRow, StaleVersion, Store

HUMAN = 0
DEFAULT_DECISION_SECONDS = 20


def best_bot_name(game: str, level: str = DEFAULT_LEVEL) -> str:
    return room_bot(game, level, seed="name").name


def room_bot(game: str, level: str, seed: str) -> Bot:
    """The computer player the room seats for ``game`` at ``level``
    (``TRICKTABLE_BOT`` overrides it, e.g. ``random`` for fast tests)."""
    forced = os.environ.get("TRICKTABLE_BOT")
    if forced and forced in BOTS:
        return make_bot(forced, seed=seed)
    return best_bot(game, level, seed)


def utc_day(now: datetime | None = None) -> str:
    return (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d")


def daily_seed(secret: str, game: str, day: str) -> str:
    """The day's match seed: an HMAC, so nobody without the server secret can
    compute the deals in advance."""
    return hmac.new(secret.encode(), f"daily/{game}/{day}".encode(), hashlib.sha256).hexdigest()


def bot_seed(row_or_seed: GameRow | str, game: str = "", bot_secret: str | None = None) -> str:
    """Where the computer players of a game draw their random choices from:
    the match seed, and in a daily attempt also the attempt's secret (stored
    with the game, never sent), so two attempts with the same moves do not
    unfold identically although the deals are the same for everybody."""
    if isinstance(row_or_seed, GameRow):
        row_or_seed, game, bot_secret = row_or_seed.record["seed"], row_or_seed.game, row_or_seed.bot_secret
    return f"{row_or_seed}/{bot_secret}/{game}" if bot_secret else f"{row_or_seed}/{game}"


class StateCache:
    """A small per-process cache of replayed states keyed by game id and version.

    Only a shortcut: the database stays the truth, and a version mismatch means
    the entry is ignored and the record replayed.
    """

    def __init__(self, size: int = 256):
        self.size = size
        self._items: OrderedDict[str, tuple[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, row: GameRow) -> GameState:
        """A state of ``row`` the caller may mutate."""
        with self._lock:
            found = self._items.get(row.id)
        if found and found[0] == row.version:
            return found[1].clone()
        return replay(row.record)

    def put(self, row: GameRow, state: GameState) -> None:
        with self._lock:
            self._items[row.id] = (row.version, state)
            self._items.move_to_end(row.id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class Room:
    """Everything the HTTP layer asks of games; safe to call from many threads."""

    def __init__(self, store: Store):
        self.store = store
        self.secret = store.secret()
        self.cache = StateCache()
        self.commitments = Commitments(self.secret)

    # -- creating and loading ------------------------------------------------
    @staticmethod
    def spec(game: str) -> Any:
        return get_spec(game)

    def new_game(self, game: str, options: dict[str, Any] | None, seed: str | None = None,
                 level: str = DEFAULT_LEVEL, owner: str | None = None, nonce: str | None = None,
                 client_seed: str = "") -> dict[str, Any]:
        """A new match.  Its seed mixes the server seed promised for ``nonce``
        (``POST /api/commitments``; a fresh one without) with ``client_seed``.
        ``seed`` is for tests and tools that need a known deal; the HTTP API
        never takes one.  ``IntegrityError`` if the nonce was used before."""
        spec = self.spec(game)
        if level not in LEVELS:
            raise GameError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        normalized = spec.normalize_options(options or {})
        server_seed = self.commitments.server_seed(nonce or secrets.token_urlsafe(18))
        fair = {"server_seed": server_seed, "client_seed": client_seed, "commitment": commitment_of(server_seed)}
        return self._start(spec.name, seed or match_seed(server_seed, client_seed), normalized, daily=False,
                           level=level, owner=owner, **fair)

    def daily_game(self, game: str, device: str, may_rank: bool = True) -> dict[str, Any]:
        """The identity's attempt at today's daily deal: created on first call,
        resumed after that (even when it is over).  It is ranked when
        ``may_rank`` (the identity was issued before the day began), else
        practice: shown and scored, never on the leaderboard."""
        spec = self.spec(game)
        day = utc_day()
        row = self.store.find_daily(spec.name, day, device)
        if row is None:
            seed = daily_seed(self.secret, spec.name, day)
            try:
                return self._start(spec.name, seed, spec.normalize_options({}), daily=True, day=day, device=device,
                                   owner=device, ranked=may_rank, bot_secret=secrets.token_hex(16),
                                   server_seed=seed, client_seed=None, commitment=None)
            except IntegrityError:  # the same identity raced itself; use the winner
                row = self.store.find_daily(spec.name, day, device)
                assert row is not None
        return self.response(row, self.cache.take(row), [])

    def _start(self, game: str, seed: str, options: dict[str, Any], daily: bool, level: str = DEFAULT_LEVEL,
               **where: Any) -> dict[str, Any]:
        spec = get_spec(game)
        state = spec.new_match(seed, options, daily=daily)
        steps = self._bots_move(state, bot_seed(seed, game, where.get("bot_secret")), level)
        record = self._record(state, seed, options, daily, level)
        stored = {k: where.get(k) for k in ("owner", "ranked", "bot_secret", "server_seed", "client_seed")}
        row = self.store.create_game(record, self._status(state), daily_day=where.get("day"), device=where.get("device"),
                                     deadline=self._deadline(state), commitment=where.get("commitment"), **stored)
        if state.is_terminal():  # a daily match cannot end before the person acts, but be exact
            row = self.store.save(row, record, "over", score=self._score(state, row))
        self.cache.put(row, state)
        return self.response(row, state, steps)

    def load(self, game_id: str) -> dict[str, Any] | None:
        """The game as the person sees it; a timed decision that ran out is
        settled first (the referee's timeout and the computer players' answers)."""
        for _attempt in range(3):
            row = self.store.load(game_id)
            if row is None:
                return None
            state = self.cache.take(row)
            if not self._expired(row, state):
                return self.response(row, state, [])
            try:
                return self._commit(row, state, self._time_out(row, state))
            except StaleVersion:
                continue  # someone else settled it first: read again
        raise StaleVersion("the game keeps changing; try again")

    # -- playing ------------------------------------------------------------------
    def act(self, game_id: str, version: int, action: str) -> dict[str, Any] | None:
        """Apply the person's action and the computer players' answers, commit,
        and return the new view.  ``StaleVersion`` if ``version`` is not the
        stored one; a ``GameError`` for an illegal action (nothing changes)."""
        row = self.store.load(game_id)
        if row is None:
            return None
        if version != row.version:
            raise StaleVersion(f"this game is at version {row.version}, not {version}: reload it")
        state = self.cache.take(row)
        if state.is_terminal():
            raise NotYourTurn("the game is over")
        if self._expired(row, state):
            self._commit(row, state, self._time_out(row, state))
            raise NotYourTurn("time ran out for that decision")
        if state.to_move != HUMAN:
            raise NotYourTurn("it is not your turn")
        steps = [self._step(state, HUMAN, lambda: state.act(HUMAN, action))]
        steps += self._bots_move(state, bot_seed(row), level_of(row))
        return self._commit(row, state, steps)

    def hint(self, game_id: str, version: int) -> dict[str, Any] | None:
        """What the strongest computer player would do in the person's seat, with
        every legal action's expected value, computed from the person's view
        alone.  Refused in the daily game (a fair leaderboard), on a stale
        version, and when it is not the person's turn."""
        row = self.store.load(game_id)
        if row is None:
            return None
        if row.daily_day:
            raise HintRefused("no hints in the daily game")
        if version != row.version:
            raise StaleVersion(f"this game is at version {row.version}, not {version}: reload it")
        state = self.cache.take(row)
        if state.is_terminal() or state.to_move != HUMAN or not state.legal_actions():
            raise NotYourTurn("a hint is for your own turn")
        obs = state.observe(HUMAN)
        return {"version": row.version, "hints": hint(obs, seed=f"{row.record['seed']}/hint/{row.version}")}

    def _commit(self, row: GameRow, state: GameState, steps: list[dict[str, Any]]) -> dict[str, Any]:
        """Save the state's record under the version check; the response."""
        record = dict(row.record, actions=self._actions(state))
        row = self.store.save(row, record, self._status(state), score=self._score(state, row),
                              deadline=self._deadline(state))
        self.cache.put(row, state)
        return self.response(row, state, steps)

    # -- the referee's clock (Court Piece: calling trump) --------------------------
    @staticmethod
    def _deadline(state: GameState) -> float | None:
        """When the person's timed decision runs out, if one is pending now."""
        if state.is_terminal() or state.to_move != HUMAN or not state.referee_actions():
            return None
        seconds = state.view(HUMAN).get("deadline_seconds") or DEFAULT_DECISION_SECONDS
        return time.time() + seconds

    @staticmethod
    def _expired(row: GameRow, state: GameState) -> bool:
        return row.deadline is not None and time.time() >= row.deadline and bool(state.referee_actions())

    def _time_out(self, row: GameRow, state: GameState) -> list[dict[str, Any]]:
        timeout = state.referee_actions()[0]
        steps = [self._step(state, HUMAN, lambda: state.apply_referee(timeout))]
        return steps + self._bots_move(state, bot_seed(row), level_of(row))

    def _bots_move(self, state: GameState, seed: str, level: str) -> list[dict[str, Any]]:
        bots: dict[int, Bot] = {}
        steps = []
        while not state.is_terminal() and state.to_move != HUMAN:
            seat = state.to_move
            if seat < 0:  # only the referee can act (a timeout); the client asks for it
                break
            bot = bots.setdefault(seat, room_bot(state.spec.name, level, seed=f"{seed}/seat{seat}"))
            choice = bot.choose(state.observe(seat))
            steps.append(self._step(state, seat, lambda: state.act(seat, choice)))
        return steps

    @staticmethod
    def _step(state: GameState, seat: int, apply: Any) -> dict[str, Any]:
        """Apply one action and describe it as the person sees it: the action's
        public text, the trick on the table, the trick it completed, whether it
        ended the deal."""
        before = state.view(HUMAN)
        results_before = len((before.get("match") or {}).get("results", []))
        tricks_before = len(before.get("tricks", []))
        apply()
        after = state.view(HUMAN)
        match = after.get("match") or {}
        deal_over = len(match.get("results", [])) > results_before
        deal = match["previous_deal"] if deal_over else after
        tricks = deal.get("tricks", [])
        actions = deal.get("actions", [])
        return {
            "seat": seat,
            "text": actions[-1][1] if actions else "",
            "trick": deal.get("trick", []),
            "completed": tricks[-1] if len(tricks) > tricks_before else None,
            "deal_over": deal_over,
        }

    # -- records and responses ----------------------------------------------------
    @staticmethod
    def _actions(state: GameState) -> list[str]:
        from tricktable.core.record import record_of

        return record_of(state).actions

    def _record(self, state: GameState, seed: str, options: dict[str, Any], daily: bool, level: str) -> dict[str, Any]:
        record = {
            "format": RECORD_FORMAT,
            "game": state.spec.name,
            "rules_version": state.spec.rules_version,
            "options": options,
            "kind": "match",
            "seed": seed,
            "daily": daily,
            "actions": self._actions(state),
            "level": level,
        }
        parse_record(record)  # fail here, not at the next load, if the format drifts
        return record

    @staticmethod
    def _status(state: GameState) -> str:
        return "over" if state.is_terminal() else "open"

    @staticmethod
    def _score(state: GameState, row: GameRow) -> int | None:
        """The daily score, computed here and only once the match is over."""
        if not (row.daily_day and state.is_terminal()):
            return None
        match = state.view(HUMAN).get("match") or {}
        if "daily_score" in match:
            return int(match["daily_score"])
        return int(state.returns()[HUMAN])

    def response(self, row: GameRow, state: GameState, steps: list[dict[str, Any]]) -> dict[str, Any]:
        view = state.view(HUMAN)
        daily = None
        if row.daily_day:
            daily = {"day": row.daily_day, "score": self._score(state, row) if state.is_terminal() else None,
                     "ranked": row.counts_on_leaderboard}
        deadline_in = max(0.0, row.deadline - time.time()) if row.deadline is not None else None
        return {"id": row.id, "version": row.version, "game": row.game, "daily": daily, "level": level_of(row),
                "hints": not row.daily_day, "view": view, "steps": steps, "deadline_in": deadline_in,
                "fairness": fairness_of(row, state)}


class HintRefused(GameError):
    """Hints are not offered in this game (the daily deal)."""


def seed_revealed(row: GameRow, state: GameState) -> bool:
    """An ordinary game's seed once it is over; the daily's once its UTC day
    has ended (before that it would show everybody's cards of the day)."""
    if row.daily_day:
        return row.daily_day < utc_day()
    return state.is_terminal()


def fairness_of(row: GameRow, state: GameState) -> dict[str, Any] | None:
    """The commitment (always) and the seeds (once revealed) of a game; None
    for games stored before commitments existed."""
    if row.server_seed is None:
        return None
    shown = seed_revealed(row, state)
    return {"commitment": commitment_of(row.server_seed), "client_seed": row.client_seed,
            "server_seed": row.server_seed if shown else None, "revealed": shown}


def level_of(row: GameRow) -> str:
    """The computer players' level of a stored game (games stored before levels
    existed played the default)."""
    level = row.record.get("level", DEFAULT_LEVEL)
    return level if level in LEVELS else DEFAULT_LEVEL


__all__ = ["Room", "StaleVersion", "GameError", "HintRefused", "best_bot_name", "bot_seed", "room_bot", "daily_seed",
           "fairness_of", "seed_revealed", "utc_day"]
