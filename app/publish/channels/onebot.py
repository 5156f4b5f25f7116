"""``onebot``: a QQ group through a OneBot v11 implementation's HTTP API
(go-cqhttp, NapCat, LLOneBot, Lagrange…).

``POST <base_url>/send_group_msg`` with ``{"group_id", "message", "auto_escape": true}``
(plain text: CQ codes in a post are not interpreted, so a player's name cannot
``[CQ:at,qq=all]`` the group) and ``Authorization: Bearer <access_token>``. OneBot answers
HTTP 401/403 for a missing/wrong token, 404 for an unknown API, 400/406 for a malformed
request, and 200 for everything else with ``{"status", "retcode", "data"}``: ``ok``/0 sent
(``data.message_id``), ``async``/1 accepted with the outcome unknown, ``failed`` otherwise.
A failure is final (muted bot, no such group, risk control) except retcode 201 (the
implementation's worker pool is not ready yet). OneBot documents no length limit; long posts
go as several messages of at most 3,000 characters, a cautious size of our own choosing.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import BaseModel, Field

from app.publish.channels.base import (
    ChannelConfig,
    FinalError,
    Outgoing,
    RemoteId,
    RetryableError,
    Sent,
    Sleep,
    as_dict,
    fail_for_status,
    json_body,
    request,
    send_parts,
    short,
    split_body,
)
from app.publish.urls import ChannelUrl, base_url

MESSAGE_LIMIT = 3000
RETCODE_OK = 0
RETCODE_ASYNC = 1
RETCODE_NOT_READY = 201


class OneBotConfig(ChannelConfig):
    base_url: ChannelUrl
    access_token: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    group_id: RemoteId


class OneBotAdapter:
    kind: ClassVar[str] = "onebot"
    default_format: ClassVar[str] = "text"
    config_model: ClassVar[type[BaseModel]] = OneBotConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("access_token",)
    url_fields: ClassVar[tuple[str, ...]] = ("base_url",)

    def __init__(self, sleep: Sleep = asyncio.sleep) -> None:
        self.sleep = sleep

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        settings = OneBotConfig.model_validate(config)
        url = f"{base_url(settings.base_url)}/send_group_msg"
        headers = {}
        if settings.access_token:
            headers["Authorization"] = f"Bearer {settings.access_token}"

        async def send_one(index: int, part: str) -> Sent:
            payload = {"group_id": settings.group_id, "message": part, "auto_escape": True}
            response = await request(
                self.kind,
                http,
                "POST",
                url,
                json=payload,
                headers=headers,
                secrets=(settings.access_token or "",),
            )
            fail_for_status(self.kind, response, _http_reason(response.status_code))
            return _outcome(json_body(response))

        parts = split_body(message.body, MESSAGE_LIMIT)
        return (await send_parts(parts, send_one, self.sleep))[0]


def _http_reason(status: int) -> str:
    return {
        400: "malformed request body",
        401: "access token missing (set access_token)",
        403: "access token wrong",
        404: "no send_group_msg API at this address (check base_url)",
        406: "content type not supported",
    }.get(status, "")


def _outcome(answer: Any) -> Sent:
    if not isinstance(answer, dict):
        raise RetryableError("onebot: the answer was not JSON")
    retcode = answer.get("retcode")
    status = answer.get("status")
    if retcode == RETCODE_OK and status == "ok":
        data = answer.get("data")
        message_id = as_dict(data).get("message_id")
        return Sent(None if message_id is None else str(message_id), None)
    if retcode == RETCODE_ASYNC or status == "async":
        return Sent(None, None)  # queued by the implementation; it will not say more
    reason = answer.get("wording") or answer.get("msg") or answer.get("message") or ""
    text = f"onebot: send_group_msg failed, retcode {retcode}" + (
        f": {short(str(reason))}" if reason else ""
    )
    if retcode == RETCODE_NOT_READY:
        raise RetryableError(text)
    raise FinalError(text)
