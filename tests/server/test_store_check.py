"""``tricktable check-store``: every stored record replays as stored (the
operator's check after a migration, an upgrade or a restore)."""

from __future__ import annotations

import random

from tricktable.catalog import get_spec
from tricktable.cli import main
from tricktable.core.record import record_of
from tricktable.store import Store
from tricktable.store.check import check_store


def _played(game: str, seed: str, actions: int | None = None) -> tuple[dict, bool]:
    """A match of ``game`` played by random legal actions (all of it, or the
    first ``actions``): its stored record and whether it is over."""
    state = get_spec(game).new_match(seed, get_spec(game).normalize_options({}))
    rng = random.Random(seed)
    while not state.is_terminal() and (actions is None or len(state.history) < actions):
        if state.referee_actions():
            state.apply_referee(state.referee_actions()[0])
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return record_of(state).to_json(), state.is_terminal()


def _stored(store: Store, record: dict, over: bool) -> str:
    return store.create_game(record, "over" if over else "open").id


def test_every_record_that_replays_passes_and_each_bad_one_is_named(database_url, capsys):
    store = Store(database_url)
    good = [_stored(store, *_played(game, f"check/{game}")) for game in ("euchre", "doppelkopf", "mendikot")]
    good.append(_stored(store, *_played("double-sar", "check/open", actions=20)))
    record, _ = _played("euchre", "check/illegal", actions=6)
    illegal = _stored(store, dict(record, actions=[*record["actions"], "play XX"]), False)
    record, over = _played("be-ranga", "check/status")
    assert over
    wrong_status = _stored(store, record, False)

    result = check_store(store)

    assert (result.games, result.over) == (6, 3)
    assert {game_id for game_id, _ in result.failures} == {illegal, wrong_status}
    assert "does not replay" in dict(result.failures)[illegal]
    assert "stored as 'open'" in dict(result.failures)[wrong_status]
    assert main(["check-store", "--database", database_url]) == 1
    out = capsys.readouterr().out
    assert illegal in out and wrong_status in out and "6 games, 3 of them over" in out
    assert not set(good) & {game_id for game_id, _ in result.failures}


def test_a_store_of_good_records_passes(sqlite_url, capsys):
    store = Store(sqlite_url)
    _stored(store, *_played("hidden-trump", "check/ok"))
    assert main(["check-store", "--database", sqlite_url]) == 0
    assert "1 games, 1 of them over" in capsys.readouterr().out
