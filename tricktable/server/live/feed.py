"""Other processes' commits and claims, told to this process's streams
(a client on process A sees a move committed by process B).

A commit by another process into a game some stream here watches is
forwarded as the step events that process stored with it (``Store.frames``:
the bytes its own streams sent), published on the local channel like this
process's own steps: nothing is read from the record and no view is built
again.  Where those frames are not all there (pruned, or a commit by a
process that stored none: one with a stream of the game itself, or a server
from before them), and for a claim of the computer players' turn, the feed
publishes a ``changed`` event (never sent to a client) instead; the stream
then reads what it missed (``Room.refresh``).  Changes this process wrote
itself are not told again: the channel has them already.  PostgreSQL tells
us through LISTEN/NOTIFY (the store NOTIFYs in the committing transaction);
SQLite, on one machine, is polled: one query for all watched games every
``POLL_SECONDS``, and one for the frames of those another process moved on.
Quick reactions sent through another process, and the news of a seat that
changed hands there, come the same ways (a NOTIFY of their own; SQLite: the
poll reads the reactions stored since the last it saw).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from tricktable.server.live.channel import SEATS, Event, LocalChannel
from tricktable.store import Store
from tricktable.store.games import CHANGES_CHANNEL
from tricktable.store.reactions import REACTIONS_CHANNEL, SEATS_CHANGED

log = logging.getLogger("tricktable.server")

POLL_SECONDS = 0.05
"""SQLite: how often the watched games' versions are read (the target is a
move seen from another process within 100 ms)."""
RECONNECT_SECONDS = 1.0


def changed(game_id: str, version: int, seat: int | None = None) -> Event:
    """Another process moved the game to ``version`` (for the streams of ``seat``; None: of every seat)."""
    return Event(game_id, "changed", version, {}, seat=seat)


def reaction(game_id: str, seat: int, key: str) -> Event:
    """A seated person's quick reaction (``play/tables.py``), for every stream
    of the game; or, with the key ``SEATS_CHANGED``, the news that ``seat``
    changed hands."""
    if key == SEATS_CHANGED:
        return seats_changed(game_id, seat)
    return Event(game_id, "reaction", 0, {"seat": seat, "key": key})


def seats_changed(game_id: str, seat: int) -> Event:
    """``seat`` of a table's match changed hands (``play/tables.py``), for every stream of the game."""
    return Event(game_id, SEATS, 0, {"seat": seat})


def forwarded(game_id: str, version: int, frame: bytes) -> Event:
    """A step another process committed and stored as its frame (``Store.frames``:
    the view of seat 0, where a game's one person sits)."""
    return Event(game_id, "step", version, encoded=frame, seat=0)


class ChangeFeed:
    """Runs one daemon thread between ``start`` and ``stop``."""

    def __init__(self, store: Store, channel: LocalChannel):
        self.store = store
        self.channel = channel
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _tell(self, moved: dict[str, tuple[int, int]], claimed: list[tuple[str, int]]) -> None:
        """Publish what other processes did: the games ``moved`` on (from
        the first version to the second) as their stored frames, or as
        ``changed`` where those are not all there; the turns ``claimed``
        (game, version) as ``changed``."""
        found = self.store.frames(moved) if moved else {}
        for game_id, (_since, version) in moved.items():
            frames = found.get(game_id)
            if frames is None:
                self.channel.publish(changed(game_id, version))
                continue
            for number, frame in frames:
                self.channel.publish(forwarded(game_id, number, frame))
            # The frames are seat 0's view: a stream of another seat (a table's game) reads its own.
            for seat in range(1, 4):
                if self.channel.listeners(game_id, seat):
                    self.channel.publish(changed(game_id, version, seat))
        for game_id, version in claimed:
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
        last_reaction = self._last_reaction()
        while not self._stop.wait(POLL_SECONDS):
            watched = self.channel.games()
            if not watched:
                known.clear()
                continue
            last_reaction = self._tell_reactions(last_reaction, watched)
            try:
                now = self.store.versions(watched)
            except Exception:  # noqa: BLE001 - a busy database: try again at the next tick
                log.debug("change feed: could not read versions", exc_info=True)
                continue
            moved: dict[str, tuple[int, int]] = {}
            claimed: list[tuple[str, int]] = []
            for game_id, seen in now.items():
                before = known.get(game_id, seen)
                if before == seen or self.store.wrote_last(game_id, *seen):
                    continue
                if seen[0] > before[0]:
                    moved[game_id] = (before[0], seen[0])
                else:
                    claimed.append((game_id, seen[0]))
            known = now
            if moved or claimed:
                try:
                    self._tell(moved, claimed)
                except Exception:  # noqa: BLE001 - a busy database: the streams read it themselves
                    log.debug("change feed: could not read frames", exc_info=True)
                    for game_id, version in [*((game_id, upto) for game_id, (_since, upto) in moved.items()), *claimed]:
                        self.channel.publish(changed(game_id, version))

    def _last_reaction(self) -> int:
        try:
            return self.store.last_reaction()
        except Exception:  # noqa: BLE001 - a busy database: every fresh reaction is told instead
            log.debug("change feed: could not read the last reaction", exc_info=True)
            return 0

    def _tell_reactions(self, after: int, watched: list[str]) -> int:
        """Publish other processes' reactions stored after number ``after``: the newest number read."""
        try:
            newest, found = self.store.reactions_after(after, watched, time.time())
        except Exception:  # noqa: BLE001 - a busy database: look again at the next tick
            log.debug("change feed: could not read reactions", exc_info=True)
            return after
        for game_id, seat, key in found:
            self.channel.publish(reaction(game_id, seat, key))
        return newest

    # -- PostgreSQL -----------------------------------------------------------------
    def _listen(self) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=2) as connection:
                    connection.execute(f"LISTEN {CHANGES_CHANNEL}")
                    connection.execute(f"LISTEN {REACTIONS_CHANNEL}")
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            if note.channel == REACTIONS_CHANNEL:
                                self._reacted(note.payload)
                            else:
                                self._noted(note.payload)
            except Exception:  # noqa: BLE001 - the database went away: listen again
                log.warning("change feed: lost the database; listening again", exc_info=True)
                time.sleep(RECONNECT_SECONDS)

    def _reacted(self, payload: str) -> None:
        """One reaction's NOTIFY: ``"<game> <seat> <key> <writer>"``."""
        game_id, seat, key, writer = payload.split(" ")
        if writer != self.store.writer and self.channel.listeners(game_id):
            self.channel.publish(reaction(game_id, int(seat), key))

    def _noted(self, payload: str) -> None:
        """One NOTIFY: ``"<game> <version> <writer> <since>"`` (a server from
        before frames sends no ``since``: then ``changed``)."""
        game_id, version, writer, since = (payload.split(" ") + ["", ""])[:4]
        if writer == self.store.writer or not self.channel.listeners(game_id):
            return
        if since.isdigit() and int(since) < int(version):
            try:
                self._tell({game_id: (int(since), int(version))}, [])
                return
            except Exception:  # noqa: BLE001 - a busy database: the stream reads it itself
                log.debug("change feed: could not read frames", exc_info=True)
        self.channel.publish(changed(game_id, int(version)))


__all__ = ["ChangeFeed", "POLL_SECONDS", "changed", "forwarded", "reaction", "seats_changed"]
