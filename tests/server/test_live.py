"""The live channel: the person's action is answered at once, the
computer players move in the background one commit at a time, and every commit
reaches every open event stream; streams resume from a version."""

from __future__ import annotations

import random
import threading
import time

import pytest
from sqlalchemy import update

from tricktable.bots import RandomBot
from tricktable.server.play.view import HUMAN
from tricktable.server.play.scheduler import forced_bot
from tests.harness import act, events_until_settled, frame_view, read_events, settle
from tricktable.store.schema import games


class Gate:
    """A bot factory whose every decision waits until the test releases it,
    so a test decides when each computer player has made up its mind."""

    def __init__(self) -> None:
        self._permits = threading.Semaphore(0)
        self.asked: list = []  # the observation of every decision begun
        self.decided = 0

    def factory(self, _game: str, _level: str, seed: str) -> RandomBot:
        gate = self

        class GatedBot(RandomBot):
            name = "gated"  # a player that thinks (until released), not an instant one: one commit per action

            def choose(self, view):
                gate.asked.append(view)
                gate._permits.acquire(timeout=30)  # never hang a test run for ever
                gate.decided += 1
                return super().choose(view)

        return GatedBot(seed=seed)

    def release(self, count: int = 1) -> None:
        for _ in range(count):
            self._permits.release()


@pytest.fixture
def gated(make_client):
    gate = Gate()
    client = make_client(gate.factory)
    yield gate, client
    gate.release(1000)  # let any decision under way finish before the app stops


def until_persons_turn(client, gate: Gate, state: dict) -> dict:
    """Release the gated computer players one decision at a time until the
    person is to move; the state then."""
    if state["thinking"] is None:
        return state
    with client.stream("GET", f"/api/games/{state['id']}/events", params={"version": state["version"]}) as response:
        for kind, data in read_events(response):
            if kind == "thinking":
                gate.release()
            elif kind == "step" and data["thinking"] is None:
                return data
    raise AssertionError("the stream ended")


def hand_over(client, state: dict) -> dict:
    """The person plays his first legal action until the turn passes to a
    computer player; the answer that says which one thinks."""
    while True:
        answer = client.post(f"/api/games/{state['id']}/actions",
                             json={"action": state["view"]["legal"][0], "version": state["version"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
        if state["thinking"] is not None:
            return state


def new_game(client, game: str = "euchre", **options) -> dict:
    answer = client.post("/api/games", json={"game": game, "options": options})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_the_answer_comes_before_the_computer_players_move(gated):
    """A timing oracle closed: the person's answer cannot depend on the bots'
    moves, because it is sent while they have not moved at all."""
    gate, client = gated
    state = until_persons_turn(client, gate, new_game(client))
    while True:  # the person acts until the turn passes to a computer player
        decided = gate.decided
        started = time.monotonic()
        answer = client.post(f"/api/games/{state['id']}/actions",
                             json={"action": state["view"]["legal"][0], "version": state["version"]})
        elapsed = time.monotonic() - started
        assert answer.status_code == 200, answer.text
        mine = answer.json()
        assert mine["version"] == state["version"] + 1 and [s["seat"] for s in mine["steps"]] == [HUMAN]
        if mine["thinking"] is not None:
            break
        state = mine
    assert mine["thinking"] == mine["view"]["to_move"] != HUMAN
    for _ in range(50):  # the computer player has begun thinking and waits for the gate
        if len(gate.asked) > decided:
            break
        time.sleep(0.02)
    assert len(gate.asked) == decided + 1 and gate.decided == decided
    stored = client.get(f"/api/games/{state['id']}").json()
    assert stored["version"] == mine["version"] and stored["thinking"] == mine["thinking"]
    assert elapsed < 2.0
    gate.release(1000)
    assert settle(client, mine)["version"] > mine["version"]


def test_each_computer_players_step_arrives_as_it_is_decided(gated):
    gate, client = gated
    mine = hand_over(client, until_persons_turn(client, gate, new_game(client, "doppelkopf")))
    version, steps, thinking, base = mine["version"], 0, None, gate.decided
    with client.stream("GET", f"/api/games/{mine['id']}/events", params={"version": version}) as response:
        for kind, data in read_events(response):
            if kind == "thinking":
                assert data["version"] == version + steps
                assert gate.decided == base + steps  # nothing decided beyond what was released
                thinking = data["seat"]
                gate.release()
            elif kind == "step":
                steps += 1
                assert data["version"] == version + steps  # one commit per action, in order
                assert [s["seat"] for s in data["steps"]] == [thinking]
                assert data["view"]["actions"][-1][0] == thinking or data["steps"][0]["deal_over"]
                if data["thinking"] is None:
                    break
                assert data["thinking"] == data["view"]["to_move"]  # the page can show who thinks next
    assert steps >= 1


def test_a_stream_resumes_from_a_version_and_a_second_tab_sees_the_same(client):
    state = settle(client, new_game(client))
    rng = random.Random(4)
    first = state["version"]
    streams: list[list[tuple[str, dict]]] = [[], []]
    connected = [threading.Event(), threading.Event()]

    def tab(number: int) -> None:
        with client.stream("GET", f"/api/games/{state['id']}/events", params={"version": first}) as response:
            for kind, data in read_events(response):
                if data is None:
                    connected[number].set()
                    continue
                streams[number].append((kind, data))
                if kind == "step" and data["thinking"] is None:
                    return

    tabs = [threading.Thread(target=tab, args=(n,)) for n in range(2)]
    for thread in tabs:
        thread.start()
    assert all(c.wait(10) for c in connected)
    after = act(client, state, rng.choice(state["view"]["legal"]))
    for thread in tabs:
        thread.join(30)
    steps = [[(d["version"], d["steps"], d["view"]) for k, d in s if k == "step"] for s in streams]
    assert steps[0] == steps[1]  # both tabs saw every step, the person's own first
    assert [v for v, _, _ in steps[0]] == list(range(first + 1, after["version"] + 1))
    assert steps[0][0][1][0]["seat"] == HUMAN
    # A stream that connects later from the same version is told the same steps.
    told = [(d["version"], d["steps"], d["view"]) for k, d in events_until_settled(client, state["id"], first)
            if k == "step"]
    assert told == steps[0]
    assert frame_view(told[-1][2]) == frame_view(client.get(f"/api/games/{state['id']}").json()["view"])


def test_a_stream_from_too_far_back_gets_the_whole_state(client):
    state = settle(client, new_game(client))
    state = act(client, state, state["view"]["legal"][0])
    events = events_until_settled(client, state["id"], 0)  # before the game began
    assert events[0][0] == "state" and events[0][1]["version"] == state["version"]
    assert frame_view(events[0][1]["view"]) == frame_view(state["view"])  # (a whole state: with the previous deal)
    assert "previous_deal" in events[0][1]["view"]["match"]


def test_an_event_source_resumes_from_its_last_event_id(client):
    state = settle(client, new_game(client))
    before = state["version"]
    state = act(client, state, state["view"]["legal"][0])
    headers = {"Last-Event-ID": str(before)}
    with client.stream("GET", f"/api/games/{state['id']}/events", params={"version": 0}, headers=headers) as response:
        kinds = []
        for kind, data in read_events(response):
            if data is not None:
                kinds.append((kind, data["version"]))
                if data["version"] == state["version"]:
                    break
    assert kinds == [("step", v) for v in range(before + 1, state["version"] + 1)]


def test_a_bots_choice_for_an_old_version_is_discarded_and_recomputed(gated):
    """An action committed while a computer player thinks (as a person's
    out-of-turn announcement is) makes that player's pending choice stale: it is
    never committed over the new position, and the player thinks again."""
    gate, client = gated
    room = client.app.state.room
    mine = hand_over(client, until_persons_turn(client, gate, new_game(client)))
    seat = mine["thinking"]
    for _ in range(50):
        if len(gate.asked) > gate.decided:
            break
        time.sleep(0.02)
    asked = len(gate.asked)
    # Someone else's action lands while the bot thinks on version V.
    position = room.referee.load(mine["id"])
    rival = position.state.view(seat)["legal"][-1]
    after_rival, _step = room.referee.play(position, seat, rival)
    decided = gate.decided
    gate.release()  # the stale choice for version V is now made
    for _ in range(100):
        if gate.decided > decided:
            break
        time.sleep(0.02)
    # The scheduler looks again: on V+1 the next computer player (if one is to
    # move) is asked, and held by the gate; nothing else happens.
    next_is_bot = after_rival.state.to_move not in (HUMAN, -1)
    for _ in range(100):
        if len(gate.asked) > asked or not next_is_bot:
            break
        time.sleep(0.02)
    time.sleep(0.2)
    assert len(gate.asked) == asked + next_is_bot
    row = room.store.load(mine["id"])
    assert row.version == mine["version"] + 1  # only the rival's commit, not the stale one
    assert row.record["actions"][-1] == rival
    gate.release(1000)
    final = settle(client, client.get(f"/api/games/{mine['id']}").json())
    base = room.store.load(mine["id"]).record["version_base"]
    actions = room.store.load(mine["id"]).record["actions"]
    assert len(actions) - base["actions"] == final["version"] - base["version"]  # one action per version


def test_exactly_one_of_two_same_version_requests_wins(client):
    state = settle(client, new_game(client))
    outcomes: list[int] = []
    barrier = threading.Barrier(2)

    def send(action: str) -> None:
        barrier.wait()
        answer = client.post(f"/api/games/{state['id']}/actions", json={"action": action, "version": state["version"]})
        outcomes.append(answer.status_code)

    legal = state["view"]["legal"]
    threads = [threading.Thread(target=send, args=(legal[n % len(legal)],)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == [200, 409]
    row = client.app.state.room.store.load(state["id"])
    base = row.record["version_base"]
    assert len(row.record["actions"]) - base["actions"] == row.version - base["version"]


def test_stale_and_illegal_actions_change_nothing(client):
    state = settle(client, new_game(client))
    game = f"/api/games/{state['id']}"
    for body, status in (({"action": state["view"]["legal"][0], "version": state["version"] - 1}, 409),
                         ({"action": "dance", "version": state["version"]}, 422),
                         ({"action": state["view"]["legal"][0], "version": state["version"] + 5}, 409)):
        answer = client.post(f"{game}/actions", json=body)
        assert answer.status_code == status, answer.text
        again = client.get(game).json()
        assert (again["version"], frame_view(again["view"])) == (state["version"], frame_view(state["view"]))


def test_unknown_games_and_bad_versions_on_the_event_stream(client):
    assert client.get("/api/games/nope/events", params={"version": 1}).status_code == 404
    state = new_game(client)
    assert client.get(f"/api/games/{state['id']}/events", params={"version": -1}).status_code == 422
    assert client.get(f"/api/games/{state['id']}/events", params={"version": "x"}).status_code == 422


def test_the_scheduler_settles_an_expired_calling_clock_by_itself(client):
    """Court Piece: when the person's time to call runs out, the timeout is
    committed and published without anybody asking (the page sees it live)."""
    room = client.app.state.room
    for _ in range(40):
        state = settle(client, new_game(client, "double-sar"))
        if state["deadline_in"] is not None:
            break
    else:
        pytest.fail("the person never called first in 40 deals")
    with room.store.engine.begin() as db:  # the clock now runs out in half a second
        db.execute(update(games).where(games.c.id == state["id"]).values(deadline=time.time() + 0.5))
    room.scheduler.wake(state["id"])  # the scheduler reads the new deadline and sets its clock
    events = events_until_settled(client, state["id"], state["version"], timeout=20)
    first = events[0][1]
    assert events[0][0] == "step" and first["version"] == state["version"] + 1
    assert first["steps"][0]["seat"] == HUMAN
    row = room.store.load(state["id"])
    base = row.record["version_base"]
    assert row.record["actions"][base["actions"] + state["version"] - base["version"]] == "timeout"


def test_a_new_games_opening_moves_run_in_the_background(gated):
    gate, client = gated
    for _ in range(20):
        state = new_game(client)
        if state["thinking"] is not None:
            break
    else:
        pytest.fail("the person opened 20 deals")
    assert state["version"] == 1 and state["steps"] == []
    gate.release(1000)
    settled = settle(client, state)
    assert settled["version"] == 1 + len(settled["steps"]) and settled["view"]["to_move"] == HUMAN


def test_the_bot_factory_is_the_apps(make_client):
    client = make_client(forced_bot("heuristic"))
    assert set(client.get("/healthz").json()["bots"].values()) == {"heuristic"}


def test_a_persons_announcement_out_of_turn_lands_while_a_computer_player_thinks(gated):
    """Doppelkopf: the person may announce before his next card also while a
    computer player is to move; the thinking player's choice for the older
    version is discarded, and the announcement is in the record with its seat."""
    gate, client = gated
    room = client.app.state.room
    rng = random.Random(7)
    state = until_persons_turn(client, gate, new_game(client, "doppelkopf"))
    for _ in range(40):
        answer = client.post(f"/api/games/{state['id']}/actions",
                             json={"action": rng.choice([a for a in state["view"]["legal"] if a.startswith("play")]
                                                        or state["view"]["legal"]),
                                   "version": state["version"]})
        mine = answer.json()
        waiting = client.get(f"/api/games/{mine['id']}").json()
        announcements = [a for a in waiting["view"]["legal"] if not a.startswith("play")]
        if waiting["thinking"] is not None and announcements:
            break
        state = until_persons_turn(client, gate, waiting)
    else:
        pytest.fail("no deal let the person announce out of turn")
    for _ in range(50):  # the computer player to move is thinking (held by the gate)
        if len(gate.asked) > gate.decided:
            break
        time.sleep(0.02)
    asked = len(gate.asked)
    answer = client.post(f"/api/games/{waiting['id']}/actions",
                         json={"action": announcements[0], "version": waiting["version"]})
    assert answer.status_code == 200, answer.text
    announced = answer.json()
    assert announced["version"] == waiting["version"] + 1 and announced["steps"][0]["seat"] == HUMAN
    gate.release()  # the choice made for the older version: stale, so discarded
    for _ in range(100):
        if len(gate.asked) > asked:
            break
        time.sleep(0.02)
    row = room.store.load(waiting["id"])
    assert row.record["actions"][-1] == f"0: {announcements[0]}"
    assert row.version == announced["version"]  # nothing committed over the announcement
    assert gate.asked[-1].seat == gate.asked[asked - 1].seat  # the same player thinks again
    gate.release(1000)
    assert settle(client, announced)["view"]["to_move"] in (HUMAN, -1)
