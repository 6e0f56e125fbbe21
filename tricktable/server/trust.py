"""The routes of trust: the identity and its transfer, the daily attempt and
its leaderboard, nicknames, deal commitments and revealed records."""

from __future__ import annotations

from typing import Any

import hashlib
import secrets

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from tricktable.catalog import GAMES
from tricktable.nicknames import NicknameError, clean_nickname, skeletons
from tricktable.server.fairness import deals_of
from tricktable.server.errors import GameNotFound
from tricktable.server.guards import (caller, client_host, documented, identity, known_identity, limit, limited,
                                      set_identity_cookie)
from tricktable.server.identity import COOKIE, Identities, Identity, IdentityRefused
from tricktable.server.room import Room, fairness_of, seed_revealed, utc_day
from tricktable.server.seats import seat_of
from tricktable.store import GameRow


class Nickname(BaseModel):
    model_config = ConfigDict(strict=True)
    nickname: StrictStr = Field(min_length=1, max_length=200)


class TransferCode(BaseModel):
    model_config = ConfigDict(strict=True)
    code: StrictStr = Field(min_length=1, max_length=40)


GAME_IN_PATH = Path(max_length=40, json_schema_extra={"enum": list(GAMES)})
"""A game's name in a path: documented as one of the games (an unknown one is a 404)."""


def identity_json(who: Identity, identities: Identities) -> dict[str, Any]:
    """What the page may know about its identity (never the id: the cookie is
    HttpOnly so a script injected into the page could not carry it away),
    and whether today's daily attempts would be ranked (else why not)."""
    reason = identities.practice_reason(who, utc_day())
    return {"issued_day": who.issued_day, "ranked_today": reason is None, "practice_reason": reason}


def trust_routes(app: FastAPI, room: Room) -> None:
    @app.post("/api/identity", **documented(200, 429, identity=True))
    def get_identity(request: Request, response: Response) -> dict[str, Any]:
        """The caller's identity; a new one if it has none or a bad one."""
        try:
            who = known_identity(request)
        except IdentityRefused:
            who = None
        identities: Identities = request.app.state.identities
        if who is None:
            who = identities.issue(client_host(request))
            set_identity_cookie(request, response, identities, who)
        return identity_json(who, identities)

    @app.post("/api/identity/transfer", **documented(200, 429, identity=True))
    def make_transfer_code(request: Request, who: Identity = Depends(identity)) -> dict[str, Any]:
        """A one-time code that carries this identity to another device."""
        with limited(request, "transfer_codes", who.id):
            code, seconds = request_identities(app).transfer_code(who)
        return {"code": code, "expires_in": seconds}

    @app.post("/api/identity/claim", **documented(200, 404, 429, body=True))
    def claim_transfer_code(request: Request, response: Response, body: TransferCode) -> dict[str, Any]:
        identities = request_identities(app)
        who = identities.redeem(body.code, client_host(request))
        if who is None:
            raise HTTPException(404, "that code is wrong, used or expired; make a new one on the other device")
        set_identity_cookie(request, response, identities, who)
        return identity_json(who, identities)

    @app.post("/api/daily/{game}", **documented(200, 404, 429, identity=True))
    def daily(request: Request, game: str = GAME_IN_PATH, who: Identity = Depends(identity)) -> dict[str, Any]:
        """The identity's attempt at today's daily deal (made on the first
        call, resumed after).  Ranked only for an identity issued before the
        day began that finished a game before it; else practice, dealt the
        previous day's daily deals (``daily.deals_day``; ``practice_reason``)."""
        _known(game)
        with limited(request, "daily", who.id):
            reason = request_identities(app).practice_reason(who, utc_day())
            attempt = room.daily_game(game, who.id, may_rank=reason is None)
        room.resume(attempt["id"])  # a new attempt's opening moves (live: the bots move in the background)
        if attempt["daily"] is not None and not attempt["daily"]["ranked"]:
            attempt["daily"]["practice_reason"] = reason or "earlier"
        return attempt

    @app.get("/api/daily/{game}/leaderboard", **documented(200, 404, identity=True))
    def leaderboard(
        request: Request, game: str = GAME_IN_PATH, day: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
    ) -> dict[str, Any]:
        _known(game)
        who = known_identity(request)
        return room.store.leaderboard(game, day or utc_day(), who.id if who else None)

    @app.put("/api/nickname", **documented(200, 409, 429, identity=True, body=True))
    def set_nickname(request: Request, body: Nickname, who: Identity = Depends(identity)) -> dict[str, Any]:
        try:
            nickname = clean_nickname(body.nickname)
        except NicknameError as error:
            raise HTTPException(422, str(error)) from None
        limit(request, "nickname", who.id)
        if not room.store.set_nickname(who.id, nickname, skeletons(nickname)):
            raise HTTPException(409, f"{nickname!r} is taken (or looks like a name that is); choose another")
        return {"nickname": nickname}

    @app.get("/api/nickname", **documented(200, identity=True))
    def get_nickname(request: Request) -> dict[str, Any]:
        who = known_identity(request)
        return {"nickname": room.store.nickname(who.id) if who else None}

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
        seat_of(row, who)
        if row.status != "over":
            raise HTTPException(409, "a game is shared once it is over")
        with limited(request, "shares", who):
            token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
            room.store.share(_share_hash(token), row.id)
        return {"token": token, "record": f"/api/shared/{token}"}

    @app.get("/api/shared/{token}", **documented(200, 403, 404))
    def shared_record(token: str = Path(min_length=1, max_length=64)) -> dict[str, Any]:
        """The record a share link opens (as ``/record`` gives its owner)."""
        game_id = room.store.shared_game(_share_hash(token))
        row = room.store.load(game_id) if game_id is not None else None
        if row is None:
            raise HTTPException(404, "that link opens nothing; ask its owner for a new one")
        return _revealed(room, row)


def _revealed(room: Room, row: GameRow) -> dict[str, Any]:
    """``row``'s whole record with its seeds and deals, once they are revealed."""
    state = room.referee.cache.take(row).state
    fairness = fairness_of(row, state)
    if fairness is None:
        raise HTTPException(404, "this game was made before deal commitments; it has none")
    if not seed_revealed(row, state):
        when = "when its UTC day has ended" if row.daily_day else "when the game is over"
        raise HTTPException(403, f"the seed is revealed {when}")
    record = {k: v for k, v in row.record.items() if k != "level"}
    return {**record, "fairness": {k: fairness[k] for k in ("commitment", "server_seed", "client_seed")},
            "deals": deals_of(row.record)}




SHARE_TOKEN_BYTES = 24
"""192 bits: a share link cannot be guessed."""


def _share_hash(token: str) -> str:
    return hashlib.sha256(f"share/{token}".encode()).hexdigest()


def request_identities(app: FastAPI) -> Identities:
    identities: Identities = app.state.identities
    return identities


def _known(game: str) -> None:
    if game not in GAMES:
        raise HTTPException(404, f"unknown game {game!r}")


__all__ = ["trust_routes", "COOKIE"]
