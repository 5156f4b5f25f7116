"""The WebAuthn ceremonies (py_webauthn): register a passkey, sign in with one.

``begin`` stores the challenge it hands the browser; ``finish`` reads the challenge back out
of the signed client data, spends it (once, within ``CHALLENGE_SECONDS``), and lets
py_webauthn check the origin, the RP ID hash, the signature and the sign count. The RP ID and
the origin come from ``PUBLIC_URL`` when it is set, else from the request's own address.
Sign-in and registration attempts are counted per client in the same table (``app.limits``).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.accounts import service
from app.accounts.errors import ceremony_expired, name_needed, passkey_failed, too_many_attempts
from app.accounts.models import Account, Passkey, PasskeyChallenge
from app.limits import SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_SECONDS

RP_NAME = "论坛戏 forumplay"
CHALLENGE_SECONDS = 300


@dataclass(frozen=True)
class RelyingParty:
    id: str  # a host name: an IP address cannot be an RP ID
    origin: str  # scheme://host[:port], as the browser reports it


def relying_party(public_url: str | None, request_url: str) -> RelyingParty:
    parts = urlsplit(public_url or request_url)
    return RelyingParty(id=parts.hostname or "localhost", origin=f"{parts.scheme}://{parts.netloc}")


async def _count_attempts(session: AsyncSession, client: str, now: datetime) -> None:
    # Ceremonies long over are only noise: they are dropped as new ones begin.
    stale = now - timedelta(seconds=max(CHALLENGE_SECONDS, SIGN_IN_WINDOW_SECONDS) * 2)
    await session.execute(delete(PasskeyChallenge).where(PasskeyChallenge.created_at < stale))
    since = now - timedelta(seconds=SIGN_IN_WINDOW_SECONDS)
    count = await session.scalar(
        select(func.count(PasskeyChallenge.id)).where(
            PasskeyChallenge.client == client,
            PasskeyChallenge.purpose.in_(("login", "recovery", "register")),
            PasskeyChallenge.created_at > since,
        )
    )
    if (count or 0) >= SIGN_IN_ATTEMPTS:
        raise too_many_attempts(SIGN_IN_WINDOW_SECONDS)


async def note_attempt(session: AsyncSession, purpose: str, client: str, now: datetime) -> None:
    """Count a sign-in attempt (refused with 429 past the limit)."""
    await _count_attempts(session, client, now)
    session.add(
        PasskeyChallenge(
            challenge=f"{purpose}:{secrets.token_urlsafe(24)}",
            purpose=purpose,
            client=client[:64],
            created_at=now,
            used_at=now,
        )
    )


def _options(options: Any) -> dict[str, Any]:
    return {"publicKey": json.loads(options_to_json(options))}


async def register_begin(
    session: AsyncSession,
    rp: RelyingParty,
    name: str,
    account: Account | None,
    client: str,
    now: datetime,
) -> dict[str, Any]:
    """Options for ``navigator.credentials.create``: a new account named ``name``, or (signed
    in) another passkey for ``account``."""
    if account is None and not name.strip():
        raise name_needed()
    await _count_attempts(session, client, now)
    handle = account.user_handle if account else bytes_to_base64url(secrets.token_bytes(32))
    existing: list[PublicKeyCredentialDescriptor] = []
    if account is not None:
        rows = await session.scalars(
            select(Passkey.credential_id).where(Passkey.account_id == account.id)
        )
        existing = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in rows]
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=RP_NAME,
        user_name=account.name if account else name.strip(),
        user_id=base64url_to_bytes(handle),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=existing,
    )
    session.add(
        PasskeyChallenge(
            challenge=bytes_to_base64url(options.challenge),
            purpose="register",
            account_id=account.id if account else None,
            name=None if account else name.strip(),
            user_handle=handle,
            client=client[:64],
            created_at=now,
        )
    )
    return _options(options)


async def _spend(
    session: AsyncSession, credential: dict[str, Any], purpose: str, now: datetime
) -> PasskeyChallenge:
    try:
        client_data = parse_client_data_json(
            base64url_to_bytes(str(credential["response"]["clientDataJSON"]))
        )
    except (KeyError, TypeError, ValueError, WebAuthnException):
        raise passkey_failed() from None
    row = await session.scalar(
        select(PasskeyChallenge)
        .where(
            PasskeyChallenge.challenge == bytes_to_base64url(client_data.challenge),
            PasskeyChallenge.purpose == purpose,
            PasskeyChallenge.used_at.is_(None),
        )
        .with_for_update()
    )
    if row is None or row.created_at < now - timedelta(seconds=CHALLENGE_SECONDS):
        raise ceremony_expired()
    row.used_at = now
    return row


async def register_finish(
    session: AsyncSession, rp: RelyingParty, credential: dict[str, Any], now: datetime
) -> tuple[Account, bool]:
    """Check the new passkey and keep it: (its account, whether the account is new)."""
    row = await _spend(session, credential, "register", now)
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(row.challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError):
        raise passkey_failed() from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if await session.scalar(select(Passkey.id).where(Passkey.credential_id == credential_id)):
        raise passkey_failed()
    created = row.account_id is None
    if row.account_id is None:
        account = service.new_account(session, row.name or "", row.user_handle or "", now)
        await session.flush()
    else:
        found = await session.get(Account, row.account_id)
        if found is None:
            raise ceremony_expired()
        account = found
    transports = credential.get("response", {}).get("transports") or []
    session.add(
        Passkey(
            account_id=account.id,
            credential_id=credential_id,
            public_key=bytes_to_base64url(verified.credential_public_key),
            sign_count=verified.sign_count,
            transports=[str(t) for t in transports][:8],
            created_at=now,
        )
    )
    return account, created


async def login_begin(
    session: AsyncSession, rp: RelyingParty, client: str, now: datetime
) -> dict[str, Any]:
    """Options for ``navigator.credentials.get``: any passkey of this site (discoverable)."""
    await _count_attempts(session, client, now)
    options = generate_authentication_options(
        rp_id=rp.id, user_verification=UserVerificationRequirement.PREFERRED
    )
    session.add(
        PasskeyChallenge(
            challenge=bytes_to_base64url(options.challenge),
            purpose="login",
            client=client[:64],
            created_at=now,
        )
    )
    return _options(options)


async def login_finish(
    session: AsyncSession, rp: RelyingParty, credential: dict[str, Any], now: datetime
) -> Account:
    row = await _spend(session, credential, "login", now)
    passkey = await session.scalar(
        select(Passkey).where(Passkey.credential_id == str(credential.get("id", "")))
    )
    if passkey is None:
        raise passkey_failed()
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(row.challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError):
        raise passkey_failed() from None
    passkey.sign_count = verified.new_sign_count
    passkey.last_used_at = now
    account = await session.get(Account, passkey.account_id)
    if account is None:
        raise passkey_failed()
    return account
