"""The accounts' tables. Secrets (session cookies, recovery codes, personal tokens) are
stored hashed, like every token of the service; a passkey's public key is not a secret."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    # The WebAuthn user handle: random, never the id, never shown.
    user_handle: Mapped[str] = mapped_column(String(100), unique=True)
    # Whether a director reviewing this person's sign-up may see their record.
    share_record: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    created_at: Mapped[datetime]


class Passkey(Base):
    __tablename__ = "account_passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)  # base64url
    public_key: Mapped[str] = mapped_column(Text)  # base64url COSE key
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    transports: Mapped[list[Any]]
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]


class RecoveryCode(Base):
    __tablename__ = "account_recovery_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    used_at: Mapped[datetime | None]


class AccountSession(Base):
    """A browser signed in to an account (cookie ``fp_a``); rotated at every sign-in."""

    __tablename__ = "account_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class AccountSeat(Base):
    """A seat (a player, or a director's role) the account's person holds in a game."""

    __tablename__ = "account_seats"
    __table_args__ = (UniqueConstraint("account_id", "game_id", "role", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))  # director | co_director | player
    seat: Mapped[str] = mapped_column(String(32))  # the player id, or the role for a director
    created_at: Mapped[datetime]


class AccountToken(Base):
    """A personal API token: acts in all the account's games, within its scopes."""

    __tablename__ = "account_tokens"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    scopes: Mapped[list[Any]]
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class PasskeyChallenge(Base):
    """A ceremony begun and not yet finished: the challenge the browser must sign, once."""

    __tablename__ = "account_challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    challenge: Mapped[str] = mapped_column(String(200), unique=True)  # base64url
    purpose: Mapped[str] = mapped_column(String(16))  # register | login
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str | None] = mapped_column(String(100))
    user_handle: Mapped[str | None] = mapped_column(String(100))
    client: Mapped[str] = mapped_column(String(64), index=True)  # who asked: the rate limit
    created_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
