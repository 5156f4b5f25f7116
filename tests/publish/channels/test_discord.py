"""discord: webhook execution per Discord's API docs (Execute Webhook, rate limits)."""

from __future__ import annotations

import httpx
import pytest

from app.publish.channels.base import FinalError, RetryableError, Sent
from app.publish.channels.discord import DiscordAdapter
from tests.publish.channels.conftest import Platform, SleepRecorder, outgoing

TOKEN = "Xy9_-tokenPart.abc"
CONFIG = {"webhook_url": f"https://discord.com/api/webhooks/112233445566778899/{TOKEN}"}


def message(id_: str) -> httpx.Response:
    # The message object Discord answers with when ?wait=true
    return httpx.Response(
        200, json={"id": id_, "channel_id": "555", "guild_id": "777", "content": "…", "type": 0}
    )


async def test_posts_the_text_and_waits_for_the_message_id(platform: Platform) -> None:
    platform.reply(message("1001"))
    async with platform.client() as http:
        sent = await DiscordAdapter().send(outgoing(), CONFIG, http)
    request = platform.requests[0]
    assert request.method == "POST"
    assert request.url.path == f"/api/webhooks/112233445566778899/{TOKEN}"
    assert request.url.params["wait"] == "true"
    body = platform.json(0)
    assert body["content"] == outgoing().body
    assert body["allowed_mentions"] == {"parse": []}  # no @everyone from a player's name
    assert sent == Sent("1001", "https://discord.com/channels/777/555/1001")


async def test_a_thread_id_posts_into_that_thread(platform: Platform) -> None:
    platform.reply(message("1"))
    async with platform.client() as http:
        await DiscordAdapter().send(
            outgoing(), {**CONFIG, "thread_id": "1234567890123456789"}, http
        )
    assert platform.requests[0].url.params["thread_id"] == "1234567890123456789"


async def test_a_long_post_goes_as_messages_of_at_most_2000_characters_in_order(
    platform: Platform,
) -> None:
    paragraphs = [f"第{i}段：" + "兵" * 900 for i in range(5)]
    platform.reply(message("1"), message("2"), message("3"))
    async with platform.client() as http:
        sent = await DiscordAdapter().send(outgoing("\n\n".join(paragraphs)), CONFIG, http)
    contents = [platform.json(i)["content"] for i in range(3)]
    assert all(len(content) <= 2000 for content in contents)
    assert "\n\n".join(contents).split("\n\n") == paragraphs
    assert sent.remote_id == "1"  # the delivery points at the first message


async def test_429_is_retried_after_discords_retry_after(platform: Platform) -> None:
    platform.reply(
        httpx.Response(
            429,
            json={"message": "You are being rate limited.", "retry_after": 64.57, "global": False},
            headers={"Retry-After": "65"},
        )
    )
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await DiscordAdapter().send(outgoing(), CONFIG, http)
    assert raised.value.retry_after == pytest.approx(64.57)


async def test_a_short_rate_limit_between_parts_is_waited_out_not_resent(
    platform: Platform,
) -> None:
    sleep = SleepRecorder()
    platform.reply(
        message("1"),
        httpx.Response(429, json={"message": "rate limited", "retry_after": 1.5, "global": False}),
        message("2"),
    )
    body = "\n\n".join(["甲" * 1500, "乙" * 1500])
    async with platform.client() as http:
        sent = await DiscordAdapter(sleep=sleep).send(outgoing(body), CONFIG, http)
    assert sleep.waits == [1.5]
    assert [platform.json(i)["content"][0] for i in range(3)] == ["甲", "乙", "乙"]
    assert sent.remote_id == "1"


async def test_a_long_rate_limit_between_parts_goes_back_to_the_worker(platform: Platform) -> None:
    sleep = SleepRecorder()
    platform.reply(
        message("1"), httpx.Response(429, json={"message": "slow down", "retry_after": 600})
    )
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await DiscordAdapter(sleep=sleep).send(
                outgoing("甲" * 1500 + "\n\n" + "乙" * 1500), CONFIG, http
            )
    assert raised.value.retry_after == 600 and sleep.waits == []


@pytest.mark.parametrize(
    ("status", "text"),
    [
        (404, "Unknown Webhook"),
        (401, "Invalid Webhook Token"),
        (400, "Cannot send an empty message"),
    ],
)
async def test_client_errors_are_final_with_discords_message(
    platform: Platform, status: int, text: str
) -> None:
    platform.reply(httpx.Response(status, json={"message": text, "code": 10015}))
    async with platform.client() as http:
        with pytest.raises(FinalError, match=text):
            await DiscordAdapter().send(outgoing(), CONFIG, http)


async def test_a_network_error_never_shows_the_webhook_token(platform: Platform) -> None:
    platform.reply(httpx.ConnectError(f"cannot reach {CONFIG['webhook_url']}"))
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await DiscordAdapter().send(outgoing(), CONFIG, http)
    assert TOKEN not in str(raised.value)


async def test_an_empty_post_is_final(platform: Platform) -> None:
    async with platform.client() as http:
        with pytest.raises(FinalError, match="empty"):
            await DiscordAdapter().send(outgoing("\n\n"), CONFIG, http)
