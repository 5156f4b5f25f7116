"""A software passkey (an ES256 authenticator with "none" attestation) for the service
tests, and a browser-like account client: the same ceremonies Chromium's virtual
authenticator runs in ``test_accounts_browser.py``, without a browser."""

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
from httpx import AsyncClient, Response

from app.api.security import CSRF_COOKIE


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftPasskey:
    """One credential on one authenticator, for ``origin`` (its RP ID is the host)."""

    origin: str = "http://test"
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    user_handle: bytes = b""
    count: int = 0

    @property
    def rp_id(self) -> str:
        return self.origin.split("://", 1)[1].split(":")[0]

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def _auth_data(self, flags: int, attested: bytes = b"", rp_id: str | None = None) -> bytes:
        self.count += 1
        rp_hash = hashlib.sha256((rp_id or self.rp_id).encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.count) + attested

    def create(
        self, options: dict[str, Any], origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        """``navigator.credentials.create(...).toJSON()`` for these options."""
        public = options["publicKey"]
        self.user_handle = unb64(public["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
        auth_data = self._auth_data(0x45, attested + cose, rp_id)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", public["challenge"], origin)
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self, options: dict[str, Any], origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        """``navigator.credentials.get(...).toJSON()`` for these options."""
        client_data = self._client_data("webauthn.get", options["publicKey"]["challenge"], origin)
        auth_data = self._auth_data(0x05, rp_id=rp_id)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(self.user_handle),
            },
            "clientExtensionResults": {},
        }


class AccountBrowser:
    """A browser (its own cookie jar) that runs the account ceremonies through the API."""

    def __init__(self, http: AsyncClient) -> None:
        self.http = http

    async def csrf(self) -> str:
        if not self.http.cookies.get(CSRF_COOKIE):
            await self.http.get("/me")
        return str(self.http.cookies.get(CSRF_COOKIE))

    async def post(self, path: str, body: Any = None) -> Response:
        headers = {"x-csrf-token": await self.csrf()}
        return await self.http.post(f"/api/v1{path}", json=body or {}, headers=headers)

    async def register(self, name: str, passkey: SoftPasskey) -> Response:
        begun = await self.post("/accounts/passkeys/register/begin", {"name": name})
        assert begun.status_code == 200, begun.text
        return await self.post("/accounts/passkeys/register/finish", passkey.create(begun.json()))

    async def sign_in(self, passkey: SoftPasskey) -> Response:
        begun = await self.post("/accounts/passkeys/login/begin")
        assert begun.status_code == 200, begun.text
        return await self.post("/accounts/passkeys/login/finish", passkey.get(begun.json()))

    async def my_games(self) -> list[dict[str, Any]]:
        found = await self.http.get("/api/v1/me/games")
        assert found.status_code == 200, found.text
        return list(found.json())
