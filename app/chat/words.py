"""What the bots say, Chinese first, English with ``/lang en``. Fields in ``{braces}``."""

from __future__ import annotations

from typing import Any

WORDS: dict[str, tuple[str, str]] = {
    "how_to_link": (
        "你还没有绑定座位。请在你的玩家页面点「获取绑定码」，然后发送：{how}",
        "You have not linked a seat yet. On your player page, get a link code, then send: {how}",
    ),
    "how.telegram": ("/start 绑定码", "/start <code>"),
    "how.discord": ("/link code:绑定码", "/link code:<code>"),
    "how.onebot": ("绑定 绑定码", "绑定 <code>"),
    "bad_code": (
        "绑定码无效、已用过或已过期。请在玩家页面重新获取。",
        "That link code is unknown, used or expired. Get a new one on your player page.",
    ),
    "linked": (
        "已绑定：你是「{game}」中的 {name}。直接发送指令即可（私信），发送 /status 查看。",
        "Linked: you are {name} in “{game}”. Send your orders here; /status shows them.",
    ),
    "which_game": (
        "你在多局游戏中有座位，请先选择：/game 编号（或在指令前加 #编号）",
        "You have seats in several games; choose one first: /game <number> (or prefix #<number>)",
    ),
    "game_chosen": ("当前对局：「{game}」（{name}）。", "Now talking about “{game}” ({name})."),
    "no_game": ("没有这个编号的对局。", "No game with that number."),
    "not_running": ("「{game}」现在不收指令。", "“{game}” is not taking orders now."),
    "dm_off": (
        "本局导演没有开启私信下指令。",
        "The director has not turned on orders by private message for this game.",
    ),
    "nothing_read": (
        "没有读出指令。发送 /help 查看用法。",
        "No orders read in that. Send /help for how to order.",
    ),
    "accepted": ("已收到：{echo}", "Received: {echo}"),
    "receipt": ("你的收据：{receipt}", "Your receipt: {receipt}"),
    "refused": ("未接受：{message}", "Not accepted: {message}"),
    "hidden_in_group": (
        "暗指令请私信机器人发送，群里发送的暗指令不会执行。",
        "Hidden orders go to the bot by private message; this one was not executed.",
    ),
    "available": ("本阶段还可下：{names}", "Still open this phase: {names}"),
    "ready_hint": ("完成后发送 /ready。", "Send /ready when you are done."),
    "is_ready": ("你已标记本阶段完成。", "You are marked ready for this phase."),
    "status_none": ("本阶段你还没有指令。", "You have no orders this phase."),
    "status_line": ("#{n} {name}（{status}）", "#{n} {name} ({status})"),
    "withdrawn": ("已撤回 #{n}。", "Withdrew #{n}."),
    "no_such_order": (
        "没有可撤回的 #{n}。发送 /status 查看编号。",
        "No order #{n} to withdraw; /status lists them.",
    ),
    "ready_done": ("已标记本阶段完成。", "Marked ready for this phase."),
    "lang_set": ("语言：中文。", "Language: English."),
    "help": (
        "私信发送指令即可（可一次多条，每行一条）。/status 查看，/withdraw 编号 撤回，"
        "/ready 完成本阶段，/lang en 切换英文，/game 编号 选择对局。",
        "Send orders here (several at once, one per line). /status lists them, "
        "/withdraw <n> withdraws, /ready ends your phase, /lang zh for Chinese, "
        "/game <n> chooses a game.",
    ),
    "reminder": (
        "「{game}」提醒：本阶段截止于 {deadline}，你还没有下指令或标记完成。",
        "“{game}”: this phase closes at {deadline} and you have not ordered or readied yet.",
    ),
    "event": ("「{game}」{line}", "“{game}”: {line}"),
    "salt": (
        "「{game}」你的收据现在可以核对了，核对用的密钥：{line}",
        "“{game}”: your receipt can be checked now; the key to check it with: {line}",
    ),
}


def say(key: str, lang: str, **fields: Any) -> str:
    zh, en = WORDS[key]
    text = en if lang == "en" else zh
    return text.format(**fields) if fields else text
