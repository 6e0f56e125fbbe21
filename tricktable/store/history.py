"""A person's history: the games of one identity (those it created and the
tables' matches it held a seat in), newest first, a page at a time
(``games_owner_created`` serves the order)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, or_, select

from tricktable.store.engine import Database
from tricktable.store.games import KEPT, GameRow, _row, held_seats
from tricktable.store.tables import seats_text
from tricktable.store.schema import game_seats, games

HISTORY_MAX = 50
"""The most games one page of history holds."""


class HistoryStore(Database):
    """The games an identity owns, for its "My games" list."""

    def history(self, owner: str, game: str | None = None, limit: int = 20,
                before: str | None = None) -> list[tuple[GameRow, Any]]:
        """Up to ``limit`` of ``owner``'s games (only ``game``'s, if given; each with its seats),
        newest first, each with when it was created; ``before``: the id of the
        last game of the previous page (the cursor).  Ties in ``created_at``
        (SQLite keeps seconds) are ordered by id, so every game is on exactly
        one page.  A cursor that is not one of ``owner``'s games gives an
        empty page.  The cursor's time is compared inside the database, as it
        stores it (a bound Python datetime would be compared as text on SQLite)."""
        limit = max(1, min(limit, HISTORY_MAX))
        mine = or_(games.c.owner == owner,
                   games.c.id.in_(select(game_seats.c.game_id).where(game_seats.c.identity == owner)))
        query = (select(games, KEPT).where(mine)
                 .order_by(games.c.created_at.desc(), games.c.id.desc()).limit(limit))
        if game is not None:
            query = query.where(games.c.game == game)
        if before is not None:
            cursor = select(games.c.created_at).where(games.c.id == before, mine).scalar_subquery()
            query = query.where(or_(games.c.created_at < cursor,
                                    and_(games.c.created_at == cursor, games.c.id < before)))
        with self.engine.begin() as db:
            found = [dict(row) for row in db.execute(query).mappings().all()]
            kept = [row["id"] for row in found if row["kept"]]
            people: dict[str, list[tuple[int, str]]] = {}
            if kept:
                for game_id, seat, holder in db.execute(select(game_seats.c.game_id, game_seats.c.seat,
                                                               game_seats.c.identity)
                                                        .where(game_seats.c.game_id.in_(kept))):
                    people.setdefault(game_id, []).append((seat, holder))
        for row in found:
            row["seats"] = seats_text(held_seats(people[row["id"]])) if row["id"] in people else None
        return [(_row(row), row["created_at"]) for row in found]


__all__ = ["HISTORY_MAX", "HistoryStore"]
