"""The player identity: a random id the server issues, carried in a signed,
HttpOnly, SameSite cookie, and a one-time code to carry it to another device.

The cookie is ``<id>.<signature>`` with the signature an HMAC-SHA256 of the id
under a key derived from the server secret, so a client can neither make one
up nor change one.  The id is never sent in a response body (the page cannot
read it; only the browser sends it back).  When the identity was issued is
kept in the database: the daily ranking depends on it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone

from tricktable.server.trust.limits import Limits, RateLimiter, address_block
from tricktable.server.trust.days import day_start
from tricktable.store import Store

COOKIE = "tt_identity"
COOKIE_DAYS = 400  # browsers cap cookie lifetimes at about 400 days
TRANSFER_SECONDS = 600
# Transfer codes avoid letters that look alike (0/O, 1/I/L) so they survive
# being read aloud or typed from another screen.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
KNOWN_IDENTITIES = 4096
"""How many identities a server process remembers it found (``Identities.known``):
several times the people playing on one process at once."""


class IdentityRefused(Exception):
    """The presented identity is not one we issued: ``status`` 401 (not signed
    at all) or 403 (signed wrongly, or unknown)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Identity:
    id: str
    issued_at: float
    new: bool = False  # issued by this request: the response sets the cookie

    @property
    def issued_day(self) -> str:
        return datetime.fromtimestamp(self.issued_at, timezone.utc).strftime("%Y-%m-%d")

    def issued_before(self, day: str) -> bool:
        """Whether the identity existed when ``day`` (UTC) began."""
        return self.issued_at < day_start(day).timestamp()


class Identities:
    """Issuing, checking and transferring identities."""

    def __init__(self, store: Store, secret: str, limiter: RateLimiter, limits: Limits):
        self.store = store
        self._key = hmac.new(secret.encode(), b"identity cookie", hashlib.sha256).digest()
        self.limiter = limiter
        self.limits = limits
        self._found: OrderedDict[str, None] = OrderedDict()  # identities the database had (``known``)
        self._found_lock = threading.Lock()

    def sign(self, identity: str) -> str:
        mac = hmac.new(self._key, identity.encode(), hashlib.sha256).digest()
        return f"{identity}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"

    def check(self, cookie: str) -> Identity:
        """The identity a cookie carries, or ``IdentityRefused``."""
        identity = self._signed(cookie)
        row = self.store.identity(identity)
        if row is None:
            raise IdentityRefused("this server never issued that identity", 403)
        return Identity(row.id, row.issued_at)

    def known(self, cookie: str) -> str:
        """The id of the identity a cookie carries, checked as ``check`` does,
        for a request that needs nothing else of it (a person's action: its
        rate limit).  The database is asked only the first time in this
        process: an identity, once issued, is never deleted, and that read was
        one query in every action.  One it does not know is refused, and asked
        for again next time."""
        identity = self._signed(cookie)
        with self._found_lock:
            if identity in self._found:
                self._found.move_to_end(identity)
                return identity
        if self.store.identity(identity) is None:
            raise IdentityRefused("this server never issued that identity", 403)
        with self._found_lock:
            self._found[identity] = None
            while len(self._found) > KNOWN_IDENTITIES:
                self._found.popitem(last=False)
        return identity

    def _signed(self, cookie: str) -> str:
        """The identity of a cookie whose signature is this server's, or ``IdentityRefused``."""
        # A cookie is ASCII or it is not ours: ``compare_digest`` raises on
        # anything else, and a browser stuck with such a cookie could not
        # even ask for a fresh identity.
        if not cookie.isascii():
            raise IdentityRefused("the identity is not signed by this server; get one from POST /api/identity", 401)
        identity, dot, signature = cookie.partition(".")
        if not dot or not identity or not signature:
            raise IdentityRefused("the identity is not signed by this server; get one from POST /api/identity", 401)
        if not hmac.compare_digest(self.sign(identity), cookie):
            raise IdentityRefused("the identity's signature is wrong", 403)
        return identity

    def issue(self, host: str | None) -> Identity:
        """A new identity for a client at ``host`` (``TooMany`` when its
        address block has had too many lately; one the database refused
        does not count)."""
        block = address_block(host)
        counted = self.limiter.hit("new identities", block, self.limits.identity_per_address)
        try:
            row = self.store.add_identity(secrets.token_urlsafe(18), block)
        except BaseException:
            self.limiter.refund([counted])
            raise
        return Identity(row.id, row.issued_at, new=True)

    def practice_reason(self, who: Identity, day: str) -> str | None:
        """Why ``who``'s daily attempt on ``day`` would be practice, or None
        where it is ranked: ``"new_identity"`` (issued that day) or ``"no_finished_game"`` (no
        game finished before the day began).  Both, so that an identity can
        be neither made for the day nor stocked the day before: it must have
        been played with."""
        if not who.issued_before(day):
            return "new_identity"
        if not self.store.finished_a_game_before(who.id, day_start(day)):
            return "no_finished_game"
        return None

    def transfer_code(self, identity: Identity) -> tuple[str, int]:
        """A one-time code that carries ``identity`` to another device, and
        its lifetime in seconds."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        self.store.add_transfer_code(_code_hash(code), identity.id, time.time() + TRANSFER_SECONDS)
        return f"{code[:5]}-{code[5:]}", TRANSFER_SECONDS

    def redeem(self, code: str, host: str | None) -> Identity | None:
        """The identity a transfer code carries (the code is then used up);
        None for a wrong or expired code.  Guesses count against the address."""
        self.limiter.hit("transfer attempts", address_block(host), self.limits.transfer_per_address)
        normalized = "".join(c for c in code.upper() if c in CODE_ALPHABET)
        if len(normalized) != CODE_LENGTH:
            return None
        found = self.store.take_transfer_code(_code_hash(normalized))
        if found is None:
            return None
        row = self.store.identity(found)
        return Identity(row.id, row.issued_at, new=True) if row else None


def _code_hash(code: str) -> str:
    """Codes are stored hashed: a database reader cannot take an identity."""
    return hashlib.sha256(f"transfer/{code}".encode()).hexdigest()


__all__ = ["COOKIE", "Identities", "Identity", "IdentityRefused", "TRANSFER_SECONDS"]
