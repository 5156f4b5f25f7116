"""telegram: Bot API sendMessage per core.telegram.org/bots/api (errors, retry_after)."""

from __future__ import annotations

import httpx
import pytest

from app.publish.channels.base import FinalError, RetryableError, Sent, utf16_length
from app.publish.channels.telegram import TelegramAdapter
from tests.publish.channels.conftest import Platform, SleepRecorder, outgoing

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
CONFIG = {"bot_token": TOKEN, "chat_id": -1001234567890}


def sent_message(message_id: int, chat: dict[str, object] | None = None) -> httpx.Response:
    chat = chat or {"id": -1001234567890, "type": "supergroup", "title": "论坛戏"}
    return httpx.Response(
        200, json={"ok": True, "result": {"message_id": message_id, "chat": chat, "date": 0}}
    )


def error(code: int, description: str, **parameters: object) -> httpx.Response:
    body: dict[str, object] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return httpx.Response(code, json=body)


async def test_send_message_to_the_chat(platform: Platform) -> None:
    platform.reply(sent_message(77))
    async with platform.client() as http:
        sent = await TelegramAdapter().send(outgoing(), CONFIG, http)
    request = platform.requests[0]
    assert str(request.url) == f"https://api.telegram.org/bot{TOKEN}/sendMessage"
    body = platform.json(0)
    assert body["chat_id"] == -1001234567890 and body["text"] == outgoing().body
    assert "parse_mode" not in body  # plain text: nothing in a post is read as markup
    # a supergroup without a public name: the members-only link
    assert sent == Sent("77", "https://t.me/c/1234567890/77")


async def test_a_public_channel_gets_a_public_link_and_api_base_is_honoured(
    platform: Platform,
) -> None:
    platform.reply(sent_message(5, {"id": -1009, "type": "channel", "username": "chibi_game"}))
    config = {**CONFIG, "chat_id": "@chibi_game", "api_base": "https://tg.example.org/"}
    async with platform.client() as http:
        sent = await TelegramAdapter().send(outgoing(), config, http)
    assert str(platform.requests[0].url) == f"https://tg.example.org/bot{TOKEN}/sendMessage"
    assert platform.json(0)["chat_id"] == "@chibi_game"
    assert sent.remote_url == "https://t.me/chibi_game/5"


async def test_long_posts_are_split_at_4096_utf16_units(platform: Platform) -> None:
    paragraph = "🏯" * 1000  # 2,000 UTF-16 units, 1,000 characters
    platform.reply(sent_message(1), sent_message(2))
    async with platform.client() as http:
        await TelegramAdapter().send(outgoing("\n\n".join([paragraph] * 3)), CONFIG, http)
    texts = [platform.json(i)["text"] for i in range(2)]
    assert [utf16_length(text) for text in texts] == [4002, 2000]


async def test_429_uses_parameters_retry_after(platform: Platform) -> None:
    platform.reply(error(429, "Too Many Requests: retry after 35", retry_after=35))
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await TelegramAdapter().send(outgoing(), CONFIG, http)
    assert raised.value.retry_after == 35


async def test_a_short_flood_wait_between_parts_is_waited_out(platform: Platform) -> None:
    sleep = SleepRecorder()
    platform.reply(
        sent_message(1),
        error(429, "Too Many Requests: retry after 3", retry_after=3),
        sent_message(2),
    )
    async with platform.client() as http:
        await TelegramAdapter(sleep=sleep).send(
            outgoing("甲" * 4000 + "\n\n" + "乙" * 100), CONFIG, http
        )
    assert sleep.waits == [3]
    assert [platform.json(i)["text"][0] for i in range(3)] == ["甲", "乙", "乙"]


async def test_a_group_upgraded_to_a_supergroup_is_followed(platform: Platform) -> None:
    platform.reply(
        error(
            400,
            "Bad Request: group chat was upgraded to a supergroup chat",
            migrate_to_chat_id=-1009988,
        ),
        sent_message(9, {"id": -1009988, "type": "supergroup"}),
    )
    async with platform.client() as http:
        sent = await TelegramAdapter().send(outgoing(), {**CONFIG, "chat_id": -4455}, http)
    assert [platform.json(i)["chat_id"] for i in range(2)] == [-4455, -1009988]
    assert sent.config_updates == {"chat_id": -1009988}  # later posts go there directly


@pytest.mark.parametrize(
    ("code", "description"),
    [
        (401, "Unauthorized"),
        (403, "Forbidden: bot was kicked from the supergroup chat"),
        (400, "Bad Request: chat not found"),
    ],
)
async def test_errors_that_will_not_heal_are_final(
    platform: Platform, code: int, description: str
) -> None:
    platform.reply(error(code, description))
    async with platform.client() as http:
        with pytest.raises(FinalError, match=description.split(":")[0]):
            await TelegramAdapter().send(outgoing(), CONFIG, http)


async def test_server_errors_are_retried_and_the_token_never_shows(platform: Platform) -> None:
    platform.reply(error(502, "Bad Gateway"), httpx.ReadTimeout(f"/bot{TOKEN}/sendMessage"))
    async with platform.client() as http:
        for _ in range(2):
            with pytest.raises(RetryableError) as raised:
                await TelegramAdapter().send(outgoing(), CONFIG, http)
            assert TOKEN not in str(raised.value)
