"""Passkeys (WebAuthn) that keep an identity without an e-mail or a password:
a person registers one to the identity its cookie carries, and signing in
with it later, on a cleared browser or another device, sets that identity's
cookie again.  The WebAuthn checks themselves are the ``webauthn`` library's.

Challenges are stored server-side (``Store.add_challenge``), live
``CHALLENGE_SECONDS`` and are taken by the first answer, right or wrong; a
registration's is bound to the identity that asked for it.  The relying
party (the site a passkey belongs to) is ``TRICKTABLE_ORIGIN`` where the
operator set it, else the origin the request came to (as the browser saw it:
scheme from the proxy's ``X-Forwarded-Proto``, host from ``Host``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import urlsplit

from webauthn import (generate_authentication_options, generate_registration_options, options_to_json,
                      verify_authentication_response, verify_registration_response)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor,
                                      ResidentKeyRequirement, UserVerificationRequirement)

from tricktable.store import Store
from tricktable.store.passkeys import PasskeyRow

CHALLENGE_SECONDS = 300
"""How long a challenge may be answered: the browser's own dialog times out at 60 s."""
RP_NAME = "tricktable"
ORIGIN_VARIABLE = "TRICKTABLE_ORIGIN"
REGISTER, SIGN_IN = "register", "sign_in"
MAX_CREDENTIAL_ID = 1400
"""Characters of a credential id in base64url: WebAuthn's ids have at most 1,023 bytes."""
MAX_PASSKEYS = 10
"""Per identity: enough for every device a person has."""


class PasskeyRefused(Exception):
    """A passkey step refused: ``status`` 400 (an answer that does not check
    out: wrong, replayed or expired challenge, bad signature or counter),
    404 (no such passkey) or 409 (registered already, or too many)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class RelyingParty:
    """The site passkeys are made for: its RP id (a host name) and origin."""

    id: str
    origin: str

    @classmethod
    def of(cls, configured: str | None, request_origin: str) -> "RelyingParty":
        """``configured`` (the operator's ``TRICKTABLE_ORIGIN``) where set,
        else the request's own origin."""
        origin = (configured or request_origin).rstrip("/")
        host = urlsplit(origin).hostname
        if not host:
            raise ValueError(f"{origin!r} is not an origin (scheme://host[:port])")
        return cls(host, origin)


def configured_origin() -> str | None:
    return os.environ.get(ORIGIN_VARIABLE) or None


class Passkeys:
    """Registering, signing in with, listing and removing passkeys."""

    def __init__(self, store: Store, secret: str, origin: str | None = None):
        self.store = store
        self.origin = origin
        # The user handle an authenticator keeps: derived from the identity, so
        # it never carries the identity's id itself (which is the cookie's secret).
        self._handle_key = hmac.new(secret.encode(), b"passkey user handle", hashlib.sha256).digest()

    def relying_party(self, request_origin: str) -> RelyingParty:
        return RelyingParty.of(self.origin, request_origin)

    def registration_options(self, identity: str, name: str, request_origin: str) -> dict[str, Any]:
        """The options for ``navigator.credentials.create`` (as JSON): a new
        challenge bound to ``identity``; its passkeys are excluded."""
        owned = self.store.passkeys_of(identity)
        if len(owned) >= MAX_PASSKEYS:
            raise PasskeyRefused(f"at most {MAX_PASSKEYS} passkeys; remove one first", 409)
        rp = self.relying_party(request_origin)
        options = generate_registration_options(
            rp_id=rp.id, rp_name=RP_NAME, user_name=name, user_display_name=name,
            user_id=hmac.new(self._handle_key, identity.encode(), hashlib.sha256).digest(),
            timeout=CHALLENGE_SECONDS * 1000,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,  # found by the browser: no user name to type
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id))
                                 for p in owned])
        self.store.add_challenge(bytes_to_base64url(options.challenge), REGISTER, identity,
                                 time.time() + CHALLENGE_SECONDS)
        return _json(options_to_json(options))

    def register(self, identity: str, credential: Mapping[str, Any], request_origin: str) -> PasskeyRow:
        """Check the browser's answer to a registration challenge of
        ``identity``'s and keep the passkey."""
        challenge = self._take_challenge(credential, REGISTER)
        if challenge.identity != identity:
            raise PasskeyRefused("that challenge was made for another identity", 400)
        rp = self.relying_party(request_origin)
        try:
            verified = verify_registration_response(
                credential=dict(credential), expected_challenge=base64url_to_bytes(challenge.text),
                expected_rp_id=rp.id, expected_origin=rp.origin)
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise PasskeyRefused(f"the passkey does not check out: {error}", 400) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if len(credential_id) > MAX_CREDENTIAL_ID:
            raise PasskeyRefused("that passkey's id is longer than WebAuthn allows", 400)
        if not self.store.add_passkey(credential_id, identity, verified.credential_public_key,
                                      verified.sign_count):
            raise PasskeyRefused("that passkey is registered already", 409)
        found = self.store.passkey(credential_id)
        assert found is not None
        return found

    def sign_in_options(self, request_origin: str) -> dict[str, Any]:
        """The options for ``navigator.credentials.get`` (as JSON): a new
        challenge; any passkey of this site may answer it."""
        rp = self.relying_party(request_origin)
        options = generate_authentication_options(rp_id=rp.id, timeout=CHALLENGE_SECONDS * 1000,
                                                  user_verification=UserVerificationRequirement.PREFERRED)
        self.store.add_challenge(bytes_to_base64url(options.challenge), SIGN_IN, None,
                                 time.time() + CHALLENGE_SECONDS)
        return _json(options_to_json(options))

    def sign_in(self, credential: Mapping[str, Any], request_origin: str) -> str:
        """The identity whose passkey answered a sign-in challenge; its sign
        counter moves on (one that did not grow means a cloned key: refused)."""
        challenge = self._take_challenge(credential, SIGN_IN)
        credential_id = credential.get("id")
        found = self.store.passkey(credential_id) if isinstance(credential_id, str) else None
        if found is None:
            raise PasskeyRefused("this server does not know that passkey (was it removed?)", 400)
        rp = self.relying_party(request_origin)
        try:
            verified = verify_authentication_response(
                credential=dict(credential), expected_challenge=base64url_to_bytes(challenge.text),
                expected_rp_id=rp.id, expected_origin=rp.origin,
                credential_public_key=found.public_key, credential_current_sign_count=found.sign_count)
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise PasskeyRefused(f"the passkey does not check out: {error}", 400) from None
        if not self.store.passkey_used(found.credential_id, found.sign_count, verified.new_sign_count):
            raise PasskeyRefused("that passkey was just used by another sign-in", 400)
        return found.identity

    def owned(self, identity: str) -> list[PasskeyRow]:
        return self.store.passkeys_of(identity)

    def remove(self, identity: str, credential_id: str) -> None:
        if not self.store.remove_passkey(identity, credential_id):
            raise PasskeyRefused("no such passkey", 404)

    def _take_challenge(self, credential: Mapping[str, Any], purpose: str) -> "_Taken":
        """The challenge the browser signed (read from its client data), used
        up now; refused if it is not one of ours for ``purpose`` that is still fresh."""
        try:
            client_data = base64url_to_bytes(credential["response"]["clientDataJSON"])
            text = bytes_to_base64url(parse_client_data_json(client_data).challenge)
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise PasskeyRefused("the answer carries no readable challenge", 400) from None
        taken = self.store.take_challenge(text, purpose)
        if taken is None:
            raise PasskeyRefused("that challenge is unknown, used or expired; start again", 400)
        return _Taken(text, taken.identity)


@dataclass(frozen=True)
class _Taken:
    text: str
    identity: str | None


def _json(text: str) -> dict[str, Any]:
    options: dict[str, Any] = json.loads(text)
    return options


__all__ = ["CHALLENGE_SECONDS", "MAX_CREDENTIAL_ID", "ORIGIN_VARIABLE", "PasskeyRefused", "Passkeys", "RelyingParty",
           "configured_origin"]
