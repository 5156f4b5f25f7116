"""The delivery worker: takes queued deliveries out of the outbox and sends them.

One pass:

1. **claim** (one transaction): due deliveries, ``FOR UPDATE SKIP LOCKED`` (SQLite: one
   process, BEGIN IMMEDIATE), at most one per channel — the oldest one the channel has not
   finished. A pending, sending or failed delivery holds back every later one of its
   channel, so on one channel a later post never overtakes an earlier one, and a failed
   one blocks its channel until the director retries or discards it. Each claimed row
   becomes ``sending`` with a lease (``next_attempt_at`` = now + lease) and one more attempt.
   A closing step only plans its posts (``app.publish.bodies``): the claim renders the
   claimed posts not yet rendered, every format, and keeps the text; a pass with nothing
   to send renders the other posts still unrendered (no channel, awaiting review);
2. **send** outside any transaction, all claimed deliveries at once, with one shared
   ``httpx.AsyncClient`` (timeouts from the settings);
3. **record** (one transaction): ``sent`` with the remote id and URL and the channel's
   ``config_updates`` (e.g. the thread a first post opened); or, on a retryable error,
   ``pending`` again after an exponential backoff with jitter (never sooner than the
   platform's ``retry_after``); or ``failed`` with the error, after a final error or the
   last attempt.

A worker that dies between 2 and 3 leaves the row ``sending``; when its lease runs out the
row is claimed again and sent once more: at most one duplicate per crash, never a loss.
The jitter comes from its own ``random.Random``, never from a game's RNG.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app import observability
from app.clock import Clock
from app.publish.bodies import ensure_bodies, render_pending
from app.publish.channels import ADAPTERS, make_http_client, seal_config
from app.publish.channels.base import ChannelAdapter, FinalError, Outgoing, RetryableError, Sent
from app.publish.models import ChannelRow, DeliveryRow, PostRow
from app.publish.service import channel_config, post_json
from app.publish.withdraw import edit_withdrawn
from app.settings import Settings

log = logging.getLogger("forumplay.publish")

UNFINISHED = ("pending", "sending", "failed")
MAX_ERROR_LENGTH = 2000


@dataclass(frozen=True)
class Claim:
    delivery_id: int
    attempts: int
    kind: str
    config: dict[str, Any]
    message: Outgoing


@dataclass(frozen=True)
class Result:
    claim: Claim
    sent: Sent | None = None
    error: str | None = None
    retry_after: float | None = None
    final: bool = False


class DeliveryWorker:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        settings: Settings,
        http: httpx.AsyncClient | None = None,
        adapters: Mapping[str, ChannelAdapter] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.settings = settings
        self.http = http
        self.adapters = adapters if adapters is not None else ADAPTERS
        self.rng = rng or random.Random()
        # Posts this process failed to render: the pass over unrendered posts skips them
        # (their deliveries retry with a backoff; a restart after the fix renders them).
        self._unrenderable: set[str] = set()

    async def run_once(self) -> int:
        """One pass: claim, send, record. Returns how many deliveries were attempted."""
        claims = await self.claim(self.settings.publish_worker_batch)
        if not claims:
            return await self._withdraw(self.http)
        own_client = self.http is None
        http = self.http or self._client()
        try:
            results = await asyncio.gather(*(self._send(http, c) for c in claims))
        finally:
            if own_client:
                await http.aclose()
        await self.record(list(results))
        return len(claims) + await self._withdraw(http if not own_client else None)

    async def _withdraw(self, http: httpx.AsyncClient | None) -> int:
        """Edit the delivered posts of undone steps (app/publish/withdraw.py)."""
        return await edit_withdrawn(
            self.sessionmaker, self.clock.now(), http or self._client, self.adapters
        )

    def _client(self) -> httpx.AsyncClient:
        # One client for every send: timeouts, no redirects, no cookies, and (unless private
        # URLs are allowed) the private-address guard on every request.
        return make_http_client(self.settings.publish_allow_private_urls)

    async def claim(self, limit: int) -> list[Claim]:
        earlier = aliased(DeliveryRow)
        held_back = exists().where(
            earlier.channel_id == DeliveryRow.channel_id,
            earlier.id < DeliveryRow.id,
            earlier.status.in_(UNFINISHED),
        )
        async with self.sessionmaker() as session, session.begin():
            now = self.clock.now()
            rows = (
                await session.scalars(
                    select(DeliveryRow)
                    .where(
                        or_(DeliveryRow.status == "pending", DeliveryRow.status == "sending"),
                        DeliveryRow.next_attempt_at <= now,
                        ~held_back,
                    )
                    .order_by(DeliveryRow.id)
                    .limit(limit)
                    .with_for_update(skip_locked=True, of=DeliveryRow)
                )
            ).all()
            if not rows:
                # Nothing to send: render the posts planned and not yet rendered (those
                # with no delivery — no channel, awaiting review — too), so a read finds
                # them rendered (app/publish/bodies.py).
                failed = await session.run_sync(
                    render_pending, self.settings.publish_worker_batch, self._unrenderable
                )
                self._unrenderable.update(failed)  # their deliveries retry them, not this
                return []
            posts = {
                p.id: p
                for p in await session.scalars(
                    select(PostRow).where(PostRow.id.in_({r.post_id for r in rows}))
                )
            }
            channels = {
                c.id: c
                for c in await session.scalars(
                    select(ChannelRow).where(ChannelRow.id.in_({r.channel_id for r in rows}))
                )
            }
            # A post planned by its step is rendered here, before its first send, and its
            # text kept (app/publish/bodies.py): every later send and read finds it.
            texts = await ensure_bodies(session, list(posts.values()))
            lease = now + timedelta(seconds=self.settings.publish_lease_seconds)
            claims = []
            for row in rows:
                row.attempts += 1
                post, channel = posts[row.post_id], channels[row.channel_id]
                if channel.format not in texts[post.id]:
                    # The rendering failed (logged): nothing is sent, the delivery is tried
                    # again later like a failed send, and holds back its channel meanwhile.
                    self._not_rendered(row, now)
                    continue
                row.status = "sending"
                row.next_attempt_at = lease
                shown = {
                    k: v
                    for k, v in post_json(post, [], texts[post.id]).items()
                    if k != "deliveries"
                }
                message = Outgoing(
                    delivery_id=f"{post.id}.{channel.id}",
                    game_id=post.game_id,
                    post=shown,
                    body=texts[post.id][channel.format],
                    title=post.title,
                    thread_title=post.thread_title,
                )
                claims.append(
                    Claim(
                        delivery_id=row.id,
                        attempts=row.attempts,
                        kind=channel.kind,
                        config=channel_config(channel),
                        message=message,
                    )
                )
            return claims

    def _not_rendered(self, row: DeliveryRow, now: datetime) -> None:
        """A delivery whose post could not be rendered: pending again after a backoff, or
        failed after the last attempt (the director may retry it once the cause is fixed)."""
        row.error = "the post could not be rendered (see the log)"
        if row.attempts >= self.settings.publish_max_attempts:
            row.status = "failed"
            row.next_attempt_at = None
        else:
            row.status = "pending"
            row.next_attempt_at = now + timedelta(seconds=self.backoff(row.attempts, None))
        observability.delivery_recorded(row.status, row.created_at, now)

    async def _send(self, http: httpx.AsyncClient, claim: Claim) -> Result:
        adapter = self.adapters.get(claim.kind)
        if adapter is None:
            return Result(claim, error=f"no adapter for channel kind {claim.kind!r}", final=True)
        try:
            sent = await adapter.send(claim.message, claim.config, http)
        except RetryableError as error:
            return Result(
                claim,
                error=str(error) or type(error).__name__,
                retry_after=getattr(error, "retry_after", None),
            )
        except FinalError as error:
            return Result(claim, error=str(error) or type(error).__name__, final=True)
        except Exception as error:  # noqa: BLE001 - an adapter bug: retried, then shown
            log.exception("channel %s failed on delivery %s", claim.kind, claim.delivery_id)
            return Result(claim, error=f"{type(error).__name__}: {error}")
        return Result(claim, sent=sent)

    async def record(self, results: list[Result]) -> None:
        async with self.sessionmaker() as session, session.begin():
            now = self.clock.now()
            rows = {
                r.id: r
                for r in await session.scalars(
                    select(DeliveryRow)
                    .where(DeliveryRow.id.in_([x.claim.delivery_id for x in results]))
                    .with_for_update()
                )
            }
            for result in results:
                row = rows.get(result.claim.delivery_id)
                if row is None or row.status in ("sent", "discarded"):
                    continue  # removed meanwhile, or recorded by another worker
                if result.sent is not None:
                    row.status = "sent"
                    row.remote_id = result.sent.remote_id
                    row.remote_url = result.sent.remote_url
                    row.error = None
                    row.sent_at = now
                    row.next_attempt_at = None
                    if result.sent.config_updates:
                        await self._update_config(session, row.channel_id, result.sent)
                    observability.delivery_recorded(row.status, row.created_at, now)
                    continue
                row.error = (result.error or "")[:MAX_ERROR_LENGTH]
                if result.final or row.attempts >= self.settings.publish_max_attempts:
                    row.status = "failed"
                    row.next_attempt_at = None
                else:
                    row.status = "pending"
                    row.next_attempt_at = now + timedelta(
                        seconds=self.backoff(row.attempts, result.retry_after)
                    )
                observability.delivery_recorded(row.status, row.created_at, now)

    async def _update_config(self, session: AsyncSession, channel_id: str, sent: Sent) -> None:
        """What the platform told the adapter to remember (e.g. the thread a first post
        opened), stored sealed like the rest of the config."""
        channel = await session.get(ChannelRow, channel_id, with_for_update=True)
        if channel is not None:
            channel.config = {**channel.config, **seal_config(channel.kind, sent.config_updates)}

    def backoff(self, attempts: int, retry_after: float | None) -> float:
        """Exponential backoff with jitter: half the doubled delay fixed, half random
        (so retries of many deliveries spread out), never sooner than ``retry_after``."""
        base = self.settings.publish_retry_base_seconds * 2 ** max(0, attempts - 1)
        delay = min(self.settings.publish_retry_max_seconds, base)
        delay = delay / 2 + self.rng.uniform(0, delay / 2)
        return max(delay, retry_after or 0.0)

    async def loop(self) -> None:
        """Forever: a pass, then wait if it found nothing to send. Started by the lifespan."""
        own = self.http is None
        if own:
            self.http = self._client()
        try:
            while True:
                done = 0
                try:
                    done = await self.run_once()
                except asyncio.CancelledError:
                    raise
                except Exception:  # keep the loop alive; a lost pass is claimed again later
                    log.exception("delivery pass failed")
                # A pass sends at most one delivery per channel: after one that sent
                # anything, the next of a channel may be due at once (a finished game's
                # last posts waited a whole interval each, issue 16 item 28).
                if not done:
                    await asyncio.sleep(self.settings.publish_worker_interval_seconds)
        finally:
            if own and self.http is not None:
                await self.http.aclose()
                self.http = None


async def run_standalone() -> None:
    """``python -m app publish-worker``: a process that only delivers posts."""
    from app.clock import SystemClock
    from app.db import make_engine, make_sessionmaker
    from app.settings import get_settings

    settings = get_settings()
    engine = make_engine(
        settings.database_url, settings.db_pool_size, pool_overflow=settings.db_pool_overflow
    )
    try:
        await DeliveryWorker(make_sessionmaker(engine), SystemClock(), settings).loop()
    finally:
        await engine.dispose()
