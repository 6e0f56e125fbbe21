"""The open watch streams of every table, across server processes: a table
takes at most so many watchers however many processes serve them.  A stream
holds a lease (a row) that it renews while it lasts and gives back when it
ends; a killed process's leases lapse on their own."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select, update

from tricktable.store.engine import Database
from tricktable.store.schema import tables, watchers


class WatcherStore(Database):
    """Leases of watch streams: admit one under a table's cap, renew, drop."""

    def admit_watcher(self, table_id: str, watcher_id: str, cap: int, now: float, until: float) -> bool:
        """Give ``watcher_id`` a lease on ``table_id`` until ``until`` if the
        table has fewer than ``cap`` leases live at ``now``; False otherwise
        (nothing stored).  Lapsed leases of every table are deleted first."""
        with self._writing() as db:
            # Taking the table's row first makes two processes' admissions to
            # one table take turns (PostgreSQL; SQLite writes one at a time anyway).
            db.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update())
            db.execute(delete(watchers).where(watchers.c.until < now))
            live = db.execute(select(func.count()).select_from(watchers)
                              .where(watchers.c.table_id == table_id)).scalar_one()
            if live >= cap:
                return False
            db.execute(insert(watchers).values(id=watcher_id, table_id=table_id, until=until))
        return True

    def renew_watcher(self, watcher_id: str, until: float) -> None:
        with self._writing() as db:
            db.execute(update(watchers).where(watchers.c.id == watcher_id).values(until=until))

    def drop_watcher(self, watcher_id: str) -> None:
        with self._writing() as db:
            db.execute(delete(watchers).where(watchers.c.id == watcher_id))


__all__ = ["WatcherStore"]
