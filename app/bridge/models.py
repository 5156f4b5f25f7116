"""The forum bridge's tables: a game's thread, the forum posts it has read, link codes.

``forum_posts`` is what makes each forum post count at most once: one row per (game,
forum post id, revision), under a unique constraint, written in the transaction that
submits the post's orders. A replica or a restart that reads the same revision again
finds the row (or loses the race on the constraint) and does nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base


class ForumBridgeRow(Base):
    """One per game: which channel's thread is read, and how far reading has got."""

    __tablename__ = "forum_bridges"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    channel_id: Mapped[str] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    thread_id: Mapped[str | None] = mapped_column(String(64))  # None: the channel's own
    read_orders: Mapped[bool]
    poll_seconds: Mapped[int] = mapped_column(Integer)
    # Discourse: the webhook's secret, sealed like channel secrets (never returned).
    webhook_secret: Mapped[str | None] = mapped_column(Text)
    # The posts already in the thread when reading started are not orders: the first
    # read records them as seen without acting on them.
    baseline_done: Mapped[bool]
    last_read_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class ForumPostRow(Base):
    """One revision of one forum post, read once. ``outcome``: ``orders`` (submitted:
    ``order_ids``), ``refused`` (a problem, answered), ``withdrawn`` (the post was
    deleted), ``linked`` (a link code), ``ignored`` (chatter, an unlinked poster, the
    bot itself, or a post from before reading started)."""

    __tablename__ = "forum_posts"
    __table_args__ = (UniqueConstraint("game_id", "post_id", "revision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    thread_id: Mapped[str | None] = mapped_column(String(64))  # where it was read
    post_id: Mapped[str] = mapped_column(String(64))
    revision: Mapped[str] = mapped_column(String(32))
    author: Mapped[str | None] = mapped_column(String(200))
    player_id: Mapped[str | None] = mapped_column(String(32))
    outcome: Mapped[str] = mapped_column(String(16))
    order_ids: Mapped[list[Any]]
    code: Mapped[str | None] = mapped_column(String(64))  # the problem's code, when refused
    reply_post_id: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime]


class ForumLinkRow(Base):
    """A player's one-time code that links a forum account to them when posted in the
    thread. Stored as a hash (to find it) and sealed (to show it again on their page)."""

    __tablename__ = "forum_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    code_sealed: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    used_by: Mapped[str | None] = mapped_column(String(200))
