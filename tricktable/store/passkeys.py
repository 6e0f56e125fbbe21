"""Passkeys: WebAuthn credentials registered to identities, and the
challenges handed out for registering and signing in (each taken once)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update

from tricktable.store.engine import Database
from tricktable.store.schema import passkey_challenges, passkeys


@dataclass(frozen=True)
class PasskeyRow:
    credential_id: str
    identity: str
    public_key: bytes
    sign_count: int
    created_at: float
    last_used_at: float | None


@dataclass(frozen=True)
class Challenge:
    purpose: str
    identity: str | None


class PasskeyStore(Database):
    """Passkeys and their challenges."""

    def add_challenge(self, challenge: str, purpose: str, identity: str | None, expires_at: float) -> None:
        with self._writing() as db:
            db.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_at < time.time()))
            db.execute(insert(passkey_challenges).values(challenge=challenge, purpose=purpose, identity=identity,
                                                         expires_at=expires_at))

    def take_challenge(self, challenge: str, purpose: str) -> Challenge | None:
        """The challenge if it was handed out for ``purpose`` and has not
        expired; it is used up either way (one answer per challenge)."""
        with self._writing() as db:
            found = db.execute(select(passkey_challenges).where(passkey_challenges.c.challenge == challenge)).first()
            if found is None:
                return None
            taken = db.execute(delete(passkey_challenges)
                               .where(passkey_challenges.c.challenge == challenge)).rowcount
        if taken != 1 or found.purpose != purpose or found.expires_at < time.time():
            return None
        return Challenge(found.purpose, found.identity)

    def add_passkey(self, credential_id: str, identity: str, public_key: bytes, sign_count: int) -> bool:
        """False if that credential is registered already."""
        with self._writing() as db:
            if db.execute(select(passkeys.c.identity).where(passkeys.c.credential_id == credential_id)).first():
                return False
            db.execute(insert(passkeys).values(credential_id=credential_id, identity=identity, public_key=public_key,
                                               sign_count=sign_count, created_at=time.time()))
        return True

    def passkey(self, credential_id: str) -> PasskeyRow | None:
        with self.engine.begin() as db:
            found = db.execute(select(passkeys).where(passkeys.c.credential_id == credential_id)).first()
        return PasskeyRow(**found._mapping) if found is not None else None

    def passkeys_of(self, identity: str) -> list[PasskeyRow]:
        with self.engine.begin() as db:
            found = db.execute(select(passkeys).where(passkeys.c.identity == identity)
                               .order_by(passkeys.c.created_at)).all()
        return [PasskeyRow(**row._mapping) for row in found]

    def passkey_used(self, credential_id: str, old_count: int, new_count: int) -> bool:
        """Move the sign counter on, only from ``old_count``: of two sign-ins
        racing with one counter value, one wins.  False for the other."""
        with self._writing() as db:
            return bool(db.execute(update(passkeys).where(passkeys.c.credential_id == credential_id,
                                                          passkeys.c.sign_count == old_count)
                                   .values(sign_count=new_count, last_used_at=time.time())).rowcount)

    def remove_passkey(self, identity: str, credential_id: str) -> bool:
        """False if ``identity`` has no such passkey (another's stays)."""
        with self._writing() as db:
            return bool(db.execute(delete(passkeys).where(passkeys.c.credential_id == credential_id,
                                                          passkeys.c.identity == identity)).rowcount)


__all__ = ["Challenge", "PasskeyRow", "PasskeyStore"]
