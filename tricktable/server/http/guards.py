"""What every route that needs one asks first: who is calling (the identity
cookie), whether a rate limit allows it, and the status codes it documents."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from fastapi import Request, Response

from tricktable.server.trust.identity import COOKIE, COOKIE_DAYS, Identities, Identity
from tricktable.server.trust.limits import Counted, RateLimiter, address_block


def identity(request: Request, response: Response) -> Identity:
    """The caller's identity from its cookie; a client without one gets a new
    one (rate-limited per address block); a forged one is refused."""
    cookie = request.cookies.get(COOKIE)
    identities: Identities = request.app.state.identities
    if cookie is None:
        found = identities.issue(request.client.host if request.client else None)
        set_identity_cookie(request, response, identities, found)
        return found
    return identities.check(cookie)


def known_identity(request: Request) -> Identity | None:
    """The caller's identity if it sent one (a forged one is refused)."""
    cookie = request.cookies.get(COOKIE)
    return request.app.state.identities.check(cookie) if cookie is not None else None


def caller(request: Request) -> str | None:
    """The id of the caller's identity if it sent one, for a request that
    needs nothing else of it (reading or playing a game: whose it is); the
    database is asked once per identity and process.  A forged one is refused."""
    cookie = request.cookies.get(COOKIE)
    identities: Identities = request.app.state.identities
    return identities.known(cookie) if cookie is not None else None


def set_identity_cookie(request: Request, response: Response, identities: Identities, found: Identity) -> None:
    response.set_cookie(COOKIE, identities.sign(found.id), max_age=COOKIE_DAYS * 86400, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https", path="/")


def limit(request: Request, what: str, who: str | None) -> list[Counted]:
    """Count one ``what`` (a ``Limits`` field prefix) against the identity
    ``who`` and the address block; ``TooMany`` when either is over.  The
    counts taken, for ``refund``."""
    limiter: RateLimiter = request.app.state.limiter
    return limiter.count(what, who, address_block(client_host(request)), request.app.state.limits)


@contextmanager
def limited(request: Request, what: str, who: str | None) -> Iterator[None]:
    """``limit``, for a request that creates something: one refused after it
    was counted (busy database, a cap, a bad option) is not counted, so a
    person who met a 503 is not also locked out by it."""
    taken = limit(request, what, who)
    try:
        yield
    except BaseException:
        request.app.state.limiter.refund(taken)
        raise


def client_host(request: Request) -> str | None:
    return request.client.host if request.client else None


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of an endpoint: every status it can answer."""
    return {code: {"description": STATUS_TEXTS[code]} for code in sorted({*codes, 413, 422, 503})}


def documented(*codes: int, identity: bool = False, body: bool = False,
               resumes: bool = False) -> dict[str, Any]:
    """A route decorator's OpenAPI arguments: ``responses`` with every status
    it can answer, and the inputs FastAPI cannot see in its signature:
    ``identity``, the identity cookie it reads (a bad one: 401 or 403);
    ``body``, a JSON body (one that cannot be read at all: 400);
    ``resumes``, an event stream's ``Last-Event-ID``."""
    statuses = {*codes, *((401, 403) if identity else ()), *((400,) if body else ())}
    parameters = []
    if identity:
        parameters.append({"name": COOKIE, "in": "cookie", "required": False, "schema": {"type": "string"},
                           "description": "The identity the server issued (HttpOnly; the browser sends it)."})
    if resumes:
        parameters.append({"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"},
                           "description": "The version a reconnecting stream saw (ASCII digits; else ignored)."})
    return {"responses": responses(*statuses), **({"openapi_extra": {"parameters": parameters}} if parameters else {})}


STATUS_TEXTS = {
    200: "OK", 201: "Created", 202: "Accepted: it runs in the background",
    400: "The request body could not be read at all",
    401: "The identity cookie is not signed",
    403: "The identity is forged or unknown, or the action is not allowed here",
    404: "No such game (or code)",
    409: "The game is at another version, or it is not your turn",
    413: "The request body is over 16 KB",
    422: "The request is not as typed, or the action is against the rules",
    429: "Too many requests, or too many open games (see Retry-After)",
    503: "The database is busy or unreachable (see Retry-After)",
}


__all__ = ["caller", "client_host", "documented", "identity", "known_identity", "limit", "limited", "responses", "set_identity_cookie", "STATUS_TEXTS"]
