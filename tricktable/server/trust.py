"""The routes of trust: the identity and its transfer, the daily attempt and
its leaderboard, nicknames, deal commitments and revealed records."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from tricktable.catalog import GAMES
from tricktable.nicknames import NicknameError, clean_nickname, skeleton
from tricktable.server.fairness import deals_of
from tricktable.server.guards import identity, known_identity, limit, responses, set_identity_cookie
from tricktable.server.identity import COOKIE, Identities, Identity, IdentityRefused
from tricktable.server.room import Room, fairness_of, seed_revealed, utc_day


class Nickname(BaseModel):
    model_config = ConfigDict(strict=True)
    nickname: StrictStr = Field(max_length=200)


class TransferCode(BaseModel):
    model_config = ConfigDict(strict=True)
    code: StrictStr = Field(min_length=1, max_length=40)


def identity_json(who: Identity) -> dict[str, Any]:
    """What the page may know about its identity (never the id: the cookie is
    HttpOnly so a script injected into the page could not carry it away)."""
    return {"issued_day": who.issued_day, "ranked_today": who.issued_before(utc_day())}


def trust_routes(app: FastAPI, room: Room) -> None:
    @app.post("/api/identity", responses=responses(200, 429))
    def get_identity(request: Request, response: Response) -> dict[str, Any]:
        """The caller's identity; a new one if it has none or a bad one."""
        try:
            who = known_identity(request)
        except IdentityRefused:
            who = None
        if who is None:
            identities: Identities = request.app.state.identities
            who = identities.issue(request.client.host if request.client else None)
            set_identity_cookie(request, response, identities, who)
        return identity_json(who)

    @app.post("/api/identity/transfer", responses=responses(200, 401, 403, 429))
    def make_transfer_code(who: Identity = Depends(identity)) -> dict[str, Any]:
        """A one-time code that carries this identity to another device."""
        code, seconds = request_identities(app).transfer_code(who)
        return {"code": code, "expires_in": seconds}

    @app.post("/api/identity/claim", responses=responses(200, 404, 429))
    def claim_transfer_code(request: Request, response: Response, body: TransferCode) -> dict[str, Any]:
        identities = request_identities(app)
        who = identities.redeem(body.code, request.client.host if request.client else None)
        if who is None:
            raise HTTPException(404, "that code is wrong, used or expired; make a new one on the other device")
        set_identity_cookie(request, response, identities, who)
        return identity_json(who)

    @app.post("/api/daily/{game}", responses=responses(200, 401, 403, 404, 429))
    def daily(request: Request, game: str, who: Identity = Depends(identity)) -> dict[str, Any]:
        _known(game)
        limit(request, "daily", who)
        attempt = room.daily_game(game, who.id, may_rank=who.issued_before(utc_day()))
        room.resume(attempt["id"])  # a new attempt's opening moves (live: the bots move in the background)
        return attempt

    @app.get("/api/daily/{game}/leaderboard", responses=responses(200, 401, 403, 404))
    def leaderboard(
        request: Request, game: str, day: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
    ) -> dict[str, Any]:
        _known(game)
        who = known_identity(request)
        return room.store.leaderboard(game, day or utc_day(), who.id if who else None)

    @app.put("/api/nickname", responses=responses(200, 401, 403, 409, 429))
    def set_nickname(request: Request, body: Nickname, who: Identity = Depends(identity)) -> dict[str, Any]:
        try:
            nickname = clean_nickname(body.nickname)
        except NicknameError as error:
            raise HTTPException(422, str(error)) from None
        limit(request, "nickname", who)
        if not room.store.set_nickname(who.id, nickname, skeleton(nickname)):
            raise HTTPException(409, f"{nickname!r} is taken (or looks like a name that is); choose another")
        return {"nickname": nickname}

    @app.get("/api/nickname", responses=responses(200, 401, 403))
    def get_nickname(request: Request) -> dict[str, Any]:
        who = known_identity(request)
        return {"nickname": room.store.nickname(who.id) if who else None}

    @app.post("/api/commitments", responses=responses(200))
    def commitment() -> dict[str, str]:
        """A deal commitment for the next new game: show ``commitment``, then
        send ``nonce`` and a client seed with ``POST /api/games``."""
        return room.commitments.offer()

    @app.get("/api/games/{game_id}/record", responses=responses(200, 403, 404))
    def revealed_record(game_id: str) -> dict[str, Any]:
        """The whole record with its seeds and deals, once they are revealed
        (``tricktable verify`` and the page's verify link check it)."""
        row = room.store.load(game_id)
        if row is None:
            raise HTTPException(404, "no such game")
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


def request_identities(app: FastAPI) -> Identities:
    return app.state.identities


def _known(game: str) -> None:
    if game not in GAMES:
        raise HTTPException(404, f"unknown game {game!r}")


__all__ = ["trust_routes", "COOKIE"]
