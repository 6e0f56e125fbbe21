"""The routes of "learn from your games": a person's history, a finished
game's replay with every hand face up (for its owner, and for whoever holds a
share link: nicknames only, never identities), and a record file opened in
the replay viewer."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from tricktable.catalog import GAMES, Seating, entry, replay
from tricktable.errors import GameError
from tricktable.server.http.game_routes import FastJSON, Strict
from tricktable.server.http.guards import caller, documented, limited
from tricktable.server.http.record_routes import shared_game
from tricktable.server.play.errors import GameNotFound
from tricktable.server.play.replay import Walkthroughs, walkthrough
from tricktable.server.play.room import Room
from tricktable.server.play.seats import seat_of
from tricktable.server.play.view import HUMAN, level_of
from tricktable.server.trust.fairness import seed_revealed
from tricktable.store import GameRow
from tricktable.store.history import HISTORY_MAX


class Upload(Strict):
    """A record as ``GET /api/games/{id}/record`` gives it (its ``deals`` and
    ``fairness`` may be left out: the replay needs neither)."""

    record: dict[str, Any] = Field(description="a game record (tricktable replay reads the same JSON)")


def replay_routes(app: FastAPI, room: Room) -> None:
    walkthroughs = Walkthroughs()

    @app.get("/api/history", **documented(200, identity=True))
    def history(request: Request, game: str | None = Query(None, max_length=40),
                limit_: int = Query(20, alias="limit", ge=1, le=HISTORY_MAX),
                before: str | None = Query(None, min_length=1, max_length=40)) -> dict[str, Any]:
        """The caller's games, newest first (``game``: one game's only), a
        page of ``limit``; ``next`` is the ``before`` of the next page (null:
        this is the last).  A caller without an identity has none."""
        if game is not None and game not in GAMES:
            raise HTTPException(422, f"unknown game {game!r}; known: {', '.join(GAMES)}")
        who = caller(request)
        rows = room.store.history(who, game, limit_, before) if who is not None else []
        entries = [history_entry(row, created, seat_of(row, who)) for row, created in rows]
        return {"games": entries, "next": entries[-1]["id"] if len(entries) == limit_ else None}

    @app.get("/api/games/{game_id}/replay", **documented(200, 403, 404, 409, 429, identity=True))
    def own_replay(request: Request, game_id: str) -> JSONResponse:
        """The finished game action by action with every hand face up, for
        its owner: 409 while it is being played; a daily game's once its UTC
        day has ended (403 before: it would show the day's cards)."""
        who = caller(request)
        row = room.store.load(game_id)
        if row is None:
            raise GameNotFound("no such game")
        seat = seat_of(row, who)
        if row.status != "over":
            raise HTTPException(409, "a game is replayed once it is over")
        with limited(request, "replays", who):  # (one refused for its day is not counted)
            return FastJSON({"id": row.id, **_replay_of(row, seat)})

    @app.get("/api/shared/{token}/replay", **documented(200, 403, 404, 429))
    def shared_replay(request: Request, token: str = Path(min_length=1, max_length=64)) -> JSONResponse:
        """The replay a share link opens: as the person who shared it sees it
        (his seat at the bottom), with the people's nicknames (if any) and
        nothing else of who played."""
        row, seat = shared_game(room, token)
        with limited(request, "replays", caller(request)):
            return FastJSON(_replay_of(row, seat))

    @app.post("/api/records/replay", **documented(200, 422, 429, body=True))
    def uploaded_replay(request: Request, body: Upload) -> JSONResponse:
        """A record file opened in the replay viewer: replayed (a record
        that does not replay: 422 naming the action and the reason) and told
        as a stored game's replay is."""
        with limited(request, "replays", caller(request)):
            return FastJSON({**_header(body.record), "players": [None] * 4, "seat": HUMAN,
                             **_walkthrough_of(body.record)})

    def _replay_of(row: GameRow, seat: int) -> dict[str, Any]:
        """``row``'s replay for the person at ``seat`` (``seat``: the viewer draws it at the bottom and
        reads its analysis); ``players``: the nickname of each seat's person, if he chose one."""
        if row.status != "over" or (row.daily_day and not seed_revealed(row, room.referee.cache.take(row).state)):
            when = "when its UTC day has ended" if row.daily_day else "when the game is over"
            raise HTTPException(403, f"this game is replayed {when}")
        return {**_header(row.record), "level": level_of(row), "daily": row.daily_day, "seat": seat,
                "players": _nicknames(row),
                **walkthroughs.of(row.id, row.version, {k: v for k, v in row.record.items() if k != "level"})}

    def _nicknames(row: GameRow) -> list[str | None]:
        holders = list(row.seats) if row.seats is not None else [row.owner, None, None, None]
        names = room.store.nicknames_of([holder for holder in holders if holder is not None])
        return [names.get(holder) if holder is not None else None for holder in holders]


def _walkthrough_of(record: dict[str, Any]) -> dict[str, Any]:
    """An uploaded record's frames; 422 with the reason for one that does not replay."""
    try:
        return walkthrough(record)
    except ValueError as error:  # GameError names the action and the reason
        raise HTTPException(422, f"this record does not replay: {error}") from None
    except (KeyError, TypeError, AttributeError) as error:  # a deal object of the wrong shape
        raise HTTPException(422, f"this record does not replay: it is not shaped as a record ({error})") from None


def _header(record: dict[str, Any]) -> dict[str, Any]:
    return {"game": record.get("game"), "options": record.get("options", {}), "level": None, "daily": None}


def history_entry(row: GameRow, created: Any, seat: int = HUMAN) -> dict[str, Any]:
    """One game of a person's history: what it was, his ``seat`` in it, where
    it stands, and its result as the game tells it (the person's points and
    every seat's totals; won or lost where the game names a winning team)."""
    return {"id": row.id, "game": row.game, "created": created.isoformat() if created is not None else None,
            "options": row.record.get("options", {}), "level": level_of(row), "status": row.status,
            "daily": row.daily_day, "ranked": row.counts_on_leaderboard, "actions": len(row.record["actions"]),
            "seat": seat, "result": _result(row, seat)}


def _result(row: GameRow, seat: int) -> dict[str, Any] | None:
    try:
        state = replay({k: v for k, v in row.record.items() if k != "level"})
    except GameError:
        return None  # (a stored record always replays; a history page never fails for one that would not)
    match = state.view(seat).get("match") or {}
    totals = list(match.get("totals", state.returns()))
    winner = match.get("winner_team")
    teams = entry(row.game).seating is Seating.PARTNERS_OPPOSITE
    won = None if winner is None or not teams or not state.is_terminal() else winner == seat % 2
    return {"points": totals[seat] if len(totals) > seat else totals[seat % 2], "totals": totals, "won": won, "deals": match.get("deal_number"),
            "daily_score": match.get("daily_score") if row.daily_day else None}


__all__ = ["history_entry", "replay_routes"]
