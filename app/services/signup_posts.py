"""The sign-up list as a post (kind ``signup_list``): who holds a seat, who waits, how
many are still wanted, and how to sign up; and the short notices the thread gets when a
seat changes hands. The shell's own words (no game is named); Chinese first, and in a
Chinese game the English beneath it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.kit.post_parts import PostDraft
from app.models import Game
from app.publish import outbox
from app.publish.formats import FORMATTERS
from app.publish.render import FORMATS
from app.services.auth import Principal, require_director
from app.services.games import audit
from app.services.signups import public_list

KIND = "signup_list"

WORDS: dict[str, tuple[str, str]] = {
    "title": ("【报名】{title}", "[Sign-ups] {title}"),
    "open": ("报名进行中。", "Sign-ups are open."),
    "closed": ("报名已截止。", "Sign-ups are closed."),
    "seats": ("已报名（{n}{cap}）：", "Signed up ({n}{cap}):"),
    "waitlist": ("候补（{n}）：", "Backups ({n}):"),
    "pending": ("待导演确认（{n}）：", "Awaiting the director ({n}):"),
    "needed": ("还差 {n} 人。", "{n} more wanted."),
    "how": (
        "回帖“报名”即可报名，“退出”取消；或打开报名页：{url}",
        "Reply “sign” to sign up, “unsign” to withdraw; or open the sign-up page: {url}",
    ),
    "nobody": ("（暂无）", "(nobody yet)"),
    "seat_dropped": (
        "{seat} 的玩家已退出。{then}",
        "The player of {seat} has left. {then}",
    ),
    "offered": (
        "空位已留给第一位候补 {backup}，请在报名页接受。",
        "The seat is offered to the first backup, {backup}: accept it on the sign-up page.",
    ),
    "no_backup": (
        "目前没有候补，导演会另找人接替。",
        "No backup is waiting; the director will find one.",
    ),
    "offer_passed": (
        "{backup} 没有及时接受 {seat} 的空位。{then}",
        "{backup} did not take {seat}'s seat in time. {then}",
    ),
    "backup_seated": ("候补 {backup} 已接替 {seat}。", "Backup {backup} has taken over {seat}."),
    "notice_title": ("【替补】{title}", "[Backups] {title}"),
}


def _say(key: str, english: bool, **fields: Any) -> str:
    zh, en = WORDS[key]
    return (en if english else zh).format(**fields)


def _languages(language: str) -> list[bool]:
    return [True] if language == "en" else [False, True]


def list_lines(listing: dict[str, Any], title: str, url: str, english: bool) -> list[str]:
    """The list in one language, line by line (a player's name is theirs as typed)."""
    cap = listing["max_players"]
    lines = [_say("open" if listing["open"] else "closed", english)]
    names = [p["name"] for p in listing["players"]]
    lines.append(
        _say("seats", english, n=len(names), cap=f"/{cap}" if cap else "")
        + (
            "、".join(names)
            if names and not english
            else ", ".join(names) or _say("nobody", english)
        )
    )
    if listing["waitlist"]:
        backups = [w["name"] for w in listing["waitlist"]]
        lines.append(
            _say("waitlist", english, n=len(backups))
            + ("、" if not english else ", ").join(backups)
        )
    if listing["pending"]:
        lines.append(_say("pending", english, n=len(listing["pending"])))
    if listing["needed"]:
        lines.append(_say("needed", english, n=listing["needed"]))
    if listing["open"]:
        lines.append(_say("how", english, url=url))
    return lines


def signup_draft(listing: dict[str, Any], title: str, url: str, language: str) -> PostDraft:
    bodies = {}
    for name in FORMATS:
        fmt = FORMATTERS[name]
        blocks = [
            fmt.lines(list_lines(listing, title, url, english)) for english in _languages(language)
        ]
        bodies[name] = str(fmt.join(blocks, "\n\n"))
    return PostDraft(kind=KIND, title=_say("title", language == "en", title=title), bodies=bodies)


def notice_draft(key: str, fields: dict[str, Any], language: str, title: str = "") -> PostDraft:
    backup = fields.get("backup")
    bodies = {}
    for name in FORMATS:
        fmt = FORMATTERS[name]
        texts = []
        for english in _languages(language):
            if key in ("seat_dropped", "offer_passed"):
                nxt = backup if key == "seat_dropped" else fields.get("next")
                then = _say("offered", english, backup=nxt) if nxt else _say("no_backup", english)
                named = {"seat": fields["seat"], "backup": backup, "then": then}
                texts.append(_say(key, english, **named))
            else:
                texts.append(_say(key, english, **fields))
        bodies[name] = str(fmt.lines(texts))
    heading = _say("notice_title", language == "en", title=title)
    return PostDraft(kind=KIND, title=heading, bodies=bodies)


async def _post(session: AsyncSession, game: Game, make: Any, now: datetime) -> str:
    def write(sync: Session) -> str:
        facts, pub, _ = outbox.load_context(sync, game.id, now)
        post = outbox.create_post(sync, facts, pub, make(pub.language), now, review=True)
        return post.id

    return str(await session.run_sync(write))


async def post_notice(
    session: AsyncSession, game: Game, key: str, fields: dict[str, Any], now: datetime
) -> str:
    """A seat changed hands: the thread is told (reviewed like any post, if the director
    reviews posts)."""
    return await _post(session, game, lambda lang: notice_draft(key, fields, lang, game.title), now)


async def publish_list(
    session: AsyncSession, game: Game, principal: Principal, base_url: str, now: datetime
) -> dict[str, Any]:
    """``POST /games/{id}/signup/post``: the director publishes the list in the thread."""
    require_director(principal)
    listing = await public_list(session, game, now)
    url = f"{base_url.rstrip('/')}/g/{game.id}/signup"
    post_id = await _post(
        session, game, lambda lang: signup_draft(listing, game.title, url, lang), now
    )
    audit(session, game, principal, "signup_list_post", {"post_id": post_id}, now)
    return {"post_id": post_id, "list": listing}
