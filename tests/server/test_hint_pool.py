"""The hint is searched in the computer players' processes, like every other
search, and answers there exactly what it answers in the request's thread
(the same observation and seed give the same values)."""

from __future__ import annotations

from tricktable.bots.levels import hard_hint, hint_seed
from tricktable.server.play import bot_pool as thinking
from tricktable.server.play.room import Room
from tricktable.server.play.scheduler import forced_bot
from tricktable.store import Store

PERSON = "person"


def test_the_hint_is_searched_in_the_thinking_processes_with_the_same_answer(sqlite_url, monkeypatch):
    store = Store(sqlite_url)
    room = Room(store, bot_factory=forced_bot("random"), think_processes=1)
    sent = []
    run = thinking.ThinkingPool.run
    try:
        room.start()
        # The worker warm first (it imports every game): on a loaded machine that
        # alone can take longer than the hint's wait.
        assert room.thinking is not None and room.thinking.run(int, timeout=120) == 0
        monkeypatch.setattr(thinking.ThinkingPool, "run", lambda self, work, *args, **kw: sent.append(work) or run(
            self, work, *args, **kw))
        for index in range(20):  # a deal where the person speaks first
            state = room.new_game("euchre", {}, seed=f"hint-{index}", owner=PERSON)
            if state["view"]["to_move"] == 0:
                break
        answer = room.hint(state["id"], state["version"], PERSON)
        assert sent == [hard_hint]  # asked of the pool, not searched here
        position = room.referee.load(state["id"])
        here = hard_hint(position.state.observe(0), hint_seed(position.row.record["seed"], len(position.row.record["actions"])))
        assert answer["hints"] == here and len(here) == len(state["view"]["legal"])
    finally:
        room.stop()
        store.close()
