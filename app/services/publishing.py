"""Publishing use cases: settings, channels, the review queue, reminders and tallies, as the
director (and, for published posts, anyone) asks for them. Who may do what is checked here
and every director action is audited; the publishing itself is ``app.publish``'s.

Each function runs inside the caller's transaction (``app.api.deps.run`` or the scheduler)
and never commits.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.errors import AppError, conflict, not_found
from app.ids import new_id
from app.models import Game, PlayerRow
from app.publish import outbox, timers
from app.publish.bodies import ensure_bodies
from app.publish.channels import ADAPTERS, seal_config, validate_config
from app.publish.models import ChannelRow, DeliveryRow, PostRow, PublishingRow
from app.publish.render import tally_post
from app.publish.service import (
    answer,
    as_problem_errors,
    channel_json,
    end_auto_publish,
    game_channel,
    not_awaiting,
    post_json,
    post_of,
    progress,
    publish,
    publishing_json,
    publishing_of,
    run_service_timer,
    tally_json,
)
from app.services.auth import Principal, require_director
from app.services.games import audit

# What the callers of these use cases also read of a game's publishing.
__all__ = [
    "approve_post",
    "create_channel",
    "delete_channel",
    "discard_post",
    "edit_post",
    "game_channel",
    "get_publishing",
    "get_tally",
    "list_channels",
    "list_posts",
    "mark_posted",
    "post_json",
    "post_tally",
    "publishing_json",
    "retry_post",
    "run_service_timer",
    "set_forum_name",
    "set_publishing",
    "set_reminders",
    "set_tally",
]


async def get_publishing(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    return publishing_json(await publishing_of(session, game, now))


async def set_publishing(
    session: AsyncSession, game: Game, principal: Principal, changes: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """A partial update; a changed ``auto_publish_after_seconds`` re-aims every post still
    awaiting review, counted from when that post was made."""
    require_director(principal)
    pub = await publishing_of(session, game, now)
    for field, value in changes.items():
        setattr(pub, field, value)
    pub.updated_at = now
    if "auto_publish_after_seconds" in changes or "review" in changes:

        def resync(sync: Session) -> None:
            timers.sync_auto_publish(sync, outbox.load_context(sync, game.id, now)[0], pub, now)

        await session.run_sync(resync)
    audit(session, game, principal, "set_publishing", changes, now)
    return publishing_json(pub)


async def set_reminders(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    before_seconds: list[int],
    channel_id: str | None,
    now: datetime,
) -> dict[str, Any]:
    pub = await _set_countdown(
        session, game, principal, "reminder", before_seconds, channel_id, now
    )
    payload = {"before_seconds": pub.reminder_seconds, "channel_id": channel_id}
    audit(session, game, principal, "set_reminders", payload, now)
    return publishing_json(pub)["reminders"]


async def _set_countdown(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    kind: str,
    before_seconds: list[int],
    channel_id: str | None,
    now: datetime,
) -> PublishingRow:
    """Posts of ``kind`` (reminder, tally) at these offsets before each deadline, on one
    channel (or all); their timers re-aimed at once."""
    require_director(principal)
    if channel_id is not None:
        await game_channel(session, game, channel_id)
    pub = await publishing_of(session, game, now)
    setattr(pub, f"{kind}_seconds", sorted(set(before_seconds), reverse=True))
    setattr(pub, f"{kind}_channel_id", channel_id)
    pub.updated_at = now

    def resync(sync: Session) -> None:
        facts, _, deadline = outbox.load_context(sync, game.id, now)
        timers.sync_reminders(sync, facts, pub, deadline, now)

    await session.run_sync(resync)
    return pub


async def create_channel(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    kind: str,
    name: str,
    fmt: str | None,
    config: dict[str, Any],
    allow_private_urls: bool,
    now: datetime,
) -> dict[str, Any]:
    require_director(principal)
    if game.sandbox:  # a director's sandbox is never published (app/services/safety/)
        raise conflict(
            "sandbox_unpublished",
            "沙盘不能发布：它没有频道，也不能添加频道。",
            "A sandbox cannot be published: it has no channels and cannot get one.",
        )
    # Shape, then the private-address guard (which may look names up in DNS: off the loop).
    try:
        valid = await asyncio.to_thread(validate_config, kind, config, allow_private_urls)
    except AppError as error:
        raise as_problem_errors(error) from None
    channel = ChannelRow(
        id=new_id(),
        game_id=game.id,
        kind=kind,
        name=name,
        format=fmt or ADAPTERS[kind].default_format,
        config=seal_config(kind, valid),
        created_at=now,
        removed_at=None,
    )
    session.add(channel)
    audit(
        session,
        game,
        principal,
        "add_channel",
        {"channel_id": channel.id, "kind": kind, "name": name},
        now,
    )
    return channel_json(channel)


async def list_channels(
    session: AsyncSession, game: Game, principal: Principal
) -> list[dict[str, Any]]:
    require_director(principal)
    rows = await session.scalars(
        select(ChannelRow)
        .where(ChannelRow.game_id == game.id, ChannelRow.removed_at.is_(None))
        .order_by(ChannelRow.created_at, ChannelRow.id)
    )
    return [channel_json(c) for c in rows]


async def delete_channel(
    session: AsyncSession, game: Game, principal: Principal, channel_id: str, now: datetime
) -> dict[str, Any]:
    """Remove a channel: nothing more goes to it; what it has not sent yet is dropped."""
    require_director(principal)
    channel = await game_channel(session, game, channel_id)
    channel.removed_at = now
    unsent = await session.scalars(
        select(DeliveryRow).where(
            DeliveryRow.channel_id == channel.id,
            DeliveryRow.status.in_(("pending", "failed", "manual")),
        )
    )
    for delivery in unsent:
        delivery.status = "discarded"
    pub = await publishing_of(session, game, now)
    if pub.reminder_channel_id == channel.id:
        pub.reminder_channel_id = None
    if pub.tally_channel_id == channel.id:
        pub.tally_channel_id = None
    audit(session, game, principal, "remove_channel", {"channel_id": channel.id}, now)
    return {"ok": True}


async def list_posts(
    session: AsyncSession, game: Game, principal: Principal, after: int, limit: int
) -> list[dict[str, Any]]:
    """The director sees every post; everyone else the published ones, with where they
    were posted (and nothing of failed attempts)."""
    director = principal.role == "director"
    query = select(PostRow).where(PostRow.game_id == game.id, PostRow.seq > after)
    if not director:
        query = query.where(PostRow.status == "published")
    posts = (await session.scalars(query.order_by(PostRow.seq).limit(limit))).all()
    by_post: dict[str, list[DeliveryRow]] = {p.id: [] for p in posts}
    if posts:
        deliveries = await session.scalars(
            select(DeliveryRow)
            .where(DeliveryRow.post_id.in_(list(by_post)))
            .order_by(DeliveryRow.id)
        )
        for d in deliveries:
            if director or d.status == "sent":
                by_post[d.post_id].append(d)
    # A read (no write lock): a post not yet rendered is rendered to be shown, not kept.
    shown = await ensure_bodies(session, posts, store=False)
    return [post_json(p, by_post[p.id], shown[p.id]) for p in posts]


async def edit_post(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    post_id: str,
    title: str | None,
    bodies: dict[str, str],
    now: datetime,
) -> dict[str, Any]:
    require_director(principal)
    # Locked: a rendering stored meanwhile (app/publish/bodies.py) reads the edit, not
    # the other way round; an edited format is never rendered over.
    post = await post_of(session, game, post_id, lock=True)
    if post.status != "awaiting_review":
        raise not_awaiting(post)
    if title is not None:
        if post.thread_title is not None:  # a stage's post: the thread follows its title
            post.thread_title = title
        post.title = title
    if bodies:
        post.bodies = {**post.bodies, **bodies}
    changed = {"post_id": post.id, "title": title, "bodies": sorted(bodies)}
    audit(session, game, principal, "edit_post", changed, now)
    return await answer(session, post)


async def approve_post(
    session: AsyncSession, game: Game, principal: Principal, post_id: str, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    post = await post_of(session, game, post_id)
    if post.status != "awaiting_review":
        raise not_awaiting(post)
    await publish(session, post, now)
    audit(session, game, principal, "approve_post", {"post_id": post.id}, now)
    return await answer(session, post)


async def discard_post(
    session: AsyncSession, game: Game, principal: Principal, post_id: str, now: datetime
) -> dict[str, Any]:
    """Never publish a post awaiting review. On a published post: give up its failed
    deliveries (so they stop holding back their channels)."""
    require_director(principal)
    post = await post_of(session, game, post_id)
    if post.status == "awaiting_review":
        post.status = "discarded"
        post.publish_at = None
        await end_auto_publish(session, post, now)
        audit(session, game, principal, "discard_post", {"post_id": post.id}, now)
        return await answer(session, post)
    if post.status == "published":
        failed = (
            await session.scalars(
                select(DeliveryRow).where(
                    DeliveryRow.post_id == post.id, DeliveryRow.status == "failed"
                )
            )
        ).all()
        if failed:
            for delivery in failed:
                delivery.status = "discarded"
            ids = [d.id for d in failed]
            audit(
                session,
                game,
                principal,
                "discard_deliveries",
                {"post_id": post.id, "deliveries": ids},
                now,
            )
            return await answer(session, post)
    raise not_awaiting(post)


async def retry_post(
    session: AsyncSession, game: Game, principal: Principal, post_id: str, now: datetime
) -> dict[str, Any]:
    """Send the post's failed deliveries again, from a fresh count of attempts."""
    require_director(principal)
    post = await post_of(session, game, post_id)
    failed = (
        await session.scalars(
            select(DeliveryRow).where(
                DeliveryRow.post_id == post.id, DeliveryRow.status == "failed"
            )
        )
    ).all()
    if not failed:
        raise conflict(
            "nothing_to_retry", "这个帖子没有发送失败的投递。", "The post has no failed deliveries."
        )
    for delivery in failed:
        delivery.status = "pending"
        delivery.attempts = 0
        delivery.next_attempt_at = now
    ids = [d.id for d in failed]
    audit(session, game, principal, "retry_post", {"post_id": post.id, "deliveries": ids}, now)
    return await answer(session, post)


async def mark_posted(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    post_id: str,
    delivery_id: int,
    url: str,
    now: datetime,
) -> dict[str, Any]:
    """The director posted it by hand (a manual channel, or after a failure) and says where."""
    require_director(principal)
    post = await post_of(session, game, post_id)
    delivery = await session.get(DeliveryRow, delivery_id)
    if delivery is None or delivery.post_id != post.id:
        raise not_found("投递", "delivery")
    if delivery.status not in ("manual", "failed"):
        raise conflict(
            "delivery_not_manual",
            "只能为待手动发布或发送失败的投递登记链接。",
            "Only a manual or failed delivery can be marked as posted by hand.",
        )
    delivery.status = "sent"
    delivery.remote_url = url
    delivery.error = None
    delivery.sent_at = now
    payload = {"post_id": post.id, "delivery_id": delivery.id, "url": url}
    audit(session, game, principal, "mark_posted", payload, now)
    return await answer(session, post)


async def set_forum_name(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    player_id: str,
    forum_name: str | None,
    now: datetime,
) -> dict[str, Any]:
    require_director(principal)
    player = await session.get(PlayerRow, player_id)
    if player is None or player.game_id != game.id:
        raise not_found("玩家", "player")
    player.forum_name = forum_name
    payload = {"player_id": player.id, "forum_name": forum_name}
    audit(session, game, principal, "set_forum_name", payload, now)
    return {"id": player.id, "name": player.name, "side": player.side, "forum_name": forum_name}


async def get_tally(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    return tally_json(await publishing_of(session, game, now))


async def set_tally(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    before_seconds: list[int],
    channel_id: str | None,
    now: datetime,
) -> dict[str, Any]:
    """Tallies at these offsets before each deadline, on one channel (or all)."""
    pub = await _set_countdown(session, game, principal, "tally", before_seconds, channel_id, now)
    audit(session, game, principal, "set_tally", tally_json(pub), now)
    return tally_json(pub)


async def post_tally(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    """The director asks for a tally now: a post like any other (held for review when
    the game reviews posts), on the tally channel or on every channel."""
    require_director(principal)
    if game.status not in ("running", "paused"):
        raise conflict(
            "no_phase",
            "游戏不在进行中，没有可统计的阶段。",
            "The game is not running: no phase to tally.",
        )

    def make(sync: Session) -> PostRow:
        facts, pub, deadline_timer = outbox.load_context(sync, game.id, now)
        info = outbox.game_info(sync, facts, pub.language)
        rows = progress(sync, game.id, info.roster, pub.phase_step_seq or 0)
        draft = tally_post(info, rows, timers.deadline_of(deadline_timer, now))
        channels = [pub.tally_channel_id] if pub.tally_channel_id else None
        return outbox.create_post(sync, facts, pub, draft, now, channel_ids=channels)

    post = await session.run_sync(make)
    audit(session, game, principal, "post_tally", {"post_id": post.id}, now)
    return await answer(session, post)
