"""discourse: POST /posts.json per docs.discourse.org, with Api-Key and Api-Username."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from app.publish.channels.base import FinalError, RetryableError, Sent
from app.publish.channels.discourse import DiscourseAdapter
from tests.publish.channels.conftest import Platform, SleepRecorder, outgoing

BASE = {
    "base_url": "https://forum.example.org/",
    "api_key": "d1f5e7a9c0b2",
    "api_username": "forumplay_bot",
}


def created(post_id: int, topic_id: int = 42, number: int = 2) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "id": post_id,
            "topic_id": topic_id,
            "topic_slug": "chibi",
            "post_number": number,
            "raw": "…",
        },
    )


async def test_a_reply_in_the_topic(platform: Platform) -> None:
    platform.reply(created(311))
    async with platform.client() as http:
        sent = await DiscourseAdapter().send(outgoing(), {**BASE, "topic_id": 42}, http)
    request = platform.requests[0]
    assert request.method == "POST" and str(request.url) == "https://forum.example.org/posts.json"
    assert request.headers["api-key"] == "d1f5e7a9c0b2"
    assert request.headers["api-username"] == "forumplay_bot"
    assert platform.json(0) == {"raw": outgoing().body, "topic_id": 42}
    assert sent == Sent("311", "https://forum.example.org/t/chibi/42/2")


async def test_a_stage_of_the_game_renames_the_topic_and_a_refusal_is_only_logged(
    platform: Platform,
) -> None:
    stage = replace(outgoing(), thread_title="【第2回合·统御阶段】赤壁之战")
    platform.reply(created(312), httpx.Response(200, json={"basic_topic": {"id": 42}}))
    async with platform.client() as http:
        sent = await DiscourseAdapter().send(stage, {**BASE, "topic_id": 42}, http)
    rename = platform.requests[1]
    assert rename.method == "PUT" and str(rename.url) == "https://forum.example.org/t/-/42.json"
    assert platform.json(1) == {"title": "【第2回合·统御阶段】赤壁之战"}
    assert sent.remote_id == "312"
    # Discourse refusing the title (too short, no right to edit) does not fail the post.
    platform.reply(created(313), httpx.Response(422, json={"errors": ["Title is too short"]}))
    async with platform.client() as http:
        again = await DiscourseAdapter().send(stage, {**BASE, "topic_id": 42}, http)
    assert again.remote_id == "313"


async def test_the_first_post_opens_a_topic_in_the_category_and_keeps_its_id(
    platform: Platform,
) -> None:
    platform.reply(created(500, topic_id=77, number=1))
    async with platform.client() as http:
        sent = await DiscourseAdapter().send(outgoing(), {**BASE, "category_id": 5}, http)
    assert platform.json(0) == {"raw": outgoing().body, "title": outgoing().title, "category": 5}
    assert sent.config_updates == {"topic_id": 77}
    assert sent.remote_url == "https://forum.example.org/t/chibi/77/1"


async def test_when_a_topic_is_opened_the_next_parts_reply_in_it(platform: Platform) -> None:
    platform.reply(created(1, topic_id=77, number=1), created(2, topic_id=77, number=2))
    body = "甲" * 20_000 + "\n\n" + "乙" * 20_000
    async with platform.client() as http:
        sent = await DiscourseAdapter().send(outgoing(body), {**BASE, "category_id": 5}, http)
    assert "title" in platform.json(0) and platform.json(1)["topic_id"] == 77
    assert sent.config_updates == {"topic_id": 77}


@pytest.mark.parametrize(
    ("answer", "retry_after"),
    [
        # current Discourse: extras.wait_seconds and a Retry-After header
        (
            httpx.Response(
                429,
                json={
                    "errors": [
                        "You’ve performed this action too many times. Please wait 10 seconds before trying again."
                    ],
                    "error_type": "rate_limit",
                    "extras": {"wait_seconds": 10, "time_left": "10 seconds"},
                },
                headers={"Retry-After": "10"},
            ),
            10,
        ),
        # older Discourse: wait_seconds at the top
        (httpx.Response(429, json={"errors": ["slow down"], "wait_seconds": 33}), 33),
        # only the header
        (httpx.Response(429, text="Slow down, too many requests", headers={"Retry-After": "8"}), 8),
    ],
)
async def test_429_waits_as_discourse_says(
    platform: Platform, answer: httpx.Response, retry_after: float
) -> None:
    platform.reply(answer)
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await DiscourseAdapter().send(outgoing(), {**BASE, "topic_id": 42}, http)
    assert raised.value.retry_after == retry_after


async def test_a_short_rate_limit_between_parts_is_waited_out(platform: Platform) -> None:
    sleep = SleepRecorder()
    platform.reply(
        created(1),
        httpx.Response(429, json={"error_type": "rate_limit", "extras": {"wait_seconds": 2}}),
        created(2),
    )
    body = "甲" * 20_000 + "\n\n" + "乙" * 20_000
    async with platform.client() as http:
        await DiscourseAdapter(sleep=sleep).send(outgoing(body), {**BASE, "topic_id": 42}, http)
    assert sleep.waits == [2]


@pytest.mark.parametrize(
    ("status", "body", "text"),
    [
        (
            422,
            {
                "action": "create_post",
                "errors": ["Body is too similar to what you recently posted"],
            },
            "too similar",
        ),
        (
            403,
            {
                "errors": ["You are not permitted to view the requested resource."],
                "error_type": "invalid_access",
            },
            "not permitted",
        ),
        (
            404,
            {
                "errors": ["The requested URL or resource could not be found."],
                "error_type": "not_found",
            },
            "could not be found",
        ),
    ],
)
async def test_refusals_are_final_with_discourses_words(
    platform: Platform, status: int, body: dict[str, object], text: str
) -> None:
    platform.reply(httpx.Response(status, json=body))
    async with platform.client() as http:
        with pytest.raises(FinalError, match=text):
            await DiscourseAdapter().send(outgoing(), {**BASE, "topic_id": 42}, http)


async def test_server_errors_are_retried(platform: Platform) -> None:
    platform.reply(httpx.Response(502, text="<html>Bad Gateway</html>"))
    async with platform.client() as http:
        with pytest.raises(RetryableError):
            await DiscourseAdapter().send(outgoing(), {**BASE, "topic_id": 42}, http)


async def test_a_failure_after_the_topic_was_opened_still_reports_the_topic(
    platform: Platform,
) -> None:
    """So the worker's retry replies in that topic instead of opening a second one."""
    platform.reply(
        created(1, topic_id=77, number=1),
        httpx.Response(429, json={"error_type": "rate_limit", "extras": {"wait_seconds": 600}}),
    )
    body = "甲" * 20_000 + "\n\n" + "乙" * 20_000
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await DiscourseAdapter().send(outgoing(body), {**BASE, "category_id": 5}, http)
    assert raised.value.config_updates == {"topic_id": 77}


async def test_a_failure_before_anything_was_opened_reports_nothing(platform: Platform) -> None:
    platform.reply(httpx.Response(500))
    async with platform.client() as http:
        with pytest.raises(RetryableError) as raised:
            await DiscourseAdapter().send(outgoing(), {**BASE, "category_id": 5}, http)
    assert raised.value.config_updates == {}
