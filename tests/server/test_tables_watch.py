"""Watching a table by its watch link (only what every seat sees, at most
``MAX_WATCHERS`` streams, no acting) and quick reactions at a table."""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading
import time
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient

from tricktable.catalog import ENTRIES
from tricktable.core.protocol import Deal
from tricktable.core.rng import derive_seed
from tricktable.server import create_app
from tricktable.store import Store
from tricktable.server.http import table_routes
from tricktable.server.live.channel import Event, LocalChannel
from tricktable.server.live.feed import ChangeFeed
from tricktable.server.play import commit
from tricktable.server.play.scheduler import forced_bot
from tricktable.server.play.tables import REACTIONS
from tricktable.server.play.watch import public_view
from tricktable.server.trust.limits import Limits, Rate
from tests.harness import listen
from tests.server.test_api import strings_in
from tests.server.test_tables import (friend_of, join, load, new_table, play_first_legal, start, state_at,
                                      wait_for_people)


@pytest.mark.parametrize("game", ENTRIES, ids=lambda game: game.name)
def test_the_public_view_cannot_tell_any_two_hands_apart(game):
    """The contract suite's leak check, for all four seats at once: swapping
    two seats' hands changes nothing a watcher sees (so no hand, nor any
    card of one, is in it)."""
    spec = game.spec
    options = spec.normalize_options({})
    for index in range(3):
        deal = spec.deal_from_seed(derive_seed("watch", game.name, index), index % 4, options)
        seen = public_view(spec.new_deal(deal, options))
        assert "hand" not in seen and "legal" not in seen and "seat" not in seen
        for a in range(4):
            for b in range(a + 1, 4):
                if len(deal.hands[a]) != len(deal.hands[b]):
                    continue
                hands = list(deal.hands)
                hands[a], hands[b] = hands[b], hands[a]
                swapped = spec.new_deal(Deal(deal.dealer, tuple(hands), deal.rest, None), options)
                assert public_view(swapped) == seen, f"a watcher can tell seats {a} and {b} apart"


def hidden_cards(room, game_id: str, version: int) -> set[str]:
    """The cards in any hand of a Euchre game at ``version`` (the up-card is shown to all)."""
    deal = state_at(room.store.load(game_id).record, version).current
    held = 0
    for hand in deal.hands:
        held |= hand
    held &= ~(1 << deal.up_card)
    return {deal.action_text(card).split()[-1] for card in range(52) if held >> card & 1}


def next_of(inbox: queue.Queue, kind: str, timeout: float = 10.0, **fields) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        _when, got, data = inbox.get(timeout=max(0.01, deadline - time.monotonic()))
        if got == kind and all(data.get(k) == v for k, v in fields.items()):
            return data


def test_a_watcher_sees_no_card_of_any_hand_and_cannot_act(client):
    friend, watcher = friend_of(client), friend_of(client)
    table = new_table(client)
    assert len(table["watch"]) >= 22 and table["watch"] != table["invite"]  # 128 bits, shown once
    assert "watch" not in client.get(f"/api/tables/{table['id']}").json()
    join(friend, table["code"])
    before = watcher.get(f"/api/watch/{table['watch']}")
    assert before.status_code == 200 and before.json()["match"] is None
    assert watcher.get(f"/api/watch/{table['watch']}/events", params={"version": 0}).status_code == 409
    game = start(client, table)
    room = client.app.state.room
    state = wait_for_people(client, game["id"], {0, 1})

    seen = watcher.get(f"/api/watch/{table['watch']}").json()
    assert seen["table"]["game_id"] == game["id"] and [s["person"] for s in seen["table"]["seats"]][:2] == [True, True]
    assert "code" not in seen["table"] and "invite" not in seen["table"]
    match = seen["match"]
    assert match["version"] == state["version"] and "hand" not in match["view"] and "legal" not in match["view"]
    assert 20 < match["deadline_in"] <= 30  # the person to move's turn clock, as the seats see it
    hidden = hidden_cards(room, game["id"], match["version"])
    assert hidden and not hidden & strings_in({k: v for k, v in match["view"].items() if k != "match"})

    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(watcher, game["id"], state["version"], inbox, stop, path=f"/api/watch/{table['watch']}/events")
    try:
        mover = state["view"]["to_move"]
        version = play_first_legal({0: client, 1: friend}[mover], game["id"])
        told = next_of(inbox, "step", version=version)
        assert told["steps"][0]["seat"] == mover and "hand" not in told["view"]
        hidden = hidden_cards(room, game["id"], version)
        assert hidden and not hidden & strings_in({k: v for k, v in told.items() if k != "view"})
        assert not hidden & strings_in({k: v for k, v in told["view"].items() if k != "match"})

        reacted = friend.post(f"/api/tables/{table['id']}/reactions", json={"key": "well_played"})
        assert reacted.status_code == 200 and reacted.json() == {"seat": 1, "key": "well_played"}
        assert next_of(inbox, "reaction") == {"seat": 1, "key": "well_played"}
    finally:
        stop.set()
    # A watcher holds no seat: the game does not exist for him.
    assert watcher.get(f"/api/games/{game['id']}").status_code == 404
    assert watcher.post(f"/api/games/{game['id']}/actions", json={"action": "pass", "version": version}).status_code == 404
    assert watcher.post(f"/api/tables/{table['id']}/reactions", json={"key": "thanks"}).status_code == 404
    assert watcher.get("/api/watch/not-a-real-watch-token-at-all").status_code == 404
    assert watcher.get(f"/api/watch/{table['invite']}").status_code == 404  # the invite is not a watch link


def test_a_reaction_reaches_every_seats_stream_and_an_unknown_one_is_refused(client):
    friend = friend_of(client)
    table = new_table(client)
    join(friend, table["code"])
    assert friend.post(f"/api/tables/{table['id']}/reactions", json={"key": "thanks"}).status_code == 409  # not started
    game = start(client, table)
    state = load(client, game["id"])
    inboxes = {0: queue.Queue(), 1: queue.Queue()}
    stop = threading.Event()
    for seat, person in ((0, client), (1, friend)):
        listen(person, game["id"], state["version"], inboxes[seat], stop)
    try:
        for key in REACTIONS:
            assert client.post(f"/api/tables/{table['id']}/reactions", json={"key": key}).status_code == 200
        for inbox in inboxes.values():
            assert [next_of(inbox, "reaction")["key"] for _ in REACTIONS] == list(REACTIONS)
    finally:
        stop.set()
    for bad in ({"key": "you_lose"}, {"key": 3}, {}):
        assert friend.post(f"/api/tables/{table['id']}/reactions", json=bad).status_code == 422


def test_reactions_are_rate_limited_per_identity(sqlite_url):
    app = create_app(sqlite_url, limits=Limits(reactions_per_identity=Rate(3, 60)), bot_factory=forced_bot("random"))
    with TestClient(app) as host:
        friend = friend_of(host)
        table = new_table(host)
        join(friend, table["code"])
        start(host, table)
        statuses = [host.post(f"/api/tables/{table['id']}/reactions", json={"key": "oops"}).status_code
                    for _ in range(4)]
        assert statuses == [200] * 3 + [429]
        assert friend.post(f"/api/tables/{table['id']}/reactions", json={"key": "sorry"}).status_code == 200
    app.state.room.store.close()


def test_a_table_takes_at_most_so_many_watchers(client, monkeypatch):
    monkeypatch.setattr(table_routes, "MAX_WATCHERS", 2)
    table = new_table(client)
    game = start(client, table)
    stop = threading.Event()
    path = f"/api/watch/{table['watch']}/events"
    try:
        for _ in range(2):
            listen(friend_of(client), game["id"], 0, queue.Queue(), stop, path=path)
        refused = friend_of(client).get(path, params={"version": 0})
        assert refused.status_code == 429 and "2 watchers" in refused.json()["detail"]
    finally:
        stop.set()


def test_a_watcher_is_told_which_step_the_turn_clock_decided(client, monkeypatch):
    """A step the turn clock had a computer player decide is marked ``auto`` on
    the watchers' stream too (their page marks the seat "(auto)", as the seats' pages do)."""
    friend, watcher = friend_of(client), friend_of(client)
    table = new_table(client)
    join(friend, table["code"])
    game = start(client, table)
    state = wait_for_people(client, game["id"], {0, 1})
    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(watcher, game["id"], state["version"], inbox, stop, path=f"/api/watch/{table['watch']}/events")
    try:
        # The referee's clock a minute on: the person to move has run out of time.
        monkeypatch.setattr(commit, "time", SimpleNamespace(time=lambda: time.time() + 60, monotonic=time.monotonic))
        client.app.state.room.resume(game["id"])
        told = next_of(inbox, "step", timeout=20, version=state["version"] + 1)
        monkeypatch.undo()
        assert told["steps"][0]["seat"] == state["view"]["to_move"] and told["steps"][0]["auto"] is True
        mover = told["view"]["to_move"]
        if mover in (0, 1):  # a person's own decision is not marked
            version = play_first_legal({0: client, 1: friend}[mover], game["id"])
            assert "auto" not in next_of(inbox, "step", version=version)["steps"][0]
    finally:
        stop.set()


def test_the_cap_on_watchers_counts_every_server_process(two_processes, monkeypatch):
    """Two processes on one database: watchers on either count against one cap."""
    monkeypatch.setattr(table_routes, "MAX_WATCHERS", 2)
    here, there = two_processes
    table = new_table(here)
    game = start(here, table)
    stop = threading.Event()
    path = f"/api/watch/{table['watch']}/events"
    try:
        listen(TestClient(here.app), game["id"], 0, queue.Queue(), stop, path=path)
        listen(TestClient(there.app), game["id"], 0, queue.Queue(), stop, path=path)
        for process in (here, there):
            refused = TestClient(process.app).get(path, params={"version": 0})
            assert refused.status_code == 429 and "2 watchers" in refused.json()["detail"]
    finally:
        stop.set()


def test_a_watchers_lease_is_given_back_or_lapses(database_url):
    """On both databases: a place given back, or not renewed in time (its
    process killed), is free again; a renewed one holds."""
    store = Store(database_url)
    try:
        store.create_table("t", "AAAAAA", "h1", "euchre", {}, "easy", "host", ("host", None, None, None), None, "w1")
        now = 1_000_000.0
        assert store.admit_watcher("t", "a", 2, now, now + 90) and store.admit_watcher("t", "b", 2, now, now + 90)
        assert not store.admit_watcher("t", "c", 2, now, now + 90)
        assert store.admit_watcher("other", "x", 2, now, now + 90)  # another table's cap is its own
        store.drop_watcher("a")
        assert store.admit_watcher("t", "c", 2, now, now + 90)
        store.renew_watcher("b", now + 200)
        later = now + 100  # c lapsed (not renewed), b renewed
        assert store.admit_watcher("t", "d", 2, later, later + 90)
        assert not store.admit_watcher("t", "e", 2, later, later + 90)
    finally:
        store.close()


def test_a_reaction_reaches_the_streams_on_another_server_process(two_processes):
    """The host reacts through one process; his friend's stream is on another."""
    here, there = two_processes
    friend = TestClient(there.app)
    table = new_table(here)
    join(friend, table["code"])
    game = start(here, table)
    state = wait_for_people(here, game["id"], {0, 1})
    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(friend, game["id"], state["version"], inbox, stop)
    try:
        assert here.post(f"/api/tables/{table['id']}/reactions", json={"key": "oops"}).status_code == 200
        assert next_of(inbox, "reaction") == {"seat": 0, "key": "oops"}
    finally:
        stop.set()


def test_the_change_feed_tells_reactions_stored_by_another_process(database_url):
    """On both databases (SQLite's poll, PostgreSQL's NOTIFY): another
    process's reaction is published here once; this process's own is not
    told again (it told its streams itself), nor one of a game not watched here."""
    sender, here = Store(database_url), Store(database_url)
    channel = LocalChannel()
    feed = ChangeFeed(here, channel)

    async def heard() -> list[Event]:
        subscription = channel.subscribe("g", 2)
        feed.start()
        await asyncio.sleep(0.3)  # the feed listens (PostgreSQL) or has read where to start (SQLite)
        sender.add_reaction("g", 1, "thanks", time.time())
        here.add_reaction("g", 2, "sorry", time.time())  # told by this process itself, not by the feed
        sender.add_reaction("other", 3, "oops", time.time())  # a game nobody here watches
        got = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            event = await subscription.next(0.2)
            if event is not None:
                got.append(event)
        return got

    try:
        # On a thread of its own: a browser test before may have left this thread's event loop running.
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            got = thread.submit(asyncio.run, heard()).result()
        assert [(e.kind, e.data) for e in got] == [("reaction", {"seat": 1, "key": "thanks"})]
    finally:
        feed.stop()
        sender.close()
        here.close()
