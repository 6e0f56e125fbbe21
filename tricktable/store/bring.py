"""Bringing a browser's games along to a passkey's identity: the person who
signs in with a passkey on a browser whose own identity has no passkey holds
both, and may move that identity's games (with their analyses, share links
and statistics) to the passkey's.  One transaction: all of it moves, or
nothing (``docs/decisions/passkey-on-a-used-browser.md``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.engine import Connection

from tricktable.store.engine import Database
from tricktable.store.schema import game_seats, game_summaries, games, passkeys, scores, tables
from tricktable.store.tables import seats_of, seats_text


@dataclass(frozen=True)
class Held:
    """What an identity holds that a passkey sign-in would leave behind."""

    games: int
    """Its games: those it created and the tables' matches it sat at."""
    passkey: bool
    """It has a passkey of its own (then its games are never brought along: sign in with that one)."""


@dataclass(frozen=True)
class Brought:
    games: int
    """Games that moved to the passkey's identity."""
    practice_dailies: int
    """Daily attempts of a day the passkey's identity had its own attempt of: moved as practice."""


class BringStore(Database):
    """Moving one identity's games to another's."""

    def held(self, who: str) -> Held:
        with self.engine.begin() as db:
            return Held(_games_of(db, who), _has_passkey(db, who))

    def bring_along(self, source: str, target: str) -> Brought | None:
        """Move ``source``'s games to ``target``: the games it created, its
        seats at tables and their matches (where ``target`` has none at the
        same one), its daily attempts and their leaderboard rows.  A daily of a
        game and day ``target`` played too stays at one ranked attempt: the
        target's own; the source's moves as practice and leaves the
        leaderboard.  The source's summaries are dropped (the statistics
        summarise the moved games again, from the target's seat).  None,
        moving nothing, if ``source`` has a passkey of its own: two identities
        that each have one are never merged."""
        with self._writing() as db:
            if _has_passkey(db, source):
                return None
            moved = _games_of(db, source)
            practice = self._move_dailies(db, source, target)
            db.execute(update(games).where(games.c.owner == source).values(owner=target))
            targets = select(game_seats.c.game_id).where(game_seats.c.identity == target)
            db.execute(update(game_seats).where(game_seats.c.identity == source, game_seats.c.game_id.not_in(targets))
                       .values(identity=target))
            self._move_table_seats(db, source, target)
            db.execute(delete(game_summaries).where(game_summaries.c.owner == source))
        return Brought(moved, practice)

    @staticmethod
    def _move_table_seats(db: Connection, source: str, target: str) -> None:
        """The source's seats (and hosting) at live tables as the target's: a
        started match reads its seats from its table while it lives.  Not at a
        table where the target sits too (one person, one seat)."""
        found = db.execute(select(tables.c.id, tables.c.seats, tables.c.host).where(
            or_(tables.c.seats.contains(f'"{source}"', autoescape=True), tables.c.host == source))).all()
        for table_id, text, host in found:
            seats = seats_of(text) or ()
            if target in seats:
                continue
            db.execute(update(tables).where(tables.c.id == table_id).values(
                seats=seats_text(tuple(target if holder == source else holder for holder in seats)),
                host=target if host == source else host))

    @staticmethod
    def _move_dailies(db: Connection, source: str, target: str) -> int:
        """The source's ranked daily attempts as the target's (before their
        owner moves); how many became practice because the target had an
        attempt that day.  A practice attempt stays no one's attempt of its
        day (its owner moves, not its ``device``): it must not take the
        target's chance of a ranked one."""
        attempts = db.execute(select(games.c.id, games.c.game, games.c.daily_day, games.c.device, games.c.ranked)
                              .where(games.c.owner == source, games.c.daily_day.is_not(None))).all()
        practice = 0
        for game_id, game, day, device, ranked in attempts:
            if ranked is not None and not ranked:  # (SQLite gives 0; NULL: from before practice, ranked)
                continue
            theirs = db.execute(select(games.c.id).where(games.c.game == game, games.c.daily_day == day,
                                                         games.c.device == target)).first()
            mine = and_(scores.c.game == game, scores.c.day == day, scores.c.device == device)
            if theirs is None:  # the day's only attempt: it and its leaderboard row are the target's now
                db.execute(update(games).where(games.c.id == game_id).values(device=target))
                db.execute(update(scores).where(mine).values(device=target))
            else:  # one ranked attempt a day: the target's stays; this one is practice, off the leaderboard
                practice += 1
                db.execute(update(games).where(games.c.id == game_id).values(ranked=False))
                db.execute(delete(scores).where(mine))
        return practice


def _has_passkey(db: Connection, who: str) -> bool:
    return db.execute(select(func.count()).select_from(passkeys).where(passkeys.c.identity == who)).scalar_one() > 0


def _games_of(db: Connection, who: str) -> int:
    seated = select(game_seats.c.game_id).where(game_seats.c.identity == who)
    query = select(func.count()).select_from(games).where((games.c.owner == who) | games.c.id.in_(seated))
    return int(db.execute(query).scalar_one())


__all__ = ["BringStore", "Brought", "Held"]
