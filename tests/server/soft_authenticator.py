"""A software WebAuthn authenticator for the API tests of passkeys: an ES256
key pair per credential, "none" attestation, a sign counter that grows by one
per use (the browser tests use Chromium's virtual authenticator instead)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

USER_PRESENT, USER_VERIFIED, ATTESTED_DATA = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@dataclass
class SoftCredential:
    rp_id: str
    user_handle: str
    id: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    count: int = 0

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})


def _client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()


def create(options: dict[str, Any], origin: str) -> tuple[SoftCredential, dict[str, Any]]:
    """A new credential for registration ``options`` and the browser's answer (its ``toJSON()``)."""
    credential = SoftCredential(options["rp"]["id"], options["user"]["id"])
    auth_data = (hashlib.sha256(credential.rp_id.encode()).digest()
                 + bytes([USER_PRESENT | USER_VERIFIED | ATTESTED_DATA]) + struct.pack(">I", credential.count)
                 + bytes(16) + struct.pack(">H", len(credential.id)) + credential.id + credential.cose_key())
    attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
    answer = {"id": b64url(credential.id), "rawId": b64url(credential.id), "type": "public-key",
              "response": {"clientDataJSON": b64url(_client_data("webauthn.create", options["challenge"], origin)),
                           "attestationObject": b64url(attestation)},
              "clientExtensionResults": {}}
    return credential, answer


def get(credential: SoftCredential, options: dict[str, Any], origin: str, count_step: int = 1) -> dict[str, Any]:
    """The answer of ``credential`` to sign-in ``options``; its counter moves on by ``count_step``."""
    credential.count += count_step
    client_data = _client_data("webauthn.get", options["challenge"], origin)
    auth_data = (hashlib.sha256(credential.rp_id.encode()).digest() + bytes([USER_PRESENT | USER_VERIFIED])
                 + struct.pack(">I", credential.count))
    signature = credential.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
    return {"id": b64url(credential.id), "rawId": b64url(credential.id), "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                         "signature": b64url(signature), "userHandle": credential.user_handle},
            "clientExtensionResults": {}}
