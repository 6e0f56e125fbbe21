"""Quick reactions at tables' matches, kept a minute: the sending process
tells its own streams at once, the others learn of a reaction from here
(PostgreSQL: a NOTIFY in the storing transaction; SQLite: the change feed's
poll reads the ones after the last it saw).  The news that a match's seat
changed hands (``SEATS_CHANGED``) travels the same way: it is, like a
reaction, a short notice about one seat for every stream of the match, told
once."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select

from tricktable.store.engine import Database
from tricktable.store.schema import reactions

REACTIONS_CHANNEL = "tricktable_reactions"
KEEP_SECONDS = 60.0
"""How long a reaction is kept: long enough for every process's feed to read it."""
SEATS_CHANGED = "seats"
"""The key of a notice that a seat changed hands during the match (a person
left it, a newcomer took it, it was opened or closed): never a reaction a
person may send (those are checked against their list first)."""
FRESH_SECONDS = 5.0
"""A reaction older than this is not told any more (a stream that opened later never hears it)."""


class ReactionStore(Database):
    """Store reactions for other processes, and read the ones they stored."""

    writer: str  # this process's mark (``GameStore``): its own reactions are not told again

    def add_reaction(self, game_id: str, seat: int, key: str, now: float) -> None:
        """Keep a reaction (and drop those past ``KEEP_SECONDS``); PostgreSQL
        tells listening processes when the transaction commits."""
        with self._writing() as db:
            db.execute(delete(reactions).where(reactions.c.at < now - KEEP_SECONDS))
            db.execute(insert(reactions).values(game_id=game_id, seat=seat, key=key, writer=self.writer, at=now))
            if self.engine.dialect.name == "postgresql":
                db.execute(select(func.pg_notify(REACTIONS_CHANNEL, f"{game_id} {seat} {key} {self.writer}")))

    def last_reaction(self) -> int:
        """The newest reaction's number (0: none): where a process starts reading."""
        with self.engine.begin() as db:
            return int(db.execute(select(func.coalesce(func.max(reactions.c.id), 0))).scalar_one())

    def reactions_after(self, after: int, game_ids: list[str], now: float) -> tuple[int, list[tuple[str, int, str]]]:
        """Other processes' fresh reactions after number ``after`` in ``game_ids``:
        the newest number read, and (game, seat, key) of each, oldest first."""
        query = (select(reactions.c.id, reactions.c.game_id, reactions.c.seat, reactions.c.key, reactions.c.writer)
                 .where(reactions.c.id > after, reactions.c.at >= now - FRESH_SECONDS).order_by(reactions.c.id))
        with self.engine.begin() as db:
            found = db.execute(query).all()
        wanted = set(game_ids)
        newest = max((row[0] for row in found), default=after)
        return newest, [(game, seat, key) for _id, game, seat, key, writer in found
                        if game in wanted and writer != self.writer]


__all__ = ["FRESH_SECONDS", "REACTIONS_CHANNEL", "ReactionStore", "SEATS_CHANGED"]
