"""Sign-ups from the game's forum thread (issue 20): "报名" / "退出" posted there sign the
poster up (their forum name taken from the post) or withdraw them, and the bot answers in
the thread with the list. The chat groups' hook is the same service function."""

from __future__ import annotations

import httpx
from httpx import AsyncClient

from app.bridge.reader import ForumReader
from app.clock import FakeClock
from app.services.signup_messages import command_of
from tests.service.helpers import TB_SETTINGS, create_game, ok
from tests.service.test_forum_bridge import FORUM, THREAD, Bridge, FakeMisago


async def _setup_bridge(client: AsyncClient, clock: FakeClock, forum: FakeMisago) -> Bridge:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await game.put("/signup", "director", {"open": True, "max_players": 2}))
    config = {"base_url": FORUM, "username": "bot", "password": "pw", "thread_id": THREAD}
    channel = ok(
        await game.post("/channels", "director", {"kind": "misago", "name": "f", "config": config}),
        201,
    )
    forum.say("old", "报名")  # before reading started: not a sign-up
    ok(await game.put("/forum", "director", {"channel_id": channel["id"], "read_orders": True}))
    http = httpx.AsyncClient(transport=httpx.MockTransport(forum.handler))
    app = client.app  # type: ignore[attr-defined]
    reader = ForumReader(lambda: app.state.sessionmaker, clock, app.state.settings, http=http)
    bridge = Bridge(game, client, clock, forum, reader, http)
    assert await bridge.read() == 0
    return bridge


async def test_posting_sign_in_the_thread_signs_the_poster_up_and_answers_with_the_list(
    client: AsyncClient, clock: FakeClock
) -> None:
    forum = FakeMisago()
    b = await _setup_bridge(client, clock, forum)
    forum.say("alice", "报名")
    forum.say("bob", "sign 鲍勃")
    forum.say("carol", "报名")
    forum.say("dave", "我也想报名，不过明天再说")  # chatter, not a command
    assert await b.read() == 4
    listing = ok(await b.game.get("/signup"))
    assert [(p["name"], p["forum_name"]) for p in listing["players"]] == [
        ("alice", "alice"),
        ("鲍勃", "bob"),
    ]
    assert [w["name"] for w in listing["waitlist"]] == ["carol"]
    await b.deliver()
    replies = forum.by("bot")
    assert len(replies) == 3
    assert replies[0].startswith("@alice") and "报名成功" in replies[0]
    assert "已报名（2/2）" in replies[1]
    assert "候补名单" in replies[2] and "候补（1）：carol" in replies[2]
    # "退出" withdraws; the waitlist moves up; a second "报名" by the same name is refused.
    forum.say("alice", "退出")
    forum.say("bob", "报名")
    await b.read()  # the bot's own replies are read too, and passed over
    listing = ok(await b.game.get("/signup"))
    assert [p["name"] for p in listing["players"]] == ["鲍勃", "carol"]
    await b.deliver()
    replies = forum.by("bot")
    assert "已退出报名" in replies[3]
    assert "已经报过名" in replies[4]


def test_the_commands_read_are_the_whole_first_line() -> None:
    assert command_of("报名") == ("sign", None)
    assert command_of("  Sign  \n其他") == ("sign", None)
    assert command_of("报名 张三") == ("sign", "张三")
    assert command_of("/unsign") == ("unsign", None)
    assert command_of("退出") == ("unsign", None)
    assert command_of("slist") == ("list", None)
    assert command_of("我想报名") is None
    assert command_of("调兵 3→2 4人") is None
