"""Platform limits: long messages split to each platform's length (Telegram counts UTF-16
units), Discord's empty rate-limit bucket pauses the bot, a 429's retry_after is waited,
a Telegram bot sends at most 30 messages in any second."""

from __future__ import annotations

import json

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.discord import Discord, bucket_pause
from app.chat.models import ChatMessageRow
from app.chat.telegram import Telegram
from app.chat.worker import ChatWorker
from app.clock import FakeClock
from app.publish.channels.base import RetryableError, utf16_length
from app.settings import Settings
from app.web.lines import describe_event
from tests.chat.platforms import (
    TG_SECRET,
    TG_TOKEN,
    DiscordApp,
    Outbox,
    register,
    telegram_config,
)
from tests.service.helpers import team_battle


def recorder(answer: httpx.Response) -> tuple[list[dict[str, object]], httpx.AsyncClient]:
    seen: list[dict[str, object]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append({"path": request.url.path, **json.loads(request.content)})
        if request.url.path.endswith("/users/@me/channels"):
            return httpx.Response(200, json={"id": "77"})
        return answer

    return seen, httpx.AsyncClient(transport=httpx.MockTransport(handle))


async def test_telegram_splits_at_4096_utf16_units() -> None:
    seen, http = recorder(httpx.Response(200, json={"ok": True, "result": {"message_id": 1}}))
    config = {"bot_token": TG_TOKEN, "secret_token": TG_SECRET, "username": "x_bot"}
    text = "\n\n".join(["😀" * 1500] * 3)  # 3,000 UTF-16 units a paragraph
    await Telegram().send(config, "42", text, http)
    parts = [str(p["text"]) for p in seen]
    assert len(parts) == 3 and all(utf16_length(p) <= 4096 for p in parts)
    assert "\n\n".join(parts) == text


async def test_discord_splits_at_2000_and_reads_its_bucket() -> None:
    empty = httpx.Response(
        200,
        json={"id": "1"},
        headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "2.5"},
    )
    seen, http = recorder(empty)
    text = "\n\n".join(["字" * 1500] * 2)
    pause = await Discord().send(DiscordApp().config, "1187000000000000001", text, http)
    messages = [p for p in seen if str(p["path"]).endswith("/messages")]
    assert [len(str(m["content"])) for m in messages] == [1500, 1500]
    assert seen[0]["recipient_id"] == "1187000000000000001"
    assert pause == 2.5
    assert bucket_pause(httpx.Response(200, headers={"X-RateLimit-Remaining": "3"})) is None


async def test_a_429_is_retried_after_its_retry_after() -> None:
    _, http = recorder(httpx.Response(429, json={"message": "slow down", "retry_after": 7.0}))
    try:
        await Discord().send(DiscordApp().config, "1187000000000000001", "你好", http)
    except RetryableError as error:
        assert error.retry_after == 7.0
    else:
        raise AssertionError("a 429 must be retried")


async def test_a_telegram_bot_sends_at_most_30_in_any_second(
    client: httpx.AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    """40 players' messages due at once: 30 go in the first second, none more until that
    second has passed (however often the worker runs), then the other 10."""
    game = await team_battle(client)
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    async with sessionmaker() as session, session.begin():
        session.add_all(
            ChatMessageRow(
                key=f"limit-{n}",
                bot_id=bot["id"],
                chat=str(9000 + n),
                game_id=game.id,
                player_id=f"p{n}",
                kind="event",
                text=f"第{n}条",
                status="pending",
                attempts=0,
                next_attempt_at=clock.now(),
                created_at=clock.now(),
            )
            for n in range(40)
        )
    outbox = Outbox()
    http = httpx.AsyncClient(transport=outbox.transport())
    worker = ChatWorker(sessionmaker, clock, settings, describe_event, http=http)
    assert await worker.run_once() == 30
    clock.advance(0.5)
    assert await worker.run_once() == 0  # the same second: the bot's 30 are spent
    clock.advance(0.6)
    assert await worker.run_once() == 10
    assert sum(len(texts) for texts in outbox.received.values()) == 40
