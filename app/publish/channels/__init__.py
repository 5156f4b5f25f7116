"""STAND-IN until i8-channels' adapters land on main (same interface; see PUBLISH.md)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, ClassVar

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from app.errors import AppError
from app.publish import secrets
from app.publish.channels.base import ChannelAdapter, FinalError, Outgoing, RetryableError, Sent


class WebhookConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str
    secret: str


class MisagoConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base_url: str
    username: str
    password: str
    thread_id: int | None = None
    category_id: int | None = None


class Misago:
    kind: ClassVar[str] = "misago"
    default_format: ClassVar[str] = "markdown"
    config_model: ClassVar[type[BaseModel]] = MisagoConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("password",)

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        raise RetryableError("the stand-in cannot post to Misago")


class ManualConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Webhook:
    kind: ClassVar[str] = "webhook"
    default_format: ClassVar[str] = "markdown"
    config_model: ClassVar[type[BaseModel]] = WebhookConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("secret",)

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        body = json.dumps(
            {"type": "post.published", "game_id": message.game_id, "post": message.post},
            ensure_ascii=False,
        )
        stamp = str(int(time.time()))
        key = base64.b64decode(config["secret"].removeprefix("whsec_"))
        mac = hmac.new(key, f"{message.delivery_id}.{stamp}.{body}".encode(), hashlib.sha256)
        headers = {
            "webhook-id": message.delivery_id,
            "webhook-timestamp": stamp,
            "webhook-signature": "v1," + base64.b64encode(mac.digest()).decode(),
            "content-type": "application/json",
        }
        try:
            response = await http.post(config["url"], content=body.encode(), headers=headers)
        except httpx.HTTPError as error:
            raise RetryableError(str(error)) from None
        if response.status_code == 429 or response.status_code >= 500:
            hint = response.headers.get("retry-after")
            after = float(hint) if hint and hint.isdigit() else None
            raise RetryableError(f"HTTP {response.status_code}", retry_after=after)
        if response.status_code >= 400:
            raise FinalError(f"HTTP {response.status_code}")
        return Sent(None, None)


class Manual:
    kind: ClassVar[str] = "manual"
    default_format: ClassVar[str] = "bbcode"
    config_model: ClassVar[type[BaseModel]] = ManualConfig
    secret_fields: ClassVar[tuple[str, ...]] = ()

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        raise FinalError("manual channels are never sent")


ADAPTERS: dict[str, ChannelAdapter] = {"webhook": Webhook(), "misago": Misago(), "manual": Manual()}


def validate_config(kind: str, config: dict[str, Any], allow_private_urls: bool) -> dict[str, Any]:
    try:
        return ADAPTERS[kind].config_model.model_validate(config).model_dump(exclude_none=True)
    except ValidationError as error:
        raise AppError(422, "bad_channel_config", str(error), str(error)) from None


def redact(kind: str, config: dict[str, Any]) -> dict[str, Any]:
    secret = ADAPTERS[kind].secret_fields
    return {k: ("***" if k in secret else v) for k, v in config.items()}


def seal_config(kind: str, config: dict[str, Any], settings: Any = None) -> dict[str, Any]:
    hidden = ADAPTERS[kind].secret_fields
    return {k: secrets.encrypt(v) if k in hidden else v for k, v in config.items()}


def open_config(kind: str, config: dict[str, Any], settings: Any = None) -> dict[str, Any]:
    hidden = ADAPTERS[kind].secret_fields
    return {k: secrets.decrypt(v) if k in hidden else v for k, v in config.items()}


def make_http_client(
    allow_private_urls: bool, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=20.0, follow_redirects=False, transport=transport)
