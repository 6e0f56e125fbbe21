"""People: identities, their transfer codes and nicknames."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from tricktable.store.engine import Database
from tricktable.store.schema import games, identities, nicknames, transfer_codes

IDENTITY_ISSUED = select(identities.c.issued_at).where(identities.c.id == bindparam("identity_id"))


@dataclass(frozen=True)
class IdentityRow:
    id: str
    issued_at: float


class PeopleStore(Database):
    """Identities, transfer codes and nicknames."""

    def add_identity(self, identity: str, address: str) -> IdentityRow:
        row = IdentityRow(identity, time.time())
        with self._writing() as db:
            db.execute(insert(identities).values(id=identity, issued_at=row.issued_at, address=address))
        return row

    def identity(self, identity: str) -> IdentityRow | None:
        with self._raw() as db:
            found = db.run(IDENTITY_ISSUED, {"identity_id": identity}).fetchone()
        return IdentityRow(identity, found[0]) if found is not None else None

    def add_transfer_code(self, code_hash: str, identity: str, expires_at: float) -> None:
        with self._writing() as db:
            db.execute(delete(transfer_codes).where(transfer_codes.c.expires_at < time.time()))
            db.execute(insert(transfer_codes).values(code_hash=code_hash, identity=identity, expires_at=expires_at))

    def take_transfer_code(self, code_hash: str) -> str | None:
        """The identity a code carries, if it is valid now; the code is used
        up either way (one time only)."""
        with self._writing() as db:
            found = db.execute(
                select(transfer_codes.c.identity, transfer_codes.c.expires_at)
                .where(transfer_codes.c.code_hash == code_hash)
            ).first()
            if found is None:
                return None
            taken = db.execute(delete(transfer_codes).where(transfer_codes.c.code_hash == code_hash)).rowcount
        return found.identity if taken == 1 and found.expires_at >= time.time() else None

    def finished_a_game_before(self, identity: str, before: datetime) -> bool:
        """Whether ``identity`` owns a game that was over before ``before``
        (its last commit, which ended it, came earlier)."""
        query = (select(games.c.id).where(games.c.owner == identity, games.c.status == "over",
                                          games.c.updated_at < before).limit(1))
        with self.engine.begin() as db:
            return db.execute(query).first() is not None

    def set_nickname(self, device: str, nickname: str, keys: tuple[str, str]) -> bool:
        """Store the nickname with its two look-alike keys
        (``nicknames.skeletons``); False if someone else's name has either."""
        skeleton, case_skeleton = keys
        try:
            with self._writing() as db:
                changed = db.execute(
                    update(nicknames).where(nicknames.c.device == device)
                    .values(nickname=nickname, skeleton=skeleton, case_skeleton=case_skeleton)
                ).rowcount
                if not changed:
                    db.execute(insert(nicknames).values(device=device, nickname=nickname, skeleton=skeleton,
                                                        case_skeleton=case_skeleton))
        except IntegrityError:
            return False
        return True

    def nickname(self, device: str) -> str | None:
        with self.engine.begin() as db:
            return db.execute(select(nicknames.c.nickname).where(nicknames.c.device == device)).scalar()

    def nicknames_of(self, devices: list[str]) -> dict[str, str]:
        """The nicknames of those of ``devices`` that chose one, in one query."""
        if not devices:
            return {}
        with self.engine.begin() as db:
            found = db.execute(select(nicknames.c.device, nicknames.c.nickname).where(nicknames.c.device.in_(devices)))
            return {device: nickname for device, nickname in found}



__all__ = ["IdentityRow", "PeopleStore"]
