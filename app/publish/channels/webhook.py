"""``webhook``: a signed JSON POST per the Standard Webhooks spec (standardwebhooks.com).

Headers ``webhook-id`` (the delivery id: the same on every retry, so a receiver drops
repeats), ``webhook-timestamp`` (Unix seconds) and ``webhook-signature``
(``v1,<base64 HMAC-SHA256 of "id.timestamp.body">`` with the decoded ``whsec_`` secret).
The body is ``{"type": "post.published", "game_id", "post"}``. A receiver may answer
``{"id", "url"}`` to say where it posted; that becomes the delivery's remote id and URL.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
import time
from collections.abc import Callable
from datetime import date, datetime
from typing import Annotated, Any, ClassVar
from uuid import UUID

import httpx
from pydantic import AfterValidator, BaseModel, Field

from app.publish.channels.base import (
    ChannelConfig,
    Outgoing,
    Sent,
    fail_for_status,
    json_body,
    request,
    short,
)
from app.publish.urls import ChannelUrl, is_web_link

SECRET_PREFIX = "whsec_"


def decode_secret(secret: str) -> bytes:
    """The HMAC key inside a ``whsec_<base64>`` secret."""
    if not secret.startswith(SECRET_PREFIX):
        raise ValueError("must start with whsec_")
    try:
        key = base64.b64decode(secret[len(SECRET_PREFIX) :], validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError("must be whsec_ followed by base64") from error
    if not 24 <= len(key) <= 64:
        raise ValueError("must hold 24 to 64 bytes (Standard Webhooks)")
    return key


def _check_secret(value: str) -> str:
    decode_secret(value)
    return value


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value for one message."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(decode_secret(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def encode_event(event_type: str, game_id: str, payload_key: str, payload: Any) -> bytes:
    """The exact bytes sent (and signed): compact JSON, UTF-8, keys in a fixed order."""
    document = {"type": event_type, "game_id": game_id, payload_key: payload}
    return json.dumps(
        document, ensure_ascii=False, separators=(",", ":"), default=_json_value
    ).encode()


def _json_value(value: Any) -> str:
    """Times as ISO 8601 (as the API shows them), ids as text; nothing else is guessed."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    raise TypeError(f"cannot send {type(value).__name__} in a webhook body")


class WebhookConfig(ChannelConfig):
    url: ChannelUrl
    secret: Annotated[str, Field(max_length=200), AfterValidator(_check_secret)]


class WebhookAdapter:
    kind: ClassVar[str] = "webhook"
    default_format: ClassVar[str] = "markdown"
    config_model: ClassVar[type[BaseModel]] = WebhookConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("secret",)
    url_fields: ClassVar[tuple[str, ...]] = ("url",)

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        # Wall-clock time: receivers compare the timestamp with their own clock.
        self._now = now

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        settings = WebhookConfig.model_validate(config)
        body = encode_event("post.published", message.game_id, "post", message.post)
        timestamp = math.floor(self._now())
        headers = {
            "Content-Type": "application/json",
            "webhook-id": message.delivery_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(settings.secret, message.delivery_id, timestamp, body),
        }
        response = await request(
            self.kind, http, "POST", settings.url, content=body, headers=headers
        )
        fail_for_status(self.kind, response, short(response.text))
        return _receipt(json_body(response))


def _receipt(answer: Any) -> Sent:
    """What a receiver said about where the post went, when it said anything usable."""
    if not isinstance(answer, dict):
        return Sent(None, None)
    remote_id = answer.get("id")
    remote_url = answer.get("url")
    if not (isinstance(remote_url, str) and is_web_link(remote_url)):
        remote_url = None
    if isinstance(remote_id, bool) or not isinstance(remote_id, str | int):
        remote_id = None
    return Sent(
        None if remote_id is None else short(str(remote_id)),
        remote_url,
    )
