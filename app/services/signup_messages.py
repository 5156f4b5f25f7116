"""Sign-ups from where players already are: "报名" / "sign" and "退出" / "unsign" posted
in the game's forum thread (``app/bridge/signups.py``) or, for the chat bots, in the
game's QQ / Telegram group.

The hook for chat groups is :func:`signup_from_message`: a chat bot that reads a group
message of a game calls it with the sender's display name and the text, inside the
request's transaction with the game row locked, and answers with ``reply_zh`` /
``reply_en`` when it returns an answer (None: not a sign-up command, read it as usual).

The poster's name on the forum (or in the chat) is the sign-up's forum name, and its
name in the game unless one is given ("报名 张三").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError
from app.models import Game
from app.services import backups
from app.services import signups as service
from app.services.lookalike import lookalike_key
from app.services.signup_models import SignupRow
from app.services.signup_posts import list_lines

_SIGN = re.compile(r"(?:报名|加入游戏|/?sign(?:\s*up)?|/?join)(?:\s+(?P<name>.{1,100}))?", re.I)
_UNSIGN = re.compile(r"(?:退出|退出游戏|取消报名|/?unsign|/?leave)", re.I)
_LIST = re.compile(r"(?:名单|报名名单|/?slist|/?list)", re.I)


@dataclass(frozen=True)
class SignupAnswer:
    outcome: str  # signed_up | withdrawn | listed | refused
    reply_zh: str
    reply_en: str


def command_of(text: str) -> tuple[str, str | None] | None:
    """("sign", name or None) | ("unsign", None) | ("list", None), or None: the post's
    first line, the whole of it, is one of the commands."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not first or len(first) > 120:
        return None
    if found := _SIGN.fullmatch(first):
        return "sign", (found.group("name") or "").strip() or None
    if _UNSIGN.fullmatch(first):
        return "unsign", None
    if _LIST.fullmatch(first):
        return "list", None
    return None


async def signup_from_message(
    session: AsyncSession,
    game: Game,
    author: str,
    text: str,
    now: datetime,
    source: str = "chat",
    base_url: str = "",
) -> SignupAnswer | None:
    """Act on a sign-up command from a forum post or a chat message (see the module)."""
    command = command_of(text)
    if command is None or not author.strip():
        return None
    kind, name = command
    try:
        if kind == "sign":
            body = service.SignupBody(name=name or author.strip(), forum_name=author.strip())
            made = await service.sign_up(session, game, body, now, None, source=source)
            outcome = "signed_up"
            zh, en = _STATUS[made["status"]]
        elif kind == "unsign":
            mine = await _mine(session, game, author)
            if mine is None:
                raise AppError(404, "not_signed_up", "你还没有报名。", "You have not signed up.")
            await backups.withdraw_signup(session, game, mine, "self", now)
            outcome, zh, en = "withdrawn", "已退出报名。", "You have withdrawn."
        else:
            outcome, zh, en = "listed", "", ""
    except AppError as error:
        return SignupAnswer("refused", error.message_zh, error.message_en)
    except ValidationError as error:  # a name the checks refuse
        message = "; ".join(e["msg"].removeprefix("Value error, ") for e in error.errors())
        return SignupAnswer("refused", f"名字有误：{message}", f"Invalid name: {message}")
    listing = await service.public_list(session, game, now)
    url = f"{base_url.rstrip('/')}/g/{game.id}/signup"
    lines_zh = list_lines(listing, game.title, url, english=False)
    lines_en = list_lines(listing, game.title, url, english=True)
    return SignupAnswer(
        outcome, "\n".join([zh, *lines_zh]).strip(), "\n".join([en, *lines_en]).strip()
    )


_STATUS = {
    "player": ("报名成功！", "You are signed up!"),
    "waitlist": ("名额已满，你已进入候补名单。", "Every seat is taken; you are on the waitlist."),
    "pending": ("已报名，等待导演确认。", "Signed up; the director will confirm."),
}


async def _mine(session: AsyncSession, game: Game, author: str) -> SignupRow | None:
    key = lookalike_key(author)
    rows = await session.scalars(
        select(SignupRow)
        .where(
            SignupRow.game_id == game.id,
            SignupRow.forum_key == key,
            SignupRow.status.in_(service.ACTIVE),
        )
        .order_by(SignupRow.seq.desc())
    )
    return rows.first()
