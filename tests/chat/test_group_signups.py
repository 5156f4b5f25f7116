"""Sign-ups said in the game's QQ group (issue 20 item 2, through the chat bots of issue 19):
"报名" signs the sender up under their display name and the bot answers with the list,
"退出" withdraws; in another group, or privately, the words are nothing of the kind."""

from __future__ import annotations

from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.settings import Settings
from tests.chat.platforms import QQUser, onebot_config, register
from tests.chat.test_inbound import with_bot
from tests.service.helpers import TB_SETTINGS, create_game, ok

GROUP = 765432


async def test_sign_up_and_withdraw_in_the_games_qq_group(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    channel = {"base_url": "http://onebot.test", "group_id": GROUP}
    ok(
        await game.post(
            "/channels", "director", {"kind": "onebot", "name": "QQ群", "config": channel}
        ),
        201,
    )
    bot = await register(sessionmaker, settings, clock, "onebot", onebot_config())
    await with_bot(game, bot)
    ok(await game.put("/signup", "director", {"open": True, "max_players": 2}))
    ming = QQUser(client, bot["webhook_path"], qq=123456780, nickname="小明")
    hong = QQUser(client, bot["webhook_path"], qq=123456781, nickname="小红")

    assert await ming.say("报名", group=111111) == ""  # another group: not this game's
    assert ok(await game.get("/signup"))["players"] == []
    reply = await ming.say("报名", group=GROUP)
    assert "报名成功" in reply and "小明" in reply
    assert "已报名（1/2）：小明" in reply and "还差 1 人" in reply
    reply = await hong.say("报名 红红", group=GROUP)  # a name of one's own choosing
    listing = ok(await game.get("/signup"))
    assert [(p["name"], p.get("forum_name")) for p in listing["players"]] == [
        ("小明", "小明"),
        ("红红", "小红"),
    ]
    left = await ming.say("退出", group=GROUP)
    assert left.startswith("已退出报名") and "已报名（1/2）：红红" in left
    assert [p["name"] for p in ok(await game.get("/signup"))["players"]] == ["红红"]
    # Said privately, 报名 is not a sign-up: the bot answers how to link, nothing else.
    await ming.say("报名")
    assert [p["name"] for p in ok(await game.get("/signup"))["players"]] == ["红红"]
