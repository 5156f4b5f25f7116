"""Whole games in which no player opens a web page: every hidden order arrives by private
message — a Team Battle with side A on Telegram and side B on Discord, an island day with
every player on QQ — each answered with its receipt, and every player's private results
arrive where they linked, each one something that player's own view shows."""

from __future__ import annotations

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
    QQUser,
    TelegramUser,
    onebot_config,
    register,
    telegram_config,
)
from tests.chat.test_notify import own_lines
from tests.service.helpers import Game, ok, team_battle, tick
from tests.service.island_helpers import island_game, local, quiet_overrides, run_at


async def deliver(
    worker: ChatWorker, clock: FakeClock, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """Run the chat worker until its outbox is empty (a second apart: 1 message/s/chat)."""
    for _ in range(200):
        await worker.run_once()
        async with sessionmaker() as session:
            left = await session.scalar(
                select(func.count())
                .select_from(ChatMessageRow)
                .where(ChatMessageRow.status.in_(("pending", "sending")))
            )
        if not left:
            return
        clock.advance(1.01)
    raise AssertionError("the chat outbox did not empty")


async def code(game: Game, who: str) -> str:
    pid = game.players[who]["id"]
    return str(ok(await game.post(f"/players/{pid}/link-code", "director"), 201)["code"])


async def check_own(game: Game, who: str, received: list[str]) -> None:
    names = {p["id"]: n for n, p in game.players.items()}
    lines = await own_lines(game, who, names)
    assert received, who
    for message in received:
        if "提醒" in message:
            continue  # a reminder says only that a deadline is near
        assert any(line in message for line in lines), (who, message)


async def test_team_battle_with_side_a_on_telegram_and_side_b_on_discord(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client, {"dice": "high"})
    tg = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    app = DiscordApp()
    dc = await register(sessionmaker, settings, clock, "discord", app.config)
    ok(await game.put("/chat", "director", {"bot_ids": [tg["id"], dc["id"]]}))
    a1 = TelegramUser(client, tg["webhook_path"], user_id=8001)
    a2 = TelegramUser(client, tg["webhook_path"], user_id=8002)
    b1 = DiscordUser(client, dc["webhook_path"], app, user_id="1187000000000000801", guild=False)
    assert "a1" in await a1.say(f"/start {await code(game, 'a1')}")
    assert "a2" in await a2.say(f"/start {await code(game, 'a2')}")
    assert "b1" in await b1.command("link", code=await code(game, "b1"))
    outbox = Outbox()
    http = httpx.AsyncClient(transport=outbox.transport())
    worker = ChatWorker(sessionmaker, clock, settings, describe_event, http=http)

    reply = await a1.say("部署 26 1 1 1 1")
    assert "已收到" in reply and "收据" in reply
    reply = await b1.command("order", text="部署 6 6 6 6 6")
    assert "已收到" in reply and "收据" in reply
    await deliver(worker, clock, sessionmaker)
    await tick(client, clock, 3600)
    assert (await game.view("b1"))["phase"] == "command"
    assert "已收到" in await a2.say("侦察4")  # what the scout sees is side A's alone
    await deliver(worker, clock, sessionmaker)
    await tick(client, clock, 3600)
    assert (await game.view("b1"))["phase"] == "battle"
    assert "已收到" in await b1.command("order", text="死守1")
    assert "#1" in await b1.command("status")
    await tick(client, clock, 3600)
    await deliver(worker, clock, sessionmaker)

    summary = await game.summary()
    assert summary["status"] == "finished"
    assert ok(await game.get("/verify"))["ok"] is True
    # Every order came by private message: the API's order list holds just those.
    types = {o["type"] for o in ok(await game.get("/orders", "director"))}
    assert types == {"deploy", "scout", "hold"}
    for who, kind, chat in (
        ("a1", "telegram", "8001"),
        ("a2", "telegram", "8002"),
        ("b1", "discord", "1187000000000000801"),
    ):
        await check_own(game, who, outbox.to(kind, chat))
    # Each side's own round and receipt salts reached that side only.
    assert any("核对用的密钥" in m for m in outbox.to("telegram", "8001"))
    assert any("核对用的密钥" in m for m in outbox.to("discord", "1187000000000000801"))
    assert not any("甲方" in m for m in outbox.to("discord", "1187000000000000801"))
    assert not any("乙方提交" in m for m in outbox.to("telegram", "8001"))


async def test_an_island_day_with_every_player_on_qq(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    names = ["ann", "bob", "cat", "dan"]
    starts = {"1": [4, 4], "2": [5, 3], "3": [3, 3], "4": [5, 5]}
    game = await island_game(client, clock, names, {**quiet_overrides(), "start_positions": starts})
    bot = await register(sessionmaker, settings, clock, "onebot", onebot_config())
    ok(await game.put("/chat", "director", {"bot_ids": [bot["id"]]}))
    qq = {n: QQUser(client, bot["webhook_path"], qq=100000 + i) for i, n in enumerate(names)}
    for name, user in qq.items():
        assert name in await user.say(f"绑定 {await code(game, name)}")
    outbox = Outbox()
    http = httpx.AsyncClient(transport=outbox.transport())
    worker = ChatWorker(sessionmaker, clock, settings, describe_event, http=http)
    clock.set(local(1, 10))
    assert "已收到" in await qq["ann"].say("上移")
    assert "已收到" in await qq["bob"].say("隐藏左移")
    # A hidden order in the game's group is refused and never executed.
    assert "私信" in await qq["cat"].say("隐藏左移", group=765432)
    assert (await game.view("cat"))["position"] == [3, 3]
    assert "已收到" in await qq["dan"].say("提防 ann")
    await deliver(worker, clock, sessionmaker)
    await run_at(client, clock, local(1, 24))  # the 24:00 report, each player's own
    await deliver(worker, clock, sessionmaker)
    assert (await game.view("bob"))["position"] == [4, 3]
    for i, name in enumerate(names):
        got = outbox.to("onebot", 100000 + i)
        await check_own(game, name, got)
    # bob's hidden move is his alone: nobody else hears of it.
    for other in ("ann", "cat", "dan"):
        assert not any(
            "bob" in m and "隐" in m for m in outbox.to("onebot", 100000 + names.index(other))
        )
