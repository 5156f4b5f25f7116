"""webhook: Standard Webhooks signing, checked with the standardwebhooks package's verifier."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import replace
from datetime import UTC, datetime

import httpx
import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from app.publish.channels import ADAPTERS
from app.publish.channels.base import FinalError, RetryableError
from tests.publish.channels.conftest import Platform, outgoing

SECRET = "whsec_" + base64.b64encode(b"forumplay-test-secret-32-bytes!!").decode()
CONFIG = {"url": "https://hooks.example.org/forumplay", "secret": SECRET}


async def test_a_receiver_verifies_the_post_with_the_standard_library(platform: Platform) -> None:
    platform.reply(httpx.Response(204))
    message = outgoing()
    async with platform.client() as http:
        sent = await ADAPTERS["webhook"].send(message, CONFIG, http)
    request = platform.requests[0]
    assert request.method == "POST" and str(request.url) == CONFIG["url"]
    assert request.headers["content-type"] == "application/json"
    assert request.headers["webhook-id"] == message.delivery_id

    payload = Webhook(SECRET).verify(request.content, dict(request.headers))
    assert payload == {"type": "post.published", "game_id": "game-1", "post": message.post}
    assert set(payload["post"]["bodies"]) == {"bbcode", "markdown", "text"}
    assert sent.remote_id is None and sent.remote_url is None


async def test_a_changed_body_or_another_secret_fails_verification(platform: Platform) -> None:
    platform.reply(httpx.Response(200))
    async with platform.client() as http:
        await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    request = platform.requests[0]
    tampered = request.content.replace("甲方胜".encode(), "乙方胜".encode())
    with pytest.raises(WebhookVerificationError):
        Webhook(SECRET).verify(tampered, dict(request.headers))
    other = "whsec_" + base64.b64encode(b"another-secret-of-thirty-two-b!!").decode()
    with pytest.raises(WebhookVerificationError):
        Webhook(other).verify(request.content, dict(request.headers))


async def test_a_retry_keeps_the_webhook_id_so_receivers_can_drop_repeats(
    platform: Platform,
) -> None:
    platform.reply(httpx.Response(503), httpx.Response(200))
    message = outgoing()
    async with platform.client() as http:
        with pytest.raises(RetryableError):
            await ADAPTERS["webhook"].send(message, CONFIG, http)
        await ADAPTERS["webhook"].send(message, CONFIG, http)
    first, second = platform.requests
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == message.delivery_id
    assert json.loads(first.content) == json.loads(second.content)
    # each attempt is signed at its own time and verifies on its own
    for request in platform.requests:
        Webhook(SECRET).verify(request.content, dict(request.headers))


async def test_the_timestamp_is_wall_clock_seconds(platform: Platform) -> None:
    platform.reply(httpx.Response(200))
    before = int(time.time())
    async with platform.client() as http:
        await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    stamp = int(platform.requests[0].headers["webhook-timestamp"])
    assert before <= stamp <= int(time.time())


async def test_the_receiver_may_say_where_it_posted(platform: Platform) -> None:
    platform.reply(httpx.Response(200, json={"id": 981, "url": "https://bbs.example.org/t/9#981"}))
    async with platform.client() as http:
        sent = await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    assert sent.remote_id == "981"
    assert sent.remote_url == "https://bbs.example.org/t/9#981"


async def test_an_answer_url_that_is_not_http_is_ignored(platform: Platform) -> None:
    platform.reply(httpx.Response(200, json={"id": "x", "url": "javascript:alert(1)"}))
    async with platform.client() as http:
        sent = await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    assert sent == type(sent)("x", None)


@pytest.mark.parametrize(
    ("answer", "retry_after"),
    [
        (httpx.Response(429, headers={"Retry-After": "30"}), 30.0),
        (httpx.Response(500), None),
        (httpx.Response(502, headers={"Retry-After": "7"}), 7.0),
    ],
)
async def test_overload_and_server_errors_are_retried_with_the_hint(
    platform: Platform, answer: httpx.Response, retry_after: float | None
) -> None:
    platform.reply(answer)
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    assert raised.value.retry_after == retry_after


async def test_retry_after_as_an_http_date(platform: Platform) -> None:
    when = time.time() + 120
    platform.reply(
        httpx.Response(
            503,
            headers={"Retry-After": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(when))},
        )
    )
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    assert raised.value.retry_after is not None and 100 < raised.value.retry_after <= 121


@pytest.mark.parametrize("status", [400, 401, 404, 410])
async def test_client_errors_are_final(platform: Platform, status: int) -> None:
    platform.reply(httpx.Response(status, text="nope"))
    async with platform.client() as http:
        with pytest.raises(FinalError, match=f"HTTP {status}"):
            await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)


async def test_a_redirect_is_not_followed(platform: Platform) -> None:
    platform.reply(httpx.Response(301, headers={"Location": "http://10.0.0.1/"}))
    async with platform.client() as http:
        with pytest.raises(FinalError, match="redirected"):
            await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)
    assert len(platform.requests) == 1


async def test_a_network_failure_is_retried(platform: Platform) -> None:
    platform.reply(httpx.ConnectError("connection refused"))
    async with platform.client() as http:
        with pytest.raises(RetryableError, match="network error"):
            await ADAPTERS["webhook"].send(outgoing(), CONFIG, http)


async def test_times_in_the_post_are_sent_as_iso_8601(platform: Platform) -> None:
    platform.reply(httpx.Response(200))
    message = outgoing()
    created = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    message = replace(message, post={**message.post, "created_at": created})
    async with platform.client() as http:
        await ADAPTERS["webhook"].send(message, CONFIG, http)
    payload = Webhook(SECRET).verify(
        platform.requests[0].content, dict(platform.requests[0].headers)
    )
    assert payload["post"]["created_at"] == "2026-11-30T20:00:00+00:00"
