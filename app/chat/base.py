"""What the three platforms share: one incoming message in a common shape, the answer the
bot gives in the HTTP response, and the config models of a bot (secret fields sealed like
channel secrets, never returned).

Each platform module (``telegram``, ``discord``, ``onebot``) verifies the platform's own
signature, reads its payload into an :class:`Incoming`, shapes a reply the platform takes
in the HTTP answer, and sends a private message on its own (the chat outbox's worker).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import httpx
from pydantic import BaseModel, ConfigDict

from app.errors import AppError


@dataclass(frozen=True)
class Incoming:
    """One message (or button press, or slash command) to the bot.

    ``key``: what makes a replay the same update (update_id, interaction id, message_id).
    ``command``: link, status, withdraw, ready, lang, game, help — or None for plain text,
    which is read as orders. ``private``: nobody else sees it (a private chat, a DM, an
    ephemeral slash command); a hidden order anywhere else is refused."""

    key: str
    account: str
    chat: str  # where the bot's own private messages to this account go
    text: str
    private: bool
    command: str | None = None
    argument: str = ""
    name: str = ""  # the account's display name, for the director's list
    group: str | None = None  # the group it was said in (None: privately)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """A button the reply offers (Telegram inline keyboard): label and callback data."""

    label: str
    data: str


class BotConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Platform(Protocol):
    kind: ClassVar[str]
    config_model: ClassVar[type[BotConfig]]
    secret_fields: ClassVar[tuple[str, ...]]
    url_fields: ClassVar[tuple[str, ...]]
    message_limit: ClassVar[int]

    def verify(self, config: dict[str, Any], headers: httpx.Headers, body: bytes) -> None: ...

    def identity(self, config: dict[str, Any]) -> dict[str, Any]: ...

    def link_url(self, identity: dict[str, Any], code: str) -> str | None: ...

    def parse(self, payload: Any) -> Incoming | dict[str, Any] | None: ...

    def reply(self, incoming: Incoming, text: str, choices: list[Choice]) -> dict[str, Any]: ...

    async def send(
        self, config: dict[str, Any], chat: str, text: str, http: httpx.AsyncClient
    ) -> float | None:
        """Send ``text`` (split to the platform's limit); the seconds the bot should
        wait before its next message when the platform says its bucket is empty."""


def unauthorized(what: str) -> AppError:
    return AppError(
        401,
        "bad_signature",
        f"{what}签名无效或缺失。",
        f"The {what} signature is missing or invalid.",
    )


def malformed(detail: str) -> AppError:
    return AppError(422, "bad_update", f"无法读取的消息：{detail}", f"Unreadable update: {detail}")


def split_command(text: str) -> tuple[str | None, str]:
    """A leading ``/command`` (Telegram's ``/cmd@botname`` too) and the rest; Chinese
    command words (QQ: 绑定, 状态, 撤回, 准备, 帮助) count the same."""
    stripped = text.strip()
    head, _, rest = stripped.partition(" ")
    if not head:
        return None, ""
    word = head.split("@", 1)[0].lower() if head.startswith("/") else head
    command = COMMANDS.get(word.lstrip("/")) if word.startswith("/") else ZH_COMMANDS.get(word)
    if command is None:
        return None, stripped
    return command, rest.strip()


COMMANDS = {
    "start": "link",
    "link": "link",
    "status": "status",
    "list": "status",
    "orders": "status",
    "withdraw": "withdraw",
    "ready": "ready",
    "lang": "lang",
    "game": "game",
    "help": "help",
    "order": "order",
}
ZH_COMMANDS = {
    "绑定": "link",
    "状态": "status",
    "列表": "status",
    "撤回": "withdraw",
    "准备": "ready",
    "完成": "ready",
    "语言": "lang",
    "选局": "game",
    "帮助": "help",
}
