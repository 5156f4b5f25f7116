""" "报名" / "退出" posted in the game's forum thread: a sign-up (or a withdrawal) for the
poster, answered in the thread with the list (``app/services/signup_messages.py``).
``service.process`` asks here first; None: the post is no sign-up command."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.bridge.replies import Reply
from app.models import Game
from app.services.signup_messages import signup_from_message


async def read_signup(
    session: AsyncSession, game: Game, author: str, text: str, now: datetime
) -> tuple[str, Reply] | None:
    """(outcome, the reply) for a sign-up command; None for anything else."""
    answer = await signup_from_message(session, game, author, text, now, source="forum")
    if answer is None:
        return None
    return answer.outcome, Reply("signup", {"message": (answer.reply_zh, answer.reply_en)})
