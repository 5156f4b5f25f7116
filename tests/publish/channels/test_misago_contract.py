"""misago: what a real forum rarely shows on demand — flood refusals, expired sessions.
(The real forum test is test_misago_forum.py.)"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.publish.channels.base import FinalError, RetryableError
from app.publish.channels.misago import MisagoAdapter
from tests.publish.channels.conftest import Platform, outgoing

CONFIG = {
    "base_url": "https://misago.example.org",
    "username": "bot",
    "password": "pw-1234567",
    "thread_id": 9,
}


def front_page() -> httpx.Response:
    return httpx.Response(200, text="<html>", headers={"Set-Cookie": "csrftoken=first; Path=/"})


def signed_in(token: str = "second") -> httpx.Response:
    return httpx.Response(
        200,
        json={"id": 1, "username": "bot"},
        headers=[
            ("Set-Cookie", f"csrftoken={token}; Path=/"),
            ("Set-Cookie", "sessionid=s1; Path=/; HttpOnly"),
        ],
    )


def reply(post_id: int) -> httpx.Response:
    return httpx.Response(
        200, json={"id": post_id, "url": {"index": f"/t/chibi/9/post/{post_id}/"}}
    )


async def test_signs_in_then_posts_with_the_rotated_csrf_token(platform: Platform) -> None:
    platform.reply(front_page(), signed_in(), reply(31))
    async with platform.client() as http:
        sent = await MisagoAdapter().send(outgoing(), CONFIG, http)
    page, auth, post = platform.requests
    assert (page.method, page.url.path) == ("GET", "/")
    assert (auth.method, auth.url.path) == ("POST", "/api/auth/")
    assert auth.headers["x-csrftoken"] == "first"
    assert post.url.path == "/api/threads/9/posts/"
    assert post.headers["x-csrftoken"] == "second"  # read again after signing in
    assert "sessionid=s1" in post.headers["cookie"]
    assert sent.remote_id == "31"
    assert sent.remote_url == "https://misago.example.org/t/chibi/9/post/31/"


async def test_one_sign_in_serves_later_posts_and_an_expired_session_signs_in_again(
    platform: Platform,
) -> None:
    adapter = MisagoAdapter()
    platform.reply(front_page(), signed_in(), reply(1))
    platform.reply(reply(2))  # same session
    platform.reply(
        httpx.Response(403, json={"detail": "This action is not available to guests."}),
        front_page(),
        signed_in("third"),
        reply(3),
    )
    async with platform.client() as http:
        for _ in range(3):
            await adapter.send(outgoing(), CONFIG, http)
    paths = [request.url.path for request in platform.requests]
    assert paths.count("/api/auth/") == 2
    assert platform.requests[-1].headers["x-csrftoken"] == "third"


async def test_the_flood_limit_is_retried_after_three_seconds(platform: Platform) -> None:
    platform.reply(
        front_page(),
        signed_in(),
        httpx.Response(
            403, json={"detail": "You can't post message so quickly after previous one."}
        ),
    )
    async with platform.client() as http:
        with pytest.raises(RetryableError, match="moderator") as raised:
            await MisagoAdapter().send(outgoing(), CONFIG, http)
    assert raised.value.retry_after == 3


async def test_a_wrong_password_is_final(platform: Platform) -> None:
    platform.reply(
        front_page(),
        httpx.Response(
            400, json={"detail": "Login or password is incorrect.", "code": "invalid_login"}
        ),
    )
    async with platform.client() as http:
        with pytest.raises(FinalError, match="Login or password is incorrect"):
            await MisagoAdapter().send(outgoing(), CONFIG, http)


async def test_a_missing_thread_is_final(platform: Platform) -> None:
    platform.reply(
        front_page(),
        signed_in(),
        httpx.Response(404, json={"detail": "No Thread matches the given query."}),
    )
    async with platform.client() as http:
        with pytest.raises(FinalError, match="HTTP 404"):
            await MisagoAdapter().send(outgoing(), CONFIG, http)


async def test_not_a_misago_forum(platform: Platform) -> None:
    platform.reply(httpx.Response(200, text="<html>some other site</html>"))
    async with platform.client() as http:
        with pytest.raises(FinalError, match="csrftoken"):
            await MisagoAdapter().send(outgoing(), CONFIG, http)


async def test_when_the_opening_post_cannot_be_looked_up_the_thread_still_counts(
    platform: Platform,
) -> None:
    """Retrying would open a second thread: the delivery is sent, with the thread's URL."""
    platform.reply(
        front_page(),
        signed_in(),
        httpx.Response(200, json={"id": 12, "title": "赤壁", "url": "/t/chibi/12/"}),
        httpx.Response(503),
    )
    config = {key: value for key, value in CONFIG.items() if key != "thread_id"} | {
        "category_id": 3
    }
    async with platform.client() as http:
        sent = await MisagoAdapter().send(outgoing(), config, http)
    assert sent.config_updates == {"thread_id": 12}
    assert sent.remote_url == "https://misago.example.org/t/chibi/12/"


async def test_two_channels_of_one_account_sending_at_once_sign_in_once() -> None:
    seen: list[str] = []

    async def forum(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        await asyncio.sleep(0)  # let the other send run meanwhile, as real I/O would
        if request.url.path == "/":
            return front_page()
        if request.url.path == "/api/auth/":
            return signed_in()
        assert request.headers["x-csrftoken"] == "second"
        thread = request.url.path.split("/")[3]
        return reply(int(thread) * 100)

    adapter = MisagoAdapter()
    async with httpx.AsyncClient(transport=httpx.MockTransport(forum)) as http:
        results = await asyncio.gather(
            adapter.send(outgoing(), {**CONFIG, "thread_id": 1}, http),
            adapter.send(outgoing(), {**CONFIG, "thread_id": 2}, http),
        )
    assert [sent.remote_id for sent in results] == ["100", "200"]
    assert seen.count("POST /api/auth/") == 1
