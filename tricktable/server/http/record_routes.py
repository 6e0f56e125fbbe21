"""The routes of fair deals and records: a deal commitment before a game, a
finished game's revealed record for its owner, and share links to it."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from fastapi import FastAPI, HTTPException, Path, Request

from tricktable.server.http.guards import caller, documented, limit, limited
from tricktable.server.play.errors import GameNotFound
from tricktable.server.play.room import Room
from tricktable.server.play.seats import seat_of
from tricktable.server.trust.fairness import deals_of, fairness_of, seed_revealed
from tricktable.store import GameRow


def record_routes(app: FastAPI, room: Room) -> None:
    @app.post("/api/commitments", **documented(200, 429, identity=True))
    def commitment(request: Request) -> dict[str, str]:
        """A deal commitment for the next new game: show ``commitment``, then
        send ``nonce`` and a client seed with ``POST /api/games``."""
        limit(request, "commitments", caller(request))
        return room.commitments.offer()

    @app.get("/api/games/{game_id}/record", **documented(200, 404, identity=True))
    def revealed_record(request: Request, game_id: str) -> dict[str, Any]:
        """The whole record with its seeds and deals, once they are revealed
        (``tricktable verify`` and the page's verify link check it): for the
        game's owner only; others read it through a share link."""
        row = room.store.load(game_id)
        if row is None:
            raise GameNotFound("no such game")
        seat_of(row, caller(request))
        return _revealed(room, row)

    @app.post("/api/games/{game_id}/share", status_code=201, **documented(201, 404, 409, 429, identity=True))
    def share_record(request: Request, game_id: str) -> dict[str, str]:
        """A link that shows this finished game's record to whoever holds it
        (the owner gives it out; the id alone opens nothing).  Each call makes
        a new link."""
        row = room.store.load(game_id)
        if row is None:
            raise GameNotFound("no such game")
        who = caller(request)
        seat = seat_of(row, who)
        if row.status != "over":
            raise HTTPException(409, "a game is shared once it is over")
        with limited(request, "shares", who):
            token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
            room.store.share(share_hash(token), row.id, seat)  # the link shows the game from the sharer's seat
        return {"token": token, "record": f"/api/shared/{token}"}

    @app.get("/api/shared/{token}", **documented(200, 403, 404))
    def shared_record(token: str = Path(min_length=1, max_length=64)) -> dict[str, Any]:
        """The record a share link opens (as ``/record`` gives its owner)."""
        return _revealed(room, shared_game(room, token)[0])


def shared_game(room: Room, token: str) -> tuple[GameRow, int]:
    """The game a share link opens and the seat of the person who shared it (404 if none)."""
    found = room.store.shared_game(share_hash(token))
    row = room.store.load(found[0]) if found is not None else None
    if row is None or found is None:
        raise HTTPException(404, "that link opens nothing; ask its owner for a new one")
    return row, found[1]


def _revealed(room: Room, row: GameRow) -> dict[str, Any]:
    """``row``'s whole record with its seeds and deals, once they are revealed."""
    state = room.referee.cache.take(row).state
    fairness = fairness_of(row, state)
    if fairness is None:
        copied = row.record.get("copy_of") is not None
        raise HTTPException(404, "this game is a copy of another game's position; it has no deal commitment"
                            if copied else "this game was made before deal commitments; it has none")
    if not seed_revealed(row, state):
        when = "when its UTC day has ended" if row.daily_day else "when the game is over"
        raise HTTPException(403, f"the seed is revealed {when}")
    record = {k: v for k, v in row.record.items() if k != "level"}
    return {**record, "fairness": {k: fairness[k] for k in ("commitment", "server_seed", "client_seed")},
            "deals": deals_of(row.record)}


SHARE_TOKEN_BYTES = 24
"""192 bits: a share link cannot be guessed."""


def share_hash(token: str) -> str:
    return hashlib.sha256(f"share/{token}".encode()).hexdigest()


__all__ = ["record_routes", "shared_game"]
