"""The chat outbox's worker: queues what is due (``app.chat.notify``), then sends.

One pass, like the delivery worker's (``app.publish.worker``):

1. **queue** (one transaction): private results and reminders now due, one row each,
   unique per key — a second pass, or a second replica, finds the key taken;
2. **claim** (one transaction): due messages, oldest first, at most one per chat (a
   pending or sending message holds back every later one of its chat, so a chat reads
   them in order), none to a chat that got one less than a second ago (Telegram: 1/s per
   chat), at most 30 per bot in any second, those being sent included (Telegram: 30/s
   per bot), none for a bot whose
   platform said its bucket is empty (Discord's ``X-RateLimit-Reset-After``). Each becomes
   ``sending`` with a lease and one more attempt;
3. **send** outside any transaction, with one shared HTTP client;
4. **record** (one transaction): ``sent``; or ``pending`` again after an exponential
   backoff (never sooner than the platform's ``retry_after``); or ``failed``.

A worker killed between 3 and 4 leaves the row ``sending``: when its lease runs out it is
claimed and sent again — at most one duplicate per crash, never a loss; a message is
queued once per key, so nothing else is ever sent twice.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.bots import open_config, platform
from app.chat.models import ChatBotRow, ChatMessageRow, ChatSeenRow
from app.chat.notify import Describe, queue
from app.chat.telegram import PER_BOT_PER_SECOND, PER_CHAT_SECONDS
from app.clock import Clock
from app.publish.channels import make_http_client
from app.publish.channels.base import ChannelError, FinalError, RetryableError
from app.settings import Settings

log = logging.getLogger("forumplay.chat")

UNFINISHED = ("pending", "sending")
# How long an update's id is kept to recognise a replay (Telegram retries a failed
# webhook for about a day; a week leaves room to spare).
SEEN_KEPT = timedelta(days=7)
MAX_ERROR = 2000


@dataclass(frozen=True)
class Claim:
    id: int
    bot_id: str
    kind: str
    config: dict[str, Any]
    chat: str
    text: str
    attempts: int


@dataclass(frozen=True)
class Result:
    claim: Claim
    error: str | None = None
    retry_after: float | None = None
    final: bool = False
    pause: float | None = None


class ChatWorker:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        settings: Settings,
        describe: Describe,
        http: httpx.AsyncClient | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.settings = settings
        self.describe = describe
        self.http = http
        self.rng = rng or random.Random()
        self.paused_until: dict[str, datetime] = {}  # bot id -> its bucket refills
        self.known: dict[str, int] = {}  # game id -> its event_seq when last looked at

    async def run_once(self) -> int:
        """One pass: queue, claim, send, record. Returns how many messages were sent."""
        async with self.sessionmaker() as session, session.begin():
            _, scanned = await queue(session, self.clock.now(), self.describe, self.known)
            await session.execute(  # platforms stop retrying an update long before this
                delete(ChatSeenRow).where(ChatSeenRow.at < self.clock.now() - SEEN_KEPT)
            )
        self.known.update(scanned)  # committed: those events need not be read again
        claims = await self.claim(self.settings.publish_worker_batch)
        if not claims:
            return 0
        http = self.http or make_http_client(self.settings.publish_allow_private_urls)
        try:
            results = await asyncio.gather(*(self._send(http, c) for c in claims))
        finally:
            if self.http is None:
                await http.aclose()
        await self.record(list(results))
        return sum(1 for r in results if r.error is None)

    async def drain(self, passes: int = 50) -> int:
        """Passes until nothing is sent (tests; the clock does not move by itself)."""
        total = 0
        for _ in range(passes):
            sent = await self.run_once()
            total += sent
            if not sent:
                break
        return total

    async def claim(self, limit: int) -> list[Claim]:
        async with self.sessionmaker() as session, session.begin():
            now = self.clock.now()
            rows = (
                await session.scalars(
                    select(ChatMessageRow)
                    .where(ChatMessageRow.status.in_(UNFINISHED))
                    .order_by(ChatMessageRow.id)
                    .limit(limit * 5)
                    .with_for_update(skip_locked=True)
                )
            ).all()
            if not rows:
                return []
            window = max(PER_CHAT_SECONDS, 1.0)
            sent = (
                await session.execute(
                    select(
                        ChatMessageRow.bot_id, ChatMessageRow.chat, ChatMessageRow.sent_at
                    ).where(
                        ChatMessageRow.status == "sent",
                        ChatMessageRow.sent_at > now - timedelta(seconds=window),
                    )
                )
            ).all()
            recent = {
                (bot_id, chat)
                for bot_id, chat, at in sent
                if at is not None and at > now - timedelta(seconds=PER_CHAT_SECONDS)
            }
            # Telegram's 30 a second per bot is a sliding second: what each bot sent in the
            # last second, and what is out being sent now (claimed, not yet recorded), count
            # against it — not only what this pass claims.
            per_bot: dict[str, int] = {}
            for bot_id, _, at in sent:
                if at is not None and at > now - timedelta(seconds=1):
                    per_bot[bot_id] = per_bot.get(bot_id, 0) + 1
            for row in rows:
                if row.status == "sending" and row.next_attempt_at and row.next_attempt_at > now:
                    per_bot[row.bot_id] = per_bot.get(row.bot_id, 0) + 1
            bots = {
                b.id: b
                for b in await session.scalars(
                    select(ChatBotRow).where(ChatBotRow.id.in_({r.bot_id for r in rows}))
                )
            }
            held: set[tuple[str, str]] = set()
            out: list[Claim] = []
            for row in rows:
                chat = (row.bot_id, row.chat)
                first_of_chat = chat not in held
                held.add(chat)
                due = row.next_attempt_at is None or row.next_attempt_at <= now
                bot = bots.get(row.bot_id)
                if not first_of_chat or not due or chat in recent or len(out) >= limit:
                    continue
                if bot is None or bot.removed_at is not None:
                    row.status, row.error = "failed", "the bot was removed"
                    continue
                if self.paused_until.get(bot.id, now) > now:
                    continue
                if per_bot.get(bot.id, 0) >= PER_BOT_PER_SECOND:
                    continue
                per_bot[bot.id] = per_bot.get(bot.id, 0) + 1
                row.status = "sending"
                row.attempts += 1
                row.next_attempt_at = now + timedelta(seconds=self.settings.publish_lease_seconds)
                out.append(
                    Claim(
                        row.id,
                        bot.id,
                        bot.kind,
                        open_config(bot, self.settings),
                        row.chat,
                        row.text,
                        row.attempts,
                    )
                )
            return out

    async def _send(self, http: httpx.AsyncClient, claim: Claim) -> Result:
        try:
            pause = await platform(claim.kind).send(claim.config, claim.chat, claim.text, http)
        except RetryableError as error:
            return Result(claim, error=str(error), retry_after=error.retry_after)
        except FinalError as error:
            return Result(claim, error=str(error), final=True)
        except ChannelError as error:
            return Result(claim, error=str(error))
        except Exception as error:  # noqa: BLE001 - recorded on the message, retried
            log.exception("chat send failed")
            return Result(claim, error=f"{type(error).__name__}: {error}")
        return Result(claim, pause=pause)

    async def record(self, results: list[Result]) -> None:
        async with self.sessionmaker() as session, session.begin():
            now = self.clock.now()
            for result in results:
                row = await session.get(ChatMessageRow, result.claim.id)
                if row is None or row.status != "sending":
                    continue
                if result.pause:
                    self.paused_until[result.claim.bot_id] = now + timedelta(seconds=result.pause)
                if result.error is None:
                    row.status, row.sent_at, row.error = "sent", now, None
                    row.next_attempt_at = None
                    continue
                row.error = result.error[:MAX_ERROR]
                if result.final or row.attempts >= self.settings.publish_max_attempts:
                    row.status, row.next_attempt_at = "failed", None
                    continue
                delay = min(
                    self.settings.publish_retry_max_seconds,
                    self.settings.publish_retry_base_seconds * 2 ** (row.attempts - 1),
                ) * (0.5 + self.rng.random() / 2)
                delay = max(delay, result.retry_after or 0.0)
                row.status, row.next_attempt_at = "pending", now + timedelta(seconds=delay)

    async def loop(self) -> None:
        interval = self.settings.publish_worker_interval_seconds
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the loop must survive a bad pass
                log.exception("chat worker pass failed")
            await asyncio.sleep(interval)


__all__ = ["ChatWorker"]
