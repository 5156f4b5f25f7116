"""Publishing's own parts of the use cases: what the API shows of posts, deliveries,
channels and settings; a game's post and channel looked up; a post published; and the
service timers (auto-publish, reminders, tallies) the scheduler runs without the ruleset.

Who may do what, and the audit of the director's actions, are the services'
(``app.services.publishing``), which call these; nothing here asks who the caller is.
Each function runs inside the caller's transaction and never commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.errors import AppError, conflict, not_found
from app.models import AuditRow, Game, OrderRow, StepRow, Timer
from app.publish import outbox, timers
from app.publish.bodies import ensure_bodies
from app.publish.channels import open_config, redact
from app.publish.models import ChannelRow, DeliveryRow, PostRow, PublishingRow
from app.publish.render import FORMATS, RosterEntry, reminder_post, tally_post
from app.rules.base import STEP_READY


def post_json(
    post: PostRow, deliveries: list[DeliveryRow], bodies: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A post as API.md shows it. ``bodies``: its text per format as ``ensure_bodies``
    gave it (a post planned but not yet rendered has none of its own)."""
    texts = post.bodies if bodies is None else bodies
    return {
        "id": post.id,
        "seq": post.seq,
        "kind": post.kind,
        "status": post.status,
        "title": post.title,
        "bodies": {f: texts.get(f, "") for f in FORMATS},
        "created_at": post.created_at.isoformat(),
        "publish_at": post.publish_at.isoformat() if post.publish_at else None,
        "published_at": post.published_at.isoformat() if post.published_at else None,
        "deliveries": [delivery_json(d) for d in deliveries],
    }


def delivery_json(delivery: DeliveryRow) -> dict[str, Any]:
    return {
        "id": delivery.id,
        "channel_id": delivery.channel_id,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "remote_url": delivery.remote_url,
        "error": delivery.error,
        "next_attempt_at": (
            delivery.next_attempt_at.isoformat()
            if delivery.next_attempt_at and delivery.status == "pending"
            else None
        ),
    }


def channel_config(channel: ChannelRow) -> dict[str, Any]:
    """The channel's whole config, secrets decrypted: for sending only."""
    return open_config(channel.kind, channel.config)


def channel_json(channel: ChannelRow) -> dict[str, Any]:
    return {
        "id": channel.id,
        "kind": channel.kind,
        "name": channel.name,
        "format": channel.format,
        "config": redact(channel.kind, channel.config),
        "created_at": channel.created_at.isoformat(),
    }


def publishing_json(pub: PublishingRow) -> dict[str, Any]:
    return {
        "review": pub.review,
        "auto_publish_after_seconds": pub.auto_publish_after_seconds,
        "language": pub.language,
        "reminders": {
            "before_seconds": list(pub.reminder_seconds or []),
            "channel_id": pub.reminder_channel_id,
        },
    }


async def publishing_of(session: AsyncSession, game: Game, now: datetime) -> PublishingRow:
    return await session.run_sync(outbox.publishing_row, game.id, now)


def as_problem_errors(error: AppError) -> AppError:
    """A Problem's ``errors`` are lines of text (API contract): "field: what is wrong"."""
    found = error.extra.get("errors")
    if isinstance(found, list):
        error.extra["errors"] = [
            f"config.{e['field']}: {e['message']}" if isinstance(e, dict) else str(e) for e in found
        ]
    return error


async def game_channel(session: AsyncSession, game: Game, channel_id: str) -> ChannelRow:
    channel = await session.get(ChannelRow, channel_id)
    if channel is None or channel.game_id != game.id or channel.removed_at is not None:
        raise not_found("频道", "channel")
    return channel


async def post_of(session: AsyncSession, game: Game, post_id: str, lock: bool = False) -> PostRow:
    post = await session.get(PostRow, post_id, with_for_update=lock)
    if post is None or post.game_id != game.id:
        raise not_found("帖子", "post")
    return post


async def answer(session: AsyncSession, post: PostRow) -> dict[str, Any]:
    """The post after a director's action (a write transaction: what is rendered to show
    it is kept)."""
    await session.flush()
    shown = await ensure_bodies(session, [post])
    deliveries = await session.scalars(
        select(DeliveryRow).where(DeliveryRow.post_id == post.id).order_by(DeliveryRow.id)
    )
    return post_json(post, list(deliveries), shown[post.id])


def not_awaiting(post: PostRow) -> AppError:
    if post.status == "published":
        return conflict(
            "post_published", "帖子已发布，不能再修改。", "The post is already published."
        )
    return conflict("post_discarded", "帖子已被弃用。", "The post was discarded.")


async def publish(session: AsyncSession, post: PostRow, now: datetime) -> None:
    await session.run_sync(lambda sync: outbox.publish_post(sync, post, now))
    await end_auto_publish(session, post, now)


async def end_auto_publish(session: AsyncSession, post: PostRow, now: datetime) -> None:
    timer = await session.scalar(
        select(Timer).where(
            Timer.game_id == post.game_id,
            Timer.kind == timers.AUTO_PUBLISH,
            Timer.key == post.id,
            Timer.done_at.is_(None),
        )
    )
    if timer is not None:
        timer.done_at = now


async def run_service_timer(session: AsyncSession, game: Game, timer: Timer, now: datetime) -> None:
    """A publishing timer, run by the scheduler without the ruleset."""
    timer.done_at = now
    if timer.kind == timers.AUTO_PUBLISH:
        await _auto_publish(session, game, timer.key, now)
    elif timer.kind in (timers.REMINDER, timers.TALLY) and game.status == "running":
        await session.run_sync(lambda sync: _countdown_post(sync, game, timer, now))


async def _auto_publish(session: AsyncSession, game: Game, post_id: str, now: datetime) -> None:
    post = await session.get(PostRow, post_id)
    if post is None or post.status != "awaiting_review":
        return  # the director acted first
    await session.run_sync(lambda sync: outbox.publish_post(sync, post, now))
    session.add(
        AuditRow(
            game_id=game.id,
            actor="system",
            action="auto_publish",
            payload={"post_id": post.id},
            at=now,
        )
    )


def _countdown_post(sync: Session, game: Game, timer: Timer, now: datetime) -> None:
    """A reminder or a tally due before the deadline, posted without review (a held one
    would come too late) on its configured channel, or on every channel."""
    facts, pub, deadline_timer = outbox.load_context(sync, game.id, now)
    deadline = timers.deadline_of(deadline_timer, now)
    if deadline is None or deadline.isoformat() != timer.data.get("deadline"):
        # The deadline moved without anything public saying so: re-aim, do not post.
        timers.sync_reminders(sync, facts, pub, deadline_timer, now)
        return
    info = outbox.game_info(sync, facts, pub.language)
    rows = progress(sync, game.id, info.roster, int(timer.data.get("since_step", 0)))
    tally = timer.kind == timers.TALLY
    channel_id = pub.tally_channel_id if tally else pub.reminder_channel_id
    channel = sync.get(ChannelRow, channel_id) if channel_id else None
    if tally:
        draft = tally_post(info, rows, deadline)
    else:
        waiting = [entry for entry, ordered, ready in rows if not (ordered or ready)]
        if not waiting:
            return
        # On every channel (the default) the Markdown body goes to the forums that notify.
        mentions = channel is None or channel.kind in outbox.MENTION_KINDS
        draft = reminder_post(info, waiting, deadline, mentions, now=now)
    channels = [channel.id] if channel is not None else None
    outbox.create_post(sync, facts, pub, draft, now, review=False, channel_ids=channels)


def progress(
    session: Session, game_id: str, roster: tuple[RosterEntry, ...], since_step: int
) -> list[tuple[RosterEntry, bool, bool]]:
    """Each player, whether they have ordered and whether they are ready since step
    ``since_step`` (the phase opened) — never what they ordered. A side acts as one (in a
    game of sides): one member's order or "ready" counts for the whole side."""

    def unit(player_id: str | None, side: str | None) -> tuple[str, str | None]:
        return ("side", side) if side is not None else ("player", player_id)

    ordered = session.execute(
        select(OrderRow.player_id, OrderRow.side).where(
            OrderRow.game_id == game_id,
            OrderRow.step_seq > since_step,
            OrderRow.status != "withdrawn",
        )
    )
    have_ordered = {unit(p, s) for p, s in ordered}
    readied = session.execute(
        select(StepRow.actor_player_id, StepRow.actor_side).where(
            StepRow.game_id == game_id, StepRow.seq > since_step, StepRow.kind == STEP_READY
        )
    )
    are_ready = {unit(p, s) for p, s in readied}
    return [
        (p, unit(p.id, p.side) in have_ordered, unit(p.id, p.side) in are_ready) for p in roster
    ]


def tally_json(pub: PublishingRow) -> dict[str, Any]:
    return {"before_seconds": list(pub.tally_seconds or []), "channel_id": pub.tally_channel_id}
