"""Discord: an application's HTTP interactions endpoint.

Each request is signed: Ed25519 over ``X-Signature-Timestamp`` + the raw body, with the
application's public key, in ``X-Signature-Ed25519`` (hex). A bad signature is a 401 —
Discord itself sends some to check. PING (type 1) is answered ``{"type": 1}``; the slash
commands ``/order text:…``, ``/link code:…``, ``/status``, ``/ready``, ``/withdraw`` and
``/lang`` are answered in the response, ephemerally (flag 64: only the caller sees it).
Messages the bot sends on its own open a DM (``POST /users/@me/channels``) and post to it,
at most 2,000 characters each; the rate-limit headers (``X-RateLimit-Remaining``,
``X-RateLimit-Reset-After``) and a 429's ``retry_after`` pace the worker.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, ClassVar

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from pydantic import Field

from app.chat.base import BotConfig, Choice, Incoming, malformed, unauthorized
from app.publish.channels.base import (
    Sent,
    as_dict,
    fail_for_status,
    json_body,
    request,
    seconds_or_none,
    send_parts,
    split_body,
)
from app.publish.urls import ChannelUrl, base_url

MESSAGE_LIMIT = 2000
EPHEMERAL = 1 << 6
PING, COMMAND, COMPONENT = 1, 2, 3
PONG, CHANNEL_MESSAGE = 1, 4
Snowflake = Annotated[str, Field(pattern=r"^[1-9][0-9]{0,19}$")]

# The slash commands (``forumplay bot commands`` registers them): name, description, option.
COMMANDS: list[dict[str, Any]] = [
    {
        "name": "order",
        "description": "下指令 / submit orders",
        "options": [{"type": 3, "name": "text", "description": "指令 / orders", "required": True}],
    },
    {
        "name": "link",
        "description": "绑定座位 / link your seat",
        "options": [{"type": 3, "name": "code", "description": "FP-…", "required": True}],
    },
    {"name": "status", "description": "我的指令 / my orders"},
    {"name": "ready", "description": "本阶段完成 / ready for this phase"},
    {
        "name": "withdraw",
        "description": "撤回指令 / withdraw an order",
        "options": [{"type": 4, "name": "number", "description": "#", "required": False}],
    },
    {
        "name": "lang",
        "description": "语言 / language",
        "options": [{"type": 3, "name": "language", "description": "zh | en", "required": True}],
    },
    {
        "name": "game",
        "description": "选择对局 / choose a game",
        "options": [{"type": 3, "name": "game", "description": "#", "required": True}],
    },
]


class DiscordBotConfig(BotConfig):
    application_id: Snowflake
    public_key: Annotated[str, Field(pattern=r"^[0-9a-fA-F]{64}$")]
    bot_token: Annotated[str, Field(min_length=20, max_length=200)]
    api_base: ChannelUrl = "https://discord.com/api/v10"


class Discord:
    kind: ClassVar[str] = "discord"
    config_model: ClassVar[type[BotConfig]] = DiscordBotConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("bot_token",)
    url_fields: ClassVar[tuple[str, ...]] = ("api_base",)
    message_limit: ClassVar[int] = MESSAGE_LIMIT

    def verify(self, config: dict[str, Any], headers: httpx.Headers, body: bytes) -> None:
        signature = headers.get("x-signature-ed25519", "")
        timestamp = headers.get("x-signature-timestamp", "")
        try:
            key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(config["public_key"]))
            key.verify(bytes.fromhex(signature), timestamp.encode() + body)
        except (ValueError, InvalidSignature):
            raise unauthorized("Discord") from None
        if not signature or not timestamp:
            raise unauthorized("Discord")

    def identity(self, config: dict[str, Any]) -> dict[str, Any]:
        app_id = config["application_id"]
        return {
            "handle": f"Discord app {app_id}",
            "url": f"https://discord.com/oauth2/authorize?client_id={app_id}"
            "&scope=applications.commands+bot",
        }

    def link_url(self, identity: dict[str, Any], code: str) -> str | None:
        return None

    def parse(self, payload: Any) -> Incoming | dict[str, Any] | None:
        interaction = as_dict(payload)
        kind = interaction.get("type")
        if kind == PING:
            return {"type": PONG}
        if "id" not in interaction or kind not in (COMMAND, COMPONENT):
            raise malformed("interaction type")
        user = as_dict(as_dict(interaction.get("member")).get("user")) or as_dict(
            interaction.get("user")
        )
        data = as_dict(interaction.get("data"))
        if "id" not in user:
            raise malformed("interaction user")
        base: dict[str, Any] = {
            "key": f"i{interaction['id']}",
            "account": str(user["id"]),
            "chat": str(user["id"]),
            "private": True,  # answered ephemerally: only the caller sees it
            "name": str(user.get("global_name") or user.get("username") or "")[:100],
        }
        if kind == COMPONENT:
            custom = str(data.get("custom_id", ""))
            return Incoming(text="", command="game", argument=custom.removeprefix("game:"), **base)
        name = data.get("name")
        options = {
            str(o.get("name")): o.get("value")
            for o in data.get("options") or []
            if isinstance(o, dict)
        }
        if name == "order":
            return Incoming(text=str(options.get("text") or ""), **base)
        if name not in ("link", "status", "ready", "withdraw", "lang", "game", "help"):
            raise malformed("unknown command")
        argument = next((str(v) for v in options.values() if v is not None), "")
        return Incoming(text="", command=str(name), argument=argument, **base)

    def reply(self, incoming: Incoming, text: str, choices: list[Choice]) -> dict[str, Any]:
        parts = split_body(text, MESSAGE_LIMIT) or [text]
        data: dict[str, Any] = {
            "content": parts[0],
            "flags": EPHEMERAL,
            "allowed_mentions": {"parse": []},
        }
        if choices:
            buttons = [
                {"type": 2, "style": 1, "label": c.label[:80], "custom_id": c.data}
                for c in choices[:5]
            ]
            data["components"] = [{"type": 1, "components": buttons}]
        return {"type": CHANNEL_MESSAGE, "data": data}

    async def send(
        self, config: dict[str, Any], chat: str, text: str, http: httpx.AsyncClient
    ) -> float | None:
        api = base_url(config.get("api_base") or "https://discord.com/api/v10")
        headers = {"Authorization": f"Bot {config['bot_token']}"}
        secrets = (config["bot_token"],)
        opened = await request(
            self.kind,
            http,
            "POST",
            f"{api}/users/@me/channels",
            json={"recipient_id": chat},
            headers=headers,
            secrets=secrets,
        )
        _check(opened)
        channel = as_dict(json_body(opened)).get("id")
        if not channel:
            raise malformed("no DM channel")
        pause: list[float | None] = [None]

        async def one(index: int, part: str) -> Sent:
            response = await request(
                self.kind,
                http,
                "POST",
                f"{api}/channels/{channel}/messages",
                json={"content": part, "allowed_mentions": {"parse": []}},
                headers=headers,
                secrets=secrets,
            )
            _check(response)
            pause[0] = bucket_pause(response)
            return Sent(None, None)

        await send_parts(split_body(text, MESSAGE_LIMIT), one, asyncio.sleep)
        return pause[0]


def _check(response: httpx.Response) -> None:
    answer = as_dict(json_body(response))
    hint = seconds_or_none(answer.get("retry_after"))
    fail_for_status("discord", response, str(answer.get("message") or ""), hint)


def bucket_pause(response: httpx.Response) -> float | None:
    """Seconds to wait before the next request when the bucket is empty (else None)."""
    if response.headers.get("x-ratelimit-remaining") == "0":
        return seconds_or_none(response.headers.get("x-ratelimit-reset-after"))
    return None


async def register_commands(config: dict[str, Any], http: httpx.AsyncClient) -> int:
    """Overwrite the application's global slash commands with :data:`COMMANDS`."""
    api = base_url(config.get("api_base") or "https://discord.com/api/v10")
    response = await request(
        "discord",
        http,
        "PUT",
        f"{api}/applications/{config['application_id']}/commands",
        json=COMMANDS,
        headers={"Authorization": f"Bot {config['bot_token']}"},
        secrets=(config["bot_token"],),
    )
    _check(response)
    return len(COMMANDS)
