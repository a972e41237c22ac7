"""The WebAuthn ceremonies' checks (``webauthn``), shared by the passkey routes
(:mod:`.passkeys`) and the account's deletion (:mod:`.routes`): an attempt made and kept in the
database, the options a browser is given, and the verification of its answer for this site's
origin and RP id (docs/accounts.md)."""

from __future__ import annotations

import json
import secrets
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import Request
from pydantic import BaseModel, Field
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..proxy import base_url
from ..routes.common import store_of
from ..store import PasskeyRow, PlayerRow

__all__ = [
    "CONFIRMING",
    "LIFETIME",
    "MAX_ID",
    "RP_NAME",
    "PasskeyAnswer",
    "asserted",
    "assertion",
    "attempt",
    "confirmed",
    "registered",
    "registration",
    "relying_party",
]

LIFETIME: Final = 300.0
"""Seconds a ceremony's attempt may be finished in."""
RP_NAME: Final = "Perudo"
TIMEOUT_MS: Final = 120_000
MAX_ID: Final = 400
"""The longest credential id kept (base64url characters; WebAuthn allows 1023 bytes)."""
CONFIRMING: Final = {"delete": "confirm", "password": "password"}
"""The attempt's purpose (``webauthn_challenges.purpose``) of a confirmation for each
action: the account's deletion, or a passkey-only account's first password."""

_BAD_ANSWER = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError)
"""What the library raises for an answer it cannot read or verify."""


class PasskeyAnswer(BaseModel):
    """The browser's answer to a ceremony: its attempt's id and ``PublicKeyCredential``'s
    JSON (``toJSON()``)."""

    ceremony: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any]


def relying_party(request: Request) -> tuple[str, str]:
    """This site's origin as the browser sees it, and the RP id (its host name)."""
    origin = base_url(request)
    return origin, urlsplit(origin).hostname or ""


async def attempt(
    request: Request, purpose: str, player_id: int | None = None, name: str | None = None
) -> tuple[str, bytes]:
    ceremony = secrets.token_urlsafe(24)
    challenge = secrets.token_bytes(32)
    await store_of(request).create_challenge(
        ceremony, purpose, bytes_to_base64url(challenge), LIFETIME, player_id, name
    )
    return ceremony, challenge


def _json(text: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(text)
    return out


def registration(
    request: Request, challenge: bytes, name: str, known: list[PasskeyRow]
) -> dict[str, Any]:
    """The options of ``navigator.credentials.create()`` (as JSON) for a new passkey of
    ``name``: discoverable, user verification required, none of ``known`` again."""
    _, rp_id = relying_party(request)
    return _json(
        options_to_json(
            generate_registration_options(
                rp_id=rp_id,
                rp_name=RP_NAME,
                user_name=name,
                user_id=secrets.token_bytes(16),
                challenge=challenge,
                timeout=TIMEOUT_MS,
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED,
                    user_verification=UserVerificationRequirement.REQUIRED,
                ),
                exclude_credentials=[
                    PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id))
                    for k in known
                ],
            )
        )
    )


def assertion(
    request: Request, challenge: bytes, allowed: list[PasskeyRow] | None = None
) -> dict[str, Any]:
    """The options of ``navigator.credentials.get()`` (as JSON): any of this site's
    passkeys (``allowed``: only those), user verification required."""
    _, rp_id = relying_party(request)
    return _json(
        options_to_json(
            generate_authentication_options(
                rp_id=rp_id,
                challenge=challenge,
                timeout=TIMEOUT_MS,
                allow_credentials=[
                    PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id))
                    for k in allowed or []
                ],
                user_verification=UserVerificationRequirement.REQUIRED,
            )
        )
    )


def registered(
    request: Request, challenge: str, credential: dict[str, Any]
) -> tuple[str, str, int] | None:
    """The new credential's id, public key (both base64url) and signature count, or
    ``None`` when the answer does not verify for this challenge, origin and RP id."""
    origin, rp_id = relying_party(request)
    try:
        made = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            require_user_verification=True,
        )
    except _BAD_ANSWER:
        return None
    credential_id = bytes_to_base64url(made.credential_id)
    if len(credential_id) > MAX_ID:
        return None
    return credential_id, bytes_to_base64url(made.credential_public_key), made.sign_count


async def asserted(
    request: Request, challenge: str, credential: dict[str, Any], owner: int | None = None
) -> PasskeyRow | None:
    """The live player's passkey that signed this answer for this challenge, origin and RP
    id, its signature count recorded; ``None`` otherwise (no such passkey, or another
    player's than ``owner``, a bad signature, a count that did not go up)."""
    store = store_of(request)
    credential_id = credential.get("id")
    if not isinstance(credential_id, str) or not 0 < len(credential_id) <= MAX_ID:
        return None
    key = await store.passkey(credential_id)
    if key is None or (owner is not None and key.player.id != owner):
        return None
    origin, rp_id = relying_party(request)
    try:
        used = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(key.public_key),
            credential_current_sign_count=key.sign_count,
            require_user_verification=True,
        )
    except _BAD_ANSWER:
        return None
    if not await store.use_passkey(credential_id, key.sign_count, used.new_sign_count):
        return None
    return key


async def confirmed(
    request: Request, player: PlayerRow, answer: PasskeyAnswer, action: str = "delete"
) -> bool:
    """Whether ``answer`` is an assertion of one of ``player``'s passkeys for a confirmation
    attempt made for them and for ``action`` (a key of :data:`CONFIRMING`: the account's
    deletion, instead of the password, or a first password)."""
    attempt = await store_of(request).take_challenge(answer.ceremony, CONFIRMING[action])
    if attempt is None or attempt.player_id != player.id:
        return False
    return (
        await asserted(request, attempt.challenge, answer.credential, owner=player.id) is not None
    )
