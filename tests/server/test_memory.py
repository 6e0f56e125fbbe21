"""What a server process keeps between requests is bounded by the games being
played, not by the games played (the 30-minute soak's memory).  The
person's shared match JSON (``responses.SharedMatches``) goes with the last
state at its deal: with the game when it leaves the referee's state cache."""

from __future__ import annotations

import gc
import os
import threading
import time
from typing import Any, Callable

import pytest

from tricktable.catalog import get_spec
from tricktable.server.play.commit import Referee, StateCache
from tricktable.server.play.view import _shared_matches, person_view
from tricktable.server.play.room import Room
from tricktable.server.play.scheduler import forced_bot
from tricktable.store import Store


def kept(match_json: dict[str, Any]) -> bool:
    """Whether the process still keeps this shared match JSON (and its bytes)."""
    gc.collect()
    return _shared_matches.encoded(match_json) is not None


def test_a_deals_shared_match_json_goes_with_the_last_state_at_that_deal():
    spec = get_spec("euchre")
    state = spec.new_match("memory/states", spec.normalize_options({}), daily=False)
    twin = state.clone()
    shared = person_view(state)["match"]
    assert person_view(twin)["match"] is shared  # a clone shares it
    del state
    assert kept(shared)  # the clone is still at that deal
    del twin
    assert not kept(shared)


def play_on(referee: Referee, game_id: str, actions: int) -> list[dict[str, Any]]:
    """``actions`` actions (each the first legal one, every seat's), committed;
    the person's shared match JSON after each (fewer if the game ends)."""
    seen = []
    for _ in range(actions):
        position = referee.load(game_id)
        assert position is not None
        state = position.state
        if state.is_terminal():
            break
        text = state.action_text(state.legal_actions()[0])
        position, _step = referee.play(position, state.to_move, text)
        seen.append(position.person_view()["match"])
    return seen


def test_a_games_shared_match_json_goes_when_it_leaves_the_state_cache(sqlite_url):
    store = Store(sqlite_url)
    try:
        room = Room(store)
        referee = room.referee
        referee.cache.size = 2
        first = room.new_game("euchre", {}, seed="memory/first")["id"]
        seen = play_on(referee, first, 60)  # into its third deal or so: several deals' JSON
        assert len({id(match) for match in seen}) > 1
        assert kept(seen[-1])  # the game is in the cache at that deal
        assert not any(kept(match) for match in seen if match["deal_number"] != seen[-1]["deal_number"])
        for other in ("memory/second", "memory/third"):  # two more games push the first out of the cache
            play_on(referee, room.new_game("euchre", {}, seed=other)["id"], 3)
        assert not kept(seen[-1])
        play_on(referee, first, 1)  # played again: replayed from its record, its JSON read anew
        finished = play_on(referee, first, 10_000)
        assert finished and not any(kept(match) for match in finished)  # over: let go with the game
    finally:
        store.close()


def test_a_game_left_alone_goes_from_the_state_cache_at_the_next_write(sqlite_url):
    """With several processes, a game played on or finished by another one would
    stay in this one's cache at an old version, never read again."""
    now = [1000.0]
    store = Store(sqlite_url)
    try:
        room = Room(store)
        referee = room.referee
        referee.cache = StateCache(idle=60.0, clock=lambda: now[0])
        left = room.new_game("euchre", {}, seed="memory/left")["id"]
        played = room.new_game("euchre", {}, seed="memory/played")["id"]
        play_on(referee, left, 2)
        now[0] += 59.0
        play_on(referee, played, 2)
        assert referee.cache.at(left, store.load(left).version) is not None  # 59 s: still kept
        now[0] += 2.0
        play_on(referee, played, 1)
        assert referee.cache.at(left, store.load(left).version) is None  # 61 s alone: let go
        assert len(referee.cache) == 1
        assert play_on(referee, left, 1)  # and played again from its record
    finally:
        store.close()


def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)


def started_with_wakes_recorded(room: Room, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Start ``room`` with its scheduler's ``wake`` only recording the games it is
    asked for (after the start-up scan's wake of the open games)."""
    woken: list[str] = []
    monkeypatch.setattr(room.scheduler, "wake", lambda game, *_args: woken.append(game))
    room.start()
    wait_for(lambda: bool(woken))
    del woken[:]
    return woken


def test_a_clock_that_ran_out_is_let_go_and_a_clock_armed_again_is_kept(sqlite_url, monkeypatch):
    """A person's timed decision arms a clock (a timer thread) for the game: once
    it has run out and woken the game it is forgotten, not kept until the game's
    clock is armed again or the game ends (a person who left).  An older timer
    that runs out late leaves the clock armed after it in place."""
    store = Store(sqlite_url)
    room = Room(store, bot_factory=forced_bot("random"))
    try:
        game_id = room.new_game("euchre", {}, seed="memory/clock")["id"]
        woken = started_with_wakes_recorded(room, monkeypatch)
        scheduler = room.scheduler
        scheduler._arm_clock(game_id, time.time())  # runs out now (and 50 ms)
        assert game_id in scheduler._clocks
        wait_for(lambda: bool(woken))
        assert woken == [game_id] and game_id not in scheduler._clocks

        scheduler._arm_clock(game_id, time.time() + 3600)
        armed = scheduler._clocks[game_id]
        late = threading.Thread(target=scheduler._clock_ran_out, args=(game_id,))  # an earlier clock's thread
        late.start()
        late.join()
        assert scheduler._clocks.get(game_id) is armed
    finally:
        room.stop()
        store.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_the_servers_processes_get_two_malloc_arenas_unless_the_operator_chose(sqlite_url, monkeypatch, workers):
    from tricktable.server.process import serve as serve_module

    for name in ("TRICKTABLE_DATABASE_URL", serve_module.THINK_PROCESSES_VARIABLE, serve_module.SUPERVISOR_VARIABLE):
        monkeypatch.setenv(name, "")  # (restored after the test: ``serve`` sets them for its workers)
    monkeypatch.setattr(serve_module.uvicorn, "run", lambda *_args, **_options: None)  # one worker
    monkeypatch.setattr(serve_module, "listening_sockets", lambda *_args: [])  # several: no socket,
    monkeypatch.setattr(serve_module.Supervisor, "run", lambda _self: 0)  # no process started
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    serve_module.serve(database=sqlite_url, workers=workers)
    assert os.environ["MALLOC_ARENA_MAX"] == "2"
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    serve_module.serve(database=sqlite_url, workers=workers)
    assert os.environ["MALLOC_ARENA_MAX"] == "4"
