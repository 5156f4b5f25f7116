"""onebot: OneBot v11 HTTP API (send_group_msg, access token, status/retcode)."""

from __future__ import annotations

import httpx
import pytest

from app.publish.channels.base import FinalError, RetryableError, Sent
from app.publish.channels.onebot import OneBotAdapter
from tests.publish.channels.conftest import Platform, outgoing

CONFIG = {
    "base_url": "https://qq-bot.example.org:5700/",
    "access_token": "kSLuTF2GC2Q4q4ugm3",
    "group_id": 123456,
}


def answer(status: str, retcode: int, data: object = None, **extra: object) -> httpx.Response:
    return httpx.Response(200, json={"status": status, "retcode": retcode, "data": data, **extra})


async def test_sends_plain_text_to_the_group_with_the_token(platform: Platform) -> None:
    platform.reply(answer("ok", 0, {"message_id": 1916}))
    async with platform.client() as http:
        sent = await OneBotAdapter().send(outgoing(), CONFIG, http)
    request = platform.requests[0]
    assert str(request.url) == "https://qq-bot.example.org:5700/send_group_msg"
    assert request.headers["authorization"] == "Bearer kSLuTF2GC2Q4q4ugm3"
    # auto_escape: CQ codes in a post (a name like "[CQ:at,qq=all]") stay text
    assert platform.json(0) == {"group_id": 123456, "message": outgoing().body, "auto_escape": True}
    assert sent == Sent("1916", None)


async def test_without_a_token_no_authorization_header(platform: Platform) -> None:
    platform.reply(answer("ok", 0, {"message_id": 1}))
    config = {key: value for key, value in CONFIG.items() if key != "access_token"}
    async with platform.client() as http:
        await OneBotAdapter().send(outgoing(), config, http)
    assert "authorization" not in platform.requests[0].headers


async def test_async_means_accepted_with_no_message_id(platform: Platform) -> None:
    platform.reply(answer("async", 1))
    async with platform.client() as http:
        assert await OneBotAdapter().send(outgoing(), CONFIG, http) == Sent(None, None)


async def test_a_failed_send_is_final_with_the_implementations_words(platform: Platform) -> None:
    platform.reply(answer("failed", 100, msg="SEND_MSG_API_ERROR", wording="机器人被禁言"))
    async with platform.client() as http:
        with pytest.raises(FinalError, match="retcode 100: 机器人被禁言"):
            await OneBotAdapter().send(outgoing(), CONFIG, http)


async def test_a_worker_pool_not_ready_is_retried(platform: Platform) -> None:
    platform.reply(answer("failed", 201))
    async with platform.client() as http:
        with pytest.raises(RetryableError, match="retcode 201"):
            await OneBotAdapter().send(outgoing(), CONFIG, http)


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (401, "missing"),
        (403, "wrong"),
        (404, "no send_group_msg"),
        (400, "malformed"),
        (406, "content type"),
    ],
)
async def test_http_statuses_of_the_spec_are_final(
    platform: Platform, status: int, reason: str
) -> None:
    platform.reply(httpx.Response(status))
    async with platform.client() as http:
        with pytest.raises(FinalError, match=reason):
            await OneBotAdapter().send(outgoing(), CONFIG, http)


async def test_a_server_error_is_retried(platform: Platform) -> None:
    platform.reply(httpx.Response(503, headers={"Retry-After": "12"}))
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await OneBotAdapter().send(outgoing(), CONFIG, http)
    assert raised.value.retry_after == 12


async def test_long_posts_go_as_several_messages(platform: Platform) -> None:
    platform.reply(answer("ok", 0, {"message_id": 1}), answer("ok", 0, {"message_id": 2}))
    async with platform.client() as http:
        sent = await OneBotAdapter().send(
            outgoing("甲" * 2500 + "\n\n" + "乙" * 2500), CONFIG, http
        )
    assert [platform.json(i)["message"][0] for i in range(2)] == ["甲", "乙"]
    assert sent.remote_id == "1"
