"""Every stored game's record replays: the operator's check after a migration,
an upgrade of the rules code, or a restore from a backup.

A record is the truth of a game (the state is never stored), so a record the
rules no longer accept, or one whose length disagrees with its version, is a
game nobody can go on with.  ``check_store`` replays each one with today's
rules and says which fail and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from tricktable.catalog import replay
from tricktable.errors import GameError
from tricktable.store.games import GameRow, GameStore

BATCH = 200
"""Games read per query while walking the store."""


@dataclass
class StoreCheck:
    """What a walk over the stored games found."""

    games: int = 0
    over: int = 0
    actions: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    """(game id, why) of every record that does not replay as stored."""

    @property
    def ok(self) -> bool:
        return not self.failures


def check_store(store: GameStore) -> StoreCheck:
    """Replay every stored game's record and compare it with its row."""
    result = StoreCheck()
    for row in _every_game(store):
        result.games += 1
        result.actions += len(row.record["actions"])
        problem = problem_of(row)
        if problem is not None:
            result.failures.append((row.id, problem))
        elif row.status == "over":
            result.over += 1
    return result


def problem_of(row: GameRow) -> str | None:
    """Why ``row``'s record does not replay as stored, or None."""
    try:
        state = replay(row.record)
    except (GameError, KeyError, TypeError, ValueError) as error:
        return f"does not replay: {error}"
    if state.is_terminal() != (row.status == "over"):
        return f"stored as {row.status!r} but the replayed game is {'over' if state.is_terminal() else 'open'}"
    base = row.record.get("version_base")
    if base is not None and base["actions"] + row.version - base["version"] != len(row.record["actions"]):
        return f"version {row.version} does not match its {len(row.record['actions'])} actions"
    return None


def _every_game(store: GameStore) -> Iterator[GameRow]:
    after = ""
    while ids := store.game_ids_after(after, BATCH):
        for game_id in ids:
            row = store.load(game_id)
            if row is not None:
                yield row
        after = ids[-1]


__all__ = ["StoreCheck", "check_store", "problem_of"]
