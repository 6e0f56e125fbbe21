"""Quick match, "play with anyone": a person asks for a game (and its
options) and is seated at an open quick-match table of it, or opens one.  A
quick-match table is a table of friends (``play/tables.py``) whose match starts
by itself: at once when a fourth person sits down, else ``wait`` seconds after
its first person came, with computer players in the free seats, so nobody
waits longer.

The start is a timer of this process; a table whose timer was lost (the
process stopped) starts when someone next looks at it (``start_if_due``).
Joining stops a second (``JOIN_MARGIN``) before the start, so a person does
not sit down at the moment the seats are fixed; were he to, the start reads
the seats again (``StaleVersion``: the seats changed) and he plays too.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from tricktable.catalog import get_spec
from tricktable.server.play.errors import SeatTaken
from tricktable.server.play.tables import Tables, clock_of, holds
from tricktable.store import StaleVersion
from tricktable.store.games import TableStart
from tricktable.store.tables import TableRow

log = logging.getLogger(__name__)

QUICK_WAIT_SECONDS = 15.0
"""How long a quick-match table waits for more people after its first came."""
JOIN_MARGIN = 1.0
"""Seconds before its start a quick-match table stops seating people (at
most a quarter of the wait)."""
START_ATTEMPTS = 3


Later = Callable[[float, Callable[[], None]], Callable[[], None]]
"""Run a function after so many seconds; what cancels it."""


def timer(delay: float, run: Callable[[], None]) -> Callable[[], None]:
    """Run ``run`` in a daemon thread after ``delay`` seconds; its ``cancel``."""
    started = threading.Timer(delay, run)
    started.daemon = True
    started.start()
    return started.cancel


class QuickMatch:
    def __init__(self, tables: Tables, wait: float = QUICK_WAIT_SECONDS, later: Later = timer,
                 clock: Callable[[], float] = time.time):
        self.tables = tables
        self.wait = wait
        self._later = later
        self._clock = clock
        self._lock = threading.Lock()
        self._timers: dict[str, Callable[[], None]] = {}
        """The start timers of this process's waiting tables, by table id (cancelled when they start sooner)."""

    def enter(self, who: str, game: str, options: dict[str, Any] | None) -> dict[str, Any]:
        """Seat ``who`` at an open quick-match table of ``game`` and
        ``options`` (one he sits at already, else the oldest with a free seat),
        or open one: the table as he sees it (``game_id`` once its match started)."""
        spec = get_spec(game)
        normalized = spec.normalize_options(options or {})
        for table in self.tables.store.open_quick_tables(spec.name, normalized, self._clock() + min(JOIN_MARGIN, self.wait / 4)):
            try:
                joined = self.tables.join(table, who)
            except SeatTaken:
                continue  # full, or started meanwhile: the next one
            if all(seat["person"] for seat in joined["seats"]):
                self.start(table.id)
                return self.tables.describe(self._table(table.id), who)
            return joined
        created = self.tables.create(who, spec.name, normalized, quick_until=self._clock() + self.wait)
        table_id = created["id"]
        cancel = self._later(self.wait, lambda: self._start_on_time(table_id))
        with self._lock:
            self._timers[table_id] = cancel
        return created

    def _start_on_time(self, table_id: str) -> None:
        """The timer's start: one that fails (a busy database) is left to the next look (``start_if_due``)."""
        try:
            self.start(table_id)
        except Exception:
            log.exception("quick-match table %s did not start on time", table_id)

    def start_if_due(self, table: TableRow) -> TableRow:
        """``table``, its match started if it is a quick-match table past its start."""
        if table.quick_until is not None and table.game_id is None and table.quick_until <= self._clock():
            self.start(table.id)
            return self._table(table.id)
        return table

    def start(self, table_id: str) -> None:
        """Start a quick-match table's match with the seats it has (computer
        players in the free ones), unless it started already."""
        with self._lock:
            cancel = self._timers.pop(table_id, None)
        if cancel is not None:
            cancel()  # (from the timer's own thread too: a no-op there)
        room = self.tables.room
        for _attempt in range(START_ATTEMPTS):
            table = self.tables.store.table(table_id)
            if table is None or table.game_id is not None:
                return
            host_seat = next(s for s, holder in enumerate(table.seats) if holds(holder, table.host))
            try:
                started = room.new_table_game(TableStart(table.id, table.seats, clock_of(table)), table.game,
                                              table.options, table.level, table.host, host_seat)
            except StaleVersion:
                continue  # someone sat down, or another process started it: look again
            room.resume(started["id"])  # the computer players' opening moves
            return

    def _table(self, table_id: str) -> TableRow:
        table = self.tables.store.table(table_id)
        assert table is not None
        return table


__all__ = ["QUICK_WAIT_SECONDS", "QuickMatch"]
