"""QQ through OneBot v11 (NapCat, LLOneBot, Lagrange.OneBot, go-cqhttp): HTTP POST event
reports.

Each report is signed ``X-Signature: sha1=<hex HMAC-SHA1 of the raw body>`` with the
configured ``secret`` (401 without it). Private messages carry hidden orders; group
messages are read like the forum thread (public orders only; a hidden order there is
refused with a warning and never executed). The reply is the quick operation
``{"reply": …, "auto_escape": true}``. Messages the bot sends on its own go to
``send_private_msg``. The official QQ bot API allows only four unprompted private
messages a month: reminders by QQ DM need a OneBot implementation.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import Field

from app.chat.base import BotConfig, Choice, Incoming, malformed, split_command, unauthorized
from app.publish.channels.base import (
    FinalError,
    Sent,
    as_dict,
    fail_for_status,
    json_body,
    request,
    send_parts,
    split_body,
)
from app.publish.urls import ChannelUrl, base_url

MESSAGE_LIMIT = 3000


class OneBotBotConfig(BotConfig):
    base_url: ChannelUrl
    access_token: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    secret: Annotated[str, Field(min_length=8, max_length=500)]
    qq: Annotated[str, Field(pattern=r"^[1-9][0-9]{4,12}$")] | None = None


class OneBot:
    kind: ClassVar[str] = "onebot"
    config_model: ClassVar[type[BotConfig]] = OneBotBotConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("access_token", "secret")
    url_fields: ClassVar[tuple[str, ...]] = ("base_url",)
    message_limit: ClassVar[int] = MESSAGE_LIMIT

    def verify(self, config: dict[str, Any], headers: httpx.Headers, body: bytes) -> None:
        given = headers.get("x-signature", "")
        digest = hmac.new(config["secret"].encode(), body, hashlib.sha1).hexdigest()
        if not hmac.compare_digest(given.encode(), f"sha1={digest}".encode()):
            raise unauthorized("OneBot")

    def identity(self, config: dict[str, Any]) -> dict[str, Any]:
        qq = config.get("qq")
        return {"handle": f"QQ {qq}" if qq else "QQ", "url": None}

    def link_url(self, identity: dict[str, Any], code: str) -> str | None:
        return None

    def parse(self, payload: Any) -> Incoming | dict[str, Any] | None:
        event = as_dict(payload)
        if "post_type" not in event:
            raise malformed("post_type")
        if event["post_type"] != "message":
            return None  # heartbeats, notices, friend requests
        kind = event.get("message_type")
        user, message_id = event.get("user_id"), event.get("message_id")
        if kind not in ("private", "group") or not isinstance(user, int):
            raise malformed("message_type / user_id")
        if not isinstance(message_id, int) or isinstance(message_id, bool):
            raise malformed("message_id")
        text = _text(event)
        command, rest = split_command(text)
        group = event.get("group_id")
        return Incoming(
            key=f"m{message_id}",
            account=str(user),
            chat=str(user),
            text=rest if command is None else text,
            private=kind == "private",
            command=command if command != "order" else None,
            argument=rest,
            name=str(as_dict(event.get("sender")).get("nickname") or "")[:100],
            group=str(group) if kind == "group" and group is not None else None,
        )

    def reply(self, incoming: Incoming, text: str, choices: list[Choice]) -> dict[str, Any]:
        if choices:
            text += "\n" + "\n".join(f"{c.data}  {c.label}" for c in choices)
        parts = split_body(text, MESSAGE_LIMIT) or [text]
        answer: dict[str, Any] = {"reply": parts[0], "auto_escape": True}
        if not incoming.private:
            answer["at_sender"] = True
        return answer

    async def send(
        self, config: dict[str, Any], chat: str, text: str, http: httpx.AsyncClient
    ) -> float | None:
        url = f"{base_url(config['base_url'])}/send_private_msg"
        token = config.get("access_token")
        headers = {"Authorization": f"Bearer {token}"} if token else {}

        async def one(index: int, part: str) -> Sent:
            payload = {"user_id": int(chat), "message": part, "auto_escape": True}
            response = await request(
                self.kind, http, "POST", url, json=payload, headers=headers, secrets=(token or "",)
            )
            answer = as_dict(json_body(response))
            fail_for_status(self.kind, response, str(answer.get("wording") or ""))
            if answer.get("status") == "failed":
                raise FinalError(f"onebot: retcode {answer.get('retcode')}")
            return Sent(None, None)

        await send_parts(split_body(text, MESSAGE_LIMIT), one, asyncio.sleep)
        return None


def _text(event: dict[str, Any]) -> str:
    """The message's text: ``raw_message``, else the text segments of an array message."""
    message = event.get("message")
    if isinstance(message, list):
        return "".join(
            str(as_dict(seg.get("data")).get("text", ""))
            for seg in message
            if isinstance(seg, dict) and seg.get("type") == "text"
        )
    raw = event.get("raw_message", message)
    return raw if isinstance(raw, str) else ""
