"""Step frames across server processes: the process that commits
a step stores the event its own streams would send, and a stream of the game
on another process is sent those bytes, without reading the record or
building the step's views again; where the frames are gone it reads the
record as before.  The person's action is committed without a read where the
process holds the game at the version the person sent, and refused (409,
nothing changed) if another process moved the game on meanwhile.  Two rooms
with their own stores on one database stand for two server processes."""

from __future__ import annotations

import asyncio
import queue
import threading
import time

import orjson
import pytest
from sqlalchemy import delete, func, select

from tricktable.catalog import replay
from tricktable.server.live import feed
from tricktable.server.live.channel import Event
from tricktable.server.play.view import HUMAN
from tricktable.server.play.room import Room
from tricktable.server.play.scheduler import forced_bot
from tricktable.server.live.sse import event_stream
from tests.harness import frame_view
from tricktable.store import StaleVersion, Store
from tricktable.store import games as store_games

from tests.server.test_referee import random_action, wait_for_the_person
from tests.server.test_store_actions import RECORD, alembic_to

PERSON = "person"  # the identity that owns the games these tests make through the room


class Listener:
    """A stream of the game on ``room``, as the app runs it (``event_stream``
    on its own event loop, in a thread, asking ``room.refresh`` where it
    misses something), from version ``seen``: the messages it sends, as
    (kind, version, data bytes)."""

    def __init__(self, room: Room, game_id: str, seen: int):
        self.sent: "queue.Queue[tuple[str, int, bytes]]" = queue.Queue()
        ready = threading.Event()

        async def refresh(version: int) -> list[Event]:
            return await asyncio.to_thread(room.refresh, game_id, version)

        async def read() -> None:
            messages = event_stream(room.channel.subscribe(game_id), [], seen, refresh, poll=0.05)
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
            ready.set()
            try:
                async for chunk in messages:
                    for message in chunk.split(b"\n\n"):
                        lines = dict(line.split(b": ", 1) for line in message.split(b"\n") if b": " in line)
                        if b"data" in lines:
                            self.sent.put((lines[b"event"].decode(), int(lines[b"id"]), lines[b"data"]))
            except asyncio.CancelledError:
                pass  # stopped (``stop``): a quiet stream sends nothing to stop at
            finally:
                await messages.aclose()

        self._thread = threading.Thread(target=asyncio.run, args=(read(),), daemon=True)
        self._thread.start()
        assert ready.wait(5)

    def until_persons_turn(self, timeout: float = 15) -> list[tuple[str, int, bytes]]:
        """The messages up to the step after which the person is to move (or the match is over)."""
        out = []
        deadline = time.monotonic() + timeout
        while True:
            message = self.sent.get(timeout=max(0.01, deadline - time.monotonic()))
            out.append(message)
            if message[0] == "step" and orjson.loads(message[2])["thinking"] is None:
                return out

    def stop(self) -> None:
        """End the stream now, before its room's store closes (its quiet looks read the database)."""
        self._loop.call_soon_threadsafe(self._task.cancel)
        self._thread.join(5)
        assert not self._thread.is_alive(), "the stream did not stop"


def counted(monkeypatch, target: object, name: str) -> list:
    """Calls of ``target.name`` from now on."""
    calls: list = []
    original = getattr(target, name)
    monkeypatch.setattr(target, name, lambda *args, **kwargs: calls.append(args) or original(*args, **kwargs))
    return calls


def person_view_at(record: dict, version: int) -> dict:
    """The person's whole view of the stored game at ``version``, replayed from its record."""
    base = record["version_base"]
    actions = record["actions"][:base["actions"] + version - base["version"]]
    return replay(dict(record, actions=actions)).view(HUMAN)


def a_persons_turn_before_the_computer_players(room: Room, game_id: str) -> dict:
    """The game (random actions of the person, the bots' own) until the person
    is to move and a computer player will move after her chosen action."""
    for _ in range(60):
        state = wait_for_the_person(room, game_id)
        assert not state["view"]["terminal"]
        probe = room.referee.load(game_id)
        assert probe is not None
        probe.state.act(HUMAN, state["view"]["legal"][0])
        if probe.state.to_move not in (HUMAN, -1):
            return state
        room.act(game_id, state["version"], state["view"]["legal"][0], PERSON)
        room.resume(game_id)
    raise AssertionError("no computer player moved after the person")


def test_a_stream_on_another_process_is_sent_the_committed_steps_frames_without_reading_the_record(
        database_url, monkeypatch):
    stores = [Store(database_url), Store(database_url)]
    here, there = (Room(store, bot_factory=forced_bot("random")) for store in stores)
    listener = None
    try:
        here.start()
        there.start()
        game_id = here.new_game("euchre", {}, seed="frames", owner=PERSON)["id"]
        here.resume(game_id)
        state = a_persons_turn_before_the_computer_players(here, game_id)
        published: list[Event] = []
        publish = here.channel.publish
        monkeypatch.setattr(here.channel, "publish", lambda event: published.append(event) or publish(event))
        listener = Listener(there, game_id, state["version"])  # the game's stream, on the other process
        time.sleep(3 * feed.POLL_SECONDS)  # (its change feed knows the game's version before it moves on)
        loads, catch_ups = counted(monkeypatch, there.store, "load"), counted(monkeypatch, there, "catch_up")
        answer = here.act(game_id, state["version"], state["view"]["legal"][0], PERSON)
        here.resume(game_id)
        steps = listener.until_persons_turn()
        assert [(kind, version) for kind, version, _data in steps] == [
            ("step", version) for version in range(answer["version"], steps[-1][1] + 1)]
        assert len(steps) > 1  # the person's step and the computer players' after it
        # The bytes the committing process published for its own streams, sent as they are:
        # nothing read from the record, no view built again.
        mine = {event.version: event.json for event in published if event.kind == "step"}
        assert [data for _kind, _version, data in steps] == [mine[version] for _kind, version, _data in steps]
        assert loads == [] and catch_ups == []
        # Each is the person's view of that version and nothing more (no other seat's hand).
        record = stores[0].load(game_id).record
        for _kind, version, data in steps:
            view = orjson.loads(data)["view"]
            assert view["seat"] == HUMAN
            assert frame_view(view) == frame_view(person_view_at(record, version))
    finally:
        if listener is not None:
            listener.stop()
        here.stop()
        there.stop()
        for store in stores:
            store.close()


def stored_frames(store: Store) -> int:
    with store.engine.begin() as db:
        return int(db.execute(select(func.count()).select_from(store_games.frames)).scalar_one())


def test_without_its_frames_a_stream_on_another_process_reads_the_record_and_is_told_the_same(database_url,
                                                                                                  monkeypatch):
    """``Room.refresh`` (what a stream asks after a gap, a ``changed`` event or
    a quiet second) forwards the frames where they are all there; pruned, or
    never stored (the committing process had a stream of the game itself, or
    was a server from before frames), it tells the steps from the record:
    the same versions and the same person's views."""
    store, other = Store(database_url), Store(database_url)
    try:
        here, there = Room(store), Room(other)
        game_id = here.new_game("euchre", {}, seed="pruned", owner=PERSON)["id"]
        start = store.load(game_id).version
        for _ in range(5):  # every seat's actions, committed by ``here`` (no stream of the game there)
            position = here.referee.load(game_id)
            here.referee.play(position, *random_action(position.state))
        assert stored_frames(store) == 5
        loads = counted(monkeypatch, other, "load")
        forwarded = there.refresh(game_id, start)
        assert loads == [] and [event.version for event in forwarded] == list(range(start + 1, start + 6))
        monkeypatch.undo()

        with store.engine.begin() as db:  # one of them pruned: all are told from the record
            db.execute(delete(store_games.frames).where(store_games.frames.c.version == start + 3))
        loads = counted(monkeypatch, other, "load")
        told = Room(other).refresh(game_id, start)
        assert loads != []
        assert [event.version for event in told] == [event.version for event in forwarded]
        for mine, theirs in zip(forwarded, told):
            assert [mine.data[key] for key in ("steps", "view", "thinking", "version")] == [
                theirs.data[key] for key in ("steps", "view", "thinking", "version")]
        monkeypatch.undo()

        monkeypatch.setattr(here.channel, "listeners", lambda _game_id: 1)  # a stream of the game here
        position = here.referee.load(game_id)
        here.referee.play(position, *random_action(position.state))
        assert stored_frames(store) == 4  # nothing stored for it
        assert [event.version for event in there.refresh(game_id, start + 5)] == [start + 6]  # from the record
    finally:
        store.close()
        other.close()


def test_old_frames_are_deleted_by_a_later_commit_that_stores_frames(sqlite_url, monkeypatch):
    store = Store(sqlite_url)
    try:
        row = store.create_game(RECORD, "open")
        row = store.save(row, dict(row.record, actions=["pass"]), "open", frames=[(2, b'{"old": 1}')])
        assert store.frames({row.id: (1, 2)}) == {row.id: [(2, b'{"old": 1}')]}
        later = time.time() + store_games.FRAMES_KEPT_SECONDS + 1
        monkeypatch.setattr(store_games.time, "time", lambda: later)
        monkeypatch.setattr(store_games.time, "monotonic", lambda: later)
        row = store.save(row, dict(row.record, actions=["pass", "pass"]), "open", frames=[(3, b'{"new": 1}')])
        assert store.frames({row.id: (1, 3)}) == {}  # version 2's is gone: not all there
        assert store.frames({row.id: (2, 3)}) == {row.id: [(3, b'{"new": 1}')]}
    finally:
        store.close()


def test_the_frames_table_comes_and_goes_with_its_migration(database_url):
    Store(database_url).close()
    alembic_to(database_url, "0004", down=True)
    store = Store(database_url)  # upgraded again at its start
    try:
        row = store.create_game(RECORD, "open")
        store.save(row, dict(row.record, actions=["pass"]), "open", frames=[(2, b"{}")])
        assert stored_frames(store) == 1
    finally:
        store.close()


def test_the_persons_action_is_committed_without_a_read_and_refused_if_another_process_moved_on(database_url,
                                                                                                   monkeypatch):
    store, other = Store(database_url), Store(database_url)
    try:
        here, there = Room(store), Room(other)
        game_id = here.new_game("euchre", {}, seed="no read", owner=PERSON)["id"]
        for _ in range(40):
            position = here.referee.load(game_id)
            if position.state.to_move == HUMAN:
                break
            here.referee.play(position, *random_action(position.state))
        else:
            raise AssertionError("the person never came to move")
        version, legal = position.row.version, position.state.clone()
        loads = counted(monkeypatch, store, "load")
        here.act(game_id, version, random_action(legal)[1], PERSON)  # this process holds the game at that version
        assert loads == []
        monkeypatch.undo()

        position = here.referee.load(game_id)
        version = position.row.version
        while position.state.to_move != HUMAN:  # to the person's turn again, still in this process's cache
            position, _step = here.referee.play(position, *random_action(position.state))
            version = position.row.version
        moved = there.referee.load(game_id)  # another process commits the person's action first
        there.referee.play(moved, *random_action(moved.state))
        before = store.load(game_id)
        loads = counted(monkeypatch, store, "load")
        with pytest.raises(StaleVersion):
            here.act(game_id, version, random_action(position.state)[1], PERSON)
        assert loads == []  # refused by the commit's version check, not by a read
        after = store.load(game_id)
        assert (after.version, after.record) == (before.version, before.record) == (version + 1, before.record)
    finally:
        store.close()
        other.close()
