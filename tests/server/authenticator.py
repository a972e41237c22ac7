"""A software WebAuthn authenticator for the passkey tests: an ES256 key pair per credential
(``cryptography``), answers to ``navigator.credentials.create()`` (attestation ``none``) and
``.get()`` as a browser's ``PublicKeyCredential.toJSON()`` gives them, for any origin and RP
id the test chooses (a browser would only ever use the page's own)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40
"""authenticatorData's flags: user present, user verified, attested credential data."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    count: int = 0


@dataclass
class Authenticator:
    """Holds credentials; ``verified``: whether it verifies its user (a PIN, a fingerprint)."""

    verified: bool = True
    credentials: list[Credential] = field(default_factory=list)

    def _client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def _flags(self) -> int:
        return UP | (UV if self.verified else 0)

    def create(
        self, options: dict[str, Any], origin: str, rp_id: str | None = None
    ) -> dict[str, Any]:
        """A new credential for ``options`` (the server's creation options as JSON)."""
        rp = rp_id or options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        cred = Credential(secrets.token_bytes(16), key, rp)
        self.credentials.append(cred)
        numbers = key.public_key().public_numbers()
        cose = {
            1: 2,
            3: -7,
            -1: 1,
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
        auth_data = (
            hashlib.sha256(rp.encode()).digest()
            + bytes([self._flags() | AT])
            + (0).to_bytes(4, "big")
            + bytes(16)  # AAGUID
            + len(cred.id).to_bytes(2, "big")
            + cred.id
            + cbor2.dumps(cose)
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64(cred.id),
            "rawId": b64(cred.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str,
        cred: Credential | None = None,
        count: int | None = None,
    ) -> dict[str, Any]:
        """An assertion for ``options`` by ``cred`` (the last made by default), its signature
        count the next one (or ``count``)."""
        cred = cred or self.credentials[-1]
        cred.count = cred.count + 1 if count is None else count
        auth_data = (
            hashlib.sha256(cred.rp_id.encode()).digest()
            + bytes([self._flags()])
            + cred.count.to_bytes(4, "big")
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = cred.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64(cred.id),
            "rawId": b64(cred.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": None,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
