"""A game's actions stored append-only (migration 0004), on SQLite and
PostgreSQL: a commit sends only the actions it adds, a read still gives the
whole record, a reader holding the record at the stored version is not sent
it again, and databases from before are converted both ways."""

from __future__ import annotations

import json

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import column, create_engine, insert, select, table

from tricktable.catalog import replay
from tricktable.store import StaleVersion, Store
from tricktable.store import engine as store_engine
from tricktable.store import games as store_games

from tests.server.test_migrations import played_record

RECORD = {"format": 1, "game": "euchre", "rules_version": "euchre-1", "options": {}, "kind": "match",
          "seed": "s", "daily": False, "actions": [], "level": "hard"}


def sent_by_commits(monkeypatch, store: Store, row, commits: int) -> list[int]:
    """The characters of the values each commit hands to the database
    driver, one action per commit."""
    sizes: list[int] = []
    run = store_engine.RawTransaction.run

    def measured(self, statement, values):
        if statement in (store_games.SAVE_GAME, store_games.SAVE_GAME_AND_LEASE, store_games.SAVE_GAME_CLAIMING):
            sizes.append(sum(len(str(value)) for value in values.values()))
        return run(self, statement, values)

    monkeypatch.setattr(store_engine.RawTransaction, "run", measured)
    for number in range(commits):
        row = store.save(row, dict(row.record, actions=[*row.record["actions"], f"play {number % 10}H"]), "open")
    monkeypatch.undo()
    return sizes


def test_a_commit_sends_what_it_adds_not_the_whole_record(database_url, monkeypatch):
    store = Store(database_url)
    try:
        short = store.create_game(RECORD, "open")
        long = store.create_game(dict(RECORD, actions=["play 9H"] * 2000), "open")
        early, late = sent_by_commits(monkeypatch, store, short, 3), sent_by_commits(monkeypatch, store, long, 3)
        # (the same but for the separating comma; the whole record would be ~20,000 characters more)
        assert max(late) <= max(early) + 1
        assert store.load(long.id).record["actions"] == ["play 9H"] * 2000 + ["play 0H", "play 1H", "play 2H"]
        assert store.load(short.id).record["actions"] == ["play 0H", "play 1H", "play 2H"]
    finally:
        store.close()


def test_appended_actions_read_back_as_the_whole_record_in_its_key_order(database_url):
    store = Store(database_url)
    try:
        row = store.create_game(dict(RECORD, actions=['2: say "re"', "play ♣Q"]), "open")
        row = store.save(row, dict(row.record, actions=[*row.record["actions"], "pass", "pass"]), "open", versions=2)
        row = store.save(row, dict(row.record, actions=[*row.record["actions"], "alone"]), "open")
        loaded = store.load(row.id)
        assert loaded.record == row.record and list(loaded.record) == list(RECORD)
        assert loaded.record["actions"] == ['2: say "re"', "play ♣Q", "pass", "pass", "alone"]
        assert loaded.version == 4
    finally:
        store.close()


def test_a_stale_append_changes_nothing(database_url):
    store = Store(database_url)
    try:
        row = store.create_game(RECORD, "open")
        store.save(row, dict(RECORD, actions=["pass"]), "open")
        with pytest.raises(StaleVersion):
            store.save(row, dict(RECORD, actions=["order up"]), "open")
        assert store.load(row.id).record["actions"] == ["pass"]
    finally:
        store.close()


def test_a_commit_may_only_append(database_url):
    store = Store(database_url)
    try:
        row = store.save(store.create_game(RECORD, "open"), dict(RECORD, actions=["pass"]), "open")
        with pytest.raises(ValueError):
            store.save(row, dict(RECORD, actions=["order up", "pass"]), "open")
        assert store.load(row.id).record["actions"] == ["pass"] and store.load(row.id).version == 2
    finally:
        store.close()


def test_a_changed_head_is_written_with_the_actions(database_url):
    """Records stored before one action per version get their ``version_base``
    at their next commit (the referee's rule): the rest of the record may change too."""
    store = Store(database_url)
    try:
        row = store.create_game(dict(RECORD, actions=["pass"]), "open")
        based = dict(row.record, actions=["pass", "pass"], version_base={"version": 1, "actions": 1})
        store.save(row, based, "open")
        assert store.load(row.id).record == based
    finally:
        store.close()


def test_a_reader_holding_the_record_at_the_stored_version_is_not_sent_it(database_url):
    store = Store(database_url)
    try:
        row = store.save(store.create_game(RECORD, "open"), dict(RECORD, actions=["pass"]), "open")
        held = dict(row.record)  # another object with the same content
        assert store.load(row.id, known=type(row)(**{**vars(row), "record": held})).record is held
        moved = store.save(row, dict(row.record, actions=["pass", "pass"]), "open")
        assert store.load(row.id, known=row).record == moved.record  # behind: read again
        other = store.create_game(RECORD, "open")
        assert store.load(other.id, known=moved).record == RECORD  # another game's row counts for nothing
    finally:
        store.close()


def alembic_to(url: str, revision: str, down: bool = False) -> None:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    config = Config()
    config.set_main_option("script_location", str(store_engine.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
    engine.dispose()


def test_the_migration_splits_old_records_and_joins_them_again(database_url):
    """A database at 0003 (whole records in ``games.record``) is converted by
    the store's start: the same records, still replaying, and commits append
    to them; the downgrade gives back whole records."""
    alembic_to(database_url, "0003")
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    records = {f"g{i}": played_record(game, f"old-{i}", moves) for i, (game, moves)
               in enumerate([("euchre", 0), ("doppelkopf", 9), ("hidden-trump", 30)])}
    old_games = table("games", column("id"), column("game"), column("record"), column("version"), column("status"))
    with engine.begin() as db:
        for game_id, record in records.items():
            db.execute(insert(old_games).values(id=game_id, game=record["game"], record=json.dumps(record), version=3,
                                                status="open"))
    store = Store(database_url)
    try:
        for game_id, record in records.items():
            row = store.load(game_id)
            assert row.record == record and list(row.record) == list(record)
            assert len(replay(row.record).history) == len(record["actions"])
        row = store.load("g1")
        state = replay(row.record)
        text = state.action_text(state.legal_actions()[0])
        store.save(row, dict(row.record, actions=[*row.record["actions"], text]), "open")
        records["g1"]["actions"].append(text)
        assert store.load("g1").record == records["g1"]
    finally:
        store.close()
    alembic_to(database_url, "0003", down=True)
    with engine.begin() as db:
        stored = dict(db.execute(select(old_games.c.id, old_games.c.record)).all())
    engine.dispose()
    assert {game_id: json.loads(text) for game_id, text in stored.items()} == records


def test_the_referee_reads_the_record_only_where_its_cache_is_behind(sqlite_url, monkeypatch):
    """Two referees on one database stand for two server processes: loading a
    game at the version this one committed parses no record; after the other
    one moved on, the record is read again and gives the other one's state."""
    from tests.server.test_referee import a_euchre_game, moves_elsewhere, random_action

    store = Store(sqlite_url)
    try:
        _room, game_id, here = a_euchre_game(store, "known")
        elsewhere = type(here)(store, here.tell)
        position = here.load(game_id)
        here.play(position, *random_action(position.state))
        parsed: list = []
        record = store_games.joined_record
        monkeypatch.setattr(store_games, "joined_record", lambda *texts: parsed.append(texts) or record(*texts))
        mine = here.load(game_id)
        assert parsed == [] and mine.row.record["actions"] == store.load(game_id).record["actions"]
        moves_elsewhere(elsewhere, game_id, 3)
        parsed.clear()  # (the other referee read it once, into its own cache)
        caught_up = here.load(game_id)
        assert len(parsed) == 1 and caught_up.row.version == mine.row.version + 3
        assert caught_up.row.record == elsewhere.load(game_id).row.record
        assert caught_up.state.view(0) == replay(caught_up.row.record).view(0)
    finally:
        store.close()
