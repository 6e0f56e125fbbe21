"""Persistence for the web card room: games as records, the server secret, daily
scores and nicknames.

A game is stored as its record (``core/record.py``: seed + options + actions)
plus a ``version`` that grows by one with every committed change.  The actions
have a column of their own that each commit appends to (``actions || :added``):
a commit sends what it adds, not the whole record again, and a reader that
holds the record at the stored version (the referee's cache) is not sent it.  Writers use an
optimistic check (``UPDATE … WHERE version = :expected``), so of two requests
racing on one game only one applies; the other sees ``StaleVersion``.  Nothing
lives only in a process's memory, so any number of server processes may share
one database.

SQLite (a file, the default) and PostgreSQL (by URL) are both supported through
SQLAlchemy Core.
"""

from __future__ import annotations

from tricktable.store.analyses import AnalysisRow, AnalysisStore
from tricktable.store.bring import BringStore
from tricktable.store.daily import DailyStore
from tricktable.store.engine import default_database_url
from tricktable.store.games import GameRow, GameStore, StaleVersion
from tricktable.store.history import HistoryStore
from tricktable.store.passkeys import PasskeyStore
from tricktable.store.people import PeopleStore
from tricktable.store.reactions import ReactionStore
from tricktable.store.stats import StatsStore
from tricktable.store.tables import TableStore
from tricktable.store.watchers import WatcherStore


class Store(GameStore, PeopleStore, PasskeyStore, DailyStore, HistoryStore, AnalysisStore, StatsStore, TableStore,
            WatcherStore, ReactionStore, BringStore):
    """All database access of the server, by what it keeps: games, frames and
    leases (``games.py``), people (``people.py``) and their passkeys
    (``passkeys.py``), the daily leaderboard (``daily.py``), a person's
    history (``history.py``), finished games' analyses (``analyses.py``),
    summaries for statistics (``stats.py``), tables of friends
    (``tables.py``), their watchers (``watchers.py``) and reactions
    (``reactions.py``), and a browser's games brought along to a passkey's
    identity (``bring.py``), on one database (``engine.py``; the tables in
    ``schema.py``)."""


__all__ = ["AnalysisRow", "GameRow", "StaleVersion", "Store", "default_database_url"]
