"""Alembic upgrades a database made by the schema from before migrations (with
games, daily attempts, scores and nicknames in it) on SQLite and PostgreSQL;
every stored record still replays and the old daily rows stay readable."""

from __future__ import annotations

from tricktable.nicknames import skeletons

import json

import pytest
from sqlalchemy import (Column, DateTime, Float, Integer, MetaData, String, Table, Text, UniqueConstraint,
                        create_engine, func, inspect, insert)

from tricktable.catalog import replay
from tricktable.catalog import get_spec
from tricktable.store import Store


def old_schema(with_deadline: bool) -> tuple[MetaData, Table, Table, Table]:
    """The tables exactly as the store created them before Alembic."""
    metadata = MetaData()
    games = Table(
        "games", metadata,
        Column("id", String(40), primary_key=True),
        Column("game", String(40), nullable=False),
        Column("record", Text, nullable=False),
        Column("version", Integer, nullable=False),
        Column("status", String(8), nullable=False),
        Column("daily_day", String(10)),
        Column("device", String(64)),
        *([Column("deadline", Float)] if with_deadline else []),
        Column("created_at", DateTime(timezone=True), server_default=func.now()),
        Column("updated_at", DateTime(timezone=True), server_default=func.now()),
        UniqueConstraint("game", "daily_day", "device", name="one_daily_attempt"),
    )
    Table("meta", metadata, Column("key", String(40), primary_key=True), Column("value", Text, nullable=False))
    nicknames = Table("nicknames", metadata, Column("device", String(64), primary_key=True),
                      Column("nickname", String(64), nullable=False))
    scores = Table(
        "scores", metadata,
        Column("game", String(40), primary_key=True),
        Column("day", String(10), primary_key=True),
        Column("device", String(64), primary_key=True),
        Column("score", Integer, nullable=False),
        Column("game_id", String(40), nullable=False),
        Column("created_at", DateTime(timezone=True), server_default=func.now()),
    )
    return metadata, games, nicknames, scores


def played_record(game: str, seed: str, moves: int) -> dict:
    state = get_spec(game).new_match(seed, get_spec(game).normalize_options({}))
    actions = []
    for _ in range(moves):
        text = state.action_text(state.legal_actions()[0])
        state.apply(state.parse_action(text))
        actions.append(text)
    return {"format": 1, "game": game, "rules_version": get_spec(game).rules_version, "options": dict(state.options),
            "kind": "match", "seed": seed, "daily": False, "actions": actions, "level": "hard"}


@pytest.mark.parametrize("with_deadline", [True, False])
def test_upgrading_an_old_database_keeps_every_game(database_url, with_deadline):
    url = database_url.replace("postgresql://", "postgresql+psycopg://")
    engine = create_engine(url)
    metadata, games, nicknames, scores = old_schema(with_deadline)
    metadata.create_all(engine)
    records = {f"g{i}": played_record(game, f"old-{i}", 9) for i, game in enumerate(["euchre", "doppelkopf", "hidden-trump"])}
    with engine.begin() as db:
        for game_id, record in records.items():
            db.execute(insert(games).values(id=game_id, game=record["game"], record=json.dumps(record), version=10,
                                            status="open"))
        daily = played_record("euchre", "daily-seed", 3)
        db.execute(insert(games).values(id="d1", game="euchre", record=json.dumps(daily), version=4, status="over",
                                        daily_day="2026-01-01", device="device-aaaaaaaaaaaaaaaa"))
        db.execute(insert(scores).values(game="euchre", day="2026-01-01", device="device-aaaaaaaaaaaaaaaa", score=4,
                                         game_id="d1"))
        for device, name in (("device-aaaaaaaaaaaaaaaa", "Champion"), ("device-bbbbbbbbbbbbbbbb", "Champion"),
                             ("device-cccccccccccccccc", "Anna")):
            db.execute(insert(nicknames).values(device=device, nickname=name))
    engine.dispose()

    store = Store(database_url)
    try:
        assert "alembic_version" in inspect(store.engine).get_table_names()
        for game_id, record in records.items():
            row = store.load(game_id)
            assert row.record == record and row.version == 10 and row.server_seed is None
            assert len(replay(row.record).history) == 9
        old_daily = store.find_daily("euchre", "2026-01-01", "device-aaaaaaaaaaaaaaaa")
        assert old_daily.id == "d1" and old_daily.counts_on_leaderboard  # from before practice: ranked
        board = store.leaderboard("euchre", "2026-01-01", "device-aaaaaaaaaaaaaaaa")
        assert board["entries"] == [{"rank": 1, "nickname": "Champion", "score": 4, "you": True}]
        # Old names stay; the later look-alike cannot be taken again by anyone.
        assert store.nickname("device-bbbbbbbbbbbbbbbb") == "Champion"
        assert not store.set_nickname("device-dddddddddddddddd", "CHAMPION", skeletons("CHAMPION"))
        assert store.set_nickname("device-dddddddddddddddd", "Zoe", skeletons("Zoe"))
        # New columns work on old rows' database.
        row = store.create_game(records["g0"], "open", owner="someone", server_seed="s" * 64, client_seed="c",
                                commitment="x" * 64)
        assert store.load(row.id).owner == "someone" and store.open_games("someone") == 1
    finally:
        store.close()
    Store(database_url).close()  # a second start finds the schema current


def test_the_store_writes_no_schema_by_hand():
    """Every schema change is an Alembic revision: no ALTER in the store."""
    from pathlib import Path

    import tricktable.store as store_package

    for module in Path(store_package.__file__).parent.glob("*.py"):
        assert "ALTER" not in module.read_text().upper().replace("ALTERNATIVE", ""), module
