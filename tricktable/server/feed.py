"""Other processes' commits and claims, told to this process's streams
(issue 15: a client on process A sees a move committed by process B).

The feed publishes a ``changed`` event (never sent to a client) on the local
channel when a watched game's version or turn lease changed in the database;
the stream then reads what it missed (``Room.refresh``).  Changes this
process wrote itself are not told again: the channel has them already (and a
stream that heard of a commit before its step arrived would read the whole
game from the database for nothing: a good part of a busy server's work).  PostgreSQL tells us
through LISTEN/NOTIFY (the store NOTIFYs in the committing transaction);
SQLite, on one machine, is polled: one query for all watched games every
``POLL_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from tricktable.server.channel import Event, LocalChannel
from tricktable.store import Store
from tricktable.store.db import CHANGES_CHANNEL

log = logging.getLogger("tricktable.server")

POLL_SECONDS = 0.05
"""SQLite: how often the watched games' versions are read (the target is a
move seen from another process within 100 ms)."""
RECONNECT_SECONDS = 1.0
OTHERS_SECONDS = 60.0
"""How long a write of another process counts as a sign that there are others (``others_recently``)."""


def changed(game_id: str, version: int) -> Event:
    return Event(game_id, "changed", version, {})


class ChangeFeed:
    """Runs one daemon thread between ``start`` and ``stop``."""

    def __init__(self, store: Store, channel: LocalChannel):
        self.store = store
        self.channel = channel
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._others_at: float | None = None  # (monotonic) when another process's write was last told

    def others_recently(self, seconds: float = OTHERS_SECONDS) -> bool:
        """Whether another server process wrote into a watched game lately:
        then some of the games' streams are likely open there."""
        told = self._others_at
        return told is not None and time.monotonic() - told < seconds

    def _told_other(self, game_id: str, version: int) -> None:
        self._others_at = time.monotonic()
        self.channel.publish(changed(game_id, version))

    def start(self) -> None:
        target: Callable[[], None] = self._listen if self.store.notifies else self._poll
        self._thread = threading.Thread(target=target, name="change-feed", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # -- SQLite -------------------------------------------------------------------
    def _poll(self) -> None:
        known: dict[str, tuple[int, float | None]] = {}
        while not self._stop.wait(POLL_SECONDS):
            watched = self.channel.games()
            if not watched:
                known.clear()
                continue
            try:
                now = self.store.versions(watched)
            except Exception:  # noqa: BLE001 - a busy database: try again at the next tick
                log.debug("change feed: could not read versions", exc_info=True)
                continue
            for game_id, seen in now.items():
                if known.get(game_id, seen) != seen and not self.store.wrote_last(game_id, *seen):
                    self._told_other(game_id, seen[0])
            known = now

    # -- PostgreSQL -----------------------------------------------------------------
    def _listen(self) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=2) as connection:
                    connection.execute(f"LISTEN {CHANGES_CHANNEL}")
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            game_id, version, writer = (note.payload.split(" ") + [""])[:3]
                            if writer != self.store.writer:
                                self._told_other(game_id, int(version))
            except Exception:  # noqa: BLE001 - the database went away: listen again
                log.warning("change feed: lost the database; listening again", exc_info=True)
                time.sleep(RECONNECT_SECONDS)


__all__ = ["ChangeFeed", "POLL_SECONDS", "changed"]
