"""A finished game's analysis (its values are the hint's, for the same
observation and seed), who may read it, its progress and its restart; playing
on from a finished game or a pasted record; a failed analysis retried while it may be.

The searches here sample a few worlds (``few_worlds``) so a whole match is
analysed in seconds; that the hint samples the hard level's worlds is
tests/bots/test_levels.py's."""

from __future__ import annotations

import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

import pytest
from fastapi.testclient import TestClient

from tricktable.bots import levels
from tricktable.bots.levels import DEFAULT_LEVEL, hard_hint
from tricktable.bots import make_bot
from tricktable.catalog import get_spec, replay
from tricktable.core.record import record_of
from tricktable.server.play import analysis as analysis_module
from tricktable.server.play.analysis import MAX_ATTEMPTS, decision_accuracy, decisions_of, judged
from tricktable.server.play.bot_pool import ThinkingPool
from tricktable.server.play.room import Room
from tricktable.server.play.scheduler import forced_bot
from tricktable.store import Store
from tricktable.server.trust import fairness as fairness_module
from tricktable.server.trust.fairness import deals_of
from tests.harness import act, finish, identity_of, settle

WORLDS = 4


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch):
    """The hint's and the analysis's searches on ``WORLDS`` worlds (both read ``hint_worlds``)."""
    monkeypatch.setattr(levels, "hint_worlds", lambda obs: WORLDS)
    monkeypatch.setattr(analysis_module, "hint_worlds", lambda obs: WORLDS)


def stranger_of(client: TestClient) -> TestClient:
    other = TestClient(client.app)
    other.post("/api/identity")
    return other


def finished(client: TestClient, game: str = "euchre") -> dict:
    return finish(client, settle(client, client.post("/api/games", json={"game": game}).json()))


def analysed(client: TestClient, game_id: str, timeout: float = 60.0) -> dict:
    """The analysis once it is done (polled as the page would)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        if answer.json()["status"] in ("done", "failed"):
            return answer.json()
        time.sleep(0.05)
    raise TimeoutError(f"the analysis of {game_id} did not finish in {timeout} s")


def test_the_analysis_values_every_decision_as_the_hint_did(client):
    state = settle(client, client.post("/api/games", json={"game": "euchre"}).json())
    hints = []
    while not state["view"]["terminal"] and len(hints) < 8:
        legal = state["view"]["legal"]
        if len(legal) > 1:
            hint = client.get(f"/api/games/{state['id']}/hint", params={"version": state["version"]})
            assert hint.status_code == 200, hint.text
            hints.append(hint.json()["hints"])
        state = act(client, state, legal[-1])
    assert len(hints) == 8
    state = finish(client, state)
    started = client.post(f"/api/games/{state['id']}/analysis")
    assert started.status_code == 202 and started.json()["status"] in ("queued", "running", "done")
    report = analysed(client, state["id"])
    assert report["status"] == "done" and report["done"] == report["total"] == len(report["decisions"]) > 8
    for hint, decision in zip(hints, report["decisions"]):
        assert [(h["action"], h["value"]) for h in hint] == [(r["action"], r["value"]) for r in decision["ranked"]]
    record = client.get(f"/api/games/{state['id']}/record").json()
    for decision in report["decisions"]:
        values = [r["value"] for r in decision["ranked"]]
        assert values == sorted(values, reverse=True)
        assert record["actions"][decision["index"]] == decision["chosen"]
        assert decision["best"] == decision["ranked"][0]["action"] and decision["best_value"] == values[0]
        assert decision["lost"] == pytest.approx(decision["best_value"] - decision["value"], abs=1e-3)
        assert decision["lost"] >= 0 and decision["seat"] == 0 and decision["worlds"] == WORLDS
    assert client.post(f"/api/games/{state['id']}/analysis").json() == {
        "status": "done", "done": report["total"], "total": report["total"]}  # started once
    deals = {d["deal"] for d in report["decisions"]}
    assert [d["deal"] for d in report["deals"]] == sorted(deals)
    for deal in report["deals"]:
        own = [d for d in report["decisions"] if d["deal"] == deal["deal"]]
        assert deal["lost"] == pytest.approx(sum(d["lost"] for d in own), abs=1e-3)
        worst = sorted((d for d in own if d["lost"] > 0), key=lambda d: -d["lost"])[:3]
        assert sorted(d["lost"] for d in worst) == sorted(
            next(d["lost"] for d in own if d["index"] == i) for i in deal["mistakes"])
        assert 0 <= deal["accuracy"] <= 100
    assert 0 <= report["accuracy"] <= 100


def test_accuracy_is_100_for_no_loss_and_halves_every_half_point():
    assert decision_accuracy(0.0) == decision_accuracy(0.04) == 100.0  # within the search's noise
    assert decision_accuracy(0.55) == pytest.approx(50.0)
    assert decision_accuracy(1.05) == pytest.approx(25.0)
    assert decision_accuracy(12.0) < 0.1


def test_an_announcement_out_of_turn_and_forced_actions_are_not_analysed():
    spec = get_spec("doppelkopf")
    state = spec.new_match("out-of-turn", spec.normalize_options({}))
    rules = make_bot("heuristic")
    announced = None
    while announced is None or len(state.history) < announced + 8:
        if state.to_move != 0 and announced is None and state.observe(0).legal:
            announced = len(state.history)
            state.act(0, state.observe(0).legal[0])  # "re" while another seat is to move
            continue
        state.act(state.to_move, rules.choose(state.observe(state.to_move)))
    record = record_of(state).to_json()
    assert record["actions"][announced].startswith("0: ")
    decisions = list(decisions_of(record))
    assert decisions and announced not in {d.index for d in decisions}
    assert all(len(d.observation.legal) > 1 and d.chosen in d.observation.legal for d in decisions)
    assert all(record["actions"][d.index] == d.chosen and not d.chosen.startswith("0: ") for d in decisions)


def test_not_over_is_409_and_a_stranger_is_404(client):
    state = settle(client, client.post("/api/games", json={"game": "euchre"}).json())
    assert client.post(f"/api/games/{state['id']}/analysis").status_code == 409
    assert client.get(f"/api/games/{state['id']}/analysis").status_code == 409
    state = finish(client, state)
    stranger = stranger_of(client)
    for answer in (stranger.post(f"/api/games/{state['id']}/analysis"),
                   stranger.get(f"/api/games/{state['id']}/analysis"),
                   TestClient(client.app).get(f"/api/games/{state['id']}/analysis")):
        assert answer.status_code == 404
    assert client.get(f"/api/games/{state['id']}/analysis").json()["status"] == "none"  # nobody started it


def test_a_share_link_reads_the_analysis_and_never_starts_one(client):
    state = finished(client)
    token = client.post(f"/api/games/{state['id']}/share").json()["token"]
    reader = TestClient(client.app)
    assert reader.get(f"/api/shared/{token}/analysis").json()["status"] == "none"
    assert client.get(f"/api/games/{state['id']}/analysis").json()["status"] == "none"
    client.post(f"/api/games/{state['id']}/analysis")
    report = analysed(client, state["id"])
    assert reader.get(f"/api/shared/{token}/analysis").json() == report
    assert reader.get("/api/shared/" + "A" * 32 + "/analysis").status_code == 404


def test_the_daily_analysis_waits_until_its_day_has_ended(client, monkeypatch):
    state = finish(client, settle(client, client.post("/api/daily/euchre").json()))
    assert client.post(f"/api/games/{state['id']}/analysis").status_code == 403
    assert client.get(f"/api/games/{state['id']}/analysis").status_code == 403
    assert client.post(f"/api/games/{state['id']}/play-on", json={"at": 1}).status_code == 403
    monkeypatch.setattr(fairness_module, "utc_day", lambda now=None: "9999-12-31")
    assert client.post(f"/api/games/{state['id']}/analysis").status_code == 202
    assert analysed(client, state["id"])["status"] == "done"


def test_an_analysis_a_stopped_server_left_is_resumed_on_the_next_request(client):
    state = finished(client)
    store = client.app.state.room.store
    record = store.load(state["id"]).record
    decisions = list(decisions_of(record))
    earlier = [judged(d, hard_hint(d.observation, d.seed), WORLDS) for d in decisions[:2]]
    # As a server process leaves it when it is killed mid-way: two decisions stored, its lease run out.
    assert store.queue_analysis(state["id"], len(decisions), "gone-process", time.time() - 1)
    assert store.save_analysis(state["id"], "gone-process", "running", earlier, time.time() - 1)
    report = analysed(client, state["id"])
    assert report["status"] == "done" and report["done"] == report["total"] == len(decisions)
    assert report["decisions"][:2] == earlier
    assert [d["index"] for d in report["decisions"]] == [d.index for d in decisions]
    assert store.analysis(state["id"]).worker == client.app.state.room.analyst.worker


def test_a_live_lease_is_not_taken_over(client):
    state = finished(client)
    store = client.app.state.room.store
    assert store.queue_analysis(state["id"], 3, "other-process", time.time() + 60)
    assert not store.claim_analysis(state["id"], "me", time.time() + 60, time.time())
    assert client.get(f"/api/games/{state['id']}/analysis").json()["status"] == "queued"  # the other works it
    assert not store.save_analysis(state["id"], "me", "running", [], None)  # nor written over


def searching_with(client: TestClient, fault: Callable[[int], BaseException | None]) -> list[str]:
    """The analyst's search raising ``fault(n)`` at its ``n``-th call (1-based),
    when that is not None; the seeds it was asked for, in order."""
    analyst = client.app.state.room.analyst
    search, seeds = analyst.search, []

    def faulty(obs, seed):
        seeds.append(seed)
        error = fault(len(seeds))
        if error is not None:
            raise error
        return search(obs, seed)

    analyst.search = faulty
    return seeds


def test_a_failure_of_the_machinery_is_retried_by_a_post_from_its_last_decision(client):
    state = finished(client)
    seeds = searching_with(client, lambda n: BrokenProcessPool("a thinking process died") if n == 3 else None)
    assert client.post(f"/api/games/{state['id']}/analysis").status_code == 202
    failed = analysed(client, state["id"])
    assert (failed["status"], failed["done"], failed["attempts"], failed["retry"]) == ("failed", 2, 1, True)
    assert failed["error"] == "BrokenProcessPool: a thinking process died"
    assert client.get(f"/api/games/{state['id']}/analysis").json() == failed  # a reader never retries it
    retried = client.post(f"/api/games/{state['id']}/analysis")
    assert retried.status_code == 202 and retried.json()["attempts"] == 2, retried.text
    report = analysed(client, state["id"])
    assert report["status"] == "done" and report["done"] == report["total"] == len(report["decisions"])
    assert report["decisions"][:2] == failed["decisions"]
    assert len(seeds) == report["total"] + 1 and seeds[3] == seeds[2]  # on from the failed decision
    assert (report["error"], report["attempts"], report["retry"]) == (failed["error"], 2, False)  # kept


def test_a_fault_of_the_record_or_the_search_fails_for_good(client):
    state = finished(client)
    seeds = searching_with(client, lambda n: ValueError("no such card") if n == 2 else None)
    client.post(f"/api/games/{state['id']}/analysis")
    failed = analysed(client, state["id"])
    assert (failed["status"], failed["attempts"], failed["retry"]) == ("failed", 1, False)
    answer = client.post(f"/api/games/{state['id']}/analysis")
    assert answer.status_code == 202 and answer.json()["status"] == "failed" and answer.json()["retry"] is False
    assert analysed(client, state["id"]) == failed and len(seeds) == 2  # not searched again


def test_an_analysis_gets_at_most_max_attempts(client):
    state = finished(client)
    seeds = searching_with(client, lambda n: TimeoutError("the thinking processes did not answer"))
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert client.post(f"/api/games/{state['id']}/analysis").status_code == 202
        failed = analysed(client, state["id"])
        assert (failed["status"], failed["attempts"]) == ("failed", attempt)
        assert failed["retry"] is (attempt < MAX_ATTEMPTS) and len(seeds) == attempt
    assert client.post(f"/api/games/{state['id']}/analysis").json()["status"] == "failed"
    assert analysed(client, state["id"])["attempts"] == MAX_ATTEMPTS and len(seeds) == MAX_ATTEMPTS


# -- play on from here -------------------------------------------------------------------------
def test_play_on_keeps_the_seat_and_the_cards_and_is_never_ranked(client):
    state = finish(client, settle(client, client.post("/api/games", json={"game": "euchre", "level": "easy"}).json()))
    assert client.post(f"/api/games/{state['id']}/play-on", json={"at": 9999}).status_code == 422
    original = client.app.state.room.store.load(state["id"])
    at = 7
    answer = client.post(f"/api/games/{state['id']}/play-on", json={"at": at})
    assert answer.status_code == 201, answer.text
    copy = answer.json()
    assert copy["id"] != state["id"] and copy["daily"] is None and copy["fairness"] is None
    assert copy["copy_of"]["game"] == state["id"] and copy["copy_of"]["at"] == at and copy["level"] == "easy"
    row = client.app.state.room.store.load(copy["id"])
    assert not row.counts_on_leaderboard and row.daily_day is None and row.server_seed is None
    assert row.record["actions"][:at] == original.record["actions"][:at]
    assert deals_of(row.record)[0] == deals_of(original.record)[0]  # the same hands dealt
    kept = replay({**original.record, "actions": original.record["actions"][:at]})
    assert copy["view"]["hand"] == kept.observe(0).to_json()["hand"]
    settle(client, copy)  # the computer players move on in the copy


def test_play_on_needs_the_game_over(client):
    state = settle(client, client.post("/api/games", json={"game": "euchre"}).json())
    assert client.post(f"/api/games/{state['id']}/play-on", json={"at": 0}).status_code == 409


def test_play_on_from_a_pasted_record_and_a_bad_one(client):
    state = finished(client, "double-sar")
    record = client.get(f"/api/games/{state['id']}/record").json()
    answer = client.post("/api/records/play-on", json={"record": {**record, "level": "easy"}, "at": 5})
    assert answer.status_code == 201, answer.text
    assert answer.json()["copy_of"] == {**answer.json()["copy_of"], "game": None, "at": 5}
    assert answer.json()["level"] == "easy"
    odd = client.post("/api/records/play-on", json={"record": {**record, "level": ["hard"]}, "at": 5})
    assert odd.status_code == 201 and odd.json()["level"] == DEFAULT_LEVEL  # not a level: the default
    store, person = client.app.state.room.store, identity_of(client)
    open_before = store.open_games(person)
    bad = dict(record, actions=record["actions"][:3] + ["play ZZ"] + record["actions"][4:])
    refused = client.post("/api/records/play-on", json={"record": bad, "at": 6})
    assert refused.status_code == 422 and "4" in refused.json()["detail"], refused.text
    for wrong in ({"record": {**record, "kind": "deal"}, "at": 1}, {"record": {"game": "chess"}, "at": 0},
                  {"record": record, "at": len(record["actions"])}, {"record": record, "at": -1}):
        assert client.post("/api/records/play-on", json=wrong).status_code == 422, wrong
    assert store.open_games(person) == open_before  # a refused record made no game


def test_a_server_stopped_mid_analysis_leaves_it_to_the_next_one(make_client):
    first = make_client(forced_bot("random"))
    state = finished(first)
    analyst = first.app.state.room.analyst
    gate, searched = threading.Event(), []
    search = analyst.search

    def held_at_the_third(obs, seed):
        searched.append(seed)
        if len(searched) == 3:
            gate.wait(10)
        return search(obs, seed)

    analyst.search = held_at_the_third
    assert first.post(f"/api/games/{state['id']}/analysis").status_code == 202
    deadline = time.monotonic() + 30
    while len(searched) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    stopping = threading.Thread(target=analyst.stop)
    stopping.start()
    gate.set()
    stopping.join(10)
    left = first.app.state.room.store.analysis(state["id"])
    assert left.status == "running" and left.lease_until is None and 2 <= left.done < left.total
    second = make_client(forced_bot("random"))
    second.cookies = first.cookies  # the same person, on the server that comes next
    report = analysed(second, state["id"])
    assert report["status"] == "done" and report["done"] == report["total"] == left.total
    assert report["decisions"][:left.done] == left.decisions


def test_each_decision_is_one_task_of_the_thinking_processes(client, sqlite_url, monkeypatch):
    """With thinking processes, every decision is its own task there (a computer
    player's move waits behind one decision at most), searched by the hint's function."""
    state = finished(client)
    tasks = []
    monkeypatch.setattr(ThinkingPool, "run", lambda self, work, *args, **kw: tasks.append((work, args)) or work(*args))
    store = Store(sqlite_url)
    room = Room(store, bot_factory=forced_bot("random"), think_processes=1)
    try:
        assert room.request_analysis(state["id"], identity_of(client))["status"] in ("queued", "running", "done")
        deadline = time.monotonic() + 60
        while store.analysis(state["id"]).status != "done" and time.monotonic() < deadline:
            time.sleep(0.05)
        decisions = list(decisions_of(store.load(state["id"]).record))
        assert store.analysis(state["id"]).done == len(decisions) == len(tasks)
        assert [(work, args[1]) for work, args in tasks] == [(hard_hint, d.seed) for d in decisions]
    finally:
        room.analyst.stop()
        store.close()
