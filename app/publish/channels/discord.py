"""``discord``: an incoming webhook (Channel settings → Integrations → Webhooks).

``POST <webhook_url>?wait=true`` with ``{"content"}``: ``wait`` makes Discord answer with
the created message, so its id is recorded. 2,000 characters per message: longer posts go
as several messages, cut between paragraphs. A 429 carries ``retry_after`` (seconds) in
its body and a ``Retry-After`` header. Mentions are switched off (a player's name must
not ping ``@everyone``), and link previews suppressed.
"""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import AfterValidator, BaseModel, Field

from app.publish.channels.base import (
    ChannelConfig,
    Outgoing,
    Sent,
    Sleep,
    as_dict,
    fail_for_status,
    json_body,
    request,
    seconds_or_none,
    send_parts,
    split_body,
)
from app.publish.urls import ChannelUrl

MESSAGE_LIMIT = 2000
SUPPRESS_EMBEDS = 1 << 2
_WEBHOOK_PATH = re.compile(r"^/api(/v\d+)?/webhooks/\d+/[A-Za-z0-9_.-]+/?$")


def _check_webhook_url(value: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme != "https" or not _WEBHOOK_PATH.fullmatch(parts.path) or parts.query:
        raise ValueError("must be a Discord webhook URL: https://…/api/webhooks/<id>/<token>")
    return value


# Discord ids (snowflakes) are text: as JSON numbers they would lose digits in JavaScript.
Snowflake = Annotated[str, Field(pattern=r"^[1-9][0-9]{0,19}$")]


class DiscordConfig(ChannelConfig):
    webhook_url: Annotated[ChannelUrl, AfterValidator(_check_webhook_url)]
    thread_id: Snowflake | None = None  # post into this thread (forum channels)


class DiscordAdapter:
    kind: ClassVar[str] = "discord"
    default_format: ClassVar[str] = "text"
    config_model: ClassVar[type[BaseModel]] = DiscordConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("webhook_url",)  # the URL holds the token
    url_fields: ClassVar[tuple[str, ...]] = ("webhook_url",)

    def __init__(self, sleep: Sleep = asyncio.sleep) -> None:
        self.sleep = sleep  # between the parts of a split post (tests record it instead)

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        settings = DiscordConfig.model_validate(config)
        params: dict[str, str] = {"wait": "true"}
        if settings.thread_id is not None:
            params["thread_id"] = settings.thread_id

        async def send_one(index: int, part: str) -> Sent:
            payload = {
                "content": part,
                "allowed_mentions": {"parse": []},
                "flags": SUPPRESS_EMBEDS,
            }
            response = await request(
                self.kind,
                http,
                "POST",
                settings.webhook_url,
                params=params,
                json=payload,
                secrets=(settings.webhook_url,),
            )
            answer = as_dict(json_body(response))
            fail_for_status(
                self.kind,
                response,
                str(answer.get("message") or response.reason_phrase),
                seconds_or_none(answer.get("retry_after")),
            )
            return _message_link(answer)

        parts = split_body(message.body, MESSAGE_LIMIT)
        return (await send_parts(parts, send_one, self.sleep))[0]

    async def edit(
        self, remote_id: str, body: str, config: dict[str, Any], http: httpx.AsyncClient
    ) -> None:
        """Edit a message this webhook sent (``PATCH …/messages/<id>``): a withdrawn post
        (app/publish/withdraw.py)."""
        settings = DiscordConfig.model_validate(config)
        params = {"thread_id": settings.thread_id} if settings.thread_id is not None else {}
        payload = {"content": body[:MESSAGE_LIMIT], "allowed_mentions": {"parse": []}}
        response = await request(
            self.kind,
            http,
            "PATCH",
            f"{settings.webhook_url}/messages/{remote_id}",
            params=params,
            json=payload,
            secrets=(settings.webhook_url,),
        )
        answer = as_dict(json_body(response))
        fail_for_status(
            self.kind,
            response,
            str(answer.get("message") or response.reason_phrase),
            seconds_or_none(answer.get("retry_after")),
        )


def _message_link(answer: dict[str, Any]) -> Sent:
    message_id = answer.get("id")
    channel_id = answer.get("channel_id")
    guild_id = answer.get("guild_id")
    url = None
    if message_id and channel_id and guild_id:
        url = f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
    return Sent(str(message_id) if message_id else None, url)
