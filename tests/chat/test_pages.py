"""The player's page: the game's bots by their public identity, a link code made by a
button and shown once (a t.me start link for Telegram), and the opt-in for private
messages; the director's list of who is linked where."""

from __future__ import annotations

import re

from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.settings import Settings
from tests.chat.platforms import TelegramUser, register, telegram_config
from tests.chat.test_inbound import DEPLOY_ZH, with_bot
from tests.service.helpers import TB_SETTINGS, create_game, ok, team_battle
from tests.service.publish_helpers import posts
from tests.service.web_helpers import Browser, browse, join, post_form


async def test_player_page_shows_the_bot_and_a_one_time_code_that_links(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    invite = ok(await game.post(f"/players/{game.players['a1']['id']}/invite", "director"), 201)
    await join(client, invite["url"])
    before = (await browse(client, f"/play/{game.id}")).text
    assert "私信机器人" not in before  # no bot on for this game yet
    await with_bot(game, bot)
    shown = (await browse(client, f"/play/{game.id}")).text
    assert "私信机器人" in shown and "@forumplay_test_bot" in shown
    assert "https://t.me/forumplay_test_bot" in shown
    assert not re.search(r"FP-[A-Z0-9]{8}", shown)  # a code only when asked for
    answer = await post_form(client, f"/play/{game.id}/chat/code")
    assert answer.status_code == 303
    with_code = (await browse(client, f"/play/{game.id}")).text
    found = re.search(r"start=(FP-[A-Z0-9]{8})", with_code)
    assert found, with_code
    code = found.group(1)
    assert f"/start {code}" in with_code
    again = (await browse(client, f"/play/{game.id}")).text
    assert code not in again  # shown once
    alice = TelegramUser(client, bot["webhook_path"], user_id=9001)
    assert "a1" in await alice.say(f"/start {code}")
    linked = (await browse(client, f"/play/{game.id}")).text
    assert "已绑定" in linked and "已开启" in linked
    await post_form(client, f"/play/{game.id}/chat/notify", {"notify": "off"})
    assert "已关闭" in (await browse(client, f"/play/{game.id}")).text
    english = await browse(client, f"/play/{game.id}", headers={"Accept-Language": "en"})
    assert "Chat bots" in english.text
    assert "已收到" in await alice.say(DEPLOY_ZH)
    console = ok(await game.get("/chat", "director"))
    assert [(x["player"], x["kind"], x["notify"]) for x in console["links"]] == [
        ("a1", "telegram", False)
    ]
    assert console["bots"][0]["identity"]["handle"] == "@forumplay_test_bot"


async def test_console_lists_the_bots_on_and_who_is_linked(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    browser: Browser,
) -> None:
    game = await team_battle(client)
    laptop = browser()
    await browse(laptop, f"/director/{game.id}")
    await post_form(laptop, f"/director/{game.id}/login", {"token": game.director})
    assert "私信机器人" not in (await browse(laptop, f"/director/{game.id}")).text
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, bot)
    pid = game.players["b1"]["id"]
    code = ok(await game.post(f"/players/{pid}/link-code", "director"), 201)["code"]
    await TelegramUser(client, bot["webhook_path"], user_id=9101).say(f"/start {code}")
    page = (await browse(laptop, f"/director/{game.id}")).text
    assert "私信机器人" in page and "@forumplay_test_bot" in page
    assert "b1 · Telegram" in page


async def test_the_opening_post_says_hidden_orders_may_go_to_the_bot(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    """A game that takes orders by private message says so where players first read: the
    opening post's 【如何下令】 names the bot as they will find it; a game without says nothing."""
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    with_dm = await create_game(client, "team_battle", TB_SETTINGS)
    without = await create_game(client, "team_battle", TB_SETTINGS)
    for game in (with_dm, without):
        await game.add_player("a1", "A")
        await game.add_player("b1", "B")
    await with_bot(with_dm, bot)
    for game in (with_dm, without):
        await game.start()
    (opening,) = [p for p in await posts(with_dm) if p["kind"] == "game_started"]
    text = opening["bodies"]["text"]
    assert "暗令也可以私信机器人：Telegram ＠forumplay_test_bot" in text, text  # no ping
    assert text.index("【如何下令】") < text.index("私信机器人")
    (plain,) = [p for p in await posts(without) if p["kind"] == "game_started"]
    assert "私信" not in plain["bodies"]["text"]
