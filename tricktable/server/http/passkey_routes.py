"""The routes of passkeys: register one to the caller's identity, sign in
with one (the identity's cookie is set again), list and remove one's own."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from tricktable.server.http.guards import documented, identity, known_identity, limit, set_identity_cookie
from tricktable.server.http.people_routes import identities_of, identity_json
from tricktable.server.play.room import Room
from tricktable.server.trust.identity import Identity, IdentityRefused
from tricktable.server.trust.passkeys import MAX_CREDENTIAL_ID, PasskeyRefused, Passkeys
from tricktable.store.bring import Held
from tricktable.store.passkeys import PasskeyRow


class PasskeyAnswer(BaseModel):
    """What ``navigator.credentials.create`` or ``.get`` gave the page, as its ``toJSON()``."""

    model_config = ConfigDict(strict=True, extra="forbid")
    credential: dict[str, Any]


class SignInAnswer(PasskeyAnswer):
    bring: StrictBool = Field(False, description=(
        "Move the games of this browser's identity (which has no passkey) to the passkey's identity."))


def passkeys_of(app: FastAPI) -> Passkeys:
    passkeys: Passkeys = app.state.passkeys
    return passkeys


def request_origin(request: Request) -> str:
    """The origin the browser sent this request to (behind a proxy: its
    ``X-Forwarded-Proto`` and ``Host``, as uvicorn reads them)."""
    return f"{request.url.scheme}://{request.url.netloc}"


def passkey_json(row: PasskeyRow) -> dict[str, Any]:
    return {"id": row.credential_id, "created_at": row.created_at, "last_used_at": row.last_used_at}


def browser_identity(request: Request) -> str | None:
    """The id of the identity this browser's cookie carries, if it is a good
    one: a passkey signs in a browser whose cookie is bad too (it replaces it)."""
    try:
        found = known_identity(request)
    except IdentityRefused:
        return None
    return found.id if found is not None else None


def passkey_routes(app: FastAPI, room: Room) -> None:
    passkeys = passkeys_of(app)

    @app.post("/api/passkeys/register/options", **documented(200, 409, 429, identity=True))
    def registration_options(request: Request, who: Identity = Depends(identity)) -> dict[str, Any]:
        """Options for ``navigator.credentials.create``: a passkey for this identity."""
        limit(request, "passkeys", who.id)
        name = room.store.nickname(who.id) or f"tricktable {who.issued_day}"
        return passkeys.registration_options(who.id, name, request_origin(request))

    @app.post("/api/passkeys/register", status_code=201, **documented(201, 400, 409, 429, identity=True, body=True))
    def register(request: Request, body: PasskeyAnswer, who: Identity = Depends(identity)) -> dict[str, Any]:
        """Keep the passkey the browser made for an options' challenge of this identity's."""
        limit(request, "passkeys", who.id)
        return passkey_json(passkeys.register(who.id, body.credential, request_origin(request)))

    @app.post("/api/passkeys/sign-in/options", **documented(200, 429))
    def sign_in_options(request: Request) -> dict[str, Any]:
        """Options for ``navigator.credentials.get``: any passkey of this site
        may answer.  ``here``: what this browser's identity holds, that signing
        in would leave behind (its ``games``; whether it has a ``passkey`` of its
        own, and so cannot be brought along)."""
        limit(request, "passkey_sign_ins", None)
        here = browser_identity(request)
        held = room.store.held(here) if here is not None else Held(0, False)
        return {**passkeys.sign_in_options(request_origin(request)),
                "here": {"games": held.games, "passkey": held.passkey}}

    @app.post("/api/passkeys/sign-in", **documented(200, 400, 409, 429, body=True))
    def sign_in(request: Request, response: Response, body: SignInAnswer) -> dict[str, Any]:
        """The identity of the passkey that answered: its cookie is set on this
        browser.  With ``bring``, the games of the browser's identity move to
        it first (``brought``); 409, changing nothing, if that identity has a
        passkey of its own (two such identities are never merged)."""
        limit(request, "passkey_sign_ins", None)  # a refused answer counts too: tries are what it limits
        here = browser_identity(request)
        found = passkeys.sign_in(body.credential, request_origin(request))
        brought = None
        if body.bring and here is not None and here != found:
            brought = room.store.bring_along(here, found)
            if brought is None:
                raise PasskeyRefused("this browser's identity has a passkey of its own; its games stay with it "
                                     "(sign in with that passkey to play them)", 409)
        identities = identities_of(app)
        who = identities.check(identities.sign(found))
        set_identity_cookie(request, response, identities, who)
        return {**identity_json(who, identities), "nickname": room.store.nickname(who.id),
                "brought": {"games": brought.games, "practice_dailies": brought.practice_dailies}
                if brought is not None else None}

    @app.get("/api/passkeys", **documented(200, 429, identity=True))
    def list_passkeys(request: Request) -> dict[str, Any]:
        """This identity's passkeys (none without an identity)."""
        who = known_identity(request)
        if who is None:
            return {"passkeys": []}
        limit(request, "passkeys", who.id)
        return {"passkeys": [passkey_json(row) for row in passkeys.owned(who.id)]}

    @app.delete("/api/passkeys/{credential_id}", **documented(200, 404, 429, identity=True))
    def remove_passkey(request: Request,
                       credential_id: str = Path(min_length=1, max_length=MAX_CREDENTIAL_ID)) -> dict[str, Any]:
        """Remove one of this identity's passkeys (another's, or without an identity: 404)."""
        who = known_identity(request)
        if who is None:
            raise PasskeyRefused("no such passkey", 404)
        limit(request, "passkeys", who.id)
        passkeys.remove(who.id, credential_id)
        return {"removed": credential_id}

__all__ = ["PasskeyAnswer", "SignInAnswer", "passkey_routes"]
