"""The bots' inbound routes, as each platform calls them: verified (401 otherwise),
malformed updates refused (4xx, nothing changes), replays acted on once; linking a chat
account with a one-time code; hidden orders by private message, submitted exactly as
``POST /orders`` takes them and answered with the echo and the sealed receipt."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.models import ChatBotRow
from app.clock import FakeClock
from app.models import Game as GameRow
from app.publish.receipts import current_receipt
from app.rules.base import Actor
from app.settings import Settings
from tests.chat.platforms import (
    ONEBOT_SECRET,
    TG_SECRET,
    TG_TOKEN,
    DiscordApp,
    DiscordUser,
    QQUser,
    TelegramUser,
    onebot_config,
    register,
    telegram_config,
)
from tests.service.helpers import Game, create_game, ok, problem, team_battle

DEPLOY_ZH = "部署 6 6 6 6 6"


async def with_bot(game: Game, bot: dict[str, Any]) -> None:
    ok(await game.put("/chat", "director", {"bot_ids": [bot["id"]]}))


async def code_for(game: Game, who: str) -> str:
    pid = game.players[who]["id"]
    body = ok(await game.post(f"/players/{pid}/link-code", who), 201)
    return str(body["code"])


async def deploys(game: Game, who: str) -> list[dict[str, Any]]:
    return [o for o in ok(await game.get("/orders", who)) if o["type"] == "deploy"]


async def test_bots_are_the_admins_and_their_secrets_never_come_back(
    client: AsyncClient,
    settings: Settings,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    body = {"kind": "telegram", "name": "团战机器人", "config": telegram_config()}
    problem(await client.post("/api/v1/bots", json=body), 403, "admin_token_unset")
    client.app.state.settings = settings.model_copy(update={"admin_token": "adm-token"})  # type: ignore[attr-defined]
    problem(await client.post("/api/v1/bots", json=body), 401, "admin_required")
    admin = {"Authorization": "Bearer adm-token"}
    made = ok(await client.post("/api/v1/bots", json=body, headers=admin), 201)
    assert made["webhook_path"] == f"/api/v1/chat/telegram/{made['id']}"
    assert made["identity"]["url"] == "https://t.me/forumplay_test_bot"
    listed = await client.get("/api/v1/bots", headers=admin)
    assert [b["id"] for b in ok(listed)] == [made["id"]]
    for answer in (made, listed.text):
        assert TG_TOKEN not in str(answer) and TG_SECRET not in str(answer)
    async with sessionmaker() as session:
        stored = await session.scalar(select(ChatBotRow.config))
        raw = await session.scalar(text("SELECT config FROM chat_bots"))
    assert stored is not None and stored["bot_token"] != TG_TOKEN
    assert TG_TOKEN not in str(raw) and TG_SECRET not in str(raw)
    bad = {**body, "config": {**telegram_config(), "bot_token": "nope"}}
    problem(await client.post("/api/v1/bots", json=bad, headers=admin), 422, "bad_bot_config")
    ok(await client.delete(f"/api/v1/bots/{made['id']}", headers=admin))
    assert ok(await client.get("/api/v1/bots", headers=admin)) == []


async def test_telegram_link_then_hidden_orders_by_private_message(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, bot)
    alice = TelegramUser(client, bot["webhook_path"], user_id=5551001)
    # Unverified: 401, whatever the update says.
    update = alice.update(DEPLOY_ZH)
    problem(await alice.post(update, secret=""), 401, "bad_signature")
    problem(await alice.post(update, secret="wrong-secret-0000000"), 401, "bad_signature")
    problem(
        await client.post(
            bot["webhook_path"],
            content=b"{",
            headers={"X-Telegram-Bot-Api-Secret-Token": TG_SECRET},
        ),
        422,
        "bad_update",
    )
    problem(await alice.post({"message": {}}), 422, "bad_update")
    # Not linked: how to link, nothing else.
    answer = await alice.say(DEPLOY_ZH)
    assert "/start" in answer and await deploys(game, "a1") == []
    code = await code_for(game, "a1")
    assert "a1" in await alice.say(f"/start {code}")
    assert "无效" in await alice.say(f"/start {code}")  # one use
    # Orders: the echo, the receipt, what is still open.
    update = alice.update(DEPLOY_ZH)
    first = await alice.post(update)
    reply = ok(first)
    assert reply["method"] == "sendMessage" and reply["chat_id"] == 5551001
    assert "已收到" in reply["text"] and "6" in reply["text"]
    orders = await deploys(game, "a1")
    assert len(orders) == 1
    parsed = ok(await game.post("/orders/parse", "a1", {"text": DEPLOY_ZH}))
    assert parsed["orders"] == [orders[0]["body"]]  # read exactly as POST /orders reads it
    # A replay (same update_id) answers the same and does nothing again.
    again = ok(await alice.post(update))
    assert again == reply
    assert len(await deploys(game, "a1")) == 1
    # Withdraw, list, ready, English.
    assert "#1" in await alice.say("/status")
    assert "撤回 #1" in await alice.say("/withdraw 1")
    assert [o["status"] for o in await deploys(game, "a1")] == ["withdrawn"]
    assert "Language" in await alice.say("/lang en")
    assert "Received" in await alice.say(DEPLOY_ZH)


async def test_receipt_in_reply_is_the_one_post_orders_gives(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, bot)
    alice = TelegramUser(client, bot["webhook_path"], user_id=5551002)
    await alice.say(f"/start {await code_for(game, 'b1')}")
    reply = await alice.say(DEPLOY_ZH)
    (mine,) = ok(await game.get("/orders", "b1"))
    receipt_line = [line for line in reply.splitlines() if "收据" in line]
    assert receipt_line
    # POST /orders answers with_receipt: the side's receipt as it would be sealed now.
    async with sessionmaker() as session:
        row = await session.get(GameRow, game.id)
        assert row is not None
        actor = Actor(role="player", player_id=mine["player_id"], side="B")
        expected = current_receipt(row.ruleset, row.seed, row.state, actor)
    assert expected is not None and mine["id"] in expected["order_ids"]
    assert receipt_line[0].split("：")[1] == expected["receipt"]
    # The same words through the API on side A answer a receipt of the same kind.
    api = ok(await game.post("/orders", "a1", {"text": DEPLOY_ZH}), 201)
    assert len(api["receipt"]["receipt"]) == 64 and api["receipt"]["owner"] != expected["owner"]


async def test_discord_signatures_ping_and_ephemeral_commands(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    app = DiscordApp()
    bot = await register(sessionmaker, settings, clock, "discord", app.config)
    await with_bot(game, bot)
    bob = DiscordUser(client, bot["webhook_path"], app, user_id="1187000000000000777")
    ping = {
        "id": "1190000000000000001",
        "application_id": app.config["application_id"],
        "type": 1,
        "token": "t",
        "version": 1,
    }
    assert ok(await bob.post(ping)) == {"type": 1}
    problem(await bob.post(ping, sign=False), 401, "bad_signature")
    raw = b'{"type": 1}'
    headers = app.signed(b'{"type": 2}')  # a signature of another body
    problem(
        await client.post(bot["webhook_path"], content=raw, headers=headers), 401, "bad_signature"
    )
    other = DiscordApp()  # signed with another key
    problem(
        await client.post(bot["webhook_path"], content=raw, headers=other.signed(raw)),
        401,
        "bad_signature",
    )
    assert "/link" in await bob.command("order", text=DEPLOY_ZH)
    code = await code_for(game, "b1")
    assert "b1" in await bob.command("link", code=code)
    interaction = bob.interaction("order", text=DEPLOY_ZH)
    first = ok(await bob.post(interaction))
    assert "已收到" in first["data"]["content"] and first["data"]["flags"] == 64
    assert ok(await bob.post(interaction)) == first  # the same interaction id: once
    assert len(await deploys(game, "b1")) == 1
    assert "#1" in await bob.command("status")
    assert "已撤回" in await bob.command("withdraw", number=1)
    problem(await bob.post({**bob.interaction("nonsense")}), 422, "bad_update")


async def test_onebot_signature_private_orders_and_hidden_orders_in_a_group_refused(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    bot = await register(sessionmaker, settings, clock, "onebot", onebot_config())
    await with_bot(game, bot)
    ming = QQUser(client, bot["webhook_path"], qq=123456789)
    event = ming.event(DEPLOY_ZH)
    problem(await ming.post(event, secret="not-the-secret"), 401, "bad_signature")
    unsigned = await client.post(bot["webhook_path"], json=event)
    problem(unsigned, 401, "bad_signature")
    heartbeat = {
        "time": 1,
        "self_id": 10001,
        "post_type": "meta_event",
        "meta_event_type": "heartbeat",
    }
    assert ok(await ming.post(heartbeat)) == {}
    problem(await ming.post({"post_type": "message", "message_type": "private"}), 422, "bad_update")
    assert "绑定" in await ming.say(DEPLOY_ZH)
    assert "a2" in await ming.say(f"绑定 {await code_for(game, 'a2')}")
    # In a group, a hidden order is refused, with no echo, and never executed.
    warning = await ming.say(DEPLOY_ZH, group=765432)
    assert "私信" in warning and "6 6" not in warning
    assert ming.last.get("at_sender") is True
    assert await deploys(game, "a2") == []
    assert await ming.say("大家加油", group=765432) == ""  # chatter: no answer
    reply = await ming.say(DEPLOY_ZH)
    assert "已收到" in reply and ming.last["auto_escape"] is True
    assert len(await deploys(game, "a2")) == 1
    assert ONEBOT_SECRET not in str(ok(await game.get("/chat", "director")))


async def test_seats_in_several_games_ask_which(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    first, second = await team_battle(client), await team_battle(client)
    for game in (first, second):
        await with_bot(game, bot)
    alice = TelegramUser(client, bot["webhook_path"], user_id=5551003)
    await alice.say(f"/start {await code_for(first, 'a1')}")
    await alice.say(f"/start {await code_for(second, 'b1')}")
    # The last link chose its game.
    assert "已收到" in await alice.say(DEPLOY_ZH)
    assert len(await deploys(second, "b1")) == 1
    asked = ok(await alice.post(alice.update("/game 99")))
    buttons = asked["reply_markup"]["inline_keyboard"]
    assert [row[0]["callback_data"] for row in buttons] == ["game:1", "game:2"]
    # A button of the "which game" answer: answered as the button's own answer.
    pressed = ok(await alice.post(alice.callback("game:1")))
    assert pressed["method"] == "answerCallbackQuery" and "a1" in pressed["text"]
    assert "已收到" in await alice.say(DEPLOY_ZH)
    assert len(await deploys(first, "a1")) == 1
    assert "已收到" in await alice.say(f"#2 {DEPLOY_ZH}")
    assert sorted(o["status"] for o in await deploys(second, "b1")) == ["pending", "replaced"]
    # Unlinked by the director: the account is told how to link again.
    links = ok(await first.get("/chat", "director"))["links"]
    ok(await first.delete(f"/chat/links/{links[0]['id']}", "director"))
    assert ok(await first.get("/chat", "director"))["links"] == []
    await alice.say(DEPLOY_ZH)  # the one seat left is in the second game
    assert len(await deploys(first, "a1")) == 1
    assert len(await deploys(second, "b1")) == 3


async def test_a_game_without_the_bot_takes_no_code(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await create_game(client, "team_battle")
    await game.add_player("a1", "A")
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    alice = TelegramUser(client, bot["webhook_path"], user_id=5551004)
    assert "无效" in await alice.say(f"/start {await code_for(game, 'a1')}")
    problem(await game.post(f"/players/{game.players['a1']['id']}/link-code"), 401, "unauthorized")


async def test_public_orders_count_in_the_games_own_qq_group_only(
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    channel = {"base_url": "http://onebot.test", "group_id": 765432}
    ok(
        await game.post(
            "/channels", "director", {"kind": "onebot", "name": "QQ群", "config": channel}
        ),
        201,
    )
    bot = await register(sessionmaker, settings, clock, "onebot", onebot_config())
    await with_bot(game, bot)
    ming = QQUser(client, bot["webhook_path"], qq=123456780)
    assert "a1" in await ming.say(f"绑定 {await code_for(game, 'a1')}")
    await game.order("a2", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    ok(await game.post("/advance", "director"))
    assert (await game.view("a1"))["phase"] == "command"
    dispatch = "调兵 3→2 4人"  # a public order (TB-30)
    assert await ming.say(dispatch, group=111111) == ""  # another group: not a word, no order
    assert [o for o in ok(await game.get("/orders", "a1")) if o["type"] == "dispatch"] == []
    assert "已收到" in await ming.say(dispatch, group=765432)
    assert "收据" not in ming.last["reply"]  # nothing sealed is said in the group
    assert [o["type"] for o in ok(await game.get("/orders", "a1")) if o["type"] == "dispatch"] == [
        "dispatch"
    ]
