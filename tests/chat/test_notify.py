"""Private messages through the chat outbox: each player's own results (compared with that
player's own view), the reminder only to those who have not acted, one message per key
however often the pass runs, and a worker killed mid-send losing nothing."""

from __future__ import annotations

from typing import Any

import httpx
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.models import ChatMessageRow
from app.chat.worker import ChatWorker
from app.clock import FakeClock
from app.settings import Settings
from app.web.lines import describe_event
from tests.chat.platforms import (
    DiscordApp,
    DiscordUser,
    Outbox,
    TelegramUser,
    register,
    telegram_config,
)
from tests.chat.test_inbound import DEPLOY_ZH, code_for, with_bot
from tests.service.helpers import Game, ok, team_battle


def worker(
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: FakeClock,
    settings: Settings,
    outbox: Outbox,
) -> ChatWorker:
    http = httpx.AsyncClient(transport=outbox.transport())
    return ChatWorker(sessionmaker, clock, settings, describe_event, http=http)


async def own_lines(game: Game, who: str, names: dict[str, str]) -> list[str]:
    """Every line the player's own view of the events reads, in Chinese, and the salts
    of their own receipts once opened."""
    events = await game.events(who)
    ruleset = ok(await game.get(""))["ruleset"]
    side = game.players[who].get("side") or (await game.view(who)).get("side")
    lines = [describe_event(e["kind"], e["data"], "zh", ruleset, names, {}) for e in events]
    for e in events:
        if e["kind"] == "receipts_opened":
            lines += [r["salt"] for r in e["data"]["receipts"] if r["owner"] in (side, who)]
    return lines


async def test_private_results_are_each_players_own_and_nothing_else(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    tg = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    app = DiscordApp()
    dc = await register(sessionmaker, settings, clock, "discord", app.config)
    ok(await game.put("/chat", "director", {"bot_ids": [tg["id"], dc["id"]]}))
    alice = TelegramUser(client, tg["webhook_path"], user_id=7001)
    bob = DiscordUser(client, dc["webhook_path"], app, user_id="1187000000000000701")
    await alice.say(f"/start {await code_for(game, 'a1')}")
    await bob.command("link", code=await code_for(game, "b1"))
    assert "已收到" in await alice.say("部署 10 5 5 5 5")
    assert "已收到" in await bob.command("order", text="部署 2 7 7 7 7")
    ok(await game.post("/advance", "director"))  # deployment closes: each side's own report
    outbox = Outbox()
    chat_worker = worker(sessionmaker, clock, settings, outbox)
    await chat_worker.drain()
    clock.advance(2)
    await chat_worker.drain()
    names = {p["id"]: n for n, p in game.players.items()}
    for who, kind, chat in (("a1", "telegram", "7001"), ("b1", "discord", "1187000000000000701")):
        got = outbox.to(kind, chat)
        assert got, (who, outbox.received)
        lines = await own_lines(game, who, names)
        for message in got:
            assert any(line in message for line in lines), (who, message, lines)
    # Side A's own events are A's alone: B never hears them privately.
    assert any("甲方提交了指令" in m for m in outbox.to("telegram", "7001"))
    assert not any("甲方" in m for m in outbox.to("discord", "1187000000000000701"))
    # Passes again: nothing already told is told twice.
    clock.advance(5)
    await chat_worker.drain()
    for messages in outbox.received.values():
        assert len(messages) == len(set(messages)), messages
    assert sum(len(v) for v in outbox.received.values()) == await count(sessionmaker, status="sent")


async def test_reminder_only_to_those_who_have_not_acted(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    tg = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, tg)
    alice = TelegramUser(client, tg["webhook_path"], user_id=7101)
    carol = TelegramUser(client, tg["webhook_path"], user_id=7102)
    await alice.say(f"/start {await code_for(game, 'a1')}")
    await carol.say(f"/start {await code_for(game, 'b1')}")
    assert "已收到" in await carol.say(DEPLOY_ZH)  # B has acted
    outbox = Outbox()
    chat_worker = worker(sessionmaker, clock, settings, outbox)
    clock.advance(60)  # the deadline is an hour away: the default reminder is due
    await chat_worker.drain()
    reminders = [m for m in outbox.to("telegram", "7101") if "提醒" in m]
    assert len(reminders) == 1
    assert [m for m in outbox.to("telegram", "7102") if "提醒" in m] == []
    clock.advance(60)
    await chat_worker.drain()
    assert len([m for m in outbox.to("telegram", "7101") if "提醒" in m]) == 1


async def test_opted_out_players_get_nothing(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    tg = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, tg)
    alice = TelegramUser(client, tg["webhook_path"], user_id=7201)
    await alice.say(f"/start {await code_for(game, 'a1')}")
    assert ok(await game.put("/chat/notify", "a1", {"notify": False})) == {
        "notify": False,
        "links": 1,
    }
    outbox = Outbox()
    clock.advance(60)
    chat_worker = worker(sessionmaker, clock, settings, outbox)
    await chat_worker.drain()
    assert outbox.received == {}
    assert "已收到" in await alice.say(DEPLOY_ZH)  # a1's side's own event, while opted out
    await chat_worker.drain()
    assert outbox.received == {}
    # Back on: from now on, not what happened while it was off.
    assert ok(await game.put("/chat/notify", "a1", {"notify": True}))["notify"] is True
    await chat_worker.drain()
    assert outbox.received == {}
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    ok(await game.post("/advance", "director"))
    clock.advance(2)
    await chat_worker.drain()
    got = outbox.to("telegram", "7201")
    assert got and not any("甲方提交了指令" in m for m in got)


async def count(sessionmaker: async_sessionmaker[AsyncSession], **where: Any) -> int:
    async with sessionmaker() as session:
        query = select(func.count()).select_from(ChatMessageRow)
        for name, value in where.items():
            query = query.where(getattr(ChatMessageRow, name) == value)
        return int(await session.scalar(query) or 0)


async def test_a_worker_killed_mid_send_loses_nothing_and_retries_back_off(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    tg = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, tg)
    alice = TelegramUser(client, tg["webhook_path"], user_id=7301)
    await alice.say(f"/start {await code_for(game, 'a1')}")
    clock.advance(60)
    outbox = Outbox()
    first = worker(sessionmaker, clock, settings, outbox)
    # Queued and claimed, then the process dies (kill -9) before anything is sent.
    async with sessionmaker() as session, session.begin():
        from app.chat.notify import queue

        assert (await queue(session, clock.now(), describe_event))[0] == 1
    claims = await first.claim(10)
    assert len(claims) == 1 and await count(sessionmaker, status="sending") == 1
    # A second worker sees it leased: nothing is sent twice meanwhile.
    second = worker(sessionmaker, clock, settings, outbox)
    assert await second.run_once() == 0 and outbox.received == {}
    clock.advance(settings.publish_lease_seconds + 1)
    # The platform fails once (502): retried after a backoff, then sent, once.
    outbox.fail_next = 1
    assert await second.run_once() == 0
    assert await count(sessionmaker, status="pending") == 1
    clock.advance(settings.publish_retry_max_seconds + 1)
    assert await second.run_once() == 1
    assert len(outbox.to("telegram", "7301")) == 1
    assert await count(sessionmaker, status="sent") == 1
    clock.advance(5)
    await second.drain()
    assert len(outbox.to("telegram", "7301")) == 1


async def test_update_ids_are_forgotten_after_a_week(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    from app.chat.models import ChatSeenRow

    game = await team_battle(client)
    tg = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, tg)
    alice = TelegramUser(client, tg["webhook_path"], user_id=7501)
    update = alice.update("/help")
    first = ok(await alice.post(update))
    chat_worker = worker(sessionmaker, clock, settings, Outbox())
    await chat_worker.run_once()
    assert ok(await alice.post(update)) == first  # still known: the first answer again
    clock.advance(8 * 24 * 3600)
    await chat_worker.run_once()
    async with sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(ChatSeenRow)) == 0
