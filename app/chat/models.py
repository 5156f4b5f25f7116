"""The chat bots' tables: the server-wide bots, which games use them, the chat accounts
linked to seats, one-time link codes, the updates already acted on, and the private
messages waiting to be sent (the chat outbox).

``chat_seen`` is what makes a replayed update count once: one row per (bot, update key)
under a unique constraint, written in the transaction that acts on the update.
``chat_messages`` is an outbox like ``deliveries``: one row per message to one player,
unique per ``key`` (so the same private result is queued once however often it is
looked at), sent in ``id`` order per chat by ``app.chat.worker``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base


class ChatBotRow(Base):
    """A bot, server-wide. ``config`` is sealed (secret fields encrypted, never returned);
    ``identity`` is what players may see: its @name, invite link, application id."""

    __tablename__ = "chat_bots"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # telegram | discord | onebot
    name: Mapped[str] = mapped_column(String(100))
    config: Mapped[dict[str, Any]]
    identity: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    removed_at: Mapped[datetime | None]


class ChatGameRow(Base):
    """One per game that turned bots on."""

    __tablename__ = "chat_games"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    bot_ids: Mapped[list[Any]]
    dm_orders: Mapped[bool]
    dm_notifications: Mapped[bool]
    updated_at: Mapped[datetime]


class ChatLinkRow(Base):
    """A chat account (on one bot) speaking for one seat of one game. ``notify``: the
    player opted in to private messages on their page. ``events_seen``: how far the
    player's own events have been looked at for private results (their numbering)."""

    __tablename__ = "chat_links"
    __table_args__ = (UniqueConstraint("bot_id", "account", "game_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    bot_id: Mapped[str] = mapped_column(ForeignKey("chat_bots.id", ondelete="CASCADE"))
    account: Mapped[str] = mapped_column(String(64))  # the platform's user id
    chat: Mapped[str] = mapped_column(String(64))  # where a private message goes
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    notify: Mapped[bool]
    events_seen: Mapped[int] = mapped_column(Integer)
    linked_at: Mapped[datetime]


class ChatAccountRow(Base):
    """What one chat account chose: its language, and the game it is talking about."""

    __tablename__ = "chat_accounts"

    bot_id: Mapped[str] = mapped_column(
        ForeignKey("chat_bots.id", ondelete="CASCADE"), primary_key=True
    )
    account: Mapped[str] = mapped_column(String(64), primary_key=True)
    lang: Mapped[str] = mapped_column(String(8))
    game_id: Mapped[str | None] = mapped_column(String(32))
    updated_at: Mapped[datetime]


class ChatCodeRow(Base):
    """A one-time link code, stored as its hash."""

    __tablename__ = "chat_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class ChatSeenRow(Base):
    """An update (Telegram update_id, Discord interaction id, OneBot message_id) acted on."""

    __tablename__ = "chat_seen"
    __table_args__ = (UniqueConstraint("bot_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    bot_id: Mapped[str] = mapped_column(ForeignKey("chat_bots.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(100))
    answer: Mapped[dict[str, Any] | None]  # what the bot answered: a replay gets it again
    at: Mapped[datetime]


class ChatMessageRow(Base):
    """One private message to one player's chat. ``status``: pending, sending, sent,
    failed. ``next_attempt_at``: when a pending one is due, or a sending one's lease ends."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        Index("ix_chat_messages_status_due", "status", "next_attempt_at"),
        Index("ix_chat_messages_bot_chat", "bot_id", "chat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    bot_id: Mapped[str] = mapped_column(ForeignKey("chat_bots.id", ondelete="CASCADE"))
    chat: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))  # reminder | event
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer)
    next_attempt_at: Mapped[datetime | None]
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
