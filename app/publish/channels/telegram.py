"""``telegram``: a bot posts into a group, supergroup or channel (Bot API ``sendMessage``).

Create the bot with @BotFather (its token is ``<digits>:<letters>``), add it to the chat
(an admin in a channel), and give the chat's id (``-100…`` for supergroups and channels) or
``@channelname``. ``api_base`` points at a self-hosted Bot API server if you run one.
4,096 characters per message (counted in UTF-16 units, as Telegram does): longer posts go
as several messages. Errors come as ``{"ok": false, "error_code", "description",
"parameters": {"retry_after", "migrate_to_chat_id"}}``; a group that became a supergroup
is followed to its new id, which is saved back into the channel's config.
"""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import AfterValidator, BaseModel, Field

from app.publish.channels.base import (
    ChannelConfig,
    ChannelError,
    Outgoing,
    RemoteId,
    Sent,
    Sleep,
    as_dict,
    fail_for_status,
    json_body,
    request,
    seconds_or_none,
    send_parts,
    split_body,
    utf16_length,
)
from app.publish.urls import ChannelUrl, base_url

MESSAGE_LIMIT = 4096
_TOKEN = re.compile(r"^\d{3,20}:[A-Za-z0-9_-]{20,100}$")
_CHAT_NAME = re.compile(r"^@[A-Za-z][A-Za-z0-9_]{3,31}$")


def _check_token(value: str) -> str:
    if not _TOKEN.fullmatch(value):
        raise ValueError("must be a bot token from @BotFather: <digits>:<letters>")
    return value


def _check_chat(value: int | str) -> int | str:
    if isinstance(value, str) and not _CHAT_NAME.fullmatch(value):
        raise ValueError("must be a numeric chat id or @channelname")
    return value


class TelegramConfig(ChannelConfig):
    bot_token: Annotated[str, AfterValidator(_check_token)]
    chat_id: Annotated[int | str, Field(union_mode="left_to_right"), AfterValidator(_check_chat)]
    api_base: ChannelUrl = "https://api.telegram.org"
    message_thread_id: RemoteId | None = None  # a topic in a forum supergroup


class TelegramAdapter:
    kind: ClassVar[str] = "telegram"
    default_format: ClassVar[str] = "text"
    config_model: ClassVar[type[BaseModel]] = TelegramConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("bot_token",)
    url_fields: ClassVar[tuple[str, ...]] = ("api_base",)

    def __init__(self, sleep: Sleep = asyncio.sleep) -> None:
        self.sleep = sleep

    async def edit(
        self, remote_id: str, body: str, config: dict[str, Any], http: httpx.AsyncClient
    ) -> None:
        """Edit a message the bot sent (``editMessageText``): a withdrawn post
        (app/publish/withdraw.py)."""
        await _edit(self, remote_id, body, config, http)

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        settings = TelegramConfig.model_validate(config)
        url = f"{base_url(settings.api_base)}/bot{settings.bot_token}/sendMessage"
        chat: dict[str, Any] = {"id": settings.chat_id}

        async def post(part: str) -> tuple[httpx.Response, dict[str, Any]]:
            payload: dict[str, Any] = {
                "chat_id": chat["id"],
                "text": part,
                "link_preview_options": {"is_disabled": True},
            }
            if settings.message_thread_id is not None:
                payload["message_thread_id"] = settings.message_thread_id
            response = await request(
                self.kind, http, "POST", url, json=payload, secrets=(settings.bot_token,)
            )
            answer = json_body(response)
            return response, as_dict(answer)

        async def send_one(index: int, part: str) -> Sent:
            response, answer = await post(part)
            parameters = as_dict(answer.get("parameters"))
            new_chat = parameters.get("migrate_to_chat_id")
            if response.status_code == 400 and isinstance(new_chat, int):
                chat["id"] = new_chat
                chat["moved"] = True
                response, answer = await post(part)
                parameters = as_dict(answer.get("parameters"))
            fail_for_status(
                self.kind,
                response,
                str(answer.get("description") or response.reason_phrase),
                seconds_or_none(parameters.get("retry_after")),
            )
            return _message_link(answer.get("result"))

        def updates() -> dict[str, Any]:
            return {"chat_id": chat["id"]} if chat.get("moved") else {}

        parts = split_body(message.body, MESSAGE_LIMIT, utf16_length)
        try:
            first = (await send_parts(parts, send_one, self.sleep))[0]
        except ChannelError as error:
            error.config_updates = updates()
            raise
        return Sent(first.remote_id, first.remote_url, updates())


async def _edit(
    adapter: TelegramAdapter,
    remote_id: str,
    body: str,
    config: dict[str, Any],
    http: httpx.AsyncClient,
) -> None:
    settings = TelegramConfig.model_validate(config)
    url = f"{base_url(settings.api_base)}/bot{settings.bot_token}/editMessageText"
    payload = {
        "chat_id": settings.chat_id,
        "message_id": int(remote_id),
        "text": body[:MESSAGE_LIMIT],
        "link_preview_options": {"is_disabled": True},
    }
    response = await request(
        adapter.kind, http, "POST", url, json=payload, secrets=(settings.bot_token,)
    )
    answer = as_dict(json_body(response))
    parameters = as_dict(answer.get("parameters"))
    fail_for_status(
        adapter.kind,
        response,
        str(answer.get("description") or response.reason_phrase),
        seconds_or_none(parameters.get("retry_after")),
    )


def _message_link(result: Any) -> Sent:
    if not isinstance(result, dict) or "message_id" not in result:
        return Sent(None, None)
    message_id = result["message_id"]
    chat = as_dict(result.get("chat"))
    username = chat.get("username")
    chat_id = str(chat.get("id", ""))
    if username:
        url: str | None = f"https://t.me/{username}/{message_id}"
    elif chat_id.startswith("-100"):
        url = f"https://t.me/c/{chat_id[4:]}/{message_id}"  # members-only link
    else:
        url = None
    return Sent(str(message_id), url)
