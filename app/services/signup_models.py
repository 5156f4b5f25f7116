"""The sign-up tables: a game's sign-up settings, each sign-up (seat, waitlist, pending),
and the co-directors a director invited. Registered with ``Base.metadata`` by app/tables.py.

A sign-up's token is shown once. While its sign-up holds a seat the token IS the seat's
player token (the seat row stores the same hash); waitlisted or pending, it only reads and
withdraws its own sign-up. Every change of a game's sign-ups happens with the game row
locked (``run_game``), so counting seats and taking one is never raced.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base


class SignupSettingsRow(Base):
    """One per game whose director opened sign-ups."""

    __tablename__ = "signup_settings"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    open: Mapped[bool] = mapped_column(Boolean)
    max_players: Mapped[int | None] = mapped_column(Integer)
    min_players: Mapped[int | None] = mapped_column(Integer)
    waitlist: Mapped[bool] = mapped_column(Boolean)
    max_waitlist: Mapped[int] = mapped_column(Integer)  # open sign-ups beyond the seats
    approval: Mapped[str] = mapped_column(String(16))  # auto | director
    closes_at: Mapped[datetime | None]
    listed: Mapped[bool | None] = mapped_column(Boolean)  # None: listed while open
    side_assignment: Mapped[str] = mapped_column(String(16))  # preference | seed
    offer_seconds: Mapped[int] = mapped_column(Integer)  # how long a backup's offer waits
    updated_at: Mapped[datetime]


class SignupRow(Base):
    __tablename__ = "signups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # order of arrival: the waitlist's order
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))  # look-alikes share it
    forum_name: Mapped[str | None] = mapped_column(String(100))
    forum_key: Mapped[str | None] = mapped_column(String(100))
    side: Mapped[str | None] = mapped_column(String(16))  # the side asked for
    side_fixed: Mapped[bool] = mapped_column(Boolean)  # the director set the seat's side
    # player | waitlist | pending | offered | withdrawn | rejected | dropped
    status: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True
    )
    address_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    source: Mapped[str] = mapped_column(String(16))  # page | api | forum | chat
    # The account of whoever signed up while signed in: the director reviewing the sign-up
    # sees its record when the account shares it (app.accounts.record).
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class CoDirectorRow(Base):
    """A co-director: their own token (stored hashed), a scope, revocable."""

    __tablename__ = "co_directors"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    scope: Mapped[str] = mapped_column(String(16))  # all | review
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class CoDirectorSessionRow(Base):
    """A browser's console session as a co-director (the cookie holds the secret; only its
    hash is stored), ended by signing out or by revoking the co-director."""

    __tablename__ = "co_director_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    co_director_id: Mapped[str] = mapped_column(
        ForeignKey("co_directors.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]
