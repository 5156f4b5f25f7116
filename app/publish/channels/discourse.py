"""``discourse``: posts through Discourse's REST API with an API key.

``POST /posts.json`` with ``{"raw", "topic_id"}`` replies in a topic; with ``{"title",
"raw", "category"}`` it opens one, and the new ``topic_id`` is saved back into the
channel's config so the next posts reply there. Headers ``Api-Key`` and ``Api-Username``
(the bot account the posts appear under). A 429 answers ``{"error_type": "rate_limit",
"extras": {"wait_seconds": N}}`` (older versions: ``wait_seconds`` at the top) and a
``Retry-After`` header; 422 is a post Discourse will not take (too short, too similar to
a recent one, closed topic) and 403 a key without the right scope: both final.
As the game moves on, ``PUT /t/-/{topic_id}.json {"title"}`` renames the topic (best effort:
the key's user must be allowed to edit it, and Discourse's minimum title length applies).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import BaseModel, Field, model_validator

from app.publish.channels.base import (
    ChannelConfig,
    ChannelError,
    Outgoing,
    RemoteId,
    Sent,
    Sleep,
    as_dict,
    best_effort,
    fail_for_status,
    json_body,
    request,
    seconds_or_none,
    send_parts,
    split_body,
)
from app.publish.urls import ChannelUrl, base_url
from app.rules.types import Line

# Discourse's default max_post_length; a forum may set it lower.
POST_LIMIT = 32_000
TITLE_LIMIT = 255


class DiscourseConfig(ChannelConfig):
    base_url: ChannelUrl
    api_key: Annotated[str, Field(min_length=1, max_length=200)]
    api_username: Annotated[Line, Field(min_length=1, max_length=60)]
    topic_id: RemoteId | None = None
    category_id: RemoteId | None = None
    follow_title: bool = True  # rename the topic as the game moves on

    @model_validator(mode="after")
    def _where(self) -> DiscourseConfig:
        if self.topic_id is None and self.category_id is None:
            raise ValueError("give topic_id (post there) or category_id (open a topic there)")
        return self


class DiscourseAdapter:
    kind: ClassVar[str] = "discourse"
    default_format: ClassVar[str] = "markdown"
    config_model: ClassVar[type[BaseModel]] = DiscourseConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("api_key",)
    url_fields: ClassVar[tuple[str, ...]] = ("base_url",)

    def __init__(self, sleep: Sleep = asyncio.sleep) -> None:
        self.sleep = sleep

    async def edit(
        self, remote_id: str, body: str, config: dict[str, Any], http: httpx.AsyncClient
    ) -> None:
        """Edit a post of the bot's (``PUT /posts/<id>.json``): a withdrawn post
        (app/publish/withdraw.py)."""
        await _edit(self.kind, remote_id, body, config, http)

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        settings = DiscourseConfig.model_validate(config)
        root = base_url(settings.base_url)
        headers = {
            "Api-Key": settings.api_key,
            "Api-Username": settings.api_username,
            "Accept": "application/json",
        }
        topic: dict[str, int | None] = {"id": settings.topic_id}

        async def send_one(index: int, part: str) -> Sent:
            payload: dict[str, Any] = {"raw": part}
            if topic["id"] is not None:
                payload["topic_id"] = topic["id"]
            else:
                payload["title"] = message.title[:TITLE_LIMIT]
                payload["category"] = settings.category_id
            response = await request(
                self.kind, http, "POST", f"{root}/posts.json", json=payload, headers=headers
            )
            answer = as_dict(json_body(response))
            fail_for_status(self.kind, response, _errors(answer), _wait_seconds(answer))
            if isinstance(answer.get("topic_id"), int):
                topic["id"] = answer["topic_id"]
            return _post_link(root, answer)

        def updates() -> dict[str, Any]:
            opened = settings.topic_id is None and topic["id"] is not None
            return {"topic_id": topic["id"]} if opened else {}

        parts = split_body(message.body, POST_LIMIT)
        opening = topic["id"] is None
        try:
            first = (await send_parts(parts, send_one, self.sleep))[0]
        except ChannelError as error:
            error.config_updates = updates()
            raise
        renamed = message.thread_title
        if renamed and settings.follow_title and not opening:

            async def rename() -> None:
                url = f"{root}/t/-/{topic['id']}.json"
                title = {"title": renamed[:TITLE_LIMIT]}
                response = await request(self.kind, http, "PUT", url, json=title, headers=headers)
                fail_for_status(self.kind, response, _errors(as_dict(json_body(response))))

            await best_effort(rename(), self.kind)
        return Sent(first.remote_id, first.remote_url, updates())


async def _edit(
    kind: str, remote_id: str, body: str, config: dict[str, Any], http: httpx.AsyncClient
) -> None:
    settings = DiscourseConfig.model_validate(config)
    root = base_url(settings.base_url)
    headers = {
        "Api-Key": settings.api_key,
        "Api-Username": settings.api_username,
        "Accept": "application/json",
    }
    response = await request(
        kind,
        http,
        "PUT",
        f"{root}/posts/{int(remote_id)}.json",
        json={"post": {"raw": body[:POST_LIMIT]}},
        headers=headers,
    )
    answer = as_dict(json_body(response))
    fail_for_status(kind, response, _errors(answer), _wait_seconds(answer))


def _errors(answer: dict[str, Any]) -> str:
    errors = answer.get("errors")
    if isinstance(errors, list):
        return "; ".join(str(error) for error in errors)
    return str(answer.get("error") or "")


def _wait_seconds(answer: dict[str, Any]) -> float | None:
    extras = answer.get("extras")
    if isinstance(extras, dict) and "wait_seconds" in extras:
        return seconds_or_none(extras["wait_seconds"])
    return seconds_or_none(answer.get("wait_seconds"))


def _post_link(root: str, answer: dict[str, Any]) -> Sent:
    post_id = answer.get("id")
    topic_id = answer.get("topic_id")
    slug = answer.get("topic_slug") or "-"
    number = answer.get("post_number")
    url = f"{root}/t/{slug}/{topic_id}/{number}" if topic_id and number else None
    return Sent(None if post_id is None else str(post_id), url)
