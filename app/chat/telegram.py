"""Telegram: a bot's webhook (``setWebhook`` with ``secret_token``).

Every update carries ``X-Telegram-Bot-Api-Secret-Token``, which must equal the bot's
``secret_token`` (else 401). Private-chat messages and inline-button callbacks are read;
the reply travels in the webhook's answer (``{"method": "sendMessage", …}``). Messages the
bot sends on its own go to ``sendMessage``: at most 4,096 UTF-16 units each (longer ones
are split), 1 a second per chat and 30 a second per bot (``app.chat.worker`` paces them).
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import AfterValidator, Field

from app.chat.base import BotConfig, Choice, Incoming, malformed, split_command, unauthorized
from app.publish.channels.base import (
    Sent,
    as_dict,
    fail_for_status,
    json_body,
    request,
    seconds_or_none,
    send_parts,
    split_body,
    utf16_length,
)
from app.publish.channels.telegram import _check_token
from app.publish.urls import ChannelUrl, base_url

MESSAGE_LIMIT = 4096
CALLBACK_TEXT_LIMIT = 200  # answerCallbackQuery's text: 0-200 characters
PER_CHAT_SECONDS = 1.0
PER_BOT_PER_SECOND = 30
SECRET_HEADER = "x-telegram-bot-api-secret-token"


class TelegramBotConfig(BotConfig):
    bot_token: Annotated[str, AfterValidator(_check_token)]
    # Telegram allows 1-256 characters A-Z, a-z, 0-9, _ and -.
    secret_token: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,256}$")]
    username: Annotated[str, Field(pattern=r"^@?[A-Za-z][A-Za-z0-9_]{3,31}$")]
    api_base: ChannelUrl = "https://api.telegram.org"


class Telegram:
    kind: ClassVar[str] = "telegram"
    config_model: ClassVar[type[BotConfig]] = TelegramBotConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("bot_token", "secret_token")
    url_fields: ClassVar[tuple[str, ...]] = ("api_base",)
    message_limit: ClassVar[int] = MESSAGE_LIMIT

    def verify(self, config: dict[str, Any], headers: httpx.Headers, body: bytes) -> None:
        given = headers.get(SECRET_HEADER, "")
        if not given or not hmac.compare_digest(given.encode(), config["secret_token"].encode()):
            raise unauthorized("Telegram")

    def identity(self, config: dict[str, Any]) -> dict[str, Any]:
        name = str(config["username"]).lstrip("@")
        return {"handle": f"@{name}", "url": f"https://t.me/{name}"}

    def link_url(self, identity: dict[str, Any], code: str) -> str | None:
        return f"{identity['url']}?start={code}"

    def parse(self, payload: Any) -> Incoming | dict[str, Any] | None:
        update = as_dict(payload)
        update_id = update.get("update_id")
        if not isinstance(update_id, int) or isinstance(update_id, bool):
            raise malformed("update_id")
        if "callback_query" in update:
            query = as_dict(update["callback_query"])
            sender = as_dict(query.get("from"))
            chat = as_dict(as_dict(query.get("message")).get("chat"))
            data = query.get("data")
            if "id" not in sender or not isinstance(data, str):
                raise malformed("callback_query")
            return Incoming(
                key=f"u{update_id}",
                account=str(sender["id"]),
                chat=str(chat.get("id", sender["id"])),
                text="",
                private=chat.get("type", "private") == "private",
                command="game",
                argument=data.removeprefix("game:"),
                name=_name(sender),
                extra={"callback_query_id": query.get("id")},
            )
        message = update.get("message")
        if message is None:
            return None  # edits, joins, polls…: nothing to act on
        message = as_dict(message)
        sender, chat = as_dict(message.get("from")), as_dict(message.get("chat"))
        if "id" not in sender or "id" not in chat:
            raise malformed("message.from / message.chat")
        text = message.get("text")
        if not isinstance(text, str) or sender.get("is_bot"):
            return None
        command, rest = split_command(text)
        return Incoming(
            key=f"u{update_id}",
            account=str(sender["id"]),
            chat=str(chat["id"]),
            text=rest if command in (None, "order") else text,
            private=chat.get("type") == "private",
            command=None if command == "order" else command,
            argument=rest,
            name=_name(sender),
            group=None if chat.get("type") == "private" else str(chat["id"]),
        )

    def reply(self, incoming: Incoming, text: str, choices: list[Choice]) -> dict[str, Any]:
        query = incoming.extra.get("callback_query_id")
        if query and not choices and utf16_length(text) <= CALLBACK_TEXT_LIMIT:
            # A button press: its answer stops the button's spinner and shows the text.
            return {"method": "answerCallbackQuery", "callback_query_id": query, "text": text}
        parts = split_body(text, MESSAGE_LIMIT, utf16_length) or [text]
        answer: dict[str, Any] = {
            "method": "sendMessage",
            "chat_id": int(incoming.chat) if incoming.chat.lstrip("-").isdigit() else incoming.chat,
            "text": parts[0],
        }
        if choices:
            answer["reply_markup"] = {
                "inline_keyboard": [[{"text": c.label, "callback_data": c.data}] for c in choices]
            }
        return answer

    async def send(
        self, config: dict[str, Any], chat: str, text: str, http: httpx.AsyncClient
    ) -> float | None:
        url = f"{base_url(config.get('api_base') or 'https://api.telegram.org')}"
        url += f"/bot{config['bot_token']}/sendMessage"

        async def one(index: int, part: str) -> Sent:
            payload = {"chat_id": int(chat) if chat.lstrip("-").isdigit() else chat, "text": part}
            response = await request(
                self.kind, http, "POST", url, json=payload, secrets=(config["bot_token"],)
            )
            answer = as_dict(json_body(response))
            hint = seconds_or_none(as_dict(answer.get("parameters")).get("retry_after"))
            fail_for_status(self.kind, response, str(answer.get("description") or ""), hint)
            return Sent(None, None)

        await send_parts(split_body(text, MESSAGE_LIMIT, utf16_length), one, asyncio.sleep)
        return None


def _name(user: dict[str, Any]) -> str:
    if user.get("username"):
        return f"@{user['username']}"
    return " ".join(str(user[k]) for k in ("first_name", "last_name") if user.get(k))[:100]
