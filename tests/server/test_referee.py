"""The referee's per-process state cache: a shortcut that never changes an
answer (no full replay of the record on every commit)."""

from __future__ import annotations

import random
import time

from sqlalchemy import update

from tricktable.catalog import replay
from tricktable.server.play import commit as referee
from tricktable.server.play.commit import Referee
from tricktable.server.play.room import step_event
from tricktable.server.play.view import HUMAN
from tricktable.server.play.room import Room
from tricktable.store import Store
from tricktable.store.schema import games

PERSON = "person"  # the identity that owns the games these tests make through the room


def random_action(state) -> tuple[int, str]:
    seat = state.to_move
    return seat, random.Random(len(state.legal_actions())).choice([state.action_text(a) for a in state.legal_actions()])


def moves_elsewhere(elsewhere: Referee, game_id: str, times: int) -> None:
    """Another process (its own referee) plays ``times`` random actions, every seat's."""
    for _ in range(times):
        moved = elsewhere.load(game_id)
        assert moved is not None
        elsewhere.play(moved, *random_action(moved.state))


def counted_replays(monkeypatch) -> list:
    """The records the referee replays from now on (a shortcut must replay none)."""
    replays: list = []
    monkeypatch.setattr(referee, "replay", lambda record: replays.append(record) or replay(record))
    return replays


def test_a_cache_behind_the_database_is_brought_forward_to_exactly_the_replayed_state(sqlite_url, monkeypatch):
    """Two referees on one database stand for two server processes: what one
    commits, the other's older cached state catches up on by applying only the
    new record entries, and it equals a full replay of the record."""
    store = Store(sqlite_url)
    try:
        room = Room(store)
        game_id = room.new_game("doppelkopf", {}, seed="cache", owner=PERSON)["id"]
        here, elsewhere = Referee(store, step_event), Referee(store, step_event)
        position = here.load(game_id)
        assert position is not None
        behind = position.row.version
        moves_elsewhere(elsewhere, game_id, 9)  # every seat, also the person's
        replays = counted_replays(monkeypatch)
        caught_up = here.load(game_id)
        assert replays == []  # brought forward, not replayed
        assert caught_up is not None and caught_up.row.version == behind + 9
        replayed = replay(caught_up.row.record)
        assert caught_up.state.view(HUMAN) == replayed.view(HUMAN)
        assert caught_up.state.legal_actions() == replayed.legal_actions()
        assert [caught_up.state.observe(seat) for seat in range(4)] == [replayed.observe(seat) for seat in range(4)]
    finally:
        store.close()


def a_euchre_game(store: Store, seed: str) -> tuple[Room, str, Referee]:
    """A room, a new Euchre game in it and a referee of its own on the same store."""
    room = Room(store)
    return room, room.new_game("euchre", {}, seed=seed, owner=PERSON)["id"], Referee(store, step_event)


def test_the_view_kept_with_a_commit_is_the_view_of_the_stored_version(sqlite_url):
    store = Store(sqlite_url)
    try:
        _room, game_id, referee = a_euchre_game(store, "views")
        for _ in range(12):
            position = referee.load(game_id)
            assert position is not None
            committed, _step = referee.play(position, *random_action(position.state))
            assert committed.view == replay(committed.row.record).view(HUMAN)
            again = referee.load(game_id)
            assert again is not None and again.view == committed.view
    finally:
        store.close()


def test_a_lapsed_lease_on_the_persons_turn_is_dropped_not_taken_over_forever(sqlite_url):
    """A process that died after the computer players' last action left its
    lease behind; the next look at the game drops it (the person is to move,
    there is nothing to take over), so the sweeper stops finding it."""
    from tricktable.server.play.scheduler import forced_bot

    store = Store(sqlite_url)
    room = Room(store, bot_factory=forced_bot("random"))
    try:
        game_id = room.new_game("euchre", {}, seed="lapsed", owner=PERSON)["id"]
        room.start()
        room.resume(game_id)
        deadline = time.monotonic() + 120  # generous: a loaded machine, not a timing target
        while room.load(game_id, PERSON)["thinking"] is not None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        row = store.load(game_id)
        assert row is not None
        # Already run out.  (Not checked with ``lapsed_turns`` here: the room's
        # sweeper may find and drop it first, which is what the test waits for.)
        assert store.claim_turn(game_id, row.version, "a process that died", -1.0)
        room.resume(game_id)
        while store.lapsed_turns():
            assert time.monotonic() < deadline, "the lapsed lease was never dropped"
            time.sleep(0.05)
        assert store.load(game_id).version == row.version  # nothing else changed
    finally:
        room.stop()
        store.close()


def test_the_history_told_from_the_cached_state_is_the_one_told_from_the_record(sqlite_url, monkeypatch):
    """A stream on another process asks for the steps after the version it
    has: told from that version's cached state (no replay) they are exactly
    what a replay of the record tells, and the newest state is kept."""
    store = Store(sqlite_url)
    try:
        room = Room(store)
        game_id = room.new_game("double-sar", {}, seed="history", owner=PERSON)["id"]
        here, elsewhere = Referee(store, step_event), Referee(store, step_event)
        seen = here.load(game_id)
        assert seen is not None
        moves_elsewhere(elsewhere, game_id, 7)
        row = store.load(game_id)
        assert row is not None
        def tell(position, step, number):
            return number, position.person_view(), step

        from_record = Referee(store, step_event).history(row, seen.row.version, tell)
        replays = counted_replays(monkeypatch)
        from_cache = here.history(row, seen.row.version, tell)
        assert replays == []
        assert from_record is not None and from_cache is not None and len(from_cache[0]) == 7
        assert from_cache[0] == from_record[0]
        assert from_cache[1].view == from_record[1].view == replay(row.record).view(HUMAN)
        kept = here.cache.at(game_id, row.version)
        assert kept is not None and kept[0].view(HUMAN) == replay(row.record).view(HUMAN) == kept[1]
    finally:
        store.close()


def wait_for_the_person(room: Room, game_id: str) -> dict:
    deadline = time.monotonic() + 30
    while True:
        state = room.load(game_id, PERSON)
        if state["thinking"] is None:
            return state
        assert time.monotonic() < deadline, "the computer players did not finish their turn"
        time.sleep(0.01)


def test_the_persons_commit_hands_the_computer_players_turn_to_its_process_in_the_same_write(sqlite_url, monkeypatch):
    """One write less per action: where a computer player moves
    after the person, the person's commit takes the turn's lease for the
    process that committed it, so its scheduler starts without a claim."""
    from tricktable.server.play.scheduler import forced_bot

    store = Store(sqlite_url)
    room = Room(store, bot_factory=forced_bot("random"))
    try:
        leases, claims = [], []
        save, claim = store.save, store.claim_turn
        monkeypatch.setattr(store, "save", lambda row, *a, **k: leases.append(k.get("lease")) or save(row, *a, **k))
        monkeypatch.setattr(store, "claim_turn", lambda *a, **k: claims.append(a) or claim(*a, **k))
        room.start()
        game_id = room.new_game("euchre", {}, seed="lease", owner=PERSON)["id"]
        room.resume(game_id)
        for _ in range(6):
            state = wait_for_the_person(room, game_id)
            if state["view"]["terminal"]:
                break
            del leases[:], claims[:]
            answer = room.act(game_id, state["version"], state["view"]["legal"][0], PERSON)
            room.resume(game_id)
            if answer["thinking"] is None:
                continue
            wait_for_the_person(room, game_id)
            assert leases[0] is not None and leases[0][0] == room.scheduler.owner  # the person's commit
            assert leases[0][1] > time.time()
            assert claims == []  # the bots started without a claim of their own
            assert leases[-1] == (None, None)  # the last bot's commit gave the turn back
            row = store.load(game_id)
            assert row is not None and row.lease_until is None
            break
        else:
            raise AssertionError("no computer player moved after the person")
    finally:
        room.stop()
        store.close()


def test_a_room_whose_computer_players_do_not_run_takes_no_lease_with_the_persons_commit(sqlite_url):
    """(Nobody here would work the turn: it must stay free for the processes
    whose computer players run.)"""
    store = Store(sqlite_url)
    try:
        room, game_id, referee = a_euchre_game(store, "no lease")
        for _ in range(40):
            position = referee.load(game_id)
            assert position is not None
            if position.state.to_move == HUMAN:
                room.act(game_id, position.row.version, random_action(position.state)[1], PERSON)
                row = store.load(game_id)
                assert row is not None and row.lease_until is None
                return
            referee.play(position, *random_action(position.state))
        raise AssertionError("the person never came to move")
    finally:
        store.close()


def test_a_finished_game_leaves_the_cache_and_its_last_steps_are_told_without_a_replay(sqlite_url, monkeypatch):
    """The cache holds the games being played (memory stays flat however many
    have been played); a stream on another process that sees a game end is
    told its last steps from the cached state before them, with no replay."""
    store = Store(sqlite_url)
    try:
        room = Room(store)
        game_id = room.new_game("euchre", {}, seed="finish", owner=PERSON)["id"]
        here = Room(store)  # the other process, with a stream on the game
        elsewhere = room.referee
        while True:  # play until a few actions before the end, seen by ``here`` at each step
            position = elsewhere.load(game_id)
            assert position is not None
            probe = position.state.clone()
            for _ in range(3):
                if not probe.is_terminal():
                    probe.apply(probe.legal_actions()[0])
            if probe.is_terminal():
                break
            elsewhere.play(position, *random_action(position.state))
        seen = here.referee.load(game_id)
        assert seen is not None
        while not position.state.is_terminal():
            position, _step = elsewhere.play(position, position.state.to_move,
                                             position.state.action_text(position.state.legal_actions()[0]))
        assert elsewhere.cache.at(game_id, position.row.version) is None  # finished: let go
        replays = counted_replays(monkeypatch)
        events = here.catch_up(game_id, seen.row.version, PERSON)
        assert replays == []
        assert [event.version for event in events] == list(range(seen.row.version + 1, position.row.version + 1))
        assert events[-1].data["view"] == replay(position.row.record).view(HUMAN)
        assert here.referee.cache.at(game_id, position.row.version) is None
    finally:
        store.close()


def a_computer_players_turn(referee: Referee, game_id: str):
    """The game played on (random actions, every seat's) until a computer
    player is to move right after the person: its position then."""
    while True:
        position = referee.load(game_id)
        assert position is not None and not position.state.is_terminal()
        person_moves = position.state.to_move == HUMAN
        referee.play(position, *random_action(position.state))
        after = referee.load(game_id)
        assert after is not None
        if person_moves and after.state.to_move not in (HUMAN, -1) and not after.state.is_terminal():
            return after


def test_an_instant_computer_players_run_is_one_write_of_one_version_per_action_told_as_history_tells_it(
        sqlite_url, monkeypatch):
    """Instant players' actions after the person's are committed together
    (two writes per person action instead of four): each is still
    its own version, decided with that version's seed (as one at a time),
    and each step is told as a stream that reads the record later tells it."""
    from tricktable.bots import make_bot
    from tricktable.server.play.scheduler import decision_seed, forced_bot, observation

    store = Store(sqlite_url)
    try:
        room = Room(store, bot_factory=forced_bot("random"))
        game_id = room.new_game("euchre", {}, seed="run", owner=PERSON)["id"]
        position = a_computer_players_turn(room.referee, game_id)
        start = position.row.version
        expected, probe = [], position.state.clone()  # the same players deciding one version at a time
        while probe.to_move not in (HUMAN, -1) and not probe.is_terminal():
            seat = probe.to_move
            text = make_bot("random", seed=decision_seed(position.row, seat, start + len(expected))).choose(
                observation(probe, seat))
            expected.append(probe.action_text(probe.parse_action(text)))
            probe.act(seat, text)
        saves: list = []
        save = store.save
        monkeypatch.setattr(store, "save", lambda row, *a, **k: saves.append(k) or save(row, *a, **k))
        committed, _last, told = room.referee.play_run(position, room.scheduler._choose_at_once(position.row),
                                                      ("here", 15.0))
        assert len(saves) == 1 and saves[0]["versions"] == len(expected) >= 1
        assert committed.row.version == start + len(expected)
        assert committed.row.record["actions"][-len(expected):] == expected
        assert committed.state.to_move in (HUMAN, -1) or committed.state.is_terminal()
        assert committed.view == replay(committed.row.record).view(HUMAN)
        live = [*told, committed.event]
        elsewhere = Room(store)  # another process's stream, told from the record
        history = [event for event in elsewhere.catch_up(game_id, start, PERSON) if event.kind == "step"]
        assert [event.version for event in live] == [event.version for event in history] == list(
            range(start + 1, committed.row.version + 1))
        for mine, theirs in zip(live, history):
            assert [mine.data[key] for key in ("steps", "view", "thinking", "version")] == [
                theirs.data[key] for key in ("steps", "view", "thinking", "version")]
        assert all(event.data["steps"][0]["seat"] != HUMAN for event in live)
    finally:
        store.close()


def test_a_run_that_finds_the_game_moved_on_publishes_nothing_and_stores_nothing(sqlite_url, monkeypatch):
    """Nothing is told before it is committed: a run whose write finds
    another version (the person's action landed first) is discarded whole."""
    from tricktable.server.play.scheduler import forced_bot
    from tricktable.store import StaleVersion

    store = Store(sqlite_url)
    try:
        room = Room(store, bot_factory=forced_bot("random"))
        game_id = room.new_game("euchre", {}, seed="stale run", owner=PERSON)["id"]
        position = a_computer_players_turn(room.referee, game_id)
        published: list = []
        monkeypatch.setattr(room.channel, "publish", published.append)

        def moved_on(*_args, **_kwargs):  # another writer's version lands first
            with store.engine.begin() as db:
                db.execute(update(games).where(games.c.id == game_id).values(version=games.c.version + 1))
            raise StaleVersion("the person acted first")

        monkeypatch.setattr(store, "save", moved_on)
        piece = room.scheduler._turn(game_id, position)
        assert piece.position is None and piece.more  # look at the game again
        assert published == []
        row = store.load(game_id)
        assert row is not None and row.version == position.row.version + 1 and row.record == position.row.record
    finally:
        store.close()


def test_a_run_claims_the_turn_in_its_write_and_never_over_another_processs_lease(sqlite_url):
    """An instant players' run takes no lease before it: its write claims the
    turn (free, lapsed or its own), and is refused while another process holds it."""
    from tricktable.server.play.scheduler import forced_bot
    from tricktable.store import StaleVersion

    store = Store(sqlite_url)
    try:
        room = Room(store, bot_factory=forced_bot("random"))
        game_id = room.new_game("euchre", {}, seed="claiming run", owner=PERSON)["id"]
        position = a_computer_players_turn(room.referee, game_id)
        assert store.claim_turn(game_id, position.row.version, "another process", 15.0)
        choose = room.scheduler._choose_at_once(position.row)
        try:
            room.referee.play_run(room.referee.load(game_id), choose, ("here", 15.0))
            raise AssertionError("a run committed over another process's lease")
        except StaleVersion:
            pass
        row = store.load(game_id)
        assert row is not None and row.version == position.row.version
        assert store.release_turn(game_id, "another process")
        committed, _last, _told = room.referee.play_run(room.referee.load(game_id), choose, ("here", 15.0))
        assert committed.row.version > position.row.version
    finally:
        store.close()


def test_a_run_refused_by_another_processs_lease_stops_and_forgets_its_own(sqlite_url):
    """This process thought it held the turn, but its lease ran out and
    another process took it: the run's write is refused, and the scheduler
    lets the game go (it does not try again and again)."""
    from tricktable.server.play.scheduler import forced_bot

    store = Store(sqlite_url)
    try:
        room = Room(store, bot_factory=forced_bot("random"))
        game_id = room.new_game("euchre", {}, seed="lost lease", owner=PERSON)["id"]
        position = a_computer_players_turn(room.referee, game_id)
        room.scheduler._leases.add(game_id)  # as after a commit of ours that held the turn
        assert store.claim_turn(game_id, position.row.version, "another process", 15.0)
        piece = room.scheduler._turn(game_id, room.referee.load(game_id))
        assert piece.position is None and not piece.more
        assert not room.scheduler._holds(game_id)
        row = store.load(game_id)
        assert row is not None and row.version == position.row.version
    finally:
        store.close()


def test_the_deadline_read_from_the_persons_view_is_the_observed_one():
    """A commit reads the person's timed decision from the view it has
    (``deadline_of(state, view=view)``): the same seconds as from his observation,
    and none where no timed decision is his."""
    from tricktable.catalog import get_spec
    from tricktable.server.play.view import person_view

    spec = get_spec("single-sar")
    for first_game, seconds in ((False, 20), (True, 10)):
        options = spec.normalize_options({"first_game": first_game})
        state = next(m for m in (spec.new_match(f"deadline {n}", options) for n in range(40))
                     if m.to_move == HUMAN and m.referee_actions())
        observed, viewed = referee.deadline_of(state), referee.deadline_of(state, view=person_view(state))
        assert observed is not None and viewed is not None
        assert abs(observed - time.time() - seconds) < 1 and abs(viewed - time.time() - seconds) < 1
        state.apply(state.legal_actions()[0])  # his call or pass: no timed decision of his now
        assert referee.deadline_of(state, view=person_view(state)) is None is referee.deadline_of(state)
