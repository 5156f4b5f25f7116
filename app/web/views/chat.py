"""What the player's page says about the game's chat bots: their public identity, the
link-code button, and the opt-in for private messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.web.messages import pick

JSON = dict[str, Any]

_WORDS: dict[str, tuple[str, str]] = {
    "title": ("私信机器人", "Chat bots"),
    "intro": (
        "可以私信机器人下暗令、查看指令、标记完成，并私下收到提醒和只属于你的结果。",
        "Send hidden orders to a bot by private message, and get your reminders and private "
        "results there.",
    ),
    "telegram": ("Telegram", "Telegram"),
    "discord": ("Discord 应用", "Discord application"),
    "onebot": ("QQ 机器人", "QQ bot"),
    "linked": ("已绑定", "linked"),
    "how.telegram": ("在 Telegram 私聊发送：", "In Telegram, send:"),
    "how.discord": ("在 Discord 输入：", "In Discord, type:"),
    "how.onebot": ("私聊 QQ 机器人发送：", "Send the QQ bot privately:"),
    "open": ("打开", "Open"),
    "get_code": ("获取绑定码", "Get a link code"),
    "code_once": ("绑定码只能用一次，24 小时内有效。", "The code works once, within 24 hours."),
    "notify_on": ("私信接收提醒和结果：已开启", "Reminders and results by private message: on"),
    "notify_off": ("私信接收提醒和结果：已关闭", "Reminders and results by private message: off"),
    "turn_on": ("开启", "Turn on"),
    "turn_off": ("关闭", "Turn off"),
}


COMMANDS = {"telegram": "/start {code}", "discord": "/link code:{code}", "onebot": "绑定 {code}"}


def _say(lang: str, key: str, **fields: Any) -> str:
    zh, en = _WORDS[key]
    return pick(lang, zh.format(**fields), en.format(**fields))


def chat_link(chat: Mapping[str, Any] | None, code: str | None, lang: str) -> JSON | None:
    if not chat:
        return None
    bots = []
    for bot in chat["bots"]:
        identity = bot.get("identity") or {}
        kind = str(bot["kind"])
        url = identity.get("url")
        if kind == "telegram" and code and url:
            url = f"{url}?start={code}"
        bots.append(
            {
                "label": _say(lang, kind),
                "handle": identity.get("handle") if kind != "discord" else "",
                "url": url,
                "linked": _say(lang, "linked") if bot.get("linked") else "",
                "how": _say(lang, f"how.{kind}") if code else "",
                "command": COMMANDS[kind].format(code=code) if code else "",
            }
        )
    return {
        "title": _say(lang, "title"),
        "intro": _say(lang, "intro"),
        "bots": bots,
        "open": _say(lang, "open"),
        "code": code,
        "get_code": _say(lang, "get_code"),
        "code_once": _say(lang, "code_once"),
        "linked": bool(chat.get("linked")),
        "notify": bool(chat.get("notify")),
        "notify_line": _say(lang, "notify_on" if chat.get("notify") else "notify_off"),
        "toggle": _say(lang, "turn_off" if chat.get("notify") else "turn_on"),
    }


_CONSOLE: dict[str, tuple[str, str]] = {
    "title": ("私信机器人", "Chat bots"),
    "on": ("本局已开启：", "On for this game:"),
    "orders": ("私信下指令：{v}", "Orders by private message: {v}"),
    "notes": ("私信提醒与结果：{v}", "Reminders and results by private message: {v}"),
    "yes": ("开启", "on"),
    "no": ("关闭", "off"),
    "linked": ("{player} · {kind}{off}", "{player} · {kind}{off}"),
    "muted": ("（不接收私信）", " (no private messages)"),
    "none": ("还没有玩家绑定。", "No player has linked an account yet."),
    "telegram": ("Telegram", "Telegram"),
    "discord": ("Discord", "Discord"),
    "onebot": ("QQ", "QQ"),
}


def chat_console(chat: Mapping[str, Any] | None, lang: str) -> JSON | None:
    """The console's lines about the game's chat bots and who is linked where."""
    if not chat:
        return None

    def say(key: str, **fields: Any) -> str:
        zh, en = _CONSOLE[key]
        return pick(lang, zh.format(**fields), en.format(**fields))

    bots = [
        {"kind": say(b["kind"]), "handle": (b.get("identity") or {}).get("handle") or b["name"]}
        for b in chat["bots"]
    ]
    links = [
        say(
            "linked",
            player=x["player"],
            kind=say(str(x["kind"])) if x.get("kind") in ("telegram", "discord", "onebot") else "",
            off="" if x["notify"] else say("muted"),
        )
        for x in chat["links"]
    ]
    return {
        "title": say("title"),
        "on": say("on"),
        "bots": bots,
        "lines": [
            say("orders", v=say("yes" if chat["dm_orders"] else "no")),
            say("notes", v=say("yes" if chat["dm_notifications"] else "no")),
        ],
        "links": links,
        "none": say("none"),
    }
