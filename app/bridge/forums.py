"""A game's forum bridge: turn reading a Misago or Discourse thread on or off, and what the
reader reads (the bridge, its channel, the thread, the webhook's secret).

Misago is read on a durable service timer (``forum_poll``); Discourse says by webhook. One
post's reading is app/bridge/service.py; the reading loop is app/bridge/reader.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.bridge.models import ForumBridgeRow
from app.errors import AppError, not_found
from app.models import Game, Timer
from app.publish import secrets as sealing
from app.publish.models import ChannelRow
from app.publish.service import channel_config, game_channel
from app.services.auth import Principal, require_director
from app.services.games import audit

FORUM_POLL = "forum_poll"  # a service timer: read the game's Misago thread (key "thread")
TIMER_KINDS = (FORUM_POLL,)
READABLE_KINDS = ("misago", "discourse")
DEFAULT_POLL_SECONDS = 30


def bridge_json(bridge: ForumBridgeRow, channel: ChannelRow) -> dict[str, Any]:
    return {
        "channel_id": bridge.channel_id,
        "kind": channel.kind,
        "thread_id": bridge.thread_id or _channel_thread(channel),
        "read_orders": bridge.read_orders,
        "poll_seconds": bridge.poll_seconds,
        "webhook_secret_set": bridge.webhook_secret is not None,
        "last_read_at": bridge.last_read_at.isoformat() if bridge.last_read_at else None,
        "last_error": bridge.last_error,
    }


def _channel_thread(channel: ChannelRow) -> str | None:
    where = channel.config.get("thread_id") or channel.config.get("topic_id")
    return None if where is None else str(where)


async def set_forum(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    changes: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    """Read players' public orders from a Misago or Discourse channel's thread."""
    require_director(principal)
    channel = await game_channel(session, game, changes["channel_id"])
    if channel.kind not in READABLE_KINDS:
        raise AppError(
            422,
            "channel_not_readable",
            f"只能读取 Misago 或 Discourse 频道的帖子，「{channel.kind}」不行。",
            f"Only a misago or discourse channel's thread can be read, not {channel.kind}.",
        )
    secret = changes.get("webhook_secret")
    if channel.kind == "discourse" and secret is None:
        existing = await session.get(ForumBridgeRow, game.id)
        if existing is None or existing.webhook_secret is None:
            raise AppError(
                422,
                "webhook_secret_required",
                "Discourse 需要 webhook_secret（与 Discourse 后台 Webhook 的 Secret 相同）。",
                "Discourse needs a webhook_secret (the same as the Secret of its webhook).",
            )
    bridge = await session.get(ForumBridgeRow, game.id)
    if bridge is None:
        bridge = ForumBridgeRow(
            game_id=game.id, baseline_done=False, created_at=now, webhook_secret=None
        )
        session.add(bridge)
    elif bridge.channel_id != channel.id or bridge.thread_id != changes.get("thread_id"):
        bridge.baseline_done = False  # another thread: what is in it already is not orders
    bridge.channel_id = channel.id
    bridge.thread_id = None if changes.get("thread_id") is None else str(changes["thread_id"])
    bridge.read_orders = bool(changes["read_orders"])
    bridge.poll_seconds = int(changes.get("poll_seconds") or DEFAULT_POLL_SECONDS)
    if secret is not None:
        bridge.webhook_secret = sealing.cipher().encrypt(secret.encode()).decode()
    bridge.updated_at = now
    await _aim_poll(session, game, bridge, channel, now)
    payload = {k: v for k, v in changes.items() if k != "webhook_secret"}
    audit(session, game, principal, "set_forum", payload, now)
    return bridge_json(bridge, channel)


async def get_forum(session: AsyncSession, game: Game, principal: Principal) -> dict[str, Any]:
    require_director(principal)
    bridge = await session.get(ForumBridgeRow, game.id)
    channel = None if bridge is None else await session.get(ChannelRow, bridge.channel_id)
    if bridge is None or channel is None:
        raise not_found("论坛桥接", "forum bridge")
    return bridge_json(bridge, channel)


async def _aim_poll(
    session: AsyncSession, game: Game, bridge: ForumBridgeRow, channel: ChannelRow, now: datetime
) -> None:
    """Misago is read on a durable timer (Discourse tells us by webhook instead)."""
    timer = await session.scalar(
        select(Timer).where(
            Timer.game_id == game.id, Timer.kind == FORUM_POLL, Timer.key == "thread"
        )
    )
    wanted = bridge.read_orders and channel.kind == "misago"
    if timer is None:
        if not wanted:
            return
        timer = Timer(game_id=game.id, kind=FORUM_POLL, key="thread", created_at=now, data={})
        session.add(timer)
    timer.extensions = 0
    timer.done_at = None if wanted else now
    if game.status == "paused":
        timer.due_at, timer.remaining_seconds = None, 0.0
    else:
        timer.due_at, timer.remaining_seconds = now, None


async def reading_target(
    session: AsyncSession, game_id: str
) -> tuple[ForumBridgeRow, ChannelRow, dict[str, Any]] | None:
    """The bridge, its channel and the channel's opened config, when reading is on."""
    bridge = await session.get(ForumBridgeRow, game_id)
    if bridge is None or not bridge.read_orders:
        return None
    channel = await session.get(ChannelRow, bridge.channel_id)
    if channel is None or channel.removed_at is not None:
        return None
    return bridge, channel, channel_config(channel)


def thread_of(bridge: ForumBridgeRow, channel: ChannelRow) -> str | None:
    return bridge.thread_id or _channel_thread(channel)


def webhook_secret(bridge: ForumBridgeRow) -> str | None:
    if bridge.webhook_secret is None:
        return None
    return sealing.cipher().decrypt(bridge.webhook_secret.encode()).decode()
