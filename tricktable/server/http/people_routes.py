"""The routes of people: the identity and its transfer to another device, nicknames."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from tricktable.nicknames import NicknameError, clean_nickname, skeletons
from tricktable.server.http.guards import (client_host, documented, identity, known_identity, limit, limited,
                                           set_identity_cookie)
from tricktable.server.play.room import Room
from tricktable.server.trust.days import utc_day
from tricktable.server.trust.identity import Identities, Identity, IdentityRefused


class Nickname(BaseModel):
    model_config = ConfigDict(strict=True)
    nickname: StrictStr = Field(min_length=1, max_length=200)


class TransferCode(BaseModel):
    model_config = ConfigDict(strict=True)
    code: StrictStr = Field(min_length=1, max_length=40)


def identity_json(who: Identity, identities: Identities) -> dict[str, Any]:
    """What the page may know about its identity (never the id: the cookie is
    HttpOnly so a script injected into the page could not carry it away),
    and whether today's daily attempts would be ranked (else why not)."""
    reason = identities.practice_reason(who, utc_day())
    return {"issued_day": who.issued_day, "ranked_today": reason is None, "practice_reason": reason}


def identities_of(app: FastAPI) -> Identities:
    identities: Identities = app.state.identities
    return identities


def people_routes(app: FastAPI, room: Room) -> None:
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
            code, seconds = identities_of(app).transfer_code(who)
        return {"code": code, "expires_in": seconds}

    @app.post("/api/identity/claim", **documented(200, 404, 429, body=True))
    def claim_transfer_code(request: Request, response: Response, body: TransferCode) -> dict[str, Any]:
        identities = identities_of(app)
        who = identities.redeem(body.code, client_host(request))
        if who is None:
            raise HTTPException(404, "that code is wrong, used or expired; make a new one on the other device")
        set_identity_cookie(request, response, identities, who)
        return identity_json(who, identities)

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


__all__ = ["identities_of", "identity_json", "people_routes"]
