"""The publishing tables: per-game settings, channels, posts, deliveries, reminders.

Posts and deliveries are the outbox: written in the transaction of the step that caused
them (``app.publish.outbox``), read and sent by the delivery worker (``app.publish.worker``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.models import Base


class PublishingRow(Base):
    """One per game, made on first use. ``public_event_seq`` counts the game's public
    events (the numbering the public gets from GET /events), ``post_seq`` its posts."""

    __tablename__ = "publishing"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    review: Mapped[str] = mapped_column(String(16))  # always | never
    auto_publish_after_seconds: Mapped[int | None] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(8))  # zh | en
    public_event_seq: Mapped[int] = mapped_column(Integer)
    post_seq: Mapped[int] = mapped_column(Integer)
    reminder_seconds: Mapped[list[Any]]  # before each deadline, e.g. [7200, 1800]
    reminder_channel_id: Mapped[str | None] = mapped_column(String(32))
    # The deadline timer of the current phase (kind, key, data) and the step that opened
    # it: who has ordered or readied since then is not reminded.
    phase: Mapped[dict[str, Any] | None]
    phase_step_seq: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime]
    # Tallies (who has ordered / is ready) at these offsets before each deadline.
    tally_seconds: Mapped[list[Any] | None]
    tally_channel_id: Mapped[str | None] = mapped_column(String(32))


class ChannelRow(Base):
    """Where a game's posts go. ``config`` is stored sealed: its secret fields encrypted
    (``channels.seal_config``), never returned. A removed channel keeps its row so the
    deliveries it made still name it."""

    __tablename__ = "channels"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(100))
    format: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    removed_at: Mapped[datetime | None]


class PostRow(Base):
    """Something the public should read. ``status``: awaiting_review, published,
    discarded. ``step_seq``/``event_seq``: the step and the last event it came from."""

    __tablename__ = "posts"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        # The posts not yet rendered in every format: the delivery worker's queue of them.
        Index(
            "ix_posts_unrendered",
            "created_at",
            postgresql_where=text("source IS NOT NULL"),
            sqlite_where=text("source IS NOT NULL"),
        ),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(String(200))
    # The thread's title from this post on, where a channel may rename its thread.
    thread_title: Mapped[str | None] = mapped_column(String(200))
    # The text per format; a format missing is rendered from ``source`` when first needed
    # (``app.publish.bodies``), and a director's edit of a format stands over it.
    bodies: Mapped[dict[str, Any]]
    # What the post is rendered from (its public events, the game's public facts, the
    # deadline): a post planned in its step's transaction, until it has every format; None
    # for one rendered at once.
    source: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    created_at: Mapped[datetime]
    publish_at: Mapped[datetime | None]
    published_at: Mapped[datetime | None]
    step_seq: Mapped[int | None] = mapped_column(Integer)
    event_seq: Mapped[int | None] = mapped_column(Integer)


class DeliveryRow(Base):
    """One post on one channel. ``id`` grows with creation: on a channel, deliveries go
    out in ``id`` order, and an unfinished one (pending, sending, failed) holds back every
    later one. ``next_attempt_at`` is when a pending delivery is due, or when a sending
    one's lease runs out (its worker is presumed dead and it is sent again)."""

    __tablename__ = "deliveries"
    __table_args__ = (
        UniqueConstraint("post_id", "channel_id"),
        Index("ix_deliveries_channel_status", "channel_id", "status"),
        Index("ix_deliveries_status_due", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id", ondelete="CASCADE"), index=True)
    channel_id: Mapped[str] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16))  # pending sending sent failed manual discarded
    attempts: Mapped[int] = mapped_column(Integer)
    next_attempt_at: Mapped[datetime | None]
    remote_id: Mapped[str | None] = mapped_column(String(200))
    remote_url: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
    # Never loaded (lazy="raise"): declared so that one flush inserts a post before the
    # deliveries that name it.
    post: Mapped[PostRow] = relationship(lazy="raise")


class WithdrawalRow(Base):
    """A delivered post of a step the director undid, to be edited on its platform to say
    it was withdrawn (app/publish/withdraw.py), once the correction reached that channel.
    ``status``: pending, done, failed."""

    __tablename__ = "post_withdrawals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    delivery_id: Mapped[int] = mapped_column(
        ForeignKey("deliveries.id", ondelete="CASCADE"), index=True
    )
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    done_at: Mapped[datetime | None]
