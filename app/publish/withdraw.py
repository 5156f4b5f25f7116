"""Editing the delivered posts of an undone step to say they were withdrawn.

A director's undo (app/services/safety/) queues one ``post_withdrawals`` row per delivery
of an undone step's post that reached a channel whose platform lets the bot edit its own
post (an adapter with ``edit``). The delivery worker then, after its own pass, edits each
one — once the correction itself has reached that channel, so the edit can link to it:
the post keeps its text, under a line that says it was withdrawn, why, and where the
correction is. A platform that refuses is retried a few times, then the row is marked
failed with the reason (the correction post stands either way).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.kit.formats import FORMATTERS
from app.publish.bodies import text_of
from app.publish.catalogue import PHRASES
from app.publish.channels.base import ChannelAdapter, ChannelError
from app.publish.models import ChannelRow, DeliveryRow, PostRow, PublishingRow, WithdrawalRow
from app.publish.service import channel_config

log = logging.getLogger("forumplay.publish")

MAX_ATTEMPTS = 5
CORRECTION_KIND = "notice"


def can_edit(adapters: Mapping[str, ChannelAdapter], kind: str) -> bool:
    return callable(getattr(adapters.get(kind), "edit", None))


def withdrawn_text(fmt: str, language: str, body: str, reason: str, link: str | None) -> str:
    """The post as edited: a bold line saying it was withdrawn (and where the correction
    is), then the original text."""
    formatter = FORMATTERS.get(fmt) or FORMATTERS["text"]
    zh, en = PHRASES["withdrawn.note"]
    line = (en if language == "en" else zh).format(reason=reason)
    head = formatter.bold(formatter.esc(line))
    if link:
        label = PHRASES["withdrawn.link"][1 if language == "en" else 0]
        head = head + " " + formatter.link(link, label)
    return f"{head}\n\n{body}"


async def _correction_link(
    session: AsyncSession, delivery: DeliveryRow, post: PostRow
) -> tuple[bool, str | None]:
    """(the correction reached this channel, its address there)."""
    found = (
        await session.execute(
            select(DeliveryRow.status, DeliveryRow.remote_url)
            .join(PostRow, PostRow.id == DeliveryRow.post_id)
            .where(
                DeliveryRow.channel_id == delivery.channel_id,
                PostRow.game_id == post.game_id,
                PostRow.seq > post.seq,
                PostRow.kind == CORRECTION_KIND,
            )
            .order_by(PostRow.seq.desc())
            .limit(1)
        )
    ).first()
    if found is None or found[0] != "sent":
        return False, None
    return True, found[1]


async def edit_withdrawn(
    sessionmaker: async_sessionmaker[AsyncSession],
    now: datetime,
    http: httpx.AsyncClient | Callable[[], httpx.AsyncClient],
    adapters: Mapping[str, ChannelAdapter],
    limit: int = 20,
) -> int:
    """One pass: edit the withdrawn posts whose correction is out. Returns how many were
    attempted. ``http``: the client, or how to make one (only when there is work)."""
    jobs: list[tuple[int, ChannelAdapter, str, str, dict[str, Any]]] = []
    async with sessionmaker() as session, session.begin():
        rows = (
            await session.scalars(
                select(WithdrawalRow)
                .where(WithdrawalRow.status == "pending")
                .order_by(WithdrawalRow.id)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
        ).all()
        for row in rows:
            delivery = await session.get(DeliveryRow, row.delivery_id)
            post = await session.get(PostRow, delivery.post_id) if delivery else None
            channel = await session.get(ChannelRow, delivery.channel_id) if delivery else None
            adapter = adapters.get(channel.kind) if channel else None
            if delivery is None or post is None or channel is None or adapter is None:
                row.status, row.error, row.done_at = "failed", "nothing to edit", now
                continue
            out, link = await _correction_link(session, delivery, post)
            if not out or delivery.remote_id is None:
                continue  # the correction first
            language = await session.scalar(
                select(PublishingRow.language).where(PublishingRow.game_id == post.game_id)
            )
            text = withdrawn_text(
                channel.format,
                language or "zh",
                await text_of(session, post, channel.format),
                row.reason,
                link,
            )
            row.attempts += 1
            jobs.append((row.id, adapter, delivery.remote_id, text, channel_config(channel)))
    if not jobs:
        return 0
    client = http if isinstance(http, httpx.AsyncClient) else http()
    results: dict[int, str | None] = {}
    try:
        for row_id, adapter, remote_id, text, config in jobs:
            try:
                await adapter.edit(remote_id, text, config, client)  # type: ignore[attr-defined]
                results[row_id] = None
            except ChannelError as error:
                results[row_id] = str(error) or type(error).__name__
            except Exception as error:  # noqa: BLE001 - an adapter bug: retried, then shown
                log.exception("editing withdrawn delivery failed")
                results[row_id] = f"{type(error).__name__}: {error}"
    finally:
        if client is not http:
            await client.aclose()
    async with sessionmaker() as session, session.begin():
        for row_id, problem in results.items():
            done = await session.get(WithdrawalRow, row_id)
            if done is None:
                continue
            if problem is None:
                done.status, done.error, done.done_at = "done", None, now
            else:
                done.error = problem[:2000]
                if done.attempts >= MAX_ATTEMPTS:
                    done.status, done.done_at = "failed", now
    return len(results)
