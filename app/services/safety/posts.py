"""What an undo does to the posts of the steps it takes back.

The correction itself is the undo's public event (``steps_undone``), which the outbox
turns into a notice post for every channel like any other. Here: a post of an undone step
still awaiting review is discarded (it never goes out), and a published one's deliveries
not yet begun are given up; what was already delivered stays, corrected by that notice.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game
from app.publish.channels import ADAPTERS
from app.publish.models import ChannelRow, DeliveryRow, PostRow, WithdrawalRow
from app.publish.service import end_auto_publish
from app.publish.withdraw import can_edit


async def withdraw_posts(
    session: AsyncSession, game: Game, steps: Iterable[int], reason: str, now: datetime
) -> dict[str, Any]:
    """Discard the undone steps' posts that did not go out; list those that did, and queue
    the edit of each delivered copy where its platform lets the bot edit its own post."""
    seqs = set(steps)
    if not seqs:
        return {"discarded": [], "delivered": []}
    found = (
        await session.scalars(
            select(PostRow)
            .where(PostRow.game_id == game.id, PostRow.step_seq.in_(seqs))
            .order_by(PostRow.seq)
        )
    ).all()
    discarded: list[int] = []
    delivered: list[int] = []
    for post in found:
        if post.status == "awaiting_review":
            post.status = "discarded"
            post.publish_at = None
            await end_auto_publish(session, post, now)
            discarded.append(post.seq)
        elif post.status == "published":
            deliveries = (
                await session.scalars(select(DeliveryRow).where(DeliveryRow.post_id == post.id))
            ).all()
            for delivery in deliveries:
                if delivery.status in ("pending", "failed"):
                    delivery.status = "discarded"
                    delivery.next_attempt_at = None
            if any(d.status == "sent" for d in deliveries):
                delivered.append(post.seq)
            for delivery in deliveries:
                if delivery.status == "sent" and delivery.remote_id is not None:
                    channel = await session.get(ChannelRow, delivery.channel_id)
                    if channel is not None and can_edit(ADAPTERS, channel.kind):
                        session.add(
                            WithdrawalRow(
                                game_id=game.id,
                                delivery_id=delivery.id,
                                reason=reason,
                                status="pending",
                                attempts=0,
                                created_at=now,
                            )
                        )
    return {"discarded": discarded, "delivered": delivered}
