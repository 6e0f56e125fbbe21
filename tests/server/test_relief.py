"""Overload, gracefully: while games wait too long for a worker, the computer
players think shorter, step by step down to the easy rules, and the server
says so (``/healthz``'s ``pressure``)."""

from __future__ import annotations

import threading
import time

from tricktable.bots import Bot, make_bot
from tricktable.bots.levels import best_bot, level_bot, relieved
from tricktable.server.play.room import Room
from tricktable.store import Store


def test_each_level_relieves_step_by_step_down_to_the_easy_rules():
    assert [relieved("hard", step) for step in range(5)] == ["hard", "normal", "quick", "easy", "easy"]
    assert [relieved("normal", step) for step in range(4)] == ["normal", "quick", "easy", "easy"]
    assert relieved("easy", 3) == "easy"
    name, budget = level_bot("euchre", "quick")
    assert name.startswith("search") and 0 < budget < level_bot("euchre", "normal")[1]
    assert best_bot("doppelkopf", "quick").budget_ms == budget


class SlowFirstCard(Bot):
    """Plays the first legal action after ``seconds``: a machine short of CPU."""

    name = "slow"

    def __init__(self, seconds: float):
        super().__init__("slow")
        self.seconds = seconds

    def choose(self, obs, among=None) -> str:
        time.sleep(self.seconds)
        return obs.legal[0]


def test_games_waiting_too_long_get_shorter_thinking_and_the_pressure_says_so(sqlite_url):
    """One worker, decisions of 0.3 s, six games whose computer players are to
    move at once: the later games wait longer than the relief thresholds, so
    their decisions are thought at shorter levels; the first at the chosen one."""
    levels: list[str] = []
    lock = threading.Lock()

    def factory(game: str, level: str, seed: str) -> Bot:
        if seed != "name":  # (the scheduler asks a bot's name once, to know whether it is instant)
            with lock:
                levels.append(level)
        return SlowFirstCard(0.3) if seed != "name" else make_bot("easy", seed=seed)

    store = Store(sqlite_url)
    room = Room(store, bot_factory=factory, workers=1)
    try:
        games = []
        for n in range(40):
            game = room.new_game("euchre", {}, seed=f"relief-{n}", owner="person")
            if game["view"]["to_move"] != 0:
                games.append(game["id"])
            if len(games) == 6:
                break
        room.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(levels) < 6:
            time.sleep(0.05)
        pressure = room.scheduler.pressure()
    finally:
        room.stop()
        store.close()
    assert levels[0] == "normal"
    assert set(levels) - {"normal"} <= {"quick", "easy"} and set(levels) & {"quick", "easy"}
    assert sum(pressure["decisions_by_relief"]) == len(levels)
    assert sum(pressure["decisions_by_relief"][1:]) == sum(level != "normal" for level in levels)
