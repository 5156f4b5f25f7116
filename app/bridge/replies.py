"""The bot's answers in the thread: a short post that mentions the poster, links their
post, and says what was understood (the grammar's echo) or what went wrong. Pure.

A game in Chinese answers in Chinese with the English beneath it (players read either);
a game in English answers in English.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from app.publish.context import PostDraft
from app.publish.formats import FORMATTERS, Format
from app.publish.render import FORMATS

KIND = "forum_reply"

PHRASES: dict[str, tuple[str, str]] = {
    "title": ("回复 {who}", "Reply to {who}"),
    "accepted": ("已收到指令：{echo}", "Orders received: {echo}"),
    "revised": ("已按修改后的帖子更新指令：{echo}", "Orders updated from your edit: {echo}"),
    # Only hidden orders are sealed into receipts, and the thread takes public orders only:
    # a receipt shown here would let everyone watch when a player revises hidden orders.
    "receipt_where": (
        "帖子里的公开指令当场公开，不进收据；你的暗令收据只在你自己的玩家页面上。",
        "Orders posted here are public at once and sealed into no receipt; the receipt "
        "of your hidden orders is on your own player page only.",
    ),
    "withdrawn": (
        "帖子已删除，其中的指令已撤回。",
        "Your post was deleted; its orders are withdrawn.",
    ),
    "removed": (
        "修改后的帖子里已没有指令，原来的指令已撤回。",
        "Your edited post holds no orders any more; the earlier ones are withdrawn.",
    ),
    "refused": ("指令未被接受：{message}", "Orders not accepted: {message}"),
    "edit_refused": (
        "修改未生效，原来的指令不变：{message}",
        "Your edit was not applied; the earlier orders stand: {message}",
    ),
    "hidden": (
        "警告：「{echo}」是暗令，公开发出的暗令不会执行（全部指令都未提交）。"
        "请在自己的玩家页面或通过 API 私下下达暗令。",
        "Warning: “{echo}” is a hidden order. Hidden orders posted in public are never "
        "executed (none of this post's orders were submitted). Give hidden orders privately, "
        "on your player page or through the API.",
    ),
    "linked": (
        "论坛账号 {who} 已绑定玩家「{name}」。",
        "Forum account {who} is now player “{name}”.",
    ),
    "signup": ("{message}", "{message}"),  # a sign-up's answer, with the list (bridge/signups)
    "bad_code": (
        "这个绑定码无效或已经用过。请在玩家页面查看新的绑定码。",
        "That link code is unknown or already used. Your player page shows a new one.",
    ),
}


_ORDERED = frozenset({"accepted", "revised"})  # answers that confirm orders


@dataclass(frozen=True)
class Reply:
    """What to answer: a phrase and its fields (each field as (Chinese, English))."""

    phrase: str
    fields: dict[str, tuple[str, str]]


def draft(reply: Reply, author: str, post_url: str | None, language: str) -> PostDraft:
    """The reply in every format."""
    bodies = {name: _body(FORMATTERS[name], reply, author, post_url, language) for name in FORMATS}
    title = _say("title", {"who": (author, author)}, language == "en")
    return PostDraft(kind=KIND, title=title, bodies=bodies)


def _say(phrase: str, fields: dict[str, tuple[str, str]], english: bool) -> str:
    zh, en = PHRASES[phrase]
    if english:
        return en.format(**{k: v[1] for k, v in fields.items()})
    return zh.format(**{k: v[0] for k, v in fields.items()})


def _body(fmt: Format, reply: Reply, author: str, post_url: str | None, language: str) -> str:
    head = fmt.mention(author)
    if post_url:
        head = head + Markup(" ") + fmt.link(post_url, "#")
    phrases = [reply.phrase, *(["receipt_where"] if reply.phrase in _ORDERED else [])]
    lines = [head]
    for phrase in phrases:
        lines.append(fmt.esc(_say(phrase, reply.fields, language == "en")))
    if language != "en":
        lines.extend(fmt.esc(_say(phrase, reply.fields, True)) for phrase in phrases)
    return str(fmt.join(lines, "\n\n"))
