"""The three platforms as the tests play them: real Telegram ``Update`` objects, Discord
``Interaction`` objects signed with a real Ed25519 key, OneBot v11 events signed with
HMAC-SHA1 — each posted to the bot's inbound route — and a fake of each platform's
sending API (``httpx.MockTransport``) recording what the bots send on their own."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from httpx import AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat import bots
from app.clock import FakeClock
from app.settings import Settings

TG_TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ"
TG_SECRET = "tg-secret-token-0123456789"
ONEBOT_SECRET = "onebot-secret-42"
_ids = itertools.count(1000)


async def register(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    clock: FakeClock,
    kind: str,
    config: dict[str, Any],
    name: str = "bot",
) -> dict[str, Any]:
    """A bot registered as ``forumplay bot add`` does (the same service function)."""
    async with sessionmaker() as session, session.begin():
        return await bots.add_bot(session, kind, name, config, clock.now(), settings)


def telegram_config(api_base: str = "http://tg.test") -> dict[str, Any]:
    return {
        "bot_token": TG_TOKEN,
        "secret_token": TG_SECRET,
        "username": "forumplay_test_bot",
        "api_base": api_base,
    }


@dataclass
class TelegramUser:
    http: AsyncClient
    path: str
    user_id: int
    first_name: str = "Alice"
    secret: str = TG_SECRET
    last: dict[str, Any] = field(default_factory=dict)

    def update(
        self, text: str, chat_type: str = "private", chat_id: int | None = None
    ) -> dict[str, Any]:
        chat: dict[str, Any] = {
            "id": self.user_id,
            "type": "private",
            "first_name": self.first_name,
        }
        if chat_type != "private":
            chat = {"id": chat_id or -1001234567890, "type": chat_type, "title": "团战群"}
        message_id = next(_ids)
        return {
            "update_id": 800000 + message_id,
            "message": {
                "message_id": message_id,
                "from": {
                    "id": self.user_id,
                    "is_bot": False,
                    "first_name": self.first_name,
                    "language_code": "zh-hans",
                },
                "chat": chat,
                "date": 1764633600,
                "text": text,
            },
        }

    def callback(self, data: str) -> dict[str, Any]:
        n = next(_ids)
        return {
            "update_id": 800000 + n,
            "callback_query": {
                "id": str(4382000000000000000 + n),
                "from": {"id": self.user_id, "is_bot": False, "first_name": self.first_name},
                "message": {
                    "message_id": n,
                    "chat": {"id": self.user_id, "type": "private"},
                    "date": 1764633600,
                    "text": "…",
                },
                "chat_instance": "-1234567890",
                "data": data,
            },
        }

    async def post(self, update: dict[str, Any], secret: str | None = None) -> Response:
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret if secret is not None else self.secret}
        return await self.http.post(self.path, json=update, headers=headers)

    async def say(self, text: str, **kw: Any) -> str:
        response = await self.post(self.update(text, **kw))
        assert response.status_code == 200, response.text
        self.last = response.json()
        return str(self.last.get("text", ""))


class DiscordApp:
    """A Discord application: its key pair and its signed interactions."""

    def __init__(self, api_base: str = "http://discord.test/api/v10") -> None:
        self.key = Ed25519PrivateKey.generate()
        public = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.config = {
            "application_id": "1187000000000000001",
            "public_key": public.hex(),
            "bot_token": "MTE4NzAwMDAwMDAwMDAwMDAwMQ.Gabcde.fake-token-for-tests",
            "api_base": api_base,
        }

    def signed(self, body: bytes, timestamp: str = "1764633600") -> dict[str, str]:
        signature = self.key.sign(timestamp.encode() + body).hex()
        return {
            "X-Signature-Ed25519": signature,
            "X-Signature-Timestamp": timestamp,
            "Content-Type": "application/json",
        }


@dataclass
class DiscordUser:
    http: AsyncClient
    path: str
    app: DiscordApp
    user_id: str
    username: str = "bob"
    guild: bool = True
    last: dict[str, Any] = field(default_factory=dict)

    def interaction(self, name: str, **options: Any) -> dict[str, Any]:
        user = {"id": self.user_id, "username": self.username, "global_name": self.username}
        body: dict[str, Any] = {
            "id": str(1190000000000000000 + next(_ids)),
            "application_id": self.app.config["application_id"],
            "type": 2,
            "token": "aW50ZXJhY3Rpb24tdG9rZW4",
            "version": 1,
            "data": {
                "id": "1187000000000000100",
                "name": name,
                "type": 1,
                "options": [
                    {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
                    for k, v in options.items()
                ],
            },
            "channel_id": "1187000000000000200",
            "locale": "zh-CN",
        }
        if self.guild:
            body["guild_id"] = "1187000000000000300"
            body["member"] = {"user": user, "roles": [], "permissions": "0"}
        else:
            body["user"] = user
        return body

    async def post(self, payload: dict[str, Any], sign: bool = True) -> Response:
        raw = json.dumps(payload).encode()
        headers = self.app.signed(raw) if sign else {"Content-Type": "application/json"}
        return await self.http.post(self.path, content=raw, headers=headers)

    async def command(self, name: str, **options: Any) -> str:
        response = await self.post(self.interaction(name, **options))
        assert response.status_code == 200, response.text
        self.last = response.json()
        assert self.last["type"] == 4 and self.last["data"]["flags"] == 64, self.last
        return str(self.last["data"]["content"])


def onebot_config(base_url: str = "http://onebot.test") -> dict[str, Any]:
    return {"base_url": base_url, "access_token": "onebot-access", "secret": ONEBOT_SECRET}


@dataclass
class QQUser:
    http: AsyncClient
    path: str
    qq: int
    nickname: str = "小明"
    secret: str = ONEBOT_SECRET
    last: dict[str, Any] = field(default_factory=dict)

    def event(self, text: str, group: int | None = None) -> dict[str, Any]:
        event: dict[str, Any] = {
            "time": 1764633600,
            "self_id": 10001,
            "post_type": "message",
            "message_type": "group" if group else "private",
            "sub_type": "normal" if group else "friend",
            "message_id": next(_ids),
            "user_id": self.qq,
            "message": [{"type": "text", "data": {"text": text}}],
            "raw_message": text,
            "font": 0,
            "sender": {"user_id": self.qq, "nickname": self.nickname, "sex": "unknown", "age": 0},
        }
        if group:
            event["group_id"] = group
        return event

    async def post(self, event: dict[str, Any], secret: str | None = None) -> Response:
        raw = json.dumps(event, ensure_ascii=False).encode()
        key = (secret if secret is not None else self.secret).encode()
        signature = "sha1=" + hmac.new(key, raw, hashlib.sha1).hexdigest()
        headers = {"X-Signature": signature, "Content-Type": "application/json"}
        return await self.http.post(self.path, content=raw, headers=headers)

    async def say(self, text: str, group: int | None = None) -> str:
        response = await self.post(self.event(text, group))
        assert response.status_code == 200, response.text
        self.last = response.json()
        return str(self.last.get("reply", ""))


@dataclass
class Outbox:
    """Every platform's sending API at once: what each chat received, in order."""

    received: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    fail_next: int = 0
    dm_channels: dict[str, str] = field(default_factory=dict)

    def to(self, kind: str, chat: str | int) -> list[str]:
        return self.received.get((kind, str(chat)), [])

    def handler(self, request: httpx.Request) -> httpx.Response:
        if self.fail_next:
            self.fail_next -= 1
            return httpx.Response(502, text="bad gateway")
        body = json.loads(request.content or b"{}")
        path = request.url.path
        if path.endswith("/sendMessage"):
            self.received.setdefault(("telegram", str(body["chat_id"])), []).append(body["text"])
            return httpx.Response(200, json={"ok": True, "result": {"message_id": 1}})
        if path.endswith("/users/@me/channels"):
            channel = str(900 + len(self.dm_channels))
            self.dm_channels[channel] = str(body["recipient_id"])
            return httpx.Response(200, json={"id": channel, "type": 1})
        if "/channels/" in path and path.endswith("/messages"):
            user = self.dm_channels[path.split("/")[-2]]
            self.received.setdefault(("discord", user), []).append(body["content"])
            return httpx.Response(200, json={"id": "1"}, headers={"X-RateLimit-Remaining": "4"})
        if path.endswith("/send_private_msg"):
            self.received.setdefault(("onebot", str(body["user_id"])), []).append(body["message"])
            return httpx.Response(
                200, json={"status": "ok", "retcode": 0, "data": {"message_id": 5}}
            )
        return httpx.Response(404, json={"message": "unknown"})

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handler)
