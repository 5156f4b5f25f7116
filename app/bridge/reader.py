"""Reading the forums: Misago on a durable timer, Discourse by its webhook.

Network calls never happen inside a transaction (a slow forum must not hold a game's lock,
or on SQLite the whole database). So the ``forum_poll`` timer, when the scheduler claims it,
only re-aims itself ``poll_seconds`` ahead and, once that transaction has committed, hands
the game to this process's :class:`ForumReader`:

1. read the thread's pages (Misago's posts API), outside any transaction;
2. fetch the raw Markdown of each post revision not read before (``reply_editor``);
3. read each of them in its own transaction, game row locked (``service.process``).

A process that dies meanwhile loses nothing: the timer comes round again on any replica,
and a revision already read is recognised (``forum_posts``' unique key) and skipped.
A Discourse webhook is verified (``X-Discourse-Event-Signature: sha256=<hex HMAC-SHA256 of
the body>``), its post fetched (``GET /posts/{id}.json``), and read the same way.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.bridge import forums, service
from app.bridge.models import ForumBridgeRow
from app.bridge.service import ForumMessage
from app.clock import Clock
from app.errors import AppError
from app.models import Game, Timer
from app.publish.channels import make_http_client, misago_client
from app.publish.channels.base import (
    ChannelError,
    as_dict,
    fail_for_status,
    json_body,
    request,
    short,
)
from app.publish.urls import base_url
from app.services.games import load_game
from app.settings import Settings

log = logging.getLogger("forumplay.bridge")
TIMER_KINDS = forums.TIMER_KINDS

_reader: ForumReader | None = None


def install(reader: ForumReader) -> None:
    """The reader this process hands due polls to (the app sets it up)."""
    global _reader
    _reader = reader


async def run_timer(session: AsyncSession, game: Game, timer: Timer, now: datetime) -> None:
    """The scheduler's hook for a ``forum_poll`` timer (inside its transaction)."""
    bridge = await session.get(ForumBridgeRow, game.id)
    if bridge is None or not bridge.read_orders or game.status == "finished":
        timer.done_at = now
        return
    timer.due_at = now + timedelta(seconds=bridge.poll_seconds)
    reader = _reader
    if reader is None:
        log.warning("no forum reader in this process: game %s not read", game.id)
        return
    game_id = game.id

    def hand_over(_session: Session) -> None:
        reader.spawn(game_id)

    event.listen(session.sync_session, "after_commit", hand_over, once=True)


class ForumReader:
    """Reads games' threads for this process (one read per game at a time)."""

    def __init__(
        self,
        sessionmaker: Callable[[], async_sessionmaker[AsyncSession]],
        clock: Clock,
        settings: Settings,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self._sessionmaker = sessionmaker
        self.clock = clock
        self.settings = settings
        self.http = http
        self._running: dict[str, asyncio.Task[int]] = {}

    def client(self) -> httpx.AsyncClient:
        if self.http is None:
            self.http = make_http_client(self.settings.publish_allow_private_urls)
        return self.http

    def spawn(self, game_id: str) -> None:
        if game_id in self._running:
            return  # still reading: the next poll picks up what this one misses
        task = asyncio.get_running_loop().create_task(self.poll(game_id))
        self._running[game_id] = task
        task.add_done_callback(lambda _t: self._running.pop(game_id, None))

    async def drain(self) -> None:
        """Wait for every read in flight (tests; shutdown)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    # -- Misago ----------------------------------------------------------------------

    async def poll(self, game_id: str) -> int:
        """Read the game's Misago thread once; return how many revisions were new."""
        try:
            return await self._poll(game_id)
        except ChannelError as error:
            await self._note(game_id, str(error))
            return 0
        except Exception as error:
            log.exception("reading the forum of game %s failed", game_id)
            await self._note(game_id, f"{type(error).__name__}: {short(str(error))}")
            return 0

    async def _poll(self, game_id: str) -> int:
        async with self._sessionmaker()() as session, session.begin():
            target = await forums.reading_target(session, game_id)
            if target is None or target[1].kind != "misago":
                return 0
            bridge, channel, config = target
            thread = forums.thread_of(bridge, channel)
            if thread is None:
                return 0  # the channel has not opened its thread yet
            seen = await service.seen_revisions(session, game_id)
            ordering = await service.posts_with_orders(session, game_id, thread)
            baseline = bridge.baseline_done
        client = misago_client(config, self.client())
        thread_id = int(thread)
        posts = await client.read_thread(thread_id, with_raw=False)
        bot = str(config.get("username", ""))
        present = {str(p.id) for p in posts if not p.is_hidden}
        messages: list[ForumMessage] = []
        for post in posts:
            if post.is_hidden or post.is_unapproved:
                continue
            key = (str(post.id), str(post.edits))
            if key in seen:
                continue
            mine = post.author is not None and post.author.casefold() == bot.casefold()
            raw = "" if mine or not baseline else await client.raw(thread_id, post.id)
            messages.append(ForumMessage(key[0], key[1], post.author, raw, post.url))
        for post_id in sorted(ordering - present):
            if (post_id, "deleted") not in seen:
                messages.append(ForumMessage(post_id, "deleted", None, None))
        if not baseline:
            await self._baseline(game_id, thread, messages)
            return 0
        for message in messages:
            await self.read(game_id, message)
        await self._note(game_id, None)
        return len(messages)

    async def _baseline(self, game_id: str, thread: str, messages: list[ForumMessage]) -> None:
        async with self._sessionmaker()() as session, session.begin():
            bridge = await session.get(ForumBridgeRow, game_id, with_for_update=True)
            if bridge is None or bridge.baseline_done:
                return
            now = self.clock.now()
            service.record_baseline(session, game_id, thread, messages, now)
            bridge.baseline_done = True
            bridge.last_read_at, bridge.last_error = now, None

    async def read(self, game_id: str, message: ForumMessage) -> str:
        """Read one revision in its own transaction; a revision another reader recorded
        first (the unique key) is "seen"."""
        try:
            async with self._sessionmaker()() as session, session.begin():
                game = await load_game(session, game_id, lock=True)
                return await service.process(session, game, message, self.clock.now())
        except IntegrityError:
            return "seen"

    async def _note(self, game_id: str, error: str | None) -> None:
        async with self._sessionmaker()() as session, session.begin():
            bridge = await session.get(ForumBridgeRow, game_id)
            if bridge is not None:
                bridge.last_read_at = self.clock.now()
                bridge.last_error = error

    # -- Discourse -------------------------------------------------------------------

    async def discourse_event(
        self, game_id: str, body: bytes, signature: str | None, event_name: str | None
    ) -> str:
        """A Discourse webhook delivery: verified, then its post fetched and read."""
        async with self._sessionmaker()() as session, session.begin():
            target = await forums.reading_target(session, game_id)
            if target is None or target[1].kind != "discourse":
                raise AppError(
                    404,
                    "not_found",
                    "这局游戏没有读取 Discourse。",
                    "This game reads no Discourse.",
                )
            bridge, channel, config = target
            secret = forums.webhook_secret(bridge)
            topic = forums.thread_of(bridge, channel)
        if secret is None or not signed(secret, body, signature):
            raise AppError(
                401,
                "bad_signature",
                "Webhook 签名不符。",
                "The webhook signature (X-Discourse-Event-Signature) does not match.",
            )
        if not (event_name or "").startswith("post_"):
            return "ignored"
        try:
            payload = as_dict(as_dict(json.loads(body)).get("post"))
            post_id = int(payload["id"])
        except (KeyError, TypeError, ValueError, UnicodeDecodeError):
            raise AppError(
                422, "invalid_body", "Webhook 内容缺少帖子。", "The webhook names no post."
            ) from None
        if topic is None or str(payload.get("topic_id")) != topic:
            return "ignored"  # another topic of the forum
        if event_name == "post_destroyed":
            message = ForumMessage(str(post_id), "deleted", payload.get("username"), None)
        else:
            try:
                message = await self._discourse_post(config, post_id)
            except ChannelError as error:
                raise AppError(
                    503,
                    "forum_unavailable",
                    f"读取 Discourse 帖子失败，请稍后在 Discourse 重新投递：{error}",
                    f"Fetching the post from Discourse failed; redeliver it later: {error}",
                ) from None
        return await self.read(game_id, message)

    async def _discourse_post(self, config: dict[str, Any], post_id: int) -> ForumMessage:
        root = base_url(str(config["base_url"]))
        headers = {
            "Api-Key": str(config["api_key"]),
            "Api-Username": str(config["api_username"]),
            "Accept": "application/json",
        }
        response = await request(
            "discourse", self.client(), "GET", f"{root}/posts/{post_id}.json", headers=headers
        )
        if response.status_code == 404:
            return ForumMessage(str(post_id), "deleted", None, None)
        fail_for_status("discourse", response, short(response.text))
        post = as_dict(json_body(response))
        if post.get("deleted_at") or post.get("hidden"):
            return ForumMessage(str(post_id), "deleted", post.get("username"), None)
        slug = post.get("topic_slug") or "-"
        url = f"{root}/t/{slug}/{post.get('topic_id')}/{post.get('post_number')}"
        version = str(post.get("version") or 1)
        raw = str(post.get("raw") or "")
        return ForumMessage(str(post_id), version, post.get("username"), raw, url)


def signed(secret: str, body: bytes, signature: str | None) -> bool:
    """Discourse's signature: ``sha256=`` and the hex HMAC-SHA256 of the body."""
    if not signature or not signature.startswith("sha256="):
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature.removeprefix("sha256="))
